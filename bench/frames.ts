// Pan/zoom frame time of the timeline webview with ≥ 2 M events, in headless Chromium.
// The model is a real fixture scanned and tiled in memory; it is handed to the page as base64 buffers
// (Playwright's argument serialization is too slow for 70 MB of typed arrays) and posted as a load message.
//   node scripts/build.mjs && node --import tsx bench/frames.ts [EVENTS]
import { scanTraceFile } from '../extension/node/trace/scanner.ts';
import { debug, giveBackBrowser, openWebview, takeBrowser } from '../test/webview/harness.ts';
import { DEFAULT_FIXTURE, tileModel } from './gen-trace.ts';

const COLUMNS = ['start', 'dur', 'track', 'name', 'kind', 'depth', 'correlation'] as const;

async function main(): Promise<void> {
  const minEvents = Number(process.argv[2] ?? 2_000_000);
  const model = tileModel(await scanTraceFile(DEFAULT_FIXTURE), minEvents);
  const buffers = Object.fromEntries(
    COLUMNS.map((c) => [c, Buffer.from(model[c].buffer, model[c].byteOffset, model[c].byteLength).toString('base64')]),
  );
  const meta = {
    count: model.count,
    names: model.names,
    tracks: model.tracks,
    originUs: 0,
    steps: model.steps,
    stepSource: model.stepSource,
    warnings: [],
  };
  const browser = await takeBrowser();
  try {
    const page = await openWebview(browser, { width: 1600, height: 1000 });
    const loadStarted = performance.now();
    // A string function: tsx-compiled closures would reference a helper the page lacks.
    await page.evaluate(`(() => {
      const b64 = ${JSON.stringify(buffers)};
      const meta = ${JSON.stringify(meta)};
      const decode = (s) => { const bin = atob(s); const out = new Uint8Array(bin.length); for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i); return out.buffer; };
      const trace = { ...meta, start: new Float64Array(decode(b64.start)), dur: new Float64Array(decode(b64.dur)), track: new Uint32Array(decode(b64.track)),
        name: new Uint32Array(decode(b64.name)), kind: new Uint8Array(decode(b64.kind)), depth: new Uint16Array(decode(b64.depth)),
        correlation: new Float64Array(decode(b64.correlation)), kernelArgs: { slice: new Uint32Array(0), values: new Float64Array(0) } };
      window.postMessage({ type: 'trace', title: 'bench', source: { kind: 'traces', tracePaths: ['bench'] }, index: 0, panes: 1, pane: { label: 'tiled', trace }, events: trace.count, preview: false, from: 0 }, '*');
    })()`);
    await page.waitForFunction(
      () =>
        ((window as unknown as { __timelineDebug?: { framesDrawn: number } }).__timelineDebug?.framesDrawn ?? 0) > 0,
      undefined,
      { timeout: 120_000 },
    );
    const firstFrameSeconds = (performance.now() - loadStarted) / 1000;
    await page.keyboard.press('0'); // whole trace: the worst case for level of detail
    const box = await page.locator('canvas').first().boundingBox();
    if (!box) throw new Error('no canvas');
    const x = box.x + box.width / 2;
    const y = box.y + Math.min(box.height / 2, 400);
    await page.mouse.move(x, y);
    const before = (await debug(page)).framesDrawn;
    for (let i = 0; i < 60; i++) {
      await page.mouse.wheel(0, -120);
      await page.waitForTimeout(16);
    } // zoom in
    for (let i = 0; i < 40; i++) {
      await page.mouse.down();
      await page.mouse.move(x - 200, y, { steps: 4 });
      await page.mouse.up();
      await page.mouse.move(x, y);
    } // pan
    for (let i = 0; i < 60; i++) {
      await page.mouse.wheel(0, 120);
      await page.waitForTimeout(16);
    } // zoom out
    const d = await debug(page);
    const frames = d.frameTimes.slice(before - d.framesDrawn).sort((a, b) => a - b);
    if (frames.length === 0) throw new Error('no frame was drawn while zooming and panning');
    const pct = (p: number): number => frames[Math.min(frames.length - 1, Math.floor(p * frames.length))]!;
    console.log(
      `${model.count} events, ${model.tracks.length} tracks: first frame ${firstFrameSeconds.toFixed(2)} s after load was posted`,
    );
    console.log(
      `${frames.length} frames while zooming/panning: p50 ${pct(0.5).toFixed(2)} ms, p95 ${pct(0.95).toFixed(2)} ms, max ${pct(1).toFixed(2)} ms (canvas draw time per frame)`,
    );
    for (const pane of d.panes) console.log(`last frame drew ${pane.rects} rects for ${pane.slices} slices`);
  } finally {
    await giveBackBrowser();
  }
}

void main();
