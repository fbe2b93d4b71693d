// The stretches of a step with no op recorded (webview/timelineGaps.ts), on the straggler job's rank 1 (a 40 ms sleep
// before each step's all_reduce): said in one word at every width, their time first, unlabelled where it does not
// fit (review 17 X5: ", no op recorded", "unrecorded" and "gap" for one thing), never by other words nor by their
// time alone (review 10 F8: "no op recorded · 40.2 ms" at 1400 px, "no op · 40.2 ms"
// at 700, a bare "40.2 ms" at 560), nor by words without their time (review 11 I7: "no op recorded…" at 700 px).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { formatUs } from '../../extension/present/numbers.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { collectiveSpans, communicationNames, mostOverlapping } from '../../webview/analysis/communication.ts';
import { readTraceHead } from '../../extension/node/trace/readTraceHead.ts';
import { rankAlignment } from '../../extension/shared/trace/ranks.ts';
import { arrivedAt, LAST_TO_ARRIVE, waitedRank, type RankMarks } from '../../webview/analysis/rankWaits.ts';
import { fittedWords } from '../../webview/sliceTexts.ts';
import {
  collectiveWords,
  GAP_INSET,
  longestUnrecorded,
  unrecordedHover,
  unrecordedLabels,
  type Unrecorded,
  type UnrecordedLabel,
} from '../../webview/timelineGaps.ts';
import { waitedFor as waitedForWords, waitingInForms, waitWordsOf } from '../../webview/timelineWords.ts';
import { TrackRows, type Row } from '../../webview/timelineRows.ts';
import { cpuOp, scanEvents } from './traceEvents.ts';
import { LABEL_WIDTH, type Measure } from '../../webview/timelineText.ts';

/** 6 px a character, about the canvas's 11 px font. */
const m: Measure = { width: (text) => 6 * text.length, ascent: 8, descent: 3 };

/** The labels of a stretch's gaps with its collectives known, as the timeline draws them (`waitedFor`, `waitedUntil`:
 *  whom and until when a rank waited, where the ranks are known). */
