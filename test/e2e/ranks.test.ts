// A distributed job's rank traces in a real VS Code: "Open Trace Timeline" on a folder of two rank traces (the
// explorer's context menu) opens both ranks on one time axis with the per-step communication table.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import {
  explorerMenu,
  findWebviewFrame,
  makeTestWorkspace,
  prepareCodeServer,
  startSession,
  type CodeServerEnv,
} from './codeServer.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(REPO, 'test-results');
const STRAGGLER = path.join(REPO, 'test/fixtures/traces/ranks/straggler');
const FOLDER = 'ddp-traces';

let env: CodeServerEnv;

before(() => {
  env = prepareCodeServer();
  mkdirSync(ARTIFACTS, { recursive: true });
});

test(
  'Open Trace Timeline on a folder of rank traces: both ranks on one axis, the per-step table, the straggler named',
  { timeout: 300_000 },
  async () => {
    // no code runs: the interpreter is never asked for
    const workspace = makeTestWorkspace('python3');
    mkdirSync(path.join(workspace, FOLDER));
    for (const rank of [0, 1])
      copyFileSync(
        path.join(STRAGGLER, `rank${rank}.trace.json`),
        path.join(workspace, FOLDER, `rank${rank}.trace.json`),
      );
    const session = await startSession(env, workspace, { trusted: true, artifacts: ARTIFACTS });
    const { page } = session;
    try {
      await explorerMenu(page, FOLDER, 'Open Trace Timeline');
      const frame = await findWebviewFrame(page, '.rank-steps-table', 90_000);
      await page
        .locator('.tab', { hasText: `2 ranks — ${FOLDER}` })
        .first()
        .waitFor({ timeout: 30_000 });
      // (rank 1 came last to every step's all_reduce: said after its title once the job's waits are known, review
      // 16Z Z3)
      await frame.locator('.pane-came-last', { hasText: 'came last' }).waitFor({ timeout: 30_000 });
      assert.deepEqual(await frame.locator('.pane-label').allInnerTexts(), [
        'rank 0 — 463 events, 3 steps',
        'rank 1 — 463 events, 3 steps · came last to all_reduce in steps 2–4',
      ]);
      interface Debug {
        __timelineDebug?: { ranks: { alignment: string } | null };
      }
      assert.equal(
        await frame.evaluate(() => (window as unknown as Debug).__timelineDebug?.ranks?.alignment),
        'absolute',
      );
      assert.match(await frame.locator('.rank-note').innerText(), /Ranks 0, 1 of world size 2 \(gloo\)/);
      assert.equal(await frame.locator('.rank-steps-table tr[data-step]').count(), 6);
      for (const text of await frame.locator('.rank-steps-table td.slowest-rank').allInnerTexts())
        assert.match(text, /^rank 1: [\d.]+ ms more outside communication than rank 0/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'rank-timeline.png') });
    } catch (error) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'failure-ranks.png') }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  },
);
