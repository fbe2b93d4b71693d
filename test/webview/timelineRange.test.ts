// Ranges where a user looks, in headless Chromium on the real bundle: a range dragged across a pane gives the table of
// what ran in it (equal to webview/analysis/rangeSummary.ts), the same steps eager vs compiled side by side, sorted by
// mouse and keyboard, summed again when a preview's full trace comes; the per-step compare beside a cold step 1, and a
// range pairing the same step; what the panel scrolls to lies below its toolbar. Screenshots: timelinePage.ts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { summarizeRange } from '../../webview/analysis/rangeSummary.ts';
import { LABEL_WIDTH } from '../../webview/timelineText.ts';
import { namesSaid } from '../../webview/analysis/sliceNames.ts';
import { withoutNamespace } from '../../webview/timelineText.ts';
import { stepWindowEnd } from '../../webview/paneFit.ts';
import { OPENING_STEP, sliceWindow, viewWindow } from '../../extension/shared/trace/window.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import {
  debug,
  errorsOf,
  holdBrowser,
  openWebview,
  post,
  postMlpPair,
  postPanes,
  record,
  slicePoint,
  tracesSource,
} from './harness.ts';
import { dragRange, screenshot, usOf } from './timelinePage.ts';

const fixture = (name: string): string => join(__dirname, '..', 'fixtures', 'traces', name);
/** A trace's name as the timeline says it, opened without its report (the profiler's span is 'profiling'), less
 *  its namespace as its slices say it ("addmm": review 11 J8). */
const said = (model: TraceModel, name: string): string =>
  withoutNamespace(namesSaid(model, null, null).get(model.names.indexOf(name))?.text ?? name);
const browser = holdBrowser();

/** Rows of a range table as [name, numbers by column]. */
const tableRows = (page: Page, selector: string): Promise<{ name: string; values: Record<string, number> }[]> =>
  page.locator(`${selector} tbody tr:not(.more)`).evaluateAll((rows) =>
    rows.map((row) => ({
      name: row.querySelector('td.name')?.textContent ?? '',
      values: Object.fromEntries(
        [...row.querySelectorAll('td[data-value]')].map((td) => [
          (td as HTMLElement).dataset['col']!,
          Number((td as HTMLElement).dataset['value']),
        ]),
      ),
    })),
  );

