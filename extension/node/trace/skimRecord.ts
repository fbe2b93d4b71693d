// What a skim of a trace file keeps of the events it reads (skim.ts reads them): the tracks, the rows findSteps
// reads (ProfilerStep spans, device kernels, runtime launches, compiled calls), their names, and per block of events
// the bytes it starts at and its time span; given as a Skim at the end, or as a part for the thread that skims the
// part before.
import { findSteps } from './buildModel.ts';
import { Column } from './memory.ts';
import { SliceKind, usSince, wholeNs } from '../../shared/trace/model.ts';
import type { RawTrack } from './rawTrace.ts';
import type { Skim, SkimmedPart } from './skimParts.ts';

/**
 * Events per byte range (block) whose time span is kept: the first frame parses every block overlapping its
 * window, so at most this many events per overlapping one are parsed for nothing, and the skim keeps three
 * numbers per block instead of per event.
 */
const BLOCK_EVENTS = 32;

/** Puts each `values` into its column from row `at` (the columns grown to hold them). */
function appendTo(
  at: number,
  ...pairs: [Column<Float64Array | Uint32Array | Uint8Array>, Float64Array | Uint32Array | Uint8Array][]
): void {
  for (const [column, values] of pairs) {
    column.reserve(at + values.length);
    column.data.set(values, at);
  }
}

/** The skim's record of one file (or one part of it), filled event by event. */
export class SkimRecord {
  events = 0;
  origin = Infinity;
  private readonly tracks: RawTrack[] = [];
  private readonly trackByKey = new Map<number, number>();
  private readonly trackByText = new Map<string, number>();
  private lastTrackKey = -1;
  private lastTrack = 0;
  private readonly graphLaunches = new Set<number>();
  // the rows findSteps reads: ProfilerStep spans, device kernels, runtime launches and compiled calls, in file order
  private stepRows = 0;
  private readonly rowStart = new Column(Float64Array);
  private readonly rowDur = new Column(Float64Array);
  private readonly rowKind = new Column(Uint8Array);
  private readonly rowName = new Column(Uint32Array);
  private readonly rowCorrelation = new Column(Float64Array);
  private readonly rowTrack = new Column(Uint32Array);
  private readonly names: string[] = [];
  private readonly nameByText = new Map<string, number>();
  // blocks of events; the current one is blocks - 1
  private blocks = 1;
  private inBlock = 0;
  private readonly blockStart = new Column(Float64Array);
  private readonly blockMin = new Column(Float64Array);
  private readonly blockMax = new Column(Float64Array);
  private readonly blockMeta = new Column(Uint8Array);

  /** from: the byte the first block starts at (the part's start) */
  constructor(from: number) {
    this.blockStart.push(0, from);
    this.blockMin.push(0, Infinity);
    this.blockMax.push(0, -Infinity);
    this.blockMeta.push(0, 0);
  }

  /** No event was placed yet. */
  get empty(): boolean {
    return this.blocks === 1 && this.inBlock === 0;
  }

  /** The current block holds metadata: it is parsed whole with the first view. */
  markMetadata(): void {
    this.blockMeta.data[this.blocks - 1] = 1;
  }

  /** A row findSteps reads: a ProfilerStep span, a device kernel, a runtime launch (name 0) or a compiled call. */
  addRow(ts: number, dur: number, kind: SliceKind, name: number, correlation: number, track: number): void {
    const row = this.stepRows++;
    this.rowStart.push(row, ts);
    this.rowDur.push(row, wholeNs(dur));
    this.rowKind.push(row, kind);
    this.rowName.push(row, name);
    this.rowCorrelation.push(row, correlation);
    this.rowTrack.push(row, track);
  }

  /** A cudaGraphLaunch's correlation id. */
  graphLaunch(correlation: number): void {
    this.graphLaunches.add(correlation);
  }

  /** Puts an event starting at byte `start` (its opening brace) into the current block, or a new one when that is full. */
  place(start: number, ts: number, dur: number): void {
    if (this.inBlock === BLOCK_EVENTS) {
      const b = this.blocks++;
      this.blockStart.push(b, start);
      this.blockMin.push(b, Infinity);
      this.blockMax.push(b, -Infinity);
      this.blockMeta.push(b, 0);
      this.inBlock = 0;
    }
    this.inBlock++;
    const b = this.blocks - 1;
    if (ts < this.blockMin.data[b]!) this.blockMin.data[b] = ts;
    if (ts + dur > this.blockMax.data[b]!) this.blockMax.data[b] = ts + dur;
  }

