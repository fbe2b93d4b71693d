// Two traces' times matched by step: the same place of the same step number on each side (step k's start plus the
// same share of its length), so a range dragged across one pane covers the same steps of the other however long
// each side's steps ran (eager's cold 39 ms step 1 beside compiled's 8 ms one); and the same code found in each.
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { isOp } from './rangeSummary.ts';

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

/** The profiled steps a side's per-step numbers are over, first to last, by the numbers their markers say
 *  (stepMap.stepNumber: a rank's ProfilerStep#2 is step 2, even as its first). */
export interface StepsCompared {
  first: number;
  last: number;
  /** the trace's first step where later ones follow it: the profiler's start-up and the first call's one-time work
   *  are in it (null: a trace of one step) */
  coldStep: number | null;
  /** what the trace's markers call them: "call" where they were found as repeated calls ("call 0"), else "step" */
  unit: 'step' | 'call';
  /** the compare's (analysis/compare.ts): its steps after the first left out because a compile ran in them */
  compiling?: number[];
}

/** What a trace's steps are called: "call" where they were found as repeated calls (or are a script's calls: "call
 *  4"), else "step". */
export const stepUnit = (steps: readonly { label?: string }[]): 'step' | 'call' =>
  steps[0]?.label?.startsWith('call ') ? 'call' : 'step';

/** The one word for two sides' steps: "call" where both are calls, else "step" (a compare's heading, rows and
 *  sentence say it alike). */
export const sharedUnit = (
  a: { unit: 'step' | 'call' } | null,
  b: { unit: 'step' | 'call' } | null,
): 'step' | 'call' => (a && a.unit === b?.unit ? a.unit : 'step');

/** A step's number as its marker says it: ProfilerStep#2 and "call 2" are step 2 (a rank's profile may start at 2);
 *  `ordinal` (1-based) where its label carries none. */
export function stepNumber(label: string | undefined, ordinal: number): number {
  const n = label === undefined ? null : /(\d+)$/.exec(label);
  return n ? Number(n[1]) : ordinal;
}

/** The steps [from, to] overlaps, first and last by their own numbers (stepNumber), and the trace's first step's
 *  where it has later ones (its one-time work: StepsCompared.coldStep); null when it overlaps none. */
export function stepsOverlapped(
  steps: readonly (StepSpan & { label?: string })[],
  from: number,
  to: number,
): StepsCompared | null {
  const hit = steps.flatMap((s, k) => (s.start < to && s.end > from ? [stepNumber(s.label, k + 1)] : []));
  return hit.length
    ? { first: hit[0]!, last: hit[hit.length - 1]!, coldStep: coldStep(steps), unit: stepUnit(steps) }
    : null;
}

/** The number of a trace's first step where later steps follow it (StepsCompared.coldStep), else null. */
export const coldStep = (steps: readonly { label?: string }[]): number | null =>
  steps.length > 1 ? stepNumber(steps[0]!.label, 1) : null;

/**
 * The same code in another trace: of the ops that start in `span` of `model`, one the other trace runs as many
 * times in the same step, else the one it runs fewest times (at least once) there, matched by its occurrence in that step (its 2nd there to the other's
 * 2nd). Returns it and where it starts on each side (µs, each model's time), or null where the other never runs any of
 * them in that step: a graph break's eager code (aten::item) found in the eager trace, not whatever ran at the same
 * time there.
 */
export function sameCode(
  model: TraceModel,
  span: { startUs: number; durUs: number },
  other: TraceModel,
): { here: number; there: number; name: string } | null {
  const k = model.steps.findIndex((s) => s.start <= span.startUs && span.startUs < s.end);
  const windowOf = (m: TraceModel): StepSpan =>
    k >= 0 && m.steps[k] ? m.steps[k] : { start: -Infinity, end: Infinity };
  const starts = (m: TraceModel, name: string): number[] => {
    const id = m.names.indexOf(name);
    const { start, end } = windowOf(m);
    const out: number[] = [];
    for (let i = 0; i < m.count; i++)
      if (m.name[i] === id && isOp(m.kind[i]!) && m.start[i]! >= start && m.start[i]! < end) out.push(m.start[i]!);
    return out.sort((a, b) => a - b);
  };
  const inSpan = new Set<string>();
  for (let i = 0; i < model.count; i++)
    if (isOp(model.kind[i]!) && model.start[i]! >= span.startUs && model.start[i]! <= span.startUs + span.durUs)
      inSpan.add(model.names[model.name[i]!]!);
  // the op rarest in its own step (the most telling: aten::item, not aten::view), then one run as many times on
  // each side (its occurrences then pair one to one), then the rarest there
  let best: { here: number; there: number; name: string; rank: number[] } | null = null;
  for (const name of inSpan) {
    const there = starts(other, name);
    if (!there.length) continue;
    const here = starts(model, name);
    const n = here.findIndex((t) => t >= span.startUs);
    const [at, match] = [here[n]!, there[Math.min(n, there.length - 1)]!];
    // last, the one at the nearer share of its step on each side
    const share = (m: TraceModel, t: number): number => {
      const { start, end } = windowOf(m);
      return Number.isFinite(start) ? (t - start) / (end - start) : 0;
    };
    const rank = [
      here.length,
      here.length === there.length ? 0 : 1,
      there.length,
      Math.abs(share(model, at) - share(other, match)),
    ];
    if (best && !ranksBefore(rank, best.rank)) continue;
    best = { here: at, there: match, name, rank };
  }
  return best && { here: best.here, there: best.there, name: best.name };
}

/** Whether rank `a` comes before `b`, the first place they differ deciding. */
function ranksBefore(a: readonly number[], b: readonly number[]): boolean {
  const k = a.findIndex((x, i) => x !== b[i]);
  return k >= 0 && a[k]! < b[k]!;
}
