// Stable index sorts for the trace columns. Multi-million-row traces are sorted with LSD radix passes over
// 16-bit digits (a comparator sort of 6 M indices takes tens of seconds in V8); small inputs use Array.sort,
// since a radix pass costs a 65 536-bucket histogram no matter how few rows there are.

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
 * Sorts order[from, to) in place by (primary, secondary, row index), all ascending; the range must hold its
 * rows in ascending row order on entry (then the result equals a stable sort by the two keys). Traces are
 * nearly sorted per track, so an insertion sort with a bounded amount of moving runs first; input that is
 * far from sorted falls back to the radix sort.
 */
export function sortRangeNearlySorted(order: Uint32Array, from: number, to: number, primary: Float64Array, secondary: Float64Array): void {
  const budget = 8 * (to - from) + 1024;
  let moved = 0;
  for (let i = from + 1; i < to; i++) {
    const row = order[i];
    const p = primary[row];
    const s = secondary[row];
    const prev = order[i - 1];
    if (primary[prev] < p || (primary[prev] === p && (secondary[prev] < s || (secondary[prev] === s && prev < row)))) continue;
    // binary search for the first position in [from, i) whose row sorts after `row`
    let a = from;
    let b = i - 1;
    while (a < b) {
      const m = (a + b) >>> 1;
      const r = order[m];
      if (primary[r] < p || (primary[r] === p && (secondary[r] < s || (secondary[r] === s && r < row)))) a = m + 1; else b = m;
    }
    moved += i - a;
    if (moved > budget) {
      const range = order.subarray(from, to);
      range.sort(); // back to row order, so the stable radix sort breaks ties by row
      range.set(sortRows(Uint32Array.from(range), [primary, secondary]));
      return;
    }
    order.copyWithin(a + 1, a, i);
    order[a] = row;
  }
}
