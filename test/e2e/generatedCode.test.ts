// The packaged extension in a real VS Code, on a recorded CPU profile of a model whose two lines Inductor fuses into one
// C++ kernel (test/fixtures/reports/fused-cpu, placed in the workspace's runs: editorExperience.test.ts opens the
// generated code of a real run's kernel): open that compile's generated code from the Compiler view (read-only), see
// the kernel's CodeLens "fuses lines 12, 13 (...)", follow it back to the user's line; the hover on that line links to
// the generated code again; the recompile's failed guard opens highlighted in the first compile's guards; the kernel
// selected in the timeline opens its generated code at its line.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Report } from '../../extension/shared/report.ts';
import {
  findWebviewFrame,
  focusWorkbench,
  hoverShown,
  openFile,
  prepareCodeServer,
  runCommand,
  startSession,
  tracedKernelNames,
  type CodeServerEnv,
} from './codeServer.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(REPO, 'test-results');
const FUSED_RUN = path.join(REPO, 'test/fixtures/reports/fused-cpu');
/** where the recorded run's files say its script was */
const RUN_SCRIPT = '/tmp/fusedsrc/fused.py';
let env: CodeServerEnv;

before(() => {
  env = prepareCodeServer();
  mkdirSync(ARTIFACTS, { recursive: true });
});

function makeWorkspace(): string {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'cl-ws-code-'));
  // lines 12-13 fuse into one C++ kernel; warmup at batch 8, timed at 16 with dynamic=False: a recompile
  const script = path.join(workspace, 'fused.py');
  copyFileSync(path.join(FUSED_RUN, 'fused.py'), script);
  // the recorded run's folder, its files naming the workspace's script
  const run = path.join(workspace, '.compile-lens', 'runs', 'fused-cpu');
  for (const file of readdirSync(FUSED_RUN, { recursive: true, encoding: 'utf8' })) {
    const from = path.join(FUSED_RUN, file);
    if (file === 'fused.py' || statSync(from).isDirectory()) continue;
    mkdirSync(path.dirname(path.join(run, file)), { recursive: true });
    writeFileSync(path.join(run, file), readFileSync(from, 'utf8').replaceAll(RUN_SCRIPT, script));
  }
  mkdirSync(path.join(workspace, '.vscode'));
  writeFileSync(
    path.join(workspace, '.vscode/settings.json'),
    // no code runs: the interpreter is never asked for
    JSON.stringify({ 'compileLens.pythonPath': 'python3', 'compileLens.device': 'cpu' }),
  );
  return workspace;
}

/** The recorded run's report, as placed in the workspace. */
function runReport(workspace: string): Report {
  const runs = path.join(workspace, '.compile-lens', 'runs');
  const [run] = readdirSync(runs);
  return JSON.parse(readFileSync(path.join(runs, run!, 'report.json'), 'utf8')) as Report;
}

const kernelCodeLine = (workspace: string, compileId: string): number | null | undefined =>
  runReport(workspace).modes[0]!.compiler!.kernels!.find(
    (k) => k.compileId === compileId && k.name.startsWith('cpp_fused'),
  )?.codeLine;

const failedGuardLine = (workspace: string): number | null | undefined =>
  runReport(workspace).modes[0]!.compiler!.compiles!.find((c) => c.compileId === '0/1')?.failedGuards[0]?.line;

/** The cursor's 1-based line, from the status bar ("Ln 12, Col 1"). */
async function cursorLine(page: Page): Promise<number> {
  const text = await page
    .locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ })
    .first()
    .innerText();
  return Number(/Ln (\d+)/.exec(text)![1]);
}

/** A row of the Compiler view, scrolled into its (short) pane: the tree renders only the rows in view. */
async function compilerRow(page: Page, text: string): Promise<ReturnType<Page['locator']>> {
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Compile Lens: Compiler' }) });
  const row = pane.locator('.monaco-list-row', { hasText: text }).first();
  for (let attempt = 0; attempt < 40 && !(await row.count()); attempt++) {
    await pane.locator('.monaco-list').hover();
    await page.mouse.wheel(0, 60);
    await page.waitForTimeout(100);
  }
  return row;
}

