// Per-trace facts for `compile-lens summarize` and the compare view. The JSON shape (TraceSummary) is public:
// the README documents it, so field names stay plain and stable.
import { isKernelKind, SliceKind, type TraceModel } from './model.ts';

/** Kernel families as they appear in JSON. */
export type KernelFamily = 'generated' | 'library' | 'aten' | 'memory' | 'graph-replay';

const FAMILY_OF_KIND: Partial<Record<SliceKind, KernelFamily>> = {
  [SliceKind.KernelGenerated]: 'generated',
  [SliceKind.KernelExtern]: 'library',
  [SliceKind.KernelAten]: 'aten',
  [SliceKind.Memory]: 'memory',
  [SliceKind.GraphReplay]: 'graph-replay',
};

export interface KernelStat {
  name: string;
  family: KernelFamily;
  count: number;
  totalUs: number;
  meanUs: number;
}

export interface CompileSpan {
  name: string;
  /** µs from the start of the trace */
  startUs: number;
  durUs: number;
}

export interface TraceSummary {
  /** slices read (complete events on all tracks) */
  events: number;
  cpuThreads: number;
  gpuStreams: number;
  /** first slice start to last slice end, µs */
  spanUs: number;
  /** profiled steps: ProfilerStep# spans, or repetitions of the kernel sequence (see stepSource) */
  steps: number;
  stepSource: 'profiler' | 'repetition' | 'none';
  /** device activities (kernels plus memcpy/memset); in a CPU-only trace, its outermost compute ops (cpuKernelIndices) */
  kernels: number;
  /** null when the trace has no steps */
  kernelsPerStep: number | null;
  /** every GPU-track event per step, GPU annotation ranges included: what torch.profiler's device_type == CUDA counts */
  gpuEventsPerStep: number | null;
  kernelsByFamily: Record<KernelFamily, number>;
  /** CPU runtime calls (cudaLaunchKernel, cudaGraphLaunch, cudaMemcpyAsync, ...) linked to at least one device activity */
  launches: number;
  launchesPerStep: number | null;
  /** union of kernel intervals over all GPU streams (CPU-only trace: CPU kernels), µs */
  gpuBusyUs: number;
  /** first device activity start to last end, minus gpuBusyUs, µs */
  gpuIdleUs: number;
  gpuBusyPerStepUs: number | null;
  gpuIdlePerStepUs: number | null;
  /** by total time, at most TOP_KERNELS */
  topKernels: KernelStat[];
  /** Dynamo/Inductor compile spans inside the profiled region (outermost only) */
  compileSpans: CompileSpan[];
  compileUs: number;
  warnings: string[];
}

export const TOP_KERNELS = 10;

/** Device activities (kernels, memcpy, memset) on GPU tracks. */
export function isDeviceKernel(model: TraceModel, i: number): boolean {
  return isKernelKind(model.kind[i]!) && model.tracks[model.track[i]!]!.gpu;
}

// CPU-only traces (Inductor's C++ backend) have no device activity. Their "kernels" are the outermost compute
// ops: Inductor's cpp_fused kernels and ATen ops not nested in another one — the runner counts the same way
// (native-runner/compile_lens_runner/profiling.py), so the report and the timeline agree.
const CPU_KERNEL_NAME = /^aten::|cpp_fused|^graph_\d+_/;

/** Indices of CPU kernels (see above), each track's outermost candidates only. */
export function cpuKernelIndices(model: TraceModel): number[] {
  const candidates: number[] = [];
  for (let i = 0; i < model.count; i++) {
    if (!model.tracks[model.track[i]!]!.gpu && CPU_KERNEL_NAME.test(model.names[model.name[i]!]!)) candidates.push(i);
  }
  candidates.sort(
    (a, b) => model.track[a]! - model.track[b]! || model.start[a]! - model.start[b]! || model.dur[b]! - model.dur[a]!,
  );
  const outermost: number[] = [];
  let track = -1;
  let coveredUntil = -Infinity;
  for (const i of candidates) {
    if (model.track[i] !== track) {
      track = model.track[i]!;
      coveredUntil = -Infinity;
    }
    if (model.start[i]! < coveredUntil) continue;
    outermost.push(i);
    coveredUntil = model.start[i]! + model.dur[i]!;
  }
  return outermost;
}

/** The slices counted as kernels: device activities, or CPU kernels when the trace has no GPU track. */
export function kernelIndices(model: TraceModel): number[] {
  if (!model.tracks.some((t) => t.gpu)) return cpuKernelIndices(model);
  const indices: number[] = [];
  for (let i = 0; i < model.count; i++) if (isDeviceKernel(model, i)) indices.push(i);
  return indices;
}

const familyOf = (model: TraceModel, i: number): KernelFamily =>
  FAMILY_OF_KIND[model.kind[i] as SliceKind] ?? (model.tracks[model.track[i]!]!.gpu ? 'library' : 'aten');

/** Every kernel name with its count and time, sorted by total time (largest first); with `window`, that stretch's. */
export function kernelStats(model: TraceModel, window?: TraceWindow): KernelStat[] {
  const byName = new Map<number, KernelStat>();
  for (const i of kernelsIn(model, window)) {
    const nameId = model.name[i]!;
    let stat = byName.get(nameId);
    if (!stat) {
      stat = { name: model.names[nameId]!, family: familyOf(model, i), count: 0, totalUs: 0, meanUs: 0 };
      byName.set(nameId, stat);
    }
    stat.count++;
    stat.totalUs += model.dur[i]!;
  }
  const stats = [...byName.values()];
  for (const stat of stats) stat.meanUs = stat.totalUs / stat.count;
  return stats.sort((a, b) => b.totalUs - a.totalUs || a.name.localeCompare(b.name));
}

