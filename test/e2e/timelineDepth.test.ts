// Depth in the timeline, in a real VS Code with the packaged extension (no run: a CPU run's report and traces
// are placed in the workspace's runs, test/fixtures/reports/graphbreak-cpu): a range dragged across the eager
// pane gives its table and the eager vs compiled one; a graph break's Quick Fix and hover offer "Show in timeline",
// whose link zooms the report's timeline to it; an H100 trace's cudaGraphLaunch draws its arrows, and one is followed.
// Screenshots in test-results/ (timeline-depth-*.png).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import {
  findWebviewFrame,
  hoverShown,
  makeTestWorkspace,
  openFile,
  prepareCodeServer,
  runCommand,
  startSession,
  type CodeServerEnv,
} from './codeServer.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(REPO, 'test-results');
const FIXTURES = path.join(REPO, 'test', 'fixtures');
/** where the fixture run's report says its sample was */
const RUN_SAMPLE = '/work/main/native-runner/compile_lens_runner/samples/graphbreak.py';
let env: CodeServerEnv;

before(() => {
  env = prepareCodeServer();
  mkdirSync(ARTIFACTS, { recursive: true });
});

function makeWorkspace(): string {
  const workspace = makeTestWorkspace('python3');
  const sample = path.join(workspace, 'graphbreak.py');
  copyFileSync(path.join(REPO, 'native-runner/compile_lens_runner/target/samples/graphbreak.py'), sample);
  const run = path.join(workspace, '.compile-lens', 'runs', 'graphbreak-cpu');
  mkdirSync(run, { recursive: true });
  writeFileSync(
    path.join(run, 'report.json'),
    readFileSync(path.join(FIXTURES, 'reports/graphbreak-cpu/report.json'), 'utf8').replaceAll(RUN_SAMPLE, sample),
  );
  copyFileSync(path.join(FIXTURES, 'traces/cpu-graphbreak-eager.trace.json'), path.join(run, 'eager.trace.json'));
  copyFileSync(path.join(FIXTURES, 'traces/cpu-graphbreak-default.trace.json'), path.join(run, 'default.trace.json'));
  copyFileSync(
    path.join(FIXTURES, 'traces/mlp-reduce-overhead.trace.json'),
    path.join(workspace, 'mlp-reduce-overhead.trace.json'),
  );
  return workspace;
}

interface Debug {
  __timelineDebug?: {
    panes: { label: string }[];
    range: { pane: number } | null;
    focus: { pane: number; places: number } | null;
    selected: { name: string; arrows: number } | null;
    locate(p: number, n: string, k: number, g?: boolean): { x: number; y: number } | null;
  };
}

async function panesDrawn(frame: Frame, count: number): Promise<string[]> {
  await frame.waitForFunction((n) => ((window as unknown as Debug).__timelineDebug?.panes.length ?? 0) >= n, count, {
    timeout: 60_000,
  });
  return frame.evaluate(() => (window as unknown as Debug).__timelineDebug!.panes.map((p) => p.label));
}

/** Page coordinates of the nth slice `name` of pane `pane` in the webview `frame`. */
async function slicePoint(frame: Frame, pane: number, name: string, nth: number): Promise<{ x: number; y: number }> {
  const local = await frame.evaluate(([p, n, k]) => (window as unknown as Debug).__timelineDebug!.locate(p, n, k), [
    pane,
    name,
    nth,
  ] as const);
  const box = await frame.locator('canvas').nth(pane).boundingBox();
  if (!local || !box) throw new Error(`${name} not on screen`);
  return { x: box.x + local.x, y: box.y + local.y };
}

const shot = (page: Page, name: string): Promise<Buffer> =>
  page.screenshot({ path: path.join(ARTIFACTS, `timeline-depth-${name}.png`) });

