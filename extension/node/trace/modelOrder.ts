// A raw trace's slices laid out in the model's order (model.ts): by track, then depth (from how they nest), then
// start — each (track, depth) a level of the level index (levels.ts). The raw columns are in file order, which
// interleaves every track; reading them through a permutation jumped across all of them for every row. So each
// column is first copied grouped by track (a counting sort: each track's rows stay in file order, nearly sorted by
// start), and every later pass reads near where it read last: the sort within each track, the nesting, and the
// layout by level, which writes each model column whole (docs/BENCHMARKS.md).
//
// The first write to fresh memory faults its pages in, several times slower than a write after it, so each model
// column is made in an array of the same length that the build is done with, where one is; the arrays are plain
// ones, not memory.ts's resizable ones (on Node 20 their elements are read 1.5–2.5× slower).
import { NS_PER_US, type TrackInfo } from '../../shared/trace/model.ts';
import type { LevelIndex } from '../../shared/trace/levels.ts';
import type { RawTrace } from './rawTrace.ts';
import type { TraceColumns } from '../../shared/trace/rowParts.ts';
import { MAX_KEY, sortRangeNearlySorted } from './sort.ts';

export const MAX_DEPTH = 65_535;

/** The model's columns with their level index, and where each raw row went. */
export interface OrderedRows {
  columns: TraceColumns;
  levels: LevelIndex;
  /** the model row of each raw row */
  modelRow: Uint32Array;
  /** some start was past MAX_KEY (78 hours) and was ordered as if at it */
  clamped: boolean;
  /** some slice nested deeper than MAX_DEPTH and was put at it */
  depthClamped: boolean;
}

/**
 * The rows of `raw` in the model's order. `trackKey`: each raw row's track in the model's track order (`tracks`,
 * whose maxDepth this sets). Consumes raw's start (µs since the origin), dur, track, name, kind and correlation
 * columns, giving each back (memory.ts) as soon as it is copied.
 */
export function orderRows(raw: RawTrace, trackKey: Uint32Array, tracks: TrackInfo[]): OrderedRows {
  const groups = groupByTrack(raw, trackKey, tracks.length);
  const keys = sortKeys(groups);
  const byStart = orderWithinTracks(groups.trackFrom, keys.startNs, keys.longestFirst);
  const { depthAt, depthClamped } = nestingDepths(byStart, groups, tracks);
  const levels = levelsOf(depthAt, groups.trackFrom, tracks);
  // start and dur into the sort keys' arrays, then name and correlation into those of the grouped rows and start
  const start = keys.startNs;
  const dur = keys.longestFirst;
  const modelRow = new Uint32Array(raw.count);
  layOutTimes(byStart, depthAt, groups, levels, start, dur, modelRow);
  const name = groups.rowAt;
  const kind = new Uint8Array(raw.count);
  const correlation = groups.start;
  layOutIds(byStart, depthAt, groups, levels, name, kind, correlation);
  const track = byStart;
  const depth = depthAt;
  fillTracksAndDepths(levels, track, depth);
  return {
    columns: { start, dur, track, name, kind, depth, correlation },
    levels,
    modelRow,
    clamped: keys.clamped,
    depthClamped,
  };
}

/** The raw columns grouped by track: the rows of track t are [trackFrom[t], trackFrom[t + 1]), in file order. */
interface TrackGroups {
  trackFrom: Uint32Array;
  rowAt: Uint32Array;
  start: Float64Array;
  dur: Float64Array;
  name: Uint32Array;
  kind: Uint8Array;
  correlation: Float64Array;
}

