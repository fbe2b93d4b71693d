// What the byte scanner (byteScanner.ts) reads a trace into, before its model is built (buildModel.ts): slices
// in file order in growable columns, kernel args, names, tracks, process and thread metadata, flows and the
// problems met. A file read in two halves on two threads (node/trace/scanner.ts) gives two of these, merged here.
import { FlowTable, type FlowColumns } from './flows.ts';
import { Column, release, scratchArray } from './memory.ts';
import { KERNEL_ARG_FIELDS } from '../../shared/trace/model.ts';
import { ProblemLog } from './problems.ts';

/** Values per kernel args row. */
export const ARG_FIELD_COUNT = KERNEL_ARG_FIELDS.length;

export const PROBLEM_DUPLICATE_FLOW = 'duplicate flow start id, later one ignored';

/** numKey: the numeric (pid, tid) map key, or -1 when the track is keyed by textKey (kept for merging halves) */
export interface RawTrack {
  pid: string;
  tid: string;
  gpu: boolean;
  numKey: number;
  textKey: string;
}
export interface ProcessMeta {
  name?: string;
  labels?: string;
  sortIndex?: number;
}
export interface ThreadMeta {
  name?: string;
  sortIndex?: number;
}

/** A raw trace copied out to be sent to another thread (structured-cloneable; typed arrays are transferred). */
export interface RawHalf {
  count: number;
  start: Float64Array;
  dur: Float64Array;
  track: Uint32Array;
  name: Uint32Array;
  kind: Uint8Array;
  correlation: Float64Array;
  argRows: number;
  argSlice: Uint32Array;
  argValues: Float64Array;
  names: string[];
  tracks: RawTrack[];
  processMeta: Map<string, ProcessMeta>;
  threadMeta: Map<string, ThreadMeta>;
  flows: FlowColumns;
  problems: Map<string, { count: number; firstByte: number }>;
  notes: string[];
}

/** Slices in file order (start in absolute µs) and what they refer to; the model build consumes it. */
export class RawTrace {
  count = 0;
  readonly start = new Column(Float64Array);
  readonly dur = new Column(Float64Array);
  readonly track = new Column(Uint32Array);
  readonly name = new Column(Uint32Array);
  readonly kind = new Column(Uint8Array);
  readonly correlation = new Column(Float64Array);
  /** kernel args: row r belongs to slice argSlice[r] and holds argValues[r * ARG_FIELD_COUNT ...] */
  argRows = 0;
  readonly argSlice = new Column(Uint32Array);
  readonly argValues = new Column(Float64Array);

  readonly names: string[] = [];
  private readonly nameByText = new Map<string, number>();
  readonly tracks: RawTrack[] = [];
  private readonly trackByNumericKey = new Map<number, number>();
  private readonly trackByTextKey = new Map<string, number>();
  readonly processMeta = new Map<string, ProcessMeta>();
  readonly threadMeta = new Map<string, ThreadMeta>();
  /** one flow start may fan out to many ends (a cudaGraphLaunch to each kernel of the replay) */
  flows = new FlowTable();
  /** warnings that are not per-event problems (truncation, a corrupt gzip stream ...) */
  readonly notes: string[] = [];

  /** `problems`: the per-event problems met while reading (shared with the scanner, which logs them). */
  constructor(readonly problems = new ProblemLog()) {}

  /** The id of a name, added when new. */
  internText(text: string): number {
    const existing = this.nameByText.get(text);
    if (existing !== undefined) return existing;
    const id = this.names.length;
    this.names.push(text);
    this.nameByText.set(text, id);
    return id;
  }

  /** Stores kernel args `values` (ARG_FIELD_COUNT of them) for the slice in row `slice`. */
  addKernelArgs(slice: number, values: Float64Array): void {
    const argRow = this.argRows++;
    this.argSlice.push(argRow, slice);
    for (let f = 0; f < ARG_FIELD_COUNT; f++) this.argValues.push(argRow * ARG_FIELD_COUNT + f, values[f]!);
  }

  /** The index of the track with this key (numKey when it is >= 0, else textKey), or undefined. */
  findTrack(numKey: number, textKey: string): number | undefined {
    return numKey >= 0 ? this.trackByNumericKey.get(numKey) : this.trackByTextKey.get(textKey);
  }

  /** Adds a track not found by findTrack; returns its index. */
  addTrack(track: RawTrack): number {
    const index = this.tracks.length;
    this.tracks.push(track);
    if (track.numKey >= 0) this.trackByNumericKey.set(track.numKey, index);
    else this.trackByTextKey.set(track.textKey, index);
    return index;
  }

