// The slices around the view a timeline opens at. A big trace's first frame is drawn from these (sent to the
// webview in a few KB) while the full columns, tens of MB, are still being built and transferred.
import type { TraceModel } from './model.ts';

/** The view a timeline opens at: a step and a time domain relative to that step's start (null: fit the step). */
export interface FirstView {
  step: number;
  domain: [number, number] | null;
}

/**
 * The step a view opens at where none was saved, by its index, where the trace has a warm-up (openingStep): the first
 * after it. A warm-up holds the profiler's start-up and the first call's one-time work (eager's 40 ms step 1 beside its
 * 2 ms steps 2–3, review 31 B2): the first screen a user compares is a steady step. A trace of one step opens at it
 * (every reader of a step index takes the last step past its end).
 */
export const OPENING_STEP = 1;

/** How much longer than the later steps' median a trace's first step must be to be its warm-up. */
const WARM_UP_RATIO = 1.5;

/**
 * True where a trace's first step is its warm-up: later steps follow it and it is clearly longer than their median
 * (its one-time work shows). A rank's trace begun at its step 2 has steps all alike (≈40 ms each): its first is a
 * step like the others, not one to discount or skip (review 9 D6).
 */
export function firstIsWarmUp(steps: readonly { start: number; end: number }[]): boolean {
  if (steps.length < 2) return false;
  const later = steps
    .slice(1)
    .map((s) => s.end - s.start)
    .sort((a, b) => a - b);
  const median = later[Math.floor((later.length - 1) / 2)]!;
  return steps[0]!.end - steps[0]!.start > WARM_UP_RATIO * median;
}

/** The step index a view opens at where none was saved: the first after the warm-up where the trace has one, else
 *  its first (firstIsWarmUp). */
export const openingStep = (steps: readonly { start: number; end: number }[]): number =>
  firstIsWarmUp(steps) ? OPENING_STEP : 0;

/**
 * [from, to] (µs since the origin) covering `view` (null: the opening step) with one view-width of margin each side, so the first
 * pans and zooms stay inside it; null without steps (nothing says where the view opens).
 */
export function viewWindow(steps: TraceModel['steps'], view: FirstView | null): [number, number] | null {
  const step = steps[Math.min(Math.max(0, view?.step ?? openingStep(steps)), steps.length - 1)];
  if (step === undefined) return null;
  const [from, to] = view?.domain ? [step.start + view.domain[0], step.start + view.domain[1]] : [step.start, step.end];
  const width = Math.max(to - from, 0);
  return [from - width, to + width];
}

/** True when a slice starting at `start` (µs since the origin) and lasting `dur` overlaps [from, to]. */
export function overlapsWindow(start: number, dur: number, from: number, to: number): boolean {
  return start <= to && start + dur >= from;
}

/**
 * The model restricted to slices overlapping [from, to]: same names, tracks (and their depths, so the layout
 * does not move when the full model replaces it), steps and origin; no warnings (the full model brings them).
 */
export function sliceWindow(model: TraceModel, from: number, to: number): TraceModel {
  const rows: number[] = [];
  for (let i = 0; i < model.count; i++) if (overlapsWindow(model.start[i]!, model.dur[i]!, from, to)) rows.push(i);
  const newIndex = new Map<number, number>();
  rows.forEach((row, k) => newIndex.set(row, k));
  const argRows: number[] = [];
  for (let r = 0; r < model.kernelArgs.slice.length; r++) if (newIndex.has(model.kernelArgs.slice[r]!)) argRows.push(r);
  const fields = argRows.length ? model.kernelArgs.values.length / model.kernelArgs.slice.length : 0;
  const values = new Float64Array(argRows.length * fields);
  argRows.forEach((r, k) => values.set(model.kernelArgs.values.subarray(r * fields, (r + 1) * fields), k * fields));
  const pick = <T extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(column: T): T => {
    const out = new (column.constructor as new (n: number) => T)(rows.length);
    rows.forEach((row, k) => {
      out[k] = column[row]!;
    });
    return out;
  };
  return {
    ...model,
    count: rows.length,
    start: pick(model.start),
    dur: pick(model.dur),
    track: pick(model.track),
    name: pick(model.name),
    kind: pick(model.kind),
    depth: pick(model.depth),
    correlation: pick(model.correlation),
    kernelArgs: { slice: Uint32Array.from(argRows, (r) => newIndex.get(model.kernelArgs.slice[r]!)!), values },
    tracks: model.tracks.map((t) => ({ ...t })),
    steps: model.steps.map((s) => ({ ...s })),
    warnings: [],
  };
}

/**
 * The slice of `to` that is slice `i` of `from` (same track, depth, start, duration and name), or -1: carries a
 * selection from a window over to the full model. Rows are ordered by (track, depth, start): binary search.
 */
export function sameSlice(from: TraceModel, i: number, to: TraceModel): number {
  const track = from.track[i]!;
  const depth = from.depth[i]!;
  const start = from.start[i]!;
  const before = (k: number): boolean =>
    to.track[k]! < track ||
    (to.track[k] === track && (to.depth[k]! < depth || (to.depth[k] === depth && to.start[k]! < start)));
  let lo = 0;
  let hi = to.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  const name = from.names[from.name[i]!];
  for (let k = lo; k < to.count && to.track[k] === track && to.depth[k] === depth && to.start[k] === start; k++) {
    if (to.dur[k] === from.dur[i] && to.names[to.name[k]!] === name) return k;
  }
  return -1;
}
