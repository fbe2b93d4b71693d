// Stable index sorts for the trace columns. Multi-million-row traces are sorted with LSD radix passes over
// 16-bit digits (a comparator sort of 6 M indices takes tens of seconds in V8); small inputs use Array.sort,
// since a radix pass costs a 65 536-bucket histogram no matter how few rows there are.
import { NS_PER_US } from './model.ts';

const RADIX_MIN_ROWS = 50_000;
const DIGIT_BUCKETS = 65_536;

/** One sort criterion: a non-negative integer key per original row (< 2^48), ascending. */
export type SortKey = Float64Array | Uint32Array | Uint16Array;

/**
 * Returns `order` (a permutation of row indices) stably re-sorted by the keys, most significant first.
 * Keys are indexed by row, not by position in `order`.
 */
export function sortRows(order: Uint32Array, keys: SortKey[]): Uint32Array {
  if (order.length < RADIX_MIN_ROWS) return comparatorSort(order, keys);
  let current: Uint32Array = order;
  let scratch: Uint32Array = new Uint32Array(order.length);
  const digits = new Uint16Array(keys.reduce((max, key) => Math.max(max, key.length), 0));
  const histogram = new Uint32Array(DIGIT_BUCKETS);
  // LSD: least significant key first, and within a key its lowest digit first.
  for (let k = keys.length - 1; k >= 0; k--) {
    const key = keys[k];
    let max = 0;
    for (let i = 0; i < current.length; i++) if (key[current[i]] > max) max = key[current[i]];
    for (let shift = 0; shift === 0 || max >= 2 ** shift; shift += 16) {
      const divisor = 2 ** shift;
      for (let i = 0; i < current.length; i++) {
        const row = current[i];
        digits[row] = Math.floor(key[row] / divisor) % DIGIT_BUCKETS;
      }
      histogram.fill(0);
      for (let i = 0; i < current.length; i++) histogram[digits[current[i]]]++;
      let sum = 0;
      for (let d = 0; d < DIGIT_BUCKETS; d++) { const c = histogram[d]; histogram[d] = sum; sum += c; }
      for (let i = 0; i < current.length; i++) { const row = current[i]; scratch[histogram[digits[row]]++] = row; }
      [current, scratch] = [scratch, current];
    }
  }
  return current;
}

function comparatorSort(order: Uint32Array, keys: SortKey[]): Uint32Array {
  const rows = Array.from(order);
  rows.sort((a, b) => {
    for (const key of keys) {
      const diff = key[a] - key[b];
      if (diff !== 0) return diff;
    }
    return 0;
  });
  return Uint32Array.from(rows);
}

const MAX_KEY = 2 ** 48 - 1;

/**
 * The keys slices are ordered by within a track: start in ns from `origin`, then longest first (as the longest
 * slice's ns minus this one's, so the key has only as many radix digits as the durations need). `clamped`:
 * some start was past MAX_KEY (78 hours) and was cut to it.
 */
export function sortKeys(absStart: Float64Array, dur: Float64Array, n: number, origin: number): { startNs: Float64Array; longestFirst: Float64Array; clamped: boolean } {
  const startNs = new Float64Array(n);
  const longestFirst = new Float64Array(n);
  let clamped = false;
  let longestNs = 0;
  for (let i = 0; i < n; i++) longestNs = Math.max(longestNs, Math.min(Math.round(dur[i] * NS_PER_US), MAX_KEY));
  for (let i = 0; i < n; i++) {
    const ns = Math.round((absStart[i] - origin) * NS_PER_US);
    if (ns > MAX_KEY) clamped = true;
    startNs[i] = Math.min(ns, MAX_KEY);
    longestFirst[i] = longestNs - Math.min(Math.round(dur[i] * NS_PER_US), MAX_KEY);
  }
  return { startNs, longestFirst, clamped };
}

/** Rows by track (counting sort), then each track's rows by (start, longest first), ties in row order. */
export function orderByTrackAndStart(trackKey: Uint32Array, tracks: number, startNs: Float64Array, longestFirst: Float64Array): Uint32Array {
  const n = startNs.length;
  const rows = new Uint32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  const order = countingSortRows(rows, trackKey, tracks);
  for (let from = 0; from < n;) {
    let to = from + 1;
    while (to < n && trackKey[order[to]] === trackKey[order[from]]) to++;
    sortRangeNearlySorted(order, from, to, startNs, longestFirst); // nearly sorted already
    from = to;
  }
  return order;
}

