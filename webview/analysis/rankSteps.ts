// Per step and per rank of a distributed job: communication time, the part of it overlapped with computation,
// the step's duration, and the slowest rank (the one the others waited for).
import { communicationNames } from './communication.ts';
import { intersectionOf, lengthWithin, unionOf } from './intervals.ts';
import { SliceKind, type TraceModel } from '../../extension/shared/trace/model.ts';
import { cpuKernelIndices, isDeviceKernel } from '../../extension/shared/trace/summary.ts';

/**
 * Where a rank's communication is measured: its GPU collective kernels when it has any, else its CPU
 * collective ops (gloo, or a trace without GPU activity). Computation is read on the same side.
 */
export type CommunicationSide = 'gpu' | 'cpu';

export interface RankStepStat {
  /** the step's duration on this rank */
  stepUs: number;
  /** union of the step's communication intervals (on CPU, the collectives' own runs: ownRuns) */
  commUs: number;
  /** the part of commUs during which this rank also computed (kernels on GPU; outermost ATen/Inductor ops on CPU) */
  overlappedUs: number;
  /**
   * the step minus its exposed communication (commUs − overlappedUs): the time this rank spent not waiting on a
   * collective. In a synchronous job every rank's step takes about as long; the one with the most work is the
   * one the others waited for.
   */
  workUs: number;
  /**
   * the part of workUs with no op recorded on this rank (no ATen or Inductor op, CUDA runtime call, kernel or
   * collective): Python between ops, a sleep, I/O, a data loader's wait. The rest of workUs ran recorded ops.
   */
  unrecordedUs: number;
}

export interface StepRow {
  /** the first rank's step label (ProfilerStep#N), or "whole trace" when no rank has steps */
  label: string;
  /** per pane; null where that rank has no step of this index */
  ranks: (RankStepStat | null)[];
  /**
   * the pane with the most work in the step, and its lead over the pane with the least, `fastest` (a difference of
   * time outside communication, not a wait: how long a rank waited for another is rankWaits.arrivedAt's); null with
   * fewer than two ranks in the row, or for whole traces. `even`: the lead is under EVEN_SHARE of the slowest rank's
   * step: no straggler worth naming. `unrecordedLeadUs`: how much of the lead is time with no op recorded (the
   * slowest's unrecordedUs less the fastest's).
   */
  slowest: { pane: number; fastest: number; leadUs: number; unrecordedLeadUs: number; even: boolean } | null;
}

export interface RankStepTable {
  /** per pane: where its communication was measured */
  sides: CommunicationSide[];
  rows: StepRow[];
  /** no rank has steps: one row covers each rank's whole trace */
  wholeTrace: boolean;
}

/** A lead under this share of the step is called even. */
export const EVEN_SHARE = 0.05;

/** The per-step table of a rank set (panes in rank order). Steps are matched by index across ranks. */
export function rankStepTable(models: readonly TraceModel[]): RankStepTable {
  const wholeTrace = models.every((m) => m.steps.length === 0);
  const windows = models.map((m) => (wholeTrace ? [extentOf(m)] : m.steps));
  const perRank = models.map((m, p) => rankStepStats(m, windows[p]!));
  const rowCount = Math.max(0, ...windows.map((w) => w.length));
  const rows: StepRow[] = [];
  for (let s = 0; s < rowCount; s++) {
    const ranks = perRank.map((stats) => stats.steps[s] ?? null);
    const label = wholeTrace
      ? 'whole trace'
      : (models.map((m) => m.steps[s]?.label).find((l) => l !== undefined) ?? `step ${s}`);
    // whole traces are not steps: their lengths differ by when each rank's profiler started, so no straggler is named
    rows.push({ label, ranks, slowest: wholeTrace ? null : slowestOf(ranks) });
  }
  return { sides: perRank.map((r) => r.side), rows, wholeTrace };
}

function slowestOf(ranks: (RankStepStat | null)[]): StepRow['slowest'] {
  let slowest = -1;
  let fastest = -1;
  let present = 0;
  ranks.forEach((stat, p) => {
    if (!stat) return;
    present++;
    if (slowest < 0 || stat.workUs > ranks[slowest]!.workUs) slowest = p;
    if (fastest < 0 || stat.workUs < ranks[fastest]!.workUs) fastest = p;
  });
  if (present < 2) return null;
  const [slow, fast] = [ranks[slowest]!, ranks[fastest]!];
  const leadUs = slow.workUs - fast.workUs;
  return {
    pane: slowest,
    fastest,
    leadUs,
    unrecordedLeadUs: slow.unrecordedUs - fast.unrecordedUs,
    even: leadUs < EVEN_SHARE * slow.stepUs,
  };
}