/** Outermost compile slices (a compile phase nested in another compile phase is part of it). */
export function compileSpans(model: TraceModel): CompileSpan[] {
  const spans: CompileSpan[] = [];
  for (let i = 0; i < model.count; i++) {
    if (model.kind[i] !== SliceKind.Compile) continue;
    spans.push({ name: model.names[model.name[i]!]!, startUs: model.start[i]!, durUs: model.dur[i]! });
  }
  spans.sort((a, b) => a.startUs - b.startUs || b.durUs - a.durUs);
  const outermost: CompileSpan[] = [];
  let coveredUntil = -Infinity;
  for (const span of spans) {
    if (span.startUs < coveredUntil) continue;
    outermost.push(span);
    coveredUntil = span.startUs + span.durUs;
  }
  return outermost;
}

/** A stretch of a trace's time, µs: [fromUs, toUs) */
export interface TraceWindow {
  fromUs: number;
  toUs: number;
}

/**
 * The kernels (kernelIndices) of a window, all without one: a device kernel by its launch's start (a GPU runs a
 * step's kernels after its CPU step has moved on), any other by its own start.
 */
function kernelsIn(model: TraceModel, window?: TraceWindow): number[] {
  const kernels = kernelIndices(model);
  if (!window) return kernels;
  const launchStart = new Map<number, number>();
  for (let i = 0; i < model.count; i++)
    if (model.kind[i] === SliceKind.RuntimeLaunch && model.correlation[i]! >= 0 && !model.tracks[model.track[i]!]!.gpu)
      launchStart.set(model.correlation[i]!, model.start[i]!);
  return kernels.filter((i) => {
    const at = launchStart.get(model.correlation[i]!) ?? model.start[i]!;
    return at >= window.fromUs && at < window.toUs;
  });
}

/** The trace's facts; with `window`, its kernels (and their launches) only those of that stretch (kernelsIn). */
export function summarizeTrace(model: TraceModel, window?: TraceWindow): TraceSummary {
  const kernelsByFamily: Record<KernelFamily, number> = {
    generated: 0,
    library: 0,
    aten: 0,
    memory: 0,
    'graph-replay': 0,
  };
  const kernelCorrelations = new Set<number>();
  const intervals: [number, number][] = [];
  let gpuEvents = 0;
  let spanStart = Infinity;
  let spanEnd = -Infinity;
  for (let i = 0; i < model.count; i++) {
    const start = model.start[i]!;
    const end = start + model.dur[i]!;
    if (start < spanStart) spanStart = start;
    if (end > spanEnd) spanEnd = end;
    if (model.tracks[model.track[i]!]!.gpu) gpuEvents++;
  }
  for (const i of kernelsIn(model, window)) {
    kernelsByFamily[familyOf(model, i)]++;
    intervals.push([model.start[i]!, model.start[i]! + model.dur[i]!]);
    if (model.correlation[i]! >= 0) kernelCorrelations.add(model.correlation[i]!);
  }
  let launches = 0;
  for (let i = 0; i < model.count; i++) {
    if (
      model.kind[i] === SliceKind.RuntimeLaunch &&
      !model.tracks[model.track[i]!]!.gpu &&
      kernelCorrelations.has(model.correlation[i]!)
    )
      launches++;
  }
  const { busyUs, windowUs } = busyTime(intervals);
  const kernels = intervals.length;
  const steps = model.steps.length;
  const perStep = (total: number): number | null => (steps > 0 ? total / steps : null);
  const spans = compileSpans(model);
  return {
    events: model.count,
    cpuThreads: model.tracks.filter((t) => !t.gpu && !t.stack).length,
    gpuStreams: model.tracks.filter((t) => t.gpu).length,
    spanUs: model.count > 0 ? spanEnd - spanStart : 0,
    steps,
    stepSource: model.stepSource,
    kernels,
    kernelsPerStep: perStep(kernels),
    gpuEventsPerStep: perStep(gpuEvents),
    kernelsByFamily,
    launches,
    launchesPerStep: perStep(launches),
    gpuBusyUs: busyUs,
    gpuIdleUs: windowUs - busyUs,
    gpuBusyPerStepUs: perStep(busyUs),
    gpuIdlePerStepUs: perStep(windowUs - busyUs),
    topKernels: kernelStats(model, window).slice(0, TOP_KERNELS),
    compileSpans: spans,
    compileUs: spans.reduce((sum, span) => sum + span.durUs, 0),
    warnings: model.warnings,
  };
}

/** Length of the union of intervals, and of the window from the first start to the last end. */
function busyTime(intervals: [number, number][]): { busyUs: number; windowUs: number } {
  intervals.sort((a, b) => a[0] - b[0]);
  const first = intervals[0];
  if (first === undefined) return { busyUs: 0, windowUs: 0 };
  let busyUs = 0;
  let [runStart, runEnd] = first;
  for (const [start, end] of intervals) {
    if (start > runEnd) {
      busyUs += runEnd - runStart;
      runStart = start;
      runEnd = end;
    } else if (end > runEnd) runEnd = end;
  }
  busyUs += runEnd - runStart;
  const windowUs = runEnd - first[0];
  return { busyUs, windowUs: Math.max(windowUs, busyUs) };
}
