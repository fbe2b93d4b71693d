// The profiler's own work (Kineto's track of pid -1: CUPTI's buffer requests) runs inside the user's code: the host
// code around it is charged its time. Review 31 B3: a 2.6 ms buffer request in call 0, and under it Inductor's
// generated code → set_device → _cuda_setDevice over the same 2.6 ms, read as set_device's cost. Per slice, the time
// of it the profiler's own work covers, so the timeline says which frames that work explains.
import { SliceKind, type TraceModel } from '../../extension/shared/trace/model.ts';
import { lengthWithin, unionOf } from './intervals.ts';

/** Kineto's track of its own work (CUPTI's buffer requests): pid -1, no process of the user's. */
const isProfilerWork = (track: { pid: string; gpu: boolean }): boolean => !track.gpu && Number(track.pid) === -1;

/** A thread of the user's process (a numeric pid): not a GPU stream, the profiler's own track, or its window's span. */
const isHostThread = (track: { pid: string; gpu: boolean }): boolean =>
  !track.gpu && /^\d+$/.test(track.pid) && !isProfilerWork(track);

/**
 * Per slice of `model`, µs of it during the profiler's own work: for a host thread's op or Python frame, else 0
 * (that work itself, GPU streams, the profiler's steps and window). Kineto does not say on which thread its work
 * ran: time during it is said as such, not as that thread's.
 */
function duringProfilerWork(model: TraceModel): Float64Array {
  const out = new Float64Array(model.count);
  const spans: number[] = [];
  for (let i = 0; i < model.count; i++)
    if (isProfilerWork(model.tracks[model.track[i]!]!)) spans.push(model.start[i]!, model.start[i]! + model.dur[i]!);
  if (!spans.length) return out;
  const work = unionOf(spans);
  for (let i = 0; i < model.count; i++) {
    if (model.kind[i] === SliceKind.Step || !isHostThread(model.tracks[model.track[i]!]!)) continue;
    out[i] = lengthWithin(work, model.start[i]!, model.start[i]! + model.dur[i]!);
  }
  return out;
}

/** A slice inside the profiler's own work: it is nearly all of its time (`during` of its `dur`; a frame's call and
 *  return around it take a little), drawn dimmed and said so. The frames around it hold it too, and say how much. */
export const insideProfilerWork = (during: number, dur: number): boolean => during > 0 && during >= INSIDE * dur;

/** The share of a slice's time the profiler's work covers where the slice is said to be inside it. */
const INSIDE = 0.9;

/**
 * Per slice of the profiler's own work, the slices `during` (duringProfilerWork) says are inside it that overlap it:
 * the deepest of each track (set_device's innermost frame, not its callers too), in track order; [] where none.
 * Its label names the first of each (framesOfProfilerWork), its hover all of them: the same frames.
 */
function framesInsideWork(model: TraceModel, during: Float64Array): Map<number, number[]> {
  // one pass over the slices, each inside the work matched to the requests it overlaps by binary search: a long
  // trace holds hundreds of them
  const work: number[] = [];
  for (let i = 0; i < model.count; i++) if (isProfilerWork(model.tracks[model.track[i]!]!)) work.push(i);
  work.sort((a, b) => model.start[a]! - model.start[b]!);
  const end = (i: number): number => model.start[i]! + model.dur[i]!;
  /** per work slice (by its place in `work`), per track the deepest slice inside it */
  const deepest = work.map(() => new Map<number, number>());
  const longest = work.reduce((most, i) => Math.max(most, model.dur[i]!), 0);
  for (let i = 0; i < model.count; i++) {
    if (!insideProfilerWork(during[i]!, model.dur[i]!)) continue;
    // the work slices that may overlap it begin after its start less the longest of them, before its end
    let k = lowerBound(work, (w) => model.start[w]! >= model.start[i]! - longest);
    for (; k < work.length && model.start[work[k]!]! < end(i); k++) {
      if (end(work[k]!) <= model.start[i]!) continue;
      const held = deepest[k]!.get(model.track[i]!);
      if (held === undefined || model.depth[i]! > model.depth[held]!) deepest[k]!.set(model.track[i]!, i);
    }
  }
  return new Map(work.map((w, k) => [w, [...deepest[k]!].sort((a, b) => a[0] - b[0]).map(([, i]) => i)]));
}

/**
 * Per name of the profiler's own work ("Activity Buffer Request"), the frame each of its slices ran inside (the first
 * of framesInsideWork's: the first track's, a thread's op before its Python stack's frame), where every one of them
 * ran inside one: what its label may name for all of them (review 10 B3: the buffer request over "CUDA set-up" for
 * the same 2.6 ms, nothing linking them).
 */
function framesOfProfilerWork(
  model: TraceModel,
  inside: ReadonlyMap<number, readonly number[]>,
): Map<number, number[]> {
  const frames = new Map<number, number[]>();
  const unplaced = new Set<number>();
  for (const [work, [first]] of inside) {
    const name = model.name[work]!;
    if (first === undefined) unplaced.add(name);
    else frames.set(name, [...(frames.get(name) ?? []), first]);
  }
  for (const name of unplaced) frames.delete(name);
  return frames;
}

/**
 * The profiler's own work in a pane's trace, each thing found once for the dimming, the labels and the hovers: per
 * slice its µs during that work (duringProfilerWork), the frames each work slice ran inside (framesInsideWork) and
 * what each work name's label names (framesOfProfilerWork).
 */
export class ProfilerWork {
  readonly during: Float64Array;
  private inside: Map<number, number[]> | null = null;
  private labelled: Map<number, number[]> | null = null;

  constructor(private readonly model: TraceModel) {
    this.during = duringProfilerWork(model);
  }

  /** The frames slice `span` ran inside where it is the profiler's own work (framesInsideWork), else []. */
  framesInside(span: number): readonly number[] {
    return this.insideWork.get(span) ?? [];
  }

  /** Per name id of the profiler's own work, the frame each of its slices ran inside (framesOfProfilerWork). */
  get labelFrames(): ReadonlyMap<number, readonly number[]> {
    return (this.labelled ??= framesOfProfilerWork(this.model, this.insideWork));
  }

  private get insideWork(): Map<number, number[]> {
    return (this.inside ??= framesInsideWork(this.model, this.during));
  }
}

/** The first place in `sorted` where `at` holds (it holds from some place on). */
function lowerBound(sorted: readonly number[], at: (i: number) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(sorted[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