const labelsOf = (
  model: TraceModel,
  rows: Row[],
  from: number,
  to: number,
  xOf: (t: number) => number,
  ...waits: [Parameters<typeof unrecordedLabels>[7]?, Parameters<typeof unrecordedLabels>[8]?]
): UnrecordedLabel[] => unrecordedLabels(model, rows, from, to, xOf, m, communicationNames(model.names), ...waits);

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
  // at 560 px no room for it: unlabelled (its hover says it), never "idle": a single process's Python time between
  // its ops is no idle time (review 19 X1/Y1/Z1), nor "gap", another word for them
  assert.deepEqual(found(560), [null, null, null]);
  // one word at every width: where one has room for "unrecorded" and another not, the other unlabelled
  const rooms = (width: number): boolean[] =>
    unrecordedLabels(model, rows, tMin, tMax, xAt(width), m).map(
      ({ stretch }) =>
        xAt(width)(stretch.idleToUs) - xAt(width)(stretch.idleFromUs) - 6 >=
        m.width(`${(Math.round((stretch.toUs - stretch.fromUs) / 100) / 10).toFixed(1)} ms unrecorded`),
    );
  const mixed = [580, 590, 600, 604, 606].find((width) => new Set(rooms(width)).size === 2);
  assert.ok(mixed, 'a width where one stretch has room for "unrecorded" and another not');
  assert.deepEqual(
    found(mixed).map((text) => text === null || text.endsWith(' ms unrecorded')),
    [true, true, true],
    `${mixed} px`,
  );
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
    labelsOf(model, rows, step.start, step.end, xOf, waitedFor).map((s) => s.text);
  // no rank known (one trace, or ranks whose clocks do not compare): its time in the collective, no wait claimed for
  // a rank (review 18Z Z1: the collective's whole time said as the wait)
  assert.ok(said().some((t) => /^[\d.]+ ms idle, [\d.]+ ms of it in all_reduce$/.test(t ?? '')));
  assert.deepEqual(
    said().filter((t) => t?.includes('wait')),
    [],
  );
  // the rank known, not when it reached it: none either
  assert.deepEqual(
    said(() => 'rank 1, recompiling').filter((t) => t?.includes('wait')),
    [],
  );
  // and when: the part before it came said as the wait for it, inside the collective's time, inside the gap's
  const until = (): ((stretch: Unrecorded) => number) => (stretch) => stretch.fromUs + 30_000;
  assert.ok(
    unrecordedLabels(
      model,
      rows,
      step.start,
      step.end,
      xOf,
      m,
      communicationNames(model.names),
      () => 'rank 1, recompiling',
      until(),
    ).some((s) =>
      /^[\d.]+ ms idle, [\d.]+ ms of it in all_reduce, 30\.0 ms of that waiting for rank 1, recompiling$/.test(
        s.text ?? '',
      ),
    ),
  );
  // in a narrow pane fewer whole words, the gap's time first (review 12 L3: at 560 and 700 px "…, waiting in
  // all_reduce" had no room and the stretch went unsaid)
  const narrow = (width: number): (string | null)[] =>
    labelsOf(
      model,
      rows,
      step.start,
      step.end,
      (t) => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (width - LABEL_WIDTH),
    ).map((s) => s.text);
  const cut = narrow(LABEL_WIDTH + 200).find((t) => t?.includes(' idle'));
  assert.match(cut ?? '', /^[\d.]+ ms idle(?:, [\d.]+ ms of it in all_reduce)?$/);
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
  const found = labelsOf(
    model,
    rows,
    step.start,
    step.end,
    xOf,
    () => causes[asked++ % 2]!,
    (stretch) => stretch.fromUs + 30_000,
  );
  const waits = found.filter((said) => said.op !== null);
  assert.equal(waits.length, 1);
  assert.equal(asked, waits.length, 'once per stretch');
  const threads = model.tracks.map((t) => t.name);
  for (const said of waits) {
    assert.equal(said.op, 'all_reduce');
    assert.equal(said.cause, 'rank 1, recompiling');
    assert.match(
      said.text!,
      /^[\d.]+ ms idle, [\d.]+ ms of it in all_reduce, 30\.0 ms of that waiting for rank 1, recompiling$/,
    );
    // the hover says the wait's time for that rank and the rest as the collective's own (review 18Z Z1)
    assert.match(
      unrecordedHover(model, said, threads),
      /for 42\.6 ms of its step, all_reduce running on .* for 40\.2 ms of it: .*rank 1 reached it 30\.0 ms after this rank did, the wait for it \(here rank 1, recompiling\); the other 10\.2 ms is the collective's own work, which every rank spends\.$/,
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
    collectiveFrom: (fromUs, toUs) =>
      mostOverlapping(collectiveSpans(model, communicationNames(model.names), fromUs, toUs), fromUs, toUs),
  }));
  return { models, rows, ranks };
}

/** Rank k's collective's cause and when the rank it waited for reached it, as main.ts works them out. */
function waitsOf(
  ranks: RankMarks[],
  k: number,
): { waitedFor: (stretch: Unrecorded) => string | null; waitedUntil: (stretch: Unrecorded) => number | null } {
  return {
    waitedFor: ({ fromUs, toUs }) => {
      const found = waitedRank(ranks, k, fromUs, toUs);
      return found === LAST_TO_ARRIVE
        ? found
        : found && waitedForWords(found.rank, found.cause, found.unrecordedUs ?? null);
    },
    waitedUntil: ({ fromUs, toUs }) => {
      const found = waitedRank(ranks, k, fromUs, toUs);
      return found && found !== LAST_TO_ARRIVE ? arrivedAt(ranks, k, found.rank, fromUs, toUs) : null;
    },
  };
}

