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
    const key = keys[k]!;
    let max = 0;
    for (let i = 0; i < current.length; i++) if (key[current[i]!]! > max) max = key[current[i]!]!;
    for (let shift = 0; shift === 0 || max >= 2 ** shift; shift += 16) {
      const divisor = 2 ** shift;
      for (let i = 0; i < current.length; i++) {
        const row = current[i]!;
        digits[row] = Math.floor(key[row]! / divisor) % DIGIT_BUCKETS;
      }
      histogram.fill(0);
      for (let i = 0; i < current.length; i++) histogram[digits[current[i]!]!]!++;
      let sum = 0;
      for (let d = 0; d < DIGIT_BUCKETS; d++) {
        const c = histogram[d]!;
        histogram[d] = sum;
        sum += c;
      }
      for (let i = 0; i < current.length; i++) {
        const row = current[i]!;
        scratch[histogram[digits[row]!]!++] = row;
      }
      [current, scratch] = [scratch, current];
    }
  }
  return current;
}

function comparatorSort(order: Uint32Array, keys: SortKey[]): Uint32Array {
  const rows = Array.from(order);
  rows.sort((a, b) => {
    for (const key of keys) {
      const diff = key[a]! - key[b]!;
      if (diff !== 0) return diff;
    }
    return 0;
  });
  return Uint32Array.from(rows);
}

/** The largest sort key: 2^48 - 1 (ns: 78 hours). */
export const MAX_KEY = 2 ** 48 - 1;

/**
 * Sorts order[from, to) in place by (primary, secondary, row index), all ascending: a total order, so the
 * result equals a stable sort by the two keys of rows given in row order. Traces are nearly sorted per track:
 * a few ascending runs per region (cpu ops, then the python frames of the same time span, then runtime calls).
 * The range is cut wherever everything before sorts before everything after (prefix max < suffix min), and
 * each block's ascending runs are merged pairwise: O(n log runs-per-block). Input with many short runs falls
 * back to the radix sort.
 */
export function sortRangeNearlySorted(
  order: Uint32Array,
  from: number,
  to: number,
  primary: Float64Array,
  secondary: Float64Array,
): void {
  const n = to - from;
  if (n < 2) return;
  const rows = order.subarray(from, to);
  const before = (x: number, y: number): boolean => {
    const px = primary[x]!;
    const py = primary[y]!;
    return px < py || (px === py && (secondary[x]! < secondary[y]! || (secondary[x] === secondary[y] && x < y)));
  };
  // run starts; a sorted range has one
  let runCount = 1;
  for (let i = 1; i < n; i++) if (!before(rows[i - 1]!, rows[i]!)) runCount++;
  if (runCount === 1) return;
  if (runCount > n / 16) {
    const copy = Uint32Array.from(rows).sort(); // row order, so the stable radix sort breaks ties by row
    rows.set(sortRows(copy, [primary, secondary]));
    return;
  }
  // suffix minimum of each position, then cut blocks where the prefix maximum sorts before it
  const suffixMin = new Uint32Array(n);
  suffixMin[n - 1] = rows[n - 1]!;
  for (let i = n - 2; i >= 0; i--) suffixMin[i] = before(rows[i]!, suffixMin[i + 1]!) ? rows[i]! : suffixMin[i + 1]!;
  const scratch = new Uint32Array(n);
  const runStarts: number[] = [];
  let blockStart = 0;
  let prefixMax = rows[0]!;
  for (let i = 1; i <= n; i++) {
    if (i === n || before(prefixMax, suffixMin[i]!)) {
      if (i - blockStart > 1) mergeRuns(rows, scratch, blockStart, i, runStarts, before);
      blockStart = i;
      if (i < n) prefixMax = rows[i]!;
    } else if (before(prefixMax, rows[i]!)) prefixMax = rows[i]!;
  }
}

/** Sorts rows[lo, hi) by merging its ascending runs pairwise (bottom-up), using scratch[lo, hi). */
function mergeRuns(
  rows: Uint32Array,
  scratch: Uint32Array,
  lo: number,
  hi: number,
  runStarts: number[],
  before: (x: number, y: number) => boolean,
): void {
  runStarts.length = 0;
  runStarts.push(lo);
  for (let i = lo + 1; i < hi; i++) if (!before(rows[i - 1]!, rows[i]!)) runStarts.push(i);
  if (runStarts.length === 1) return;
  runStarts.push(hi);
  let src = rows;
  let dst = scratch;
  while (runStarts.length > 2) {
    const next: number[] = [];
    for (let r = 0; r + 1 < runStarts.length; r += 2) {
      const a0 = runStarts[r]!;
      const mid = runStarts[r + 1]!;
      const b1 = r + 2 < runStarts.length ? runStarts[r + 2]! : mid;
      next.push(a0);
      let a = a0;
      let b = mid;
      let o = a0;
      while (a < mid && b < b1) {
        if (before(src[b]!, src[a]!)) dst[o++] = src[b++]!;
        else dst[o++] = src[a++]!;
      }
      while (a < mid) dst[o++] = src[a++]!;
      while (b < b1) dst[o++] = src[b++]!;
    }
    next.push(hi);
    runStarts.length = 0;
    for (const x of next) runStarts.push(x);
    [src, dst] = [dst, src];
  }
  if (src !== rows) rows.set(src.subarray(lo, hi), lo);
}
