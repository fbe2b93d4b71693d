// What a rank's thread waited for in a collective: another rank of the job compiling all the while, or recording no
// op all the while, on the job's one clock (ranks of one host), else in a job of two ranks the other one. Rank 0's 2 s
// in all_reduce is rank 1's recompile, which the view shows (review 9 D4: an empty box with no word); its 41.7 ms is
// rank 1's 40.2 ms with no op recorded (Python, a sleep, I/O), which the view shows too.
import type { TimelineMark } from '../../extension/shared/trace/timelineMarks.ts';

/** A rank's pane: its rank, what to add to its times for the job's clock, its compiler marks (every one found:
 *  rankMarksOf), and the longest stretch of [fromUs, toUs] (its own time) of at least leastUs where its thread
 *  recorded no op, nor waited in a collective (0: none; timelineGaps.ts longestUnrecorded). */
export interface RankMarks {
  rank: number | null;
  shiftUs: number;
  marks: readonly TimelineMark[];
  unrecordedUs: (fromUs: number, toUs: number, leastUs: number) => number;
  /** whether a thread of its ran a collective at atUs (its own time) */
  inCollective: (atUs: number) => boolean;
  /** the start (its own time) of its collective that overlaps [fromUs, toUs) the most: when it reached the one
   *  another rank ran then; null: none did */
  collectiveFrom: (fromUs: number, toUs: number) => number | null;
}

/** A rank's pane's canvas as rankMarksOf reads it (timeline.ts TimelineCanvas). */
interface RankCanvas {
  readonly marks: readonly TimelineMark[];
  readonly marksFound: boolean;
  unrecordedUs(fromUs: number, toUs: number, leastUs: number): number;
  inCollective(atUs: number): boolean;
  collectiveFrom(fromUs: number, toUs: number): number | null;
}

/** Each rank's pane listed as waitedRank reads it (`ranks`: per pane, its rank; `shiftUs`: what to add to its times
 *  for the job's clock), once every pane's compiler marks are found (drawFrame.ts, after the first frame); null
 *  before. */
export function rankMarksOf(
  canvases: readonly RankCanvas[],
  ranks: readonly (number | null)[],
  shiftUs: readonly number[],
): RankMarks[] | null {
  if (!canvases.every((c) => c.marksFound)) return null;
  return canvases.map((canvas, k) => ({
    rank: ranks[k] ?? null,
    shiftUs: shiftUs[k] ?? 0,
    marks: canvas.marks,
    unrecordedUs: (fromUs, toUs, leastUs) => canvas.unrecordedUs(fromUs, toUs, leastUs),
    inCollective: (atUs) => canvas.inCollective(atUs),
    collectiveFrom: (fromUs, toUs) => canvas.collectiveFrom(fromUs, toUs),
  }));
}

/** What the rank waited for was doing, where its trace shows it through half the wait or more; null: not known. */
export type WaitCause = 'compile' | 'recompile' | 'unrecorded' | null;

/** The rank a wait was for, what it did meanwhile and, where it recorded no op through part of the wait only (until
 *  it reached the collective), for how long (µs: review 14 T4, rank 1's 33.6 ms with none of rank 0's 36.8 ms wait,
 *  its backward after). */
export interface WaitedRank {
  rank: number;
  cause: WaitCause;
  unrecordedUs?: number;
}

/** A rank that reached its collective when every other rank was already in one: it waited for none (review 14 S3:
 *  rank 1's 273 µs in all_reduce, the collective's own time, said "273 µs, waiting" beside rank 0's wait for it). */
export const LAST_TO_ARRIVE = 'last to arrive';

/**
 * The rank pane `p`'s collective waited for through [fromUs, toUs] (µs of its model's time): none where every other
 * rank was in a collective when it reached it (LAST_TO_ARRIVE); else the one other rank
 * compiling through at least half of it (and whether that is a recompile), else the one other rank whose thread
 * recorded no op through half of it (where none compiles: a compile's ops are recorded), and how much of the wait (to
 * when it reached the collective) where less than all of it, no cause where none of it; else, in a job of two ranks,
 * the other (it can be no other: review 12 L4/N5, "for another rank" where the table beside it names rank 1), with no
 * cause; null where several ranks do so, or none does among several (a wait is not one rank's then).
 */
export function waitedRank(
  ranks: readonly RankMarks[],
  p: number,
  fromUs: number,
  toUs: number,
): WaitedRank | typeof LAST_TO_ARRIVE | null {
  const [from, to] = [fromUs + ranks[p]!.shiftUs, toUs + ranks[p]!.shiftUs];
  const half = (to - from) / 2;
  const others = ranks.flatMap((r, q) => (q === p || r.rank === null ? [] : [{ ...r, rank: r.rank }]));
  if (others.length && others.length === ranks.length - 1 && others.every((r) => r.inCollective(from - r.shiftUs)))
    return LAST_TO_ARRIVE;
  const compiling = others.flatMap(({ rank, shiftUs, marks }): { rank: number; cause: WaitCause }[] => {
    const through = marks.filter((mark) => {
      if (mark.kind !== 'compile' && mark.kind !== 'recompile') return false;
      const start = mark.startUs + shiftUs;
      return Math.min(to, start + mark.durUs) - Math.max(from, start) >= half;
    });
    return through.length ? [{ rank, cause: through[0]!.kind === 'recompile' ? 'recompile' : 'compile' }] : [];
  });
  if (compiling.length) return compiling.length === 1 ? compiling[0]! : null;
  const unrecorded = others.flatMap(({ rank, shiftUs, unrecordedUs }) => {
    const us = unrecordedUs(from - shiftUs, to - shiftUs, half);
    return us >= half ? [{ rank, us }] : [];
  });
  if (unrecorded.length > 1) return null;
  const [only] = unrecorded;
  if (only) {
    // how much, over the wait itself (until that rank reached the collective), not the collective's whole time: "for
    // 33.6 ms of the wait" (review 19Z Z3: "of it" after the wait, measured over the collective's span, could exceed
    // the wait)
    const { shiftUs, unrecordedUs, collectiveFrom } = others.find((r) => r.rank === only.rank)!;
    const arrived = collectiveFrom(from - shiftUs, to - shiftUs);
    const waitTo = arrived === null ? to : Math.min(to, Math.max(from, arrived + shiftUs));
    const us = unrecordedUs(from - shiftUs, waitTo - shiftUs, 0);
    if (us <= 0) return { rank: only.rank, cause: null };
    return us < waitTo - from
      ? { rank: only.rank, cause: 'unrecorded', unrecordedUs: us }
      : { rank: only.rank, cause: 'unrecorded' };
  }
  return ranks.length === 2 && others.length === 1 ? { rank: others[0]!.rank, cause: null } : null;
}

/**
 * When the rank `rank` reached the collective that pane `p`'s ran through [fromUs, toUs] (µs of p's model's time), in
 * p's time: its wait for that rank ends there, the rest is the collective's own work, which every rank spends
 * (review 18Z Z1: rank 0's whole 41.7 ms in all_reduce said as waiting for rank 1, which reached it 36.8 ms after
 * rank 0 did); null where that rank ran none then.
 */
export function arrivedAt(
  ranks: readonly RankMarks[],
  p: number,
  rank: number,
  fromUs: number,
  toUs: number,
): number | null {
  const other = ranks.find((r, q) => q !== p && r.rank === rank);
  if (!other) return null;
  const shift = ranks[p]!.shiftUs - other.shiftUs;
  const start = other.collectiveFrom(fromUs + shift, toUs + shift);
  return start === null ? null : start - shift;
}
