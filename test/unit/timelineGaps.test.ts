// The stretches of a step with no op recorded (webview/timelineGaps.ts), on the straggler job's rank 1 (a 40 ms sleep
// before each step's all_reduce): said in one word at every width, their time first, unlabelled where it does not
// fit (review 17 X5: ", no op recorded", "unrecorded" and "gap" for one thing), never by other words nor by their
// time alone (review 10 F8: "no op recorded · 40.2 ms" at 1400 px, "no op · 40.2 ms"
// at 700, a bare "40.2 ms" at 560), nor by words without their time (review 11 I7: "no op recorded…" at 700 px).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { collectiveSpans, communicationNames } from '../../webview/analysis/communication.ts';
import { readTraceHead } from '../../extension/node/trace/readTraceHead.ts';
import { rankAlignment } from '../../extension/shared/trace/ranks.ts';
import { LAST_TO_ARRIVE, waitedRank, type RankMarks } from '../../webview/analysis/rankWaits.ts';
import { fittedWords } from '../../webview/sliceTexts.ts';
import {
  collectiveWords,
  longestUnrecorded,
  unrecordedHover,
  unrecordedLabels,
  type Unrecorded,
  type UnrecordedLabel,
} from '../../webview/timelineGaps.ts';
import { waitedFor as waitedForWords, waitingInForms } from '../../webview/timelineWords.ts';
import { TrackRows, type Row } from '../../webview/timelineRows.ts';
import { LABEL_WIDTH, type Measure } from '../../webview/timelineText.ts';

/** 6 px a character, about the canvas's 11 px font. */
const m: Measure = { width: (text) => 6 * text.length, ascent: 8, descent: 3 };

/** A rank's whole trace across a canvas `width` px wide: its rows, its steps' span and where a time is drawn. */
function wholeTrace(model: TraceModel): {
  rows: Row[];
  tMin: number;
  tMax: number;
  xAt: (width: number) => (t: number) => number;
} {
  const tMin = model.steps[0]!.start;
  const tMax = model.steps[model.steps.length - 1]!.end;
  const xAt = (width: number) => (t: number) => LABEL_WIDTH + ((t - tMin) / (tMax - tMin)) * (width - LABEL_WIDTH);
  return { rows: new TrackRows(model, 0).rows, tMin, tMax, xAt };
}

test('rank 1\'s stretches with no op recorded: one word in a pane, its time first, never "no op" alone', async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/ranks/straggler/rank1.trace.json'));
  const { rows, tMin, tMax, xAt } = wholeTrace(model);
  const found = (width: number): (string | null)[] =>
    unrecordedLabels(model, rows, tMin, tMax, xAt(width), m).map((s) => s.text);
  const said = (width: number): string[] => found(width).flatMap((text) => (text ? [text] : []));
  // one before each step's all_reduce, "unrecorded" at every width it fits: never ", no op recorded" beside it nor
  // "gap", three words for one thing read as three kinds of time (review 17 X5), nor "40.2 ms, no op", a no-op
  // (review 15 W6)
  for (const width of [700, 1400]) {
    assert.deepEqual(
      said(width).map((text) => text.replace(/^[\d.]+ ms/, '')),
      [' unrecorded', ' unrecorded', ' unrecorded'],
      `${width} px: ${said(width).join(', ')}`,
    );
  }
  assert.deepEqual(said(1400), ['40.2 ms unrecorded', '38.6 ms unrecorded', '40.8 ms unrecorded']);
  // at 560 px no room for it: each said in the shorter word, "idle", rank 0's for its thread's time with no op
  // (review 17: the straggler's stretches unlabelled at 560 px since "gap" went), never "gap", another word for them
  assert.deepEqual(found(560), ['40.2 ms idle', '38.6 ms idle', '40.8 ms idle']);
  // one word for all of a pane's: where one has room for "unrecorded" and another not, "idle" for all (review 17 X5:
  // two words side by side read as two kinds of time)
  const rooms = (width: number): boolean[] =>
    unrecordedLabels(model, rows, tMin, tMax, xAt(width), m).map(
      ({ stretch }) =>
        xAt(width)(stretch.idleToUs) - xAt(width)(stretch.idleFromUs) - 6 >=
        m.width(`${(Math.round((stretch.toUs - stretch.fromUs) / 100) / 10).toFixed(1)} ms unrecorded`),
    );
  const mixed = [580, 590, 600, 604, 606].find((width) => new Set(rooms(width)).size === 2);
  assert.ok(mixed, 'a width where one stretch has room for "unrecorded" and another not');
  assert.deepEqual(found(mixed), ['40.2 ms idle', '38.6 ms idle', '40.8 ms idle'], `${mixed} px`);
  // narrower, found (the hover says them) and unlabelled, never their bare times: at 560 px "40.2 ms" beside rank
  // 0's "40.2 ms wait" read as a wait, and a bare time after a slice as that slice's (review 16 Z4/X3)
  assert.deepEqual(found(LABEL_WIDTH + 100), [null, null, null]);
  for (const width of [LABEL_WIDTH + 100, 560, 700, 1400])
    for (const text of said(width)) assert.doesNotMatch(text, /^[\d.]+ (?:µs|ms|s)$/, `${width} px`);
});

