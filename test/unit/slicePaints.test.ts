// What a slice's label is drawn on (webview/slicePaints.ts, through SliceRects.paintsAt): the fills and outlines
// SliceRects paints in the label's pixel column, in its fill order: in a folded Python stack's row, the frames around
// a label under its own fill, the opaque before the dimmed; in any other row its fill alone; in high contrast, the
// outline of a frame whose side lies in that column, a frame begun under the label included.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SliceRects, type RectView } from '../../webview/sliceRects.ts';
import type { Theme } from '../../webview/theme.ts';
import { ROW_HEIGHT, type Row } from '../../webview/timelineRows.ts';
import { cpuOp, scanEvents } from './traceEvents.ts';

// a frame, the profiler's own work inside it ("CUDA set-up"), a frame inside that, and a frame before them all
const model = scanEvents([
  cpuOp('before', 0, 5),
  cpuOp('outer', 10, 100),
  cpuOp('CUDA set-up', 20, 50),
  cpuOp('inner', 30, 10),
]);
const index = (name: string): number => model.name.findIndex((id) => model.names[id] === name);
const setUp = index('CUDA set-up');

/** The track's levels as rows, folded into one or not. */
function rowsOf(folded: boolean): Row[] {
  const depths = [...new Set(Array.from(model.depth))].sort((a, b) => a - b);
  return depths.map((depth) => {
    const at = Array.from(model.depth, (d, i) => (d === depth ? i : -1)).filter((i) => i >= 0);
    return {
      track: model.track[at[0]!]!,
      depth,
      first: at[0]!,
      end: at.at(-1)! + 1,
      y: folded ? 0 : 15 * depth,
      folded,
    };
  });
}

const fill = 'slice blue';
const theme = (border: string | null): Theme => ({
  kind: Array.from({ length: 16 }, () => fill),
  communication: 'magenta',
  foreground: 'white',
  background: 'black',
  muted: 'grey',
  selection: 'yellow',
  warning: 'orange',
  border,
  font: '13px sans-serif',
});

/** SliceRects laid out over the rows, 1 µs a pixel from x = `shift`, "CUDA set-up" dimmed as the profiler's work. */
function laidOut(rows: Row[], shift = 0): SliceRects {
  const rects = new SliceRects(model, new Uint8Array(model.names.length), (i) => i === setUp);
  const view: RectView = { tMin: 0, tMax: 200, left: 0, right: 200, toX: (t) => t + shift, toT: (x) => x - shift };
  rects.layOut(rows, view);
  return rects;
}

const middle = (depth: number, folded: boolean): number => (folded ? 0 : 15 * depth) + ROW_HEIGHT / 2;

test("a dimmed frame's label in a folded row lies on the opaque frame around it, not on its faint fill alone", () => {
  // review 14T T7: "CUDA set-up" was inked for its faint fill on the dark page, light grey on the blue around it
  const rects = laidOut(rowsOf(true));
  assert.deepEqual(rects.paintsAt(21, middle(0, true), theme(null)), [
    { colour: fill, alpha: 1 },
    { colour: fill, alpha: 0.2 },
  ]);
  // the opaque ones first: an opaque frame inside a dimmed one is filled under the dimmed one's faint fill
  assert.deepEqual(rects.paintsAt(31, middle(0, true), theme(null)), [
    { colour: fill, alpha: 1 },
    { colour: fill, alpha: 0.2 },
  ]);
  // a frame before the others: nothing around it
  assert.deepEqual(rects.paintsAt(1, middle(0, true), theme(null)), [{ colour: fill, alpha: 1 }]);
});

test('in an unfolded row a label lies on its own fill alone', () => {
  const depth = model.depth[setUp]!;
  assert.deepEqual(laidOut(rowsOf(false)).paintsAt(21, middle(depth, false), theme(null)), [
    { colour: fill, alpha: 0.2 },
  ]);
});

test('in high contrast a label lies on the outline of a frame whose side is in its column: one begun under it too', () => {
  // review 14T's screens, high contrast: left of "anchors.py line 191, module level" the frames begun 1 px into it
  // had outlined their sides, part outline and part slice blue where its paints said slice blue alone
  const rects = laidOut(rowsOf(true), 0.4);
  // "inner" begins at x 30.4, inside "outer" and under the faint "CUDA set-up": its side's column is 30
  assert.deepEqual(rects.paintsAt(30, middle(0, true), theme('cyan')), [
    { colour: fill, alpha: 1 },
    { colour: 'cyan', alpha: 1 },
    { colour: fill, alpha: 0.2 },
  ]);
  // a column clear of every side: the fills alone; without a border (light, dark) no outline anywhere
  assert.deepEqual(rects.paintsAt(32, middle(0, true), theme('cyan')), [
    { colour: fill, alpha: 1 },
    { colour: fill, alpha: 0.2 },
  ]);
  assert.deepEqual(rects.paintsAt(30, middle(0, true), theme(null)), [
    { colour: fill, alpha: 1 },
    { colour: fill, alpha: 0.2 },
  ]);
  // "before" ends at x 5.4: its last column is part fill, part page, and its side's outline
  const end = rects.paintsAt(5, middle(0, true), theme('cyan'));
  assert.equal(end.length, 2);
  assert.equal(end[0]!.colour, fill);
  assert.ok(Math.abs(end[0]!.alpha - 0.4) < 1e-9, `${end[0]!.alpha}`);
  assert.deepEqual(end[1], { colour: 'cyan', alpha: 1 });
});
