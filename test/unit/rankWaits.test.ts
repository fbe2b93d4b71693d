// What a rank's collective waited for (webview/analysis/rankWaits.ts): the one other rank compiling through its wait,
// or recording no op through it, on the job's clock (review 9 D4: rank 0's 2 s in all_reduce while rank 1 recompiled,
// said by nothing; rank 0's 41.7 ms while rank 1 recorded no op for 40.2 ms).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TimelineMark } from '../../extension/shared/trace/timelineMarks.ts';
import { arrivedAt, rankMarksOf, waitedRank, type RankMarks } from '../../webview/analysis/rankWaits.ts';
import { waitedFor, waitingInForms, waitWordsOf } from '../../webview/timelineWords.ts';

/** a rank's thread's stretches with no op recorded, [from, to) of its own time, as longestUnrecorded measures them */
const unrecorded =
  (...stretches: [number, number][]) =>
  (fromUs: number, toUs: number, leastUs: number): number =>
    stretches
      .map(([a, b]) => Math.min(b, toUs) - Math.max(a, fromUs))
      .filter((us) => us >= leastUs)
      .reduce((longest, us) => Math.max(longest, us), 0);
const none = unrecorded();
/** a rank in no collective at any time asked */
const inNone = (): boolean => false;
/** nor one to reach */
const reachedNone = (): number | null => null;

const mark = (kind: TimelineMark['kind'], startUs: number, durUs: number): TimelineMark => ({
  kind,
  startUs,
  durUs,
  label: kind,
  compileId: '4/1',
  track: 0,
});

test("a wait is the one other rank's compile through half of it or more, on the job's clock", () => {
  // rank 1's clock 1000 µs behind rank 0's: its recompile at 500–2500 is 1500–3500 on the job's
  const ranks: RankMarks[] = [
    {
      rank: 0,
      shiftUs: 0,
      marks: [mark('recompile', 0, 500)],
      unrecordedUs: none,
      inCollective: inNone,
      collectiveFrom: reachedNone,
    },
    {
      rank: 1,
      shiftUs: 1000,
      marks: [mark('graph-break', 0, 9000), mark('recompile', 500, 2000)],
      unrecordedUs: none,
      inCollective: inNone,
      collectiveFrom: reachedNone,
    },
  ];
  assert.deepEqual(waitedRank(ranks, 0, 1000, 4000), { rank: 1, cause: 'recompile' });
  // less than half of the wait: not what it waited for; a graph break's band is no compile: in a job of two ranks,
  // the other all the same, doing what the trace does not say (review 12 L4/N5: "for another rank" beside rank 1)
  assert.deepEqual(waitedRank(ranks, 0, 0, 5000), { rank: 1, cause: null });
  // its own compile is not what it waited for, nor another rank's before its wait
  assert.deepEqual(waitedRank(ranks, 1, 0, 2000), { rank: 0, cause: null });
  // the other rank's number unknown: none named
  assert.equal(waitedRank([ranks[0]!, { ...ranks[1]!, rank: null }], 0, 0, 5000), null);
  // two ranks compiling meanwhile: no one rank to name
  const three = [
    ...ranks,
    {
      rank: 2,
      shiftUs: 0,
      marks: [mark('compile', 1000, 3000)],
      unrecordedUs: none,
      inCollective: inNone,
      collectiveFrom: reachedNone,
    },
  ];
  assert.equal(waitedRank(three, 0, 1000, 4000), null);
  // of three ranks, none compiling: the wait is not one rank's
  assert.equal(waitedRank(three, 0, 5000, 9000), null);
  assert.deepEqual(waitedRank(three.slice(0, 1).concat(three.slice(2)), 0, 1000, 4000), {
    rank: 2,
    cause: 'compile',
  });
});

test("a wait is the one other rank's stretch with no op recorded through half of it or more, where none compiles", () => {
  // rank 1's clock 1000 µs behind rank 0's: its stretch at 0–3000 is 1000–4000 on the job's
  const idle = (rank: number, shiftUs: number, ...stretches: [number, number][]): RankMarks => ({
    rank,
    shiftUs,
    marks: [],
    unrecordedUs: unrecorded(...stretches),
    inCollective: inNone,
    collectiveFrom: reachedNone,
  });
  assert.deepEqual(waitedRank([idle(0, 0), idle(1, 1000, [0, 3000])], 0, 1000, 4000), {
    rank: 1,
    cause: 'unrecorded',
  });
  // through part of the wait only: how much (review 14 T4: rank 1's stretch ends, then its backward and all_reduce)
  assert.deepEqual(waitedRank([idle(0, 0), idle(1, 1000, [0, 2500])], 0, 1000, 4000), {
    rank: 1,
    cause: 'unrecorded',
    unrecordedUs: 2500,
  });
  // measured over the wait, until rank 1 reached the collective (job's 2500), not over the collective's whole time,
  // which counted 2400 µs of a 1500 µs wait (review 19Z Z3); all of the wait: no number; none of it: no cause
  const reaching = (at: number, ...stretches: [number, number][]): RankMarks => ({
    ...idle(1, 0, ...stretches),
    collectiveFrom: () => at,
  });
  assert.deepEqual(waitedRank([idle(0, 0), reaching(2500, [1500, 3900])], 0, 1000, 4000), {
    rank: 1,
    cause: 'unrecorded',
    unrecordedUs: 1000,
  });
  assert.deepEqual(waitedRank([idle(0, 0), reaching(2500, [500, 3900])], 0, 1000, 4000), {
    rank: 1,
    cause: 'unrecorded',
  });
  assert.deepEqual(waitedRank([idle(0, 0), reaching(1000, [1500, 3900])], 0, 1000, 4000), { rank: 1, cause: null });
  // less than half of the wait on the job's clock (2000–3000 of rank 1's is 3000–4000 of it): no cause
  assert.deepEqual(waitedRank([idle(0, 0), idle(1, 1000, [2000, 3000])], 0, 1000, 5000), { rank: 1, cause: null });
  // of three ranks, the one with no op recorded through it; two such: no one rank to name
  assert.deepEqual(waitedRank([idle(0, 0), idle(1, 0), idle(2, 0, [1000, 4000])], 0, 1000, 4000), {
    rank: 2,
    cause: 'unrecorded',
  });
  assert.equal(waitedRank([idle(0, 0), idle(1, 0, [0, 5000]), idle(2, 0, [1000, 4000])], 0, 1000, 4000), null);
  // a rank compiling through the wait is the cause, not another's stretch with no op
  const compiling = { ...idle(2, 0), marks: [mark('recompile', 1000, 3000)] };
  assert.deepEqual(waitedRank([idle(0, 0), idle(1, 0, [0, 5000]), compiling], 0, 1000, 4000), {
    rank: 2,
    cause: 'recompile',
  });
});

