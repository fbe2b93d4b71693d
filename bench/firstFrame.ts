// First frame in real VS Code: a generated trace opened with the custom editor in code-server, timed from the
// Quick Open Enter to the timeline's first drawn frame — host scan, postMessage, webview build and draw.
// Usage: node --import tsx bench/firstFrame.ts SIZE_MB [SIZE_MB ...]   (prints one line per size)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { findWebviewFrame, focusWorkbench, prepareCodeServer, startSession } from '../test/e2e/codeServer.ts';
import { generateTrace } from './gen-trace.ts';

type Debug = { __timelineDebug?: { framesDrawn: number; panes: { events: number }[] } };

async function firstFrameSeconds(sizeMb: number): Promise<{ seconds: number; events: number; fileMb: number }> {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'cl-first-frame-'));
  const file = `big-${sizeMb}.trace.json`;
  const { bytes } = generateTrace(path.join(workspace, file), sizeMb * 1024 * 1024);
  const session = await startSession(env, workspace, { trusted: true, artifacts: path.join(os.tmpdir(), 'cl-first-frame-logs') });
  try {
    const { page } = session;
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: file }).first().waitFor({ timeout: 60_000 });
    await focusWorkbench(page);
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input.input').fill(file);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: file }).first().waitFor();
    const started = Date.now();
    await page.keyboard.press('Enter');
    const frame: Frame = await findWebviewFrame(page, '.panes canvas', 600_000);
    await frame.waitForFunction(() => ((window as unknown as Debug).__timelineDebug?.framesDrawn ?? 0) > 0, undefined, { timeout: 600_000, polling: 20 });
    const seconds = (Date.now() - started) / 1000;
    const events = await frame.evaluate(() => (window as unknown as Debug).__timelineDebug!.panes[0]!.events);
    return { seconds, events, fileMb: bytes / 1024 / 1024 };
  } finally {
    await session.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

const env = prepareCodeServer();
void (async () => {
  for (const size of process.argv.slice(2).map(Number)) {
    const { seconds, events, fileMb } = await firstFrameSeconds(size);
    console.log(`${fileMb.toFixed(0)} MB, ${events} events: first frame ${seconds.toFixed(2)} s after opening`);
  }
})();
