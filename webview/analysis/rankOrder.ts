// Which of a large rank set's timelines are drawn first: the slowest and the fastest ranks (the straggler and the
// ranks that waited for it say the most), the rest on demand.
import type { RankStepTable } from './rankSteps.ts';

/** Rank sets up to this size show every rank, in rank order; larger ones show this many first. */
export const RANKS_SHOWN_FIRST = 8;

/** Each pane's mean work per step (µs; see RankStepStat.workUs), null where it has no step. */
export function meanWorkUs(table: RankStepTable): (number | null)[] {
  return table.sides.map((_, p) => {
    const work = table.rows.map((row) => row.ranks[p]?.workUs).filter((w): w is number => w !== undefined);
    return work.length ? work.reduce((a, b) => a + b, 0) / work.length : null;
  });
}

export interface RankPaneOrder {
  /** pane indices drawn first: the slowest half of `first`, then the fastest, slowest first throughout */
  shown: number[];
  /** the others, slowest first; panes without a time last, in their order */
  rest: number[];
}

/**
 * The slowest and fastest panes by `times` (µs, larger is slower), `first` of them in all, slowest first.
 * Ties keep pane order (rank order), so the result does not depend on the sort.
 */
export function slowestAndFastest(times: readonly (number | null)[], first = RANKS_SHOWN_FIRST): RankPaneOrder {
  const timed = times
    .map((t, p) => ({ t, p }))
    .filter((x): x is { t: number; p: number } => x.t !== null)
    .sort((a, b) => b.t - a.t || a.p - b.p)
    .map((x) => x.p);
  const untimed = times.map((t, p) => (t === null ? p : -1)).filter((p) => p >= 0);
  if (timed.length <= first)
    return { shown: [...timed, ...untimed].slice(0, first), rest: [...timed, ...untimed].slice(first) };
  const slow = Math.ceil(first / 2);
  const fast = first - slow;
  return {
    shown: [...timed.slice(0, slow), ...timed.slice(timed.length - fast)],
    rest: [...timed.slice(slow, timed.length - fast), ...untimed],
  };
}
