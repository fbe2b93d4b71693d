// What a slice's label is drawn on (webview/slicePaints.ts, through SliceRects.paintsAt): the fills and outlines
// SliceRects paints in the label's pixel column, in its fill order: in a folded Python stack's row, the frames around
// a label under its own fill, the opaque before the dimmed; in any other row its fill alone; in high contrast, the
// outline of a frame whose side lies in that column, where it is outlined: in a folded row, an outer frame only.
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

/** Paints equal up to float rounding of a part-covered column's alpha. */
function assertPaints(actual: readonly { colour: string; alpha: number }[], expected: typeof actual): void {
  assert.deepEqual(
    actual.map((p) => p.colour),
    expected.map((p) => p.colour),
  );
  actual.forEach((p, k) => assert.ok(Math.abs(p.alpha - expected[k]!.alpha) < 1e-9, `${p.alpha}`));
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

test('in high contrast a folded row outlines only its outer frames: no side of a frame folded into one crosses a label', () => {
  // review 15W W2: the sides of every frame folded into the Python stack's row striped the letters of "anchors.py
  // line 191, module level"; a frame folded into an outer one lies inside it, so the outer frames' sides cross no label
  const rects = laidOut(rowsOf(true), 0.4);
  // "inner" begins at x 30.4, inside "outer" and under the faint "CUDA set-up": folded, its side is not outlined
  assert.deepEqual(rects.paintsAt(30, middle(0, true), theme('cyan')), [
    { colour: fill, alpha: 1 },
    { colour: fill, alpha: 0.2 },
  ]);
  // "CUDA set-up" begins at x 20.4: its faint fill covers 0.6 of the column, and its side is not outlined either
  assertPaints(rects.paintsAt(20, middle(0, true), theme('cyan')), [
    { colour: fill, alpha: 1 },
    { colour: fill, alpha: 0.12 },
  ]);
  // "outer" (depth 0) begins at x 10.4: its side is outlined, the frames told apart at their outer ones
  assertPaints(rects.paintsAt(10, middle(0, true), theme('cyan')), [
    { colour: fill, alpha: 0.6 },
    { colour: 'cyan', alpha: 1 },
  ]);
  // without a border (light, dark) no outline anywhere
  assertPaints(rects.paintsAt(10, middle(0, true), theme(null)), [{ colour: fill, alpha: 0.6 }]);
  // "before" ends at x 5.4: its last column is part fill, part page, and its side's outline
  const end = rects.paintsAt(5, middle(0, true), theme('cyan'));
  assert.equal(end.length, 2);
  assert.equal(end[0]!.colour, fill);
  assert.ok(Math.abs(end[0]!.alpha - 0.4) < 1e-9, `${end[0]!.alpha}`);
  assert.deepEqual(end[1], { colour: 'cyan', alpha: 1 });
});

test("in high contrast an unfolded row outlines every frame: a side in a label's column is painted there", () => {
  const rects = laidOut(rowsOf(false), 0.4);
  const depth = model.depth[index('inner')]!;
  // "inner" begins at x 30.4 in its own row: its side's column is 30
  assertPaints(rects.paintsAt(30, middle(depth, false), theme('cyan')), [
    { colour: fill, alpha: 0.6 },
    { colour: 'cyan', alpha: 1 },
  ]);
  assert.deepEqual(rects.paintsAt(32, middle(depth, false), theme('cyan')), [{ colour: fill, alpha: 1 }]);
});