  /** The track of (pid, tid), added when new, keyed as the scanner keys it (finite ids: the skim gives up on others). */
  trackOf(pid: number | string, tid: number | string, device: boolean): number {
    const numeric =
      typeof pid === 'number' &&
      typeof tid === 'number' &&
      Number.isInteger(pid) &&
      Number.isInteger(tid) &&
      pid >= 0 &&
      tid >= 0 &&
      pid < 2 ** 26 &&
      tid < 2 ** 26;
    const numKey = numeric ? pid * 2 ** 26 + tid : -1;
    if (numeric && numKey === this.lastTrackKey) {
      if (device) this.tracks[this.lastTrack]!.gpu = true;
      return this.lastTrack;
    }
    const textKey = numeric ? '' : `${pid}\u0000${tid}`;
    let index = numeric ? this.trackByKey.get(numKey) : this.trackByText.get(textKey);
    if (index === undefined) {
      index = this.tracks.length;
      this.tracks.push({ pid: String(pid), tid: String(tid), gpu: device, numKey, textKey });
      if (numeric) this.trackByKey.set(numKey, index);
      else this.trackByText.set(textKey, index);
    } else if (device) this.tracks[index]!.gpu = true;
    if (numeric) {
      this.lastTrackKey = numKey;
      this.lastTrack = index;
    }
    return index;
  }

  /** The id of a name, added when new (several raw spellings may decode to one). */
  internText(text: string): number {
    let id = this.nameByText.get(text);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(text);
      this.nameByText.set(text, id);
    }
    return id;
  }

  /** What the file holds, or null where it is not shaped as the skim reads it (then it is read whole). */
  end(bareArray: boolean): Skim {
    const n = this.stepRows;
    const start = new Float64Array(n);
    const abs = this.rowStart.data;
    for (let i = 0; i < n; i++) start[i] = usSince(abs[i]!, this.origin);
    const tracks = this.tracks;
    const track = this.rowTrack.data;
    const found = findSteps({
      count: n,
      start,
      dur: this.rowDur.data,
      kind: this.rowKind.data,
      name: this.rowName.data,
      correlation: this.rowCorrelation.data,
      names: this.names,
      onGpu: (row) => tracks[track[row]!]!.gpu,
    });
    const blocks = this.blockColumns();
    this.release();
    return {
      events: this.events,
      origin: this.origin,
      tracks,
      ...found,
      graphLaunches: this.graphLaunches,
      bareArray,
      blocks,
    };
  }

  /** Gives the columns' memory back now (the whole read comes next), not at the next GC. */
  private release(): void {
    for (const column of [
      this.rowStart,
      this.rowDur,
      this.rowKind,
      this.rowName,
      this.rowCorrelation,
      this.rowTrack,
      this.blockStart,
      this.blockMin,
      this.blockMax,
      this.blockMeta,
    ])
      column.release();
  }

  /** What this part holds, copied out for the thread that skims the part before it (appendPart()); null where it gave up. */
  exportPart(): SkimmedPart {
    const n = this.stepRows;
    const part: SkimmedPart = {
      events: this.events,
      origin: this.origin,
      tracks: this.tracks,
      names: this.names,
      graphLaunches: [...this.graphLaunches],
      rows: {
        count: n,
        start: this.rowStart.data.slice(0, n),
        dur: this.rowDur.data.slice(0, n),
        kind: this.rowKind.data.slice(0, n),
        name: this.rowName.data.slice(0, n),
        correlation: this.rowCorrelation.data.slice(0, n),
        track: this.rowTrack.data.slice(0, n),
      },
      blocks: this.blockColumns(),
    };
    this.release();
    return part;
  }

  /** Appends the part after this one (skimmed from where this one's `to` is): as if this skim had read it. */
  appendPart(next: SkimmedPart): void {
    this.events += next.events;
    this.origin = Math.min(this.origin, next.origin);
    const trackMap = next.tracks.map((t) => {
      let index = t.numKey >= 0 ? this.trackByKey.get(t.numKey) : this.trackByText.get(t.textKey);
      if (index === undefined) {
        index = this.tracks.length;
        this.tracks.push({ ...t });
        if (t.numKey >= 0) this.trackByKey.set(t.numKey, index);
        else this.trackByText.set(t.textKey, index);
      } else if (t.gpu) this.tracks[index]!.gpu = true;
      return index;
    });
    const nameMap = next.names.map((text) => this.internText(text));
    for (const correlation of next.graphLaunches) this.graphLaunches.add(correlation);
    const r = next.rows;
    const at = this.stepRows;
    this.stepRows += r.count;
    appendTo(
      at,
      [this.rowStart, r.start],
      [this.rowDur, r.dur],
      [this.rowKind, r.kind],
      [this.rowCorrelation, r.correlation],
      [this.rowName, r.name],
      [this.rowTrack, r.track],
    );
    const name = this.rowName.data;
    const track = this.rowTrack.data;
    for (let row = at; row < this.stepRows; row++) {
      name[row] = r.kind[row - at] === SliceKind.RuntimeLaunch ? 0 : nameMap[name[row]!]!;
      track[row] = trackMap[track[row]!]!;
    }
    const b = next.blocks;
    appendTo(
      this.blocks,
      [this.blockStart, b.start],
      [this.blockMin, b.minTs],
      [this.blockMax, b.maxEnd],
      [this.blockMeta, b.metadata],
    );
    this.blocks += b.count;
    this.inBlock = BLOCK_EVENTS;
  }

  private blockColumns(): Skim['blocks'] {
    const count = this.blocks;
    return {
      count,
      start: this.blockStart.data.slice(0, count),
      minTs: this.blockMin.data.slice(0, count),
      maxEnd: this.blockMax.data.slice(0, count),
      metadata: this.blockMeta.data.slice(0, count),
    };
  }
}