/**
 * Stable counting sort of `order` by a small non-negative integer key per row (key[row] < buckets).
 * O(n + buckets): used for track and (track, depth) orders, which have few distinct values.
 */
export function countingSortRows(order: Uint32Array, key: Uint32Array | Uint16Array, buckets: number): Uint32Array {
  const offsets = new Uint32Array(buckets + 1);
  for (let i = 0; i < order.length; i++) offsets[key[order[i]] + 1]++;
  for (let b = 0; b < buckets; b++) offsets[b + 1] += offsets[b];
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) { const row = order[i]; out[offsets[key[row]]++] = row; }
  return out;
}

/**
 * Sorts order[from, to) in place by (primary, secondary, row index), all ascending: a total order, so the
 * result equals a stable sort by the two keys of rows given in row order. Traces are nearly sorted per track:
 * a few ascending runs per region (cpu ops, then the python frames of the same time span, then runtime calls).
 * The range is cut wherever everything before sorts before everything after (prefix max < suffix min), and
 * each block's ascending runs are merged pairwise: O(n log runs-per-block). Input with many short runs falls
 * back to the radix sort.
 */
export function sortRangeNearlySorted(order: Uint32Array, from: number, to: number, primary: Float64Array, secondary: Float64Array): void {
  const n = to - from;
  if (n < 2) return;
  const rows = order.subarray(from, to);
  const before = (x: number, y: number): boolean => {
    const px = primary[x];
    const py = primary[y];
    return px < py || (px === py && (secondary[x] < secondary[y] || (secondary[x] === secondary[y] && x < y)));
  };
  // run starts; a sorted range has one
  let runCount = 1;
  for (let i = 1; i < n; i++) if (!before(rows[i - 1], rows[i])) runCount++;
  if (runCount === 1) return;
  if (runCount > n / 16) {
    const copy = Uint32Array.from(rows).sort(); // row order, so the stable radix sort breaks ties by row
    rows.set(sortRows(copy, [primary, secondary]));
    return;
  }
  // suffix minimum of each position, then cut blocks where the prefix maximum sorts before it
  const suffixMin = new Uint32Array(n);
  suffixMin[n - 1] = rows[n - 1];
  for (let i = n - 2; i >= 0; i--) suffixMin[i] = before(rows[i], suffixMin[i + 1]) ? rows[i] : suffixMin[i + 1];
  const scratch = new Uint32Array(n);
  const runStarts: number[] = [];
  let blockStart = 0;
  let prefixMax = rows[0];
  for (let i = 1; i <= n; i++) {
    if (i === n || before(prefixMax, suffixMin[i])) {
      if (i - blockStart > 1) mergeRuns(rows, scratch, blockStart, i, runStarts, before);
      blockStart = i;
      if (i < n) prefixMax = rows[i];
    } else if (before(prefixMax, rows[i])) prefixMax = rows[i];
  }
}

/** Sorts rows[lo, hi) by merging its ascending runs pairwise (bottom-up), using scratch[lo, hi). */
function mergeRuns(rows: Uint32Array, scratch: Uint32Array, lo: number, hi: number, runStarts: number[], before: (x: number, y: number) => boolean): void {
  runStarts.length = 0;
  runStarts.push(lo);
  for (let i = lo + 1; i < hi; i++) if (!before(rows[i - 1], rows[i])) runStarts.push(i);
  if (runStarts.length === 1) return;
  runStarts.push(hi);
  let src = rows;
  let dst = scratch;
  while (runStarts.length > 2) {
    const next: number[] = [];
    for (let r = 0; r + 1 < runStarts.length; r += 2) {
      const a0 = runStarts[r];
      const mid = runStarts[r + 1];
      const b1 = r + 2 < runStarts.length ? runStarts[r + 2] : mid;
      next.push(a0);
      let a = a0;
      let b = mid;
      let o = a0;
      while (a < mid && b < b1) { if (before(src[b], src[a])) dst[o++] = src[b++]; else dst[o++] = src[a++]; }
      while (a < mid) dst[o++] = src[a++];
      while (b < b1) dst[o++] = src[b++];
    }
    next.push(hi);
    runStarts.length = 0;
    for (const x of next) runStarts.push(x);
    [src, dst] = [dst, src];
  }
  if (src !== rows) rows.set(src.subarray(lo, hi), lo);
}
