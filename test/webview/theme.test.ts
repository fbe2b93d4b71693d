// Slice colours follow the VS Code theme: the canvas paints with the --vscode-* variables VS Code sets on
// <body>, and repaints when the theme class changes (light → dark → high contrast); in each default theme the legend's
// kinds are colours a reader tells apart, and a graph break's band is told from the page.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { contrast, type Rgba } from '../../webview/ink.ts';
import { KIND_LEGEND } from '../../webview/theme.ts';
import { asSeenWith, deltaE2000, DICHROMACIES } from './colourDifference.ts';
import { holdBrowser, openWebview, postPanes, tracesSource } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

const browser = holdBrowser();

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
  const page = await openWebview(browser());
  const model = await scanTraceFile(join(__dirname, '..', 'fixtures', 'traces', 'mlp-default.trace.json'));
  await postPanes(page, 'mlp', tracesSource('d'), [{ label: 'default', trace: model }]);
  // (colours a label reads on in black or white at ink.LABEL_FILL: a mid-tone one is moved from the middle)
  assertColour(await kernelPixel(page, 'vscode-light', 'rgb(10, 100, 30)'), [10, 100, 30]);
  assertColour(await kernelPixel(page, 'vscode-dark', 'rgb(60, 200, 90)'), [60, 200, 90]);
  assertColour(await kernelPixel(page, 'vscode-high-contrast', 'rgb(0, 255, 0)'), [0, 255, 0]);
  await page.close();
});

/** VS Code's own closest chart pair (charts-purple and terminal magenta: library kernels and communication) is
 *  ΔE 15.2 in Dark Modern; charts-orange and charts-yellow were 6.1 in Light Modern and 14.7 in Dark Modern. */
const DISTINCT = 15;

test("the legend's kinds are colours told apart at a glance in light, dark and high contrast", async () => {
  const page = await openWebview(browser());
  const swatches = [...KIND_LEGEND.map(([kind]) => kind), 'communication'];
  const names = new Map<number | string, string>([
    ...KIND_LEGEND.map(([kind, label]) => [kind, label] as [number, string]),
    ['communication', 'communication'],
  ]);
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    // the swatches as the legend draws them (the canvas reads the same variables: theme.ts)
    const colours = await page.evaluate((kinds) => {
      const ctx = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
      return kinds.map((kind) => {
        const swatch = document.createElement('span');
        swatch.className = `swatch kind-${kind}`;
        document.body.append(swatch);
        ctx.fillStyle = getComputedStyle(swatch).backgroundColor;
        swatch.remove();
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
        return [r!, g!, b!, 1] as const;
      });
    }, swatches);
    const close: string[] = [];
    for (let i = 0; i < swatches.length; i++)
      for (let j = i + 1; j < swatches.length; j++) {
        const difference = deltaE2000(colours[i]!, colours[j]!);
        if (difference < DISTINCT)
          close.push(`${names.get(swatches[i]!)} and ${names.get(swatches[j]!)}: ΔE ${difference.toFixed(1)}`);
      }
    assert.deepEqual(close, [], theme.name);
  }
  await page.close();
});

test("a graph break's band is edged in a colour that stands out from the page at 3:1 in light, dark and high contrast", async () => {
  // report4A N15: the band's faint fill alone was (41,34,18) on high contrast's black, 1.3:1
  const page = await openWebview(browser(), { width: 1400, height: 700 });
  const model = await scanTraceFile(join(__dirname, '..', 'fixtures', 'traces', 'cpu-graphbreak-default.trace.json'));
  await postPanes(page, 'graphbreak', tracesSource('d'), [{ label: 'default', trace: model }]);
  await page.waitForFunction(
    () => (window as unknown as { __timelineDebug: { marks: unknown } }).__timelineDebug.marks !== null,
  );
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    // each band edge's pixel, halfway down its longest piece, as the canvas painted it
    const pixels = await page.evaluate(() => {
      const { layouts } = (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug;
      const canvas = document.querySelector('canvas')!;
      const ratio = canvas.width / canvas.clientWidth;
      const ctx = canvas.getContext('2d')!;
      return layouts[0]!.lines
        .filter((l) => l.role === 'band' && l.y1 - l.y0 >= 4)
        .map((l) => {
          const [r, g, b] = ctx.getImageData(
            Math.floor((l.x + 0.5) * ratio),
            Math.floor(((l.y0 + l.y1) / 2) * ratio),
            1,
            1,
          ).data;
          return [r!, g!, b!, 1] as const;
        });
    });
    assert.ok(pixels.length >= 2, `${theme.name}: the band's edges drawn`);
    const background = theme.colours['editor-background']!;
    const pageColour = [1, 3, 5].map((k) => parseInt(background.slice(k, k + 2), 16)).concat(1) as unknown as Rgba;
    for (const pixel of pixels) {
      const ratio = contrast(pixel, pageColour);
      assert.ok(ratio >= 3, `${theme.name}: edge ${pixel.join(',')} on ${background} is ${ratio.toFixed(2)}:1`);
    }
  }
  await page.close();
});

test("the compile phases' bars are colours told apart in light, dark and high contrast, code generation from Inductor by colour-blind eyes too", async () => {
  // review 5C X7: "Inductor" (charts-orange) and "code generation" (charts-yellow), one drawn under the other, were
  // ΔE 6.1 apart in Light Modern
  const page = await openWebview(browser());
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    // every bar class the stylesheet colours (.phase-dynamo, .phase-codegen, ...), as its legend swatch draws it
    const colours = await page.evaluate(() => {
      const classes = [...document.styleSheets]
        .flatMap((sheet) => [...sheet.cssRules])
        .filter((rule): rule is CSSStyleRule => rule instanceof CSSStyleRule && /^\.phase-\w+$/.test(rule.selectorText))
        .filter((rule) => rule.style.getPropertyValue('--bar') !== '')
        .map((rule) => rule.selectorText.slice(1));
      const legend = document.body.appendChild(document.createElement('div'));
      legend.className = 'phase-legend';
      const ctx = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
      const out = classes.map((cls) => {
        const swatch = legend.appendChild(document.createElement('span'));
        swatch.className = `swatch ${cls}`;
        ctx.fillStyle = getComputedStyle(swatch).backgroundColor;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
        return [cls, [r!, g!, b!, 1]] as const;
      });
      legend.remove();
      return out;
    });
    const colour = new Map<string, Rgba>(colours);
    assert.ok(
      colour.has('phase-inductor') && colour.has('phase-codegen'),
      `${theme.name}: ${[...colour.keys()].join(', ')}`,
    );
    const close: string[] = [];
    for (let i = 0; i < colours.length; i++)
      for (let j = i + 1; j < colours.length; j++) {
        const difference = deltaE2000(colours[i]![1], colours[j]![1]);
        if (difference < DISTINCT) close.push(`${colours[i]![0]} and ${colours[j]![0]}: ΔE ${difference.toFixed(1)}`);
      }
    // code generation is drawn under Inductor, beside loading and kernel compile, the cache marker over its start
    for (const other of ['phase-inductor', 'phase-load', 'phase-kernel', 'phase-cache'])
      for (const kind of DICHROMACIES) {
        const difference = deltaE2000(
          asSeenWith(colour.get('phase-codegen')!, kind),
          asSeenWith(colour.get(other)!, kind),
        );
        if (difference < DISTINCT) close.push(`phase-codegen and ${other} (${kind}): ΔE ${difference.toFixed(1)}`);
      }
    assert.deepEqual(close, [], theme.name);
  }
  await page.close();
});
