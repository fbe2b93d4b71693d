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
export function duringProfilerWork(model: TraceModel): Float64Array {
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
 * The slices `during` (duringProfilerWork) says are inside slice `span` of `model`, the profiler's own work, that
 * overlap it: the deepest of each track (set_device's innermost frame, not its callers too), in track order.
 */
export function slicesInside(model: TraceModel, during: Float64Array, span: number): number[] {
  // (a pass over the slices: only for the profiler's own, a handful per trace)
  if (!isProfilerWork(model.tracks[model.track[span]!]!)) return [];
  const [from, to] = [model.start[span]!, model.start[span]! + model.dur[span]!];
  const deepest = new Map<number, number>();
  for (let i = 0; i < model.count; i++) {
    if (!insideProfilerWork(during[i]!, model.dur[i]!)) continue;
    if (model.start[i]! >= to || model.start[i]! + model.dur[i]! <= from) continue;
    const track = model.track[i]!;
    const held = deepest.get(track);
    if (held === undefined || model.depth[i]! > model.depth[held]!) deepest.set(track, i);
  }
  return [...deepest.entries()].sort((a, b) => a[0] - b[0]).map(([, i]) => i);
}

/**
 * Per name of the profiler's own work ("Activity Buffer Request"), the slice each of its slices ran inside (slicesInside:
 * the first track's, a thread's op before its Python stack's frame), where every one of them ran inside one: what
 * its label may name for all of them (review 10 B3: the buffer request over "CUDA set-up" for the same 2.6 ms,
 * nothing linking them).
 */
export function framesOfProfilerWork(model: TraceModel, during: Float64Array): Map<number, number[]> {
  // one pass over the slices, each inside the work matched to the requests it overlaps by binary search: a long
  // trace holds hundreds of them (slicesInside, a pass each, is for one hover)
  const work: number[] = [];
  for (let i = 0; i < model.count; i++) if (isProfilerWork(model.tracks[model.track[i]!]!)) work.push(i);
  work.sort((a, b) => model.start[a]! - model.start[b]!);
  const end = (i: number): number => model.start[i]! + model.dur[i]!;
  /** per work slice (by its place in `work`), the slice it ran inside: the first track's, its deepest */
  const inside = new Int32Array(work.length).fill(-1);
  const longest = work.reduce((most, i) => Math.max(most, model.dur[i]!), 0);
  for (let i = 0; i < model.count; i++) {
    if (!insideProfilerWork(during[i]!, model.dur[i]!)) continue;
    // the work slices that may overlap it begin after its start less the longest of them, before its end
    let k = lowerBound(work, (w) => model.start[w]! >= model.start[i]! - longest);
    for (; k < work.length && model.start[work[k]!]! < end(i); k++) {
      if (end(work[k]!) <= model.start[i]!) continue;
      const held = inside[k]!;
      const before =
        held < 0 ||
        model.track[i]! < model.track[held]! ||
        (model.track[i] === model.track[held] && model.depth[i]! > model.depth[held]!);
      if (before) inside[k] = i;
    }
  }
  const frames = new Map<number, number[]>();
  const unplaced = new Set<number>();
  work.forEach((w, k) => {
    if (inside[k]! < 0) unplaced.add(model.name[w]!);
    else frames.set(model.name[w]!, [...(frames.get(model.name[w]!) ?? []), inside[k]!]);
  });
  for (const name of unplaced) frames.delete(name);
  return frames;
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
