// Runs the real webview bundle (dist/webview.js, build first) in Chromium's headless shell behind the real CSP from
// renderWebviewHtml, with an acquireVsCodeApi stub. Models are built by the real scanner.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { HostToWebview, TimelinePane, TimelineSource, WebviewToHost } from '../../extension/shared/protocol.ts';
import { reportMessage, sendTraces, type TimelineContent } from '../../extension/node/timelineContent.ts';
import { renderWebviewHtml } from '../../extension/editor/webviewHtml.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { HEADLESS_SHELL } from '../chromium.ts';

export const ROOT = join(__dirname, '..', '..');
/** Where the webview tests leave their screenshots for a person to look at (kept as the run's artifacts). */
export const ARTIFACTS = join(ROOT, 'test-results');
export const ORIGIN = 'https://webview.test';
const NONCE = 'dGVzdC1ub25jZS0xMjM0NTY3OA==';

/** The process's one Chromium (launched by the first taker) and how many hold it. */
let shared: Promise<Browser> | null = null;
let holders = 0;

/**
 * The process's Chromium, launched on the first take: each file takes it in its before hook, and test/webview/suite.ts
 * holds it across every file, so the directory launches one Chromium (~3 CPU-s), not one per file.
 */
export function takeBrowser(): Promise<Browser> {
  holders++;
  return (shared ??= chromium.launch(HEADLESS_SHELL));
}

/**
 * Closes every page opened in the browser (each in its own context: no cookie, storage or cache reaches the next
 * file), and Chromium itself once its last holder gives it back.
 */
export async function giveBackBrowser(): Promise<void> {
  const browser = await shared!;
  await Promise.all(browser.contexts().map((context) => context.close()));
  if (--holders > 0) return;
  shared = null;
  await browser.close();
}

/**
 * Registers the calling file's hooks (call it at the file's top level): the process's Chromium taken before its tests,
 * with ARTIFACTS made for their screenshots, and given back after them. Returns the browser held, once they run.
 */
