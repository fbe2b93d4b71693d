// A trace's rows on their way to the webview, packed. VS Code's message path to a webview in code-server carries
// some 25–35 MB/s (docs/BENCHMARKS.md), and as plain columns a row is 35 bytes. Packed, the model's
// order does most of the work: rows come grouped by track and level, so those two are runs; within a run a slice
// starts after the one before has ended, so a start is the whole nanoseconds since that end; durations, names and
// correlation ids are small integers; kinds come in runs, and so do the rows without a correlation id (a CPU
// thread's ops). Each is a variable-length integer (7 bits a byte), 6–8 bytes a row on real traces. A column with a
// value that is not whole ns (or not an id) goes plain, so any model packs and unpacks to the same numbers.
import { cutBytes, joinBytes } from './byteRuns.ts';
import { NS_PER_US } from './model.ts';
import { emptyColumns, type TraceColumns } from './rowParts.ts';
import { MAX_MAGNITUDE, unzigzag, VarintReader, VarintWriter, zigzag } from './varints.ts';

/** A packed column: variable-length integers, or the plain values where they would not round-trip. */
export type PackedColumn = { varints: Uint8Array } | { plain: Float64Array };

/** Rows [from, from + count) of a model, packed. */
export interface PackedRows {
  count: number;
  /** per run of rows on one track and level: its track, its depth and how many rows it has */
  runs: Uint32Array;
  /** µs since the origin: ns since the previous row of its run ended (the first: since the origin), zigzag */
  start: PackedColumn;
  /** µs: ns, zigzag */
  dur: PackedColumn;
  name: Uint8Array;
  /** runs of one kind: the kind, then how many rows */
  kind: Uint8Array;
  /** -1 or an id: 0 then how many rows in a row have none, else 1 + the zigzag step from the last id in these rows */
  correlation: PackedColumn;
}

/** Rows [from, to) of the columns, packed. */
export function packRows(columns: TraceColumns, from: number, to: number): PackedRows {
  const count = Math.max(0, to - from);
  const runs: number[] = [];
  for (let i = from; i < to;) {
    const track = columns.track[i]!;
    const depth = columns.depth[i]!;
    let end = i + 1;
    while (end < to && columns.track[end] === track && columns.depth[end] === depth) end++;
    runs.push(track, depth, end - i);
    i = end;
  }
  const runStarts = new Uint8Array(count);
  for (let r = 0, at = 0; r < runs.length; r += 3) {
    runStarts[at] = 1;
    at += runs[r + 2]!;
  }
  return {
    count,
    runs: Uint32Array.from(runs),
    start: packStarts(columns.start, columns.dur, from, to, runStarts),
    dur: packDurations(columns.dur, from, to),
    name: packNames(columns.name, from, to),
    kind: packKinds(columns.kind, from, to),
    correlation: packCorrelations(columns.correlation, from, to),
  };
}

/** Packed rows as one run of bytes (to be deflated whole): each column's bytes in PackedRows' order, their lengths, and which of start, dur and correlation are plain. */
export interface RowsInBytes {
  count: number;
  bytes: Uint8Array;
  lengths: number[];
  plain: boolean[];
}

/**
 * Packed rows deflated (node/trace/deflatedPieces.ts) for a webview across a network link — a browser's, a
 * remote's — where every byte of the message costs (docs/BENCHMARKS.md); inflated there (webview/reviveModel.ts).
 */
export type DeflatedRows = Omit<RowsInBytes, 'bytes'> & { deflated: Uint8Array };

const columnBytes = (column: PackedColumn): Uint8Array | Float64Array =>
  'plain' in column ? column.plain : column.varints;

export function bytesOfRows(rows: PackedRows): RowsInBytes {
  const { bytes, lengths } = joinBytes([
    rows.runs,
    columnBytes(rows.start),
    columnBytes(rows.dur),
    rows.name,
    rows.kind,
    columnBytes(rows.correlation),
  ]);
  return {
    count: rows.count,
    bytes,
    lengths,
    plain: [rows.start, rows.dur, rows.correlation].map((c) => 'plain' in c),
  };
}

