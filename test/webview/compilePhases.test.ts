// The compile phases on real reports, at the widths the panel opens in: a torchrun job's are every rank's (schema 1.38
// rankPhases: review 10H H3, rank 1's 2-s recompile had no row), and every bar label says what it is: its name and
// time, a shorter name and time, or nothing (its row's hover names it), never its time alone, the labels at a depth
// in their bars' order (review 10H H2 / 10G G5 / 10F F10: "Dynamo: build guards 38.2 ms | 25.6 ms" where trace
// bytecode came first).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { loadReport } from '../../extension/node/reportFile.ts';
import { ARTIFACTS, errorsOf, holdBrowser, openWebview, post } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

const FIXTURES = join(__dirname, '..', 'fixtures');
const browser = holdBrowser();

/** A report's panel alone at `width`, in Light Modern (VS Code's font: the labels' widths are its). */
async function openPhases(folder: string, width: number): Promise<Page> {
  const { report } = await loadReport(join(FIXTURES, folder, 'report.json'));
  const page = await openWebview(browser(), { width, height: 900 });
  await post(page, {
    type: 'report',
    title: folder,
    source: { kind: 'report', reportPath: `/r/${folder}/report.json` },
    report,
    traces: 0,
  });
  await applyTheme(page, THEMES[0]!);
  await page.locator('section.compile-timeline').waitFor();
  await page.waitForTimeout(100); // the labels are fitted after layout
  return page;
}

interface Bar {
  /** the phase's name, from its hover ("Dynamo: build guards: 38.2 ms (…)") */
  name: string;
  /** the label shown, or null where none is */
  label: string | null;
  /** its forms, longest first */
  forms: string[];
  x: number;
  y: number;
  labelLeft: number;
  labelRight: number;
}

