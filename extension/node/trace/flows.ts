// Flow events (ph 's' and 'f'): the ac2g arrows from a CPU launch to its kernels, which link them where args
// carry no correlation id. Held in typed columns, not an object per flow: a profile has one per launch, and as
// objects (with their id strings and Map entries) they were most of what survived V8's young generation while a
// trace was read, which then doubled in size (~10 MB of a 100 MB trace's peak).
import { Column, release, scratchArray } from './memory.ts';
import { sliceAt, type LevelIndex } from '../../shared/trace/levels.ts';
import { usSince, type TraceModel } from '../../shared/trace/model.ts';
import { ProblemLog } from './problems.ts';
import { RowsByKey } from './rowsByKey.ts';

/** A FlowTable's rows, copied out (structured-cloneable; the arrays are transferred). */
export interface FlowColumns {
  count: number;
  /** the id where it is a number (or a number's canonical text), else NaN */
  id: Float64Array;
  /** index into textIds for ids that are other text, else -1 */
  textId: Int32Array;
  isEnd: Uint8Array;
  track: Uint32Array;
  ts: Float64Array;
  byte: Float64Array;
  textIds: string[];
}

/** What linking reads and sets of a model being built: its rows' start, dur and correlation (with their level index) are final. */
type LinkedColumns = Pick<TraceModel, 'start' | 'dur' | 'correlation' | 'tracks' | 'originUs' | 'warnings'>;

/** Flow starts and ends in file order; of several starts with one id only the first is kept. */
export class FlowTable {
  count = 0;
  private readonly id = new Column(Float64Array);
  private readonly textId = new Column(Int32Array);
  private readonly isEnd = new Column(Uint8Array);
  private readonly track = new Column(Uint32Array);
  private readonly ts = new Column(Float64Array);
  private readonly byte = new Column(Float64Array);
  private readonly textIds: string[] = [];
  private readonly textIndex = new Map<string, number>();
  private readonly startByNumber = new RowsByKey();
  private readonly startByText = new Map<number, number>();

  /**
   * Adds a flow event whose id is `id` (a JSON number, else NaN) or `text` (a JSON string, else ''): a
   * number and its canonical text name the same flow. Returns false, adding nothing, for a second start.
   */
  add(id: number, text: string, isEnd: boolean, track: number, ts: number, byte: number): boolean {
    let textId = -1;
    if (text !== '') {
      const asNumber = Number(text);
      if (!Number.isNaN(asNumber) && String(asNumber) === text) id = asNumber;
      else {
        textId = this.textIndex.get(text) ?? this.textIds.length;
        if (textId === this.textIds.length) {
          this.textIds.push(text);
          this.textIndex.set(text, textId);
        }
      }
    }
    const row = this.count;
    if (!isEnd) {
      if (this.startRow(id, textId) >= 0) return false;
      if (textId >= 0) this.startByText.set(textId, row);
      else this.startByNumber.set(id, row);
    }
    this.id.push(row, textId >= 0 ? NaN : id);
    this.textId.push(row, textId);
    this.isEnd.push(row, isEnd ? 1 : 0);
    this.track.push(row, track);
    this.ts.push(row, ts);
    this.byte.push(row, byte);
    this.count++;
    return true;
  }

  /** The row of the start of the flow of this id, or -1. */
  private startRow(id: number, textId: number): number {
    return textId >= 0 ? (this.startByText.get(textId) ?? -1) : this.startByNumber.get(id);
  }

  /** True when a start of this row's flow of `other` is already here. */
  hasStartOf(other: FlowColumns, row: number): boolean {
    const textId = other.textId[row]! >= 0 ? (this.textIndex.get(other.textIds[other.textId[row]!]!) ?? -2) : -1;
    return textId !== -2 && this.startRow(other.id[row]!, textId) >= 0;
  }

  /** Appends another table's rows (a later part of the file) with its tracks renumbered; `onDuplicateStart` gets the byte of each start already here. */
  append(other: FlowColumns, trackMap: Uint32Array, onDuplicateStart: (byte: number) => void): void {
    for (let r = 0; r < other.count; r++) {
      const text = other.textId[r]! >= 0 ? other.textIds[other.textId[r]!]! : '';
      if (!this.add(other.id[r]!, text, other.isEnd[r] === 1, trackMap[other.track[r]!]!, other.ts[r]!, other.byte[r]!))
        onDuplicateStart(other.byte[r]!);
    }
  }

