// A row whose slices in view are too short for a pixel together says so (webview/unseenRows.ts), on the DDP job's
// rank 0: its gloo thread 1029's all_reduces (1.0 ms together) draw nothing across the whole 2.2 s view at 700 px (review 17Z Z6:
// empty rows read as lost data), while a step's view draws them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { TOO_SHORT_HERE, unseenRowTexts } from '../../webview/unseenRows.ts';
import { ROW_HEIGHT, TrackRows } from '../../webview/timelineRows.ts';
import { LABEL_WIDTH, type Measure } from '../../webview/timelineText.ts';

const m: Measure = { width: (text) => 6 * text.length, ascent: 8, descent: 3 };
const ink = { colour: '#000', alpha: 1 };

test("a gloo thread's row, its all_reduces below a pixel in the whole trace's view, says they are too short to see; no other row", async () => {
  const model = await scanTraceFile(
    path.resolve(__dirname, '../fixtures/reports/ddp-ranks-cpu/ranks/rank0/rank0.trace.json.gz'),
  );
  const rows = new TrackRows(model, 0).rows;
  const said = (tMin: number, tMax: number, width: number): string[] => {
    const toX = (t: number): number => LABEL_WIDTH + ((t - tMin) / (tMax - tMin)) * (width - LABEL_WIDTH);
    const texts = unseenRowTexts(model, rows, { tMin, tMax, left: LABEL_WIDTH, toX }, m, ink, ink);
    for (const t of texts) assert.equal(t.text, TOO_SHORT_HERE);
    const tracks = texts.map((t) => rows.find((r) => r.depth === 0 && r.y + ROW_HEIGHT / 2 === t.middle)!.track);
    return tracks.map((t) => model.tracks[t]!.name);
  };
  let end = 0;
  for (let i = 0; i < model.count; i++) end = Math.max(end, model.start[i]! + model.dur[i]!);
  const all = said(0, end, 700);
  assert.ok(all.length === 1 && all[0]!.startsWith('thread 1029 '), `too short in the whole view: ${all.join(', ')}`);
  // a step's view draws them: none said
  const step = model.steps.at(-1)!;
  assert.deepEqual(said(step.start, step.end, 700), []);
});

test('its words lie on the page and on the bands around them, painted again over a band that crosses them (review 18Z Z3)', async () => {
  const model = await scanTraceFile(
    path.resolve(__dirname, '../fixtures/reports/ddp-ranks-cpu/ranks/rank0/rank0.trace.json.gz'),
  );
  const rows = new TrackRows(model, 0).rows;
  let end = 0;
  for (let i = 0; i < model.count; i++) end = Math.max(end, model.start[i]! + model.dur[i]!);
  const toX = (t: number): number => LABEL_WIDTH + (t / end) * (700 - LABEL_WIDTH);
  const page = { colour: '#fff', alpha: 1 };
  const wash = { x0: LABEL_WIDTH - 50, x1: 700, paint: { colour: '#f0c', alpha: 0.1 }, edge: '#f0c' };
  // a graph break's narrow band through "too": not under the words, cleared of them (overlays.clearLabelsOfBands)
  const narrow = {
    x0: LABEL_WIDTH + 13,
    x1: LABEL_WIDTH + 16,
    paint: { colour: '#bf8803', alpha: 0.2 },
    edge: '#bf8803',
  };
  const [text] = unseenRowTexts(model, rows, { tMin: 0, tMax: end, left: LABEL_WIDTH, toX }, m, ink, page, [
    wash,
    narrow,
  ]);
  assert.deepEqual(text!.under, [page, wash.paint]);
});