test("rank 0's thread in its step while gloo's thread ran its all_reduce: said waiting in it, for the rank the view shows compiling, else for another rank (review 9 D4)", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/ranks/straggler/rank0.trace.json'));
  const rows = new TrackRows(model, 0).rows;
  const step = model.steps[1]!;
  const xOf = (t: number): number => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (1400 - LABEL_WIDTH);
  const said = (waitedFor?: () => string | null): (string | null)[] =>
    unrecordedLabels(model, rows, step.start, step.end, xOf, m, communicationNames(model.names), waitedFor).map(
      (s) => s.text,
    );
  assert.deepEqual(
    said().filter((t) => t?.includes('waiting')),
    [said().find((t) => /^[\d.]+ ms idle, [\d.]+ ms of it waiting in all_reduce for another rank$/.test(t ?? ''))],
  );
  assert.ok(
    said(() => 'rank 1, recompiling').some((t) =>
      /^[\d.]+ ms idle, [\d.]+ ms of it waiting in all_reduce for rank 1, recompiling$/.test(t ?? ''),
    ),
  );
  // in a narrow pane the wait keeps its time and "waiting", cut after a word (review 12 L3: at 560 and 700 px
  // "…, waiting in all_reduce" had no room and the wait went unsaid)
  const narrow = (width: number): (string | null)[] =>
    unrecordedLabels(
      model,
      rows,
      step.start,
      step.end,
      (t) => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (width - LABEL_WIDTH),
      m,
      communicationNames(model.names),
    ).map((s) => s.text);
  const cut = narrow(LABEL_WIDTH + 200).find((t) => t?.includes(' idle'));
  assert.match(cut ?? '', /^[\d.]+ ms idle, [\d.]+ ms (?:waiting(?: in all_reduce)?|wait)$/);
  // without the collectives known: a stretch with another thread's op is its process's work, unsaid (review 7A K1)
  assert.deepEqual(
    unrecordedLabels(model, rows, step.start, step.end, xOf, m).filter((s) => s.text?.includes('waiting')),
    [],
  );
});

test("a wait's label and its hover name one cause, worked out once per stretch (review 35's code read, item 6)", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/ranks/straggler/rank0.trace.json'));
  const rows = new TrackRows(model, 0).rows;
  const step = model.steps[1]!;
  const xOf = (t: number): number => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (1400 - LABEL_WIDTH);
  // a cause that changes with each call: asked twice, the label and the hover would name different ranks
  const causes = ['rank 1, recompiling', 'rank 2, compiling'];
  let asked = 0;
  const found = unrecordedLabels(
    model,
    rows,
    step.start,
    step.end,
    xOf,
    m,
    communicationNames(model.names),
    () => causes[asked++ % 2]!,
  );
  const waits = found.filter((said) => said.op !== null);
  assert.equal(waits.length, 1);
  assert.equal(asked, waits.length, 'once per stretch');
  const threads = model.tracks.map((t) => t.name);
  for (const said of waits) {
    assert.equal(said.op, 'all_reduce');
    assert.equal(said.cause, 'rank 1, recompiling');
    assert.match(said.text!, /^[\d.]+ ms idle, [\d.]+ ms of it waiting in all_reduce for rank 1, recompiling$/);
    assert.match(
      unrecordedHover(model, said, threads),
      /for 42\.6 ms of its step, all_reduce running on .* for 40\.2 ms of it: .*\(here rank 1, recompiling\)\.$/,
    );
  }
});