test("rank 0's wait said for rank 1 and how much of it rank 1 recorded no op: 34.9 ms of its 40.2 ms (review 14 T4: 33.6 of 41.7 in another step)", async () => {
  const { models, rows, ranks } = await stragglerRanks();
  const [rank0] = models;
  const step = rank0!.steps[1]!;
  const xOf = (t: number): number => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (1400 - LABEL_WIDTH);
  const { waitedFor, waitedUntil } = waitsOf(ranks, 0);
  const found = labelsOf(rank0!, rows[0]!, step.start, step.end, xOf, waitedFor, waitedUntil);
  const waits = found.filter((said) => said.op !== null);
  assert.equal(waits.length, 1);
  const { stretch, text } = waits[0]!;
  // rank 1 then ran its backward and its own all_reduce: not "which recorded no op then" over the whole wait; the
  // gap's own time first, the wait as part of it: a number in a gap is its length (review 17Z Z3)
  assert.equal(
    text,
    '42.6 ms idle, 40.2 ms of it in all_reduce, 37.9 ms of that waiting for rank 1, which recorded no op for 34.9 ms of the wait',
  );
  assert.ok(stretch.idleFromUs < stretch.fromUs && stretch.toUs <= stretch.idleToUs, 'the wait inside its gap');
  // the cause is rank 1's stretch: a rank 1 that recorded ops all the while is waited for with no cause said
  const busy = [ranks[0]!, { ...ranks[1]!, unrecordedUs: () => 0 }];
  assert.deepEqual(waitedRank(busy, 0, stretch.fromUs, stretch.toUs), { rank: 1, cause: null });
  const narrow = (width: number): string | null | undefined =>
    labelsOf(
      rank0!,
      rows[0]!,
      step.start,
      step.end,
      (t) => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (width - LABEL_WIDTH),
      waitedFor,
      waitedUntil,
    ).find((said) => said.op !== null)?.text;
  // narrower, for the rank alone, never cut to "…for rank 1, wh…" (the hover says the cause)
  assert.equal(narrow(700), '42.6 ms idle, 40.2 ms of it in all_reduce, 37.9 ms of that waiting for rank 1');
  // narrower, the op cut first, "of it" kept: each number inside the one before (review 18Z Z5: "31.7 ms idle, 31.6
  // ms waiting" read as two stretches)
  assert.equal(narrow(560), '42.6 ms idle, 37.9 ms of it waiting for rank 1');
  // narrower, the wait for the rank alone, its time the wait's (review 18Z Z2: "44.5 ms idle, for rank 1" said the
  // gap's time as the wait's)
  assert.equal(narrow(450), '37.9 ms waiting for rank 1');
  assert.equal(narrow(350), '37.9 ms wait for rank 1');
  // narrower, the wait's time as such, which says more than the gap's "42.6 ms idle" (review 18Z Z2); narrower
  // still, none, never a bare time: beside rank 1's unrecorded stretches it read as theirs, and after a slice as its
  // time (review 16 Z4/X3); its hover says it
  assert.equal(narrow(300), '37.9 ms wait');
  assert.equal(narrow(LABEL_WIDTH + 50), null);
});