/** The packed rows bytesOfRows() put in one run of bytes (their columns copied out); throws where the lengths do not fit. */
export function rowsOfBytes({ count, bytes, lengths, plain }: RowsInBytes): PackedRows {
  const next = plain.length === 3 ? cutBytes(bytes, lengths, 6) : null;
  if (!next) throw new Error('packed rows: the bytes do not hold the columns said');
  const column = (isPlain: boolean): PackedColumn =>
    isPlain ? { plain: new Float64Array(next().buffer) } : { varints: next() };
  const runs = new Uint32Array(next().buffer);
  return {
    count,
    runs,
    start: column(plain[0]!),
    dur: column(plain[1]!),
    name: next(),
    kind: next(),
    correlation: column(plain[2]!),
  };
}

/**
 * The columns of packed rows: written into `into` from row `at` (a whole trace's columns, filled part by part:
 * no columns made per part) or into new ones; returns the part's (views of `into`'s). Throws where they do not
 * fit or the bytes end early.
 */
export function unpackRows(rows: PackedRows, into: TraceColumns = emptyColumns(rows.count), at = 0): TraceColumns {
  const n = rows.count;
  if (!(at >= 0 && at + n <= into.start.length)) throw new Error('packed rows: more rows than the columns hold');
  const part = rowsOf(into, at, at + n);
  const runStarts = new Uint8Array(n);
  let filled = 0;
  for (let r = 0; r < rows.runs.length; r += 3) {
    const length = rows.runs[r + 2]!;
    if (filled + length > n) throw new Error('packed rows: a track run overruns its rows');
    part.track.fill(rows.runs[r]!, filled, filled + length);
    part.depth.fill(rows.runs[r + 1]!, filled, filled + length);
    runStarts[filled] = 1;
    filled += length;
  }
  if (filled !== n) throw new Error('packed rows end early');
  if ('plain' in rows.dur) putPlain(part.dur, rows.dur.plain);
  else unpackDurations(rows.dur.varints, part.dur);
  if ('plain' in rows.start) putPlain(part.start, rows.start.plain);
  else unpackStarts(rows.start.varints, part.dur, runStarts, part.start);
  unpackNames(rows.name, part.name);
  unpackKinds(rows.kind, part.kind);
  if ('plain' in rows.correlation) putPlain(part.correlation, rows.correlation.plain);
  else unpackCorrelations(rows.correlation.varints, part.correlation);
  return part;
}

/** Rows [from, to) of the columns, as views. */
function rowsOf(columns: TraceColumns, from: number, to: number): TraceColumns {
  return {
    start: columns.start.subarray(from, to),
    dur: columns.dur.subarray(from, to),
    track: columns.track.subarray(from, to),
    name: columns.name.subarray(from, to),
    kind: columns.kind.subarray(from, to),
    depth: columns.depth.subarray(from, to),
    correlation: columns.correlation.subarray(from, to),
  };
}

function putPlain(out: Float64Array, plain: Float64Array): void {
  if (plain.length !== out.length) throw new Error('packed rows: a plain column of another length');
  out.set(plain);
}

// Packing and unpacking, a function per column: V8 optimises a small function's loop early (buildModel.ts).

function packStarts(
  start: Float64Array,
  dur: Float64Array,
  from: number,
  to: number,
  runStarts: Uint8Array,
): PackedColumn {
  const out = new VarintWriter(to - from);
  let previousEnd = 0;
  for (let i = from; i < to; i++) {
    const ns = exactNs(start[i]!);
    const step = ns === null ? NaN : runStarts[i - from] ? ns : ns - previousEnd;
    if (!(Math.abs(step) <= MAX_MAGNITUDE)) return { plain: start.slice(from, to) };
    out.signed(step);
    previousEnd = ns! + durationNs(dur[i]!);
  }
  return { varints: out.bytes() };
}

