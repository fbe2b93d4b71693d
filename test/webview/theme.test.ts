// Slice colours follow the VS Code theme: the canvas paints with the --vscode-* variables VS Code sets on
// <body>, and repaints when the theme class changes (light → dark → high contrast).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { giveBackBrowser, takeBrowser, openWebview, postPanes, tracesSource } from './harness.ts';

let browser: Browser;
before(async () => {
  browser = await takeBrowser();
});
after(async () => {
  await giveBackBrowser();
});

const KERNEL = 'triton_poi_fused_addmm_relu_0';

/** Sets the theme the way VS Code does (body class + CSS variables), lets the timeline repaint, reads the kernel's pixel. */
async function kernelPixel(page: Page, themeClass: string, generatedColour: string): Promise<number[]> {
  return page.evaluate(
    async ([cls, colour, name]) => {
      document.body.style.setProperty('--vscode-charts-green', colour);
      document.body.style.setProperty('--vscode-contrastBorder', colour); // high contrast outlines slices: same colour, so the sample is exact
      document.body.className = cls;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const debug = (
        window as unknown as {
          __timelineDebug: { locate(p: number, n: string, k: number, g?: boolean): { x: number; y: number } | null };
        }
      ).__timelineDebug;
      const at = debug.locate(0, name, 0, true);
      if (!at) throw new Error('kernel not visible');
      const canvas = document.querySelector('canvas')!;
      const ratio = canvas.width / canvas.clientWidth;
      return [
        ...canvas
          .getContext('2d')!
          .getImageData(Math.round(at.x * ratio), Math.round(at.y * ratio), 1, 1)
          .data.slice(0, 3),
      ];
    },
    [themeClass, generatedColour, KERNEL] as const,
  );
}

/** Canvas colour conversion may move a channel by a step or two. */
function assertColour(actual: number[], expected: number[]): void {
  assert.ok(
    actual.every((v, i) => Math.abs(v - expected[i]!) <= 3),
    `pixel ${actual.join(',')} is not ${expected.join(',')}`,
  );
}

test("generated kernels are painted in the theme's colour and repainted when the theme changes", async () => {
  const page = await openWebview(browser);
  const model = await scanTraceFile(join(__dirname, '..', 'fixtures', 'traces', 'mlp-default.trace.json'));
  await postPanes(page, 'mlp', tracesSource('d'), [{ label: 'default', trace: model }]);
  assertColour(await kernelPixel(page, 'vscode-light', 'rgb(10, 120, 30)'), [10, 120, 30]);
  assertColour(await kernelPixel(page, 'vscode-dark', 'rgb(60, 200, 90)'), [60, 200, 90]);
  assertColour(await kernelPixel(page, 'vscode-high-contrast', 'rgb(0, 255, 0)'), [0, 255, 0]);
  await page.close();
});
