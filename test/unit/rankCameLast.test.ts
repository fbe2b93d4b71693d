// The steps a rank came last to a collective in, said once after its pane's title (webview/rankCameLast.ts), on the
// straggler job's rank 1, whose all_reduce rank 0 waited in for it in each of steps 2–4 (review 16Z Z3: only step 2's
// bar had room to say "last").
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { LAST_TO_ARRIVE } from '../../webview/analysis/rankWaits.ts';
import { cameLast, cameLastTitle } from '../../webview/rankCameLast.ts';
import { cameLastWords } from '../../webview/timelineWords.ts';

const rank1 = (): Promise<TraceModel> =>
  scanTraceFile(path.resolve(__dirname, '../fixtures/traces/ranks/straggler/rank1.trace.json'));

test("rank 1's steps where its all_reduce was last to arrive, by what its waits say", async () => {
  const model = await rank1();
  const last = (): string => LAST_TO_ARRIVE;
  assert.deepEqual(cameLast({ model, waitedFor: last }), { steps: [2, 3, 4], ops: ['all_reduce'] });
  // last in step 3 alone: step 3 alone; a wait for another rank, or one not known (null), is none
  const step3 = model.steps[1]!;
  const inStep3 = (fromUs: number): string | null =>
    fromUs >= step3.start && fromUs < step3.end ? LAST_TO_ARRIVE : 'rank 0';
  assert.deepEqual(cameLast({ model, waitedFor: inStep3 }), { steps: [3], ops: ['all_reduce'] });
  assert.deepEqual(cameLast({ model, waitedFor: () => null }), { steps: [], ops: [] });
});

test("the title's words found once for a pane's waits, again for new ones", async () => {
  const pane = { model: await rank1(), waitedFor: (): string | null => null };
  assert.equal(cameLastTitle(pane), null);
  pane.waitedFor = () => LAST_TO_ARRIVE;
  const words = cameLastTitle(pane);
  assert.equal(words?.text, 'came last to all_reduce in steps 2–4');
  assert.equal(cameLastTitle(pane), words);
});

test('the steps said as runs, in the unit the trace counts them in', () => {
  assert.equal(cameLastWords(['all_reduce'], [3], 'step').text, 'came last to all_reduce in step 3');
  assert.equal(cameLastWords(['all_reduce'], [2, 4], 'step').text, 'came last to all_reduce in steps 2 and 4');
  assert.equal(
    cameLastWords(['all_reduce', 'broadcast'], [2, 3, 5, 7, 8], 'call').text,
    'came last to all_reduce and broadcast in calls 2–3, 5 and 7–8',
  );
  assert.match(
    cameLastWords(['all_reduce'], [2, 3, 4], 'step').tooltip,
    /^In steps 2–4 this rank reached all_reduce when every other rank was already in it: their time there was a wait for this rank/,
  );
});
