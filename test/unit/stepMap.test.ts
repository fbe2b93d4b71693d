// Matching two traces' times by step (webview/analysis/stepMap.ts): a range over eager's long cold step 1 covers
// compiled's step 1, not its three shorter steps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Report } from '../../extension/shared/report.ts';
import { sameStepTime, stepsOverlapped } from '../../webview/analysis/stepMap.ts';
import { focusFound, focusNotFound, onScaleOf, paneMovedToCode, paneStepsNote } from '../../webview/timelineWords.ts';
import { rangePairTitle } from '../../webview/compareWords.ts';

// eager: a 39 ms step 1, then 2 ms steps; compiled: an 8 ms step 1, then 1 ms steps (the review's traces, rounded)
const eager = [
  { start: 3000, end: 42000 },
  { start: 43000, end: 45000 },
  { start: 45000, end: 47000 },
];
const compiled = [
  { start: 9000, end: 17000 },
  { start: 18000, end: 19000 },
  { start: 19000, end: 20000 },
];

test('the same share of the same step on the other side', () => {
  assert.equal(sameStepTime(eager, compiled, 3000), 9000);
  assert.equal(sameStepTime(eager, compiled, 42000), 17000);
  // halfway through eager's step 1 is halfway through compiled's
  assert.equal(sameStepTime(eager, compiled, 22500), 13000);
  // a range over eager's step 1 covers compiled's step 1 only, not its three steps
  const [from, to] = [sameStepTime(eager, compiled, 3500), sameStepTime(eager, compiled, 41000)];
  assert.deepEqual(stepsOverlapped(compiled, from, to), { first: 1, last: 1, coldStep: 1, unit: 'step' });
  assert.deepEqual(stepsOverlapped(eager, 3500, 41000), { first: 1, last: 1, coldStep: 1, unit: 'step' });
});

test('between steps at the same share of the gap; before the first and after the last as far from it', () => {
  assert.equal(sameStepTime(eager, compiled, 42500), 17500);
  assert.equal(sameStepTime(eager, compiled, 2000), 8000);
  assert.equal(sameStepTime(eager, compiled, 47500), 20500);
  // a step the other side lacks: its last step's end
  assert.equal(sameStepTime([...eager, { start: 48000, end: 50000 }], compiled, 49000), 20000);
  assert.equal(stepsOverlapped(eager, 0, 2000), null);
});

test("steps said by their markers' numbers: a rank profiled from ProfilerStep#2 has no step 1", () => {
  const rank = [
    { start: 0, end: 50000, label: 'ProfilerStep#2' },
    { start: 50000, end: 60000, label: 'ProfilerStep#3' },
    { start: 60000, end: 70000, label: 'ProfilerStep#4' },
  ];
  const inView = stepsOverlapped(rank, 1000, 49000);
  assert.deepEqual(inView, { first: 2, last: 2, coldStep: 2, unit: 'step' });
  assert.match(paneStepsNote(inView, rank, null).text, /^step 2 in view \(of steps 2–4\) · /);
  assert.match(paneStepsNote(stepsOverlapped(rank, 0, 70000), rank, null).text, /^steps 2–4 in view \(all 3\) · /);
  // a trace of one call: the only one, plainly, never "call 4 in view (all 1)" (review 13P P8)
  const one = [{ start: 0, end: 10, label: 'call 4' }];
  assert.match(paneStepsNote(stepsOverlapped(one, 0, 10), one, null).text, /^call 4, the only one profiled · under/);
  // steps found as repeated calls keep their word
  const calls = [
    { start: 0, end: 10, label: 'call 0' },
    { start: 10, end: 20, label: 'call 1' },
  ];
  assert.match(paneStepsNote(stepsOverlapped(calls, 12, 15), calls, null).text, /^call 1 in view \(of calls 0–1\) · /);
});

