// Scripts and notebooks in a real VS Code: "Compile & Profile Model" on a file with torch.compile and no compile
// target runs it as a script, and each region's result lands as a CodeLens on its torch.compile line.
// - With a stub interpreter that answers with a run of the same file recorded on a CPU (test/fixtures/recorded/,
//   through test/fixtures/stub-runner/python): the editor side, for scripts, notebooks and a file with neither, and a
//   verdict to compile (gated_service.py, recorded on a quiet host: this contended one's runs end in no verdict).
// The real runner's region lens, on a script's torch.compile line: editorExperience.test.ts (a_print.py).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { lensTitle } from '../../extension/present/lensLine.ts';
import {
  findWebviewFrame,
  lensAbove,
  makeTestWorkspace,
  openFile,
  prepareCodeServer,
  runCommand,
  startSession,
  stubInterpreter,
  type CodeServerEnv,
} from './codeServer.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(REPO, 'test-results');
const FIXTURES = path.join(REPO, 'test/fixtures');
const SCRIPT = 'serve_script.py';
const NOTEBOOK = 'explore.ipynb';
// a run recorded on a quiet host where compiling pays: the verdict as a user sees it (CPU runs here are too contended)
const SERVICE = 'gated_service.py';
const SERVICE_LINE = 'model = torch.compile(nn.Sequential(GatedBlock(1024), GatedBlock(1024)))';
const COMPILE_LINE = 'model = torch.compile(TinyTransformer())';
const SPEEDUP_LENS = /\d+\.\d+×/;
const RECORDED = path.join(FIXTURES, 'recorded');

/** The recorded run's one region: its headline and its answer in full. */
function recordedRegion(folder: string): {
  headline: string;
  answer: { sentence: string; number: { text?: string } | null };
} {
  const report = JSON.parse(readFileSync(path.join(RECORDED, folder, 'report.json'), 'utf8')) as {
    regions: { headline: string; answer: { sentence: string; number: { text?: string } | null } }[];
  };
  assert.equal(report.regions.length, 1, 'the recorded script has one torch.compile region');
  return report.regions[0]!;
}

/** The recorded run's one region's headline, as its CodeLens says it (cut to fit). */
const recordedLens = (folder: string): string => {
  const { headline, answer } = recordedRegion(folder);
  return lensTitle(headline, answer.number?.text);
};

/** The titles of the editor tabs. */
const tabTitles = (page: Page): Promise<string[]> => page.locator('.tab .label-name').allInnerTexts();

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

function makeWorkspace(pythonPath: string): string {
  const workspace = makeTestWorkspace(pythonPath);
  writeFileSync(path.join(workspace, 'plain.py'), 'import torch\n\nprint(torch.ones(2) * 2)\n');
  return workspace;
}

