import {
  argsOfBytes,
  unpackKernelArgs,
  type DeflatedKernelArgs,
  type PackedField,
  type PackedKernelArgs,
} from '../extension/shared/trace/argsWire.ts';
import type { TraceModel } from '../extension/shared/trace/model.ts';
import type { TraceColumns } from '../extension/shared/trace/rowParts.ts';
import {
  rowsOfBytes,
  unpackRows,
  type DeflatedRows,
  type PackedColumn,
  type PackedRows,
} from '../extension/shared/trace/rowsWire.ts';
import { unpackSteps } from '../extension/shared/trace/stepsWire.ts';
import type { PostedTrace } from '../extension/shared/trace/traceWire.ts';

// postMessage may deliver typed arrays as plain arrays or index-keyed objects: the columns are restored.
const as = <T>(value: unknown, make: (values: number[]) => T, type: abstract new (...args: never[]) => T): T =>
  value instanceof type ? value : make(Object.values(value as Record<string, number>));
const bytes = (value: unknown): Uint8Array => as(value, (v) => Uint8Array.from(v), Uint8Array);
const float64 = (value: unknown): Float64Array => as(value, (v) => Float64Array.from(v), Float64Array);
const uint32 = (value: unknown): Uint32Array => as(value, (v) => Uint32Array.from(v), Uint32Array);

function reviveColumns(columns: TraceColumns): TraceColumns {
  return {
    start: float64(columns.start),
    dur: float64(columns.dur),
    track: uint32(columns.track),
    name: uint32(columns.name),
    kind: bytes(columns.kind),
    depth: as(columns.depth, (v) => Uint16Array.from(v), Uint16Array),
    correlation: float64(columns.correlation),
  };
}

const reviveColumn = (column: PackedColumn): PackedColumn =>
  'plain' in column ? { plain: float64(column.plain) } : { varints: bytes(column.varints) };

/** Packed rows' columns (rowsWire.ts), into `into` from row `at` where given. */
export function unpackPosted(rows: PackedRows, into?: TraceColumns, at?: number): TraceColumns {
  return unpackRows(
    {
      count: rows.count,
      runs: uint32(rows.runs),
      start: reviveColumn(rows.start),
      dur: reviveColumn(rows.dur),
      name: bytes(rows.name),
      kind: bytes(rows.kind),
      correlation: reviveColumn(rows.correlation),
    },
    into,
    at,
  );
}

/** Rows the host deflated (a webview across a network link), inflated and cut into their packed columns. */
export async function inflateRows(rows: DeflatedRows): Promise<PackedRows> {
  return rowsOfBytes({
    count: rows.count,
    bytes: await inflate(rows.deflated),
    lengths: rows.lengths,
    plain: rows.plain,
  });
}

/** Kernel args the host deflated, inflated and cut into their packed fields. */
export async function inflateKernelArgs(args: DeflatedKernelArgs): Promise<PackedKernelArgs> {
  return argsOfBytes({
    rows: args.rows,
    bytes: await inflate(args.deflated),
    lengths: args.lengths,
    shapes: args.shapes,
  });
}

async function inflate(deflated: Uint8Array): Promise<Uint8Array> {
  const posted = bytes(deflated) as Uint8Array<ArrayBuffer>; // posted: never a SharedArrayBuffer's
  const inflated = new Blob([posted]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

/** A posted trace's columns (packed or plain). */
export function postedColumns(trace: PostedTrace): TraceColumns {
  return 'rows' in trace ? unpackPosted(trace.rows) : reviveColumns(trace);
}

/** The posted trace with these columns for its rows. */
export function withColumns(
  trace: PostedTrace,
  columns: TraceColumns,
): Omit<TraceModel, 'steps' | 'kernelArgs'> & Pick<PostedTrace, 'steps' | 'kernelArgs'> {
  const { count, names, tracks, originUs, stepSource, warnings, steps, kernelArgs } = trace;
  return { count, names, tracks, originUs, stepSource, warnings, steps, kernelArgs, ...columns };
}

/** The model posted by the host: its columns and kernel args restored or unpacked (rowsWire.ts, argsWire.ts), its steps unpacked (stepsWire.ts). */
export function reviveModel(trace: PostedTrace): TraceModel {
  return {
    ...withColumns(trace, postedColumns(trace)),
    steps: unpackSteps(trace.steps, float64),
    kernelArgs: kernelArgsOf(trace.kernelArgs),
  };
}

const reviveField = (field: PackedField): PackedField =>
  'plain' in field
    ? { plain: float64(field.plain) }
    : 'table' in field
      ? { table: float64(field.table), index: bytes(field.index) }
      : { steps: bytes(field.steps) };

function kernelArgsOf(args: PostedTrace['kernelArgs'] | undefined): TraceModel['kernelArgs'] {
  if (args && 'deflated' in args)
    throw new Error('kernel args still deflated: opening.ts inflates them as the trace comes');
  if (args && 'fields' in args)
    return unpackKernelArgs({ rows: args.rows, slice: bytes(args.slice), fields: args.fields.map(reviveField) });
  return { slice: uint32(args?.slice ?? []), values: float64(args?.values ?? []) };
}
