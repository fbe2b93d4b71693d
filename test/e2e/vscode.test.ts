// The packaged extension in a real VS Code: the whole product path on a target with a known graph break,
// and the same extension in an untrusted workspace (no code runs, traces still open).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { generateTrace } from '../../bench/gen-trace.ts';
import { PREVIEW_MIN_EVENTS } from '../../extension/node/timelineContent.ts';
import {
  findWebviewFrame,
  makeTestWorkspace,
  openFile,
  paletteHas,
  prepareCodeServer,
  runCommand,
  startSession,
  type CodeServerEnv,
} from './codeServer.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(REPO, 'test-results');
const MODEL_FILE = 'model_with_break.py';
const BREAK_LINE_TEXT = 'print("hidden layer done")';
const BIG_TRACE = 'big.trace.json';

const PYTHON = execFileSync(
  process.env['COMPILE_LENS_PYTHON'] ?? 'python3',
  ['-c', 'import sys; print(sys.executable)'],
  {
    encoding: 'utf8',
  },
).trim();
let env: CodeServerEnv;

before(() => {
  env = prepareCodeServer();
  mkdirSync(ARTIFACTS, { recursive: true });
});

/** The panes the timeline drew (window.__timelineDebug), once `count` of them are there. */
async function drawnPanes(frame: Frame, count: number): Promise<{ label: string; kernels: number }[]> {
  interface Debug {
    __timelineDebug?: { panes: { label: string; kernels: number }[] };
  }
  await frame.waitForFunction((n) => ((window as unknown as Debug).__timelineDebug?.panes.length ?? 0) >= n, count, {
    timeout: 60_000,
  });
  return frame.evaluate(() =>
    (window as unknown as Debug).__timelineDebug!.panes.map((p) => ({ label: p.label, kernels: p.kernels })),
  );
}

function makeWorkspace(): string {
  const workspace = makeTestWorkspace(PYTHON);
  copyFileSync(
    path.join(REPO, 'test/fixtures/traces/mlp-eager.trace.json'),
    path.join(workspace, 'mlp-eager.trace.json'),
  );
  writeFileSync(
    path.join(workspace, 'broken.trace.json'),
    '{"traceEvents": [{"ph": "X", "name": "<img src=x onerror=alert(1)>", "ts": 1, "dur',
  );
  return workspace;
}

