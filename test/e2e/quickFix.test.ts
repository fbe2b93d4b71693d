// Quick Fixes in a real VS Code. Each script's first profile is its run recorded on this CPU (test/fixtures/recorded/,
// through the stub runner: the finding is all it is for); once the Quick Fix edited a line that run quotes, the stub
// hands the rerun to the real runner, which shows the finding gone. A script whose compiled function prints is
// profiled; its graph break's Problems entry
// offers "Let torch.compile print after the graph runs"; applying it edits the file (after the imports), and the next
// profile of the script finds no graph break there. A script that recompiles when its input's size changes is offered
// dynamic=True on its torch.compile call, and the next profile has no recompile; one whose warm-up call used another
// shape than the real calls is offered the real calls' shape in the warm-up, and the next profile has no recompile;
// before that, its profile's budget having left that fix unmeasured, the "Measure the shape fix" lens on its
// torch.compile line runs the profile with --shape-fix on (its run recorded too), and the panel, the lens and the
// Quick Fix then carry the measured fix.
// The transformer fast-path break does not happen on this CPU (torch 2.13 traces the fast path): its finding comes from
// a whole run recorded on an H200 (test/fixtures/recorded/, through the stub runner, its in-situ trace in the panel);
// its Quick Fix is applied to the same script and the edit checked; the rerun that would show the finding gone needs
// the GPU.
// After a Quick Fix inserted a line, the findings below it and the region's lens follow their lines.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { lensTitle } from '../../extension/present/lensLine.ts';
import { BEFORE_EDIT, BEFORE_EDIT_LENS } from '../../extension/present/findings.ts';
import { LENS_CHARACTERS, shortLine } from '../../extension/present/lensLine.ts';
import {
  findWebviewFrame,
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
const WHY = path.join(REPO, 'test/fixtures/why');
const RECORDED = path.join(REPO, 'test/fixtures/recorded');
const SCRIPT_NAME = 'print_step.py';
const SCRIPT = readFileSync(path.join(RECORDED, SCRIPT_NAME), 'utf8');
const RESIZED_NAME = 'resized_step.py';
const RESIZED = readFileSync(path.join(RECORDED, RESIZED_NAME), 'utf8');
const WARMUP_NAME = 'warmup_step.py';
const WARMUP = readFileSync(path.join(WHY, WARMUP_NAME), 'utf8'); // a warm-up at batch 1, then the real calls at batch 4
// the warm-up's profile whose budget left the fix unmeasured, and the profile that measured it (--shape-fix on)
const WARMUP_RUN = path.join(RECORDED, 'warmup_step-cpu');
const WARMUP_FIX_RUN = path.join(RECORDED, 'warmup_step-cpu-shape-fix-on');
const PRINT_LINE = SCRIPT.split('\n').findIndex((l) => l.includes('print(')) + 1;
const PYTHON = execFileSync(
  process.env['COMPILE_LENS_PYTHON'] ?? 'python3',
  ['-c', 'import sys; print(sys.executable)'],
  {
    encoding: 'utf8',
  },
).trim();

let env: CodeServerEnv;
/** The stub runner's launches, one JSON line of arguments each. */
const STUB_ARGS = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-stub-')), 'args.jsonl');
/** The workspaces' interpreter: the stub runner, answering each script's first profile with its recorded run. */
const STUB = stubInterpreter({
  COMPILE_LENS_STUB_PYTHON: PYTHON,
  COMPILE_LENS_STUB_ARGS: STUB_ARGS,
  COMPILE_LENS_STUB_REPORT: JSON.stringify({
    [SCRIPT_NAME]: path.join(RECORDED, 'print_step-cpu'),
    [RESIZED_NAME]: path.join(RECORDED, 'resized_step-cpu'),
    [WARMUP_NAME]: WARMUP_RUN,
    [`${WARMUP_NAME} --shape-fix on`]: WARMUP_FIX_RUN,
    'encoder_fastpath.py': path.join(RECORDED, 'encoder_fastpath-h200'),
  }),
});

before(() => {
  env = prepareCodeServer();
  mkdirSync(ARTIFACTS, { recursive: true });
});

interface RecordedRegion {
  headline: string;
  answer: { sentence: string };
  shapes: { measure: { title: string } | null };
  compiler: { recompiles: { explanation: { quickFix: { title: string } } }[] };
}
/** The one region of a recorded run. */
function recordedRegion(folder: string): RecordedRegion {
  const report = JSON.parse(readFileSync(path.join(folder, 'report.json'), 'utf8')) as { regions: RecordedRegion[] };
  assert.equal(report.regions.length, 1);
  return report.regions[0]!;
}

interface Site {
  location: { file: string; line: number } | null;
}
interface Compiler {
  graphBreaks: Site[];
  recompiles: Site[];
  /** each region's CodeLens title: its headline cut to fit */
  lenses: string[];
}

/** The graph breaks and recompiles of the newest report the extension wrote, once there is one newer than `after`. */
function newestCompiler(workspace: string, after: number): Compiler | null {
  const runs = path.join(workspace, '.compile-lens', 'runs');
  let newest: { file: string; time: number } | null = null;
  for (const name of readdirSync(runs, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)) {
    const file = path.join(runs, name, 'report.json');
    try {
      const time = statSync(file).mtimeMs;
      if (time > after && (!newest || time > newest.time)) newest = { file, time };
    } catch {
      // a run folder without its report yet
    }
  }
  if (!newest) return null;
  const report = JSON.parse(readFileSync(newest.file, 'utf8')) as {
    status: string;
    regions?: {
      compiler?: Omit<Compiler, 'lenses'> | null;
      headline?: string | null;
      answer?: { number: { text?: string } | null };
    }[];
  };
  assert.equal(report.status, 'ok');
  const compilers = (report.regions ?? []).map((r) => r.compiler ?? { graphBreaks: [], recompiles: [] });
  return {
    graphBreaks: compilers.flatMap((c) => c.graphBreaks),
    recompiles: compilers.flatMap((c) => c.recompiles),
    lenses: (report.regions ?? []).flatMap((r) => (r.headline ? [lensTitle(r.headline, r.answer?.number?.text)] : [])),
  };
}

/** Runs the profile of the open file; its graph breaks and recompiles once its report is written. */
async function profile(page: Page, workspace: string): Promise<Compiler> {
  const started = Date.now();
  await runCommand(page, 'Compile & Profile Model');
  return reportAfter(page, workspace, started);
}

/** The graph breaks and recompiles of the report of a profile started at `started`, once it is written. */
function reportAfter(page: Page, workspace: string, started: number): Promise<Compiler> {
  return waitFor(
    page,
    "the profile's report",
    () => {
      try {
        return newestCompiler(workspace, started);
      } catch {
        return null; // the report is being written
      }
    },
    400_000,
  );
}

async function waitFor<T>(page: Page, what: string, read: () => T | null, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = read();
    if (value !== null) return value;
    await page.waitForTimeout(1000);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The rerun's result on screen: its run finished and shown, the `problem` entry gone from Problems (the report on
 * disk comes first), the region's CodeLens saying the rerun's headline (VS Code redraws lenses after Problems: a
 * screenshot taken before showed the first run's 0.17× beside the rerun's 0.13×), the editor at its lines' start. */
async function rerunShown(page: Page, problem: string, workspace: string): Promise<void> {
  await page
    .locator('.markers-panel .monaco-list-row', { hasText: problem })
    .first()
    .waitFor({ state: 'detached', timeout: 400_000 });
  assert.equal(await page.locator('.markers-panel .monaco-list-row', { hasText: 'Compile Lens' }).count(), 0);
  // the report as shown, read now: the runner rewrites it as it goes (profile() returns at its first version)
  const [lens] = newestCompiler(workspace, 0)!.lenses;
  assert.ok(lens, 'the rerun has a region to head');
  await page.locator('.codelens-decoration', { hasText: lens }).first().waitFor();
  await scrollToLineStarts(page);
}

/** The active editor back at its lines' start, asserted. After the Quick Fix on a long line the browser had scrolled
 * the editor's overflow-hidden text area sideways (a native scrollLeft, ~500 px, that Monaco's own scroll state does
 * not hold: Ctrl+Home left it), so the lines were drawn cut off under the line numbers. */
async function scrollToLineStarts(page: Page): Promise<void> {
  await page.keyboard.press('Control+Home');
  let offset = 0;
  for (let attempt = 0; attempt < 10; attempt++) {
    await page.waitForTimeout(200); // the browser scrolls the focused input area into view after the caret moved
    offset = await page.evaluate(() => {
      for (const box of Array.from(document.querySelectorAll('.monaco-editor, .monaco-editor *'))) box.scrollLeft = 0;
      const [line, area] = ['.monaco-editor .view-line', '.monaco-editor .editor-scrollable'].map(
        (selector) => document.querySelector(selector)!.getBoundingClientRect().x,
      );
      return line! - area!;
    });
    if (Math.abs(offset) <= 1) return;
  }
  assert.fail(`the lines start ${offset} px off the text area's left`);
}

/** Hovers the token `print` of the editor line holding `text` until Compile Lens's part of the hover shows (below the
 * Problems message, headed "Compile Lens — "); the whole hover's text. */
async function findingHover(page: Page, text: string): Promise<string> {
  const token = page
    .locator('.monaco-editor .view-line', { hasText: text })
    .locator('span', { hasText: 'print' })
    .first();
  for (let attempt = 0; attempt < 10; attempt++) {
    await page.mouse.move(5, 5);
    await token.hover();
    const hover = page.locator('.monaco-hover', { hasText: /Compile Lens — / }).first();
    try {
      await hover.waitFor({ state: 'visible', timeout: 5000 });
      const said = await hover.innerText();
      await page.mouse.move(5, 5);
      return said;
    } catch {
      // hover not up yet
    }
  }
  throw new Error(`no finding hover on ${text}`);
}

/** The text of the editor line right below the CodeLens matching `title`, its spaces plain. */
async function lensLine(page: Page, title: RegExp): Promise<string> {
  const lens = page.locator('.codelens-decoration', { hasText: title }).first();
  await lens.waitFor({ timeout: 30_000 });
  const lensBox = (await lens.boundingBox())!;
  const lines = page.locator('.monaco-editor .view-line');
  for (const line of await lines.all()) {
    const box = await line.boundingBox();
    if (box && box.y >= lensBox.y + lensBox.height - 1 && box.y < lensBox.y + lensBox.height + 8)
      return (await line.innerText()).replace(/\u00a0/g, ' ').trim(); // the editor draws spaces as no-break spaces
  }
  throw new Error(`no line under the lens ${title}`);
}

/** From the Problems entry matching `problem`, the editor at `lineText`, Ctrl+. offers `fix` (focused), Enter applies it
 * and the file is saved; returns once the file on disk holds `saved`. */
async function applyQuickFix(
  page: Page,
  file: string,
  problem: string,
  lineText: string,
  fix: RegExp,
  saved: string,
): Promise<string> {
  await runCommand(page, 'View: Focus Problems');
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: problem }).first();
  await row.waitFor({ timeout: 60_000 });
  await row.dblclick(); // the editor at the finding's line
  await page.locator('.monaco-editor .view-line', { hasText: lineText }).first().click();
  await page.keyboard.press('Control+.');
  await page.locator('.action-widget .monaco-list-row', { hasText: fix }).first().waitFor({ timeout: 30_000 });
  // the menu's pointer block swallows clicks: the offered fix is the focused row, applied with Enter
  assert.match(await page.locator('.action-widget .monaco-list-row.focused').innerText(), fix);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+S');
  return waitFor(
    page,
    'the fixed file on disk',
    () => {
      const text = readFileSync(file, 'utf8');
      return text.includes(saved) ? text : null;
    },
    30_000,
  );
}

