// Quick Fixes in a real VS Code: a script whose compiled function prints is profiled; its graph break's Problems entry
// offers "Let torch.compile print after the graph runs"; applying it edits the file (after the imports), and the next
// profile of the script finds no graph break there. A script that recompiles when its input's size changes is offered
// dynamic=True on its torch.compile call, and the next profile has no recompile.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { makeTestWorkspace, openFile, prepareCodeServer, runCommand, startSession, type CodeServerEnv } from './codeServer.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(REPO, 'test-results');
const SCRIPT_NAME = 'print_step.py';
const SCRIPT = `import torch


@torch.compile
def step(x):
    y = x * 2
    print("step done")
    return y.relu()


for _ in range(3):
    step(torch.ones(4))
`;
const PRINT_LINE = SCRIPT.split('\n').findIndex((l) => l.includes('print(')) + 1;
const PYTHON = execFileSync(process.env.COMPILE_LENS_PYTHON ?? 'python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

let env: CodeServerEnv;

before(() => {
  env = prepareCodeServer();
  mkdirSync(ARTIFACTS, { recursive: true });
});

interface Site { location: { file: string; line: number } | null }
interface Compiler { graphBreaks: Site[]; recompiles: Site[] }

/** The graph breaks and recompiles of the newest report the extension wrote, once there is one newer than `after`. */
function newestCompiler(workspace: string, after: number): Compiler | null {
  const runs = path.join(workspace, '.compile-lens', 'runs');
  let newest: { file: string; time: number } | null = null;
  for (const name of readdirSync(runs, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
    const file = path.join(runs, name, 'report.json');
    try {
      const time = statSync(file).mtimeMs;
      if (time > after && (!newest || time > newest.time)) newest = { file, time };
    } catch {
      // a run folder without its report yet
    }
  }
  if (!newest) return null;
  const report = JSON.parse(readFileSync(newest.file, 'utf8')) as { status: string; regions?: { compiler?: Compiler | null }[] };
  assert.equal(report.status, 'ok');
  const compilers = (report.regions ?? []).map((r) => r.compiler ?? { graphBreaks: [], recompiles: [] });
  return { graphBreaks: compilers.flatMap((c) => c.graphBreaks), recompiles: compilers.flatMap((c) => c.recompiles) };
}

/** Runs the profile of the open file; its graph breaks and recompiles once its report is written. */
async function profile(page: Page, workspace: string): Promise<Compiler> {
  const started = Date.now();
  await runCommand(page, 'Compile & Profile Model');
  return waitFor(page, 'the profile\'s report', () => {
    try {
      return newestCompiler(workspace, started);
    } catch {
      return null;  // the report is being written
    }
  }, 400_000);
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

test('the print graph break offers a Quick Fix; applied, the next profile has no break at that line', { timeout: 900_000 }, async () => {
  const workspace = makeTestWorkspace(PYTHON);
  const file = path.join(workspace, SCRIPT_NAME);
  writeFileSync(file, SCRIPT);
  const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
  const { page } = session;
  try {
    await openFile(page, SCRIPT_NAME);
    const before = await profile(page, workspace);
    assert.ok(before.graphBreaks.some((b) => b.location?.line === PRINT_LINE), 'the print breaks the graph');

    await runCommand(page, 'View: Focus Problems');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'Graph break' }).first();
    await row.waitFor({ timeout: 60_000 });
    await row.dblclick();  // the editor at the print's line
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: 30_000 });
    await page.locator('.monaco-editor .view-line', { hasText: 'print("step done")' }).first().click();
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Let torch.compile print after the graph runs' }).first();
    await fix.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-offered.png') });
    // the menu's pointer block swallows clicks: the offered fix is the focused row, applied with Enter
    assert.match(await page.locator('.action-widget .monaco-list-row.focused').innerText(), /Let torch\.compile print after the graph runs/);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+S');
    await waitFor(page, 'the fixed file on disk', () => (readFileSync(file, 'utf8').includes('reorderable_logging_functions.add(print)') ? true : null), 30_000);
    const fixed = readFileSync(file, 'utf8').split('\n');
    assert.equal(fixed[0], 'import torch');
    assert.match(fixed[1]!, /^torch\._dynamo\.config\.reorderable_logging_functions\.add\(print\)  # Compile Lens quick fix/);

    const after = await profile(page, workspace);
    assert.deepEqual(after.graphBreaks, [], 'the rerun has no graph break');
    // and the Problems entry went with it
    await page.locator('.markers-panel .monaco-list-row', { hasText: 'Graph break' }).first().waitFor({ state: 'detached', timeout: 60_000 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-rerun.png') });
  } catch (error) {
    await page.screenshot({ path: path.join(ARTIFACTS, 'failure-quick-fix.png') }).catch(() => undefined);
    throw error;
  } finally {
    await session.close();
  }
});

const RESIZED_NAME = 'resized_step.py';
const RESIZED = `import torch


def f(x):
    return (x * 2).relu()


step = torch.compile(f)
for n in (4, 4, 6, 6):
    step(torch.ones(n))
`;

test('a recompile on a size change offers dynamic=True; applied, the next profile does not recompile', { timeout: 900_000 }, async () => {
  const workspace = makeTestWorkspace(PYTHON);
  const file = path.join(workspace, RESIZED_NAME);
  writeFileSync(file, RESIZED);
  const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
  const { page } = session;
  try {
    await openFile(page, RESIZED_NAME);
    const before = await profile(page, workspace);
    assert.ok(before.recompiles.length > 0, 'the size change recompiles');

    await runCommand(page, 'View: Focus Problems');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'Recompile' }).first();
    await row.waitFor({ timeout: 60_000 });
    await row.dblclick();
    await page.locator('.monaco-editor .view-line', { hasText: 'def f(x):' }).first().click();
    await page.keyboard.press('Control+.');
    await page.locator('.action-widget .monaco-list-row', { hasText: 'Compile with dynamic=True' }).first().waitFor({ timeout: 30_000 });
    assert.match(await page.locator('.action-widget .monaco-list-row.focused').innerText(), /Compile with dynamic=True/);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+S');
    await waitFor(page, 'the fixed file on disk', () => (readFileSync(file, 'utf8').includes('torch.compile(f, dynamic=True)') ? true : null), 30_000);

    const after = await profile(page, workspace);
    assert.deepEqual(after.recompiles, [], 'the rerun does not recompile');
    await page.screenshot({ path: path.join(ARTIFACTS, 'quick-fix-dynamic-rerun.png') });
  } catch (error) {
    await page.screenshot({ path: path.join(ARTIFACTS, 'failure-quick-fix-dynamic.png') }).catch(() => undefined);
    throw error;
  } finally {
    await session.close();
  }
});
