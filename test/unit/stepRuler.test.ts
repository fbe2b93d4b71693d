// A pane's step ruler (webview/stepRuler.ts): the time before its first step named ("before step 1") only where the
// pane draws recorded time there (review 20Y Y4: in the DDP step view rank 1's ruler read "before step 1" over a
// stretch blank on every row, the ranks' shared axis begun at rank 0's step, 0.29 ms before rank 1's).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { firstRecordedUs, stepEdges } from '../../webview/stepRuler.ts';
import { LABEL_WIDTH } from '../../webview/timelineText.ts';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const ddpRank = (rank: number): Promise<TraceModel> =>
  scanTraceFile(path.join(FIXTURES, 'reports', 'ddp-ranks-cpu', 'ranks', `rank${rank}`, `rank${rank}.trace.json.gz`));

/** The first step line's "before" label with its step's start `atPx` right of the pane's left edge at 400 px/ms. */
function beforeFirst(model: TraceModel, shownStep: number | null, atPx: number, recordedFromUs: number): string | null {
  const start = model.steps[0]!.start;
  const xOf = (t: number): number => LABEL_WIDTH + atPx + (t - start) * 0.4;
  const edges = stepEdges(model.steps, shownStep, false, xOf, 1400, recordedFromUs);
  assert.equal(edges[0]!.label, 'step 1');
  return edges[0]!.before;
}

test("rank 1 of the DDP job: its step view's ruler names no time before step 1, which it does not draw; its whole trace's does", async () => {
  const rank1 = await ddpRank(1);
  // its profiler began 266 µs before its first step: the whole trace's view draws that (its profiled window's bar)
  const recorded = firstRecordedUs(rank1);
  assert.ok(recorded < rank1.steps[0]!.start - 200, `${recorded} µs, step 1 at ${rank1.steps[0]!.start} µs`);
  assert.equal(beforeFirst(rank1, null, 118, recorded), 'before step 1');
  // the step view draws step 1 alone, its line 118 px right of the pane's edge (the axis rank 0's): blank there
  assert.equal(beforeFirst(rank1, 0, 118, recorded), null);
});

test('the whole trace of a pane recorded from its first step on: no time before it named', async () => {
  const rank0 = await ddpRank(0);
  const start = rank0.steps[0]!.start;
  assert.equal(beforeFirst(rank0, null, 50, start), null);
  assert.equal(beforeFirst(rank0, null, 50, start - 1), 'before step 1');
  // the graph-break job's panes keep it, their profiled window begun before step 1 (as the whole-trace ruler says)
  const eager = await scanTraceFile(path.join(FIXTURES, 'traces', 'cpu-graphbreak-eager.trace.json'));
  assert.equal(beforeFirst(eager, null, 50, firstRecordedUs(eager)), 'before step 1');
});