test('the warm-up step said in the note where it is in view (review 31 B2), its why in the tooltip; not elsewhere', () => {
  const steps = [
    { start: 0, end: 39000, label: 'ProfilerStep#1' },
    { start: 40000, end: 42000, label: 'ProfilerStep#2' },
    { start: 42000, end: 44000, label: 'ProfilerStep#3' },
  ];
  const note = (from: number, to: number, warmUp: number | null) =>
    paneStepsNote(stepsOverlapped(steps, from, to), steps, null, false, warmUp);
  const warm = note(0, 39000, 1);
  assert.equal(
    warm.text,
    'step 1 in view (of steps 1–3) · step 1 is the warm-up · under the profiler (its overhead included)',
  );
  assert.match(
    warm.tooltip,
    / Step 1 is the warm-up: the profiler's start-up and the first call's one-time work are in it; /,
  );
  assert.match(note(0, 44000, 1).text, /^steps 1–3 in view \(all 3\) · step 1 is the warm-up · under/);
  // past it, or a pane without one (a script's in-situ window): no word of it
  for (const said of [note(40000, 42000, 1), note(0, 39000, null)]) {
    assert.doesNotMatch(said.text, /warm-up/);
    assert.doesNotMatch(said.tooltip, /warm-up/);
  }
  // calls keep their word
  const calls = [
    { start: 0, end: 10, label: 'call 0' },
    { start: 10, end: 20, label: 'call 1' },
  ];
  assert.match(paneStepsNote(stepsOverlapped(calls, 0, 5), calls, null, false, 0).text, / · call 0 is the warm-up · /);
});

test('a range pair over the first step says its one-time work is in it; one over a later step does not', () => {
  const pair = (from: number, to: number): string =>
    rangePairTitle(
      { label: 'eager', steps: stepsOverlapped(eager, from, to), us: to - from },
      {
        label: 'default',
        steps: stepsOverlapped(compiled, sameStepTime(eager, compiled, from), sameStepTime(eager, compiled, to)),
        us: 1,
      },
    );
  assert.match(
    pair(3500, 41000),
    /^eager → default, step 1 of each .* — step 1 is the first, with one-time work in it/,
  );
  assert.doesNotMatch(pair(43200, 44800), /one-time work/);
  assert.match(pair(43200, 44800), /^eager → default, step 2 of each \(the same share of it\): /);
});

test("a pane moved to the found code says first that its axis reads the found pane's time, then the code's time on it", () => {
  // review 8A A11: "…after it. — in default at 7.87 ms (…). eager is shown at the same code, its axis reading
  // default's time: its aten::item at 7.92 ms, 19.6 ms into step 1 of eager itself." buried the borrowed axis
  const note = paneMovedToCode(
    { pane: 'eager', name: 'item', inside: null, at: '7.93 ms', intoStep: '19.6 ms' },
    'default',
    1,
  );
  assert.equal(
    note,
    "eager's axis now reads default's time. On it, eager's item op is at 7.93 ms (19.6 ms into eager's own step 1).",
  );
  // an op nested in another: said as an op, in the one its row labels (review 14 S2: "eager's view is at…" read as
  // the pane's view beside a slice labelled flatten)
  assert.equal(
    paneMovedToCode(
      { pane: 'eager', name: 'view', inside: 'flatten', at: '898 µs', intoStep: '1.40 ms' },
      'default',
      2,
    ),
    "eager's axis now reads default's time. On it, eager's view op, in flatten, is at 898 µs (1.40 ms into eager's own step 2).",
  );
  const found = focusFound('Graph break: Dynamo … starts a new graph after it.', 'default', '7.87 ms', 3);
  assert.equal(
    found,
    'Graph break: Dynamo … starts a new graph after it. In default at 7.87 ms (the first of 3 places, all outlined).',
  );
  // shown past the warm-up step the compare leaves out (review 11 I3): said so, of the step alone (review 15V V8:
  // "which the compare leaves out" read as of the 3 places too)
  assert.equal(
    focusFound('Graph break: Tensor.item()', 'default', '31.2 ms', 3, { step: 1, why: 'left out' }),
    'Graph break: Tensor.item(). In default at 31.2 ms (the first of 3 places past step 1, a step the compare leaves out; all outlined).',
  );
  // a job's ranks have no compare: past their warm-up
  assert.equal(
    focusFound('Recompile: x', 'rank 1', '2.1 ms', 2, { step: 1, why: 'warm-up' }),
    'Recompile: x. In rank 1 at 2.1 ms (the first of 2 places past step 1, the warm-up; all outlined).',
  );
  // a rank with no warm-up of its own, opened past another rank's: the job's (code read 12)
  assert.equal(
    focusFound('Recompile: x', 'rank 0', '2.1 ms', 2, { step: 1, why: "job's warm-up" }),
    "Recompile: x. In rank 0 at 2.1 ms (the first of 2 places past step 1, the job's warm-up; all outlined).",
  );
  assert.match(
    focusFound('Graph break: Tensor.item()', 'default', '7.87 ms', 1),
    /^Graph break: Tensor\.item\(\)\. In default at 7\.87 ms\.$/,
  );
  assert.match(focusNotFound('Graph break at line 9.', true), /^Graph break at line 9\. Not in these traces: /);
});

