// A step line parted from the bars that abut at it (webview/stepLineSplits.ts), on the straggler job's ranks in the
// whole trace's view: rank 0's step 2 ends in ops that stop within a pixel of step 3's line, where step 3's first ops
// begin (review 15W W8: the line read as running through them); rank 1's step-2 all_reduce runs on across that line
// and keeps it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { communicationNames } from '../../webview/analysis/communication.ts';
import { runsPast, stepCutTexts } from '../../webview/stepCuts.ts';
import { stepLineSplits } from '../../webview/stepLineSplits.ts';
import { ROW_HEIGHT, TrackRows, type Row } from '../../webview/timelineRows.ts';
import { LABEL_WIDTH } from '../../webview/timelineText.ts';

const rank = (k: number): Promise<TraceModel> =>
  scanTraceFile(path.resolve(__dirname, `../fixtures/traces/ranks/straggler/rank${k}.trace.json`));

/** The whole trace's view `width` px wide: its steps edge to edge. */
function wholeView(model: TraceModel, width: number): { xOf: (t: number) => number; toT: (x: number) => number } {
  const [from, to] = [model.steps[0]!.start, model.steps.at(-1)!.end];
  const k = (width - LABEL_WIDTH) / (to - from);
  return { xOf: (t) => LABEL_WIDTH + (t - from) * k, toT: (x) => from + (x - LABEL_WIDTH) / k };
}

/** The row's slices within 2 px of the line at x (drawn [x, x + 1)). */
const near = (model: TraceModel, row: Row, x: number, xOf: (t: number) => number): number[] => {
  const out: number[] = [];
  for (let i = row.first; i < row.end; i++)
    if (xOf(model.start[i]!) < x + 3 && xOf(model.start[i]! + model.dur[i]!) > x - 2) out.push(i);
  return out;
};

for (const width of [560, 700, 1400])
  test(`at ${width} px, a step line is parted from bars that abut at it, never from one that crosses it`, async () => {
    const [rank0, rank1] = [await rank(0), await rank(1)];
    for (const model of [rank0, rank1]) {
      const rows = new TrackRows(model, 0).rows;
      const { xOf, toT } = wholeView(model, width);
      const lines = model.steps.slice(1).map((s) => xOf(s.start));
      const splits = stepLineSplits(model, rows, lines, xOf, toT);
      for (const s of splits) {
        assert.equal(s.role, 'split');
        assert.equal(s.y1 - s.y0, ROW_HEIGHT - 1);
        // its rows: a bar ending at the line and another beginning on it, none across it
        // (over the whole pixels of the line it parts)
        const x = lines.find((l) => s.x <= l && l + 1 <= s.x + s.w)!;
        assert.ok(x !== undefined && s.w <= 2, `split at ${s.x}, ${s.w} px`);
        const at = rows.filter((r) => r.y === s.y0).flatMap((r) => near(model, r, x, xOf));
        const x0 = at.map((i) => xOf(model.start[i]!));
        const x1 = at.map((i) => xOf(model.start[i]! + model.dur[i]!));
        assert.ok(x1.some((e) => e <= x + 1) && x0.some((b) => b >= x), `split at ${s.x}, ${s.y0}`);
        assert.ok(!at.some((_, k) => x0[k]! < x && x1[k]! > x + 1), `a bar across ${x}, ${s.y0}`);
      }
      if (model === rank0) {
        // step 3's and step 4's lines each parted from rank 0's ops on the step's thread, its top level first
        const top = rows.find((r) => r.depth === 0 && r.end > r.first && !model.tracks[r.track]!.gpu)!;
        for (const x of lines)
          assert.ok(
            splits.some((s) => s.x <= x && x + 1 <= s.x + s.w && s.y0 === top.y + ROW_HEIGHT),
            `rank 0's line at ${x.toFixed(1)}: ${splits.map((s) => `${s.x.toFixed(1)}@${s.y0}`).join(', ')}`,
          );
      } else {
        // rank 1's step-2 all_reduce runs on across step 3's line: no split in its row
        const collectives = communicationNames(model.names);
        const across = rows.filter((r) =>
          near(model, r, lines[0]!, xOf).some(
            (i) =>
              collectives[model.name[i]!] === 1 &&
              xOf(model.start[i]!) <= lines[0]! - 1 &&
              xOf(model.start[i]! + model.dur[i]!) >= lines[0]! + 1,
          ),
        );
        assert.equal(across.length, 1, 'the all_reduce across step 3');
        assert.ok(!splits.some((s) => s.x <= lines[0]! && lines[0]! < s.x + s.w && s.y0 === across[0]!.y));
      }
    }
  });