function groupByTrack(raw: RawTrace, trackKey: Uint32Array, tracks: number): TrackGroups {
  const n = raw.count;
  const trackFrom = new Uint32Array(tracks + 1);
  for (let i = 0; i < n; i++) trackFrom[trackKey[i]! + 1]!++;
  for (let t = 0; t < tracks; t++) trackFrom[t + 1]! += trackFrom[t]!;
  const rowAt = new Uint32Array(n);
  const next = trackFrom.slice(0, tracks);
  for (let i = 0; i < n; i++) rowAt[next[trackKey[i]!]!++] = i;
  // column by column, each raw one given back once copied, so the two are not all held at once
  const start = groupFloat64(raw.start.data, trackKey, trackFrom, n);
  raw.start.release();
  const dur = groupFloat64(raw.dur.data, trackKey, trackFrom, n);
  raw.dur.release();
  const name = groupUint32(raw.name.data, trackKey, trackFrom, n);
  raw.name.release();
  const kind = groupUint8(raw.kind.data, trackKey, trackFrom, n);
  raw.kind.release();
  const correlation = groupFloat64(raw.correlation.data, trackKey, trackFrom, n);
  raw.correlation.release();
  raw.track.release();
  return { trackFrom, rowAt, start, dur, name, kind, correlation };
}

// One function per array type, so V8 copies floats without boxing them.
function groupFloat64(column: Float64Array, trackKey: Uint32Array, trackFrom: Uint32Array, n: number): Float64Array {
  const out = new Float64Array(n);
  const next = trackFrom.slice(0, trackFrom.length - 1);
  for (let i = 0; i < n; i++) out[next[trackKey[i]!]!++] = column[i]!;
  return out;
}

function groupUint32(column: Uint32Array, trackKey: Uint32Array, trackFrom: Uint32Array, n: number): Uint32Array {
  const out = new Uint32Array(n);
  const next = trackFrom.slice(0, trackFrom.length - 1);
  for (let i = 0; i < n; i++) out[next[trackKey[i]!]!++] = column[i]!;
  return out;
}

function groupUint8(column: Uint8Array, trackKey: Uint32Array, trackFrom: Uint32Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  const next = trackFrom.slice(0, trackFrom.length - 1);
  for (let i = 0; i < n; i++) out[next[trackKey[i]!]!++] = column[i]!;
  return out;
}

/**
 * The keys each track's rows are sorted by (sort.ts): start in ns, then longest first as the longest slice's ns
 * minus this one's, so the key has only as many radix digits as the durations need.
 */
function sortKeys({ start, dur }: TrackGroups): {
  startNs: Float64Array;
  longestFirst: Float64Array;
  clamped: boolean;
} {
  const n = start.length;
  const startNs = new Float64Array(n);
  const longestFirst = new Float64Array(n);
  let clamped = false;
  let longestNs = 0;
  for (let p = 0; p < n; p++) longestNs = Math.max(longestNs, Math.min(Math.round(dur[p]! * NS_PER_US), MAX_KEY));
  for (let p = 0; p < n; p++) {
    const ns = Math.round(start[p]! * NS_PER_US);
    if (ns > MAX_KEY) clamped = true;
    startNs[p] = Math.min(ns, MAX_KEY);
    longestFirst[p] = longestNs - Math.min(Math.round(dur[p]! * NS_PER_US), MAX_KEY);
  }
  return { startNs, longestFirst, clamped };
}

/** The grouped rows, each track's by (start, longest first), ties in file order. */
function orderWithinTracks(trackFrom: Uint32Array, startNs: Float64Array, longestFirst: Float64Array): Uint32Array {
  const byStart = new Uint32Array(startNs.length);
  for (let p = 0; p < byStart.length; p++) byStart[p] = p;
  for (let t = 0; t + 1 < trackFrom.length; t++)
    sortRangeNearlySorted(byStart, trackFrom[t]!, trackFrom[t + 1]!, startNs, longestFirst); // nearly sorted already
  return byStart;
}

