// The compile phases' colours in light, dark and high contrast, as the page's CSS paints them: every bar and legend
// swatch stands out from the page at 3:1 (WCAG non-text contrast; review 14R R5: code generation's dark teal was 2:1
// on the dark page, 2.5:1 on high contrast's black), and a label inside a bar reads on it at 4.5:1 (that the bars
// are told apart from each other: theme.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHASE_LEGEND } from '../../webview/compilePhases.ts';
import { BOUNDARY_VISIBLE, contrast, READABLE, type Rgba } from '../../webview/ink.ts';
import { holdBrowser, openWebview } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

const browser = holdBrowser();

test("each compile phase's bar and swatch stands out from the page at 3:1 and its label reads on it at 4.5:1", async () => {
  const page = await openWebview(browser());
  const classes = PHASE_LEGEND.map(([cls]) => cls);
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    // a bar (its rect and its label inside it) and a legend swatch per phase, as compilePhases.ts builds them
    const painted = await page.evaluate((phases) => {
      const SVG = 'http://www.w3.org/2000/svg';
      const box = document.createElement('div');
      box.className = 'compile-phases';
      document.body.append(box);
      const styles = phases.map((cls) => {
        const svg = document.createElementNS(SVG, 'svg');
        svg.setAttribute('class', 'phase-track');
        const bar = document.createElementNS(SVG, 'g');
        bar.setAttribute('class', `phase ${cls}`);
        const rect = document.createElementNS(SVG, 'rect');
        const text = document.createElementNS(SVG, 'text');
        bar.append(rect, text);
        svg.append(bar);
        const legend = document.createElement('div');
        legend.className = 'chart-legend phase-legend';
        const swatch = document.createElement('span');
        swatch.className = `swatch ${cls}`;
        legend.append(swatch);
        box.append(svg, legend);
        return [getComputedStyle(rect).fill, getComputedStyle(text).fill, getComputedStyle(swatch).backgroundColor];
      });
      box.remove();
      // each colour as the canvas paints it (the CSS gives lch(), color-mix() …)
      const ctx = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
      const css = [getComputedStyle(document.body).getPropertyValue('--vscode-editor-background'), ...styles.flat()];
      const [background, ...colours] = css.map((colour) => {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = colour;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
        return [r!, g!, b!, a! / 255] as [number, number, number, number];
      });
      return {
        background: background!,
        found: styles.map((_, k) => ({
          bar: colours[3 * k]!,
          label: colours[3 * k + 1]!,
          swatch: colours[3 * k + 2]!,
        })),
      };
    }, classes);
    const page_: Rgba = painted.background;
    const faults: string[] = [];
    painted.found.forEach(({ bar, label, swatch }, k) => {
      const name = PHASE_LEGEND[k]![1];
      if (bar[3] !== 1 || label[3] !== 1) faults.push(`${name}: drawn with alpha`);
      const onPage = contrast(bar, page_);
      if (onPage < BOUNDARY_VISIBLE) faults.push(`${name}'s bar on the page: ${onPage.toFixed(2)}:1`);
      const swatchOnPage = contrast(swatch, page_);
      if (swatchOnPage < BOUNDARY_VISIBLE) faults.push(`${name}'s swatch on the page: ${swatchOnPage.toFixed(2)}:1`);
      const labelOnBar = contrast(label, bar);
      if (labelOnBar < READABLE)
        faults.push(`${name}'s label on its bar: ${labelOnBar.toFixed(2)}:1 (${label.join()} on ${bar.join()})`);
    });
    assert.deepEqual(faults, [], theme.name);
  }
  await page.close();
});

test('a bar 1 px wide is drawn in its colour, its page-coloured edge under it', async () => {
  // review 14R R5: a 0.5-px stroke over a 1-2 px Dynamo sliver left it dark blue on the dark page
  const page = await openWebview(browser(), { width: 200, height: 100 });
  await applyTheme(page, THEMES[1]!);
  const fill = await page.evaluate(async () => {
    const SVG = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'phase-track');
    svg.setAttribute('width', '40');
    svg.setAttribute('height', '16');
    svg.style.cssText = 'position: fixed; left: 0; top: 0';
    const bar = document.createElementNS(SVG, 'g');
    bar.setAttribute('class', 'phase phase-dynamo');
    const rect = document.createElementNS(SVG, 'rect');
    for (const [k, v] of Object.entries({ x: '10', y: '1', width: '1', height: '14' })) rect.setAttribute(k, v);
    bar.append(rect);
    svg.append(bar);
    document.body.append(svg);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    // its colour as the canvas paints it (the CSS gives color(srgb …))
    const ctx = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
    ctx.fillStyle = getComputedStyle(rect).fill;
    ctx.fillRect(0, 0, 1, 1);
    return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  });
  const shot = await page.screenshot({ clip: { x: 0, y: 0, width: 40, height: 16 } });
  await page.close();
  // the screenshot read in a page of its own (the webview's CSP fetches no data: URL)
  const reader = await browser().newPage();
  const shown = await reader.evaluate(async (png) => {
    const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
    const ctx = new OffscreenCanvas(image.width, image.height).getContext('2d')!;
    ctx.drawImage(image, 0, 0);
    return [...ctx.getImageData(10, 8, 1, 1).data.slice(0, 3)];
  }, shot.toString('base64'));
  await reader.close();
  assert.ok(
    shown.every((v, i) => Math.abs(v - fill[i]!) <= 3),
    `pixel ${shown.join(',')} is not the bar's ${fill.join(',')}`,
  );
});
