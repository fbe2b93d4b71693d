// What a slice's label is drawn on (webview/slicePaints.ts): in a folded Python stack's row, the frames around it
// under its own fill, the opaque before the dimmed, as SliceRects fills them; in any other row its fill alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Paint } from '../../webview/frameLayout.ts';
import { slicePaints } from '../../webview/slicePaints.ts';
import type { Row } from '../../webview/timelineRows.ts';
import { cpuOp, scanEvents } from './traceEvents.ts';

// a frame, the profiler's own work inside it ("CUDA set-up"), a frame inside that, and a frame before them all
const model = scanEvents([
  cpuOp('before', 0, 5),
  cpuOp('outer', 10, 100),
  cpuOp('CUDA set-up', 20, 50),
  cpuOp('inner', 30, 10),
]);
const index = (name: string): number => model.name.findIndex((id) => model.names[id] === name);
const [before, outer, setUp, inner] = ['before', 'outer', 'CUDA set-up', 'inner'].map(index) as [
  number,
  number,
  number,
  number,
];

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

/** Slices dimmed as the profiler's own work: drawn faint, in one colour per slice to tell them apart. */
const paintOf =
  (dimmed: readonly number[]) =>
  (slice: number): Paint => ({ colour: `slice ${slice}`, alpha: dimmed.includes(slice) ? 0.2 : 1 });

test("a dimmed frame's label in a folded row lies on the opaque frame around it, not on its faint fill alone", () => {
  // review 14T T7: "CUDA set-up" was inked for its faint fill on the dark page, light grey on the blue around it
  assert.equal(model.depth[setUp], model.depth[outer]! + 1);
  assert.deepEqual(slicePaints(model, rowsOf(true), setUp, paintOf([setUp])), [
    { colour: `slice ${outer}`, alpha: 1 },
    { colour: `slice ${setUp}`, alpha: 0.2 },
  ]);
  // the opaque ones first: an opaque frame inside a dimmed one is filled under the dimmed one's faint fill
  assert.deepEqual(slicePaints(model, rowsOf(true), inner, paintOf([setUp])), [
    { colour: `slice ${outer}`, alpha: 1 },
    { colour: `slice ${inner}`, alpha: 1 },
    { colour: `slice ${setUp}`, alpha: 0.2 },
  ]);
  // a frame before the others: nothing around it
  assert.deepEqual(slicePaints(model, rowsOf(true), before, paintOf([])), [{ colour: `slice ${before}`, alpha: 1 }]);
});

test('in an unfolded row a label lies on its own fill alone', () => {
  assert.deepEqual(slicePaints(model, rowsOf(false), setUp, paintOf([setUp])), [
    { colour: `slice ${setUp}`, alpha: 0.2 },
  ]);
});
