// A step view's slices cut at its step's end line (webview/stepCuts.ts): each row's slice that runs on past it marked
// "→" right of the line, on the straggler job's rank 1, whose step-2 all_reduce ends 1.5 ms into step 3 (review 16 Z1:
// cut there with nothing saying so).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { CONTINUES, stepCutTexts } from '../../webview/stepCuts.ts';
import { communicationNames } from '../../webview/analysis/communication.ts';
import { lowerBoundStart, ROW_HEIGHT, TrackRows } from '../../webview/timelineRows.ts';
import { LABEL_WIDTH, type Measure } from '../../webview/timelineText.ts';

/** 6 px a character, about the canvas's 11 px font. */
const m: Measure = { width: (text) => 6 * text.length, ascent: 8, descent: 3 };
const ink = { colour: '#000', alpha: 1 };

test("rank 1's all_reduce run on past its step's end is marked there, on its own row alone", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/ranks/straggler/rank1.trace.json'));
  const rows = new TrackRows(model, 0).rows;
  const step = model.steps[0]!;
  const width = 1400;
  const xOf = (t: number): number =>
    LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * (width - 60 - LABEL_WIDTH);
  const cuts = stepCutTexts(model, rows, step.end, xOf, width, m, ink, [ink]);
  // the collective's row among them: the slice of that row begun before the end runs past it
  const collectives = communicationNames(model.names);
  const runsOn = rows.filter((row) => {
    for (let i = row.first; i < row.end; i++)
      if (model.start[i]! < step.end && model.start[i]! + model.dur[i]! > step.end + 10) return true;
    return false;
  });
  assert.ok(
    runsOn.some((row) => {
      const i = lowerBoundStart(model, row.first, row.end, step.end) - 1;
      return i >= row.first && collectives[model.name[i]!] === 1;
    }),
    'the all_reduce run on past the end',
  );
  assert.deepEqual(
    cuts.map((t) => t.middle).sort((a, b) => a - b),
    [...new Set(runsOn.map((row) => row.y + ROW_HEIGHT / 2))].sort((a, b) => a - b),
  );
  for (const t of cuts) {
    assert.equal(t.text, CONTINUES);
    assert.ok(t.x > xOf(step.end), 'right of the end line');
  }
  // the step's own slice, ended on its line, is not marked; nor any where the pane has no room right of the line
  assert.deepEqual(stepCutTexts(model, rows, step.end, xOf, xOf(step.end) + 4, m, ink, [ink]), []);
});

test('a frame begun before the step, holding it whole, is not marked; the all_reduce begun in it still is', async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/ranks/straggler/rank1.trace.json'));
  const rows = new TrackRows(model, 0).rows;
  const step = model.steps[0]!;
  const xOf = (t: number): number => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * 1000;
  const all = stepCutTexts(model, rows, step.end, xOf, 1400, m, ink, [ink]);
  const fromStep = stepCutTexts(model, rows, step.end, xOf, 1400, m, ink, [ink], step.start);
  const begunIn = rows.filter((row) => {
    const i = lowerBoundStart(model, row.first, row.end, step.end) - 1;
    return i >= row.first && model.start[i]! >= step.start && model.start[i]! + model.dur[i]! > step.end;
  });
  assert.ok(fromStep.length < all.length, 'the enclosing frames (the profiled window) were marked before');
  assert.ok(fromStep.length > 0, 'the all_reduce still marked');
  for (const t of fromStep) assert.ok(begunIn.some((row) => row.y + ROW_HEIGHT / 2 === t.middle));
});
