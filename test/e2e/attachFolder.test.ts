// A job run under `attach` on two nodes (test/fixtures/attach-2x2: 2 launchers x 2 ranks, recorded from a real run),
// its folder copied into the workspace and opened from the explorer ("Open Compile Logs…"): the report panel shows
// the ranks table with the two diverged ranks marked and the divergence at its line, and Problems has the recompile
// on the workspace's copy of the script (the run's paths were another machine's).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
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
const FIXTURE = path.join(REPO, 'test/fixtures/attach-2x2');
const FOLDER = 'cluster-job';
const PYTHON = execFileSync(
  process.env['COMPILE_LENS_PYTHON'] ?? 'python3',
  ['-c', 'import sys; print(sys.executable)'],
  {
    encoding: 'utf8',
  },
).trim();
const TRAIN_LINE = 78; // ddp_train.py's `loss = train_model(x)...`, where ranks 1 and 3 recompiled

let env: CodeServerEnv;

before(() => {
  env = prepareCodeServer();
  mkdirSync(ARTIFACTS, { recursive: true });
});

test(
  'Open Compile Logs on an attach folder: the ranks table, the divergence, and the recompile in Problems on the workspace file',
  { timeout: 300_000 },
  async () => {
    const workspace = makeTestWorkspace(PYTHON);
    cpSync(path.join(FIXTURE, 'job'), path.join(workspace, FOLDER), { recursive: true });
    mkdirSync(path.join(workspace, 'train'));
    cpSync(path.join(FIXTURE, 'ddp_train.py'), path.join(workspace, 'train', 'ddp_train.py'));
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      await explorerMenu(page, FOLDER, 'Open Compile Logs');
      const report = await findWebviewFrame(page, '.rank-table', 120_000);
      assert.deepEqual(
        await report
          .locator('.rank-table tr[data-rank]')
          .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['rank']).sort()),
        ['0', '1', '2', '3'],
      );
      assert.deepEqual(
        await report
          .locator('.rank-table tr.diverged')
          .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['rank']).sort()),
        ['1', '3'],
      );
      // each rank's host and node, as the launchers' environment said
      assert.match(await report.locator('.rank-table tr[data-rank="3"]').innerText(), /node 1/);
      const body = await report.locator('body').innerText();
      assert.match(body, /ranks 1, 3 recompiled DistributedDataParallel at call 3/);
      // the region's facts: the one call that recompiled, not the frames it recompiled (review 5C P12: "…: 2 frames");
      // its graphs and breaks as each rank counted them (s29: not a merged 3 over ranks 1 and 3's rows of 4)
      assert.match(
        body,
        /2 graphs and 4 graph breaks \(in compiles that made no graph\) on ranks 1 and 3 · recompiled at call 3 on ranks 1 and 3 · /,
      );

      // the panel draws again as the ranks' traces arrive: a table replaced under the scroll is scrolled again
      for (let attempt = 1; ; attempt++) {
        try {
          await report.locator('.rank-table').scrollIntoViewIfNeeded();
          break;
        } catch (err) {
          if (attempt === 3 || !String(err).includes('not attached to the DOM')) throw err;
        }
      }
      await page.screenshot({ path: path.join(ARTIFACTS, 'attach-folder-ranks.png') });

      await runCommand(page, 'View: Focus Problems');
      // on the workspace's copy (train/ddp_train.py), one row per thing that happened, both at the training line
      // (review 5C D6, M9): the batch change as the divergence, naming the ranks and what changed (not again as a
      // "Recompile" at the model's forward), and DDP's graph breaks as one row
      const diverged = page.locator('.markers-panel .monaco-list-row', { hasText: 'Ranks diverged' }).first();
      await diverged.waitFor({ timeout: 60_000 });
      assert.match(
        await diverged.innerText(),
        new RegExp(
          `ranks 1, 3 recompiled .* input 'x' changed size in dimension 0 from 16 to 8[\\s\\S]*Ln ${TRAIN_LINE}, Col 1`,
        ),
      );
      const rows = page.locator('.markers-panel .monaco-list-row', { hasText: /Ln \d+, Col/ });
      assert.deepEqual(
        (await rows.allInnerTexts()).map((row) => [row.split(':')[0], /Ln \d+/.exec(row)?.[0]]),
        [
          // each rank's count at the line (s29: "×3 (on all 4 ranks)" was rank 0's count; ranks 1 and 3 broke 4 times)
          ['Graph break (3 graph breaks at this line on ranks 0 and 2, 4 on ranks 1 and 3)', `Ln ${TRAIN_LINE}`],
          ['Ranks diverged', `Ln ${TRAIN_LINE}`],
        ],
      );
      const fileRow = page.locator('.markers-panel .monaco-list-row', { hasText: 'ddp_train.py' }).first();
      assert.match(await fileRow.innerText(), /^ddp_train\.py\s*train\b/); // the file, and its folder in the workspace
      await page.screenshot({ path: path.join(ARTIFACTS, 'attach-folder.png') });
      await diverged.dblclick();
      await page.locator('.tabs-container .tab.active[data-resource-name="ddp_train.py"]').waitFor({ timeout: 30_000 });
      await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: 30_000 });
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-attach-folder.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);
