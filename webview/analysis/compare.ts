// Before/after comparison of two traces (eager vs compiled, or any two): the numbers of the compare table.
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { formatUsLike } from '../../extension/present/numbers.ts';
import { summarizeRange } from './rangeSummary.ts';
import { coldStep, sharedUnit, stepNumber, stepUnit, type StepsCompared } from './stepMap.ts';
import { stepRowNames, unlikeSteps } from '../compareWords.ts';
import { kernelCountNames } from '../../extension/present/workCounts.ts';
import {
  compileSpans,
  kernelStats,
  summarizeTrace,
  type CompileSpan,
  type KernelFamily,
  type KernelStat,
  type TraceSummary,
  type TraceWindow,
} from '../../extension/shared/trace/summary.ts';

export interface ComparisonRow {
  metric: string;
  unit: 'count' | 'us';
  before: number;
  after: number;
  /** the step's mean length, or a part of it (its time inside kernels, outside them); the inside row is 'inside'
   *  without steps too */
  ofStep?: 'step' | 'inside' | 'outside';
  /** its two values are not the same quantity (TraceComparison.unlike says why): no change is said */
  unlike?: true;
}

export interface KernelChange {
  name: string;
  family: KernelFamily;
  /** launches of this kernel per step (per trace when `per` is 'trace') */
  countPer: number;
  /** its time per step (per trace when `per` is 'trace'), as the table's rows: a total over 3 steps read as 3x */
  usPer: number;
}

export interface TraceComparison {
  /** 'step' when both traces have steps; otherwise rows are whole-trace totals */
  per: 'step' | 'trace';
  /** where the inside rows' time is: GPU kernels, or (a trace with no GPU track) CPU ops */
  device: 'GPU' | 'CPU';
  /** per side, the steps the rows are a mean over (null per trace): stepsCompared's, past the first (it carries the
   *  profiler's start-up and the first call's own costs: a 39 ms step beside 1.7 ms ones) and without a compile */
  steps: { before: StepsCompared | null; after: StepsCompared | null };
  /** why rows of the two sides are not the same quantity (those rows are marked `unlike`), or null: the sides' steps
   *  are not alike (calls found as repeated kernels beside the profiler's steps of a script), every compared step of a
   *  side holds a compile, or a side's compared steps lie so far apart that their mean is none of their times (on a
   *  busy host 6.03 ms and 618 µs: "+1379%" against eager's 225 µs said the host, not the compiler) */
  unlike: string | null;
  before: TraceSummary;
  after: TraceSummary;
  /** the rows: per step, the step's own length leads (the quantity a verdict is about), then its time inside and
   *  outside kernels, so a drop in kernel time is read as a part of the step, not as the step */
  rows: ComparisonRow[];
  /** kernels that ran before but not after (e.g. eager ATen kernels fused into generated ones), by total time */
  disappearedKernels: KernelChange[];
  /** kernels that only ran after (e.g. the fused triton_ kernels) */
  newKernels: KernelChange[];
  /** a kernel that ran before and one nested in it that ran after under its own name (eager's aten::conv2d holds
   *  aten::convolution, which compiled code calls directly): the same work, in neither list above */
  calledAs: { before: KernelChange; after: KernelChange }[];
  compileSpans: { before: CompileSpan[]; after: CompileSpan[] };
}

/** A compared side's steps are no step's time where the longest is more than this many times the shortest: their
 *  mean is neither's (the threshold beyond which the runner's ranges say "too noisy to say": ÷3…×3). */
export const STEPS_APART = 3;

/** How a comparison's table says a time: every time in it in the unit of its longest (review 8 A15: "0.225 ms",
 *  "0.0639 ms" and "161 µs" in one column, each row in the unit of its own longer side). */
export function tableTime(rows: readonly ComparisonRow[]): (us: number) => string {
  const longest = Math.max(0, ...rows.filter((r) => r.unit === 'us').flatMap((r) => [r.before, r.after]));
  return (us) => formatUsLike(us, longest);
}

/** The steps compared of a trace, their window and their lengths (µs): every one but the first where it has two or
 *  more, and of those the longest run of steps in which no compile ran (a step that compiled is the compiler's time:
 *  "+4220%" was a step of a compile beside a steady one); the steps that held one, where some did not
 *  (StepsCompared.compiling), else every step, each with a compile (`allCompiling`). The runner's kernel times count
 *  the same steps by the same rule (comparedRun). */
