// First frame in real VS Code: a generated trace opened with the custom editor in code-server, timed from the
// Quick Open Enter to the timeline's first drawn frame — host read, postMessage, webview build and draw — and
// to the complete load (a big trace's first frame is drawn from a preview; the full model follows). Against
// JSON.parse of the same file in the same run: what a viewer built on it spends before it can draw anything.
// Also what opening it cost in resident memory: the extension host's peak over its RSS before, and the browser
// processes' RSS at the complete load over theirs before; and in CPU time to the first frame and to the complete
// load, per process group (Linux /proc; see processUsage.ts): on a shared machine, where the work went.
// Usage: node --import tsx bench/firstFrame.ts [--stretched] SIZE_MB [SIZE_MB ...]   (prints one line per size;
// --stretched: each tile of the generated trace stretched a little, see gen-trace.ts)
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { findWebviewFrame, focusWorkbench, prepareCodeServer, startSession } from '../test/e2e/codeServer.ts';
import { generateTrace } from './gen-trace.ts';
import { measure } from './measure.ts';
import { sessionUsage, type SessionUsage } from './processUsage.ts';

interface Timings {
  scriptStart: number;
  message: number;
  built: number;
  firstDraw: number;
  complete: number;
}
interface Debug {
  __timelineDebug?: { framesDrawn: number; panes: { events: number }[]; timings: Timings };
}

interface Opened {
  started: number;
  events: number;
  timings: Timings;
  before: SessionUsage;
  atFirstFrame: SessionUsage;
  after: SessionUsage;
}

/** Opens `file` with Quick Open; returns the full event count, the webview's timestamps, when Enter was pressed, and the session's usage before, at the first frame and after. */
async function openAndTime(page: Page, home: string, file: string): Promise<Opened> {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: file }).first().waitFor({ timeout: 60_000 });
  await new Promise((settle) => setTimeout(settle, 3000)); // the workbench's own start-up work, not the trace's
  const before = sessionUsage(home);
  await focusWorkbench(page);
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input.input').fill(file);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: file }).first().waitFor();
  const started = Date.now();
  await page.keyboard.press('Enter');
  const frame: Frame = await findWebviewFrame(page, '.panes canvas', 600_000);
  await frame.waitForFunction(
    () => ((window as unknown as Debug).__timelineDebug?.timings.firstDraw ?? 0) > 0,
    undefined,
    { timeout: 600_000, polling: 50 },
  );
  const atFirstFrame = sessionUsage(home);
  // the full load (the only one for a small trace; after the preview for a big one)
  await frame.waitForFunction(
    () => ((window as unknown as Debug).__timelineDebug?.timings.complete ?? 0) > 0,
    undefined,
    { timeout: 600_000, polling: 50 },
  );
  const after = sessionUsage(home);
  const { events, timings } = await frame.evaluate(() => {
    const debug = (window as unknown as Debug).__timelineDebug!;
    return { events: debug.panes[0]!.events, timings: debug.timings };
  });
  return { started, events, timings, before, atFirstFrame, after };
}

async function benchOne(sizeMb: number): Promise<string> {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'cl-first-frame-'));
  const file = `big-${sizeMb}.trace.json`;
  const filePath = path.join(workspace, file);
  try {
    const { bytes } = generateTrace(filePath, sizeMb * 1024 * 1024, undefined, stretched);
    // flushed before timing: background writeback of the fresh file would slow the read
    const fd = openSync(filePath, 'r+');
    fsyncSync(fd);
    closeSync(fd);
    const session = await startSession(env, workspace, {
      trusted: true,
      artifacts: path.join(os.tmpdir(), 'cl-first-frame-logs'),
    });
    let opened: Opened;
    try {
      opened = await openAndTime(session.page, session.home, file);
    } finally {
      await session.close();
    }
    const { started, events, timings, before, atFirstFrame, after } = opened;
    const baseline = measure('JSON.parse', filePath);
    // Timed by the webview's own clock readings (same machine clock as Enter's), not by when polling noticed.
    const seconds = (timings.firstDraw - started) / 1000;
    const span = (from: number, to: number): string => ((to - from) / 1000).toFixed(2);
    const preview = timings.complete > timings.firstDraw ? ' (preview)' : '';
    const jsonParse = baseline.ok
      ? `JSON.parse alone ${baseline.seconds.toFixed(2)} s (${(seconds / baseline.seconds).toFixed(2)}×)`
      : `JSON.parse fails after ${baseline.seconds.toFixed(2)} s: ${baseline.error}`;
    return (
      `${(bytes / 1024 / 1024).toFixed(0)} MB, ${events} events: first frame ${seconds.toFixed(2)} s${preview}, complete load ${span(started, timings.complete)} s; ${jsonParse}\n` +
      `  webview start ${span(started, timings.scriptStart)} s, then host read + transfer ${span(timings.scriptStart, timings.message)} s, ` +
      `webview build ${span(timings.message, timings.built)} s, first draw ${span(timings.built, timings.firstDraw)} s\n` +
      `  memory: extension host +${(after.extensionHost.peakMb - before.extensionHost.residentMb).toFixed(0)} MB at its peak ` +
      `(${((after.extensionHost.peakMb - before.extensionHost.residentMb) / (bytes / 1024 / 1024)).toFixed(2)}× file), ` +
      `browser +${(after.browserMb - before.browserMb).toFixed(0)} MB at the complete load; JSON.parse alone peaks at ${baseline.peakRssMb.toFixed(0)} MB\n` +
      `  CPU to the first frame ${cpuSpent(before, atFirstFrame)}; to the complete load ${cpuSpent(before, after)}`
    );
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** CPU seconds each process group spent from `from` to `to`. */
function cpuSpent(from: SessionUsage, to: SessionUsage): string {
  const spent = (group: keyof SessionUsage['cpu']): string => (to.cpu[group] - from.cpu[group]).toFixed(2);
  return `extension host ${spent('extensionHost')} s, code-server ${spent('server')} s, browser ${spent('browser')} s`;
}

const args = process.argv.slice(2);
const stretched = args.includes('--stretched');
const env = prepareCodeServer();
void (async () => {
  for (const size of args.filter((a) => a !== '--stretched').map(Number)) console.log(await benchOne(size));
})();
