// A big trace in the timeline webview: its preview drawn first, then replaced by its full load (the view, the search
// and the selection kept), a trace sent in parts or deflated drawn whole, the saved view across a reload.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TimelineSource } from '../../extension/shared/protocol.ts';
import { compareTraces } from '../../webview/analysis/compare.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { OPENING_STEP, sliceWindow, viewWindow, type FirstView } from '../../extension/shared/trace/window.ts';
import { deflateKernelArgs, deflateRows } from '../../extension/node/trace/deflatedPieces.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { sentMessages } from '../sentTraces.ts';
import {
  debug,
  errorsOf,
  holdBrowser,
  openWebview,
  post,
  postPanes,
  record,
  slicePoint,
  tracesSource,
  type TimelineDebug,
} from './harness.ts';

const fixture = (name: string): string => join(__dirname, '..', 'fixtures', 'traces', name);
const browser = holdBrowser();

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
    const page = await openWebview(browser());
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
      // the slices around the first call (mlp-default's, its compiled call's set-up included, is most of its trace)
      const { model } = panes[p]!;
      assert.equal(pane.events, sliceWindow(model, ...viewWindow(model.steps, null)!).count, pane.label);
      assert.ok(pane.rects > 10, `${pane.label} drew ${pane.rects} rects`);
    });
    assert.ok(d.panes[0]!.events < eager.count, `eager: the preview holds ${d.panes[0]!.events} of ${eager.count}`);
    const labels = await page.locator('.pane-label').allInnerTexts();
    assert.deepEqual(labels, [
      `eager — ${eager.count.toLocaleString('en-US')} events, ${eager.steps.length} calls — loading all slices…`,
      `default — ${compiled.count.toLocaleString('en-US')} events, ${compiled.steps.length} calls — loading all slices…`,
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
    const page = await openWebview(browser());
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

    // in the eager pane: its preview is a part of its trace (mlp-default's first call is most of its own)
    const kernel = eager.names.find((name) => name.startsWith('void cutlass::Kernel2<'))!;
    const point = await slicePoint(page, 0, kernel, 0, true);
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
    assert.equal(after.selected?.pane, 0);
    assert.notEqual(
      after.selected?.slice,
      before.selected?.slice,
      'the index moved from the preview to the full model (mapped, not reused)',
    );
    assert.equal(eager.names[eager.name[after.selected.slice]!], kernel);
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
    const page = await openWebview(browser());
    const model = await scanTraceFile(fixture('mlp-default.trace.json'));
    await postFull(page, tracesSource('d'), [{ label: 'default', model }]);
    const d = await debug(page);
    assert.equal(d.partial, false);
    assert.ok(d.timings.built > 0);
    assert.equal(d.timings.complete, d.timings.built);
    assert.equal(
      await page.locator('.pane-label').innerText(),
      `default — ${model.count.toLocaleString('en-US')} events, ${model.steps.length} calls`,
    );
    await page.close();
  });

  test("a full trace in parts ('rows' messages, then its 'trace'): drawn whole, every slice where it is", async () => {
    const page = await openWebview(browser());
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
    assert.match(details, /grid \(blocks\)\s+\d+ × 1 × 1/);
    // the parts and the kernel args deflated (a webview across a network link): inflated in turn, the same trace drawn
    const deflated = await openWebview(browser());
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
    const page = await openWebview(browser());
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
    // on the step it opened at: the first past the warm-up
    assert.deepEqual(ready, { type: 'ready', view: { step: OPENING_STEP, domain: before.domain } });
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