test(
  'the print graph break offers a Quick Fix; applied, the next profile has no break at that line',
  { timeout: 900_000 },
  async () => {
    const workspace = makeTestWorkspace(STUB);
    const file = path.join(workspace, SCRIPT_NAME);
    writeFileSync(file, SCRIPT);
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      await openFile(page, SCRIPT_NAME);
      const before = await profile(page, workspace);
      assert.ok(
        before.graphBreaks.some((b) => b.location?.line === PRINT_LINE),
        'the print breaks the graph',
      );

      const fixedText = await applyQuickFix(
        page,
        file,
        'Graph break',
        'print("step done")',
        /Let torch\.compile print after the graph runs/,
        'reorderable_logging_functions.add(print)',
      );
      const fixed = fixedText.split('\n');
      assert.equal(fixed[0], 'import torch');
      assert.match(
        fixed[1]!,
        /^torch\._dynamo\.config\.reorderable_logging_functions\.add\(print\) {2}# Compile Lens quick fix/,
      );
      // the inserted line moved the code below it: the finding and the region's lens moved with it
      const movedPrint = fixed.findIndex((l) => l.includes('print("step done")')) + 1;
      assert.equal(movedPrint, PRINT_LINE + 1);
      // said as from the run before the edit (reportC N8): in Problems, beside the region's answer, in the panel
      await page
        .locator('.markers-panel .monaco-list-row', { hasText: 'Graph break' })
        .filter({ hasText: `[Ln ${movedPrint}, Col 1]` })
        .filter({ hasText: BEFORE_EDIT })
        .first()
        .waitFor({ timeout: 30_000 });
      await page.locator('.codelens-decoration', { hasText: BEFORE_EDIT_LENS }).first().waitFor({ timeout: 30_000 });
      // so did the report panel's links: the break's and the region's name their new lines, and the break's opens its
      const panel = await findWebviewFrame(page, 'section.report .breaks button.link', 60_000);
      await panel.locator('h1 + p.before-edit', { hasText: BEFORE_EDIT }).waitFor({ timeout: 30_000 });
      const breakLink = panel.locator('section.report .breaks button.link', {
        hasText: new RegExp(`print_step\\.py:${movedPrint}$`),
      });
      await breakLink.waitFor({ timeout: 30_000 });
      assert.equal(
        await panel.locator('section.region[data-region="r0"] h3 button.link').innerText(),
        `print_step.py:${fixed.findIndex((l) => l.startsWith('@torch.compile')) + 1}`,
      );
      await breakLink.click();
      await page
        .locator('.statusbar-item', { hasText: `Ln ${movedPrint}, Col 1` })
        .first()
        .waitFor({ timeout: 30_000 });
      // the finding's hover on the print's new line: Problems' sentence once, then the provider's part (reportA N4)
      const hover = await findingHover(page, 'print("step done")');
      assert.match(hover, /Graph break: .*print.*Compile Lens — /is);
      assert.doesNotMatch(hover, /What happened:/);
      const lens = await lensLine(page, /\d\.\d+×/);
      assert.equal(lens, '@torch.compile(backend="eager")', "the region's lens sits above its torch.compile line");
      await scrollToLineStarts(page);
      await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-applied.png') });

      const after = await profile(page, workspace);
      assert.deepEqual(after.graphBreaks, [], 'the rerun has no graph break');
      await rerunShown(page, 'Graph break', workspace);
      await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-rerun.png') });
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-quick-fix.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);

test(
  'a recompile on a size change offers dynamic=True; applied, the next profile does not recompile',
  { timeout: 900_000 },
  async () => {
    const workspace = makeTestWorkspace(STUB);
    const file = path.join(workspace, RESIZED_NAME);
    writeFileSync(file, RESIZED);
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      await openFile(page, RESIZED_NAME);
      const before = await profile(page, workspace);
      assert.ok(before.recompiles.length > 0, 'the size change recompiles');

      await applyQuickFix(
        page,
        file,
        'Recompile',
        'def f(x):',
        /Compile with dynamic=True/,
        'torch.compile(f, backend="eager", dynamic=True)',
      );

      const after = await profile(page, workspace);
      assert.deepEqual(after.recompiles, [], 'the rerun does not recompile');
      await rerunShown(page, 'Recompile', workspace);
      await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-dynamic-rerun.png') });
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-quick-fix-dynamic.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);

test(
  'a warm-up at another shape than the real calls offers the real shape; applied, the next profile does not recompile',
  { timeout: 900_000 },
  async () => {
    const workspace = makeTestWorkspace(STUB);
    const file = path.join(workspace, WARMUP_NAME);
    writeFileSync(file, WARMUP);
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      await openFile(page, WARMUP_NAME);
      const before = await profile(page, workspace);
      assert.equal(before.recompiles.length, 1, 'the real calls recompile after the warm-up');

      // the profile's budget left the warm-up fix unmeasured: its lens, the runner's title (in the lens's width, the
      // whole in its tooltip), measures it
      const offer = recordedRegion(WARMUP_RUN).shapes.measure;
      assert.ok(offer, 'the recorded profile left the fix out');
      const lens = page.locator('.codelens-decoration a', { hasText: shortLine(offer.title, LENS_CHARACTERS) });
      await lens.waitFor({ timeout: 30_000 });
      assert.equal(
        await lensLine(page, /Measure the shape fix/),
        'step = torch.compile(f, backend="eager")  # the recompile is Dynamo\'s: no Inductor compile needed',
      );
      const clicked = Date.now();
      await lens.click();
      const measuredRun = await reportAfter(page, workspace, clicked);
      assert.equal(measuredRun.recompiles.length, 1, 'measuring the fix leaves the script as written');
      const launched = readFileSync(STUB_ARGS, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string[])
        .at(-1)!;
      assert.equal(launched[launched.indexOf('--shape-fix') + 1], 'on', 'the profile measures the fix');
      assert.equal(launched[launched.indexOf('--script') + 1], file);
      // what the user reads then: the measured fix in the region's answer on the panel, the lens gone, and the
      // Quick Fix saying what it measured
      const measured = recordedRegion(WARMUP_FIX_RUN);
      assert.equal(measured.shapes.measure, null, 'nothing left to measure');
      // the measured fix is the answer's sentence's (the headline is the verdict and its number)
      assert.match(
        measured.answer.sentence,
        /With a warm-up at size 4: 1 graph instead of 2, the first real call [\d.]+ ms instead of [\d.,]+ ms/,
      );
      const frame = await findWebviewFrame(
        page,
        'section.region[data-region="r0"] p.answer:has-text("with a warm-up at size 4:")',
        120_000,
      );
      assert.equal(
        await frame.locator('section.region[data-region="r0"] p.answer').innerText(),
        measured.answer.sentence,
      );
      await lens.waitFor({ state: 'detached', timeout: 30_000 });
      await scrollToLineStarts(page);
      await page.screenshot({ path: path.join(ARTIFACTS, 'shape-fix-measured.png') });

      const measuredFix =
        /Warm up at the shape the real calls use \(line 9\) \(measured: 1 graph instead of 2, the first real call [\d.]+ ms instead of [\d.,]+ ms, compile [\d.]+ m?s instead of [\d.,]+ m?s\)/;
      assert.match(measured.compiler.recompiles[0]!.explanation.quickFix.title, measuredFix);
      const fixed = await applyQuickFix(
        page,
        file,
        'Recompile',
        'def f(x):',
        measuredFix,
        'step(torch.ones(4, 8))  # warm-up',
      );
      assert.equal(
        fixed,
        WARMUP.replace('step(torch.ones(1, 8))', 'step(torch.ones(4, 8))'),
        "only the warm-up's size changed",
      );

      const after = await profile(page, workspace);
      assert.deepEqual(after.recompiles, [], 'the rerun compiles once');
      await rerunShown(page, 'Recompile', workspace);
      await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-warmup-rerun.png') });
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-quick-fix-warmup.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);

test(
  'a GPU finding (its run recorded on the H200, through the stub runner): the fast-path Quick Fix edits the script; the finding, and the line its sentence names, move with its line',
  { timeout: 600_000 },
  async () => {
    const workspace = makeTestWorkspace(STUB);
    copyFileSync(path.join(WHY, 'encoder_fastpath.py'), path.join(workspace, 'encoder_fastpath.py'));
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      // the fast path broke before any op: no compiled code ran; the fix turns the fast path off before compiling
      await openFile(page, 'encoder_fastpath.py');
      await profile(page, workspace);
      const frame = await findWebviewFrame(page, 'section.region[data-region="r0"] p.no-compiled-code', 120_000);
      assert.match(
        await frame.locator('section.region[data-region="r0"] p.no-compiled-code').innerText(),
        /^No compiled code ran: aten\._transformer_encoder_layer_fwd broke the graph at encoder_fastpath\.py:13 /,
      );
      const breakLine =
        readFileSync(path.join(WHY, 'encoder_fastpath.py'), 'utf8')
          .split('\n')
          .findIndex((l) => l.includes('out = compiled(')) + 1;
      assert.equal(breakLine, 13, 'the recorded run cites the line the test opens');
      const encoder = await applyQuickFix(
        page,
        path.join(workspace, 'encoder_fastpath.py'),
        'No compiled code ran',
        'out = compiled(',
        /Turn the transformer fast path off before compiling/,
        'set_fastpath_enabled(False)',
      );
      const at = encoder
        .split('\n')
        .findIndex((l) => l.startsWith('torch.backends.mha.set_fastpath_enabled(False)  # Compile Lens quick fix'));
      assert.equal(encoder.split('\n')[at - 1], 'from torch import nn', 'after the imports');
      assert.ok(at < encoder.split('\n').findIndex((l) => l.includes('torch.compile(')), 'before torch.compile');
      // the finding on the call's line (one: the break that stopped the region is its "No compiled code ran")
      // followed it one line down
      const rows = page.locator('.markers-panel .monaco-list-row', { hasText: 'Compile Lens' });
      await rows
        .filter({ hasText: `[Ln ${breakLine + 1}, Col 1]` })
        .first()
        .waitFor({ timeout: 30_000 });
      assert.equal(await rows.filter({ hasText: `[Ln ${breakLine}, Col 1]` }).count(), 0);
      assert.equal(await rows.filter({ hasText: `[Ln ${breakLine + 1}, Col 1]` }).count(), 1, 'one row for one cause');
      // and the runner's sentences name the line where it is now: in Problems and in the report panel
      assert.ok((await rows.filter({ hasText: `encoder_fastpath.py:${breakLine + 1} ` }).count()) > 0);
      assert.equal(
        await rows.filter({ hasText: `encoder_fastpath.py:${breakLine} ` }).count(),
        0,
        'no moved line named',
      );
      await frame
        .locator('section.region[data-region="r0"] p.no-compiled-code', {
          hasText: `broke the graph at encoder_fastpath.py:${breakLine + 1} `,
        })
        .waitFor({ timeout: 30_000 });
      assert.equal(await frame.locator('p.error').count(), 0, 'the report panel shows the report, no error');
      // "No compiled code ran" is from the run before the fix (reportC N8): Problems and the panel say so
      assert.equal(await rows.filter({ hasText: BEFORE_EDIT }).count(), 1);
      await frame.locator('p.before-edit', { hasText: BEFORE_EDIT }).waitFor({ timeout: 30_000 });
      await scrollToLineStarts(page);
      await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-fastpath-off.png') });
      // the recording's files are the panel's: the script's own steps as the observed run profiled them (eager: no
      // compiled code ran), the trace read with no error
      const window = frame.locator('.pane', {
        has: frame.locator('.pane-label', { hasText: /^TransformerEncoder, in situ eager — / }),
      });
      await window.waitFor({ timeout: 60_000 });
      assert.equal(await frame.locator('.pane-label').count(), 1, 'no replay: the one pane');
      assert.match(
        await window.locator('.pane-label').innerText(),
        /^TransformerEncoder, in situ eager — [\d,]+ events, 2 calls$/,
      );
      assert.equal(await frame.locator('p.error').count(), 0, 'the trace is read with no error');
      await window.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-fastpath-off-timeline.png') });
    } catch (error) {
      await page
        .screenshot({ path: path.join(ARTIFACTS, 'failure-quick-fix-fastpath-off.png') })
        .catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);
