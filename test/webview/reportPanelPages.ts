// The report panel as the host opens it, for the webview tests that read script reports (regions, in situ, answer): a
// fixture's report with its region traces read by the real scanner, and the first-call chart's marks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Report } from '../../extension/shared/report.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { openWebview, postTimeline, ROOT } from './harness.ts';

/** A fixture report: `reports/NAME` or `recorded/NAME` under test/fixtures. */
export const reportPath = (name: string): string => join(ROOT, 'test', 'fixtures', name, 'report.json');
export const readReport = (name: string): Report => JSON.parse(readFileSync(reportPath(name), 'utf8')) as Report;

/** The report as the host sends it: with the region traces read by the real scanner. */
export async function openReport(browser: Browser, name: string, edit?: (report: Report) => Report): Promise<Page> {
  const page = await openWebview(browser);
  const source = { kind: 'report' as const, reportPath: reportPath(name) };
  const content = await readTimelineSource(source);
  if (edit) content.report = edit(content.report!);
  await postTimeline(page, content);
  return page;
}

export interface Mark {
  call: number;
  mark: string;
  title: string;
  x: number;
  y: number;
}

/** The first-call chart's marks of a region, in call order, with their titles and centres. */
export const marks = (page: Page, region: string): Promise<Mark[]> =>
  page.locator(`section.region[data-region="${region}"] svg.first-calls .mark`).evaluateAll((nodes) =>
    nodes
      .map((node) => {
        const box = (node as SVGGraphicsElement).getBoundingClientRect();
        return {
          call: Number((node as SVGElement).dataset['call']),
          mark: (node as SVGElement).dataset['mark'] ?? '',
          title: node.querySelector('title')?.textContent ?? '',
          x: box.x + box.width / 2,
          y: box.y + box.height / 2,
        };
      })
      .sort((a, b) => a.call - b.call),
  );
