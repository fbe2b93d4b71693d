// Two traces' times matched by step: the same place of the same step number on each side (step k's start plus the
// same share of its length), so a range dragged across one pane covers the same steps of the other however long
// each side's steps ran (eager's cold 39 ms step 1 beside compiled's 8 ms one).

/** A profiled step's span, µs (TraceModel.steps). */
export interface StepSpan {
  start: number;
  end: number;
}

/** Time `t` of the trace with steps `from`, at the same place of the same step of the trace with steps `to`;
 *  between two steps at the same share of the gap; before the first or after the last, as far from it. A step
 *  number the other side lacks maps to its last step's end. */
export function sameStepTime(from: readonly StepSpan[], to: readonly StepSpan[], t: number): number {
  const first = from[0]!;
  if (t < first.start) return to[0]!.start - (first.start - t);
  let k = 0;
  while (k + 1 < from.length && from[k + 1]!.start <= t) k++;
  const step = from[k]!;
  const other = to[k];
  if (!other) return to[to.length - 1]!.end;
  const share = (at: number, a: number, b: number): number => (b > a ? (at - a) / (b - a) : 0);
  if (t <= step.end) return other.start + share(t, step.start, step.end) * (other.end - other.start);
  const next = from[k + 1];
  const otherNext = to[k + 1];
  if (next && otherNext) return other.end + share(t, step.end, next.start) * (otherNext.start - other.end);
  return other.end + (t - step.end);
}

/** The steps [from, to] overlaps, 1-based first and last; null when it overlaps none. */
export function stepsOverlapped(
  steps: readonly StepSpan[],
  from: number,
  to: number,
): { first: number; last: number } | null {
  const hit = steps.flatMap((s, k) => (s.start < to && s.end > from ? [k + 1] : []));
  return hit.length ? { first: hit[0]!, last: hit[hit.length - 1]! } : null;
}