test('bars that abut at a line are parted; one across it, or one alone at it, is not', () => {
  // one track, one level: [0, 10) and [10, 20) abut at 10; [25, 40) crosses 30; [45, 50) alone ends at 50
  const start = [0, 10, 25, 45];
  const dur = [10, 10, 15, 5];
  const model = {
    count: 4,
    start: Float64Array.from(start),
    dur: Float64Array.from(dur),
  } as unknown as TraceModel;
  const row: Row = { track: 0, depth: 0, first: 0, end: 4, y: 30, folded: false };
  const identity = (t: number): number => t;
  const splits = stepLineSplits(model, [row], [10, 30, 50], identity, identity);
  assert.deepEqual(splits, [{ role: 'split', x: 10, w: 1, y0: 30, y1: 30 + ROW_HEIGHT - 1 }]);
  // a line between pixels, parted over both
  const between = stepLineSplits(model, [row], [9.5], identity, identity);
  assert.deepEqual(between, [{ role: 'split', x: 9, w: 2, y0: 30, y1: 30 + ROW_HEIGHT - 1 }]);
  // a folded stack's levels drawn in one row: a level crossing the line there keeps it
  const crossing = { model: { count: 1, start: Float64Array.of(5), dur: Float64Array.of(10) } };
  const both = {
    ...model,
    count: 5,
    start: Float64Array.from([...start, crossing.model.start[0]!]),
    dur: Float64Array.from([...dur, crossing.model.dur[0]!]),
  } as unknown as TraceModel;
  const folded: Row[] = [
    { ...row, end: 4, folded: true },
    { ...row, depth: 1, first: 4, end: 5, folded: true },
  ];
  assert.deepEqual(stepLineSplits(both, folded, [10], identity, identity), []);
});

test('a bar under a pixel past the line is parted from the next as the step view leaves it uncut; a pixel past, it crosses in both (review 17Z Z4)', () => {
  // [0, 10.5) runs half a pixel past the line at 10, [11, 20) begins after it; [25, 31) runs a whole pixel past 30,
  // [32, 40) begins after it: the line at 30 stays drawn over the bar that crosses it
  const model = {
    count: 4,
    start: Float64Array.from([0, 11, 25, 32]),
    dur: Float64Array.from([10.5, 9, 6, 8]),
  } as unknown as TraceModel;
  const row: Row = { track: 0, depth: 0, first: 0, end: 4, y: 30, folded: false };
  const identity = (t: number): number => t;
  assert.deepEqual(
    stepLineSplits(model, [row], [10, 30], identity, identity).map((s) => s.x),
    [10],
  );
  // the step view's cut mark, by the same rule: none at 10, one at 30
  const m = { width: (text: string) => 6 * text.length, ascent: 8, descent: 3 };
  const ink = { colour: '#000', alpha: 1 };
  assert.deepEqual(stepCutTexts(model, [row], 10, identity, 100, m, ink, [ink]), []);
  assert.equal(stepCutTexts(model, [row], 30, identity, 100, m, ink, [ink]).length, 1);
  assert.equal(runsPast(10.5, 10), false);
  assert.equal(runsPast(31, 30), true);
});