/** Hovers the line of the active editor that contains `text` until a hover with `expect` shows; its text. */
async function hoverLine(page: Page, text: string, expect: string): Promise<string> {
  const token = page.locator('.monaco-editor .view-line', { hasText: text }).locator('span', { hasText: 'h' }).first();
  for (let attempt = 0; attempt < 10; attempt++) {
    await page.mouse.move(5, 5);
    await token.hover();
    const hover = page.locator('.monaco-hover', { hasText: expect }).first();
    try {
      await hover.waitFor({ state: 'visible', timeout: 3000 });
      return await hover.innerText();
    } catch {
      // hover not up yet
    }
  }
  throw new Error(`no hover with ${expect}`);
}

test(
  "generated code from the Compiler view and the timeline, its kernel CodeLens back to the user's line, the hover back to the code, the failed guard highlighted",
  { timeout: 600_000 },
  async () => {
    const workspace = makeWorkspace();
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      await openFile(page, 'fused.py');
      // the run's report
      await runCommand(page, 'Open Report');
      await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Enter');
      const frame = await findWebviewFrame(page, 'section.report', 120_000);
      // the report panel shows where compile time went
      await frame.locator('details.compile-phases[data-mode="default"]').waitFor({ timeout: 30_000 });

      // the Compiler view: the compile's "Generated code" entry
      await focusWorkbench(page);
      const header = page.locator('.pane-header', { hasText: 'Compile Lens: Compiler' });
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      const entry = page.locator('.monaco-list-row', { hasText: 'Inductor output code' }).first();
      await entry.waitFor({ timeout: 30_000 });
      await entry.click();
      await page
        .locator('.tabs-container .tab.active[data-resource-name="output_code.py"]')
        .waitFor({ timeout: 30_000 });

      // the kernel's CodeLens in the generated code, and the code is read-only
      const lens = page.locator('.codelens-decoration a', { hasText: 'fuses lines 12, 13 (add, mul, relu)' }).first();
      await lens.waitFor({ timeout: 30_000 });
      await page
        .locator('.monaco-editor .view-line', { hasText: 'cpp_fused_add_mul_relu_0 = async_compile' })
        .first()
        .click({ position: { x: 2, y: 5 } });
      await page.keyboard.type('x');
      await page
        .locator('.monaco-editor-overlaymessage', { hasText: /read-only|Cannot edit/i })
        .waitFor({ timeout: 10_000 });
      assert.equal(await page.locator('.tabs-container .tab.active.dirty').count(), 0, 'the generated code was edited');
      // the read-only message sits over the lenses until the cursor moves (on a busy host it outlives the click's wait)
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowDown');
      await page.locator('.monaco-editor-overlaymessage').waitFor({ state: 'detached', timeout: 10_000 });
      // the generated code with its kernel's lens, the message gone (it covered the lens in the picture)
      await page.screenshot({ path: path.join(ARTIFACTS, 'generated-code.png') });

      // the lens lands on the user's first fused line
      await lens.click();
      await page.locator('.tabs-container .tab.active[data-resource-name="fused.py"]').waitFor({ timeout: 30_000 });
      await page.waitForFunction(
        () => (document.querySelector('.statusbar')?.textContent ?? '').includes('Ln 12, Col 1'),
        undefined,
        { timeout: 10_000 },
      );
      assert.equal(await cursorLine(page), 12);
      await page.screenshot({ path: path.join(ARTIFACTS, 'generated-code-back-to-line.png') });

      // the hover on that line names the kernel and links to its generated code
      const hover = await hoverLine(page, 'h = h * 2.0 + 1.0', 'compiled into');
      // the kernel in the runner's words, by its graph, place and lines, Inductor's name for it beside that
      assert.match(hover, /fused C\+\+ function 1\b[^\n]*\(lines 12, 13\)[^\n]*cpp_fused_add_mul_relu_0/);
      // its time is the profiled steps', said so: not a second time per call beside the timed one
      assert.match(hover, /\d (µs|ms)\/step under the profiler/);
      // the hover fades in: shot once it and what holds it are opaque, not with the code showing through its text
      await hoverShown(page, 'compiled into');
      await page.screenshot({ path: path.join(ARTIFACTS, 'compiled-line-hover.png') });
      await page.locator('.monaco-hover a', { hasText: 'Open generated code' }).first().click();
      await page
        .locator('.tabs-container .tab.active[data-resource-name="output_code.py"]')
        .waitFor({ timeout: 30_000 });
      const line = await cursorLine(page);
      assert.match(
        await page
          .locator('.monaco-editor .view-line')
          .filter({ hasText: 'cpp_fused_add_mul_relu_0 = async_compile' })
          .first()
          .innerText(),
        /cpp_fused_add_mul_relu_0/,
      );
      assert.ok(line > 1, `opened at the kernel's line, not the top (line ${line})`);

      // the recompile's failed guard: the runner's sentence leads its row; its child opens the first compile's guards
      // at the TENSOR_MATCH on x, highlighted
      await focusWorkbench(page);
      const why = await compilerRow(page, 'Why forward was not reused');
      assert.match(await why.innerText(), /\bx\b.*\b8\b.*\b16\b/s, 'the sentence says what changed, before the dump');
      // its child, by keyboard: in a short Compiler view the child row lies below the pane's edge (the list scrolls
      // itself to a focused row, not to a DOM scroll), under the sentence's tooltip
      await why.click();
      if ((await why.getAttribute('aria-expanded')) === 'false') await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      const focused = page.locator('.pane .monaco-list-row.focused', { hasText: "raw guard (PyTorch's words)" });
      await focused.waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab.active[data-resource-name="guards.txt"]').waitFor({ timeout: 30_000 });
      const guard = page.locator('.monaco-editor .view-line', { hasText: "TENSOR_MATCH: check_tensor(L['x']" }).first();
      await guard.waitFor({ timeout: 10_000 });
      assert.match(await guard.innerText(), /size=\[8,\s64\]/); // the editor renders spaces as no-break spaces
      assert.equal(await cursorLine(page), failedGuardLine(workspace));
      await page.waitForTimeout(500);
      await page.screenshot({ path: path.join(ARTIFACTS, 'failed-guard.png') });

      // the timeline: the C++ kernel that ran (compile 0/1), its "Open generated code"
      const canvas = frame.locator('.pane canvas').nth(1);
      await canvas.scrollIntoViewIfNeeded();
      interface Locate {
        __timelineDebug: { locate(p: number, n: string, k: number): { x: number; y: number } | null };
      }
      const runs = path.join(workspace, '.compile-lens', 'runs');
      const kernel = runReport(workspace).modes[0]!.compiler!.kernels!.find(
        (k) => k.compileId === '0/1' && k.name.startsWith('cpp_fused'),
      )!.name;
      const [kernelName, ...others] = tracedKernelNames(path.join(runs, readdirSync(runs)[0]!), [kernel]);
      assert.ok(kernelName && !others.length, `one traced name for ${kernel}: ${[kernelName, ...others].join(', ')}`);
      // the kernel may be a sliver of the step (panes share one time axis, and eager's step can be many times longer on
      // a busy host): zoom in on it with the wheel, as a user would, then click it
      const locate = () =>
        frame.evaluate((name) => (window as unknown as Locate).__timelineDebug.locate(1, name, 0), kernelName);
      for (let zoom = 0; zoom < 8; zoom++) {
        const at = await locate();
        const box = await canvas.boundingBox();
        assert.ok(at && box, `the fused kernel ${kernelName} is drawn in the default pane`);
        await page.mouse.move(box.x + at.x, box.y + at.y);
        await page.mouse.wheel(0, -300);
        await page.waitForTimeout(100);
      }
      const point = await locate();
      assert.ok(point, `the fused kernel ${kernelName} is drawn in the default pane after zooming in`);
      await canvas.click({ position: point });
      await frame
        .locator('.kernel-source', {
          hasText: "Generated by Inductor for forward, recompiled for x's size 16 in dimension 0",
        })
        .waitFor({ timeout: 10_000 });
      await frame.locator('.kernel-source vscode-button.open-code').click();
      await page
        .locator('.tabs-container .tab.active[data-resource-name="output_code.py"]')
        .waitFor({ timeout: 30_000 });
      await page.waitForTimeout(500);
      assert.equal(await cursorLine(page), kernelCodeLine(workspace, '0/1'));
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-generated-code.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);
