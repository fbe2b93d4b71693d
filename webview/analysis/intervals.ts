// Interval sets as flat sorted arrays [s0, e0, s1, e1, ...] of disjoint intervals: unions, intersections and
// the length inside a window, for busy/communication/overlap times.

/** The union of [start, end) pairs (flat, any order) as a sorted disjoint interval set. */
export function unionOf(pairs: readonly number[]): Float64Array {
  const n = pairs.length / 2;
  const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => pairs[2 * a]! - pairs[2 * b]!);
  const out: number[] = [];
  for (const k of order) {
    const start = pairs[2 * k]!;
    const end = pairs[2 * k + 1]!;
    if (!(end > start)) continue;
    if (out.length && start <= out[out.length - 1]!) out[out.length - 1] = Math.max(out[out.length - 1]!, end);
    else out.push(start, end);
  }
  return Float64Array.from(out);
}

/** The intersection of two sorted disjoint interval sets. */
export function intersectionOf(a: Float64Array, b: Float64Array): Float64Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i]!, b[j]!);
    const end = Math.min(a[i + 1]!, b[j + 1]!);
    if (end > start) out.push(start, end);
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return Float64Array.from(out);
}

/** Total length of a sorted disjoint interval set inside [from, to). */
export function lengthWithin(set: Float64Array, from: number, to: number): number {
  // first interval ending after `from`
  let lo = 0;
  let hi = set.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (set[2 * mid + 1]! <= from) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  for (let k = 2 * lo; k < set.length && set[k]! < to; k += 2)
    total += Math.min(set[k + 1]!, to) - Math.max(set[k]!, from);
  return total;
}
