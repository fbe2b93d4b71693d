import type { PostedTrace } from '../extension/shared/protocol.ts';
import type { TraceModel } from '../extension/shared/trace/model.ts';
import type { TraceColumns } from '../extension/shared/trace/rowParts.ts';
import { unpackSteps } from '../extension/shared/trace/stepsWire.ts';

// postMessage may deliver typed arrays as plain arrays or index-keyed objects: the columns are restored.
const as = <T>(value: unknown, make: (values: number[]) => T, type: Function): T =>
  (value instanceof type ? value as T : make(Object.values(value as Record<string, number>)));

export function reviveColumns(columns: TraceColumns): TraceColumns {
  return {
    start: as(columns.start, (v) => Float64Array.from(v), Float64Array),
    dur: as(columns.dur, (v) => Float64Array.from(v), Float64Array),
    track: as(columns.track, (v) => Uint32Array.from(v), Uint32Array),
    name: as(columns.name, (v) => Uint32Array.from(v), Uint32Array),
    kind: as(columns.kind, (v) => Uint8Array.from(v), Uint8Array),
    depth: as(columns.depth, (v) => Uint16Array.from(v), Uint16Array),
    correlation: as(columns.correlation, (v) => Float64Array.from(v), Float64Array),
  };
}

/** The model posted by the host: its columns restored, its steps unpacked (stepsWire.ts). */
export function reviveModel(trace: PostedTrace): TraceModel {
  return {
    ...trace,
    ...reviveColumns(trace),
    steps: unpackSteps(trace.steps, (v) => as(v, (values) => Float64Array.from(values), Float64Array)),
    kernelArgs: {
      slice: as(trace.kernelArgs?.slice ?? [], (v) => Uint32Array.from(v), Uint32Array),
      values: as(trace.kernelArgs?.values ?? [], (v) => Float64Array.from(v), Float64Array),
    },
  };
}