describe('timeline ranges', () => {
  test('what the panel scrolls to (a range table, a pane and its axis) lies below the sticky toolbar, however tall it wraps', async () => {
    // at 700 px the toolbar (search, fits, steps and a GPU trace's legend) wraps to several lines
    const page = await openWebview(browser(), { width: 700, height: 600 });
    await postMlpPair(page);
    await dragRange(page, 0, 0.3, 0.9);
    await page.locator('.range-pair').waitFor();
    const toolbar = await page.locator('.toolbar').evaluate((bar) => bar.getBoundingClientRect().height);
    assert.ok(toolbar > 56, `the toolbar wraps: ${toolbar} px`);
    for (const target of ['.range-summary', '.range-pair', '.pane:nth-child(2)']) {
      const [top, toolbarBottom] = await page.locator(target).evaluate(async (e) => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        e.scrollIntoView({ block: 'start' });
        await new Promise((r) => requestAnimationFrame(r));
        return [e.getBoundingClientRect().top, document.querySelector('.toolbar')!.getBoundingClientRect().bottom];
      });
      assert.ok(top >= toolbarBottom - 0.5, `${target} at ${top} px, under the toolbar (to ${toolbarBottom} px)`);
    }
    // a slice revealed from the range's table (its row, Enter) from the page's foot: its pane's title in view below
    // the toolbar, and its axis below the title (review 5C L5: the title and ticks were under the toolbar)
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.locator('.range-summary .range-kernels tbody tr').first().press('Enter');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const titleSeen = (pane: number): Promise<{ title: DOMRect; canvas: DOMRect; toolbar: DOMRect; shown: boolean }> =>
      page
        .locator('.pane')
        .nth(pane)
        .evaluate((box) => {
          const title = box.querySelector('.pane-label')!.getBoundingClientRect();
          const hit = document.elementFromPoint(title.left + 4, title.top + title.height / 2);
          return {
            title: title.toJSON() as DOMRect,
            canvas: box.querySelector('canvas')!.getBoundingClientRect().toJSON() as DOMRect,
            toolbar: document.querySelector('.toolbar')!.getBoundingClientRect().toJSON() as DOMRect,
            shown: hit?.closest('.pane-label') === box.querySelector('.pane-label'),
          };
        });
    const revealed = await titleSeen(0);
    assert.ok(
      revealed.shown &&
        revealed.title.top >= revealed.toolbar.bottom - 0.5 &&
        revealed.canvas.top >= revealed.title.bottom,
      `revealed: ${JSON.stringify(revealed)}`,
    );
    // a pane scrolled by hand part under the toolbar keeps its title in view just below it
    await page
      .locator('.pane')
      .nth(1)
      .evaluate(async (box) => {
        const toolbar = document.querySelector('.toolbar')!.getBoundingClientRect();
        window.scrollBy(0, box.getBoundingClientRect().top - toolbar.bottom + 40);
        await new Promise((r) => requestAnimationFrame(r));
      });
    const scrolled = await titleSeen(1);
    assert.ok(
      scrolled.canvas.top < scrolled.toolbar.bottom + scrolled.title.height,
      `the pane is part under the toolbar: ${JSON.stringify(scrolled)}`,
    );
    assert.ok(
      scrolled.shown && Math.abs(scrolled.title.top - scrolled.toolbar.bottom) < 8,
      `scrolled: ${JSON.stringify(scrolled)}`,
    );
    await page.close();
  });

  test("shift+drag across the eager pane: its table is rangeSummary's, and eager vs compiled side by side; sortable by keyboard", async () => {
    const page = await openWebview(browser());
    const { eager } = await postMlpPair(page);
    // across most of the step the view opens at
    await dragRange(page, 0, 0.16, 0.98);
    const d = await debug(page);
    assert.ok(d.range?.pane === 0 && d.range.to > d.range.from, 'a range on the eager pane');
    const offsets = await page.evaluate(
      () => (window as unknown as { __timelineDebug: { ranks: unknown } }).__timelineDebug.ranks,
    );
    assert.equal(offsets, null);
    // the same numbers as the pure summary of that range of the eager model (its offset: the aligned step's start,
    // step 2's: the view opens past the warm-up)
    const offset = eager.steps[OPENING_STEP]!.start;
    const expected = summarizeRange(eager, d.range.from + offset, d.range.to + offset);
    assert.ok(expected.kernels.length >= 3, 'kernels in the range');
    const kernels = await tableRows(page, '.range-summary .range-kernels');
    assert.deepEqual(
      kernels.map((r) => [r.name, r.values['count']]),
      // a library's kernel by what it does ("matrix multiply (CUTLASS)": traceWords.ts)
      expected.kernels.map((r) => [said(eager, r.name), r.count]),
    );
    for (const [n, row] of kernels.entries())
      assert.ok(Math.abs(row.values['totalUs']! - expected.kernels[n]!.totalUs) < 1e-6);
    const cpu = await tableRows(page, '.range-summary .range-cpu');
    assert.deepEqual(
      cpu.map((r) => r.name),
      expected.cpuOps.map((r) => said(eager, r.name)),
    );
    // eager vs compiled: the compiled step's generated kernels are new, eager's GEMM epilogue kernels gone
    const pair = page.locator('.range-pair');
    await pair.waitFor();
    const pairText = await pair.innerText();
    assert.match(pairText, /eager → default/);
    assert.match(pairText, /new/);
    assert.match(pairText, /gone \(fused away or replaced\)/);
    // a compiled call by its code, PyTorch's name for it in the cell's tooltip (its wrappers' words: sliceNames.test)
    const call = pair.locator('.pair-cpu td.name', { hasText: /^compiled forward$/ });
    assert.equal(await call.getAttribute('title'), 'the trace\'s "Torch-Compiled Region: 0/0"');
    assert.doesNotMatch(pairText, /TorchDynamo|Pregraph|AOTDispatcher|Torch-Compiled Region/);
    // sort the kernels by count with the keyboard: focus the header button, Enter; again reverses
    const countButton = page.locator('.range-summary .range-kernels button.sort[data-key="count"]');
    await countButton.focus();
    await page.keyboard.press('Enter');
    let counts = (await tableRows(page, '.range-summary .range-kernels')).map((r) => r.values['count']!);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
    );
    assert.equal(
      await page.locator('.range-summary .range-kernels th[aria-sort="descending"] button').getAttribute('data-key'),
      'count',
    );
    await page.keyboard.press('Enter');
    counts = (await tableRows(page, '.range-summary .range-kernels')).map((r) => r.values['count']!);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => a - b),
    );
    // rows are focusable and walked with the arrow keys
    await page.locator('.range-summary .range-kernels tbody tr').first().focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(
      await page.evaluate(() => [...document.activeElement!.parentElement!.children].indexOf(document.activeElement!)),
      1,
    );
    // Enter on a row selects that name's longest slice in the range
    // (its name as its slice says it, no namespace: review 11 J8)
    const row = page
      .locator('.range-summary .range-cpu tbody tr', { has: page.locator('td.name', { hasText: /^addmm$/ }) })
      .first();
    await row.focus();
    await page.keyboard.press('Enter');
    assert.equal((await debug(page)).selected?.name, 'aten::addmm');
    await screenshot(page, 'range');
    // Esc clears the range (from the panes)
    await page.locator('.panes').focus();
    await page.keyboard.press('Escape');
    assert.equal((await debug(page)).range, null);
    assert.equal(await page.locator('.range-summary').count(), 0);
    // Shift+→ from a selected slice makes a range of the keyboard alone
    const point = await slicePoint(page, 0, 'aten::addmm');
    await page.mouse.click(point.x, point.y);
    await page.locator('.panes').focus();
    await page.keyboard.press('Shift+ArrowRight');
    await page.locator('.range-summary').waitFor();
    assert.match(await page.locator('.range-summary').innerText(), /^addmm\b/m);
    assert.deepEqual((await record(page)).cspViolations, []);
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test("a range drawn on a big trace's preview is summed again over every slice when the full load comes", async () => {
    const page = await openWebview(browser());
    const eager = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const cut = (model: TraceModel): TraceModel => {
      const [from, to] = viewWindow(model.steps, null)!;
      return sliceWindow(model, from, to);
    };
    const source = tracesSource('e');
    await post(page, {
      type: 'trace',
      title: 'big',
      source,
      index: 0,
      panes: 1,
      pane: { label: 'eager', trace: cut(eager) },
      events: eager.count,
      preview: true,
      from: 0,
    });
    await dragRange(page, 0, 0.2, 0.95);
    assert.match(await page.locator('.range-box').innerText(), /Only the slices around the first view are loaded yet/);
    const range = (await debug(page)).range!;
    await postPanes(page, 'big', source, [{ label: 'eager', trace: eager }]);
    const d = await debug(page);
    assert.deepEqual(d.range, range);
    assert.doesNotMatch(await page.locator('.range-box').innerText(), /Only the slices/);
    const offset = eager.steps[OPENING_STEP]!.start;
    const expected = summarizeRange(eager, range.from + offset, range.to + offset);
    assert.deepEqual(
      (await tableRows(page, '.range-summary .range-cpu')).map((r) => [r.name, r.values['count']]),
      expected.cpuOps.map((r) => [said(eager, r.name), r.count]),
    );
    await page.close();
  });

  test("eager's cold step 1 beside compiled steps: the compare is per step past step 1, a range pairs the same step, renamed ops are not gone", async () => {
    const page = await openWebview(browser(), { width: 1400, height: 900 });
    const [eager, compiled] = await Promise.all(
      ['eager', 'default'].map((m) => scanTraceFile(fixture(`cpu-graphbreak-${m}.trace.json`))),
    );
    await postPanes(page, 'graphbreak', tracesSource('e', 'd'), [
      { label: 'eager', trace: eager! },
      { label: 'default', trace: compiled! },
    ]);
    const compare = page.locator('section.compare');
    await compare.waitFor();
    // the heading says which steps, and why step 1 is not among them; the caveat comes before the table's numbers
    assert.match(
      await compare.locator('h3').innerText(),
      /per step \(steps 2–3 of each; step 1 left out: the profiler's start-up/,
    );
    assert.match(
      await compare.locator('.compare-caveat').innerText(),
      /under the profiler.*verdict above is timed without/is,
    );
    assert.ok(
      await compare.evaluate(
        (s) =>
          (s.querySelector('.compare-caveat')!.compareDocumentPosition(s.querySelector('table.compare-table')!) &
            Node.DOCUMENT_POSITION_FOLLOWING) !==
          0,
      ),
      'the caveat is read before the table',
    );
    // one unit per row
    for (const cells of await compare
      .locator('tr[data-metric]')
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('td[data-value]')].map((td) => td.textContent ?? '')),
      )) {
      const units = cells.map((c) => / (µs|ms|s)$/.exec(c)?.[1] ?? '');
      assert.equal(new Set(units).size, 1, cells.join(' → '));
    }
    assert.match(await compare.innerText(), /\bconv2d, called as convolution in default/);
    assert.doesNotMatch(
      await compare
        .locator('ul.kernels:not(.called-as)')
        .allInnerTexts()
        .then((t) => t.join('\n')),
      /aten(::|: )(conv2d|convolution)\b/,
    );
    // each pane says which of its steps the view shows (its title counts all 3), and that they ran under the profiler
    // the view opens past the warm-up, on step 2 of each (review 31 B2: eager's 39 ms step 1 beside its 2 ms steps),
    // fitted to eager's, default's step 2 alone beside it (review 10 B10: not its "steps 2–3")
    await page.waitForFunction(() => document.querySelector('.pane-note')?.textContent);
    assert.deepEqual(await page.locator('.pane-note').allInnerTexts(), [
      'step 2 in view (of steps 1–3) · under the profiler (its overhead included)',
      // the trace has no Python stacks, and no report names its compiled calls' code: a word of it, why in its tooltip;
      // its shorter step drawn on eager's scale, which the fit fits, said (review 17Z Z7)
      'step 2 in view (of steps 1–3) · under the profiler (its overhead included) · calls named by order · on the scale of the pane above',
    ]);
    assert.match(
      (await page.locator('.pane-note').nth(1).getAttribute('title'))!,
      /no Python stacks to name their code/,
    );
    const fitted = async (k: number): Promise<boolean> => {
      const { domain } = await debug(page);
      // the step and the margin past its end (stepWindow.test.ts), of the plot's width (review 14 T8)
      const plot = (await page.locator('canvas').nth(0).boundingBox())!.width - LABEL_WIDTH;
      const step = eager!.steps[k]!.end - eager!.steps[k]!.start;
      return Math.abs(domain[1] - domain[0] - stepWindowEnd(step, plot)) < 1;
    };
    assert.ok(await fitted(1), 'fitted to step 2');
    // Fit all shows each trace from its first step (the warm-up's time on the axis's ticks); Fit to step, step 2 again
    await page.locator('.panes').focus();
    await page.keyboard.press('0');
    assert.equal(
      (await debug(page)).domain[0],
      Math.min(0, -eager!.steps[0]!.start, -compiled!.steps[0]!.start),
      'all time, each pane from its step 1',
    );
    await page.keyboard.press('f');
    assert.ok(await fitted(1), 'fitted to step 2 again');
    // a range over most of eager's step 1 (39 ms) pairs with default's step 1 (8 ms), not its three steps
    // eager's step 1, the warm-up, said as such beside its steps
    await page.locator('vscode-button', { hasText: '◀ step' }).click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.deepEqual(await page.locator('.pane-note').allInnerTexts(), [
      'step 1 in view (of steps 1–3) · step 1 is the warm-up · under the profiler (its overhead included)',
      'step 1 in view (of steps 1–3) · step 1 is the warm-up · under the profiler (its overhead included) · calls named by order · on the scale of the pane above',
    ]);
    assert.match(
      (await page.locator('.pane-note').first().getAttribute('title'))!,
      /Step 1 is the warm-up: the profiler's start-up and the first call's one-time work are in it/,
    );
    const ruler = await page.evaluate(() =>
      (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts[0]!.texts.filter(
        (t) => t.role === 'step',
      ).map((t) => t.text),
    );
    assert.deepEqual(ruler.slice(0, 1), ['warm-up step 1'], ruler.join(' │ '));
    // dragged from the axis's start to the step's end (the window's margin past it: stepWindow.test.ts), all of it
    const width = (await page.locator('canvas').nth(0).boundingBox())!.width;
    assert.ok(await fitted(0), 'fitted to step 1');
    const stepEnd = LABEL_WIDTH + (width - LABEL_WIDTH) / stepWindowEnd(1, width - LABEL_WIDTH);
    await dragRange(page, 0, (LABEL_WIDTH + 1) / width, (stepEnd - 1) / width);
    await page.locator('.range-pair').waitFor();
    const title = await page.locator('.range-pair h3').innerText();
    assert.match(
      title,
      /^eager → default, step 1 of each \(the same share of it\): eager 3\d(\.\d)? ms, default [78](\.\d\d?)? ms — step 1 is the first, with one-time work in it \(the profiler's start-up, the first call's own costs\): later steps compare like with like$/,
    );
    const pair = await tableRows(page, '.range-pair .pair-kernels');
    const counts = (name: string): [number, number] => {
      const row = pair.find((r) => r.name === name);
      assert.ok(row, `${name} in ${pair.map((r) => r.name).join(', ')}`);
      return [row.values['beforeCount']!, row.values['afterCount']!];
    };
    // step 1 calls .item() once on each side (the whole trace's default side, three times)
    assert.deepEqual(counts('item'), [1, 1]);
    assert.deepEqual(counts('conv2d, called as convolution in default'), [2, 2]);
    assert.ok(!pair.some((r) => r.name === 'convolution'));
    // the change column says what it sorts by: the time each name gained or lost, in its row's order, its share or
    // what became of it beside it (review 8A A8: "−28%, −45%, gone, gone" sorted by time read as unsorted)
    const changes = await page.locator('.range-pair .pair-kernels tbody td[data-col="delta"]').allInnerTexts();
    const shownUs = changes.map((text) => {
      const [, sign, time] = /^([+−]?)(\S+ (?:µs|ms|s))(?: \([+−]?\d+%\)|, .+)?$/.exec(text) ?? [];
      assert.ok(time, `"${text}": a time, then its share or what became of it`);
      return (sign === '−' ? -1 : 1) * usOf(time);
    });
    assert.ok(
      changes.some((text) => text.endsWith(', gone (fused away or replaced)')),
      changes.join(' | '),
    );
    assert.ok(
      changes.some((text) => / \([+−]\d+%\)$/.test(text)),
      changes.join(' | '),
    );
    assert.deepEqual(
      shownUs,
      [...shownUs].sort((a, b) => b - a),
      changes.join(' | '),
    );
    // the pane's range heading: ends and length that add up, in one unit
    const [, a, b, length] = /: ([\d.]+) ms – ([\d.]+) ms on its axis \(([\d.]+) ms\)/.exec(
      await page.locator('.range-summary h3').innerText(),
    )!;
    assert.ok(Math.abs(Number(b) - Number(a) - Number(length)) < 1e-9, `${a} – ${b} (${length})`);
    // and each row of the pair in one unit
    for (const cells of await page
      .locator('.range-pair .pair-kernels tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('td[data-col$="Total"]')].map((td) => td.textContent ?? '')),
      )) {
      const units = cells.filter((c) => c !== '—').map((c) => / (µs|ms|s)$/.exec(c)?.[1]);
      assert.ok(new Set(units).size <= 1, cells.join(' | '));
    }
    await screenshot(page, 'range-pair-by-step');
    await page.close();
  });
});