/** Each compile row's bars, and its hover. */
async function rowsOf(page: Page): Promise<{ tip: string; bars: Bar[] }[]> {
  return page.locator('.compile-phases .phase-row:not(.phase-axis)').evaluateAll((rows) =>
    rows.map((row) => ({
      tip: row.querySelector<HTMLElement>('.phase-label')!.title,
      bars: [...row.querySelectorAll('g.phase')].map((g) => {
        const text = g.querySelector('text')!;
        const rect = g.querySelector('rect')!.getBoundingClientRect();
        const box = text.getBoundingClientRect();
        return {
          name: /^(.*?): [\d.,]+ (?:µs|ms|s) \(/.exec(g.querySelector('title')!.textContent)![1]!,
          label: text.style.display === 'none' ? null : text.textContent,
          forms: (text.dataset['forms'] ?? '').split('\n'),
          x: rect.x,
          y: Math.round(rect.y),
          labelLeft: box.left,
          labelRight: box.right,
        };
      }),
    })),
  );
}

describe('compile phases', () => {
  test("a torchrun job's compile phases are each rank's: rank 1's recompiles have rows, each heading its rank's", async () => {
    const { report } = await loadReport(join(FIXTURES, 'reports/ddp-ranks-cpu/report.json'));
    const groups = report.modes[0]!.compiler!.rankPhases!;
    const page = await openPhases('reports/ddp-ranks-cpu', 560);
    const sections = page.locator('details.compile-phases[data-mode="script"]');
    assert.deepEqual(await sections.evaluateAll((ds) => ds.map((d) => (d as HTMLElement).dataset['ranks'])), [
      '0',
      '1',
    ]);
    assert.deepEqual(
      await sections.locator('summary').allInnerTexts(),
      groups.map((g) => `Compile phases — script: ${g.compiler.phasesText}`),
    );
    assert.match(groups[1]!.compiler.phasesText!, /^7 compiles \(2 graphs; 5 made none\) on rank 1, 57.0 s/);
    const rows = async (k: number): Promise<string[]> =>
      (await sections.nth(k).locator('.phase-row:not(.phase-axis) .phase-label').allInnerTexts()).map((l) =>
        l.replace(/\s+/g, ' '),
      );
    // rank 1's recompile at call 3 (its 2-s stall) drawn under rank 1, not under rank 0
    const recompiled = (labels: string[]): string[] => labels.filter((l) => l.includes("recompiled for x's size 8"));
    assert.equal(recompiled(await rows(1)).length, 2, (await rows(1)).join('\n'));
    assert.deepEqual(recompiled(await rows(0)), []);
    assert.equal((await rows(0)).length, 5);
    await page.locator('section.compile-timeline').screenshot({ path: join(ARTIFACTS, 'compile-phases-ranks.png') });
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  for (const folder of [
    'recorded/train_small-cpu',
    'reports/fused-cpu',
    'reports/h100-mlp',
    'reports/ddp-ranks-cpu',
    'recorded/serve_script-cpu',
  ])
    test(`every bar label names its phase, never its time alone, in its bar's order (${folder})`, async () => {
      let named = 0;
      for (const width of [560, 700, 1400]) {
        const page = await openPhases(folder, width);
        const rows = await rowsOf(page);
        const wrong: string[] = [];
        for (const { tip, bars } of rows) {
          for (const bar of bars) {
            if (bar.label === null) {
              if (!tip.includes(bar.forms[0]!)) wrong.push(`${bar.forms[0]}: hidden, and not in its row's hover`);
              continue;
            }
            named++;
            if (/^[\d.,]+ (?:µs|ms|s)$/.test(bar.label)) wrong.push(`"${bar.label}" (${bar.name}): a bare time`);
            if (!bar.forms.includes(bar.label) || !bar.forms[0]!.startsWith(bar.name))
              wrong.push(`"${bar.label}": not a form of ${bar.name}`);
          }
          // per depth, the labels left to right are their bars left to right
          for (const y of new Set(bars.map((b) => b.y))) {
            const shown = bars.filter((b) => b.y === y && b.label !== null);
            const byBar = [...shown].sort((a, b) => a.x - b.x).map((b) => b.label);
            const byLabel = [...shown].sort((a, b) => a.labelLeft - b.labelLeft).map((b) => b.label);
            if (byBar.join(' | ') !== byLabel.join(' | '))
              wrong.push(`labels ${byLabel.join(' | ')} over bars in the order ${byBar.join(' | ')}`);
            for (let k = 1; k < shown.length; k++) {
              const [a, b] = [byLabel[k - 1], byLabel[k]].map((l) => shown.find((s) => s.label === l)!);
              if (a!.labelRight > b!.labelLeft + 1) wrong.push(`"${a!.label}" over "${b!.label}"`);
            }
          }
        }
        assert.deepEqual(wrong, [], `${folder} at ${width} px`);
        assert.deepEqual(errorsOf(page), []);
        if (folder === 'recorded/train_small-cpu')
          await page
            .locator('section.compile-timeline')
            .screenshot({ path: join(ARTIFACTS, `compile-phases-train_small-${width}.png`) });
        await page.close();
      }
      assert.ok(named > 10, `${named} labels shown`);
    });

  test("a row's time stays on the line of its name's last word: never a line of its own (review 10H E12)", async () => {
    for (const folder of ['reports/fused-cpu', 'recorded/train_small-cpu', 'reports/ddp-ranks-cpu']) {
      const page = await openPhases(folder, 560);
      const alone = await page
        .locator('.compile-phases .phase-row:not(.phase-axis) .phase-label')
        .evaluateAll((labels) =>
          labels.flatMap((label) => {
            // the name's last word, its "·" and its time: from the last break before "·" to the label's end
            const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
            let last: Text | null = null;
            for (let n = walker.nextNode(); n; n = walker.nextNode())
              if (n.textContent!.includes('·')) last = n as Text;
            if (!last) return [`${label.textContent}: no "·"`];
            const dot = last.textContent.lastIndexOf('·');
            const word = Math.max(0, last.textContent.lastIndexOf(' ', dot) + 1);
            if (word === dot) return [`${label.textContent}: "·" after a breakable space`];
            const range = document.createRange();
            range.setStart(last, word);
            range.setEndAfter(label.lastChild!);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            return tops.size === 1 ? [] : [`${label.textContent}: its last word and time on ${tops.size} lines`];
          }),
        );
      assert.deepEqual(alone, [], folder);
      await page.close();
    }
  });

  test('where a bar has room for its name at 1400 px, its name shows, not a shorter form (review 10G G5)', async () => {
    // train_small's first recompile of step: "Dynamo: trace bytecode 25.6 ms | build guards 38.2 ms" fits at 1400 px
    const page = await openPhases('recorded/train_small-cpu', 1400);
    const rows = await rowsOf(page);
    const shown = rows.flatMap((r) => r.bars).filter((b) => b.label !== null);
    const short = shown.filter((b) => b.label !== b.forms[0]);
    assert.ok(
      shown.some((b) => b.label!.startsWith('Dynamo: trace bytecode ')),
      shown.map((b) => b.label).join(' | '),
    );
    // fewer shortened than named whole: the wide panel is not labelled as the narrow one is
    assert.ok(short.length < shown.length / 2, `${short.length} of ${shown.length} shortened`);
    await page.close();
  });
});