/** The straggler job's two ranks on rank 0's clock: their models, their rows and each rank's marks. */
async function stragglerRanks(): Promise<{ models: TraceModel[]; rows: Row[][]; ranks: RankMarks[] }> {
  const files = ['rank0', 'rank1'].map((r) =>
    path.resolve(__dirname, `../fixtures/traces/ranks/straggler/${r}.trace.json`),
  );
  const models = await Promise.all(files.map((f) => scanTraceFile(f)));
  const heads = await Promise.all(files.map((f) => readTraceHead(f)));
  const alignment = rankAlignment(models.map((trace, k) => ({ trace, rank: heads[k]! })));
  assert.equal(alignment.mode, 'absolute');
  const shifts = alignment.mode === 'absolute' ? alignment.shiftUs : [];
  const rows = models.map((model) => new TrackRows(model, 0).rows);
  const ranks: RankMarks[] = models.map((model, k) => ({
    rank: k,
    shiftUs: shifts[k]!,
    marks: [],
    unrecordedUs: (fromUs, toUs, leastUs) =>
      longestUnrecorded(model, rows[k]!, fromUs, toUs, leastUs, communicationNames(model.names)),
    inCollective: (atUs) => collectiveSpans(model, communicationNames(model.names), atUs, atUs).length > 0,
  }));
  return { models, rows, ranks };
}

test("rank 0's wait said for rank 1 and how much of it rank 1 recorded no op: 34.9 ms of its 40.2 ms (review 14 T4: 33.6 of 41.7 in another step)", async () => {
  const { models, rows, ranks } = await stragglerRanks();
  const [rank0] = models;
  const step = rank0!.steps[1]!;
  const xOf = (t: number): number => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (1400 - LABEL_WIDTH);
  const waitedFor = ({ fromUs, toUs }: Unrecorded): string | null => {
    const found = waitedRank(ranks, 0, fromUs, toUs);
    assert.notEqual(found, LAST_TO_ARRIVE);
    return found && found !== LAST_TO_ARRIVE
      ? waitedForWords(found.rank, found.cause, found.unrecordedUs ?? null)
      : null;
  };
  const found = unrecordedLabels(
    rank0!,
    rows[0]!,
    step.start,
    step.end,
    xOf,
    m,
    communicationNames(rank0!.names),
    waitedFor,
  );
  const waits = found.filter((said) => said.op !== null);
  assert.equal(waits.length, 1);
  const { stretch, text } = waits[0]!;
  // rank 1 then ran its backward and its own all_reduce: not "which recorded no op then" over the whole wait; the
  // gap's own time first, the wait as part of it: a number in a gap is its length (review 17Z Z3)
  assert.equal(
    text,
    '42.6 ms idle, 40.2 ms of it waiting in all_reduce for rank 1, which recorded no op for 34.9 ms of it',
  );
  assert.ok(stretch.idleFromUs < stretch.fromUs && stretch.toUs <= stretch.idleToUs, 'the wait inside its gap');
  // the cause is rank 1's stretch: a rank 1 that recorded ops all the while is waited for with no cause said
  const busy = [ranks[0]!, { ...ranks[1]!, unrecordedUs: () => 0 }];
  assert.deepEqual(waitedRank(busy, 0, stretch.fromUs, stretch.toUs), { rank: 1, cause: null });
  // narrower, for the rank alone, never cut to "…for rank 1, wh…" (the hover says the cause); narrower still, fewer
  // whole words, its time first
  const narrow = (width: number): string | null | undefined =>
    unrecordedLabels(
      rank0!,
      rows[0]!,
      step.start,
      step.end,
      (t) => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (width - LABEL_WIDTH),
      m,
      communicationNames(rank0!.names),
      waitedFor,
    ).find((said) => said.op !== null)?.text;
  assert.equal(narrow(700), '42.6 ms idle, 40.2 ms of it waiting in all_reduce for rank 1');
  assert.equal(narrow(560), '42.6 ms idle, 40.2 ms waiting in all_reduce for rank 1');
  // narrower, the rank kept before the op (review 13 Q4: "765 µs, waiting in…" said neither)
  assert.equal(narrow(500), '42.6 ms idle, 40.2 ms waiting for rank 1');
  // narrower, whom it waited for kept over the wait's own time (at 700 px rank 0's "44.5 ms idle" said not why)
  assert.equal(narrow(LABEL_WIDTH + 230), '42.6 ms idle, waiting for rank 1');
  assert.equal(narrow(LABEL_WIDTH + 190), '42.6 ms idle, for rank 1');
  // narrower, the gap's time alone, said as idle; narrower still, none, never a bare time: beside rank 1's
  // unrecorded stretches it read as theirs, and after a slice as its time (review 16 Z4/X3); its hover says it
  assert.equal(narrow(LABEL_WIDTH + 100), '42.6 ms idle');
  assert.equal(narrow(LABEL_WIDTH + 50), null);
});

