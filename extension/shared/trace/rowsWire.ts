// A trace's rows on their way to the webview, packed. VS Code's message path to a webview in code-server carries
// ~35 MB/s whatever the bytes (docs/BENCHMARKS.md), and as plain columns a row is 35 bytes. Packed, the model's
// order does most of the work: rows come grouped by track and level, so those two are runs; within a run starts
// ascend, so a start is the whole nanoseconds since the one before; durations, names and correlation ids are
// small integers. Each is a variable-length integer (7 bits a byte), ~9 bytes a row on real traces. A column with
// a value that is not whole ns (or not an id) goes plain, so any model packs and unpacks to the same numbers.
import { NS_PER_US } from './model.ts';
import type { TraceColumns } from './rowParts.ts';
import { MAX_MAGNITUDE, unzigzag, VarintReader, VarintWriter, zigzag } from './varints.ts';

/** A packed column: variable-length integers, or the plain values where they would not round-trip. */
export type PackedColumn = { varints: Uint8Array } | { plain: Float64Array };

/** Rows [from, from + count) of a model, packed. */
export interface PackedRows {
  count: number;
  /** per run of rows on one track and level: its track, its depth and how many rows it has */
  runs: Uint32Array;
  /** µs since the origin: ns since the previous row of its run (the first: since the origin), zigzag */
  start: PackedColumn;
  /** µs: ns, zigzag */
  dur: PackedColumn;
  name: Uint8Array;
  kind: Uint8Array;
  /** -1 or an id: 0 for none, else 1 + the zigzag step from the last id in these rows */
  correlation: PackedColumn;
}

/** Rows [from, to) of the columns, packed. */
export function packRows(columns: TraceColumns, from: number, to: number): PackedRows {
  const count = Math.max(0, to - from);
  const runs: number[] = [];
  for (let i = from; i < to;) {
    const track = columns.track[i];
    const depth = columns.depth[i];
    let end = i + 1;
    while (end < to && columns.track[end] === track && columns.depth[end] === depth) end++;
    runs.push(track, depth, end - i);
    i = end;
  }
  const runStarts = new Uint8Array(count);
  for (let r = 0, at = 0; r < runs.length; r += 3) { runStarts[at] = 1; at += runs[r + 2]; }
  return {
    count,
    runs: Uint32Array.from(runs),
    start: packStarts(columns.start, from, to, runStarts),
    dur: packDurations(columns.dur, from, to),
    name: packNames(columns.name, from, to),
    kind: columns.kind.slice(from, to),
    correlation: packCorrelations(columns.correlation, from, to),
  };
}

/** The columns of packed rows. */
export function unpackRows(rows: PackedRows): TraceColumns {
  const n = rows.count;
  const track = new Uint32Array(n);
  const depth = new Uint16Array(n);
  const runStarts = new Uint8Array(n);
  for (let r = 0, at = 0; r < rows.runs.length; r += 3) {
    const length = rows.runs[r + 2];
    track.fill(rows.runs[r], at, at + length);
    depth.fill(rows.runs[r + 1], at, at + length);
    runStarts[at] = 1;
    at += length;
  }
  return {
    start: unpackStarts(rows.start, n, runStarts),
    dur: 'plain' in rows.dur ? rows.dur.plain : unpackDurations(rows.dur.varints, n),
    track,
    name: unpackNames(rows.name, n),
    kind: rows.kind,
    depth,
    correlation: 'plain' in rows.correlation ? rows.correlation.plain : unpackCorrelations(rows.correlation.varints, n),
  };
}

// Packing and unpacking, a function per column: V8 optimises a small function's loop early (buildModel.ts).

function packStarts(start: Float64Array, from: number, to: number, runStarts: Uint8Array): PackedColumn {
  const out = new VarintWriter(to - from);
  let previous = 0;
  for (let i = from; i < to; i++) {
    const ns = exactNs(start[i]);
    if (ns === null) return { plain: start.slice(from, to) };
    out.signed(runStarts[i - from] ? ns : ns - previous);
    previous = ns;
  }
  return { varints: out.bytes() };
}

function unpackStarts(column: PackedColumn, n: number, runStarts: Uint8Array): Float64Array {
  if ('plain' in column) return column.plain;
  const start = new Float64Array(n);
  const reader = new VarintReader(column.varints);
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const ns = runStarts[i] ? reader.signed() : previous + reader.signed();
    start[i] = ns / NS_PER_US;
    previous = ns;
  }
  return start;
}

function packDurations(dur: Float64Array, from: number, to: number): PackedColumn {
  const out = new VarintWriter(to - from);
  for (let i = from; i < to; i++) {
    const ns = exactNs(dur[i]);
    if (ns === null) return { plain: dur.slice(from, to) };
    out.signed(ns);
  }
  return { varints: out.bytes() };
}

function unpackDurations(varints: Uint8Array, n: number): Float64Array {
  const dur = new Float64Array(n);
  const reader = new VarintReader(varints);
  for (let i = 0; i < n; i++) dur[i] = reader.signed() / NS_PER_US;
  return dur;
}

function packNames(name: Uint32Array, from: number, to: number): Uint8Array {
  const out = new VarintWriter(to - from);
  for (let i = from; i < to; i++) out.unsigned(name[i]);
  return out.bytes();
}

function unpackNames(varints: Uint8Array, n: number): Uint32Array {
  const name = new Uint32Array(n);
  const reader = new VarintReader(varints);
  for (let i = 0; i < n; i++) name[i] = reader.unsigned();
  return name;
}

function packCorrelations(correlation: Float64Array, from: number, to: number): PackedColumn {
  const out = new VarintWriter(to - from);
  let last = 0;
  for (let i = from; i < to; i++) {
    const id = correlation[i];
    if (id === -1) { out.unsigned(0); continue; }
    if (!Number.isInteger(id) || id < 0 || id > MAX_MAGNITUDE) return { plain: correlation.slice(from, to) };
    out.unsigned(1 + zigzag(id - last));
    last = id;
  }
  return { varints: out.bytes() };
}

function unpackCorrelations(varints: Uint8Array, n: number): Float64Array {
  const correlation = new Float64Array(n);
  const reader = new VarintReader(varints);
  let last = 0;
  for (let i = 0; i < n; i++) {
    const code = reader.unsigned();
    if (code === 0) { correlation[i] = -1; continue; }
    last += unzigzag(code - 1);
    correlation[i] = last;
  }
  return correlation;
}

/** `us` in ns when it is whole ns (as model.ts keeps times: its ns / 1000 gives it back exactly), else null. */
function exactNs(us: number): number | null {
  const ns = Math.round(us * NS_PER_US);
  return ns / NS_PER_US === us && Math.abs(ns) <= MAX_MAGNITUDE ? ns : null;
}