test(
  'Compile & Profile Model: report webview, hover, Problems and CodeLens on a graph break',
  { timeout: 600_000 },
  async () => {
    const workspace = makeWorkspace();
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      await openFile(page, MODEL_FILE);
      await page.locator('.codelens-decoration', { hasText: 'Compile & Profile' }).first().waitFor({ timeout: 60_000 });

      await runCommand(page, 'Compile & Profile Model');
      const frame = await findWebviewFrame(page, 'section.report', 300_000);
      const summary = await frame.locator('section.report').innerText();
      assert.match(summary, /\d+\.\d+×/, `speedup shown: ${summary}`);
      const kernelsPerPane = await drawnPanes(frame, 2);
      assert.deepEqual(
        kernelsPerPane.map((p) => p.label),
        ['eager', 'default'],
      );
      for (const pane of kernelsPerPane) assert.ok(pane.kernels > 0, `${pane.label} timeline has kernels`);
      // the README's screenshot: the editor with its graph-break squiggle and CodeLens beside the report, on a wide window
      await page.setViewportSize({ width: 2400, height: 1000 });
      await page.waitForTimeout(1000);
      await page.screenshot({ path: path.join(ARTIFACTS, 'timeline.png') });
      await page.setViewportSize({ width: 1500, height: 950 });

      // Problems panel
      await runCommand(page, 'View: Focus Problems');
      await page
        .locator('.markers-panel .monaco-list-row', { hasText: 'Graph break' })
        .first()
        .waitFor({ timeout: 30_000 });

      // Hover over the breaking line
      await openFile(page, MODEL_FILE);
      const breakingToken = page
        .locator('.monaco-editor .view-line', { hasText: BREAK_LINE_TEXT })
        .locator('span', { hasText: 'print' })
        .first();
      let hoverText = '';
      for (let attempt = 0; attempt < 10 && !hoverText; attempt++) {
        await page.mouse.move(5, 5);
        await breakingToken.hover();
        // the Problems entry shows at once; wait for the provider's part below it ("Compile Lens — "), which may come
        // later under load
        const hover = page.locator('.monaco-hover', { hasText: /Compile Lens — / }).first();
        try {
          await hover.waitFor({ state: 'visible', timeout: 5000 });
          hoverText = await hover.innerText();
        } catch {
          // hover not up yet
        }
      }
      assert.match(hoverText, /Graph break: .*print.*Compile Lens — .*Fix:/is);

      // CodeLens after the run: speedup headline, the answer first and the action last (review 4A F6)
      const answerLens = page.locator('.codelens-decoration', { hasText: '×' }).first();
      await answerLens.waitFor({ timeout: 30_000 });
      const lensLine = (await answerLens.innerText()).split('|').map((t) => t.trim());
      assert.ok(lensLine[0]!.includes('×') && lensLine.at(-1) === '▶ Compile & Profile', lensLine.join(' | '));
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-profile.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);

test(
  'untrusted workspace: profiling is refused, trace files (small, big, broken) still open in the timeline',
  { timeout: 300_000 },
  async () => {
    const workspace = makeWorkspace();
    generateTrace(path.join(workspace, BIG_TRACE), 60 * 1024 * 1024);
    const session = await startSession(env, workspace, { trusted: false, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      assert.equal(
        await paletteHas(page, 'Compile & Profile Model'),
        false,
        'profile command offered in an untrusted workspace',
      );
      await openFile(page, MODEL_FILE);
      await page.locator('.codelens-decoration a', { hasText: 'Compile & Profile' }).first().click({ timeout: 60_000 });
      await page
        .locator('.notifications-toasts', { hasText: 'only profiles in a trusted workspace' })
        .waitFor({ timeout: 30_000 });
      assert.equal(existsSync(path.join(workspace, '.compile-lens')), false, 'a run started in an untrusted workspace');
      await openFile(page, 'mlp-eager.trace.json');
      const frame = await findWebviewFrame(page, '.panes canvas', 60_000);
      const panes = await drawnPanes(frame, 1);
      assert.equal(panes.length, 1);
      assert.ok(panes[0]!.kernels > 0);

      // a big trace (past the preview threshold): its first frame is drawn from the preview, then the full load replaces it
      await openFile(page, BIG_TRACE);
      const big = await findWebviewFrame(page, '.pane-label', 120_000);
      interface Debug {
        __timelineDebug?: {
          shown: number;
          partial: boolean;
          panes: { events: number }[];
          timings: { firstDraw: number; complete: number };
        };
      }
      await big.waitForFunction(
        () => ((window as unknown as Debug).__timelineDebug?.timings.complete ?? 0) > 0,
        undefined,
        { timeout: 120_000 },
      );
      const loaded = await big.evaluate(() => (window as unknown as Debug).__timelineDebug!);
      assert.deepStrictEqual({ shown: loaded.shown, partial: loaded.partial }, { shown: 2, partial: false });
      assert.ok(
        loaded.timings.firstDraw > 0 && loaded.timings.firstDraw < loaded.timings.complete,
        'first frame before the full load',
      );
      assert.ok(loaded.panes[0]!.events >= PREVIEW_MIN_EVENTS);

      // a malformed trace: the host's scanner names the problem, the panel shows it as text
      await openFile(page, 'broken.trace.json');
      const broken = await findWebviewFrame(page, 'p.error', 60_000);
      assert.match(await broken.locator('p.error').innerText(), /truncated JSON at byte \d+/);
      assert.equal(await broken.locator('img').count(), 0);
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-untrusted.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);