function stepsCompared(model: TraceModel): {
  steps: StepsCompared;
  count: number;
  window: TraceWindow;
  stepsUs: number;
  lengths: number[];
  allCompiling: boolean;
} | null {
  const { steps } = model;
  const compiles = compileSpans(model);
  // the first of several is no step compared, so its compile is not said (it carries the profiler's start-up)
  const from = steps.length > 1 ? 1 : 0;
  const compiling = steps.map(
    (s, k) => k >= from && compiles.some((c) => c.startUs < s.end && c.startUs + c.durUs > s.start),
  );
  const run = comparedRun(compiling);
  if (!run) return null;
  const [first, last] = run;
  // comparedRun returns a run with no compile or, where every step compiled, all of them: one step tells which
  const allCompiling = compiling.slice(first, last + 1).some(Boolean);
  const chosen = steps.slice(first, last + 1);
  const held = steps.flatMap((s, k) => (compiling[k] ? [stepNumber(s.label, k + 1)] : []));
  const lengths = chosen.map((s) => s.end - s.start);
  return {
    steps: {
      first: stepNumber(steps[first]!.label, first + 1),
      last: stepNumber(steps[last]!.label, last + 1),
      coldStep: coldStep(steps),
      unit: stepUnit(steps),
      ...(!allCompiling && held.length ? { compiling: held } : {}),
    },
    count: chosen.length,
    window: { fromUs: chosen[0]!.start, toUs: chosen[chosen.length - 1]!.end },
    // the steps' own lengths, not the window's: steps found as repeated calls have gaps between them
    stepsUs: lengths.reduce((sum, us) => sum + us, 0),
    lengths,
    allCompiling,
  };
}

/** The steps compared by measure/compared_steps.json's rule (the runner's compared_run, held to the same cases), as
 *  [first, last] indices into the steps, given which of them a compile ran in; null without steps: of the steps, every
 *  one but the first where there are two or more, and of those the longest run without a compile, the first of equal
 *  runs; where every one compiled, all of them. */
export function comparedRun(compiling: readonly boolean[]): [number, number] | null {
  if (!compiling.length) return null;
  const from = compiling.length > 1 ? 1 : 0;
  let [first, last] = [from, compiling.length - 1];
  let best = 0;
  for (let k = from, start = from; k < compiling.length; k++) {
    if (compiling[k]) start = k + 1;
    else if (k - start + 1 > best) [best, first, last] = [k - start + 1, start, k];
  }
  return [first, last];
}

/** Why the two sides' per-step rows are not the same quantity (unlikeSteps says it), and whether that holds for every
 *  per-step row or only the times; null where they are alike. */
function unlike(
  labels: { before: string; after: string },
  before: NonNullable<ReturnType<typeof stepsCompared>>,
  after: NonNullable<ReturnType<typeof stepsCompared>>,
): { text: string; rows: 'all' | 'times' } | null {
  if (before.steps.unit !== after.steps.unit)
    return { text: unlikeSteps.units(labels, { before: before.steps.unit, after: after.steps.unit }), rows: 'all' };
  for (const [side, label] of [
    [before, labels.before],
    [after, labels.after],
  ] as const) {
    if (side.allCompiling) return { text: unlikeSteps.compiling(label, side.steps.unit), rows: 'times' };
    const [shortest, longest] = [Math.min(...side.lengths), Math.max(...side.lengths)];
    if (shortest > 0 && longest > STEPS_APART * shortest)
      return { text: unlikeSteps.apart(label, side.steps, shortest, longest), rows: 'times' };
  }
  return null;
}