test(
  "range table, Show in timeline from a graph break's hover, and launch → kernel arrows followed",
  { timeout: 600_000 },
  async () => {
    const workspace = makeWorkspace();
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      // the run's report (its findings go to Problems and hovers)
      await runCommand(page, 'Open Report');
      await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Enter');
      let frame = await findWebviewFrame(page, 'section.report', 120_000);
      assert.deepEqual(await panesDrawn(frame, 2), ['eager', 'default']);

      // Shift+drag across the eager pane's step 2, where the view opens: a warm step (step 1, the warm-up, holds
      // one-time work, which its pair would say)
      const box = (await frame.locator('canvas').first().boundingBox())!;
      await page.keyboard.down('Shift');
      await page.mouse.move(box.x + 220, box.y + 45);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + 45, { steps: 4 });
      await page.mouse.move(box.x + box.width - 30, box.y + 45, { steps: 4 });
      await page.mouse.up();
      await page.keyboard.up('Shift');
      await frame.locator('.range-summary').waitFor({ timeout: 10_000 });
      const summary = await frame.locator('.range-summary').innerText();
      assert.match(summary, /^eager: .* on its axis/);
      assert.match(summary, /CPU ops: .* \(\d+ names\)/);
      assert.match(summary, /Every CPU slice, nested calls too \(\d+ names\)/);
      // the outermost ATen ops are this CPU run's kernels, named as their slices are ("conv2d": review 11 J8)
      assert.match(
        await frame.locator('.range-summary .range-kernels').innerText(),
        /CPU ops: outermost ATen ops.*\n(.|\n)*\b(conv2d|linear|addmm)\b/,
      );
      const pair = await frame.locator('.range-pair').innerText();
      assert.match(pair, /eager → default, step 2 of each/);
      assert.doesNotMatch(pair, /one-time work/);
      assert.match(pair, /gone \(fused away or replaced\)|new/);
      // each table the test read, its heading at the top below the sticky toolbar (the panel's scroll margin)
      await frame.locator('.range-summary').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await shot(page, 'range');
      await frame.locator('.range-pair').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await shot(page, 'range-pair');

      // a graph break's hover: "Show this graph break in the timeline"
      await openFile(page, 'graphbreak.py');
      await page
        .locator('.markers-panel .monaco-list-row, .squiggly-warning')
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(() => undefined);
      const token = page
        .locator('.monaco-editor .view-line', { hasText: 'x.sum().item()' })
        .locator('span', { hasText: 'item' })
        .first();
      // the Quick Fix of its Problems entry (Ctrl+. on the line)
      await token.click();
      const quickFix = page.locator('.action-widget', { hasText: 'Show this graph break in the timeline' }).first();
      for (let attempt = 0; attempt < 5; attempt++) {
        await page.keyboard.press('Control+.');
        try {
          await quickFix.waitFor({ state: 'visible', timeout: 5000 });
          break;
        } catch {
          await page.keyboard.press('Escape');
        }
      }
      // one finding on the line: the action need not name it
      assert.match(await quickFix.innerText(), /^Show this graph break in the timeline$/m);
      await shot(page, 'quickfix');
      await page.keyboard.press('Escape');
      const link = page.locator('.monaco-hover a', { hasText: 'Show this graph break in the timeline' }).first();
      for (let attempt = 0; attempt < 10; attempt++) {
        await page.mouse.move(5, 5);
        await token.hover();
        try {
          await link.waitFor({ state: 'visible', timeout: 5000 });
          break;
        } catch {
          /* hover not up yet */
        }
      }
      // shot once faded in, not with the code showing through the hover's text (review 14S S10)
      await hoverShown(page, 'Show this graph break in the timeline');
      await shot(page, 'hover');
      await link.click();
      frame = await findWebviewFrame(page, '.focus-note', 120_000);
      await frame.waitForFunction(() => (window as unknown as Debug).__timelineDebug?.focus?.pane === 1, undefined, {
        timeout: 30_000,
      });
      const note = await frame.locator('.focus-note').innerText();
      assert.match(note, /Graph break: .*item.*\. In default at .* \(the first of 3 places/);
      await frame.locator('.focus-note').scrollIntoViewIfNeeded();
      await shot(page, 'focus');

      // an H100 trace: a cudaGraphLaunch's arrows, then one followed to its kernel
      await openFile(page, 'mlp-reduce-overhead.trace.json');
      frame = await findWebviewFrame(page, '.panes canvas', 60_000);
      await panesDrawn(frame, 1);
      await frame.locator('.panes').focus();
      await page.keyboard.press('0');
      await page.waitForTimeout(500);
      const point = await slicePoint(frame, 0, 'cudaGraphLaunch', 1);
      await page.mouse.click(point.x, point.y);
      await frame.waitForFunction(
        () => (window as unknown as Debug).__timelineDebug?.selected?.arrows === 7,
        undefined,
        { timeout: 10_000 },
      );
      // the arrows' ends in view: the launch and the GPU stream's kernels under it (the Python frames folded below
      // them), the axis below the sticky toolbar, and no tooltip over them (the pointer off the canvas)
      await page.mouse.move(5, 5);
      await frame.locator('.tooltip').waitFor({ state: 'hidden' });
      const canvas = frame.locator('canvas').first();
      await canvas.evaluate((e) => e.scrollIntoView({ block: 'start' }));
      const [top, bottom, toolbar, height] = await canvas.evaluate((e) => {
        const box = e.getBoundingClientRect();
        return [box.top, box.bottom, document.querySelector('.toolbar')!.getBoundingClientRect().bottom, innerHeight];
      });
      assert.ok(
        top >= toolbar - 1 && bottom <= height + 1,
        `canvas ${top}–${bottom}, toolbar to ${toolbar}, window ${height}`,
      );
      await shot(page, 'flow');
      await frame.locator('.details a.follow', { hasText: 'CUDA-graph replay' }).first().click();
      await frame.waitForFunction(
        () => (window as unknown as Debug).__timelineDebug?.selected?.arrows === 1,
        undefined,
        { timeout: 10_000 },
      );
      assert.match(await frame.locator('.details').innerText(), /launched by \(arrows on the timeline\): 1/);
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-timeline-depth.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);