function unpackStarts(varints: Uint8Array, dur: Float64Array, runStarts: Uint8Array, out: Float64Array): void {
  const reader = new VarintReader(varints);
  let previousEnd = 0;
  for (let i = 0; i < out.length; i++) {
    const ns = runStarts[i] ? reader.signed() : previousEnd + reader.signed();
    out[i] = ns / NS_PER_US;
    previousEnd = ns + durationNs(dur[i]!);
  }
}

/** A duration in whole ns, the same on both sides whatever it is (a plain duration need not be whole ns). */
function durationNs(us: number): number {
  return Math.round(us * NS_PER_US);
}

function packDurations(dur: Float64Array, from: number, to: number): PackedColumn {
  const out = new VarintWriter(to - from);
  for (let i = from; i < to; i++) {
    const ns = exactNs(dur[i]!);
    if (ns === null) return { plain: dur.slice(from, to) };
    out.signed(ns);
  }
  return { varints: out.bytes() };
}

function unpackDurations(varints: Uint8Array, out: Float64Array): void {
  const reader = new VarintReader(varints);
  for (let i = 0; i < out.length; i++) out[i] = reader.signed() / NS_PER_US;
}

function packNames(name: Uint32Array, from: number, to: number): Uint8Array {
  const out = new VarintWriter(to - from);
  for (let i = from; i < to; i++) out.unsigned(name[i]!);
  return out.bytes();
}

function unpackNames(varints: Uint8Array, out: Uint32Array): void {
  const reader = new VarintReader(varints);
  for (let i = 0; i < out.length; i++) out[i] = reader.unsigned();
}

function packKinds(kind: Uint8Array, from: number, to: number): Uint8Array {
  const out = new VarintWriter(16);
  for (let i = from; i < to;) {
    let end = i + 1;
    while (end < to && kind[end] === kind[i]) end++;
    out.unsigned(kind[i]!);
    out.unsigned(end - i);
    i = end;
  }
  return out.bytes();
}

function unpackKinds(runs: Uint8Array, out: Uint8Array): void {
  const reader = new VarintReader(runs);
  for (let at = 0; at < out.length;) {
    const value = reader.unsigned();
    const length = reader.unsigned();
    if (length === 0 || at + length > out.length) throw new Error('packed rows: a kind run overruns its rows');
    out.fill(value, at, at + length);
    at += length;
  }
}

function packCorrelations(correlation: Float64Array, from: number, to: number): PackedColumn {
  const out = new VarintWriter(to - from);
  let last = 0;
  for (let i = from; i < to;) {
    const id = correlation[i]!;
    if (id === -1) {
      let end = i + 1;
      while (end < to && correlation[end] === -1) end++;
      out.unsigned(0);
      out.unsigned(end - i);
      i = end;
      continue;
    }
    if (!Number.isInteger(id) || id < 0 || id > MAX_MAGNITUDE || Object.is(id, -0))
      return { plain: correlation.slice(from, to) };
    out.unsigned(1 + zigzag(id - last));
    last = id;
    i++;
  }
  return { varints: out.bytes() };
}

function unpackCorrelations(varints: Uint8Array, out: Float64Array): void {
  const reader = new VarintReader(varints);
  let last = 0;
  for (let i = 0; i < out.length;) {
    const code = reader.unsigned();
    if (code === 0) {
      const length = reader.unsigned();
      if (length === 0 || i + length > out.length) throw new Error('packed rows: a run without ids overruns its rows');
      out.fill(-1, i, i + length);
      i += length;
      continue;
    }
    last += unzigzag(code - 1);
    out[i++] = last;
  }
}

/** `us` in ns when it is whole ns (as model.ts keeps times: its ns / 1000 gives it back exactly), else null (-0 too: a varint has no sign). */
function exactNs(us: number): number | null {
  const ns = Math.round(us * NS_PER_US);
  return ns / NS_PER_US === us && Math.abs(ns) <= MAX_MAGNITUDE && !Object.is(us, -0) ? ns : null;
}
