// A step view's window holds its whole step in every pane, with a margin: the line where the step ends drawn in the
// canvas, not on its edge nor past it (review 10-12 J5: rank 0's "step 2" of the straggler job, 47.7 ms from ≈4 ms,
// ran off the right edge with no end line; the GPU run's "call 1" ended its "compiled forward" at the edge; the DDP
// job's rank 1 step 1 ran past it). On the recordings the e2e screenshots are of, at the panel's widths.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import type { TimelineSource } from '../../extension/shared/protocol.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { sentTraces, type TraceMessage } from '../sentTraces.ts';
import { errorsOf, holdBrowser, openWebview, postPanes, ROOT } from './harness.ts';

const TRACES = path.join(ROOT, 'test', 'fixtures', 'traces');
const SOURCES: Record<string, TimelineSource> = {
  ranks: {
    kind: 'ranks',
    tracePaths: ['rank0', 'rank1'].map((r) => path.join(TRACES, 'ranks', 'straggler', `${r}.trace.json`)),
  },
  ddp: {
    kind: 'ranks',
    tracePaths: ['rank0', 'rank1'].map((r) =>
      path.join(ROOT, 'test', 'fixtures', 'reports', 'ddp-ranks-cpu', 'ranks', r, `${r}.trace.json.gz`),
    ),
  },
  'gpu-mlp': { kind: 'traces', tracePaths: [path.join(TRACES, 'mlp-default.trace.json')] },
  'cpu-graphbreak': {
    kind: 'traces',
    tracePaths: ['eager', 'default'].map((m) => path.join(TRACES, `cpu-graphbreak-${m}.trace.json`)),
  },
};

interface Debug {
  domain: [number, number];
  panes: {
    stretch: number;
    shownStep: { start: number; end: number } | null;
    lastStep: { start: number; end: number } | null;
  }[];
  layouts: FrameLayout[];
  marks: unknown;
}

const browser = holdBrowser();

describe("step view window, and the whole trace's", () => {
  for (const [name, source] of Object.entries(SOURCES))
    test(`every pane's step whole in its step view, its end line in the canvas (${name})`, async () => {
      const content = await readTimelineSource(source);
      const panes = (await sentTraces(content)).map((m: TraceMessage) => m.pane);
      const wrong: string[] = [];
      for (const width of [560, 700, 1400]) {
        const page = await openWebview(browser(), { width, height: 900 });
        await postPanes(page, content.title, content.source, panes);
        await page.waitForFunction(() => (window as unknown as { __timelineDebug: Debug }).__timelineDebug.marks);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const debug = await page.evaluate(() => {
          const { domain, panes, layouts } = (window as unknown as { __timelineDebug: Debug }).__timelineDebug;
          return { domain, panes, layouts };
        });
        const [from, to] = debug.domain;
        debug.panes.forEach(({ stretch, shownStep }, p) => {
          if (!shownStep) return;
          const { left, width: right, lines } = debug.layouts[p]!;
          // the pane's time at x (its region's stretch: paneFit.ts paneScale)
          const xOf = (us: number): number => left + ((us * stretch - from) / (to - from)) * (right - left);
          const end = xOf(shownStep.end);
          if (xOf(shownStep.start) < left - 0.5) wrong.push(`${width} px, pane ${p}: its step begins left of the view`);
          // a margin: a few px between the step's end and the canvas's edge
          if (end > right - 4) wrong.push(`${width} px, pane ${p}: its step ends at ${end.toFixed(1)} of ${right} px`);
          else if (!lines.some((l) => l.role === 'step' && Math.abs(l.x - end) <= 1))
            wrong.push(`${width} px, pane ${p}: no line where its step ends (${end.toFixed(1)} px)`);
        });
        // the whole trace's view too: its last step's end line in the canvas, a margin from its edge (review 13 Q8:
        // the last slices ran into the right edge, no line closing the step)
        await page.keyboard.press('0');
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const all = await page.evaluate(() => {
          const { domain, panes, layouts } = (window as unknown as { __timelineDebug: Debug }).__timelineDebug;
          return { domain, panes, layouts };
        });
        all.panes.forEach(({ lastStep }, p) => {
          if (!lastStep) return;
          const { left, width: right, lines } = all.layouts[p]!;
          const end = left + ((lastStep.end - all.domain[0]) / (all.domain[1] - all.domain[0])) * (right - left);
          if (end > right - 4) wrong.push(`${width} px, all, pane ${p}: its last step ends at ${end.toFixed(1)} px`);
          else if (!lines.some((l) => l.role === 'step' && Math.abs(l.x - end) <= 1))
            wrong.push(`${width} px, all, pane ${p}: no line where its last step ends (${end.toFixed(1)} px)`);
        });
        assert.deepEqual(errorsOf(page), []);
        await page.close();
      }
      assert.deepEqual(wrong, []);
    });
});
