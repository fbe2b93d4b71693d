// Which step each pane shows (webview/paneSteps.ts) and how deep its tracks' rows are (webview/timelineRows.ts): a
// comparison's panes on one step, each region opened past its own warm-up (review 10 B10/F2), and a track's rows
// as deep as its slices in the step shown, on the recorded 2-rank DDP job (review 10 F9: rank 1's step 1 kept the
// 25 rows of its 2 s recompile in step 2, 350 px of them empty).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { paneStep, stepBounds, stepHolding, stepLeads } from '../../webview/paneSteps.ts';
import { ROW_HEIGHT, TrackRows } from '../../webview/timelineRows.ts';

const DDP_RANK1 = path.resolve(__dirname, '../fixtures/reports/ddp-ranks-cpu/ranks/rank1/rank1.trace.json.gz');

test("each comparison opens past its own warm-up: a region's panes one step, another region's its own", () => {
  // TinyTransformer's eager and compiled without a warm-up, `step`'s compiled with one: `step`'s both past it
  assert.deepEqual(stepLeads([false, false, false, true], ['r0', 'r0', 'r1', 'r1']), {
    opening: 0,
    leads: [0, 0, 1, 1],
  });
  assert.deepEqual(stepLeads([true, false, false], ['r0', 'r0', 'r1']), { opening: 1, leads: [0, 0, -1] });
  // traces opened together (no region) are one comparison
  assert.deepEqual(stepLeads([false, true], [null, null]), { opening: 1, leads: [0, 0] });
  assert.deepEqual(stepLeads([], []), { opening: 0, leads: [] });
});

test('a pane past its last step has none (-1), never its last shown as the step asked for', () => {
  assert.equal(paneStep(1, 0, 3), 1);
  assert.equal(paneStep(1, 1, 3), 2);
  assert.equal(paneStep(-1, 0, 3), 0, 'a region without a warm-up stays on its first while another shows its warm-up');
  assert.equal(paneStep(3, 0, 3), -1);
  assert.equal(paneStep(2, 1, 3), -1);
  // the view's steps: from where the region with a warm-up shows it, to where the pane with most steps has its last
  assert.deepEqual(stepBounds([0, 1], [3, 3]), [-1, 2]);
  assert.deepEqual(stepBounds([0, 0], [3, 4]), [0, 3]);
  assert.deepEqual(stepBounds([0, -1], [3, 5]), [0, 5]);
});

test('the step holding a time: the last begun at or before it', () => {
  const steps = [{ start: 10 }, { start: 20 }, { start: 30 }];
  assert.deepEqual(
    [5, 10, 25, 99].map((us) => stepHolding(steps, us)),
    [-1, 0, 1, 2],
  );
});

test("a track's rows as deep as its slices in the step shown: unmoved while the view pans within it", async () => {
  const model = await scanTraceFile(DDP_RANK1);
  const [step1, step2] = model.steps;
  const rows = new TrackRows(model, 30);
  const whole = rows.height;
  const within = (from: number, to: number): boolean => rows.showSlicesIn(from, to, [step1!.start, step1!.end]);
  assert.ok(within(step1!.start, step1!.end), 'step 1 shown: the rows move');
  const stepOne = rows.height;
  // rank 1's step 1 stack: a few rows, not the recompile's 25
  assert.ok(whole - stepOne >= 15 * ROW_HEIGHT, `${whole} px for the whole trace, ${stepOne} px for step 1`);
  // panning or zooming within step 1 moves no row (a track may go idle: only its row goes)
  const middle = (step1!.start + step1!.end) / 2;
  within(step1!.start, middle);
  within(middle, step1!.end);
  assert.equal(within(step1!.start, step1!.end), false);
  assert.equal(rows.height, stepOne);
  // step 2 holds the recompile: its rows deeper
  rows.showSlicesIn(step2!.start, step2!.end, [step2!.start, step2!.end]);
  assert.ok(rows.height - stepOne >= 15 * ROW_HEIGHT, `${rows.height} px for step 2`);
  // every slice drawn in step 1 lies in its track's rows
  rows.showSlicesIn(step1!.start, step1!.end, [step1!.start, step1!.end]);
  for (const row of rows.rows)
    if (!row.folded)
      assert.ok(row.y + ROW_HEIGHT <= rows.height, `a level ${row.depth} row at ${row.y} past ${rows.height}`);
});
