// The words a page's panes say about steps and idle stretches, at a panel's widths (560, 700, 1400 px): every step
// label says what its numbers count in every lane ("steps 2–3", never a bare "2–3" beside a time axis: review 17Y Y8)
// and begins at its own step's line (review 18Y Y6),
// the tail after the last call named as the lead-in is (review 18Y Y10),
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
import { LABEL_WIDTH } from '../../webview/timelineText.ts';
import { holdBrowser, openWebview, postPanes, ROOT } from './harness.ts';

const TRACES = path.join(ROOT, 'test', 'fixtures', 'traces');
const browser = holdBrowser();

const GRAPHBREAK: TimelineSource = {
  kind: 'traces',
  tracePaths: ['eager', 'default'].map((m) => path.join(TRACES, `cpu-graphbreak-${m}.trace.json`)),
};
const REDUCE_OVERHEAD: TimelineSource = {
  kind: 'traces',
  tracePaths: [path.join(TRACES, 'mlp-reduce-overhead.trace.json')],
};
const RANKS: TimelineSource = {
  kind: 'ranks',
  tracePaths: ['rank0', 'rank1'].map((r) => path.join(TRACES, 'ranks', 'straggler', `${r}.trace.json`)),
};
const DDP: TimelineSource = {
  kind: 'ranks',
  tracePaths: ['rank0', 'rank1'].map((r) =>
    path.join(ROOT, 'test', 'fixtures', 'reports', 'ddp-ranks-cpu', 'ranks', r, `${r}.trace.json.gz`),
  ),
};

/** Each pane's last frame of `source` at `width` px, in the whole trace's view (`all`) or the step the view opens on. */
async function frames(source: TimelineSource, width: number, view: 'all' | 'step'): Promise<FrameLayout[]> {
  const page = await stepView(source, width);
  if (view === 'all') await page.keyboard.press('0');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return layouts(page);
}

/** A page showing `source`'s panes at `width` px in the step view it opens on. */
async function stepView(source: TimelineSource, width: number): Promise<Page> {
  const page: Page = await openWebview(browser(), { width, height: 900 });
  const content = await readTimelineSource(source);
  const panes = (await sentTraces(content)).map((m: TraceMessage) => m.pane);
  await postPanes(page, content.title, content.source, panes);
  await page.waitForFunction(
    () => (window as unknown as { __timelineDebug: { marks: unknown } }).__timelineDebug.marks,
  );
  return page;
}

/** Zoomed in a quarter into the straggler's step, inside rank 1's sleep (its first 40 ms of 46), as a user would with
 *  the wheel. */
