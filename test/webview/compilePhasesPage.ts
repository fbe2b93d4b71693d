// What the compile-phase tests (compilePhasesNames, compilePhasesPlacement, compilePhasesRowNames) open and read back:
// a report's panel alone at a width, and each compile row's bars with their labels, forms and boxes.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { loadReport } from '../../extension/node/reportFile.ts';
import type { Report } from '../../extension/shared/report.ts';
import { holdBrowser, openWebview, post } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

// the fixtures whose compile-phase charts the label tests read: one of each kind of compile row
export const CHARTED = [
  'recorded/train_small-cpu',
  'reports/fused-cpu',
  'reports/h100-mlp',
  'reports/ddp-ranks-cpu',
  'recorded/serve_script-cpu',
];

export const FIXTURES = join(__dirname, '..', 'fixtures');

/**
 * Holds the browser for the calling test file (its before/after hooks registered there) and opens a report's panel
 * alone at `width`, in Light Modern (VS Code's font: the labels' widths are its).
 */
export function phasesOpener(): (folder: string, width: number, edit?: (report: Report) => void) => Promise<Page> {
  const browser = holdBrowser();
  return async (folder, width, edit = () => {}) => {
    const { report } = await loadReport(join(FIXTURES, folder, 'report.json'));
    edit(report);
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
  };
}

export interface Bar {
  /** the phase's name, from its hover ("Dynamo: build guards: 38.2 ms (…)") */
  name: string;
  /** the label shown, or null where none is */
  label: string | null;
  /** its forms, longest first; and without their count "(1 of 2)", where it has them (schema 1.44) */
  forms: string[];
  uncounted: string[] | null;
  /** the phase it is a bar of */
  phase: string;
  /** what it cost, in ms */
  ms: number;
  depth: number;
  /** its track's width, px, and where it begins */
  track: number;
  trackX: number;
  x: number;
  right: number;
  y: number;
  labelLeft: number;
  labelRight: number;
  /** its shortest name, without its time (and without its count), and its length in px as drawn (its name alone) */
  names: string[];
  nameAlone: number;
  /** its shortest form with its time (the shortest it may take beside its bar), its length in px as drawn */
  shortest: number;
}

/** Whether a bar's label lies in its bar. */
export const inside = (bar: Bar): boolean => bar.labelLeft >= bar.x - 0.5 && bar.labelRight <= bar.right + 0.5;

/** Each compile row's bars, and its hover. */
export async function rowsOf(page: Page): Promise<{ tip: string; bars: Bar[] }[]> {
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
          uncounted: text.dataset['uncountedForms']?.split('\n') ?? null,
          phase: text.dataset['phase']!,
          names: [text.dataset['name']!, ...(text.dataset['uncountedName'] ? [text.dataset['uncountedName']] : [])],
          ms: Number((g as SVGGElement).dataset['ms']),
          depth: Number(g.querySelector('rect')!.getAttribute('y')),
          track: g.closest('svg')!.getBoundingClientRect().width,
          trackX: g.closest('svg')!.getBoundingClientRect().x,
          x: rect.x,
          right: rect.right,
          y: Math.round(rect.y),
          labelLeft: box.left,
          labelRight: box.right,
          ...((): { nameAlone: number; shortest: number } => {
            // measured in its own text, put back as fitted (no named function here: the page has no __name)
            const [shown, display] = [text.textContent, text.style.display];
            text.style.display = '';
            const [nameAlone, shortest] = [
              text.dataset['name']!,
              (text.dataset['forms'] ?? '').split('\n').at(-1)!,
            ].map((form) => {
              text.textContent = form;
              return text.getComputedTextLength();
            });
            [text.textContent, text.style.display] = [shown, display];
            return { nameAlone: nameAlone!, shortest: shortest! };
          })(),
        };
      }),
    })),
  );
}
