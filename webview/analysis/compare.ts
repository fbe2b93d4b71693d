// Before/after comparison of two traces (eager vs compiled, or any two): the numbers of the compare table.
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { summarizeRange } from './rangeSummary.ts';
import { coldStep, stepNumber, stepUnit, type StepsCompared } from './stepMap.ts';
import { stepRowNames } from '../timelineWords.ts';
import {
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
  /** per side, the steps the rows are a mean over (null per trace): every step but the first where there are two
   *  or more, as the first carries the profiler's start-up and the first call's own costs (a 39 ms step beside
   *  1.7 ms ones), which a mean over every step would read as the side's per-step time */
  steps: { before: StepsCompared | null; after: StepsCompared | null };
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

/** The steps compared of a trace (every one but the first where it has two or more) and their window. */
function stepsCompared(
  model: TraceModel,
): { steps: StepsCompared; count: number; window: TraceWindow; stepsUs: number } | null {
  const { steps } = model;
  if (!steps.length) return null;
  const first = steps.length > 1 ? 1 : 0;
  const last = steps.length - 1;
  return {
    steps: {
      first: stepNumber(steps[first]!.label, first + 1),
      last: stepNumber(steps[last]!.label, last + 1),
      coldStep: coldStep(steps),
      unit: stepUnit(steps),
    },
    count: steps.length - first,
    window: { fromUs: steps[first]!.start, toUs: steps[steps.length - 1]!.end },
    // the steps' own lengths, not the window's: steps found as repeated calls have gaps between them
    stepsUs: steps.slice(first).reduce((sum, s) => sum + (s.end - s.start), 0),
  };
}

export function compareTraces(before: TraceModel, after: TraceModel): TraceComparison {
  const per = before.steps.length > 0 && after.steps.length > 0 ? 'step' : 'trace';
  const [beforeSteps, afterSteps] = per === 'step' ? [stepsCompared(before), stepsCompared(after)] : [null, null];
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
  const inside: ComparisonRow = { ...row(stepRowNames.inside(device), 'us', (s) => s.gpuBusyUs), ofStep: 'inside' };
  const stepRows: ComparisonRow[] = [];
  if (beforeSteps && afterSteps) {
    const [stepBefore, stepAfter] = [beforeSteps.stepsUs / bDivisor, afterSteps.stepsUs / aDivisor];
    stepRows.push(
      { metric: stepRowNames.step, unit: 'us', before: stepBefore, after: stepAfter, ofStep: 'step' },
      inside,
      // the rest of the step: dispatch, Python, eager code between graphs (on a GPU side, the GPU's gaps)
      {
        metric: stepRowNames.outside,
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
  return {
    per,
    steps: { before: beforeSteps?.steps ?? null, after: afterSteps?.steps ?? null },
    before: b,
    after: a,
    rows: [
      ...stepRows,
      // where there are steps the outside row is the time between kernels; the first-to-last-kernel window also holds
      // the gaps between steps, so it read longer than the step it was in (review 6C Z1: idle 153 µs in a 152 µs step)
      ...(beforeSteps ? [] : [row(`${device} idle between kernels`, 'us', (s) => s.gpuIdleUs)]),
      row('kernels', 'count', (s) => s.kernels),
      row('launches', 'count', (s) => s.launches),
      row('generated kernels', 'count', (s) => s.kernelsByFamily.generated),
      row('library kernels', 'count', (s) => s.kernelsByFamily.library),
      row('ATen kernels', 'count', (s) => s.kernelsByFamily.aten),
      row('memcpy/memset', 'count', (s) => s.kernelsByFamily.memory),
      row('CUDA-graph replay kernels', 'count', (s) => s.kernelsByFamily['graph-replay']),
      { metric: 'compile in profiled region (whole trace)', unit: 'us', before: b.compileUs, after: a.compileUs },
    ],
    disappearedKernels: gone,
    newKernels: added,
    calledAs,
    compileSpans: { before: b.compileSpans, after: a.compileSpans },
  };
}
