// Opening many ranks in the panel, headless Chromium with the real webview bundle (build first): a folder of N rank
// traces as "Open Trace Timeline" reads it (host: select, read, build the load message; webview: post to drawn, the
// slowest and fastest ranks only, then "Show all"), and a report of N ranks (its rank table). The traces are the
// straggler fixture's two ranks, copied to N ranks (odd ranks the straggler). Best of --repeat.
//   node --import tsx bench/ranksOpen.ts [--ranks 64] [--repeat 3]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import type { HostToWebview } from '../extension/core/protocol.ts';
import type { RankEntry } from '../extension/core/report.ts';
import { loadMessage } from '../extension/core/timelineContent.ts';
import { resolveTimelineSelection } from '../extension/node/timelineSelection.ts';
import { readTimelineSource } from '../extension/node/timelineSource.ts';
import { launchBrowser, openWebview, post } from '../test/webview/harness.ts';

const FIXTURES = path.resolve(__dirname, '../test/fixtures');
const { values } = parseArgs({ options: { ranks: { type: 'string', default: '64' }, repeat: { type: 'string', default: '3' } } });
const RANKS = Number(values.ranks);
const REPEAT = Number(values.repeat);

function rankFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'ranks-open-'));
  const traces = [0, 1].map((r) => JSON.parse(readFileSync(path.join(FIXTURES, 'traces/ranks/straggler', `rank${r}.trace.json`), 'utf8')) as { distributedInfo: Record<string, unknown> });
  for (let k = 0; k < RANKS; k++) {
    const trace = traces[k % 2]!;
    writeFileSync(path.join(folder, `rank${k}.trace.json`), JSON.stringify({ ...trace, distributedInfo: { ...trace.distributedInfo, rank: k, world_size: RANKS } }));
  }
  return folder;
}

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

async function drawn(page: Page, message: HostToWebview): Promise<number> {
  const started = performance.now();
  await post(page, message);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const folder = rankFolder();
  const browser = await launchBrowser();
  try {
    const host = await best(async () => {
      const { source, notes } = await resolveTimelineSelection([folder]);
      return { message: loadMessage(await readTimelineSource(source)), notes };
    });
    const { message, notes } = host.value;
    if (message.type !== 'load') throw new Error('no load message');
    console.log(`${RANKS} rank traces (${message.panes.length} sent${notes.length ? `: ${notes.join(' ')}` : ''})`);
    console.log(`  host: select, read, load message  ${host.ms.toFixed(0)} ms`);
    const timeline = await best(async () => {
      const page = await openWebview(browser);
      const first = await drawn(page, message);
      const panes = await page.locator('.pane-label').count();
      const started = performance.now();
      await page.locator('button.show-all-ranks').click();
      await page.waitForFunction((n) => document.querySelectorAll('.pane-label').length === n, message.panes.length);
      await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
      const all = performance.now() - started;
      await page.close();
      return { first, panes, all };
    });
    console.log(`  webview: post to drawn, ${timeline.value.panes} ranks  ${timeline.value.first.toFixed(0)} ms; "Show all" to ${message.panes.length} drawn  ${timeline.value.all.toFixed(0)} ms`);

    const report = loadMessage(await readTimelineSource({ kind: 'report', reportPath: path.join(FIXTURES, 'reports/ddp-ranks-cpu/report.json') }));
    if (report.type !== 'load' || !report.report?.ranks) throw new Error('no report');
    const template = report.report.ranks[0]!;
    const ranks: RankEntry[] = Array.from({ length: RANKS }, (_, k) => ({ ...template, rank: k, regions: template.regions!.map((r) => ({ ...r, steadyState: { fromCall: 4, medianMs: 1 + k / 1000 } })) }));
    const big = { ...report, report: { ...report.report, ranks } };
    const table = await best(async () => {
      const page = await openWebview(browser, { width: 560, height: 900 });
      const ms = await drawn(page, big);
      await page.close();
      return ms;
    });
    console.log(`  report of ${RANKS} ranks (table + its 2 rank traces) at 560 px: post to drawn  ${table.ms.toFixed(0)} ms`);
  } finally {
    await browser.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

void main();
