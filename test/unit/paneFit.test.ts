// A multi-region report's panes, each region's fitted to its own steps (webview/paneFit.ts, review 9C C4): on the
// recorded train_small report, `step`'s panes stretched so that its step spans the width TinyTransformer's does;
// one region alone, or panes of no region, as they are.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scaleLinear } from 'd3';
import { loadReport } from '../../extension/node/reportFile.ts';
import {
  allWindow,
  fitsStep,
  paneRegions,
  paneScale,
  regionStretches,
  scaleSetters,
  stepWindowEnd,
} from '../../webview/paneFit.ts';

const TRAIN_SMALL = path.resolve(__dirname, '../fixtures/recorded/train_small-cpu/report.json');

test("each pane by its region: a replay's and its in-situ window's; the script's own modes by none", async () => {
  const { report } = await loadReport(TRAIN_SMALL);
  assert.deepEqual(
    paneRegions(report, [
      'TinyTransformer, eager',
      'TinyTransformer, in situ eager',
      "step, compiled with backend='eager', dynamic=False",
      'script',
    ]),
    ['r0', 'r0', 'r1', null],
  );
  assert.deepEqual(paneRegions(null, ['eager']), [null]);
});

test("each region's longest step across the longest of all's; one region alone, or no region, as it is", () => {
  // TinyTransformer's 256 ms step beside step's 90 µs one: step's panes 2,844× (a 1 px sliver before)
  const stretches = regionStretches([250_000, 256_000, 90, 60], ['r0', 'r0', 'r1', 'r1']);
  assert.deepEqual(stretches.slice(0, 2), [1, 1]);
  assert.equal(stretches[2], 256_000 / 90);
  assert.equal(stretches[3], 256_000 / 90, "a region's panes one factor: its eager and compiled side by side");
  assert.deepEqual(regionStretches([250_000, 90], ['r0', 'r0']), [1, 1]);
  assert.deepEqual(regionStretches([250_000, 90, 40], ['r0', 'r1', null]), [1, 250_000 / 90, 1]);
  assert.deepEqual(regionStretches([250_000, 90], [null, null]), [1, 1]);
});

test("a stretched pane's scale says its own times: its step across the shared width", () => {
  const shared = scaleLinear().domain([0, 256_000]).range([200, 1200]);
  const own = paneScale(shared, 256_000 / 90);
  assert.equal(own(90), 1200);
  assert.equal(own.invert(200), 0);
  assert.equal(paneScale(shared, 1), shared);
});

test("a step view's window: past its longest step's end by a margin, never on it (review J5)", () => {
  // rank 0's step 2 of the straggler job, 51.7 ms from the view's time 0
  const end = stepWindowEnd(51_700);
  assert.ok(end > 51_700 && end <= 51_700 * 1.05, String(end));
  assert.equal(stepWindowEnd(0), 1);
  // at least 24 px of a narrow plot past it: 2% of ddp's 360 px plot at 560 px left rank 1's end line 7 px from the
  // edge (review 14 T8); a wide plot's 2% is more
  for (const plotPx of [200, 360, 540])
    assert.ok(Math.abs(plotPx * (1 - 51_700 / stepWindowEnd(51_700, plotPx)) - 24) < 1e-6, `${plotPx} px`);
  assert.equal(stepWindowEnd(51_700, 1240), stepWindowEnd(51_700));
});

test("the whole traces' window: from their start to past their end by a step view's margin (review 13 Q8)", () => {
  // the straggler job's 137 ms from rank 1's 4 ms before rank 0's first step
  const [from, to] = allWindow(-4_000, 137_000);
  assert.equal(from, -4_000);
  assert.ok(to > 137_000 && to - 137_000 <= 0.05 * 141_000, String(to));
  // the same share as a step view's
  assert.ok(Math.abs((to - 137_000) / 141_000 - (stepWindowEnd(1) - 1)) < 1e-9, String(to));
});

test("a step view's pane whose step is shorter than another's on its scale names that pane; the longest, and a pane of no step, none (review 17Z Z7)", () => {
  // eager's 128 µs step on default's 620 µs axis: Fit to step fits default's
  assert.deepEqual(scaleSetters([128, 620], [1, 1]), [1, null]);
  // two regions, each fitted to its own (regionStretches): none shares another's scale
  assert.deepEqual(scaleSetters([90, 250_000], [250_000 / 90, 1]), [null, null]);
  // one region's two panes stretched alike, a third of another region
  assert.deepEqual(scaleSetters([40, 90, 250_000], [250_000 / 90, 250_000 / 90, 1]), [1, null, null]);
  // a pane without the view's step
  assert.deepEqual(scaleSetters([0, 620], [1, 1]), [null, null]);
});

test("a view is a step fit's from 0 to past the longest step by a fit's margin; zoomed or panned away, not (review 19Y Y6)", () => {
  // default's 620 µs step fitted at any width: on its scale the shorter step's pane is drawn
  for (const plotPx of [100, 360, 1240]) assert.ok(fitsStep([0, stepWindowEnd(620, plotPx)], 620), `${plotPx} px`);
  // a kernel click's 91–103 µs window, a focus's 840–960 µs, a wheel's zoom into the step from its start, Fit all's
  // whole traces: no pane's step sets the scale
  assert.ok(!fitsStep([91, 103], 620));
  assert.ok(!fitsStep([840, 960], 620));
  assert.ok(!fitsStep([0, 400], 620));
  assert.ok(!fitsStep(allWindow(-4_000, 137_000), 620));
  // no step shown: none
  assert.ok(!fitsStep([0, 1], 0));
});