/** One rank's statistics for each window (its steps, µs relative to its origin). */
export function rankStepStats(
  model: TraceModel,
  windows: readonly { start: number; end: number }[],
): { side: CommunicationSide; steps: RankStepStat[] } {
  const { side, comm, compute } = communicationAndCompute(model);
  const overlapped = intersectionOf(comm, compute);
  const recorded = recordedOps(model);
  const steps = windows.map(({ start, end }) => {
    const commUs = lengthWithin(comm, start, end);
    const overlappedUs = lengthWithin(overlapped, start, end);
    const stepUs = end - start;
    const unrecordedUs = stepUs - lengthWithin(recorded, start, end);
    return { stepUs, commUs, overlappedUs, workUs: stepUs - (commUs - overlappedUs), unrecordedUs };
  });
  return { side, steps };
}

/** When the rank ran an op the profiler recorded, on either side: host ATen/Inductor ops, CUDA runtime calls,
 *  collectives, device kernels and copies. Python frames and user annotations are not ops: a sleep runs inside one. */
function recordedOps(model: TraceModel): Float64Array {
  const isComm = communicationNames(model.names);
  const pairs: number[] = [];
  const add = (i: number): void => {
    pairs.push(model.start[i]!, model.start[i]! + model.dur[i]!);
  };
  for (const i of cpuKernelIndices(model)) add(i);
  for (let i = 0; i < model.count; i++)
    if (
      isDeviceKernel(model, i) ||
      model.kind[i] === SliceKind.RuntimeLaunch ||
      (isComm[model.name[i]!] === 1 && !model.tracks[model.track[i]!]!.gpu)
    )
      add(i);
  return unionOf(pairs);
}

/** The rank's communication and computation as interval sets, on the side its communication is measured. */
export function communicationAndCompute(model: TraceModel): {
  side: CommunicationSide;
  comm: Float64Array;
  compute: Float64Array;
} {
  const isComm = communicationNames(model.names);
  const gpuComm: number[] = [];
  const gpuCompute: number[] = [];
  const cpuComm: number[] = [];
  for (let i = 0; i < model.count; i++) {
    const onGpu = model.tracks[model.track[i]!]!.gpu;
    const comm = isComm[model.name[i]!] === 1;
    if (onGpu) {
      if (!isDeviceKernel(model, i)) continue;
      const end = model.start[i]! + model.dur[i]!;
      if (comm) gpuComm.push(model.start[i]!, end);
      // memcpy/memset move data, they are not the computation communication could hide behind
      else if (model.kind[i] !== SliceKind.Memory) gpuCompute.push(model.start[i]!, end);
    } else if (comm) {
      cpuComm.push(i);
    }
  }
  if (gpuComm.length > 0 || (cpuComm.length === 0 && gpuCompute.length > 0)) {
    return { side: 'gpu', comm: unionOf(gpuComm), compute: unionOf(gpuCompute) };
  }
  const commPairs: number[] = [];
  for (const i of ownRuns(model, cpuComm)) commPairs.push(model.start[i]!, model.start[i]! + model.dur[i]!);
  // ATen ops a collective runs inside (its buffer copies) are part of the collective, not computation beside it
  const commOnTrack = new Map<number, number[]>();
  for (const i of cpuComm) {
    const list = commOnTrack.get(model.track[i]!) ?? [];
    list.push(model.start[i]!, model.start[i]! + model.dur[i]!);
    commOnTrack.set(model.track[i]!, list);
  }
  const commSets = new Map([...commOnTrack].map(([track, pairs]) => [track, unionOf(pairs)]));
  const computePairs: number[] = [];
  for (const i of cpuKernelIndices(model)) {
    if (isComm[model.name[i]!]) continue;
    const start = model.start[i]!;
    const end = start + model.dur[i]!;
    const own = commSets.get(model.track[i]!);
    if (own && lengthWithin(own, start, end) >= end - start) continue;
    computePairs.push(start, end);
  }
  return { side: 'cpu', comm: unionOf(commPairs), compute: unionOf(computePairs) };
}

/**
 * The CPU collectives whose time is the rank's communication: where a process ran its collectives on threads of their
 * own (gloo's workers: each collective's whole run at the top of its thread), those runs; the dispatcher's call on the
 * caller's thread (c10d::allreduce_ inside DDP's autograd hook) only hands the work over and returns before the run
 * begins, so it is counted only in a process with no such thread. Counted beside the run, its 69 µs made the table's
 * "41.8 ms" beside the timeline's "41.7 ms of it waiting in all_reduce", one wait in one all_reduce bar (review 17Y Y5).
 */
function ownRuns(model: TraceModel, cpuComm: readonly number[]): number[] {
  const pidOf = (i: number): string => model.tracks[model.track[i]!]!.pid;
  const running = new Set(cpuComm.filter((i) => model.depth[i] === 0).map(pidOf));
  return cpuComm.filter((i) => model.depth[i] === 0 || !running.has(pidOf(i)));
}

/** First slice start to last slice end. */
function extentOf(model: TraceModel): { start: number; end: number } {
  let start = Infinity;
  let end = -Infinity;
  for (let i = 0; i < model.count; i++) {
    start = Math.min(start, model.start[i]!);
    end = Math.max(end, model.start[i]! + model.dur[i]!);
  }
  return model.count ? { start, end } : { start: 0, end: 0 };
}
