// The report panel is legible at 560 px (a panel beside the editor) in VS Code's light, dark and high-contrast
// themes, on real reports: chart tick labels never print over each other and are drawn at a readable size, each
// legend entry draws the chart's own mark and covers no heading, every number clears WCAG contrast 4.5:1 on what
// lies under it, and the compiler's words carry their explanation. Rules, not pixels; the screenshots
// (test-results/legible-*.png) are for a person to look at.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { TERMS } from '../../extension/present/glossary.ts';
import type { Report } from '../../extension/shared/report.ts';
import { ARTIFACTS, holdBrowser, openWebview, post, ROOT } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

// real runs' reports (test/fixtures/recorded/README.md, test/fixtures/logs/README.md): a script whose region was measured
// in situ, a script of four regions, a function's target report, a torchrun job
const REPORTS = ['recorded/serve_script-cpu', 'recorded/train_small-cpu', 'reports/fused-cpu', 'reports/ddp-ranks-cpu'];
const browser = holdBrowser();

/** The report alone (no traces): what is checked here is the panel's text and charts. */
async function openReport(name: string): Promise<Page> {
  const page = await openWebview(browser(), { width: 560, height: 900 });
  const reportPath = join(ROOT, 'test', 'fixtures', name, 'report.json');
  const source = { kind: 'report' as const, reportPath };
  await post(page, {
    type: 'report',
    title: basename(name),
    source,
    report: JSON.parse(readFileSync(reportPath, 'utf8')) as Report,
    traces: 0,
  });
  await page.evaluate(LEGIBLE);
  return page;
}

interface Box {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}
const overlap = (a: Box, b: Box): boolean =>
  a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;

interface Legible {
  /** per chart axis, the tick labels that overlap, and those drawn under 10 px high */
  ticks(): { overlaps: string[]; small: string[]; ticks: number };
  /** per chart, its legend's box, the headings' and the plot's boxes, and whether the plot draws each entry's mark */
  legends(): { legend: Box; headings: Box[]; entries: { label: string; mark: string; drawn: boolean }[] }[];
  /** each chart's steady-state band: its contrast against the page (its fill at its opacity over it) */
  bands(): number[];
  /** WCAG contrast of every text that holds a digit, against the colour under it (alpha composited) */
  contrast(): { checked: number; low: string[] };
}

// Page-side, as a string: tsx would wrap the inner functions of a function passed to evaluate in a helper the page lacks.
const LEGIBLE = `window.__legible = (() => {
  const box = (e) => { const b = e.getBoundingClientRect(); return { text: e.textContent || '', x: b.x, y: b.y, w: b.width, h: b.height }; };
  const overlap = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
  // any CSS colour (rgb(), lch(), color(srgb …)) as sRGB bytes and alpha, the way a canvas paints it
  const pixel = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
  const parse = (css) => {
    pixel.clearRect(0, 0, 1, 1);
    pixel.fillStyle = css;
    pixel.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = pixel.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)]; return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  return {
    ticks() {
      const overlaps = [], small = [];
      let ticks = 0;
      for (const axis of document.querySelectorAll('.region-chart g.axis')) {
        const boxes = [...axis.querySelectorAll('.tick text')].map(box);
        ticks += boxes.length;
        for (const b of boxes) if (b.h < 10) small.push(b.text + ': ' + b.h.toFixed(1) + ' px');
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (overlap(boxes[i], boxes[j])) overlaps.push(boxes[i].text + ' × ' + boxes[j].text);
      }
      return { overlaps, small, ticks };
    },
    legends() {
      const style = (e) => { const s = getComputedStyle(e); return e.tagName + ' ' + e.getAttribute('class') + ' fill ' + s.fill + ' ' + s.fillOpacity + ' stroke ' + s.stroke; };
      return [...document.querySelectorAll('.region-chart')].flatMap((chart) => {
        const legend = chart.querySelector('.chart-legend');
        const plot = chart.querySelector('svg:not(.legend-icon)');
        if (!legend || !plot) return [];
        const drawn = new Set([...plot.querySelectorAll('.mark, .situ-mark, .situ-point, .run, rect.steady')].map(style));
        return [{
          legend: box(legend),
          headings: [...document.querySelectorAll('h1, h2, h3, h4, summary'), plot].map(box),
          entries: [...legend.querySelectorAll('.legend-entry')].map((entry) => {
            const mark = style(entry.querySelector('svg.legend-icon > *'));
            return { label: entry.textContent || '', mark, drawn: drawn.has(mark) };
          }),
        }];
      });
    },
    bands() {
      const page = parse(getComputedStyle(document.body).backgroundColor);
      return [...document.querySelectorAll('.region-chart svg:not(.legend-icon) rect.steady')].map((band) => {
        const s = getComputedStyle(band);
        const fill = parse(s.fill);
        return ratio(over([fill[0], fill[1], fill[2], Number(s.fillOpacity)], page), page);
      });
    },
    contrast() {
      const page = parse(getComputedStyle(document.body).backgroundColor);
      // the opaque colour under an HTML element: its own and its ancestors' backgrounds over the page's
      const backgroundOf = (node) => {
        const layers = [];
        for (let e = node; e && e !== document.body; e = e.parentElement) {
          const c = parse(getComputedStyle(e).backgroundColor);
          if (c[3] > 0) layers.push(c);
        }
        return layers.reverse().reduce((under, top) => over(top, under), page);
      };
      const low = [];
      let checked = 0;
      const check = (label, ink, under) => {
        checked++;
        const r = ratio(over(parse(ink), under), under);
        if (r < 4.5) low.push(label + ': ' + r.toFixed(2));
      };
      const walker = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const parent = n.parentElement;
        if (!/\\d/.test(n.textContent) || parent.closest('svg') || !parent.checkVisibility()) continue;
        check('"' + n.textContent.trim().slice(0, 40) + '" (' + (parent.className || parent.tagName) + ')', getComputedStyle(parent).color, backgroundOf(parent));
      }
      // SVG text: a bar's label on its bar, the rest on the page (the steady shading is a fifth to a third of a colour)
      for (const text of document.querySelectorAll('svg text')) {
        if (!/\\d/.test(text.textContent) || text.style.display === 'none') continue;
        const bar = text.closest('g.phase')?.querySelector('rect');
        check('svg "' + text.textContent + '"', getComputedStyle(text).fill, bar && !text.closest('g.phase.beside') ? parse(getComputedStyle(bar).fill) : page);
      }
      return { checked, low };
    },
  };
})();`;