  /** The rows with ts in [from, to] (µs), in a table of their own. */
  within(from: number, to: number): FlowTable {
    const kept = new FlowTable();
    const ts = this.ts.data;
    for (let r = 0; r < this.count; r++) {
      if (ts[r]! < from || ts[r]! > to) continue;
      const text = this.textId.data[r]! >= 0 ? this.textIds[this.textId.data[r]!]! : '';
      kept.add(this.id.data[r]!, text, this.isEnd.data[r] === 1, this.track.data[r]!, ts[r]!, this.byte.data[r]!);
    }
    return kept;
  }

  /** The rows, copied out of the columns. */
  columns(): FlowColumns {
    const n = this.count;
    return {
      count: n,
      id: this.id.data.slice(0, n),
      textId: this.textId.data.slice(0, n),
      isEnd: this.isEnd.data.slice(0, n),
      track: this.track.data.slice(0, n),
      ts: this.ts.data.slice(0, n),
      byte: this.byte.data.slice(0, n),
      textIds: this.textIds,
    };
  }

  /**
   * Sets the correlation of each flow's launch and kernels that have none, and warns of links lost: a start
   * without an end, or an end without a start, on a slice that has no correlation either. Starts are taken in
   * file order, each with its ends in file order, so the first flow to reach a slice links it. Gives the
   * columns back. `levels`: the model's (levels.ts); `trackOrder` maps the file's track order to the model's.
   */
  link(model: LinkedColumns, levels: LevelIndex, trackOrder: Uint32Array): void {
    const n = this.count;
    const { correlation } = model;
    const isEnd = this.isEnd.data;
    const track = this.track.data;
    const ts = this.ts.data;
    const byte = this.byte.data;
    const sliceOf = (row: number): number =>
      sliceAt(model, levels, trackOrder[track[row]!]!, usSince(ts[row]!, model.originUs));
    // each start's ends, grouped in start order (a counting sort of the ends by their start's row)
    const startOfEnd = scratchArray(Int32Array, n);
    const endsFrom = scratchArray(Uint32Array, n + 1);
    for (let r = 0; r < n; r++) {
      if (!isEnd[r]) continue;
      startOfEnd[r] = this.startRow(this.id.data[r]!, this.textId.data[r]!);
      if (startOfEnd[r]! >= 0) endsFrom[startOfEnd[r]! + 1]!++;
    }
    for (let r = 0; r < n; r++) endsFrom[r + 1]! += endsFrom[r]!;
    const ends = scratchArray(Uint32Array, endsFrom[n]!);
    const filled = Uint32Array.from(endsFrom.subarray(0, n));
    for (let r = 0; r < n; r++) if (isEnd[r] && startOfEnd[r]! >= 0) ends[filled[startOfEnd[r]!]!++] = r;

    const lost = new ProblemLog();
    for (let r = 0; r < n; r++) {
      if (isEnd[r]) continue;
      const launch = sliceOf(r);
      if (endsFrom[r] === endsFrom[r + 1]) {
        if (launch >= 0 && correlation[launch]! < 0)
          lost.add('flow start without an end: launch not linked to a kernel', byte[r]!);
        continue;
      }
      const textId = this.textId.data[r]!;
      const id = textId >= 0 ? Number(this.textIds[textId]) : this.id.data[r]!;
      if (!Number.isFinite(id)) continue;
      if (launch >= 0 && correlation[launch]! < 0) correlation[launch] = id;
      for (let k = endsFrom[r]!; k < endsFrom[r + 1]!; k++) {
        const kernel = sliceOf(ends[k]!);
        if (kernel >= 0 && correlation[kernel]! < 0) correlation[kernel] = id;
      }
    }
    for (let r = 0; r < n; r++) {
      if (!isEnd[r] || startOfEnd[r]! >= 0) continue;
      const kernel = sliceOf(r);
      if (kernel >= 0 && correlation[kernel]! < 0)
        lost.add('flow end without a start: kernel not linked to a launch', byte[r]!);
    }
    release(startOfEnd, endsFrom, ends);
    this.release();
    model.warnings.push(...lost.messages());
  }

  release(): void {
    for (const column of [this.id, this.textId, this.isEnd, this.track, this.ts, this.byte]) column.release();
    this.startByNumber.release();
  }
}
