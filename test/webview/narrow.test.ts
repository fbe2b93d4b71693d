// The report panel at the width it opens in (beside the editor: about 40 % of a 1400 px window), on a real CPU
// script report: tables wrap or stack instead of scrolling sideways, labels never overlap, the legend and the
// compare tables speak of what a CPU run has (no Triton, cuBLAS or CUDA-graph entries, no rows of zeros).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { contrast, over } from '../../webview/ink.ts';
import type { Report } from '../../extension/shared/report.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { ARTIFACTS, errorsOf, holdBrowser, openWebview, post, postPanes, postTimeline, ROOT } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

interface Debug {
  __timelineDebug: { layouts: FrameLayout[] };
}

const WIDTH = 560;
const browser = holdBrowser();
let page: Page | null = null;
// a failing test leaves its screenshot in test-results/ to look at
afterEach(async (t) => {
  if (page && (t as unknown as { passed?: boolean }).passed === false)
    await page.screenshot({ path: join(ARTIFACTS, 'narrow-failed.png'), fullPage: true });
  await page?.close();
  page = null;
});

/** The panel of a report at WIDTH, in Light Modern (what a user sees: VS Code's font and colours) unless `bare`:
 *  the page as it opens outside VS Code, with none of its variables. */
async function openNarrow(name: string, ready = 'section.regions', bare = false): Promise<Page> {
  const opened = await openWebview(browser(), { width: WIDTH, height: 900 });
  const source = {
    kind: 'report' as const,
    reportPath: join(ROOT, 'test', 'fixtures', 'reports', name, 'report.json'),
  };
  await postTimeline(opened, await readTimelineSource(source));
  await opened.locator(ready).waitFor();
  if (!bare) await applyTheme(opened, THEMES[0]!);
  page = opened;
  return opened;
}