  /** A preview's raw trace: these rows, all names, tracks and metadata, and the flows inside [from, to] (absolute µs);
   *  `problems`: those met reading them (a preview's: none). */
  rows(rows: Uint32Array, from: number, to: number, problems = new ProblemLog()): RawTrace {
    const part = new RawTrace(problems);
    const n = rows.length;
    const pick = <T extends Float64Array | Uint32Array | Uint8Array>(column: T): T => {
      const out = new (column.constructor as new (length: number) => T)(n);
      for (let k = 0; k < n; k++) out[k] = column[rows[k]!]!;
      return out;
    };
    part.count = n;
    part.start.data = pick(this.start.data);
    part.dur.data = pick(this.dur.data);
    part.track.data = pick(this.track.data);
    part.name.data = pick(this.name.data);
    part.kind.data = pick(this.kind.data);
    part.correlation.data = pick(this.correlation.data);
    const newRow = scratchArray(Int32Array, this.count).fill(-1);
    for (let k = 0; k < n; k++) newRow[rows[k]!] = k;
    const argRows: number[] = [];
    for (let r = 0; r < this.argRows; r++) if (newRow[this.argSlice.data[r]!]! >= 0) argRows.push(r);
    part.argRows = argRows.length;
    part.argSlice.data = Uint32Array.from(argRows, (r) => newRow[this.argSlice.data[r]!]!);
    release(newRow);
    part.argValues.data = new Float64Array(argRows.length * ARG_FIELD_COUNT);
    argRows.forEach((r, k) =>
      part.argValues.data.set(
        this.argValues.data.subarray(r * ARG_FIELD_COUNT, (r + 1) * ARG_FIELD_COUNT),
        k * ARG_FIELD_COUNT,
      ),
    );
    for (const name of this.names) part.names.push(name);
    for (const track of this.tracks) part.tracks.push(track);
    for (const [pid, meta] of this.processMeta) part.processMeta.set(pid, meta);
    for (const [key, meta] of this.threadMeta) part.threadMeta.set(key, meta);
    part.flows = this.flows.within(from, to);
    return part;
  }

  /**
   * Copies the columns out (trimmed to what they hold) for another thread, and gives these back at once (the
   * thread that read them may stay idle, and V8 collects an idle thread's garbage late).
   */
  half(): RawHalf {
    const n = this.count;
    const half: RawHalf = {
      count: n,
      start: this.start.data.slice(0, n),
      dur: this.dur.data.slice(0, n),
      track: this.track.data.slice(0, n),
      name: this.name.data.slice(0, n),
      kind: this.kind.data.slice(0, n),
      correlation: this.correlation.data.slice(0, n),
      argRows: this.argRows,
      argSlice: this.argSlice.data.slice(0, this.argRows),
      argValues: this.argValues.data.slice(0, this.argRows * ARG_FIELD_COUNT),
      names: this.names,
      tracks: this.tracks,
      processMeta: this.processMeta,
      threadMeta: this.threadMeta,
      flows: this.flows.columns(),
      problems: this.problems.problems,
      notes: this.notes,
    };
    for (const column of [
      this.start,
      this.dur,
      this.track,
      this.name,
      this.kind,
      this.correlation,
      this.argSlice,
      this.argValues,
    ])
      column.release();
    this.flows.release();
    return half;
  }

  /**
   * Appends the raw trace of the rest of the file, as if it had been read into this one: names, tracks and
   * flows are remapped to this trace's ids in first-mention order. Returns false, changing nothing, where a
   * flow start repeats one of this half and the duplicate warning would take another place in the warning
   * order than in one pass (none was seen here yet).
   */
  appendHalf(b: RawHalf): boolean {
    let crossDuplicates = false;
    for (let r = 0; r < b.flows.count && !crossDuplicates; r++)
      crossDuplicates = !b.flows.isEnd[r] && this.flows.hasStartOf(b.flows, r);
    if (crossDuplicates && !this.problems.problems.has(PROBLEM_DUPLICATE_FLOW)) return false;
    const nameMap = new Uint32Array(b.names.length);
    for (let i = 0; i < b.names.length; i++) nameMap[i] = this.internText(b.names[i]!);
    const trackMap = new Uint32Array(b.tracks.length);
    for (let i = 0; i < b.tracks.length; i++) {
      const t = b.tracks[i]!;
      let index = this.findTrack(t.numKey, t.textKey);
      if (index === undefined) index = this.addTrack({ ...t });
      else if (t.gpu) this.tracks[index]!.gpu = true;
      trackMap[i] = index;
    }
    const base = this.count;
    const total = base + b.count;
    for (const column of [this.start, this.dur, this.track, this.name, this.kind, this.correlation])
      column.reserve(total);
    this.start.data.set(b.start, base);
    this.dur.data.set(b.dur, base);
    this.correlation.data.set(b.correlation, base);
    this.kind.data.set(b.kind, base);
    const track = this.track.data;
    const name = this.name.data;
    for (let r = 0; r < b.count; r++) {
      track[base + r] = trackMap[b.track[r]!]!;
      name[base + r] = nameMap[b.name[r]!]!;
    }
    this.count = total;
    const argBase = this.argRows;
    this.argSlice.reserve(argBase + b.argRows);
    this.argValues.reserve((argBase + b.argRows) * ARG_FIELD_COUNT);
    for (let r = 0; r < b.argRows; r++) this.argSlice.data[argBase + r] = b.argSlice[r]! + base;
    this.argValues.data.set(b.argValues, argBase * ARG_FIELD_COUNT);
    this.argRows = argBase + b.argRows;
    for (const [pid, meta] of b.processMeta) {
      const into = this.processMeta.get(pid) ?? {};
      if (meta.name !== undefined) into.name = meta.name;
      if (meta.labels !== undefined) into.labels = meta.labels;
      if (meta.sortIndex !== undefined) into.sortIndex = meta.sortIndex;
      this.processMeta.set(pid, into);
    }
    for (const [key, meta] of b.threadMeta) {
      const into = this.threadMeta.get(key) ?? {};
      if (meta.name !== undefined) into.name = meta.name;
      if (meta.sortIndex !== undefined) into.sortIndex = meta.sortIndex;
      this.threadMeta.set(key, into);
    }
    this.flows.append(b.flows, trackMap, (byte) => this.problems.add(PROBLEM_DUPLICATE_FLOW, byte));
    for (const [what, seen] of b.problems) {
      const into = this.problems.problems.get(what);
      if (into) into.count += seen.count;
      else this.problems.problems.set(what, { count: seen.count, firstByte: seen.firstByte });
    }
    this.notes.push(...b.notes);
    return true;
  }
}