test('rank 1, last to reach all_reduce while rank 0 waited in it, is said to be in it, not waiting (review 14 S3)', async () => {
  const { models, rows, ranks } = await stragglerRanks();
  const said = (k: number, width: number): UnrecordedLabel[] => {
    const step = models[k]!.steps[0]!;
    return unrecordedLabels(
      models[k]!,
      rows[k]!,
      step.start,
      step.end,
      (t) => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (width - LABEL_WIDTH),
      m,
      communicationNames(models[k]!.names),
      ({ fromUs, toUs }) => {
        const found = waitedRank(ranks, k, fromUs, toUs);
        return found === LAST_TO_ARRIVE ? found : found && waitedForWords(found.rank, found.cause);
      },
    ).filter((label) => label.op !== null);
  };
  // rank 0 reached it first and waited for rank 1
  assert.match(said(0, 1400)[0]!.text!, /^44\.5 ms idle, 41\.7 ms of it waiting in all_reduce for rank 1/);
  // rank 1 reached it last: its time in it is the collective's own, no wait
  const [last] = said(1, 4000);
  assert.equal(last!.text, '4.83 ms in all_reduce, last to arrive');
  assert.match(
    unrecordedHover(
      models[1]!,
      last!,
      models[1]!.tracks.map((t) => t.name),
    ),
    /reached it last/,
  );
  assert.equal(said(1, 2400)[0]!.text, '4.83 ms in all_reduce');
  for (const width of [1400, 2000, 3000])
    assert.ok(said(1, width).every((label) => !(label.text ?? '').includes('wait')));
});

test("rank 0's waits in the whole trace at 560, 700 and 1400 px: each said in whole words, its time first, none cut on a function word (review 13 Q2/Q4)", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/ranks/straggler/rank0.trace.json'));
  const { rows, tMin, tMax, xAt } = wholeTrace(model);
  const cause = 'rank 1, which recorded no op then';
  const labels = (width: number): UnrecordedLabel[] =>
    unrecordedLabels(model, rows, tMin, tMax, xAt(width), m, communicationNames(model.names), () => cause).filter(
      (said) => said.op,
    );
  const waits = (width: number): (string | null)[] => labels(width).map((said) => said.text);
  for (const width of [560, 700, 1400]) {
    const said = labels(width);
    // one a step, each labelled: at 560 px its 31.6 ms in "31.6 ms wait", not left blank
    assert.equal(said.length, 3, `${width} px`);
    for (const { stretch, text } of said) {
      // one of its forms, its gap's time first where the gap is longer than the wait (review 17Z Z3)
      const forms = waitingInForms(
        'all_reduce',
        stretch.toUs - stretch.fromUs,
        cause,
        stretch.idleToUs - stretch.idleFromUs,
      );
      assert.ok(text !== null && forms.includes(text), `${width} px: ${text}`);
      assert.doesNotMatch(text, /(?:…|\b(?:in|for|of|the))$/, `${width} px`);
    }
  }
  // at 560 px each gap's time alone, said as idle, never the wait's time in a longer gap (review 17Z Z3)
  assert.deepEqual(waits(560), ['44.5 ms idle', '42.6 ms idle', '31.7 ms idle']);
  // wider, the rank it waited for in each
  assert.deepEqual(waits(1400), [
    '44.5 ms idle, 41.7 ms of it waiting in all_reduce for rank 1',
    '42.6 ms idle, 40.2 ms of it waiting in all_reduce for rank 1',
    '31.7 ms idle, 31.6 ms waiting for rank 1',
  ]);
});