async function zoomIntoSleep(page: Page): Promise<void> {
  const canvas = page.locator('.pane canvas').nth(1);
  const box = (await canvas.boundingBox())!;
  const x = box.x + LABEL_WIDTH + (box.width - LABEL_WIDTH) * 0.3;
  for (let zoom = 0; zoom < 6; zoom++) {
    await page.mouse.move(x, box.y + 60);
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(50);
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Each pane's last frame. */
const layouts = (page: Page): Promise<FrameLayout[]> =>
  page.evaluate(() => (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts);

const said = (frame: FrameLayout, role: string): string[] =>
  frame.texts
    .filter((t) => t.role === role)
    .sort((a, b) => a.x - b.x)
    .map((t) => t.text);

describe("step and stretch labels at a panel's widths", () => {
  for (const width of [560, 700, 1400])
    test(`${width} px: every lane's step labels say what they count, each begun right of its own step's line (review 17Y Y8, 18Y Y6)`, async () => {
      const frameList = await frames(GRAPHBREAK, width, 'all');
      const [eager, compiled] = frameList.map((f) => said(f, 'step'));
      // (default's steps 2 and 3 lie 10 px apart: eager's lane read "steps 2–3", default's a bare "2–3" under it)
      for (const labels of [eager!, compiled!])
        for (const text of labels)
          assert.match(text, /^(?:before |warm-up )?steps? \d+(?:–\d+)?$/, `${width} px: ${labels.join(' │ ')}`);
      assert.ok(compiled!.includes('steps 2–3'), `${compiled!.join(' │ ')}`);
      // each label begins a few px right of a step line, the line of its first step: at 560 and 700 px eager's
      // "steps 2–3", pushed left to end at the pane's edge, began 25 and 13 px left of step 2's line, over step 1
      for (const frame of frameList) {
        const lineXs = [...new Set(frame.lines.filter((l) => l.role === 'step').map((l) => l.x))].sort((a, b) => a - b);
        for (const t of frame.texts.filter((x) => x.role === 'step' && !x.text.startsWith('before'))) {
          const line = lineXs.filter((x) => x < t.x).at(-1);
          assert.ok(
            line !== undefined && t.x - line <= 1 + 3 + 3,
            `${width} px: "${t.text}" at x ${t.x}, the step line before it at ${line} (${lineXs.join(', ')})`,
          );
        }
      }
      // (no "before step 1": its 70-odd px would begin 11 px left of where eager's profiled time does, over blank
      // axis: review 21Y Y3)
      if (width === 1400) assert.deepEqual(eager, ['warm-up step 1', 'step 2', 'step 3']);
    });

  test("the tail after the last call named where it has room, as the lead-in is: 'call 2 │ after it' in the flow's pane (review 18Y Y10)", async () => {
    // timeline-depth-flow's pane, ≈1090 px: ≈57 px right of call 2's end line held two launches and no name, "after
    // call 2" (59 px) no room; at 1400 px its name whole
    for (const [width, tail] of [
      [1130, 'after it'],
      [1400, 'after call 2'],
    ] as const) {
      const [frame] = await frames(REDUCE_OVERHEAD, width, 'all');
      const steps = said(frame!, 'step');
      assert.deepEqual(steps, ['before call 0', 'warm-up call 0', 'call 1', 'call 2', tail], `${width} px`);
      // right of the last line, within the pane
      const lastLine = Math.max(...frame!.lines.filter((l) => l.role === 'step').map((l) => l.x));
      const text = frame!.texts.find((t) => t.text === tail)!;
      assert.ok(text.x > lastLine + 1 && text.x + text.w <= frame!.width, `${width} px: ${text.x}, ${text.w}`);
    }
  });

  test("700 px: rank 0's waits in longer gaps say for how long where the long form has no room, all three in one set of words", async () => {
    const [rank0] = await frames(RANKS, 700, 'all');
    const waits = said(rank0!, 'gap');
    // ("44.5 ms idle" alone said not why; "44.5 ms idle, for rank 1" said the gap's time as the wait's: rank 1 reached
    // the all_reduce 36.8 ms after rank 0 did, the rest of rank 0's 41.7 ms in it the collective's own, review 18Z
    // Z1/Z2); step 4's has no room for "for rank 1", so none says it (waits engineer's note: "36.8 ms wait for rank
    // 1", "37.9 ms wait for rank 1", "30.6 ms wait" read as kinds of wait), as the pane's stretches with no op say
    // one word; whom in the hover
    assert.deepEqual(waits, ['36.8 ms wait', '37.9 ms wait', '30.6 ms wait'], waits.join(' | '));
  });

  test("560 px: rank 1's stretches with no op unlabelled where 'unrecorded' has no room, rank 0's waits said", async () => {
    const [rank0, rank1] = await frames(RANKS, 560, 'all');
    // never "idle": a single process's Python time between its ops read as idle (review 19 X1/Y1/Z1); the pane title
    // says rank 1 came last, the hover what each stretch is
    assert.deepEqual(said(rank1!, 'gap'), []);
    // rank 0's each its wait for rank 1, as such: narrower than the gap's "44.5 ms idle" and says more (review 18Z Z2)
    // (step 4's, in a 70 px gap, has no room: its hover says it)
    assert.deepEqual(said(rank0!, 'gap'), ['36.8 ms wait', '37.9 ms wait']);
  });

  test("the DDP step: the rank that came last says its gap unrecorded or nothing, never idle, beside the other's wait for it (review 20Z Z1)", async () => {
    for (const width of [700, 1400]) {
      const [rank0, rank1] = await frames(DDP, width, 'step');
      // rank 1 reached the all_reduce last: its 477 µs without an op are its own work, "idle" read as a wait too;
      // "477 µs unrecorded" where it has room (1400 px), else unlabelled, its hover says it
      const gaps = said(rank1!, 'gap');
      assert.deepEqual(
        gaps.filter((t) => !t.endsWith(' unrecorded')),
        [],
        `${width} px: ${gaps.join(' | ')}`,
      );
      assert.ok(
        said(rank0!, 'gap').some((t) => t.includes('wait')),
        `${width} px: ${said(rank0!, 'gap').join(' | ')}`,
      );
    }
  });

  test("the DDP step: rank 1's ruler names no time before step 1, blank on every row, its profiler's own time undrawn (review 20Y Y4)", async () => {
    const [rank0, rank1] = await frames(DDP, 1400, 'step');
    // the ranks share rank 0's axis: rank 1's step 1 begins 0.29 ms (≈118 px) right of its pane's edge, and the step
    // view draws nothing of its trace before it
    const line = Math.min(...rank1!.lines.filter((l) => l.role === 'step').map((l) => l.x));
    assert.ok(line > LABEL_WIDTH + 100, `rank 1's step 1 line at x ${line}`);
    assert.deepEqual(said(rank1!, 'step'), ['step 1']);
    assert.deepEqual(said(rank0!, 'step'), ['step 1']);
  });

  test('a pane zoomed past its work says where its ops are: rank 1 in its 40 ms sleep (review 18Y Y3)', async () => {
    const page = await stepView(RANKS, 1000);
    const notes = (): Promise<string[]> => page.locator('.pane .pane-note').allInnerTexts();
    // the step's fit: every pane shows its ops, nothing said
    assert.ok(
      (await notes()).every((n) => !n.includes('ops in view')),
      (await notes()).join(' | '),
    );
    await zoomIntoSleep(page);
    const [rank0, rank1] = await notes();
    // (its row read "40.2 ms unrecorded" across the width, nothing saying where the step's work was)
    assert.match(
      rank1!,
      /^none of its ops in view: (?:← until [\d.]+ [µm]?s, again from|they begin at) [\d.]+ ms → · /,
      rank1,
    );
    // rank 0 waits in all_reduce all that time: an op in view, nothing said
    assert.ok(!rank0!.includes('ops in view'), rank0);
  });

  test("a pane zoomed into a stretch with no op says its whole time, arrowed at the edges it runs past, never the window's width (review 20Y Y1)", async () => {
    const page = await stepView(RANKS, 1000);
    const gaps = async (): Promise<string[]> => said((await layouts(page))[1]!, 'gap');
    // the step's fit: rank 1's 40 ms sleep said whole, no arrow
    const [whole] = await gaps();
    assert.match(whole ?? '', /^[\d.]+ ms unrecorded$/);
    // inside the sleep, a few ms of it in view: its whole time (script-kernel-source read "16.1 µs unrecorded", the
    // window's width, of a 119 µs stretch), cut by both edges
    await zoomIntoSleep(page);
    assert.deepEqual(await gaps(), [`← ${whole} →`]);
  });
});