/** The comparison of `before` with `after`; `labels`: their panes', as its words name them. */
export function compareTraces(
  before: TraceModel,
  after: TraceModel,
  labels = { before: 'before', after: 'after' },
): TraceComparison {
  const per = before.steps.length > 0 && after.steps.length > 0 ? 'step' : 'trace';
  const [beforeSteps, afterSteps] = per === 'step' ? [stepsCompared(before), stepsCompared(after)] : [null, null];
  const apart = beforeSteps && afterSteps ? unlike(labels, beforeSteps, afterSteps) : null;
  // one word for the quantity the heading says: "call" where both sides' steps are calls
  const unit = sharedUnit(beforeSteps?.steps ?? null, afterSteps?.steps ?? null);
  const b = summarizeTrace(before, beforeSteps?.window);
  const a = summarizeTrace(after, afterSteps?.window);
  const [bDivisor, aDivisor] = [beforeSteps?.count ?? 1, afterSteps?.count ?? 1];
  const row = (metric: string, unit: ComparisonRow['unit'], value: (s: TraceSummary) => number): ComparisonRow => ({
    metric,
    unit,
    before: value(b) / bDivisor,
    after: value(a) / aDivisor,
  });
  // CPU-only traces count CPU kernels (summary.ts): their busy time is the CPU's, not a GPU's
  const device = b.gpuStreams > 0 || a.gpuStreams > 0 ? 'GPU' : 'CPU';
  const generated = b.kernelsByFamily.generated + a.kernelsByFamily.generated > 0;
  const inside: ComparisonRow = {
    ...row(stepRowNames.inside(device, generated), 'us', (s) => s.gpuBusyUs),
    ofStep: 'inside',
  };
  const stepRows: ComparisonRow[] = [];
  if (beforeSteps && afterSteps) {
    const [stepBefore, stepAfter] = [beforeSteps.stepsUs / bDivisor, afterSteps.stepsUs / aDivisor];
    stepRows.push(
      { metric: stepRowNames.step(unit), unit: 'us', before: stepBefore, after: stepAfter, ofStep: 'step' },
      inside,
      // the rest of the step: dispatch, Python, eager code between graphs (on a GPU side, the GPU's gaps)
      {
        metric: stepRowNames.outside(unit, device),
        unit: 'us',
        before: Math.max(0, stepBefore - inside.before),
        after: Math.max(0, stepAfter - inside.after),
        ofStep: 'outside',
      },
    );
  } else stepRows.push(inside);
  const beforeStats = kernelStats(before, beforeSteps?.window);
  const afterStats = kernelStats(after, afterSteps?.window);
  const only = (stats: KernelStat[], other: KernelStat[], by: number): KernelChange[] => {
    const otherNames = new Set(other.map((k) => k.name));
    return stats
      .filter((k) => !otherNames.has(k.name))
      .map((k) => ({ name: k.name, family: k.family, countPer: k.count / by, usPer: k.totalUs / by }));
  };
  const gone = only(beforeStats, afterStats, bDivisor);
  const added = only(afterStats, beforeStats, aDivisor);
  // nesting as the summed steps hold it (the whole trace where there are no steps)
  const whole = { fromUs: -Infinity, toUs: Infinity };
  const { fromUs, toUs } = beforeSteps?.window ?? whole;
  const nested = summarizeRange(before, fromUs, toUs).nested;
  const calledAs: TraceComparison['calledAs'] = [];
  for (const k of [...gone]) {
    const inner = added.find((n) => nested.get(k.name)?.has(n.name));
    if (!inner) continue;
    gone.splice(gone.indexOf(k), 1);
    added.splice(added.indexOf(inner), 1);
    calledAs.push({ before: k, after: inner });
  }
  const counts = kernelCountNames(device);
  const rows: ComparisonRow[] = [
    ...stepRows,
    // where there are steps the outside row is the time between kernels; the first-to-last-kernel window also holds
    // the gaps between steps, so it read longer than the step it was in (review 6C Z1: idle 153 µs in a 152 µs step)
    ...(beforeSteps ? [] : [row(`${device} idle between ${counts.all}`, 'us', (s) => s.gpuIdleUs)]),
    row(counts.all, 'count', (s) => s.kernels),
    row('launches', 'count', (s) => s.launches),
    row(counts.generated, 'count', (s) => s.kernelsByFamily.generated),
    row(counts.library, 'count', (s) => s.kernelsByFamily.library),
    row(counts.aten, 'count', (s) => s.kernelsByFamily.aten),
    row('memcpy/memset', 'count', (s) => s.kernelsByFamily.memory),
    row('CUDA-graph replay kernels', 'count', (s) => s.kernelsByFamily['graph-replay']),
  ];
  // a side's steps far apart leave its counts per step as they are (an interrupted step ran the same kernels)
  for (const r of rows) if (apart && (apart.rows === 'all' || r.unit === 'us')) r.unlike = true;
  return {
    per,
    device,
    steps: { before: beforeSteps?.steps ?? null, after: afterSteps?.steps ?? null },
    unlike: apart?.text ?? null,
    before: b,
    after: a,
    rows: [
      ...rows,
      { metric: 'compile in profiled region (whole trace)', unit: 'us', before: b.compileUs, after: a.compileUs },
    ],
    disappearedKernels: gone,
    newKernels: added,
    calledAs,
    compileSpans: { before: b.compileSpans, after: a.compileSpans },
  };
}
