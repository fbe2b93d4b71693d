// A pane's row layout: which tracks are shown (those that hold a slice) and in view, each track's rows from the top
// down (a row per nesting level; a folded Python stack's levels all in its one row), the row counting the tracks idle
// in the view, and which track and row lie at a canvas height. The canvas (timeline.ts) paints into these rows.
import type { TraceModel, TrackInfo } from '../extension/shared/trace/model.ts';

export const ROW_HEIGHT = 15;
const TRACK_GAP = 6;

/** A level of a shown track: its slices [first, end) of the model. */
export interface TrackRow {
  track: number;
  depth: number;
  first: number;
  end: number;
}

export interface Row extends TrackRow {
  y: number;
  /** a level of a folded Python stack, drawn in its track's one row */
  folded: boolean;
}

export class TrackRows {
  /** the rows laid out, top to bottom */
  readonly rows: Row[] = [];
  /** per track, its first row's y; -1 for a track not drawn in this view */
  readonly trackTop: number[];
  height = 0;
  /** the tracks with a slice (a thread that only ever waited holds none) */
  readonly shown: number[];
  /** how many threads and streams have no slice and are not drawn */
  readonly hiddenTracks: number;
  /** every level of the shown tracks, whether in view or not */
  private readonly levels: TrackRow[] = [];
  /** the shown tracks with a slice in the view, the ones laid out: a row with nothing in view is not drawn empty */
  inView: number[];
  /** where the count of the tracks idle in the view is said (its y in the label column); -1 when none is idle */
  idleTop = -1;
  /** the Python stacks the user unfolded (each starts folded) */
  private readonly unfolded = new Set<number>();

  constructor(
    private readonly model: TraceModel,
    /** where the tracks begin: under the axis, and under the marks' lane when there may be marks */
    private readonly top: number,
  ) {
    this.trackTop = new Array<number>(model.tracks.length).fill(-1);
    const slices = new Uint32Array(model.tracks.length);
    for (let i = 0; i < model.count; i++) slices[model.track[i]!]!++;
    this.shown = model.tracks.flatMap((_, t) => (slices[t]! > 0 ? [t] : []));
    // a thread is hidden when neither its ops' track nor its Python stack's holds a slice
    const thread = (t: TrackInfo): string => `${t.gpu}\u0000${t.pid}\u0000${t.tid}`;
    const shown = new Set(this.shown.map((t) => thread(model.tracks[t]!)));
    this.hiddenTracks = new Set(model.tracks.map(thread).filter((key) => !shown.has(key))).size;
    let i = 0;
    for (const track of this.shown) {
      while (i < model.count && model.track[i]! < track) i++;
      for (let depth = 0; depth <= model.tracks[track]!.maxDepth; depth++) {
        const first = i;
        while (i < model.count && model.track[i] === track && model.depth[i] === depth) i++;
        this.levels.push({ track, depth, first, end: i });
      }
    }
    this.inView = this.shown;
    this.layOut();
  }

  /**
   * Each track in view's rows from `top` down: a folded Python stack's levels all in its one row (the deepest frame
   * drawn over the ones it ran in), every other track a row per level; under them, one row counting the idle ones.
   */
  private layOut(): void {
    const model = this.model;
    this.rows.length = 0;
    this.trackTop.fill(-1);
    let y = this.top;
    for (const track of this.inView) this.trackTop[track] = 0;
    for (const row of this.levels) {
      const { track, depth } = row;
      if (this.trackTop[track] === -1) continue;
      const folded = this.isFolded(track);
      if (depth === 0) this.trackTop[track] = y;
      this.rows.push({ ...row, y: this.trackTop[track]! + (folded ? 0 : depth) * ROW_HEIGHT, folded });
      if (depth === model.tracks[track]!.maxDepth) y += (folded ? 1 : depth + 1) * ROW_HEIGHT + TRACK_GAP;
    }
    const idle = this.shown.length > this.inView.length;
    this.idleTop = idle ? y : -1;
    this.height = idle ? y + ROW_HEIGHT + TRACK_GAP : y;
  }

  /** Lays out the shown tracks with a slice in [tMin, tMax]; true where that moved the rows. */
  showSlicesIn(tMin: number, tMax: number): boolean {
    const active = new Set<number>();
    for (const row of this.levels) {
      if (active.has(row.track) || row.first === row.end) continue;
      const i = firstVisible(this.model, row, tMin);
      if (i < row.end && this.model.start[i]! <= tMax) active.add(row.track);
    }
    const inView = this.shown.filter((t) => active.has(t));
    if (inView.length === this.inView.length && inView.every((t, k) => t === this.inView[k])) return false;
    this.inView = inView;
    this.layOut();
    return true;
  }

  /** The tracks idle in the view: shown (they hold slices), none of them in view. */
  idle(): number[] {
    return this.shown.filter((t) => this.trackTop[t] === -1);
  }

  isFolded(track: number): boolean {
    return this.model.tracks[track]!.stack === true && !this.unfolded.has(track);
  }

  /** Folds or unfolds a Python stack track: the rows move. */
  toggle(track: number): void {
    if (!this.unfolded.delete(track)) this.unfolded.add(track);
    this.layOut();
  }

  /** Slice i's row's y (its track in view). */
  sliceY(i: number): number {
    const track = this.model.track[i]!;
    return this.trackTop[track]! + (this.isFolded(track) ? 0 : this.model.depth[i]! * ROW_HEIGHT);
  }

  /** The track in view at canvas height y, or -1 above the first. */
  trackAt(y: number): number {
    for (let k = this.inView.length - 1; k >= 0; k--) if (y >= this.trackTop[this.inView[k]!]!) return this.inView[k]!;
    return -1;
  }
}

/** A row's first slice that ends at or after tMin (its slices are start-sorted and do not overlap). */
export function firstVisible(model: TraceModel, row: TrackRow, tMin: number): number {
  let i = lowerBoundStart(model, row.first, row.end, tMin);
  if (i > row.first && model.start[i - 1]! + model.dur[i - 1]! >= tMin) i--;
  return i;
}

/** First index in [from, to) whose start is ≥ t. */
export function lowerBoundStart(model: TraceModel, from: number, to: number, t: number): number {
  let a = from;
  let b = to;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (model.start[m]! < t) a = m + 1;
    else b = m;
  }
  return a;
}
