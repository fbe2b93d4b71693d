// A pane's row layout: which tracks are shown (those that hold a slice) and in view, each track's rows from the top
// down (a row per nesting level down to its deepest slice in the window shown: a step's, or the whole trace's; a
// folded Python stack's levels all in its one row), a row in their place for the tracks idle in the view, and which
// track and row lie at a canvas height. The canvas (timeline.ts) paints into these rows.
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
  /** per track, how many levels its rows show: down to its deepest slice in the window shown (a DDP step's stack of 7
   *  beside its 2 s recompile's of 25 left 350 px of empty rows, review 10 F9) */
  private depths: number[];
  /** the window those depths are of, µs of the model's time */
  private depthWindow: [number, number] = [-Infinity, Infinity];
  /** the shown tracks with a slice in the view, the ones laid out: a row with nothing in view is not drawn empty */
  inView: number[];
  /** the tracks idle in the view, each run of them (next to each other in the tracks' order) in one row where they
   *  are in that order: a track keeps its place in every view (review 15W W7: the step view moved its idle gloo
   *  thread under the other, the whole trace's view had it above) */
  readonly idleRows: { tracks: number[]; y: number }[] = [];
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
    this.depths = this.depthsIn(this.depthWindow);
    this.layOut();
  }

  /** Per track, the levels down to its deepest one with a slice in [from, to] (at least one). */
  private depthsIn([from, to]: [number, number]): number[] {
    const depths = new Array<number>(this.model.tracks.length).fill(1);
    for (const row of this.levels)
      if (row.first < row.end && row.depth >= depths[row.track]!) {
        const i = firstVisible(this.model, row, from);
        if (i < row.end && this.model.start[i]! <= to) depths[row.track] = row.depth + 1;
      }
    return depths;
  }

  /**
   * Each track in view's rows from `top` down: a folded Python stack's levels all in its one row (the deepest frame
   * drawn over the ones it ran in), every other track a row per level; each run of idle ones in one row in their
   * place.
   */
  private layOut(): void {
    this.rows.length = 0;
    this.idleRows.length = 0;
    this.trackTop.fill(-1);
    let y = this.top;
    const inView = new Set(this.inView);
    let k = 0;
    let afterIdle = false;
    for (const track of this.shown) {
      const folded = this.isFolded(track);
      const shown = inView.has(track);
      if (shown) this.trackTop[track] = y;
      // after another idle track: in its row; else a row of its own here
      else if (afterIdle) this.idleRows.at(-1)!.tracks.push(track);
      else {
        this.idleRows.push({ tracks: [track], y });
        y += ROW_HEIGHT + TRACK_GAP;
      }
      afterIdle = !shown;
      for (; k < this.levels.length && this.levels[k]!.track === track; k++) {
        const row = this.levels[k]!;
        // (a folded stack draws every level in its one row: the deepest frame over the ones it ran in)
        if (shown && (folded || row.depth < this.depths[track]!))
          this.rows.push({ ...row, y: y + (folded ? 0 : row.depth) * ROW_HEIGHT, folded });
      }
      if (shown) y += (folded ? 1 : this.depths[track]!) * ROW_HEIGHT + TRACK_GAP;
    }
    this.height = y;
  }

  /**
   * Lays out the shown tracks with a slice in [tMin, tMax], each down to its deepest slice in `window` (the step
   * shown: panning within it moves no row); true where that moved the rows.
   */
  showSlicesIn(tMin: number, tMax: number, window: [number, number]): boolean {
    const active = new Set<number>();
    for (const row of this.levels) {
      if (active.has(row.track) || row.first === row.end) continue;
      const i = firstVisible(this.model, row, tMin);
      if (i < row.end && this.model.start[i]! <= tMax) active.add(row.track);
    }
    const inView = this.shown.filter((t) => active.has(t));
    const sameWindow = window[0] === this.depthWindow[0] && window[1] === this.depthWindow[1];
    const depths = sameWindow ? this.depths : this.depthsIn(window);
    this.depthWindow = window;
    if (
      inView.length === this.inView.length &&
      inView.every((t, k) => t === this.inView[k]) &&
      depths.every((d, t) => d === this.depths[t])
    )
      return false;
    this.inView = inView;
    this.depths = depths;
    this.layOut();
    return true;
  }

  /** The idle tracks whose row is at canvas height y, or null. */
  idleAt(y: number): number[] | null {
    return this.idleRows.find((row) => y >= row.y && y < row.y + ROW_HEIGHT + TRACK_GAP)?.tracks ?? null;
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

  /** The track in view at canvas height y, or -1 above the first or on an idle row. */
  trackAt(y: number): number {
    if (this.idleAt(y)) return -1;
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
