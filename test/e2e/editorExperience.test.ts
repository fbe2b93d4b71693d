// The editor across runs, in a real VS Code with the real runner on CPU: a script region's speedup in the panel and
// its verdict on the torch.compile line's lens, two scripts profiled one after another keep both files' findings
// (Problems), a second run of a script reuses its report tab, a script's kernel in the timeline opens its generated
// code, a notebook's finding opens its cell in the notebook editor (from Problems and from the report), the Runs view
// lists the runs with their headlines and compares the two runs of one script, and Clear Findings clears them. Every
// step leaves a screenshot in test-results/; a failure names its screenshot in the error.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import type { Report } from '../../extension/shared/report.ts';
import {
  findWebviewFrame,
  focusWorkbench,
  lensAbove,
  makeTestWorkspace,
  openFile,
  prepareCodeServer,
  runCommand,
  startSession,
  tracedKernelNames,
  type CodeServerEnv,
} from './codeServer.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(REPO, 'test-results');
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

const SCRIPT_A = `import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(32, 32)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.lin(x))
        print("between the layers")
        return torch.nn.functional.gelu(x)


model = torch.compile(Net(), backend="eager")  # its print's graph break is Dynamo's: no Inductor compile needed
with torch.inference_mode():
    for _ in range(6):
        model(torch.randn(4, 32))
`;

const NOTEBOOK = 'explore.ipynb';
const NOTEBOOK_COMPILE = 'torch.compile(MLP())';
const NOTEBOOK_COMPILE_EAGER = 'torch.compile(MLP(), backend="eager")';
/** the same line as the .ipynb's JSON string holds it */
const NOTEBOOK_COMPILE_EAGER_JSON = JSON.stringify(NOTEBOOK_COMPILE_EAGER).slice(1, -1);

/** b_item.py: the script whose run test/fixtures/traces/profiled-copy-cpu recorded (its timeline's kernel names). */
const SCRIPT_B = readFileSync(path.join(REPO, 'test/fixtures/traces/profiled-copy-cpu/b_item.py'), 'utf8');

function makeWorkspace(): string {
  const workspace = makeTestWorkspace(PYTHON);
  writeFileSync(path.join(workspace, 'a_print.py'), SCRIPT_A);
  writeFileSync(path.join(workspace, 'b_item.py'), SCRIPT_B);
  // the notebook's break, its cell and line are Dynamo's: its model compiles with the eager backend (no Inductor
  // compile), the workspace's own copy left as scriptRegions.test.ts's recorded run of it has it
  const notebook = path.join(workspace, NOTEBOOK);
  writeFileSync(notebook, readFileSync(notebook, 'utf8').replace(NOTEBOOK_COMPILE, NOTEBOOK_COMPILE_EAGER_JSON));
  // scripts are measured in the mode they compile with: no what-if modes (the shared settings set modes)
  writeFileSync(
    path.join(workspace, '.vscode/settings.json'),
    JSON.stringify({ 'compileLens.pythonPath': PYTHON, 'compileLens.device': 'cpu', 'compileLens.quick': true }),
  );
  return workspace;
}

/** The folder of the newest report of `script` under the workspace's runs. */
function runDirOf(workspace: string, script: string): string {
  const runs = path.join(workspace, '.compile-lens', 'runs');
  const reports = readdirSync(runs)
    .map((d) => path.join(runs, d))
    .filter((d) => existsSync(path.join(d, 'report.json')))
    .map((dir) => ({ dir, report: JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as Report }))
    .filter(({ report }) => report.target.file?.endsWith(script));
  return reports.sort((a, b) => b.report.createdAt.localeCompare(a.report.createdAt))[0]!.dir;
}

/** The newest report of `script` under the workspace's runs. */
function reportOf(workspace: string, script: string): Report {
  return JSON.parse(readFileSync(path.join(runDirOf(workspace, script), 'report.json'), 'utf8')) as Report;
}

async function shot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS, name);
  await page.screenshot({ path: file });
  return file;
}

