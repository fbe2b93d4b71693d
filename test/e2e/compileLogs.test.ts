// Logs made elsewhere in a real VS Code: a folder of TORCH_TRACE logs, written by a plain run of a script that lived
// in another folder, opened from the explorer's context menu ("Open Compile Logs…"): the findings land in Problems on
// the workspace's copy of the script, and its hover explains the break.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import {
  explorerMenu,
  findWebviewFrame,
  makeTestWorkspace,
  prepareCodeServer,
  runCommand,
  startSession,
  type CodeServerEnv,
} from './codeServer.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(REPO, 'test-results');
const FOLDER = 'cluster-logs';
const SCRIPT_NAME = 'logged_train.py';
// Dynamo's eager backend: the logs' break and lines are Dynamo's, no Inductor compile needed
const SCRIPT = `import torch


@torch.compile(backend="eager")
def step(x):
    y = x * 2
    print("logged on the cluster")
    return y.relu()


for n in (4, 4):
    step(torch.ones(n))
`;
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

test(
  'Open Compile Logs on a folder from the explorer: Problems entries on the workspace copy of the script',
  { timeout: 600_000 },
  async () => {
    const workspace = makeTestWorkspace(PYTHON);
    // the run, as on a cluster: the script in its own folder, the logs wherever TORCH_TRACE said (here: copied back)
    const cluster = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-cluster-')), 'jobs', 'proj');
    mkdirSync(cluster, { recursive: true });
    writeFileSync(path.join(cluster, SCRIPT_NAME), SCRIPT);
    execFileSync(PYTHON, [path.join(cluster, SCRIPT_NAME)], {
      env: { ...process.env, TORCH_TRACE: path.join(workspace, FOLDER) },
      stdio: 'pipe',
      timeout: 300_000,
    });
    mkdirSync(path.join(workspace, 'proj'));
    cpSync(path.join(cluster, SCRIPT_NAME), path.join(workspace, 'proj', SCRIPT_NAME));

    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      await explorerMenu(page, FOLDER, 'Open Compile Logs');
      // the report panel opens as after a profile run, without a timing table: nothing was timed
      const report = await findWebviewFrame(page, 'section.report', 120_000);
      assert.match(await report.locator('section.report h2').first().innerText(), /compiler logs/);
      assert.equal(await report.locator('table.modes').count(), 0);

      await runCommand(page, 'View: Focus Problems');
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'Graph break' }).first();
      await row.waitFor({ timeout: 60_000 });
      // the entry is on the workspace's copy (proj/logged_train.py), at the print's line
      const fileRow = page.locator('.markers-panel .monaco-list-row', { hasText: SCRIPT_NAME }).first();
      assert.match(await fileRow.innerText(), /logged_train\.py/);
      assert.match(await fileRow.innerText(), /proj/);
      const printLine = SCRIPT.split('\n').findIndex((l) => l.includes('print(')) + 1;
      assert.match(await row.innerText(), new RegExp(`\\[Ln ${printLine}, Col 1\\]|${printLine}`));

      // the entry opens the workspace's copy at the line, with the break's squiggle
      await row.dblclick();
      await page
        .locator(`.tabs-container .tab.active[data-resource-name="${SCRIPT_NAME}"]`)
        .waitFor({ timeout: 30_000 });
      await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: path.join(ARTIFACTS, 'compile-logs.png') });
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-compile-logs.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);