const legible = <K extends keyof Legible>(page: Page, check: K): Promise<ReturnType<Legible[K]>> =>
  page.evaluate<ReturnType<Legible[K]>>(`window.__legible.${check}()`);

describe('the report panel at 560 px in light, dark and high-contrast themes', () => {
  for (const name of REPORTS) {
    test(`${name}: ticks apart and readable, legends of the chart's own marks clear of headings, numbers at 4.5:1`, async () => {
      const page = await openReport(name);
      // a stacked cell is labelled by its column (styles.ts: attr(data-label)); a row's error spans them, unlabelled
      const labels = await page.locator('td[data-label]').evaluateAll((tds) => tds.map((td) => td.dataset['label']));
      assert.deepEqual(
        labels.filter((l) => !l || l === 'undefined'),
        [],
      );
      assert.equal(await page.locator('td.error[data-label]').count(), 0);
      // a range in the modes table is one value on one line (review 6C: "0.44–" over "0.59×" at 560 px)
      const brokenRanges = await page.locator('table.modes td').evaluateAll((tds) =>
        tds
          .filter((td) => /\d–\d/.test(td.textContent ?? ''))
          .filter((td) => {
            const range = document.createRange();
            range.selectNodeContents(td);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
          })
          .map((td) => td.textContent),
      );
      assert.deepEqual(brokenRanges, []);
      for (const theme of THEMES) {
        await applyTheme(page, theme);
        const ticks = await legible(page, 'ticks');
        assert.deepEqual(ticks.overlaps, [], `${theme.name}: tick labels printed over each other`);
        assert.deepEqual(ticks.small, [], `${theme.name}: tick labels under 10 px`);

        const legends = await legible(page, 'legends');
        for (const l of legends) {
          assert.deepEqual(
            l.headings.filter((h) => overlap(l.legend, h)).map((h) => h.text.slice(0, 40)),
            [],
            `${theme.name}: a legend covers a heading or its chart`,
          );
          assert.deepEqual(
            l.entries.filter((e) => !e.drawn),
            [],
            `${theme.name}: a legend entry whose mark the chart does not draw`,
          );
        }

        // the steady band told from the page (review 6B I: 12 % of charts-green, 1.17:1 on high contrast's black)
        const bands = await legible(page, 'bands');
        assert.deepEqual(
          bands.filter((r) => r < 1.25).map((r) => r.toFixed(2)),
          [],
          `${theme.name}: steady bands at ${bands.map((r) => r.toFixed(2)).join(', ')}:1 on the page`,
        );

        const contrast = await legible(page, 'contrast');
        assert.ok(contrast.checked > 10, `${theme.name}: numbers found (${contrast.checked})`);
        assert.deepEqual(contrast.low, [], `${theme.name}: text under 4.5:1`);
        await page.screenshot({ path: join(ARTIFACTS, `legible-${basename(name)}-${theme.name}.png`), fullPage: true });
      }
      await page.close();
    });
  }

  test("the compiler's words carry their one-phrase explanation where they appear (glossary.ts)", async () => {
    const seen = new Map<string, string>();
    for (const name of [
      'recorded/serve_script-cpu',
      'reports/fused-cpu',
      'recorded/train_small-cpu',
      'reports/script-shapes-cpu',
    ]) {
      const page = await openReport(name);
      // a term as written in Dynamo's own text (recompile_limit) carries the same explanation as in ours (recompile limit)
      for (const [text, title] of await page
        .locator('.term')
        .evaluateAll((nodes) => nodes.map((n) => [n.textContent ?? '', (n as HTMLElement).title])))
        seen.set(text!.replace(/_/g, ' '), title!);
      // a compile's row names it by its compile id: the row's tooltip says what the id is
      const rows = page.locator('.compile-phases .phase-row:not(.phase-axis) .phase-label');
      if (await rows.count()) assert.match((await rows.first().getAttribute('title')) ?? '', /compile id F\/N/);
      await page.close();
    }
    const explanation = (name: string): string => TERMS.find((t) => t.name === name)!.explanation;
    // a compile is named by its graph and function, never by its id (issue 44): no id is a term to explain
    assert.deepEqual(
      [...seen.keys()].filter((text) => /^\d+\/\d+$/.test(text)),
      [],
    );
    for (const [text, name] of [
      ['in situ', 'in situ'],
      ['graph break', 'graph break'], // a report without breaks has no "0 graph breaks" heading
      ['guard', 'guard'],
      ['recompile limit', 'recompile limit'],
    ] as const) {
      assert.equal(seen.get(text) ?? seen.get(`${text}s`), explanation(name), `"${text}" explained`);
    }
  });
});
