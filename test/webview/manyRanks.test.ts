// Many ranks in the webview (headless Chromium, the host's own messages made larger): the report's rank table for
// 64 ranks (slowest first, the diverged rows marked, readable at 560 px), and a 12-rank timeline that draws the
// slowest and fastest ranks first and the rest only after "Show all".
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { RankEntry } from '../../extension/shared/report.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { sentTraces } from '../sentTraces.ts';
import { debug, errorsOf, holdBrowser, openWebview, postPanes, postTimeline } from './harness.ts';

const REPORT = path.resolve(__dirname, '../fixtures/reports/ddp-ranks-cpu/report.json');
const STRAGGLER = path.resolve(__dirname, '../fixtures/traces/ranks/straggler');
const browser = holdBrowser();

describe('many ranks', () => {
  test('the report table of 64 ranks: slowest first, the ranks that diverged marked, nothing wider than a 560 px panel', async () => {
    const content = await readTimelineSource({ kind: 'report', reportPath: REPORT });
    assert.ok(content.report?.ranks);
    const [template] = content.report.ranks;
    // rank k's steady call: 1 ms + k µs, so rank 63 is the slowest and rank 0 the fastest
    const ranks: RankEntry[] = Array.from({ length: 64 }, (_, k) => ({
      ...template!,
      rank: k,
      host: `node-${k >> 3}`,
      nodeRank: k >> 3,
      regions: template!.regions!.map((r) => ({ ...r, steadyState: { fromCall: 4, medianMs: 1 + k / 1000 } })),
    }));
    const divergence = [{ ...content.report.divergence![0]!, ranks: [3, 17, 41] }];
    const page = await openWebview(browser(), { width: 560, height: 900 });
    await postTimeline(page, { ...content, report: { ...content.report, ranks, divergence } });
    const rows = page.locator('table.rank-table tr[data-rank]');
    assert.equal(await rows.count(), 64);
    const order = await rows.evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLElement).dataset['rank'])));
    assert.deepEqual(
      order,
      Array.from({ length: 64 }, (_, k) => 63 - k),
    );
    const diverged = await page
      .locator('table.rank-table tr.diverged')
      .evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLElement).dataset['rank'])));
    assert.deepEqual(
      diverged.sort((a, b) => a - b),
      [3, 17, 41],
    );
    const first = await rows.first().innerText();
    assert.match(first, /rank 63/);
    assert.match(first, /node-7, node 7/);
    // slower than the fastest: 1.063 ms over 1.000 ms; the fastest itself 0%
    assert.equal(await rows.first().locator('td[data-label="slower than the fastest"]').innerText(), '6%');
    assert.equal(await rows.last().locator('td[data-label="slower than the fastest"]').innerText(), '0%');
    assert.match(
      await page.locator('.rank-table-box .hint').innerText(),
      /^Slowest first.* 3 ranks that diverged marked\.$/,
    );
    // narrow: rows stack, every cell says its column, nothing scrolls sideways
    assert.equal(
      await page.locator('table.rank-table tr:first-child').evaluate((tr) => getComputedStyle(tr).display),
      'none',
    );
    assert.equal(await rows.first().locator('td[data-label="recompiles"]').innerText(), String(template!.recompiles));
    // each value bolder than its column's name before it, so "graphs 1 graph breaks 2" does not run together
    const weights = await rows
      .first()
      .locator('td[data-label="recompiles"]')
      .evaluate((td) => [getComputedStyle(td, '::before').fontWeight, getComputedStyle(td).fontWeight].map(Number));
    assert.ok(weights[1]! > weights[0]!, `name ${weights[0]}, value ${weights[1]}`);
    // a diverged row is filled as a whole (its stacked cells leave gaps between them): the row's background
    const fill = await page
      .locator('table.rank-table tr.diverged')
      .first()
      .evaluate((tr) => getComputedStyle(tr).backgroundColor);
    assert.notEqual(fill, 'rgba(0, 0, 0, 0)');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
      'no sideways scroll',
    );
    const wide = await page.evaluate(
      () =>
        [...document.querySelectorAll('table.rank-table')].filter(
          (t) => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1,
        ).length,
    );
    assert.equal(wide, 0);
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test('12 ranks: the 4 slowest and 4 fastest drawn, slowest first; "Show all 12 ranks" draws the others', async () => {
    const content = await readTimelineSource({
      kind: 'ranks',
      tracePaths: ['rank0', 'rank1'].map((r) => path.join(STRAGGLER, `${r}.trace.json`)),
    });
    const two = (await sentTraces(content)).map((m) => m.pane);
    // even ranks are the fixture's rank 0, odd ones its straggler rank 1 (more work per step)
    const panes = Array.from({ length: 12 }, (_, k) => {
      const pane = two[k % 2]!;
      return { ...pane, label: `rank ${k}`, rank: { ...pane.rank!, rank: k, worldSize: 12 } };
    });
    const page = await openWebview(browser());
    await postPanes(page, content.title, content.source, panes);
    const labels = async (): Promise<string[]> =>
      page.locator('.pane-label').evaluateAll((ls) => ls.map((l) => l.textContent.split(' — ')[0]!));
    assert.deepEqual(await labels(), ['rank 1', 'rank 3', 'rank 5', 'rank 7', 'rank 4', 'rank 6', 'rank 8', 'rank 10']);
    assert.equal((await debug(page)).panes.length, 8, 'the hidden ranks are not built into timelines');
    assert.equal(await page.locator('canvas').count(), 8);
    const note = await page.locator('.rank-order').innerText();
    assert.match(
      note,
      /Showing the 4 slowest and the 4 fastest of 12 ranks, slowest first, by mean work per step.*4 more not drawn/,
    );
    // the per-step table covers the ranks shown, and names the straggler among them
    assert.equal(await page.locator('.rank-steps-table tr[data-step]').count(), 8 * 3);
    await page.locator('button.show-all-ranks').click();
    await page.waitForFunction(() => document.querySelectorAll('.pane-label').length === 12);
    assert.deepEqual(await labels(), [
      'rank 1',
      'rank 3',
      'rank 5',
      'rank 7',
      'rank 4',
      'rank 6',
      'rank 8',
      'rank 10',
      'rank 9',
      'rank 11',
      'rank 0',
      'rank 2',
    ]);
    assert.match(await page.locator('.rank-order').innerText(), /^All 12 ranks, slowest first/);
    assert.equal(await page.locator('button.show-all-ranks').count(), 0);
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test('8 ranks or fewer: every rank, in rank order, as before', async () => {
    const content = await readTimelineSource({
      kind: 'ranks',
      tracePaths: ['rank0', 'rank1'].map((r) => path.join(STRAGGLER, `${r}.trace.json`)),
    });
    const two = (await sentTraces(content)).map((m) => m.pane);
    const panes = Array.from({ length: 8 }, (_, k) => ({
      ...two[k % 2]!,
      label: `rank ${k}`,
      rank: { ...two[k % 2]!.rank!, rank: k, worldSize: 8 },
    }));
    const page = await openWebview(browser());
    await postPanes(page, content.title, content.source, panes);
    assert.deepEqual(
      await page.locator('.pane-label').evaluateAll((ls) => ls.map((l) => l.textContent.split(' — ')[0]!)),
      panes.map((p) => p.label),
    );
    assert.equal(await page.locator('.rank-order, button.show-all-ranks').count(), 0);
    await page.close();
  });
});