/** Nesting depth at each k of `byStart`, from a stack of open slices' end times per track; sets the tracks' maxDepth. */
function nestingDepths(
  byStart: Uint32Array,
  { trackFrom, start, dur }: TrackGroups,
  tracks: TrackInfo[],
): { depthAt: Uint16Array; depthClamped: boolean } {
  const depthAt = new Uint16Array(byStart.length);
  const stack: number[] = [];
  let depthClamped = false;
  for (let t = 0; t < tracks.length; t++) {
    stack.length = 0;
    let maxDepth = 0;
    for (let k = trackFrom[t]!; k < trackFrom[t + 1]!; k++) {
      const p = byStart[k]!;
      const s = start[p]!;
      while (stack.length > 0 && stack[stack.length - 1]! <= s) stack.pop();
      if (stack.length > MAX_DEPTH) depthClamped = true;
      const depth = Math.min(stack.length, MAX_DEPTH);
      depthAt[k] = depth;
      if (depth > maxDepth) maxDepth = depth;
      stack.push(s + dur[p]!);
    }
    tracks[t]!.maxDepth = maxDepth;
  }
  return { depthAt, depthClamped };
}

/** The level index: one level per (track, depth), empty ones too, from how many rows each has. */
function levelsOf(depthAt: Uint16Array, trackFrom: Uint32Array, tracks: TrackInfo[]): LevelIndex {
  const trackLevels = new Uint32Array(tracks.length + 1);
  for (let t = 0; t < tracks.length; t++) trackLevels[t + 1] = trackLevels[t]! + tracks[t]!.maxDepth + 1;
  const levelCount = trackLevels[tracks.length]!;
  const levelStart = new Uint32Array(levelCount + 1);
  for (let t = 0; t < tracks.length; t++) {
    const first = trackLevels[t]! + 1;
    for (let k = trackFrom[t]!; k < trackFrom[t + 1]!; k++) levelStart[first + depthAt[k]!]!++;
  }
  for (let l = 0; l < levelCount; l++) levelStart[l + 1]! += levelStart[l]!;
  return { trackLevels, levelStart };
}

// The layout by level: each track's rows in start order, each written at the next free row of its level (a stable
// counting sort by depth), in two passes so that each writes over arrays the one before is done with.

/** Start and dur of every model row, and the model row of every raw row. */
function layOutTimes(
  byStart: Uint32Array,
  depthAt: Uint16Array,
  groups: TrackGroups,
  levels: LevelIndex,
  start: Float64Array,
  dur: Float64Array,
  modelRow: Uint32Array,
): void {
  const { trackFrom, rowAt } = groups;
  const next = levels.levelStart.slice(0, levels.levelStart.length - 1);
  for (let t = 0; t + 1 < trackFrom.length; t++) {
    const first = levels.trackLevels[t]!;
    for (let k = trackFrom[t]!; k < trackFrom[t + 1]!; k++) {
      const p = byStart[k]!;
      const row = next[first + depthAt[k]!]!++;
      start[row] = groups.start[p]!;
      dur[row] = groups.dur[p]!;
      modelRow[rowAt[p]!] = row;
    }
  }
}

/** Name, kind and correlation of every model row. */
function layOutIds(
  byStart: Uint32Array,
  depthAt: Uint16Array,
  groups: TrackGroups,
  levels: LevelIndex,
  name: Uint32Array,
  kind: Uint8Array,
  correlation: Float64Array,
): void {
  const { trackFrom } = groups;
  const next = levels.levelStart.slice(0, levels.levelStart.length - 1);
  for (let t = 0; t + 1 < trackFrom.length; t++) {
    const first = levels.trackLevels[t]!;
    for (let k = trackFrom[t]!; k < trackFrom[t + 1]!; k++) {
      const p = byStart[k]!;
      const row = next[first + depthAt[k]!]!++;
      name[row] = groups.name[p]!;
      kind[row] = groups.kind[p]!;
      correlation[row] = groups.correlation[p]!;
    }
  }
}

/** The track and depth columns: constant over each level. */
function fillTracksAndDepths({ trackLevels, levelStart }: LevelIndex, track: Uint32Array, depth: Uint16Array): void {
  for (let t = 0; t + 1 < trackLevels.length; t++) {
    track.fill(t, levelStart[trackLevels[t]!], levelStart[trackLevels[t + 1]!]);
    for (let l = trackLevels[t]!; l < trackLevels[t + 1]!; l++)
      depth.fill(l - trackLevels[t]!, levelStart[l], levelStart[l + 1]);
  }
}
