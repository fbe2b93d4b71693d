// What a pane's canvas painted, read back from the page: the colours its frames name, a label row's colour either
// side of a band's edge, and whether a screenshot of the panes shows each pane's last row as its canvas drew it.
import type { Browser, Page } from 'playwright-core';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import type { Rgba } from '../../webview/ink.ts';

/** Every colour the frames painted, as the page's canvas paints it (sRGB bytes, alpha). */
export async function coloursOf(page: Page, frames: FrameLayout[]): Promise<Map<string, Rgba>> {
  const css = [...new Set(frames.flatMap((f) => f.texts.flatMap((t) => [t.ink, ...t.under].map((p) => p.colour))))];
  const rgba = await page.evaluate((colours) => {
    const ctx = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
    return colours.map((colour) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255] as const;
    });
  }, css);
  return new Map(css.map((c, i) => [c, rgba[i]!]));
}

/** The commonest colour (r, g, b) of a slice label's row in pane `p`'s canvas just left of x, and just right of it:
 *  what lies under the label's letters there. */
export async function rowColours(page: Page, p: number, x: number, middle: number): Promise<[number[], number[]]> {
  return page.evaluate(
    ([pane, edge, y]) => {
      const canvas = document.querySelectorAll<HTMLCanvasElement>('.pane canvas')[pane]!;
      const scale = canvas.width / canvas.clientWidth;
      const ctx = canvas.getContext('2d')!;
      // (no named function in here: the page has no __name of tsx's)
      return [edge - 5, edge + 2].map((from) => {
        const { data } = ctx.getImageData(Math.round(from * scale), Math.round((y - 6) * scale), 4 * scale, 12 * scale);
        const counts = new Map<string, number>();
        for (let k = 0; k < data.length; k += 4) {
          const key = `${data[k]},${data[k + 1]},${data[k + 2]}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        return [...counts]
          .sort((a, b) => b[1] - a[1])[0]![0]
          .split(',')
          .map(Number);
      }) as [number[], number[]];
    },
    [p, x, middle] as const,
  );
}

/**
 * A screenshot of the panes at `file`, whole: the viewport grown to hold them while it is taken (Chromium paints no
 * canvas past the viewport into a screenshot: a tall pane's rows below it came out blank, review 11 I2), as it was
 * after. Returns the PNG.
 */
export async function screenshotPanes(page: Page, file: string): Promise<Buffer> {
  const viewport = page.viewportSize()!;
  const bottom = await page
    .locator('.panes')
    .evaluate((panes) => Math.ceil(panes.getBoundingClientRect().bottom + window.scrollY));
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, bottom) });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const shot = await page.locator('.panes').screenshot({ path: file });
  await page.setViewportSize(viewport);
  return shot;
}

/** The panes whose last track's row (its first opaque pixel right of the names' column, at its name's middle) the
 *  screenshot `shot` of the panes does not show as the pane's canvas drew it. */
export async function lastRowsShown(
  browser: Browser,
  page: Page,
  frames: FrameLayout[],
  shot: Buffer,
): Promise<string[]> {
  const rows = frames.map((f) => {
    const last = f.texts.filter((t) => t.role === 'track').sort((a, b) => b.middle - a.middle)[0]!;
    return { left: f.left, y: last.middle, name: last.text };
  });
  // per pane, the pixel drawn there and where it lies in the panes' box
  const drawn = await page.evaluate((at) => {
    const panes = document.querySelector('.panes')!.getBoundingClientRect();
    const canvases = document.querySelectorAll<HTMLCanvasElement>('.pane canvas');
    return at.map(({ left, y }, p) => {
      const canvas = canvases[p]!;
      const box = canvas.getBoundingClientRect();
      const scale = canvas.width / canvas.clientWidth;
      const row = canvas.getContext('2d')!.getImageData(0, Math.round(y * scale), canvas.width, 1).data;
      let x = Math.ceil(left * scale);
      while (x < canvas.width && row[4 * x + 3] !== 255) x++;
      return x < canvas.width
        ? { x: box.left - panes.left + x / scale, y: box.top - panes.top + y, rgb: [...row.slice(4 * x, 4 * x + 3)] }
        : null;
    });
  }, rows);
  // the screenshot read in a page of its own (the webview's CSP fetches no data: URL)
  const reader = await browser.newPage();
  const shown = await reader.evaluate(
    async ([png, at]) => {
      const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
      const ctx = new OffscreenCanvas(image.width, image.height).getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      return at.map((point) =>
        point ? [...ctx.getImageData(Math.round(point.x), Math.round(point.y), 1, 1).data] : null,
      );
    },
    [shot.toString('base64'), drawn] as const,
  );
  await reader.close();
  return drawn.flatMap((point, p) => {
    const [pixel, on] = [point?.rgb, shown[p]];
    if (!pixel || !on) return [];
    const far = [0, 1, 2].some((k) => Math.abs(pixel[k]! - on[k]!) > 8);
    return far ? [`pane ${p}'s ${rows[p]!.name}: drawn ${pixel.join()}, shown ${on.join()}`] : [];
  });
}

/** The largest difference of two colours' channels. */
export const colourDistance = (a: readonly number[], b: readonly number[]): number =>
  Math.max(...a.map((v, k) => Math.abs(v - b[k]!)));
