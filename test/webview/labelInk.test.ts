// A slice label's ink is chosen for what the canvas painted under it: in light, dark and high contrast, the pixel
// just left of each label (inside its slice) is the colour its `under` says, and the label reads on it at 4.5:1
// (review 14T T7: the folded Python row's "CUDA set-up", the profiler's own work, was inked for its faint fill on the
// dark page, light grey on the slice blue of the frame around it at 1.9:1); and every slice colour of each theme, as
// theme.ts reads it, takes a label ink that reads at 4.5:1 on it, opaque, faded on the page and faded over itself.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { SLICE_KIND_COUNT } from '../../extension/shared/trace/model.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { contrast, over, READABLE, type Rgba } from '../../webview/ink.ts';
import { sentTraces } from '../sentTraces.ts';
import { coloursOf } from './canvasPixels.ts';
import { holdBrowser, openWebview, postPanes, ROOT } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

const browser = holdBrowser();

/** Canvas colour conversion and a glyph's blended edge may move a channel by a few steps. */
const NEAR = 8;

test("every slice label's ink reads at 4.5:1 on the pixels painted under it, a folded row's faded label too", async () => {
  const page = await openWebview(browser(), { width: 560, height: 900 });
  const trace = path.join(ROOT, 'test', 'fixtures', 'traces', 'mlp-default.trace.json');
  const content = await readTimelineSource({ kind: 'traces', tracePaths: [trace] });
  await postPanes(
    page,
    content.title,
    content.source,
    (await sentTraces(content)).map((m) => m.pane),
  );
  await page.keyboard.press('0'); // the whole trace: the warm-up call's profiler work, faded
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const frames = await page.evaluate(
      () => (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts,
    );
    const colours = await coloursOf(page, frames);
    const labels = frames[0]!.texts.filter((t) => t.role === 'slice');
    // the pixel 1.5 px left of each label: its slice's, 1.5 px past the slice's start (labels are inset 3 px)
    const shown = await page.evaluate(
      (at) => {
        const canvas = document.querySelector<HTMLCanvasElement>('.pane canvas')!;
        const scale = canvas.width / canvas.clientWidth;
        const ctx = canvas.getContext('2d')!;
        return at.map(([x, y]) => [...ctx.getImageData(Math.round(x! * scale), Math.round(y! * scale), 1, 1).data]);
      },
      labels.map((t) => [t.x - 1.5, t.middle]),
    );
    const paint = (colour: string, alpha: number): Rgba => {
      const c = colours.get(colour)!;
      return [c[0], c[1], c[2], c[3] * alpha];
    };
    const faults = labels.flatMap((t, k) => {
      const said = t.under.reduce<Rgba>((below, p) => over(paint(p.colour, p.alpha), below), [0, 0, 0, 1]);
      // (the canvas may leave the page's colour to the page under it: its pixel laid over the page)
      const [r, g, b, a] = shown[k]!;
      const painted = over([r!, g!, b!, a! / 255], paint(t.under[0]!.colour, 1));
      const where = `"${t.text}" at ${t.x.toFixed(0)},${t.y.toFixed(0)}`;
      const ratio = contrast(over(paint(t.ink.colour, t.ink.alpha), painted), painted);
      return [
        ...(said.slice(0, 3).some((v, c) => Math.abs(v - painted[c]!) > NEAR)
          ? [
              `${where}: under it ${painted.slice(0, 3).map(Math.round).join()}, said ${said.slice(0, 3).map(Math.round).join()}`,
            ]
          : []),
        ...(ratio < READABLE
          ? [`${where}: ${ratio.toFixed(2)}:1 on ${painted.slice(0, 3).map(Math.round).join()}`]
          : []),
      ];
    });
    assert.ok(labels.length > 5, `${theme.name}: ${labels.length} slice labels`);
    assert.ok(
      labels.some((t) => t.text.includes('CUDA set-up')),
      `${theme.name}: the faded label drawn: ${labels.map((t) => t.text).join(' | ')}`,
    );
    assert.deepEqual(faults, [], theme.name);
  }
  await page.close();
});

test('every slice colour of each theme takes a label ink that reads at 4.5:1 on it: opaque, faded, faded over itself', async () => {
  // theme.ts and ink.ts themselves, run in a page of their own (the webview's CSP runs no script but its bundle)
  const bundled = await build({
    stdin: {
      contents: `import { readTheme } from './webview/theme.ts';
        import { composite, readableInk, rgbaOf } from './webview/ink.ts';
        import { DIM_ALPHA } from './webview/sliceRects.ts';
        window.labelInks = () => {
          const theme = readTheme();
          const page = { colour: theme.background, alpha: 1 };
          return [...theme.kind, theme.communication].flatMap((fill) =>
            [[page, { colour: fill, alpha: 1 }], [page, { colour: fill, alpha: DIM_ALPHA }],
             [page, { colour: fill, alpha: 1 }, { colour: fill, alpha: DIM_ALPHA }]].map((under) => ({
              fill, alpha: under.at(-1).alpha, layers: under.length - 1,
              under: composite(under), ink: rgbaOf(readableInk(composite(under), [theme.foreground, theme.background])),
            })));
        };`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
  });
  const page = await browser().newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: bundled.outputFiles[0]!.text });
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    const inks = await page.evaluate(() =>
      (
        window as unknown as {
          labelInks(): { fill: string; alpha: number; layers: number; under: Rgba; ink: Rgba }[];
        }
      ).labelInks(),
    );
    assert.equal(inks.length, 3 * (SLICE_KIND_COUNT + 1));
    const faults = inks.flatMap(({ fill, alpha, layers, under, ink }) => {
      const ratio = contrast(over(ink, under), under);
      return ratio < READABLE ? [`on ${fill} (alpha ${alpha}, ${layers} layers): ${ratio.toFixed(2)}:1`] : [];
    });
    assert.deepEqual(faults, [], theme.name);
  }
  await page.close();
});