test('a wait said with the rank it waited for, and the cause where the trace shows it', () => {
  assert.equal(waitedFor(1, 'recompile'), 'rank 1, recompiling');
  assert.equal(waitedFor(2, 'compile'), 'rank 2, compiling');
  assert.equal(waitedFor(1, null), 'rank 1');
  // its time in the collective said as such, of it the wait for the rank until that rank reached it (review 18Z Z1)
  const said = (cause: string): string => waitingInForms('all_reduce', 41_700, cause, 41_700, 36_800)[0]!;
  assert.equal(said(waitedFor(1, null)), '41.7 ms in all_reduce, 36.8 ms of it waiting for rank 1');
  assert.equal(
    said(waitedFor(1, 'unrecorded')),
    '41.7 ms in all_reduce, 36.8 ms of it waiting for rank 1, which recorded no op then',
  );
  assert.equal(
    said(waitedFor(1, 'unrecorded', 33_600)),
    '41.7 ms in all_reduce, 36.8 ms of it waiting for rank 1, which recorded no op for 33.6 ms of the wait',
  );
  // (its "of the wait" no narrow "36.8 ms wait" form: its words are those of "waiting for rank 1")
  assert.equal(waitWordsOf(said(waitedFor(1, 'unrecorded', 33_600))), 0);
  // the other rank's stretch said as that rank's, never in the words a stretch of this thread's own is said in (review
  // 13 P1: "…for rank 1, no op recorded there" on rank 0's row read as rank 0's, beside its table's 3.72 ms)
  assert.doesNotMatch(waitedFor(1, 'unrecorded'), /(?:^|, )no op recorded/);
});

test("each rank's pane listed once every pane's compiler marks are found, each with its rank, its job-clock shift and its canvas's stretches (review 36's code read, item 10)", () => {
  const asked: [number, number, number][] = [];
  const canvas = (marksFound: boolean, marks: TimelineMark[]) => ({
    marks,
    marksFound,
    unrecordedUs: (fromUs: number, toUs: number, leastUs: number): number => {
      asked.push([fromUs, toUs, leastUs]);
      return 7;
    },
    inCollective: inNone,
    collectiveFrom: reachedNone,
  });
  const recompile = [mark('recompile', 500, 2000)];
  // a pane's marks still to find: none listed (a wait said before it would name no compile)
  assert.equal(rankMarksOf([canvas(true, []), canvas(false, [])], [0, 1], [0, 1000]), null);
  const listed = rankMarksOf([canvas(true, []), canvas(true, recompile)], [0, null], [0, 1000])!;
  assert.deepEqual(
    listed.map(({ rank, shiftUs, marks }) => ({ rank, shiftUs, marks })),
    [
      { rank: 0, shiftUs: 0, marks: [] },
      { rank: null, shiftUs: 1000, marks: recompile },
    ],
  );
  assert.equal(listed[1]!.unrecordedUs(10, 20, 5), 7);
  assert.deepEqual(asked, [[10, 20, 5]]);
});

test("a rank's wait for another ends when that rank reached the collective, on the job's clock (review 18Z Z1)", () => {
  // rank 1's clock 1000 µs behind rank 0's: its all_reduce at 2500–4000 of its own time is 3500–5000 of the job's
  const collective =
    (...spans: [number, number][]) =>
    (fromUs: number, toUs: number): number | null =>
      spans
        .filter(([a, b]) => Math.min(b, toUs) - Math.max(a, fromUs) > 0)
        .sort(([a, b], [c, d]) => Math.min(d, toUs) - Math.max(c, fromUs) - (Math.min(b, toUs) - Math.max(a, fromUs)))
        .map(([a]) => a)[0] ?? null;
  const rank = (r: number, shiftUs: number, ...spans: [number, number][]): RankMarks => ({
    rank: r,
    shiftUs,
    marks: [],
    unrecordedUs: none,
    inCollective: inNone,
    collectiveFrom: collective(...spans),
  });
  const ranks = [rank(0, 0, [1000, 5000]), rank(1, 1000, [0, 200], [2500, 4000])];
  // rank 0 in it from 1000: rank 1 reached it at 3500 of rank 0's time, 2500 µs of rank 0's 4000 a wait for it
  assert.equal(arrivedAt(ranks, 0, 1, 1000, 5000), 3500);
  // a rank that ran none then, or none of that number: not known
  assert.equal(arrivedAt([ranks[0]!, rank(1, 1000, [6000, 7000])], 0, 1, 1000, 5000), null);
  assert.equal(arrivedAt(ranks, 0, 2, 1000, 5000), null);
});
