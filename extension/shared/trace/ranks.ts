// A distributed job's rank traces on one time axis: which panes are ranks, their order, and how their clocks
// line up. Ranks on one host share its clock, so their absolute timestamps are comparable to the microsecond;
// across hosts they are not (NTP skew is milliseconds), so each rank is then aligned at its own step start.
import { traceEnd, type TraceModel } from './model.ts';
import type { TraceHead } from './traceHead.ts';

export interface RankedTrace {
  trace: TraceModel;
  rank: TraceHead;
}

export type RankAlignment =
  /** `shiftUs[p]`: add to pane p's times (µs from its origin) to get the common axis, whose 0 is the earliest origin */
  | { mode: 'absolute'; shiftUs: number[]; note: string | null }
  /** each rank's step N starts at 0, as two compared traces do */
  | { mode: 'per-step'; reason: string };

/** Items ordered by rank (stable; those without a rank last). */
export function orderByRank<T>(items: readonly T[], rankOf: (item: T) => number | null): T[] {
  return items
    .map((item, k) => ({ item, k, rank: rankOf(item) }))
    .sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.k - b.k)
    .map(({ item }) => item);
}

/** "rank 3", with the host when the ranks ran on more than one. */
export function rankLabel(head: TraceHead, fallback: string, manyHosts: boolean): string {
  const name = head.rank === null ? fallback : `rank ${head.rank}`;
  return manyHosts && head.hostName ? `${name} · ${head.hostName}` : name;
}

/** Distinct host names the traces give. */
export function hostsOf(heads: readonly TraceHead[]): string[] {
  return [...new Set(heads.map((h) => h.hostName).filter((h): h is string => h !== null))];
}

/** How the ranks' times line up (see the file comment); the reason is said in the timeline when it is per-step. */
export function rankAlignment(panes: readonly RankedTrace[]): RankAlignment {
  const hosts = hostsOf(panes.map((p) => p.rank));
  if (hosts.length > 1) {
    return {
      mode: 'per-step',
      reason: `The ranks ran on ${hosts.length} hosts (${hosts.slice(0, 4).join(', ')}${hosts.length > 4 ? ', …' : ''}), whose clocks differ: each rank is aligned at the start of its own step.`,
    };
  }
  const bases = panes.map((p) => p.rank.baseTimeNs);
  const known = bases.filter((b) => b !== null).length;
  if (known > 0 && known < bases.length) {
    return {
      mode: 'per-step',
      reason:
        'Some of the traces do not give their time base (baseTimeNanoseconds): each rank is aligned at the start of its own step.',
    };
  }
  const reference = bases[0] === null || bases[0] === undefined ? null : BigInt(bases[0]);
  // kineto writes each event's ts in µs after its file's baseTimeNanoseconds
  const absolute = panes.map(
    (p, k) => p.trace.originUs + (reference === null ? 0 : Number(BigInt(bases[k]!) - reference) / 1000),
  );
  const zero = Math.min(...absolute);
  const shiftUs = absolute.map((a) => a - zero);
  if (
    !overlapInTime(
      panes.map((p) => p.trace),
      shiftUs,
    )
  ) {
    return {
      mode: 'per-step',
      reason:
        'The traces do not overlap in time (taken at different times?): each rank is aligned at the start of its own step.',
    };
  }
  return {
    mode: 'absolute',
    shiftUs,
    note:
      hosts.length === 0
        ? 'The traces do not name their host: they are aligned on their own clocks, as ranks of one host.'
        : null,
  };
}

/** Whether every trace's span, shifted to the common axis, overlaps every other's (a job's ranks run together). */
function overlapInTime(models: readonly TraceModel[], shiftUs: readonly number[]): boolean {
  let latestStart = -Infinity;
  let earliestEnd = Infinity;
  models.forEach((model, p) => {
    if (model.count === 0) return;
    latestStart = Math.max(latestStart, shiftUs[p]!);
    earliestEnd = Math.min(earliestEnd, traceEnd(model) + shiftUs[p]!);
  });
  return latestStart <= earliestEnd;
}

/**
 * Each pane's timeline offset (the pane time drawn at 0) for step `step`. Per step (no alignment, or per-step
 * alignment): the pane's own step start. Absolute: the earliest start of that step over the ranks, in each
 * pane's own time, so every rank is drawn on the one common axis.
 */
export function paneOffsets(models: readonly TraceModel[], alignment: RankAlignment | null, step: number): number[] {
  const stepOf = (model: TraceModel): TraceModel['steps'][number] | undefined =>
    model.steps[Math.min(step, model.steps.length - 1)];
  if (!alignment || alignment.mode === 'per-step') return models.map((model) => stepOf(model)?.start ?? 0);
  const starts = models
    .map((model, p) => (stepOf(model)?.start ?? NaN) + alignment.shiftUs[p]!)
    .filter((t) => !Number.isNaN(t));
  const common = starts.length ? Math.min(...starts) : 0;
  return alignment.shiftUs.map((shift) => common - shift);
}