test('rank 1, last to reach all_reduce while rank 0 waited in it, is said to be in it, not waiting (review 14 S3)', async () => {
  const { models, rows, ranks } = await stragglerRanks();
  const said = (k: number, width: number): UnrecordedLabel[] => {
    const step = models[k]!.steps[0]!;
    return labelsOf(
      models[k]!,
      rows[k]!,
      step.start,
      step.end,
      (t) => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (width - LABEL_WIDTH),
      waitsOf(ranks, k).waitedFor,
      waitsOf(ranks, k).waitedUntil,
    ).filter((label) => label.op !== null);
  };
  // rank 0 reached it first and waited for rank 1
  // rank 0 reached it first and waited for rank 1 until rank 1 reached it, 36.8 ms of its 41.7 ms in it: the rest the
  // collective's own work (review 18Z Z1: the whole 41.7 ms said as the wait)
  // and how much of that wait rank 1 recorded no op, measured over the wait (until it reached the all_reduce), said
  // "of the wait": a last "of it" after "of it" and "of that" had three referents (review 19Z Z3)
  assert.equal(
    said(0, 1400)[0]!.text!,
    '44.5 ms idle, 41.7 ms of it in all_reduce, 36.8 ms of that waiting for rank 1, which recorded no op for 33.6 ms of the wait',
  );
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
  const { models, ranks } = await stragglerRanks();
  const model = models[0]!;
  const { rows, tMin, tMax, xAt } = wholeTrace(model);
  const { waitedFor, waitedUntil } = waitsOf(ranks, 0);
  const labels = (width: number): UnrecordedLabel[] =>
    labelsOf(model, rows, tMin, tMax, xAt(width), waitedFor, waitedUntil).filter((said) => said.op);
  const waits = (width: number): (string | null)[] => labels(width).map((said) => said.text);
  for (const width of [560, 700, 1400]) {
    const said = labels(width);
    // one a step, each labelled: at 560 px its 30.6 ms wait in "30.6 ms wait", not left blank
    assert.equal(said.length, 3, `${width} px`);
    for (const { stretch, text, cause, waitUs } of said) {
      // one of its forms, its gap's time first where the gap is longer than the wait (review 17Z Z3)
      const forms = waitingInForms(
        'all_reduce',
        stretch.toUs - stretch.fromUs,
        cause,
        stretch.idleToUs - stretch.idleFromUs,
        waitUs,
      );
      assert.ok(text !== null && forms.includes(text), `${width} px: ${text}`);
      assert.doesNotMatch(text, /(?:…|\b(?:in|for|of|the))$/, `${width} px`);
    }
  }
  // at 560 px each wait's time as such, which says more than the gap's "44.5 ms idle" (review 18Z Z2), never the
  // collective's time as a wait (review 18Z Z1)
  assert.deepEqual(waits(560), ['36.8 ms wait', '37.9 ms wait', '30.6 ms wait']);
  // at 700 px too: one wait with no room for "for rank 1" (its 30.6 ms) and the pane's three say "wait" alike, as its
  // stretches with no op say one word (waits engineer's note: "36.8 ms waiting for rank 1", "37.9 ms wait for rank
  // 1", "30.6 ms wait" read as three kinds of wait), never "44.5 ms idle, for rank 1", the gap's time read as the
  // wait's (review 18Z Z2); whom in the hover
  assert.deepEqual(waits(700), ['36.8 ms wait', '37.9 ms wait', '30.6 ms wait']);
  // at every width the pane's waits in one set of words (a wait with room for none, unlabelled, its hover saying it)
  for (let width = 400; width <= 1600; width += 25) {
    const words = new Set(waits(width).flatMap((text) => (text === null ? [] : [waitWordsOf(text)])));
    assert.ok(words.size <= 1 && !words.has(null), `${width} px: ${waits(width).join(' | ')}`);
  }
  // wider, the wait for the rank in each: until rank 1 reached the all_reduce (36.8 ms of rank 0's 41.7 ms in it,
  // review 18Z Z1), inside the gap's time, "of it" kept (review 18Z Z5: "31.7 ms idle, 31.6 ms waiting" read as two)
  assert.deepEqual(waits(1400), [
    '44.5 ms idle, 36.8 ms of it waiting for rank 1',
    '42.6 ms idle, 37.9 ms of it waiting for rank 1',
    '30.6 ms waiting for rank 1',
  ]);
  // never the collective's whole time said as the wait for the rank
  for (const width of [560, 700, 1400])
    for (const text of waits(width)) assert.doesNotMatch(text ?? '', /(?:41\.7|40\.2|31\.6) ms(?: of it)? waiting/);
  // a label that says the wait's time alone begins where the wait does, at its collective's start, never at the head
  // of the longer gap, where its number read as the gap's length (review 19Z Z2: "494 µs wait for rank 1" 110 µs
  // before the wait began); one that says the gap's time first, at the gap's start
  // (and, where it would run past the other rank's arrival from there, as much earlier as that takes, never before the
  // gap: review 21Z Z2, "494 µs wait" read as 0.58 ms at 560 px)
  let moved = 0;
  for (const width of [400, 450, 500, 560, 700, 1400])
    for (const label of labels(width)) {
      const { stretch, text, atUs } = label;
      const alone = /^[\d.]+ ms wait/.test(text ?? '');
      const xOf = xAt(width);
      const wide = m.width(text ?? '') + 2 * GAP_INSET;
      const arrival = xOf(stretch.fromUs + (label.waitUs ?? 0));
      if (alone && xOf(stretch.fromUs) + wide > arrival + 0.5 && ++moved)
        assert.ok(
          atUs < stretch.fromUs &&
            atUs >= stretch.idleFromUs &&
            (xOf(atUs) + wide <= arrival + 0.5 || atUs === stretch.idleFromUs),
          `${width} px: ${text}`,
        );
      else assert.equal(atUs, alone ? stretch.fromUs : stretch.idleFromUs, `${width} px: ${text}`);
      if (alone) assert.ok(stretch.idleFromUs < stretch.fromUs, `${width} px: ${text} inside a longer gap`);
      // the gap's own time in the hover's first words, whichever the label says
      const hover = unrecordedHover(
        model,
        label,
        model.tracks.map((t) => t.name),
      );
      assert.ok(
        hover.startsWith(`No op recorded on this thread for ${formatUs(stretch.idleToUs - stretch.idleFromUs)} `),
        hover,
      );
    }
  assert.ok(moved > 0, 'a narrow width where a wait label would run past the arrival');
  assert.equal(labels(560).filter(({ stretch, atUs }) => atUs === stretch.fromUs).length, 3);
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

test("a wait in a longer gap says the gap's time first, the rest as part of it, each number inside the one before (review 17Z Z3, 18Z Z1/Z5)", () => {
  // DDP rank 0: 765 µs in all_reduce in a 921 µs gap, rank 1 reaching it 490 µs after rank 0 did: that is the wait
  // for rank 1, the rest the collective's own (review 18Z Z1: "914 µs idle, 765 µs wait")
  assert.deepEqual(waitingInForms('all_reduce', 765, 'rank 1, recompiling', 921, 490), [
    '921 µs idle, 765 µs of it in all_reduce, 490 µs of that waiting for rank 1, recompiling',
    '921 µs idle, 765 µs of it in all_reduce, 490 µs of that waiting for rank 1',
    // narrower, the op cut first, "of it" kept (review 18Z Z5)
    '921 µs idle, 490 µs of it waiting for rank 1',
    // narrower, the wait for the rank alone (review 18Z Z2: "44.5 ms idle, for rank 1" said the gap's time as it)
    '490 µs waiting for rank 1',
    '490 µs wait for rank 1',
    // narrowest, the wait's time as such, which says more than the gap's (review 18Z Z2)
    '490 µs wait',
    '921 µs idle',
  ]);
  // as long as its gap: the collective's time, of it the wait
  assert.deepEqual(waitingInForms('all_reduce', 765, 'rank 1', 765, 490), [
    '765 µs in all_reduce, 490 µs of it waiting for rank 1',
    '490 µs waiting for rank 1',
    '490 µs wait for rank 1',
    '765 µs in all_reduce',
    '490 µs wait',
  ]);
  // all of it a wait (the rank came as it ended): said once
  assert.deepEqual(waitingInForms('all_reduce', 765, 'rank 1', 765, 765), [
    '765 µs, waiting in all_reduce for rank 1',
    '765 µs waiting for rank 1',
    '765 µs wait for rank 1',
    '765 µs wait',
  ]);
  // no rank known, or not when it reached it (one trace; ranks whose clocks do not compare): no wait for a rank
  // claimed, the collective's time as such
  assert.deepEqual(waitingInForms('all_reduce', 765, null, 921), [
    '921 µs idle, 765 µs of it in all_reduce',
    '921 µs idle',
  ]);
  assert.deepEqual(waitingInForms('all_reduce', 765, 'rank 1', 921), [
    '921 µs idle, 765 µs of it in all_reduce',
    '921 µs idle',
  ]);
  assert.deepEqual(waitingInForms('all_reduce', 765, null), ['765 µs in all_reduce']);
  // the rank that came last waited for none: its gap is no idle time, but work with no op recorded (review 20Z Z1)
  assert.deepEqual(waitingInForms('all_reduce', 273, LAST_TO_ARRIVE, 300), [
    `300 µs unrecorded, 273 µs of it in all_reduce, ${LAST_TO_ARRIVE}`,
    '300 µs unrecorded, 273 µs of it in all_reduce',
    '300 µs unrecorded',
  ]);
});

test('a zoomed view says a stretch with no op by its whole time, an arrow at each edge of the view it runs past (review 20Y Y1)', () => {
  // a step of 1 ms on one thread, its ops at 0–100, 400–500 and 900–1000 µs: stretches of 300 and 400 µs
  const model = scanEvents([
    cpuOp('ProfilerStep#1', 1_000, 1_000),
    cpuOp('aten::mm', 1_000, 100),
    cpuOp('aten::add', 1_400, 100),
    cpuOp('aten::relu', 1_900, 100),
  ]);
  const rows = new TrackRows(model, 0).rows;
  const at = model.steps[0]!.start;
  const view = (from: number, to: number): UnrecordedLabel[] => {
    const [tMin, tMax] = [at + from, at + to];
    const xOf = (t: number): number => LABEL_WIDTH + ((t - tMin) / (tMax - tMin)) * 1000;
    return unrecordedLabels(model, rows, tMin, tMax, xOf, m);
  };
  const read = (labels: UnrecordedLabel[]): [string | null, number, number, number | null, number][] =>
    labels.map(({ text, stretch, inViewUs, atUs }) => [
      text,
      stretch.fromUs - at,
      stretch.toUs - at,
      inViewUs === null ? null : Math.round(inViewUs),
      Math.round(atUs - at),
    ]);
  // the whole step: each in view, whole, no arrow
  assert.deepEqual(read(view(0, 1_000)), [
    ['300 µs unrecorded', 100, 400, null, 100],
    ['400 µs unrecorded', 500, 900, null, 500],
  ]);
  // cut by the view's left edge: its whole 300 µs (never the 200 in view), the label at the edge
  assert.deepEqual(read(view(200, 450)), [['← 300 µs unrecorded', 100, 400, 200, 200]]);
  // by its right edge
  assert.deepEqual(read(view(50, 250)), [['300 µs unrecorded →', 100, 400, 150, 100]]);
  // by both: the window's width is not its length (script-kernel-source: "16.1 µs unrecorded" of a 119 µs stretch)
  assert.deepEqual(read(view(600, 800)), [['← 400 µs unrecorded →', 500, 900, 200, 600]]);
  // its hover the same whole time, and how much of it is in view
  const [both] = view(600, 800);
  assert.match(
    unrecordedHover(model, both!, ['thread 1']),
    /^No op recorded on this thread for 400 µs of its step \(200 µs of it in view\): /,
  );
  // where the stretch's arrowed label has no room in the part in view: unlabelled, never its part's time
  const narrow = unrecordedLabels(model, rows, at + 600, at + 800, (t) => LABEL_WIDTH + (t - at - 600) * 0.5, m);
  assert.deepEqual(read(narrow), [[null, 500, 900, 200, 600]]);
  // what a rank did while another waited for it is measured inside the wait alone: cut by its ends
  // (analysis/rankWaits.ts: "which recorded no op for 200 µs of the wait")
  assert.equal(longestUnrecorded(model, rows, at + 600, at + 800, 1, new Uint8Array(model.names.length)), 200);
});

test("a zoomed rank view says a wait's gap by its whole time, as the step's view does, arrowed where it runs past the view", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/ranks/straggler/rank0.trace.json'));
  const rows = new TrackRows(model, 0).rows;
  const step = model.steps[1]!;
  const across = (from: number, to: number): UnrecordedLabel[] =>
    labelsOf(model, rows, from, to, (t) => LABEL_WIDTH + ((t - from) / (to - from)) * 1400);
  const [whole] = across(step.start, step.end).filter((s) => s.op !== null);
  assert.match(whole!.text ?? '', /^([\d.]+ ms) idle, ([\d.]+ ms) of it in all_reduce$/);
  // a tenth of the gap in view, from its middle: the same times, arrowed each side (never the tenth's)
  const { idleFromUs, idleToUs } = whole!.stretch;
  const middle = (idleFromUs + idleToUs) / 2;
  const tenth = (idleToUs - idleFromUs) / 10;
  const [zoomed] = across(middle - tenth / 2, middle + tenth / 2).filter((s) => s.op !== null);
  assert.equal(zoomed!.text, `← ${whole!.text} →`);
  assert.deepEqual(zoomed!.stretch, whole!.stretch);
  assert.equal(formatUs(zoomed!.inViewUs!), formatUs(tenth));
  assert.match(
    unrecordedHover(
      model,
      zoomed!,
      model.tracks.map((t) => t.name),
    ),
    new RegExp(`for ${whole!.text!.split(' idle')[0]} of its step \\(${formatUs(tenth)} of it in view\\), all_reduce`),
  );
});
