// Before/after comparison of two traces (eager vs compiled, or any two): the numbers of the compare table.
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import {
  kernelStats,
  summarizeTrace,
  type CompileSpan,
  type KernelFamily,
  type KernelStat,
  type TraceSummary,
} from '../../extension/shared/trace/summary.ts';

export interface ComparisonRow {
  metric: string;
  unit: 'count' | 'us';
  before: number;
  after: number;
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
  before: TraceSummary;
  after: TraceSummary;
  rows: ComparisonRow[];
  /** kernels that ran before but not after (e.g. eager ATen kernels fused into generated ones), by total time */
  disappearedKernels: KernelChange[];
  /** kernels that only ran after (e.g. the fused triton_ kernels) */
  newKernels: KernelChange[];
  compileSpans: { before: CompileSpan[]; after: CompileSpan[] };
}

export function compareTraces(before: TraceModel, after: TraceModel): TraceComparison {
  const b = summarizeTrace(before);
  const a = summarizeTrace(after);
  const per = b.steps > 0 && a.steps > 0 ? 'step' : 'trace';
  const divisor = (s: TraceSummary): number => (per === 'step' ? s.steps : 1);
  const row = (metric: string, unit: ComparisonRow['unit'], value: (s: TraceSummary) => number): ComparisonRow => ({
    metric,
    unit,
    before: value(b) / divisor(b),
    after: value(a) / divisor(a),
  });
  // CPU-only traces count CPU kernels (summary.ts): their busy time is the CPU's, not a GPU's
  const device = b.gpuStreams > 0 || a.gpuStreams > 0 ? 'GPU' : 'CPU kernels';
  const beforeStats = kernelStats(before);
  const afterStats = kernelStats(after);
  const only = (stats: KernelStat[], other: KernelStat[], s: TraceSummary): KernelChange[] => {
    const otherNames = new Set(other.map((k) => k.name));
    return stats
      .filter((k) => !otherNames.has(k.name))
      .map((k) => ({
        name: k.name,
        family: k.family,
        countPer: k.count / divisor(s),
        usPer: k.totalUs / divisor(s),
      }));
  };
  return {
    per,
    before: b,
    after: a,
    rows: [
      row('kernels', 'count', (s) => s.kernels),
      row('launches', 'count', (s) => s.launches),
      row('generated kernels', 'count', (s) => s.kernelsByFamily.generated),
      row('library kernels', 'count', (s) => s.kernelsByFamily.library),
      row('ATen kernels', 'count', (s) => s.kernelsByFamily.aten),
      row('memcpy/memset', 'count', (s) => s.kernelsByFamily.memory),
      row('CUDA-graph replay kernels', 'count', (s) => s.kernelsByFamily['graph-replay']),
      row(`${device} busy`, 'us', (s) => s.gpuBusyUs),
      row(`${device} idle`, 'us', (s) => s.gpuIdleUs),
      { metric: 'compile in profiled region (whole trace)', unit: 'us', before: b.compileUs, after: a.compileUs },
    ],
    disappearedKernels: only(beforeStats, afterStats, b),
    newKernels: only(afterStats, beforeStats, a),
    compileSpans: { before: b.compileSpans, after: a.compileSpans },
  };
}
