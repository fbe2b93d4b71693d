// The model's rows grouped by (track, depth) level: rows are ordered by (track, depth, start), so each level is a
// contiguous, start-sorted run of non-overlapping slices, found here by binary search instead of a scan.
import type { TraceModel } from './model.ts';

/** Row ranges of each (track, depth) level: levels of track t are levelStart[trackLevels[t] .. trackLevels[t+1]), each ending where the next starts. */
export interface LevelIndex {
  trackLevels: Uint32Array;
  levelStart: Uint32Array;
}

export function levelIndex(model: TraceModel): LevelIndex {
  const starts: number[] = [];
  const trackLevels = new Uint32Array(model.tracks.length + 1);
  for (let i = 0; i < model.count; i++) {
    if (i === 0 || model.track[i] !== model.track[i - 1] || model.depth[i] !== model.depth[i - 1]) {
      if (i === 0 || model.track[i] !== model.track[i - 1]) {
        for (let t = i === 0 ? 0 : model.track[i - 1]! + 1; t <= model.track[i]!; t++) trackLevels[t] = starts.length;
      }
      starts.push(i);
    }
  }
  for (let t = model.count === 0 ? 0 : model.track[model.count - 1]! + 1; t <= model.tracks.length; t++)
    trackLevels[t] = starts.length;
  starts.push(model.count);
  return { trackLevels, levelStart: Uint32Array.from(starts) };
}

const cache = new WeakMap<TraceModel, LevelIndex>();

/** The model's level index, built once per model (a model's columns never change after it is built). */
export function levelsOf(model: TraceModel): LevelIndex {
  let levels = cache.get(model);
  if (!levels) {
    levels = levelIndex(model);
    cache.set(model, levels);
  }
  return levels;
}

/** Last row in [from, to) whose start is ≤ t, or from - 1. */
export function lastStartingBy(model: Pick<TraceModel, 'start'>, from: number, to: number, t: number): number {
  let a = from;
  let b = to;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (model.start[m]! <= t) a = m + 1;
    else b = m;
  }
  return a - 1;
}

/** Deepest slice on `track` whose span contains `t` (µs relative to origin), or -1. */
export function sliceAt(
  model: Pick<TraceModel, 'start' | 'dur' | 'tracks'>,
  levels: LevelIndex,
  track: number,
  t: number,
): number {
  if (track >= model.tracks.length) return -1;
  for (let level = levels.trackLevels[track + 1]! - 1; level >= levels.trackLevels[track]!; level--) {
    const rowStart = levels.levelStart[level]!;
    const candidate = lastStartingBy(model, rowStart, levels.levelStart[level + 1]!, t);
    if (candidate >= rowStart && model.start[candidate]! + model.dur[candidate]! >= t) return candidate;
  }
  return -1;
}

/**
 * Calls `visit` for every row of one level that overlaps [from, to] (µs), in start order. A level's slices do
 * not overlap, so at most one starts before `from` and still runs.
 */
export function forEachOverlapping(
  model: TraceModel,
  levels: LevelIndex,
  level: number,
  from: number,
  to: number,
  visit: (row: number) => void,
): void {
  const rowStart = levels.levelStart[level]!;
  const rowEnd = levels.levelStart[level + 1]!;
  let i = Math.max(rowStart, lastStartingBy(model, rowStart, rowEnd, from));
  if (i < rowEnd && model.start[i]! + model.dur[i]! < from) i++;
  for (; i < rowEnd && model.start[i]! <= to; i++) if (model.start[i]! + model.dur[i]! >= from) visit(i);
}