describe('the report panel at 40 % of the window, on a CPU script run', () => {
  for (const [name, ready] of [
    ['script-kernels-cpu', 'section.regions'],
    ['fused-cpu', 'section.compile-timeline'],
  ] as const)
    test(`nothing scrolls sideways: every table fits the panel (${name})`, async () => {
      const p = await openNarrow(name, ready);
      const wide = await p.evaluate(() =>
        [...document.querySelectorAll('table')]
          .filter((t) => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .map((t) => `${t.className}: ${Math.round(t.getBoundingClientRect().right)}px`),
      );
      assert.deepEqual(wide, []);
      assert.ok(
        await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
        'no sideways scroll',
      );
      await p.screenshot({ path: join(ARTIFACTS, `narrow-${name}.png`), fullPage: true });
      assert.deepEqual(errorsOf(p), []);
    });

  test('a kernel list wraps between words: a word or number that fits a line is never broken inside it', async () => {
    // report3B M8: "— 20. / 9 µs" (word-break: break-all broke the number wherever the line ended)
    const p = await openNarrow('script-kernels-cpu');
    const broken = await p.evaluate(() =>
      [...document.querySelectorAll('ul.kernels li, ul.linked li')].flatMap((li) => {
        const node = li.firstChild;
        if (node?.nodeType !== Node.TEXT_NODE) return [];
        return [...(node.textContent ?? '').matchAll(/\S+/g)].flatMap((word) => {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const pieces = [...range.getClientRects()].filter((r) => r.width > 0);
          const lines = new Set(pieces.map((r) => Math.round(r.top)));
          const width = pieces.reduce((sum, r) => sum + r.width, 0);
          return lines.size > 1 && width <= li.clientWidth ? [`${word[0]} in "${node.textContent}"`] : [];
        });
      }),
    );
    assert.ok(await p.locator('ul.kernels li').count(), 'the report has a kernel list to look at');
    assert.deepEqual(broken, []);
  });

  test('a range table\'s names wrap between words, never inside a word or a cited line ("(line 2" / "5)")', async () => {
    // report4A F4: word-break: break-all broke "recompile 1 (line 25)" wherever the line ended
    const p = await openWebview(browser(), { width: WIDTH, height: 900 });
    page = p;
    const fixtures = join(ROOT, 'test', 'fixtures');
    const report = JSON.parse(
      readFileSync(join(fixtures, 'reports', 'graphbreak-cpu', 'report.json'), 'utf8'),
    ) as Report;
    const source = { kind: 'report' as const, reportPath: '/r/graphbreak/report.json' };
    await post(p, { type: 'report', title: 'graphbreak', source, report, traces: 1 });
    const trace = await scanTraceFile(join(fixtures, 'traces', 'cpu-graphbreak-default.trace.json'));
    await postPanes(p, 'graphbreak', source, [{ label: 'default', trace }]);
    await applyTheme(p, THEMES[0]!);
    const box = (await p.locator('.pane canvas').first().boundingBox())!;
    await p.keyboard.down('Shift');
    await p.mouse.move(box.x + 200, box.y + 40);
    await p.mouse.down();
    await p.mouse.move(box.x + box.width - 5, box.y + 40, { steps: 5 });
    await p.mouse.up();
    await p.keyboard.up('Shift');
    await p.locator('.range-summary').waitFor();
    const { broken, cited, whole } = await p.evaluate(() => {
      const cells = [...document.querySelectorAll<HTMLElement>('.range-table td.name')];
      const found: string[] = [];
      for (const cell of cells) {
        const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = texts.nextNode(); node; node = texts.nextNode()) {
          const text = node.textContent ?? '';
          // a cited line is one piece; elsewhere each word is
          const pieces = node.parentElement?.classList.contains('nowrap')
            ? [{ 0: text, index: 0 }]
            : [...text.matchAll(/\S+/g)];
          for (const piece of pieces) {
            const range = document.createRange();
            range.setStart(node, piece.index);
            range.setEnd(node, piece.index + piece[0].length);
            const rects = [...range.getClientRects()].filter((r) => r.width > 0);
            const width = rects.reduce((sum, r) => sum + r.width, 0);
            // on more than one line, though it fits one
            if (new Set(rects.map((r) => Math.round(r.top))).size > 1 && width <= cell.clientWidth)
              found.push(`${piece[0]} in "${cell.textContent}"`);
          }
        }
      }
      const wrapped = cells.filter(
        (c) => /\(line \d+\)/.test(c.textContent ?? '') && c.getClientRects()[0]!.height > 20,
      );
      const whole = [...document.querySelectorAll('.range-table td.name .nowrap')].map((n) => n.textContent);
      return { broken: found, cited: wrapped.length, whole };
    });
    // names that wrap, among them one that cites its line
    assert.ok(cited > 0, 'a name citing its line wraps at this width');
    assert.deepEqual(broken, []);
    // a cited line is one piece, never broken where the line ends
    assert.ok(whole.includes('(line 25)') && whole.includes('(lines 21, 22)'), whole.join(', '));
  });

  test('a time never wraps from its unit, and a compare table says its times in one unit (review 8 A15: "70.5" over "µs")', async () => {
    const p = await openNarrow('fused-cpu', 'section.compile-timeline');
    const seen = await p.evaluate(() => {
      const times = [...document.querySelectorAll('table.compare-table')].map((table) =>
        [...table.querySelectorAll('td.num')].map((td) => td.textContent ?? '').filter((t) => / (µs|ms|s)$/.test(t)),
      );
      // a cell whose number and unit lie on two lines: a range over each character of the unit and the digit before it
      const split = [...document.querySelectorAll('table.compare-table td.num, table.modes td')].filter((td) => {
        const text = td.firstChild;
        if (text?.nodeType !== Node.TEXT_NODE) return false;
        for (const m of (text.textContent ?? '').matchAll(/\d[\s\u00a0](µs|ms|s)\b/g)) {
          const range = document.createRange();
          range.setStart(text, m.index);
          range.setEnd(text, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) return true;
        }
        return false;
      });
      return { times, split: split.map((td) => td.textContent) };
    });
    assert.ok(seen.times.flat().length >= 3, seen.times.join(' | '));
    for (const table of seen.times)
      assert.equal(new Set(table.map((t) => t.split(' ').pop())).size, 1, table.join(', '));
    assert.deepEqual(seen.split, []);
    await p.locator('table.modes').screenshot({ path: join(ARTIFACTS, 'narrow-modes-units.png') });
    await p
      .locator('table.compare-table')
      .first()
      .screenshot({ path: join(ARTIFACTS, 'narrow-compare-units.png') });
  });

  test('CPU words only: the legend lists what the traces hold, the compare tables have no rows of zeros', async () => {
    const p = await openNarrow('script-kernels-cpu');
    const legend = await p.locator('.legend').innerText();
    assert.doesNotMatch(legend, /Triton|cuBLAS|CUDA|runtime launch/);
    assert.match(legend, /generated \(Inductor C\+\+\)/);
    const zeros = await p.locator('table.compare-table tr[data-metric]').evaluateAll((rows) =>
      rows
        .filter((r) => {
          const cells = [...r.querySelectorAll('td[data-value]')];
          return cells.length > 0 && cells.every((c) => Number((c as HTMLElement).dataset['value']) === 0);
        })
        .map((r) => (r as HTMLElement).dataset['metric']),
    );
    assert.deepEqual(zeros, []);
  });

  test("a legend that wraps keeps each kind's swatch on its words' line (a GPU trace's five kinds)", async () => {
    const p = await openWebview(browser(), { width: WIDTH, height: 900 });
    page = p;
    const trace = join(ROOT, 'test', 'fixtures', 'traces', 'mlp-default.trace.json');
    await postTimeline(p, await readTimelineSource({ kind: 'traces', tracePaths: [trace] }));
    await p.locator('.legend .swatch').first().waitFor();
    // each swatch's middle and its words' (the element after it), at widths a panel beside the editor has
    const apart = new Set<string>();
    let wrapped = false;
    for (let width = 360; width <= 720; width += 20) {
      await p.setViewportSize({ width, height: 900 });
      await p.waitForTimeout(50);
      const entries = await p.locator('.legend .swatch').evaluateAll((swatches) =>
        swatches.map((s) => {
          const [a, b] = [s.getBoundingClientRect(), s.nextElementSibling!.getBoundingClientRect()];
          return {
            words: s.nextElementSibling!.textContent,
            swatch: (a.top + a.bottom) / 2,
            label: (b.top + b.bottom) / 2,
          };
        }),
      );
      wrapped ||= new Set(entries.map((e) => Math.round(e.swatch))).size > 1;
      for (const e of entries) if (Math.abs(e.swatch - e.label) > 2) apart.add(`${e.words} at ${width} px`);
    }
    assert.ok(wrapped, 'the legend wraps at these widths');
    assert.deepEqual([...apart], []);
  });

  test("the timelines' track names and axis read on the page it opens in, without VS Code's colours: 4.5:1, sans-serif", async () => {
    const p = await openNarrow('script-kernels-cpu', 'section.regions', true);
    // no --vscode-font-family: the system's sans-serif, not a browser's default serif
    assert.match(await p.evaluate(() => getComputedStyle(document.body).fontFamily), /^system-ui, sans-serif$/);
    await p.waitForFunction(() => (window as unknown as Debug).__timelineDebug.layouts.length > 0);
    const { texts, page } = await p.evaluate(() => {
      const body = getComputedStyle(document.body).backgroundColor;
      return {
        texts: (window as unknown as Debug).__timelineDebug.layouts
          .flatMap((f) => f.texts)
          .filter((t) => t.role === 'track' || t.role === 'tick' || t.role === 'step')
          .map((t) => ({ text: t.text, ink: t.ink.colour })),
        // the canvas is transparent: under a track name is the page (the body's colour, else a browser's white)
        page: /^rgba\(.*,\s*0\)$/.test(body) || body === 'transparent' ? '#ffffff' : body,
      };
    });
    // each colour as the page's canvas paints it (sRGB bytes, alpha)
    const painted = await p.evaluate(
      (colours) =>
        colours.map((colour) => {
          const ctx = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
          ctx.fillStyle = colour;
          ctx.fillRect(0, 0, 1, 1);
          const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
          return [r!, g!, b!, a! / 255] as [number, number, number, number];
        }),
      [page, ...texts.map((t) => t.ink)],
    );
    const under = painted[0]!;
    const inks = texts.map((t, k) => ({ text: t.text, ink: painted[k + 1]! }));
    assert.ok(
      inks.some((t) => /^thread \d+/.test(t.text)),
      "draws the threads' names",
    );
    const faint = inks
      .map(({ text, ink }) => ({ text, ratio: contrast(over(ink, under), under) }))
      .filter((t) => t.ratio < 4.5)
      .map((t) => `"${t.text}": ${t.ratio.toFixed(2)}`);
    assert.deepEqual(faint, []);
  });

  test('compile-phase labels do not overlap each other', async () => {
    const p = await openNarrow('fused-cpu', 'section.compile-timeline');
    await p.waitForTimeout(100); // the labels are fitted after layout
    const boxes = await p.locator('.compile-phases text').evaluateAll((nodes) =>
      nodes
        .filter((n) => (n as SVGElement).style.display !== 'none')
        .map((n) => {
          const b = (n as SVGGraphicsElement).getBoundingClientRect();
          return { text: n.textContent ?? '', x: b.x, y: b.y, w: b.width, h: b.height };
        }),
    );
    const overlaps: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        if (a.x < b.x + b.w - 1 && b.x < a.x + a.w - 1 && a.y < b.y + b.h - 1 && b.y < a.y + a.h - 1)
          overlaps.push(`${a.text} × ${b.text}`);
      }
    }
    // nor a cache marker's diamond (the review's "oad from cache", "AOT ◇utograd")
    const diamonds = await p
      .locator('.compile-phases svg.cache-marker path')
      .evaluateAll((nodes) =>
        nodes.map((n) => n.getBoundingClientRect()).map((b) => ({ x: b.x, y: b.y, w: b.width, h: b.height })),
      );
    assert.ok(diamonds.length > 0, 'the fixture has cache markers');
    for (const a of boxes)
      for (const b of diamonds)
        if (a.x < b.x + b.w - 1 && b.x < a.x + a.w - 1 && a.y < b.y + b.h - 1 && b.y < a.y + a.h - 1)
          overlaps.push(`${a.text} × a cache marker`);
    assert.deepEqual(overlaps, []);
    // a row says Dynamo's part for all its Dynamo bars or none (review 16X X4): the whole frame by its name either way
    assert.ok(
      boxes.some((b) => /^(Dynamo: )?whole frame /.test(b.text)),
      'a label that fits is shown',
    );
    // each label's contrast on its bar, in the three themes: legible.test.ts
    await p.locator('section.compile-timeline').screenshot({ path: join(ARTIFACTS, 'narrow-phases.png') });
  });

  test("compile phases: a legend of the bars' colours and the cache markers drawn, the markers over the bars, a time never wrapped from its unit", async () => {
    const p = await openNarrow('fused-cpu', 'section.compile-timeline');
    const seen = await p.locator('section.compile-timeline').evaluate((box) => {
      // no named function in here: tsx would wrap it in a helper the page lacks
      const drawn = [
        ...new Set([...box.querySelectorAll('.phase-track g.phase rect')].map((e) => getComputedStyle(e).fill)),
      ];
      const markers = [...box.querySelectorAll('.phase-track svg.cache-marker path')];
      const legend = box.querySelector('.phase-legend');
      const swatches = [...(legend?.querySelectorAll('.swatch') ?? [])].map((s) => getComputedStyle(s).backgroundColor);
      const legendMarkers = [...(legend?.querySelectorAll('svg.cache-marker path') ?? [])].map(
        (e) => getComputedStyle(e).fill,
      );
      // what lies on top in each marker's right half (where the bar it marks begins): the marker, not that bar
      const hidden = markers
        .map((m) => {
          const r = m.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width * 0.7, r.top + r.height / 2);
          return top === m ? null : `${m.parentElement!.querySelector('title')?.textContent} under ${top?.tagName}`;
        })
        .filter((h) => h !== null);
      // a row label's time ("· 2.8 s") on one line
      const split = [...box.querySelectorAll('.phase-row:not(.phase-axis) .phase-label')].flatMap((label) => {
        const range = document.createRange();
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        let last: Text | null = null;
        for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent!.includes('·')) last = n as Text;
        if (!last) return [`${label.textContent}: no "·"`];
        range.setStart(last, last.textContent.lastIndexOf('·'));
        range.setEndAfter(label.lastChild!);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return tops.size === 1 ? [] : [`${label.textContent}: its time on ${tops.size} lines`];
      });
      const markerFills = [...new Set(markers.map((e) => getComputedStyle(e).fill))];
      return { drawn, swatches, markers: markerFills, legendMarkers, hidden, split };
    });
    assert.ok(seen.drawn.length > 3, `bars in ${seen.drawn.length} colours`);
    assert.deepEqual(
      seen.drawn.filter((c) => !seen.swatches.includes(c)),
      [],
      `each bar colour in the legend (${seen.swatches.join(', ')})`,
    );
    assert.ok(seen.markers.length > 0, 'cache markers drawn');
    assert.deepEqual(
      seen.markers.filter((c) => !seen.legendMarkers.includes(c)),
      [],
      'each cache marker in the legend',
    );
    assert.deepEqual(seen.hidden, [], 'the cache markers lie over the bars');
    assert.deepEqual(seen.split, []);
  });

  test('compile-phase row labels: one column for every row, wrapped between words, never inside one', async () => {
    const p = await openNarrow('ddp-ranks-cpu', 'section.compile-timeline');
    const seen = await p.locator('section.compile-timeline').evaluate((box) => {
      // the row labels in one column, every word on one line ("DistributedDataParall / el" broke one)
      const labels = [...box.querySelectorAll('.phase-row .phase-label')];
      const columns = [
        ...new Set(
          labels.map((l) => {
            const r = l.getBoundingClientRect();
            const track = l.parentElement!.querySelector('svg.phase-track')!.getBoundingClientRect();
            return `${Math.round(r.left)}–${Math.round(r.right)} | ${Math.round(track.left)}`;
          }),
        ),
      ];
      const broken = labels.flatMap((label) => {
        const words: string[] = [];
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode())
          for (const word of n.textContent!.matchAll(/[^\s\u00a0]+/g)) {
            const range = document.createRange();
            range.setStart(n, word.index);
            range.setEnd(n, word.index + word[0].length);
            if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) words.push(word[0]);
          }
        return words;
      });
      return { columns, broken };
    });
    assert.equal(seen.columns.length, 1, `one label column: ${seen.columns.join(', ')}`);
    assert.deepEqual(seen.broken, [], 'words broken across lines');
  });

  test("compile phases: the generated code's loading in a colour of its own, in the legend; what the log names inside a bar and what is too narrow to label, in the hovers", async () => {
    const p = await openNarrow('fused-cpu', 'section.compile-timeline');
    await p.waitForTimeout(100); // the labels are fitted after layout
    const seen = await p.locator('section.compile-timeline').evaluate((box) => {
      const bars = [...box.querySelectorAll('.phase-track g.phase')].map((g) => ({
        tip: g.querySelector('title')?.textContent ?? '',
        fill: getComputedStyle(g.querySelector('rect')!).fill,
        hidden: g.querySelector('text')?.style.display === 'none' ? g.querySelector('text')!.textContent : null,
        shown: g.querySelector('text')?.style.display === 'none' ? null : g.querySelector('text')!.textContent,
        row: [...box.querySelectorAll('.phase-row')].findIndex((r) => r.contains(g)),
      }));
      const legend = [...box.querySelectorAll('.phase-legend .legend-entry')].map((e) => ({
        text: e.textContent ?? '',
        fill: getComputedStyle(e.querySelector('.swatch') ?? e).backgroundColor,
      }));
      const rowTips = [...box.querySelectorAll('.phase-row')].map(
        (r) => r.querySelector<HTMLElement>('.phase-label')?.title ?? '',
      );
      return { bars, legend, rowTips };
    });
    const fillOf = (name: string): string => seen.bars.find((b) => b.tip.startsWith(`${name}:`))!.fill;
    const load = fillOf('Inductor: load module');
    assert.notEqual(load, fillOf('Inductor'), 'loading the generated code is not drawn as Inductor');
    assert.notEqual(load, fillOf('Inductor: C++ codegen'));
    assert.deepEqual(
      seen.legend.filter((e) => e.fill === load).map((e) => e.text),
      ['loading the generated code (building its C++ where it is not built yet)'],
    );
    // fused-cpu's first compile: 10 C++ compiles take 11.8 s of C++ codegen's 54.6 s
    const codegen = seen.bars.find((b) => b.tip.startsWith('Inductor: C++ codegen: 54.6 s'))!.tip;
    assert.match(
      codegen,
      /Inside it the log names 10 × C\+\+ compile: 11\.8 s of 54\.6 s; it names no step of the other 42\.8 s \(/,
    );
    // a bar with no room beside it for a name, nor its short one ("load 6.80 s"), but room in it for its short name
    // alone: not "load" where the chart says its phase with its time on another bar (review 13 P6: "trace" beside
    // "Dynamo: trace bytecode 207 ms"), its row's hover naming it; never its time alone (review 10H H2)
    const loads = seen.bars.filter((b) => b.tip.startsWith('Inductor: load module: '));
    assert.ok(
      loads.some((b) => b.shown?.startsWith('Inductor: load module ')),
      JSON.stringify(loads),
    );
    assert.deepEqual(
      loads.filter((b) => b.tip.startsWith('Inductor: load module: 6.80 s')).map((b) => b.shown),
      [null],
    );
    assert.match(seen.rowTips[1]!, /Inductor: load module 6\.80 s/);
    // a label left of a recompile's bar, though a thinner bar begins where it does (the wider one's, not that one's)
    assert.ok(
      seen.bars.some((b) => b.row === 2 && b.shown?.startsWith('backend compile')),
      JSON.stringify(seen.bars.filter((b) => b.row === 2)),
    );
    // a label too narrow to show is read in its row's hover
    const hidden = seen.bars.filter((b) => b.hidden !== null);
    assert.ok(hidden.length > 0, 'the recompile has phases too narrow to label');
    for (const b of hidden) assert.ok(seen.rowTips[b.row]!.includes(b.hidden!), `${b.hidden} in its row's hover`);
    for (const [k, tip] of seen.rowTips.entries())
      if (!hidden.some((b) => b.row === k)) assert.doesNotMatch(tip, /Too narrow to label/);
  });

  test("a compile-phase bar is labelled by what it is: its name less the compiler's part where the whole does not fit, its short name where neither fits, never its time alone (review s29: a bare '34.4 ms'; 10H H2)", async () => {
    const p = await openWebview(browser(), { width: WIDTH, height: 900 });
    page = p;
    const { report } = await loadReport(join(ROOT, 'test', 'fixtures', 'reports', 'h100-mlp', 'report.json'));
    await post(p, {
      type: 'report',
      title: 'h100-mlp',
      source: { kind: 'report', reportPath: '/r/h100-mlp/report.json' },
      report,
      traces: 0,
    });
    await applyTheme(p, THEMES[0]!);
    await p.waitForTimeout(100); // the labels are fitted after layout
    const rows = await p.locator('.compile-phases .phase-row:not(.phase-axis)').evaluateAll((rs) =>
      rs.map((r) => ({
        tip: r.querySelector<HTMLElement>('.phase-label')!.title,
        shown: [...r.querySelectorAll('g.phase')].flatMap((g) => {
          const text = g.querySelector('text')!;
          const name = /^(.*?): [\d.]+ m?s \(/.exec(g.querySelector('title')!.textContent)![1]!;
          return text.style.display === 'none' ? [] : [{ name, label: text.textContent }];
        }),
      })),
    );
    // the first compile's guards, 2 px wide at 560 px, after its 221 ms trace, which has no place at all for a label:
    // named beside their bar (review 14R R1: review 13 O3 relaxed where the costlier bar has none), never "34.4 ms";
    // the trace said in its row's hover
    const guards = rows[0]!.shown.find((s) => s.name === 'Dynamo: build guards');
    assert.ok(guards?.label.endsWith('guards 34.4 ms'), JSON.stringify(rows[0]!.shown));
    assert.match(rows[0]!.tip, /Dynamo: trace bytecode 221 ms/);
    // every label names its phase: whole, less its part "Dynamo: ", or by its short name (the runner's last label)
    const { phases } = report.modes[0]!.compiler!;
    const shortNames = new Map(
      phases!.flatMap((ph) => (ph.labels ? [[ph.labels[0], ph.labels.at(-1)!] as const] : [])),
    );
    const shown = rows.flatMap((r) => r.shown);
    for (const { name, label } of shown) {
      const said = label.replace(/ [\d.]+ (?:µs|ms|s)$/, '');
      assert.ok(
        said !== label && (name === said || name.endsWith(`: ${said}`) || shortNames.get(name) === said),
        `${label} of ${name}`,
      );
    }
    assert.ok(
      shown.some(({ name, label }) => label.startsWith(`${shortNames.get(name)} `)),
      `a bar with room for its short name alone: ${JSON.stringify(shown)}`,
    );
    await p.locator('section.compile-timeline').screenshot({ path: join(ARTIFACTS, 'narrow-phases-h100.png') });
    assert.deepEqual(errorsOf(p), []);
  });

  test("a compile-phase label shown lies inside its bar or beside it, also after the theme's font changed; the axis in one unit", async () => {
    const p = await openNarrow('fused-cpu', 'section.compile-timeline', true);
    // inside its bar, or beside it: right of it before the next bar at its depth (or the track's edge), or left of it
    // after the one before (or the track's start)
    const spilled = async (): Promise<string[]> => {
      await p.waitForTimeout(100); // the labels are fitted after layout
      return p.locator('.compile-phases svg.phase-track').evaluateAll((tracks) =>
        tracks.flatMap((track) => {
          const bars = [...track.querySelectorAll('g.phase')].map((bar) => ({
            text: bar.querySelector('text'),
            r: bar.querySelector('rect')!.getBoundingClientRect(),
          }));
          const { left: start, right: edge } = track.getBoundingClientRect();
          return bars.flatMap(({ text, r }) => {
            if (!text || text.style.display === 'none') return [];
            const t = text.getBoundingClientRect();
            if (t.left >= r.left - 0.5 && t.right <= r.right + 0.5) return [];
            const row = bars.filter((b) => b.r.top === r.top);
            const next = Math.min(edge, ...row.filter((b) => b.r.left >= r.right).map((b) => b.r.left));
            const before = Math.max(start, ...row.filter((b) => b.r.right <= r.left).map((b) => b.r.right));
            return (t.left >= r.right && t.right <= next + 0.5) || (t.right <= r.left && t.left >= before - 0.5)
              ? []
              : [`${text.textContent}: ${Math.round(t.right - r.right)} px past its bar, not in the room beside it`];
          });
        }),
      );
    };
    assert.deepEqual(await spilled(), [], 'in the font it opened with');
    // each compile's outermost bar says what it is: a recompile's too, on an axis spanning every compile
    const outermost = await p.locator('.compile-phases .phase-row:not(.phase-axis)').evaluateAll((rows) =>
      rows.map((row) => {
        const text = row.querySelector<SVGTextElement>('g.phase text');
        return text && text.style.display !== 'none' ? text.textContent : `${row.textContent}: no label`;
      }),
    );
    // with Dynamo's part or, where the row's other Dynamo bars have no room for it, without (review 16X X4)
    assert.deepEqual(
      outermost.filter((t) => !/^(Dynamo: )?whole frame /.test(t ?? '')),
      [],
    );
    assert.ok(outermost.length > 1, 'a recompile drawn');
    const ticks = await p.locator('.compile-phases .phase-axis text').allTextContents();
    assert.deepEqual(ticks, ['0 s', '20 s', '40 s', '60 s'], 'the axis in one unit'); // fused-cpu's 64.6 s of compiles
    await applyTheme(p, THEMES[0]!); // VS Code's font variables: wider than the default font
    assert.deepEqual(await spilled(), [], "in the theme's font");
  });
});
