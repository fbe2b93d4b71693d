// What the timeline's depth tests (timelineDepth, timelineRange) do on its page and read back: a range Shift+dragged
// across a pane, a time said back in µs, screenshots in light and dark themes under $SCREENSHOTS (when set) to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** A time as formatUs says it ("7.87 ms", "412 µs") back in µs. */
export const usOf = (text: string): number => {
  const [, value, unit] = /^([\d.]+) (µs|ms|s)$/.exec(text) ?? [];
  assert.ok(value && unit, `"${text}" is a number and a unit`);
  return Number(value) * { µs: 1, ms: 1e3, s: 1e6 }[unit as 'µs' | 'ms' | 's'];
};

const LIGHT = {
  '--vscode-editorHoverWidget-background': '#f8f8f8',
  '--vscode-editorHoverWidget-foreground': '#3b3b3b',
  '--vscode-editor-background': '#ffffff',
  '--vscode-foreground': '#3b3b3b',
  '--vscode-editor-foreground': '#3b3b3b',
  '--vscode-descriptionForeground': '#717171',
  '--vscode-focusBorder': '#005fb8',
};
const DARK = {
  '--vscode-editorHoverWidget-background': '#202020',
  '--vscode-editorHoverWidget-foreground': '#cccccc',
  '--vscode-editor-background': '#1f1f1f',
  '--vscode-foreground': '#cccccc',
  '--vscode-editor-foreground': '#cccccc',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-focusBorder': '#0078d4',
};

async function setTheme(page: Page, light: boolean): Promise<void> {
  await page.evaluate(
    ([vars, cls]) => {
      for (const [k, v] of Object.entries(vars)) document.body.style.setProperty(k, v);
      document.body.className = cls;
    },
    [light ? LIGHT : DARK, light ? 'vscode-light' : 'vscode-dark'] as const,
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env['SCREENSHOTS'];
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  for (const light of [false, true]) {
    await setTheme(page, light);
    await page.screenshot({ path: join(folder, `${name}-${light ? 'light' : 'dark'}.png`), fullPage: true });
    // the top of the range's tables, at full size
    const tables = await page.locator('.range-box').boundingBox();
    if (tables && tables.height > 0) {
      const top = tables.y + (await page.evaluate(() => window.scrollY));
      await page.screenshot({
        path: join(folder, `${name}-tables-${light ? 'light' : 'dark'}.png`),
        fullPage: true,
        clip: { x: 0, y: top, width: tables.width + 20, height: Math.min(900, tables.height) },
      });
    }
  }
  await setTheme(page, false);
}

/** Shift+drag across pane `pane` from `from` to `to` (fractions of its width). */
export async function dragRange(page: Page, pane: number, from: number, to: number): Promise<void> {
  const box = (await page.locator('canvas').nth(pane).boundingBox())!;
  const y = box.y + 40;
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  await page.mouse.move(box.x + (box.width * (from + to)) / 2, y, { steps: 5 });
  await page.mouse.move(box.x + box.width * to, y, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.locator('.range-summary').waitFor();
}