test(
  "recorded run: a script with torch.compile and no target runs as a script; its region's result sits on the torch.compile line",
  { timeout: 600_000 },
  async () => {
    const argsLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-stub-')), 'args.jsonl');
    writeFileSync(argsLog, '');
    const stub = stubInterpreter({
      COMPILE_LENS_STUB_ARGS: argsLog,
      COMPILE_LENS_STUB_PYTHON: PYTHON,
      COMPILE_LENS_STUB_REPORT: JSON.stringify({
        [SCRIPT]: path.join(RECORDED, 'serve_script-cpu'),
        [NOTEBOOK]: path.join(RECORDED, 'explore-cpu'),
        [SERVICE]: path.join(RECORDED, 'gated_service-cpu'),
      }),
    });
    const workspace = makeWorkspace(stub);
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      // a file with neither a target nor torch.compile: explained, samples offered by name, nothing runs
      await openFile(page, 'plain.py');
      await runCommand(page, 'Compile & Profile Model');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 30_000 });
      const explained = await dialog.innerText();
      assert.match(explained, /plain\.py has no compile target and no torch\.compile call/);
      assert.match(explained, /def compile_target\(\):/);
      assert.match(explained, /Profile sample 'gatedblock'/);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(readFileSync(argsLog, 'utf8'), '', 'nothing ran');

      await openFile(page, SCRIPT);
      const before = await lensAbove(page, COMPILE_LINE, /Compile & Profile Script/, 60_000);
      assert.ok(
        before.gap >= -1 && before.gap < 8,
        `the script lens sits above the torch.compile line (gap ${before.gap}px)`,
      );
      await runCommand(page, 'Compile & Profile Model');
      const frame = await findWebviewFrame(page, 'section.regions', 120_000);
      const region = frame.locator('section.region[data-region="r0"]');
      assert.match(await region.locator('h3').innerText(), /^TinyTransformer — serve_script\.py:17$/);
      // the recorded run of this file: 64 calls of range(64), compiled once
      assert.match(await region.locator('p.region-facts').innerText(), /^64 calls · 1 graph · /);
      assert.match(await region.locator('p.story').innerText(), /^Call 0 compiled \(\d+(\.\d+)? s\)\./);
      const [launched] = readFileSync(argsLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string[]);
      assert.equal(launched![launched!.indexOf('--script') + 1], path.join(workspace, SCRIPT), 'launched as a script');

      await openFile(page, SCRIPT);
      const after = await lensAbove(page, COMPILE_LINE, SPEEDUP_LENS, 30_000);
      // the answer first on its line, cut to fit, the action after it: a narrow editor cuts the action, not the number
      // (report3C L6); the whole line (with the region's name) is the lens's tooltip
      const lensLine = (await after.lens.innerText()).split('|').map((t) => t.trim());
      assert.deepEqual(
        [lensLine[0], lensLine.at(-1)],
        [recordedLens('serve_script-cpu'), '▶ Compile & Profile Script'],
      );
      assert.ok(
        after.gap >= -1 && after.gap < 8,
        `the region lens sits above the torch.compile line (gap ${after.gap}px)`,
      );
      const tabs = (await tabTitles(page)).filter((t) => t.startsWith('Compile Lens'));
      assert.equal(tabs.length, 1, `one report tab: ${tabs.join(', ')}`);
      assert.match(
        tabs[0]!,
        /^Compile Lens: serve_script (?:[A-Z][a-z]{2} \d{1,2} (?:\d{4} )?)?\d\d:\d\d:\d\d$/,
        'named as the Runs view names the run: its file and when it finished (its day, recorded on another)',
      );
      await page.screenshot({ path: path.join(ARTIFACTS, 'script-region-lens.png') });

      // a notebook: the command from the notebook editor runs the .ipynb as a script; results land on its cells
      await openFile(page, NOTEBOOK);
      await page
        .locator('.notebook-editor .monaco-editor .view-line', { hasText: 'model = torch.compile(MLP())' })
        .first()
        .waitFor({ timeout: 60_000 });
      await runCommand(page, 'Compile & Profile Model');
      const notebookLens = page
        .locator('.notebook-editor .codelens-decoration', { hasText: recordedLens('explore-cpu') })
        .first();
      await notebookLens.waitFor({ timeout: 120_000 });
      const runs = readFileSync(argsLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string[]);
      assert.equal(runs.at(-1)![runs.at(-1)!.indexOf('--script') + 1], path.join(workspace, NOTEBOOK));
      await runCommand(page, 'View: Focus Problems');
      // the recorded break is at `if h.mean().item() > 0:`, the 7th line of the notebook's 3rd cell; nothing else
      const rows = page.locator('.markers-panel .monaco-list-row');
      await rows
        .filter({ hasText: /Graph break: Tensor\.item\(\).*\(cell 3, line 7\).*\[Ln 7, Col 1\]/s })
        .first()
        .waitFor({ timeout: 30_000 });
      assert.deepEqual(
        (await rows.allInnerTexts()).filter((t) => /Graph break|Recompile/.test(t)).length,
        1,
        "one finding: the recorded notebook run's; the recorded script run had none",
      );
      // the notebook's report drawn in its own tab (the serve_script one stays behind it)
      const notebookFrame = await findWebviewFrame(page, 'section.region[data-region="r0"] h3:has-text("MLP")', 60_000);
      assert.equal(
        await notebookFrame.locator('section.region[data-region="r0"] h3').innerText(),
        'MLP — explore.ipynb cell 4, line 2',
      );
      const titles = (await tabTitles(page)).filter((t) => t.startsWith('Compile Lens'));
      assert.equal(titles.length, 2, `a report tab per run: ${titles.join(', ')}`);
      assert.ok(
        titles.every((t) =>
          /^Compile Lens: (serve_script|explore) (?:[A-Z][a-z]{2} \d{1,2} (?:\d{4} )?)?\d\d:\d\d:\d\d$/.test(t),
        ),
        `named by their runs, at the time the Runs view says: ${titles.join(', ')}`,
      );
      // the lens this picture is of, in view: the notebook opened at its first cell, the lens is on its fourth (the
      // notebook scrolls itself: a wheel over it, as a user would)
      const notebook = (await page.locator('.notebook-editor:visible').first().boundingBox())!;
      await page.mouse.move(notebook.x + notebook.width / 2, notebook.y + notebook.height / 2);
      for (let tries = 0; tries < 10; tries++) {
        const lens = (await notebookLens.boundingBox())!;
        if (lens.y >= notebook.y && lens.y + lens.height <= notebook.y + notebook.height) break;
        await page.mouse.wheel(0, 150);
        await page.waitForTimeout(200);
      }
      const lens = (await notebookLens.boundingBox())!;
      assert.ok(lens.y >= notebook.y && lens.y + lens.height <= notebook.y + notebook.height, 'the lens in view');
      await page.screenshot({ path: path.join(ARTIFACTS, 'notebook-region-lens.png') });

      // a verdict: the recorded run of a script where compiling pays, its answer on the lens and leading the panel
      await openFile(page, SERVICE);
      await lensAbove(page, SERVICE_LINE, /Compile & Profile Script/, 60_000);
      await runCommand(page, 'Compile & Profile Model');
      const serviceFrame = await findWebviewFrame(
        page,
        'section.region[data-region="r0"] h3:has-text("Sequential")',
        120_000,
      );
      const service = recordedRegion('gated_service-cpu');
      assert.match(service.answer.sentence, /^Compile \(default\)/, 'the recording is a verdict to compile');
      const serviceRegion = serviceFrame.locator('section.region[data-region="r0"]');
      assert.equal(await serviceRegion.locator('h3').innerText(), 'Sequential — gated_service.py:22');
      // the region's first line is the runner's answer in full
      assert.equal(
        await serviceRegion.locator('h3 + p.answer').innerText(),
        service.answer.sentence,
        "the panel leads with the recording's answer",
      );
      await openFile(page, SERVICE);
      const verdict = await lensAbove(page, SERVICE_LINE, SPEEDUP_LENS, 30_000);
      const verdictLens = (await verdict.lens.innerText())
        .split('|')
        .find((t) => SPEEDUP_LENS.test(t))
        ?.trim();
      assert.equal(verdictLens, recordedLens('gated_service-cpu'));
      assert.match(verdictLens, /^compile /, 'the lens says the verdict first');
      await runCommand(page, 'View: Hide Panel'); // the notebook's Problems, out of this picture
      await page.screenshot({ path: path.join(ARTIFACTS, 'script-verdict-lens.png') });
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-script-stub.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);
