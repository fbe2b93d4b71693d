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
