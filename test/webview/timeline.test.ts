// The timeline webview in headless Chromium: tracks drawn, hover and selection, launch ↔ kernel links,
// compare table equal to compareTraces, state across reloads, report header reveal, a big trace's preview
// replaced by its full load (view and selection kept), and hostile strings.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TimelineSource } from '../../extension/shared/protocol.ts';
import type { Report } from '../../extension/shared/report.ts';
import { scanTraceBytes } from '../../extension/node/trace/byteScanner.ts';
import { compareTraces } from '../../webview/analysis/compare.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { sliceWindow, viewWindow, type FirstView } from '../../extension/shared/trace/window.ts';
import { deflateKernelArgs, deflateRows } from '../../extension/node/trace/deflatedPieces.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { sentMessages } from '../sentTraces.ts';
import {
  debug,
  errorsOf,
  launchBrowser,
  openWebview,
  post,
  postPanes,
  record,
  slicePoint,
  tracesSource,
  type TimelineDebug,
} from './harness.ts';

const fixture = (name: string): string => join(__dirname, '..', 'fixtures', 'traces', name);
let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

describe('timeline webview', () => {
  test("says ready, draws every pane's tracks, no CSP violation, no page error", async () => {
    const page = await openWebview(browser);
    const [eager, compiled] = await Promise.all([
      scanTraceFile(fixture('mlp-eager.trace.json')),
      scanTraceFile(fixture('mlp-default.trace.json')),
    ]);
    await postPanes(page, 'mlp', tracesSource('e', 'd'), [
      { label: 'eager', trace: eager },
      { label: 'default', trace: compiled },
    ]);
    const d = await debug(page);
    assert.deepEqual(
      d.panes.map((p) => [p.label, p.events, p.tracks]),
      [
        ['eager', eager.count, eager.tracks.length],
        ['default', compiled.count, compiled.tracks.length],
      ],
    );
    for (const pane of d.panes)
      assert.ok(pane.rects > 20 && pane.rows > 10, `${pane.label} drew ${pane.rects} rects in ${pane.rows} rows`);
    const { posted, cspViolations } = await record(page);
    assert.deepEqual(posted[0], { type: 'ready', view: null });
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test('hover shows a tooltip; clicking a kernel shows its args and highlights its launch', async () => {
    const page = await openWebview(browser);
    const model = await scanTraceFile(fixture('mlp-default.trace.json'));
    await postPanes(page, 'mlp', tracesSource('d'), [{ label: 'default', trace: model }]);
    const kernel = 'triton_poi_fused_addmm_relu_0';
    const point = await slicePoint(page, 0, kernel, 0, true);
    await page.mouse.move(point.x, point.y);
    await page.locator('.tooltip').waitFor({ state: 'visible' });
    assert.match(await page.locator('.tooltip').innerText(), /triton_poi_fused_addmm_relu_0/);
    await page.mouse.click(point.x, point.y);
    const details = page.locator('.details');
    await details.waitFor();
    const text = await details.innerText();
    assert.match(text, /generated kernel/);
    for (const fact of ['grid', 'block', 'registers per thread', 'shared memory', 'estimated occupancy', 'correlation'])
      assert.ok(text.includes(fact), fact);
    assert.match(text, /launched by \(arrows on the timeline\): 1/);
    assert.match(text, /runtime launch: cuLaunchKernel|runtime launch: cudaLaunchKernel/);
    const d = await debug(page);
    assert.equal(d.selected?.name, kernel);
    assert.equal(d.selected?.linked, 1);
    assert.equal(d.selected?.arrows, 1);
    await page.close();
  });

  test('selecting a cudaGraphLaunch highlights every kernel of its replay', async () => {
    const page = await openWebview(browser);
    const model = await scanTraceFile(fixture('mlp-reduce-overhead.trace.json'));
    await postPanes(page, 'ro', tracesSource('r'), [{ label: 'reduce-overhead', trace: model }]);
    await page.keyboard.press('0'); // fit all: the launch may sit before the aligned step
    await page.waitForFunction(
      () => (window as unknown as { __timelineDebug: { framesDrawn: number } }).__timelineDebug.framesDrawn > 1,
    );
    const point = await slicePoint(page, 0, 'cudaGraphLaunch', 1);
    await page.mouse.click(point.x, point.y);
    await page.locator('.details').waitFor();
    const d = await debug(page);
    assert.equal(d.selected?.name, 'cudaGraphLaunch');
    // 18 replayed kernels over 3 launches, plus the memset each replay does
    assert.equal(d.selected?.linked, 7);
    assert.match(await page.locator('.details').innerText(), /CUDA-graph replay: /);
    await page.close();
  });

  test('compare table numbers equal compareTraces', async () => {
    const page = await openWebview(browser);
    const [eager, ro] = await Promise.all([
      scanTraceFile(fixture('mlp-eager.trace.json')),
      scanTraceFile(fixture('mlp-reduce-overhead.trace.json')),
    ]);
    await postPanes(page, 'cmp', tracesSource('e', 'r'), [
      { label: 'eager', trace: eager },
      { label: 'reduce-overhead', trace: ro },
    ]);
    // a metric both traces have none of is left out (GPU metrics on a CPU trace, CUDA-graph replays of eager)
    const expected = compareTraces(eager, ro).rows.filter((r) => r.before !== 0 || r.after !== 0);
    const cells = await page.locator('.compare-table tr[data-metric]').evaluateAll((rows) =>
      rows.map((row) => ({
        metric: (row as HTMLElement).dataset['metric'] ?? '',
        values: [...row.querySelectorAll('td[data-value]')].map((td) => Number((td as HTMLElement).dataset['value'])),
      })),
    );
    assert.deepEqual(
      cells,
      expected.map((r) => ({ metric: r.metric, values: [r.before, r.after] })),
    );
    assert.match(await page.locator('.compare').innerText(), /kernels only in eager/);
    await page.close();
  });

  test('view state (zoom, search, selection) survives a hide/show reload', async () => {
    const page = await openWebview(browser);
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const source = tracesSource('e');
    await postPanes(page, 'mlp', source, [{ label: 'eager', trace: model }]);
    const point = await slicePoint(page, 0, 'aten::addmm');
    await page.mouse.click(point.x, point.y);
    await page.locator('.panes').focus();
    await page.keyboard.press('w');
    await page.keyboard.press('w');
    await page.waitForFunction(
      () =>
        (window as unknown as { __timelineDebug: { domain: number[] } }).__timelineDebug.domain[1]! -
          (window as unknown as { __timelineDebug: { domain: number[] } }).__timelineDebug.domain[0]! <
        300,
    );
    const beforeReload = await debug(page);
    await page.reload();
    await postPanes(page, 'mlp', source, [{ label: 'eager', trace: model }]);
    const afterReload = await debug(page);
    assert.deepEqual(
      afterReload.domain.map((v) => v.toFixed(3)),
      beforeReload.domain.map((v) => v.toFixed(3)),
    );
    assert.equal(afterReload.selected?.name, 'aten::addmm');
    const state = await page.evaluate(() => JSON.parse(localStorage.getItem('state') ?? 'null') as { source: unknown });
    assert.deepEqual(state.source, source, 'source kept for the serializer');
    await page.close();
  });

  test('report header: speedups with spread, kernels/step, graph breaks; a location click posts reveal', async () => {
    const page = await openWebview(browser);
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const source = { kind: 'report' as const, reportPath: '/r/report.json' };
    await post(page, { type: 'report', title: 'report', source, report: sampleReport('/work/demo.py'), traces: 1 });
    await postPanes(page, 'report', source, [{ label: 'eager', trace: model }]);
    const header = await page.locator('.report').innerText();
    assert.match(header, /0\.36×/);
    assert.match(header, /ratios varied 4% between rounds/);
    assert.match(header, /7 → 8/);
    assert.match(header, /1 graph break/);
    assert.match(header, /Recommendation: Stay eager: compiled is slower than eager at this size\./);
    await page.locator('.report button.link').click();
    const { posted } = await record(page);
    assert.deepEqual(posted.at(-1), { type: 'reveal', file: '/work/demo.py', line: 57 });
    await page.close();
  });
});

/** What the host sends first for big traces: each pane cut to the slices around `view`, with its full count. */
async function postPreviews(
  page: Page,
  source: TimelineSource,
  panes: { label: string; model: TraceModel }[],
  view: FirstView | null,
): Promise<void> {
  for (const [index, { label, model }] of panes.entries()) {
    const [from, to] = viewWindow(model.steps, view)!;
    await post(page, {
      type: 'trace',
      title: 'big',
      source,
      index,
      panes: panes.length,
      pane: { label, trace: sliceWindow(model, from, to) },
      events: model.count,
      preview: true,
      from: 0,
    });
  }
}

/** What the host sends then: each pane's full trace. */
const postFull = (page: Page, source: TimelineSource, panes: { label: string; model: TraceModel }[]): Promise<void> =>
  postPanes(
    page,
    'big',
    source,
    panes.map(({ label, model }) => ({ label, trace: model })),
  );

const domainWidth = (d: TimelineDebug): number => d.domain[1] - d.domain[0];

async function zoomIn(page: Page, presses: number): Promise<TimelineDebug> {
  const before = await debug(page);
  await page.locator('.panes').focus();
  for (let k = 0; k < presses; k++) await page.keyboard.press('w');
  await page.waitForFunction((width) => {
    const d = (window as unknown as { __timelineDebug: { domain: number[] } }).__timelineDebug.domain;
    return d[1]! - d[0]! < width * 0.99;
  }, domainWidth(before));
  return debug(page);
}

describe('a big trace: preview first, then the full load', () => {
  test('the preview draws at once: full event count, loading note, no comparison yet, zoom and search work', async () => {
    const page = await openWebview(browser);
    const [eager, compiled] = await Promise.all([
      scanTraceFile(fixture('mlp-eager.trace.json')),
      scanTraceFile(fixture('mlp-default.trace.json')),
    ]);
    const panes = [
      { label: 'eager', model: eager },
      { label: 'default', model: compiled },
    ];
    await postPreviews(page, tracesSource('e', 'd'), panes, null);
    const d = await debug(page);
    assert.equal(d.partial, true);
    assert.ok(d.framesDrawn > 0);
    assert.ok(d.timings.message > 0 && d.timings.firstDraw >= d.timings.message, JSON.stringify(d.timings));
    assert.equal(d.timings.complete, 0, 'not complete before the full load');
    // the host reads the full traces once the preview is drawn, not while it is being drawn
    assert.deepEqual(
      (await record(page)).posted.filter((m) => m.type === 'drawn'),
      [{ type: 'drawn' }],
    );
    d.panes.forEach((pane, p) => {
      assert.ok(
        pane.events > 0 && pane.events < panes[p]!.model.count,
        `${pane.label}: the preview holds ${pane.events} of ${panes[p]!.model.count} slices`,
      );
      assert.ok(pane.rects > 10, `${pane.label} drew ${pane.rects} rects`);
    });
    const labels = await page.locator('.pane-label').allInnerTexts();
    assert.deepEqual(labels, [
      `eager — ${eager.count.toLocaleString('en-US')} events, ${eager.steps.length} steps — loading all slices…`,
      `default — ${compiled.count.toLocaleString('en-US')} events, ${compiled.steps.length} steps — loading all slices…`,
    ]);
    assert.equal(await page.locator('.compare-table').count(), 0);
    assert.deepEqual(d.comparisons, []);
    assert.match(
      await page.locator('.compare-pending').innerText(),
      /comparison .* appears when they have fully loaded/,
    );
    assert.equal(await page.locator('.warning').count(), 0);

    const zoomed = await zoomIn(page, 1);
    assert.ok(Math.abs(domainWidth(zoomed) - domainWidth(d) / 1.5) < 1e-6 * domainWidth(d), 'one press zooms once');
    await page.locator('vscode-textfield').click();
    await page.keyboard.type('addmm');
    await page.waitForFunction(() => /\d+ matching slices/.test(document.querySelector('.matches')?.textContent ?? ''));
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test('the full load replaces the preview: same view, same search, the selected slice still selected, comparison shown', async () => {
    const page = await openWebview(browser);
    const [eager, compiled] = await Promise.all([
      scanTraceFile(fixture('mlp-eager.trace.json')),
      scanTraceFile(fixture('mlp-default.trace.json')),
    ]);
    const panes = [
      { label: 'eager', model: eager },
      { label: 'default', model: compiled },
    ];
    const source = tracesSource('e', 'd');
    await postPreviews(page, source, panes, null);

    const kernel = 'triton_poi_fused_addmm_relu_0';
    await page.locator('canvas').nth(1).scrollIntoViewIfNeeded();
    const point = await slicePoint(page, 1, kernel, 0, true);
    await page.mouse.click(point.x, point.y);
    await page.locator('.details').waitFor();
    const detailsBefore = await page.locator('.details').innerText();
    await page.locator('vscode-textfield').click();
    await page.keyboard.type('relu');
    await page.waitForFunction(() => /\d+ matching slices/.test(document.querySelector('.matches')?.textContent ?? ''));
    const before = await zoomIn(page, 2);
    assert.equal(before.selected?.name, kernel);

    // every frame from here on must show the zoomed view: no "fit step" in between
    await page.evaluate(`(() => {
      const seen = window.__domains = [];
      const tick = () => { seen.push(window.__timelineDebug.domain.slice()); if (!window.__stopDomains) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    })()`);
    await postFull(page, source, panes);
    await page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    const domains = await page.evaluate<number[][]>(
      `(() => { window.__stopDomains = true; return window.__domains; })()`,
    );
    const after = await debug(page);

    assert.equal(after.partial, false);
    assert.deepEqual(
      after.panes.map((p) => p.events),
      [eager.count, compiled.count],
    );
    assert.deepEqual(after.domain, before.domain);
    assert.ok(domains.length >= 2, `${domains.length} frames sampled`);
    for (const domain of domains) assert.deepEqual(domain, before.domain);
    assert.equal(after.selected?.name, kernel);
    assert.equal(after.selected?.pane, 1);
    assert.notEqual(
      after.selected?.slice,
      before.selected?.slice,
      'the index moved from the preview to the full model (mapped, not reused)',
    );
    assert.equal(compiled.names[compiled.name[after.selected.slice]!], kernel);
    assert.equal(
      await page.locator('.details').innerText(),
      detailsBefore,
      'same slice: same start, duration, track, links',
    );
    assert.equal(await page.locator('vscode-textfield').evaluate((field) => (field as HTMLInputElement).value), 'relu');
    assert.match(await page.locator('.matches').innerText(), /\d+ matching slices/);

    const labels = await page.locator('.pane-label').allInnerTexts();
    assert.ok(
      labels.every((label) => !label.includes('loading')),
      labels.join(' | '),
    );
    assert.equal(await page.locator('.compare-pending').count(), 0);
    const expected = compareTraces(eager, compiled).rows.filter((r) => r.before !== 0 || r.after !== 0);
    const cells = await page.locator('.compare-table tr[data-metric]').evaluateAll((rows) =>
      rows.map((row) => ({
        metric: (row as HTMLElement).dataset['metric'] ?? '',
        values: [...row.querySelectorAll('td[data-value]')].map((td) => Number((td as HTMLElement).dataset['value'])),
      })),
    );
    assert.deepEqual(
      cells,
      expected.map((r) => ({ metric: r.metric, values: [r.before, r.after] })),
    );
    // the comparison itself keeps every metric; the table leaves out those both sides have none of
    assert.deepEqual(
      after.comparisons[0]!.rows,
      compareTraces(eager, compiled).rows.map((r) => ({ metric: r.metric, before: r.before, after: r.after })),
    );

    const { timings } = after;
    assert.ok(
      timings.complete >= timings.built && timings.built >= timings.message && timings.firstDraw <= timings.complete,
      JSON.stringify(timings),
    );
    // the keyboard drives the full panes: one press zooms by 1.5 from the kept view
    const zoomed = await zoomIn(page, 1);
    assert.ok(
      Math.abs(domainWidth(zoomed) - domainWidth(after) / 1.5) < 1e-6 * domainWidth(after),
      `${domainWidth(after)} -> ${domainWidth(zoomed)}`,
    );
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test('a single load: complete equals built, never partial', async () => {
    const page = await openWebview(browser);
    const model = await scanTraceFile(fixture('mlp-default.trace.json'));
    await postFull(page, tracesSource('d'), [{ label: 'default', model }]);
    const d = await debug(page);
    assert.equal(d.partial, false);
    assert.ok(d.timings.built > 0);
    assert.equal(d.timings.complete, d.timings.built);
    assert.equal(
      await page.locator('.pane-label').innerText(),
      `default — ${model.count.toLocaleString('en-US')} events, ${model.steps.length} steps`,
    );
    await page.close();
  });

  test("a full trace in parts ('rows' messages, then its 'trace'): drawn whole, every slice where it is", async () => {
    const page = await openWebview(browser);
    const path = fixture('mlp-default.trace.json');
    const model = await scanTraceFile(path);
    for (const message of await sentMessages(
      await readTimelineSource({ kind: 'traces', tracePaths: [path] }),
      null,
      0,
      300,
    ))
      await post(page, message);
    const d = await debug(page);
    assert.deepEqual([d.partial, d.shown, d.panes[0]!.events], [false, 2, model.count]);
    const kernel = 'triton_poi_fused_addmm_relu_0';
    const point = await slicePoint(page, 0, kernel, 0, true);
    await page.mouse.click(point.x, point.y);
    assert.equal((await debug(page)).selected?.name, kernel);
    const details = await page.locator('.details').innerText();
    assert.match(details, /grid\s+\d+ × 1 × 1/);
    // the parts and the kernel args deflated (a webview across a network link): inflated in turn, the same trace drawn
    const deflated = await openWebview(browser);
    for (const message of await sentMessages(
      await readTimelineSource({ kind: 'traces', tracePaths: [path] }),
      null,
      0,
      300,
    )) {
      const kernelArgs = message.type === 'trace' ? message.pane.trace.kernelArgs : null;
      await post(
        deflated,
        message.type === 'rows' && 'runs' in message.rows
          ? { ...message, rows: deflateRows(message.rows) }
          : message.type === 'trace' && kernelArgs && 'fields' in kernelArgs
            ? {
                ...message,
                pane: { ...message.pane, trace: { ...message.pane.trace, kernelArgs: deflateKernelArgs(kernelArgs) } },
              }
            : message,
      );
    }
    const fromDeflated = await debug(deflated);
    assert.deepEqual(
      [fromDeflated.partial, fromDeflated.shown, fromDeflated.panes[0]!.events],
      [false, 2, model.count],
    );
    const again = await slicePoint(deflated, 0, kernel, 0, true);
    assert.deepEqual(again, point);
    await deflated.mouse.click(again.x, again.y);
    assert.equal(await deflated.locator('.details').innerText(), details);
    assert.deepEqual(errorsOf(deflated), []);
    await deflated.close();
    // a part missing: said, not drawn from columns with holes
    const sent = await sentMessages(
      await readTimelineSource({ kind: 'traces', tracePaths: [path] }),
      null,
      Infinity,
      300,
    );
    for (const message of sent.filter((m) => !(m.type === 'rows' && m.from === 300)))
      await page.evaluate((m) => window.postMessage(m, '*'), message);
    await page.locator('p.error').waitFor();
    assert.match(await page.locator('p.error').innerText(), /rows missing/);
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test('ready carries the saved view; after a reload the preview opens there and the saved selection returns with the full load', async () => {
    const page = await openWebview(browser);
    const model = await scanTraceFile(fixture('mlp-default.trace.json'));
    const source = tracesSource('d');
    const panes = [{ label: 'default', model }];
    assert.deepEqual((await record(page)).posted[0], { type: 'ready', view: null });
    await postFull(page, source, panes);
    const point = await slicePoint(page, 0, 'aten::addmm');
    await page.mouse.click(point.x, point.y);
    const before = await zoomIn(page, 3);
    assert.equal(before.selected?.name, 'aten::addmm');

    await page.reload();
    const ready = (await record(page)).posted[0];
    assert.deepEqual(ready, { type: 'ready', view: { step: 0, domain: before.domain } });
    assert.ok(ready.type === 'ready' && ready.view);
    await postPreviews(page, source, panes, ready.view);
    const preview = await debug(page);
    assert.equal(preview.partial, true);
    assert.ok(preview.panes[0]!.events < model.count);
    assert.deepEqual(preview.domain, before.domain);
    assert.ok(preview.panes[0]!.rects > 0, 'the preview covers the saved view');
    assert.equal(preview.selected, null, "a full model's slice index means nothing in the preview");
    const saved = await page.evaluate(
      () =>
        JSON.parse(localStorage.getItem('state') ?? 'null') as {
          view: { selected: { pane: number; slice: number } | null };
        },
    );
    assert.equal(saved.view.selected?.slice, before.selected?.slice, 'the selection is kept while the preview shows');

    await postFull(page, source, panes);
    const after = await debug(page);
    assert.equal(after.partial, false);
    assert.deepEqual(after.domain, before.domain);
    assert.deepEqual(after.selected, before.selected);
    await page.close();
  });
});

describe('webview security', () => {
  const HOSTILE = [
    '<script>window.__pwned = "script"</script>',
    '<img src=x onerror="window.__pwned=\'img\'">',
    'javascript:window.__pwned="js-url"',
    '"><svg onload="window.__pwned=\'svg\'">',
    '<meta http-equiv="Content-Security-Policy" content="script-src \'unsafe-inline\'"><script>window.__pwned=\'meta\'</script>',
    '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    '<style>@import "https://evil.test/x.css";</style>',
    '<link rel=stylesheet href="https://evil.test/y.css">',
  ] as const;

  test('hostile names, args and report strings render as text; nothing executes or loads', async () => {
    const page = await openWebview(browser);
    const events = HOSTILE.flatMap((name, k) => [
      {
        ph: 'X',
        cat: 'cpu_op',
        name,
        pid: 1,
        tid: name,
        ts: 100 + k * 10,
        dur: 8,
        args: { correlation: k + 1, 'Input Dims': name },
      },
      {
        ph: 'X',
        cat: 'kernel',
        name,
        pid: 0,
        tid: 7,
        ts: 102 + k * 10,
        dur: 5,
        args: { correlation: k + 1, grid: [1, 1, 1], block: [name, 1, 1] },
      },
    ]);
    const model = scanTraceBytes(new TextEncoder().encode(JSON.stringify({ traceEvents: events })));
    const report = sampleReport(HOSTILE[2]);
    report.target.name = HOSTILE[0];
    report.recommendation.reason = HOSTILE[1];
    const source = { kind: 'report' as const, reportPath: HOSTILE[4] };
    await post(page, { type: 'report', title: HOSTILE[3], source, report, traces: 2 });
    await postPanes(page, HOSTILE[3], source, [
      { label: HOSTILE[1], trace: model },
      { label: HOSTILE[5], trace: model },
    ]);
    await page.locator('.panes').focus();
    await page.keyboard.press('0');
    for (const name of HOSTILE) {
      const point = await slicePoint(page, 0, name);
      await page.mouse.move(point.x, point.y);
      await page.mouse.click(point.x, point.y);
      assert.equal(await page.locator('.details h3').innerText(), name);
    }
    await page.locator('.panes').focus();
    await page.keyboard.type('script');
    await page.locator('vscode-textfield').click();
    await page.keyboard.type(HOSTILE[1]);
    await page.locator('.report button.link').click();
    await page.waitForTimeout(300);
    const dom = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      scripts: document.querySelectorAll('script').length,
      injected:
        document.querySelectorAll('img, iframe, svg, object, embed, link, a[href]').length +
        document.querySelectorAll('meta[http-equiv]').length -
        1,
      handlers: [...document.querySelectorAll('*')].filter((node) =>
        [...node.attributes].some((a) => a.name.startsWith('on')),
      ).length,
      styles: document.querySelectorAll('style').length,
    }));
    assert.deepEqual(dom, { pwned: undefined, scripts: 1, injected: 0, handlers: 0, styles: 1 });
    assert.ok((await page.locator('h1').innerText()).includes('<svg onload'), 'title shown as text');
    const { cspViolations, posted } = await record(page);
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(
      posted.at(-1),
      { type: 'reveal', file: HOSTILE[2], line: 57 },
      'a javascript: location is only data to the host',
    );
    assert.deepEqual(errorsOf(page), []);
    assert.equal(page.url(), 'https://webview.test/');
    await page.close();
  });

  test('the CSP really blocks what a successful injection would do', async () => {
    const page = await openWebview(browser);
    await page.evaluate(() => {
      const inline = document.createElement('script');
      inline.textContent = 'window.__pwned = "inline"';
      document.body.append(inline);
      const img = document.createElement('img');
      img.src = 'https://evil.test/pixel.png';
      document.body.append(img);
    });
    await page.waitForTimeout(300);
    const { cspViolations } = await record(page);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.ok(
      cspViolations.some((v) => v.startsWith('script-src')),
      cspViolations.join(', '),
    );
    assert.ok(
      cspViolations.some((v) => v.startsWith('img-src')),
      cspViolations.join(', '),
    );
    await page.close();
  });
});

function sampleReport(breakFile: string): Report {
  const timing = (medianMs: number, spreadPct: number) => ({
    medianMs,
    minMs: medianMs * 0.95,
    maxMs: medianMs * 1.05,
    spreadPct,
    rounds: [medianMs],
    callsPerRound: 30,
    method: 'cuda-events',
  });
  return {
    schemaVersion: '1.0',
    runner: { version: '0.1.0' },
    createdAt: '2026-11-22T11:00:00Z',
    status: 'ok',
    error: null,
    environment: {
      python: '3.12',
      torch: '2.11.0',
      device: 'cuda',
      deviceName: 'NVIDIA H100 80GB HBM3',
      platform: 'linux',
    },
    target: { kind: 'sample', name: 'mlp' },
    settings: {},
    eager: { timing: timing(0.114, 3.1), trace: 'eager.trace.json', kernelsPerStep: 7 },
    modes: [
      {
        mode: 'default',
        status: 'ok',
        error: null,
        compileSeconds: 2.1,
        timing: timing(0.312, 4.2),
        speedup: 0.363,
        trace: 'default.trace.json',
        kernelsPerStep: 8,
        compiler: {
          graphCount: 2,
          graphBreaks: [{ reason: 'print() call', location: { file: breakFile, line: 57 }, userStack: [] }],
          recompiles: [],
        },
      },
    ],
    recommendation: {
      mode: null,
      verdict: 'stay-eager',
      reason: 'Stay eager: compiled is slower than eager at this size.',
    },
  };
}
