// A torchrun job's report in the panel (headless Chromium): every rank's row and the divergence sentence, linked to
// its line; its rank traces on one axis below.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { errorsOf, holdBrowser, openWebview, postTimeline, record } from './harness.ts';

const REPORT = path.resolve(__dirname, '../fixtures/reports/ddp-ranks-cpu/report.json');
const browser = holdBrowser();

test('the report panel lists every rank in a table and where the ranks diverged, each sentence linked to its line', async () => {
  const page = await openWebview(browser());
  const content = await readTimelineSource({ kind: 'report', reportPath: REPORT });
  await postTimeline(page, content);
  const section = page.locator('.rank-report');
  assert.equal(await section.locator('h2').innerText(), '2 ranks (torchrun)');
  const ranks = section.locator('table.rank-table tr[data-rank]');
  assert.equal(await ranks.count(), 2);
  const rank1 = ranks.locator('xpath=self::*[@data-rank="1"]');
  assert.deepEqual(await rank1.locator('td').evaluateAll((tds) => tds.slice(2, 6).map((td) => td.textContent)), [
    'ok',
    '2',
    '4',
    // one call recompiled two frames: the cell a count and where (review 11 I10/J6: a sentence in a column of
    // counts), the one event said in the row's notes, as the heading's "recompiled at call 3 on rank 1" (review 9/10
    // A10: "2 at call 3" read as two recompiles)
    'at call 3 (2 compiles)',
  ]);
  assert.match(await rank1.locator('td[data-label="notes"]').innerText(), /recompiled at call 3 \(2 compiles\)/);
  const rank0 = ranks.locator('xpath=self::*[@data-rank="0"]');
  assert.equal(await rank0.locator('td[data-label="recompiles"]').innerText(), '0');
  // a call of the compiled region, not the training step (review 11 K3: "steady step 0.612 ms" beside 3 ms steps)
  assert.equal(await rank0.locator('td[data-label="compiled call (median, steady)"]').innerText(), '0.612 ms');
  assert.match(await section.locator('.hint').innerText(), /not the whole training step/);
  assert.equal(await rank1.locator('td[data-label="recompiles"]').getAttribute('data-value'), '2');
  assert.match(await page.locator('p.region-facts').first().innerText(), / · recompiled at call 3 on rank 1 · /);
  // the region's heading counts as the rows do, each count with whose it is (s29: a heading of 3 over rows of 2)
  const facts = await page.locator('p.region-facts').first().innerText();
  assert.match(
    facts,
    /1 graph and 3 graph breaks \(in compiles that made no graph\) on rank 0 · 2 graphs and 4 graph breaks \(in compiles that made no graph\) on rank 1 · /,
  );
  // and so does the list of breaks: no one count over them, each rank's at its line
  const breaks = page.locator('.breaks');
  assert.equal(await breaks.locator('h3').innerText(), 'graph breaks, by rank');
  assert.match(
    await breaks.locator('li').first().innerText(),
    /\(3 graph breaks at this line on rank 0, 4 on rank 1\)/,
  );
  assert.equal(await rank1.getAttribute('class'), 'diverged');
  // each rank's steady step over the fastest's as a number: the fastest reads 0%, not "vs fastest fastest"
  const over = await ranks.locator('td[data-label="slower than the fastest"]').allInnerTexts();
  assert.ok(over.includes('0%') && over.every((c) => /^\d+%$/.test(c)), over.join(' | '));
  const [sentence] = await section.locator('ul.divergence li').allInnerTexts();
  assert.match(
    sentence!,
    /^rank 1 recompiled DistributedDataParallel at call 3 — .* — rank 0 did not: the ranks ran different graphs ddp_train\.py:\d+$/,
  );
  await section.locator('ul.divergence button.link').click();
  const reveal = (await record(page)).posted.find((m) => m.type === 'reveal');
  const { location } = content.report!.divergence![0]!;
  assert.deepEqual(reveal, { type: 'reveal', file: location!.file, line: location!.line, cell: null });
  assert.deepEqual(
    await page.locator('.pane-label').evaluateAll((labels) => labels.map((l) => l.textContent?.split(' — ')[0])),
    ['rank 0', 'rank 1'],
  );
  assert.deepEqual(errorsOf(page), []);
  assert.deepEqual((await record(page)).cspViolations, []);
  await page.close();
});

test("the rank table fits an editor-wide panel, its notes whole, not clipped at the panel's right edge (review 13 O4)", async () => {
  const content = await readTimelineSource({ kind: 'report', reportPath: REPORT });
  // the e2e panel beside the side bar (attach-folder-ranks: 1150 px), and narrower; just above where the rows stack,
  // wider than the panel: its box scrolls (a scroll bar says there is more), never clips it
  for (const width of [1150, 900, 780]) {
    const page = await openWebview(browser(), { width, height: 900 });
    await postTimeline(page, content);
    const { tableRight, boxRight, scrolls } = await page.locator('.rank-table-box').evaluate((box) => {
      const table = box.querySelector('.rank-table')!.getBoundingClientRect();
      const own = box.getBoundingClientRect();
      return {
        tableRight: table.right,
        boxRight: Math.min(own.right, document.documentElement.clientWidth),
        scrolls: getComputedStyle(box).overflowX === 'auto' && box.scrollWidth >= Math.floor(table.width),
      };
    });
    assert.ok(
      tableRight <= boxRight + 0.5 || (width < 900 && scrolls),
      `${width} px: the table ends at ${tableRight}, past ${boxRight}`,
    );
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  }
});