async function problems(page: Page): Promise<string[]> {
  await runCommand(page, 'View: Focus Problems');
  await page.locator('.markers-panel').waitFor({ timeout: 30_000 });
  return page.locator('.markers-panel .monaco-list-row').allInnerTexts();
}

async function waitForProblem(page: Page, text: RegExp, timeout = 60_000): Promise<void> {
  await runCommand(page, 'View: Focus Problems');
  await page.locator('.markers-panel .monaco-list-row', { hasText: text }).first().waitFor({ timeout });
}

/**
 * Brings a file to the front: its tab when it has one (Quick Open would also match the generated code of its run,
 * whose path names the script, and rank it first as recently opened), else Quick Open.
 */
async function showFile(page: Page, name: string): Promise<void> {
  const tab = page
    .locator('.tabs-container .tab', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace('.', '\\.')}$`) }),
    })
    .first();
  if (await tab.count()) {
    await tab.click();
    await page
      .locator(`.tabs-container .tab.active[data-resource-name="${name}"]`)
      .first()
      .waitFor({ timeout: 30_000 });
    return;
  }
  await openFile(page, name);
}

/** The reports of `script` the workspace's runs folder holds. */
function reportCount(workspace: string, script: string): number {
  const runs = path.join(workspace, '.compile-lens', 'runs');
  if (!existsSync(runs)) return 0;
  return readdirSync(runs).filter(
    (d) => d.startsWith(`${script.replace(/\.\w+$/, '')}-`) && existsSync(path.join(runs, d, 'report.json')),
  ).length;
}

/** Profiles the script, waits for its new report and its report panel; the report frame. */
async function profileScript(
  page: Page,
  workspace: string,
  file: string,
  command = 'Compile & Profile Script',
): Promise<Frame> {
  const before = reportCount(workspace, file);
  await showFile(page, file);
  await runCommand(page, command);
  // the run is over when its report is in place (a rerun's tab is already there)
  const deadline = Date.now() + 300_000;
  while (reportCount(workspace, file) === before) {
    if (Date.now() > deadline) throw new Error(`no new report of ${file} within 300 s`);
    await page.waitForTimeout(500);
  }
  await page
    .locator('.tabs-container .tab', { hasText: `Compile Lens: ${path.basename(file, path.extname(file))}` })
    .first()
    .waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000); // the panel reloads with the new report
  return findWebviewFrame(page, 'section.regions', 120_000);
}

test(
  'findings of two scripts stay; a rerun reuses its tab; a script kernel opens its code; a notebook finding opens its cell; the Runs view',
  { timeout: 900_000 },
  async () => {
    const workspace = makeWorkspace();
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    let step = 'start';
    try {
      step = 'profile a_print.py';
      const aFrame = await profileScript(page, workspace, 'a_print.py');
      // the real runner's region: its speedup in the panel, and its lens on the torch.compile line leading with the
      // verdict and the number it rests on (scriptRegions.test.ts asserts the lens's place on a recorded run)
      const region = await aFrame.locator('section.region').first().innerText();
      assert.match(region, /^Net — a_print\.py:\d+/); // said by its name, no region id (D22)
      assert.match(region, /\d+\.\d+×/, `a measured speedup in the panel: ${region}`);
      await showFile(page, 'a_print.py');
      const { lens, gap } = await lensAbove(page, 'model = torch.compile(Net()', /\d+\.\d+×/, 60_000);
      assert.match(
        await lens.innerText(),
        /^(?:compile it|stay eager|no verdict|compile for longer runs): (?:too noisy to say, |too few blocks to say, |(?:slower|faster) by a noisy amount, )?\d+\.\d+×/m,
        'the lens leads with the verdict and the number it rests on (the in-situ steps, else the replay), one too noisy to say after those words',
      );
      assert.ok(gap >= -1 && gap < 8, `the region lens sits above the torch.compile line (gap ${gap}px)`);
      await shot(page, 'script-region-lens-real.png');
      await waitForProblem(page, /Graph break/);
      step = 'profile b_item.py';
      const frame = await profileScript(page, workspace, 'b_item.py');
      await waitForProblem(page, /Tensor\.item\(\)/);
      // point 1: b's run did not clear a's findings
      const rows = await problems(page);
      await shot(page, 'two-files-problems.png');
      assert.ok(
        rows.some((r) => r.includes('a_print.py')) && rows.some((r) => r.includes('b_item.py')),
        `both files in Problems: ${rows.join(' | ')}`,
      );
      assert.ok(
        rows.some((r) => /builtin.*print|print/.test(r)),
        "a_print.py's print break is still listed",
      );

      // point 2: a kernel of the script's region, selected in the timeline, opens its generated code
      step = 'script kernel → generated code';
      const kernels = reportOf(workspace, 'b_item.py')
        .modes.find((m) => m.mode === 'script')!
        .compiler!.kernels!.filter((k) => k.name.startsWith('cpp_fused'));
      assert.ok(kernels.length > 0, 'the script report lists its generated kernels');
      const paneLabels = await frame.locator('.pane-label').allInnerTexts();
      const pane = paneLabels.findIndex((l) => l.startsWith("scale, compiled with torch.compile's defaults"));
      assert.ok(pane >= 0, `a compiled pane of r0: ${paneLabels.join(' | ')}`);
      const canvas = frame.locator('.pane canvas').nth(pane);
      await canvas.scrollIntoViewIfNeeded();
      interface Locate {
        __timelineDebug: { locate(p: number, n: string, k: number): { x: number; y: number } | null };
      }
      const names = tracedKernelNames(
        runDirOf(workspace, 'b_item.py'),
        kernels.map((k) => k.name),
      );
      const locate = () =>
        frame.evaluate(
          ([p, all]) =>
            all.map((n) => (window as unknown as Locate).__timelineDebug.locate(p, n, 0)).find(Boolean) ?? null,
          [pane, names] as const,
        );
      // the kernel is a sliver of the step: zoom in on it with the wheel, as a user would, then click it
      for (let zoom = 0; zoom < 8; zoom++) {
        const at = await locate();
        const box = await canvas.boundingBox();
        assert.ok(at && box, `a generated kernel is drawn in pane ${pane}`);
        await page.mouse.move(box.x + at.x, box.y + at.y);
        await page.mouse.wheel(0, -300);
        await page.waitForTimeout(100);
      }
      const point = await locate();
      assert.ok(point, `a generated kernel is drawn in pane ${pane} after zooming in`);
      await canvas.click({ position: point });
      const source = frame.locator('.kernel-source', { hasText: 'Generated by Inductor' });
      await source.waitFor({ timeout: 10_000 });
      assert.match(await source.innerText(), /your lines\s+b_item\.py:\d+/);
      await shot(page, 'script-kernel-source.png');
      await frame.locator('.kernel-source vscode-button.open-code').click();
      await page
        .locator('.tabs-container .tab.active[data-resource-name="output_code.py"]')
        .waitFor({ timeout: 30_000 });
      await page
        .locator('.codelens-decoration', { hasText: /fuses line/ })
        .first()
        .waitFor({ timeout: 30_000 });
      await shot(page, 'script-kernel-generated-code.png');

      // point 8: a second run of b_item.py shows in its own tab again, not a third one
      step = 'rerun b_item.py';
      await profileScript(page, workspace, 'b_item.py');
      const reportTabs = await page.locator('.tabs-container .tab', { hasText: 'Compile Lens:' }).count();
      assert.equal(reportTabs, 2, 'one report tab per script');

      // point 8: the Compiler view follows the report tab that becomes active
      step = 'Compiler view follows the active report';
      const compilerHeader = page.locator('.pane-header', { hasText: 'Compile Lens: Compiler' });
      const compilerPane = page.locator('.pane', { has: compilerHeader });
      // on a busy host the rerun's panel may still be reloading and reveal itself after the click: the view then
      // rightly follows b_item's tab, so a_print's tab is made active again until the view shows it
      for (let attempt = 1; ; attempt++) {
        await page.locator('.tabs-container .tab', { hasText: 'Compile Lens: a_print' }).first().click();
        await focusWorkbench(page);
        if ((await compilerHeader.getAttribute('aria-expanded')) !== 'true') await compilerHeader.click();
        try {
          await compilerPane
            .locator('.monaco-list-row', { hasText: 'a_print.py' })
            .first()
            .waitFor({ timeout: 15_000 });
          break;
        } catch (e) {
          if (attempt === 3) throw e;
        }
      }
      assert.equal(
        await compilerPane.locator('.monaco-list-row', { hasText: 'b_item.py' }).count(),
        0,
        "b_item's compiles are gone from the view",
      );
      await shot(page, 'compiler-view-follows-report.png');

      // point 4: a notebook's finding is in Problems with its cell, and opens the cell in the notebook editor
      step = 'notebook';
      await openFile(page, 'explore.ipynb');
      await page
        .locator('.notebook-editor .monaco-editor .view-line', { hasText: `model = ${NOTEBOOK_COMPILE_EAGER}` })
        .first()
        .waitFor({ timeout: 60_000 });
      await profileScript(page, workspace, 'explore.ipynb', 'Compile & Profile Model');
      await waitForProblem(page, /\(cell 3, line 7\)/);
      const notebookRow = page.locator('.markers-panel .monaco-list-row', { hasText: /\(cell 3, line 7\)/ }).first();
      await shot(page, 'notebook-problems.png');
      await showFile(page, 'a_print.py'); // away from the notebook, so opening the finding must bring it back
      await runCommand(page, 'View: Focus Problems');
      await notebookRow.dblclick();
      await page
        .locator('.tabs-container .tab.active[data-resource-name="explore.ipynb"]')
        .first()
        .waitFor({ timeout: 30_000 });
      // the notebook editor, at the cell (the status bar counts cells from 1) and its line, selected
      await page.waitForFunction(
        () => (document.querySelector('.statusbar')?.textContent ?? '').includes('Cell 3 of 4'),
        undefined,
        { timeout: 10_000 },
      );
      await page
        .locator('.notebook-editor .monaco-editor.focused .view-line', { hasText: 'if h.mean().item() > 0:' })
        .first()
        .waitFor({ timeout: 10_000 });
      assert.equal(
        await page.locator('.monaco-editor .view-line', { hasText: '"cell_type"' }).count(),
        0,
        'the notebook editor, not the .ipynb text',
      );
      await shot(page, 'notebook-finding-opens-cell.png');
      // the report's graph-break link, likewise
      const notebookReport = await findWebviewFrame(page, 'section.report .breaks', 60_000);
      const breakLink = notebookReport
        .locator('section.report .breaks button.link', { hasText: 'explore.ipynb cell 3, line 7' })
        .first();
      await showFile(page, 'a_print.py');
      await breakLink.click();
      await page
        .locator('.tabs-container .tab.active[data-resource-name="explore.ipynb"]')
        .first()
        .waitFor({ timeout: 30_000 });
      await page.waitForFunction(
        () => (document.querySelector('.statusbar')?.textContent ?? '').includes('Cell 3 of 4'),
        undefined,
        { timeout: 10_000 },
      );
      // in the group that has it open: no second editor of the notebook
      assert.equal(await page.locator('.tabs-container .tab', { hasText: 'explore.ipynb' }).count(), 1);

      // point 8: the Runs view lists the runs with their headlines
      step = 'Runs view';
      await focusWorkbench(page);
      await runCommand(page, 'Explorer: Focus on Compile Lens: Runs View');
      const runsPane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Compile Lens: Runs' }) });
      await runsPane.locator('.monaco-list-row', { hasText: 'explore.ipynb' }).first().waitFor({ timeout: 30_000 });
      const runs = await runsPane.locator('.monaco-list-row').allInnerTexts();
      await shot(page, 'runs-view.png');
      assert.equal(
        runs.filter((r) => r.includes('b_item.py')).length,
        2,
        `both runs of b_item.py: ${runs.join(' | ')}`,
      );
      // each named with its time before its headline, where a narrow view keeps it (reportC J10)
      assert.ok(
        runs.filter((r) => r.includes('b_item.py')).every((r) => /b_item\.py \d\d:\d\d:\d\d/.test(r)),
        runs.join(' | '),
      );
      assert.ok(
        runs.some((r) => r.includes('a_print.py') && r.includes(' — Net')),
        'a run with its headline, the answer first',
      );
      assert.ok(existsSync(path.join(workspace, '.compile-lens', '.gitignore')), '.compile-lens is git-ignored');
      assert.equal(
        await page.locator('.explorer-folders-view .monaco-list-row', { hasText: '.compile-lens' }).count(),
        0,
        '.compile-lens is not in the Explorer',
      );

      // the two runs of b_item.py selected together, "Compare with…": both side by side in a panel of
      // their own
      step = 'Compare runs';
      const bRuns = runsPane.locator('.monaco-list-row', { hasText: 'b_item.py' });
      await bRuns.nth(0).click();
      await bRuns.nth(1).click({ modifiers: ['Control'] });
      const compare = page.locator('.context-view .monaco-menu .action-item', { hasText: 'Compare with…' }).first();
      for (let attempt = 0; attempt < 10; attempt++) {
        await bRuns.nth(1).click({ button: 'right' });
        try {
          await compare.waitFor({ timeout: 3000 });
          break;
        } catch {
          await page.keyboard.press('Escape');
        }
      }
      await page.waitForTimeout(500); // a menu ignores the mouse for a moment after it opens
      await compare.click();
      const comparison = await findWebviewFrame(page, 'h1:has-text("Compare b_item.py")', 60_000);
      const compared = await comparison.locator('body').innerText();
      // each region by its function and line, each run's answer on a line of its own, in the runner's words
      assert.match(compared, /scale \(line \d+\)/, 'the region, matched across the runs');
      assert.match(compared, /^before\s+\S.*×/m);
      assert.match(compared, /^after\s+\S.*×/m);
      assert.match(compared, /Graph breaks and recompiles/);
      // a CPU run's replay counts its CPU ops per call, as the panel's replay column (review 18Y Y1: "kernels / step")
      assert.match(compared, /CPU ops \/ call/);
      assert.doesNotMatch(compared, /kernels \/ (step|call)/);
      // no region id, and no date for today's runs (report4B P13: rows ended "— r0 scale", with full dates)
      assert.doesNotMatch(compared, /— r\d|\d{4}-\d\d-\d\d/);
      // a number with its unit, and a range, on one line each (report4B M13: "(0.40– / 1.23×)" in a third-width
      // column)
      const broken = await comparison.evaluate(() =>
        [...document.querySelectorAll('.whole')].filter((n) => n.getClientRects().length > 1).map((n) => n.textContent),
      );
      assert.deepEqual(broken, []);
      assert.ok(await comparison.locator('.whole', { hasText: /\d×/ }).count(), 'a speedup, kept whole');
      // its tab says what it compares, at the times the runs' rows say (report4B M13: "Preview Compile Lens: compare …")
      const compareTab = page
        .locator('.tabs-container .tab', { hasText: /Compare b_item \d\d:\d\d:\d\d → \d\d:\d\d:\d\d/ })
        .first();
      await compareTab.waitFor({ timeout: 10_000 });
      // the mouse off the Runs view's row it opened from, whose hover would cover the view in the shot: onto the title
      // bar (a move into the panel's frame leaves the workbench's hover up)
      await page.mouse.move(200, 12);
      await page
        .locator('.monaco-hover, .workbench-hover')
        .first()
        .waitFor({ state: 'hidden', timeout: 5000 })
        .catch(() => {});
      await shot(page, 'runs-compare.png');

      // Clear Findings
      step = 'Clear Findings';
      await runCommand(page, 'Compile Lens: Clear Findings');
      await runCommand(page, 'View: Focus Problems');
      await page.waitForFunction(() => !document.querySelector('.markers-panel .monaco-list-row'), undefined, {
        timeout: 10_000,
      });
    } catch (error) {
      const file = await shot(page, 'failure-editor-experience.png').catch(() => 'none');
      if (error instanceof Error) error.message = `${step}: ${error.message}\n  screenshot: ${file}`;
      throw error;
    } finally {
      await session.close();
    }
  },
);
