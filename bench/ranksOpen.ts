// Opening a job of many ranks in the panel, headless Chromium with the real webview bundle (build first): the report
// `compile-lens inspect` made of an attach folder (bench/ranks64.py open runs it), as "Open Compile Logs…" shows it.
// Host: read the report and every rank's trace, build the load message; webview: post to drawn (the rank table, the
// slowest and fastest ranks' timelines), then "Show all" to every rank drawn. Best of --repeat.
//   node --import tsx bench/ranksOpen.ts --report DIR/report.json [--repeat 3]
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import type { TimelineContent } from '../extension/node/timelineContent.ts';
import { readTimelineSource } from '../extension/node/timelineSource.ts';
import { sentTraces } from '../test/sentTraces.ts';
import { giveBackBrowser, openWebview, postTimeline, takeBrowser } from '../test/webview/harness.ts';

const { values } = parseArgs({ options: { report: { type: 'string' }, repeat: { type: 'string', default: '3' } } });
if (!values.report)
  throw new Error('give --report DIR/report.json (a report `compile-lens inspect` made of an attach folder)');
const REPORT = path.resolve(values.report);
const REPEAT = Number(values.repeat);

async function best<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  let out: { ms: number; value: T } | null = null;
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    const value = await run();
    const ms = performance.now() - started;
    if (!out || ms < out.ms) out = { ms, value };
  }
  return out!;
}

async function drawn(page: Page, content: TimelineContent): Promise<number> {
  const started = performance.now();
  await postTimeline(page, content);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const browser = await takeBrowser();
  try {
    const host = await best(async () => {
      const content = await readTimelineSource({ kind: 'report', reportPath: REPORT });
      return { content, sent: await sentTraces(content) };
    });
    const { content, sent } = host.value;
    if (!content.report?.ranks) throw new Error(`${REPORT}: not a report of ranks`);
    const ranks = content.report.ranks.length;
    console.log(`report of ${ranks} ranks, ${sent.length} rank traces`);
    console.log(`  host: read the report and its rank traces, their messages  ${host.ms.toFixed(0)} ms`);
    const panel = await best(async () => {
      const page = await openWebview(browser);
      const first = await drawn(page, content);
      const rows = await page.locator('.rank-table tr[data-rank]').count();
      const panes = await page.locator('.pane-label').count();
      const started = performance.now();
      await page.locator('button.show-all-ranks').click();
      await page.waitForFunction((n) => document.querySelectorAll('.pane-label').length === n, sent.length);
      await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
      const all = performance.now() - started;
      await page.close();
      return { first, rows, panes, all };
    });
    const { first, rows, panes, all } = panel.value;
    console.log(
      `  webview: post to drawn (rank table of ${rows} rows, ${panes} rank timelines)  ${first.toFixed(0)} ms; "Show all" to ${sent.length} drawn  ${all.toFixed(0)} ms`,
    );
  } finally {
    await giveBackBrowser();
  }
}

void main();
