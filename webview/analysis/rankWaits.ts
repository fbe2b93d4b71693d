// What a rank's thread waited for in a collective: another rank of the job compiling all the while, on the job's one
// clock (ranks of one host), else in a job of two ranks the other one. Rank 0's 2 s in all_reduce is rank 1's recompile, which the view shows (review 9 D4:
// an empty box with no word).
import type { TimelineMark } from '../../extension/shared/trace/timelineMarks.ts';

/** A rank's pane: its rank, what to add to its times for the job's clock, its compiler marks found so far. */
export interface RankMarks {
  rank: number | null;
  shiftUs: number;
  marks: readonly TimelineMark[];
}

/**
 * The rank pane `p`'s collective waited for through [fromUs, toUs] (µs of its model's time): the one other rank
 * compiling through at least half of it, with whether that is a recompile; else, in a job of two ranks, the other
 * (it can be no other: review 12 L4/N5, "for another rank" where the table beside it names rank 1), with no cause
 * (`recompile` null); null where several ranks compile, or none does among several (a wait is not one rank's then).
 */
export function waitedRank(
  ranks: readonly RankMarks[],
  p: number,
  fromUs: number,
  toUs: number,
): { rank: number; recompile: boolean | null } | null {
  const [from, to] = [fromUs + ranks[p]!.shiftUs, toUs + ranks[p]!.shiftUs];
  const found: { rank: number; recompile: boolean }[] = [];
  ranks.forEach(({ rank, shiftUs, marks }, q) => {
    if (q === p || rank === null) return;
    for (const mark of marks) {
      if (mark.kind !== 'compile' && mark.kind !== 'recompile') continue;
      const start = mark.startUs + shiftUs;
      if (Math.min(to, start + mark.durUs) - Math.max(from, start) >= (to - from) / 2)
        found.push({ rank, recompile: mark.kind === 'recompile' });
    }
  });
  const compiling = new Set(found.map((f) => f.rank));
  if (compiling.size) return compiling.size === 1 ? found[0]! : null;
  const others = ranks.filter((_, q) => q !== p);
  return others.length === 1 && others[0]!.rank !== null ? { rank: others[0]!.rank, recompile: null } : null;
}
