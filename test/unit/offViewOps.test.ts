// A pane zoomed past its work (webview/offViewOps.ts): where the view holds none of its ops, its note says where they
// are, on its axis's time (review 18Y Y3: in situ eager's pane showed only "15.1 µs unrecorded" across its width after
// a kernel click, its call's ops right of the window and nothing saying so); nothing where an op is in view.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { everyLevel, opsOffView, opsOffViewNote } from '../../webview/offViewOps.ts';

const TRACES = path.resolve(__dirname, '../fixtures/traces');

test("a view inside rank 1's 40 ms with no op: where its ops end and begin again, said on the pane's axis", async () => {
  // rank 1 of the straggler job sleeps 40 ms before each step's all_reduce, on every thread
  const model = await scanTraceFile(path.join(TRACES, 'ranks', 'straggler', 'rank1.trace.json'));
  const rows = everyLevel(model);
  const all: [number, number] = [-Infinity, Infinity];
  const [step2, step3] = model.steps;
  const offset = step3!.start;
  // step 3's sleep (50.9 → 89.6 ms of the trace) zoomed into: its ops on both sides
  const inSleep = opsOffView(model, rows, [60_000, 80_000], all);
  assert.deepEqual(inSleep, { endsAtUs: 50_941.117, beginsAtUs: 89_552.968 });
  assert.equal(opsOffViewNote(inSleep, offset).text, 'none of its ops in view: ← until 1.54 ms, again from 40.2 ms →');
  // a step view draws its step alone: its ops only, none past the step's end
  const inStep2 = opsOffView(model, rows, [1_000, 30_000], [step2!.start, step2!.end]);
  assert.deepEqual(inStep2, { endsAtUs: null, beginsAtUs: 40_490.156 });
  assert.equal(opsOffViewNote(inStep2, step2!.start).text, 'none of its ops in view: they begin at 40.2 ms →');
  // zoomed past the step's end: its ops left of the view, the next step's not said
  const pastEnd = opsOffView(model, rows, [step2!.end + 10, step2!.end + 5_000], [step2!.start, step2!.end]);
  assert.ok(pastEnd, 'zoomed past the step: said');
  assert.ok(pastEnd.beginsAtUs === null && pastEnd.endsAtUs! <= step2!.end, JSON.stringify(pastEnd));
  assert.match(opsOffViewNote(pastEnd, step2!.start).text, /^none of its ops in view: ← they end at [\d.]+ ms$/);
  // an op in view, however short, or a view across the sleep's end: nothing said
  assert.equal(opsOffView(model, rows, [60_000, 90_000], all), null);
  assert.equal(opsOffView(model, rows, [89_552, 89_553], all), null);
  // a view of none of the drawn span's time, its ops all one side
  assert.deepEqual(opsOffView(model, rows, [200_000, 300_000], all)?.beginsAtUs, null);
});

test('a view of the ops, at any zoom of the eager trace: nothing said', async () => {
  const model = await scanTraceFile(path.join(TRACES, 'cpu-graphbreak-eager.trace.json'));
  const rows = everyLevel(model);
  for (const step of model.steps) {
    assert.equal(opsOffView(model, rows, [step.start, step.end], [step.start, step.end]), null);
    const middle = (step.start + step.end) / 2;
    // a 2 µs window in the middle of each step: the ops there, or said where they are, never a pane read empty
    const narrow = opsOffView(model, rows, [middle - 1, middle + 1], [step.start, step.end]);
    if (narrow) assert.ok(narrow.endsAtUs !== null || narrow.beginsAtUs !== null);
  }
});
