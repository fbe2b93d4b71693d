// The words a page's panes say about steps and idle stretches, at a panel's widths (560, 700 px): every step label
// says what its numbers count in every lane ("steps 2–3", never a bare "2–3" beside a time axis: review 17Y Y8),
// a rank's wait keeps whom it waited for where its long form has no room, and a stretch with room for its label
// carries one.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import type { TimelineSource } from '../../extension/shared/protocol.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { sentTraces, type TraceMessage } from '../sentTraces.ts';
import { holdBrowser, openWebview, postPanes, ROOT } from './harness.ts';

const TRACES = path.join(ROOT, 'test', 'fixtures', 'traces');
const browser = holdBrowser();

const GRAPHBREAK: TimelineSource = {
  kind: 'traces',
  tracePaths: ['eager', 'default'].map((m) => path.join(TRACES, `cpu-graphbreak-${m}.trace.json`)),
};
const RANKS: TimelineSource = {
  kind: 'ranks',
  tracePaths: ['rank0', 'rank1'].map((r) => path.join(TRACES, 'ranks', 'straggler', `${r}.trace.json`)),
};

/** Each pane's last frame of `source` at `width` px, in the whole trace's view (`all`) or the step the view opens on. */
async function frames(source: TimelineSource, width: number, view: 'all' | 'step'): Promise<FrameLayout[]> {
  const page: Page = await openWebview(browser(), { width, height: 900 });
  const content = await readTimelineSource(source);
  const panes = (await sentTraces(content)).map((m: TraceMessage) => m.pane);
  await postPanes(page, content.title, content.source, panes);
  await page.waitForFunction(
    () => (window as unknown as { __timelineDebug: { marks: unknown } }).__timelineDebug.marks,
  );
  if (view === 'all') await page.keyboard.press('0');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(
    () => (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts,
  );
}

const said = (frame: FrameLayout, role: string): string[] =>
  frame.texts
    .filter((t) => t.role === role)
    .sort((a, b) => a.x - b.x)
    .map((t) => t.text);

describe("step and stretch labels at a panel's widths", () => {
  for (const width of [560, 700])
    test(`${width} px: every lane's step labels say what they count, "steps 2–3" over default's steps as over eager's (review 17Y Y8)`, async () => {
      const [eager, compiled] = (await frames(GRAPHBREAK, width, 'all')).map((f) => said(f, 'step'));
      // (default's steps 2 and 3 lie 10 px apart: eager's lane read "steps 2–3", default's a bare "2–3" under it)
      for (const labels of [eager!, compiled!])
        for (const text of labels)
          assert.match(text, /^(?:before |warm-up )?steps? \d+(?:–\d+)?$/, `${width} px: ${labels.join(' │ ')}`);
      assert.ok(
        eager!.includes('steps 2–3') && compiled!.includes('steps 2–3'),
        `${eager!.join(' │ ')} / ${compiled!.join(' │ ')}`,
      );
    });

  test("700 px: rank 0's waits in longer gaps keep whom they waited for, and for how long, where the long form has no room", async () => {
    const [rank0] = await frames(RANKS, 700, 'all');
    const waits = said(rank0!, 'gap');
    // ("44.5 ms idle" alone said not why; "44.5 ms idle, for rank 1" said the gap's time as the wait's: rank 1 reached
    // the all_reduce 36.8 ms after rank 0 did, the rest of rank 0's 41.7 ms in it the collective's own, review 18Z
    // Z1/Z2)
    assert.deepEqual(waits, ['36.8 ms wait for rank 1', '37.9 ms wait for rank 1', '30.6 ms wait'], waits.join(' | '));
  });

  test("560 px: rank 1's stretches with no op, the straggler's, each labelled by its own length", async () => {
    const [rank0, rank1] = await frames(RANKS, 560, 'all');
    // (unlabelled since "gap" went: "unrecorded" has no room; "idle", the word rank 0's gaps say, has)
    assert.deepEqual(said(rank1!, 'gap'), ['40.2 ms idle', '38.6 ms idle', '40.8 ms idle']);
    // rank 0's each its wait for rank 1, as such: narrower than the gap's "44.5 ms idle" and says more (review 18Z Z2)
    // (step 4's, in a 70 px gap, has no room: its hover says it)
    assert.deepEqual(said(rank0!, 'gap'), ['36.8 ms wait', '37.9 ms wait']);
  });
});