test("rank 1's own all_reduce bar, reached last, says so in the words its width has room for, never blank (review 15 W1/V5)", async () => {
  const { models, ranks } = await stragglerRanks();
  /** each collective bar of rank k's step 0 on its own thread and its label at a step view `width` px wide */
  const bars = (k: number, width: number): (string | null)[] => {
    const model = models[k]!;
    const step = model.steps[0]!;
    const pxPerUs = (width - LABEL_WIDTH) / (step.end - step.start);
    const collectives = communicationNames(model.names);
    const waitedFor = (fromUs: number, toUs: number): string | null => {
      const found = waitedRank(ranks, k, fromUs, toUs);
      return found === LAST_TO_ARRIVE ? found : null;
    };
    const said: (string | null)[] = [];
    for (let i = 0; i < model.count; i++) {
      if (!collectives[model.name[i]!] || model.depth[i] !== 0) continue;
      if (model.start[i]! < step.start || model.start[i]! >= step.end) continue;
      const words = collectiveWords(model, { i, words: model.names[model.name[i]!]! }, collectives, waitedFor);
      said.push(fittedWords(words, model.dur[i]! * pxPerUs - 6, m));
    }
    return said;
  };
  // rank 0 reached it first: its bar says the op alone, or nothing where that has no room
  assert.deepEqual(bars(0, 4000), ['all_reduce']);
  assert.deepEqual(bars(1, 4000), ['all_reduce, last to arrive']);
  // narrower, fewer whole words, never a cut ("all_r…") nor blank where "last" fits (its 7.19 ms of a 49.1 ms step
  // 30 px wide at 400 px: 24 px inside its inset)
  assert.deepEqual(
    [1400, 1100, 700, 520, 400].map((width) => bars(1, width)[0]),
    // (never the op alone, which rank 0's label names already: review 16 X1)
    ['all_reduce, last to arrive', 'all_reduce, came last', 'came last', 'last', 'last'],
  );
  assert.deepEqual(bars(1, 380), [null]);
});

test("a wait in a longer gap says the gap's time first, the wait as part of it; one as long as its gap, the wait alone (review 17Z Z3)", () => {
  // DDP rank 0: "765 µs, waiting" set in a 921 µs gap read as the gap's length
  assert.deepEqual(waitingInForms('all_reduce', 765, 'rank 1', 921), [
    '921 µs idle, 765 µs of it waiting in all_reduce for rank 1',
    '921 µs idle, 765 µs waiting in all_reduce for rank 1',
    '921 µs idle, 765 µs waiting for rank 1',
    // narrower, whom it waited for kept before the gap's time alone: at 700 px rank 0's "44.5 ms idle" said not why
    '921 µs idle, waiting for rank 1',
    '921 µs idle, for rank 1',
    '921 µs idle',
  ]);
  // no rank known: the wait's time in its fewer words
  assert.deepEqual(waitingInForms('all_reduce', 765, null, 921), [
    '921 µs idle, 765 µs of it waiting in all_reduce for another rank',
    '921 µs idle, 765 µs waiting in all_reduce',
    '921 µs idle, 765 µs waiting',
    '921 µs idle, 765 µs wait',
    '921 µs idle',
  ]);
  assert.deepEqual(waitingInForms('all_reduce', 765, 'rank 1'), [
    '765 µs, waiting in all_reduce for rank 1',
    '765 µs, waiting for rank 1',
    '765 µs, waiting',
    '765 µs wait',
  ]);
  assert.deepEqual(waitingInForms('all_reduce', 273, LAST_TO_ARRIVE, 300), [
    `300 µs idle, 273 µs of it in all_reduce, ${LAST_TO_ARRIVE}`,
    '300 µs idle, 273 µs of it in all_reduce',
    '300 µs idle',
  ]);
});