export function holdBrowser(): () => Browser {
  let held: Browser | null = null;
  before(async () => {
    held = await takeBrowser();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(giveBackBrowser);
  return () => {
    if (!held) throw new Error('the browser is held only from the before hook holdBrowser registered');
    return held;
  };
}

/** What the page recorded: messages posted to the host, CSP violations, state. */
export interface PageRecord {
  posted: WebviewToHost[];
  cspViolations: string[];
}

/** Opens the webview page; state survives reloads in localStorage, like VS Code keeps it across hide/show. */
export async function openWebview(browser: Browser, size = { width: 1400, height: 1000 }): Promise<Page> {
  const page = await browser.newPage({ viewport: size });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  pageErrors.set(page, errors);
  // A string, not a function: tsx would wrap a function's inner closures in a helper the page lacks.
  await page.addInitScript(`
    const record = { posted: [], cspViolations: [] };
    window.__record = record;
    document.addEventListener('securitypolicyviolation', (event) => record.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));
    window.acquireVsCodeApi = () => ({
      postMessage: (message) => record.posted.push(message),
      getState: () => JSON.parse(localStorage.getItem('state') || 'null'),
      setState: (value) => localStorage.setItem('state', JSON.stringify(value)),
    });
  `);
  const html = renderWebviewHtml({
    scriptUri: `${ORIGIN}/dist/webview.js`,
    cspSource: ORIGIN,
    nonce: NONCE,
    title: 'Compile Lens test',
  });
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: html });
    if (path === '/dist/webview.js')
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(ROOT, 'dist', 'webview.js')) });
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${ORIGIN}/`);
  return page;
}

const pageErrors = new WeakMap<Page, string[]>();
/** Uncaught exceptions thrown in the page so far. */
export const errorsOf = (page: Page): string[] => pageErrors.get(page) ?? [];

export const record = (page: Page): Promise<PageRecord> =>
  page.evaluate(() => (window as unknown as { __record: PageRecord }).__record);

/** Posts what the host sends for a timeline it read: a report's 'report' first, then each trace in a 'trace'. */
export async function postTimeline(page: Page, content: TimelineContent): Promise<void> {
  const report = reportMessage(content);
  if (report) await post(page, report);
  await sendTraces(content, null, (message) => post(page, message));
}

/** What the host sends for traces it sends whole: a 'trace' for each pane, in order. */
export const traceMessages = (title: string, source: TimelineSource, panes: TimelinePane[]): HostToWebview[] =>
  panes.map((pane, index) => ({
    type: 'trace',
    title,
    source,
    index,
    panes: panes.length,
    pane,
    events: pane.trace.count,
    preview: false,
    from: 0,
  }));

/** Posts the 'trace' of each pane, sent whole, each shown and drawn before the next. */
export async function postPanes(
  page: Page,
  title: string,
  source: TimelineSource,
  panes: TimelinePane[],
): Promise<void> {
  for (const message of traceMessages(title, source, panes)) await post(page, message);
}

/** Posts a host message into the page, as VS Code would; a report waits until its title shows, a trace until it is shown and drawn. */
export async function post(page: Page, message: HostToWebview): Promise<void> {
  const shown = await page.evaluate(
    () => (window as unknown as { __timelineDebug?: { shown: number } }).__timelineDebug?.shown ?? 0,
  );
  await page.evaluate((m) => window.postMessage(m, '*'), message);
  if (message.type === 'report')
    await page.waitForFunction((title) => document.querySelector('h1')?.textContent === title, message.title);
  if (message.type !== 'trace') return;
  await page.waitForFunction(
    (before) => ((window as unknown as { __timelineDebug?: { shown: number } }).__timelineDebug?.shown ?? 0) > before,
    shown,
  );
  // the frame the message scheduled runs before an animation-frame callback asked for after it
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}

export const tracesSource = (...paths: string[]): TimelineSource => ({ kind: 'traces', tracePaths: paths });

export interface TimelineDebug {
  panes: {
    label: string;
    events: number;
    tracks: number;
    /** its region's fit: how much the shared scale stretches its times (webview/paneFit.ts) */
    stretch: number;
    rects: number;
    slices: number;
    rows: number;
    labels: number;
  }[];
  selected: { pane: number; slice: number; name: string; linked: number; arrows: number } | null;
  range: { pane: number; from: number; to: number } | null;
  /** null until found (after the first frame) */
  marks: { kind: string; label: string; compileId: string | null }[][] | null;
  focus: { pane: number; places: number } | null;
  domain: [number, number];
  frameTimes: number[];
  comparisons: { before: string; after: string; rows: { metric: string; before: number; after: number }[] }[];
  framesDrawn: number;
  /** a trace is still to come, or a pane shows only its preview */
  partial: boolean;
  /** trace messages shown so far */
  shown: number;
  timings: { scriptStart: number; message: number; built: number; firstDraw: number; complete: number };
}

export const debug = (page: Page): Promise<TimelineDebug> =>
  page.evaluate(() => {
    const d = (window as unknown as { __timelineDebug: TimelineDebug }).__timelineDebug;
    return {
      panes: d.panes,
      selected: d.selected,
      range: d.range,
      marks: d.marks,
      focus: d.focus,
      domain: d.domain,
      frameTimes: d.frameTimes,
      comparisons: d.comparisons,
      framesDrawn: d.framesDrawn,
      partial: d.partial,
      shown: d.shown,
      timings: d.timings,
    };
  });

/** Page coordinates of the nth slice called `name` in pane `pane`, of those in view. */
export async function slicePoint(
  page: Page,
  pane: number,
  name: string,
  nth = 0,
  onGpu?: boolean,
): Promise<{ x: number; y: number }> {
  // the frame a key or a zoom asked for drawn first: the rows move with the view (a track idle in it is not drawn)
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const local = await page.evaluate(
    ([p, n, k, g]) =>
      (
        window as unknown as {
          __timelineDebug: { locate(p: number, n: string, k: number, g?: boolean): { x: number; y: number } | null };
        }
      ).__timelineDebug.locate(p, n, k, g),
    [pane, name, nth, onGpu] as const,
  );
  if (!local) throw new Error(`slice ${name} not visible in pane ${pane}`);
  const box = await page.locator('canvas').nth(pane).boundingBox();
  if (!box) throw new Error('canvas not laid out');
  return { x: box.x + local.x, y: box.y + local.y };
}

/** The recorded H100 MLP's eager and default traces as two panes ("eager", "default"): most timeline tests' pair. */
export async function postMlpPair(page: Page): Promise<{ eager: TraceModel; compiled: TraceModel }> {
  const trace = (name: string) => scanTraceFile(join(ROOT, 'test', 'fixtures', 'traces', name));
  const [eager, compiled] = await Promise.all([trace('mlp-eager.trace.json'), trace('mlp-default.trace.json')]);
  await postPanes(page, 'mlp', tracesSource('e', 'd'), [
    { label: 'eager', trace: eager },
    { label: 'default', trace: compiled },
  ]);
  return { eager, compiled };
}