test("a pane's note is one short line; why its times are not the timed ones, and how its calls are named, in its tooltip", () => {
  const steps = [1, 2, 3].map((k) => ({ start: k * 10, end: k * 10 + 10, label: `ProfilerStep#${k}` }));
  // with a report, the runner's words for its traces (schema 1.33's profilerNote: review 3C R7, "times are timed"
  // was composed here)
  const { profilerNote } = JSON.parse(
    readFileSync(path.resolve(__dirname, '../fixtures/reports/graphbreak-cpu/report.json'), 'utf8'),
  ) as Report;
  const note = paneStepsNote(stepsOverlapped(steps, 0, 40), steps, profilerNote!, true);
  assert.equal(note.text, 'steps 1–3 in view (all 3) · under the profiler (slower than timed) · calls named by order');
  assert.ok(note.text.length <= 100, note.text);
  assert.ok(note.tooltip.startsWith(`${profilerNote!.text} `), note.tooltip);
  // a trace without a report: its overhead only, no answer to set it against
  assert.match(paneStepsNote(null, steps, null).tooltip, /^This trace ran under the profiler: [^.]*\.$/);
  assert.match(note.tooltip, /the trace has no Python stacks to name their code/);
});

test("a pane drawn on another's scale names that pane by where it is, its title in the tooltip (reviews 18Z Z4, 18Y Y2)", () => {
  // "on default's scale" read as the ordinary default scale; "on scale, in situ eager's scale" as no phrase at all
  assert.equal(onScaleOf('default', 0, 1, 'eager').text, 'on the scale of the pane above');
  assert.equal(onScaleOf('scale, in situ eager', 2, 1, 'scale, eager').text, 'on the scale of the pane below');
  // one not next to it: by the name its title shows after the region both titles name, never by a number no title
  // carries (review 19Y Y2: "on the scale of pane 1")
  assert.equal(
    onScaleOf('TinyTransformer, eager', 0, 2, 'TinyTransformer, in situ eager').text,
    'on the scale of the eager pane above',
  );
  assert.equal(
    onScaleOf('warmup_step, in situ eager', 3, 0, 'warmup_step, eager').text,
    'on the scale of the in situ eager pane below',
  );
  // a name too long to read as one ("compiled with torch.compile's defaults"), or titles of no region: by how far
  assert.equal(
    onScaleOf("f, compiled with torch.compile's defaults", 1, 3, 'f, in situ eager').text,
    'on the scale of the second pane above',
  );
  assert.equal(onScaleOf('max-autotune', 3, 0, 'eager').text, 'on the scale of the third pane below');
  assert.match(
    onScaleOf('scale, in situ eager', 2, 1, 'scale, eager').tooltip,
    /, that of the pane below \("scale, in situ eager"\): /,
  );
});
