import type { TraceModel } from '../extension/shared/trace/model.ts';

/** postMessage may deliver typed arrays as plain arrays or index-keyed objects: restore the columns. */
export function reviveModel(trace: TraceModel): TraceModel {
  const as = <T>(value: unknown, make: (values: number[]) => T, type: Function): T =>
    (value instanceof type ? value as T : make(Object.values(value as Record<string, number>)));
  return {
    ...trace,
    start: as(trace.start, (v) => Float64Array.from(v), Float64Array),
    dur: as(trace.dur, (v) => Float64Array.from(v), Float64Array),
    track: as(trace.track, (v) => Uint32Array.from(v), Uint32Array),
    name: as(trace.name, (v) => Uint32Array.from(v), Uint32Array),
    kind: as(trace.kind, (v) => Uint8Array.from(v), Uint8Array),
    depth: as(trace.depth, (v) => Uint16Array.from(v), Uint16Array),
    correlation: as(trace.correlation, (v) => Float64Array.from(v), Float64Array),
    kernelArgs: {
      slice: as(trace.kernelArgs?.slice ?? [], (v) => Uint32Array.from(v), Uint32Array),
      values: as(trace.kernelArgs?.values ?? [], (v) => Float64Array.from(v), Float64Array),
    },
  };
}
