// Where a step's line falls between two bars that abut at it (the previous step's last op ending within 2 px of the
// line, the next step's first op beginning on it: under 1.5 px apart, sliceRects.ts draws them as one rect), the
// line drawn over them read as running through one bar: it crossed the first bars of steps 3 and 4, and which step
// they were in was unclear (review 15W W8). There the line gives way to a 1 px gap in the page's colour, which parts
// the two bars as their steps are parted. Only there: a bar that really runs across the line (rank 1's all_reduce,
// 1.5 ms into step 3) keeps the line drawn over it, so that its crossing still shows, as a step view's '→' cut mark
// (stepCuts.ts) says for the same bar. (Under the slices' labels instead, the line would vanish behind every bar,
// the crossing ones too.)
import type { TraceModel } from '../extension/shared/trace/model.ts';
import type { LineSegment } from './frameLayout.ts';
import { runsPast } from './stepCuts.ts';
import { lowerBoundStart, ROW_HEIGHT, type Row } from './timelineRows.ts';

/** how near the line a bar ends or begins to abut at it, px: sliceRects.ts draws bars under 1.5 px apart joined and a
 *  sub-pixel slice to its pixel's end (rank 0's add_ 1.3 px left of step 3's line drawn on across it) */
const NEAR_PX = 2;

/** How the slices of one drawn row meet a step line drawn over [lineX, lineX + 1): one ending within NEAR_PX left of
 *  it, one beginning within NEAR_PX right of it, one across it (begun left of it and running a pixel or more past it:
 *  stepCuts.runsPast, the step view's rule for its cut mark). */
interface AtLine {
  ends: boolean;
  begins: boolean;
  crosses: boolean;
}

/** A row's slices near the line at `lineX` (canvas px; `toT` the inverse of `xOf`), as they meet it. */
function meet(
  model: TraceModel,
  row: Row,
  lineX: number,
  xOf: (t: number) => number,
  toT: (x: number) => number,
): AtLine {
  const at: AtLine = { ends: false, begins: false, crosses: false };
  const [from, to] = [lineX - NEAR_PX, lineX + 1 + NEAR_PX];
  // a row's slices do not overlap: the one begun before `from`, then those begun before `to` (one that lies under the
  // line alone is neither: it is drawn joined to a neighbour)
  for (let i = Math.max(row.first, lowerBoundStart(model, row.first, row.end, toT(from)) - 1); i < row.end; i++) {
    const x0 = xOf(model.start[i]!);
    if (x0 >= to) break;
    const x1 = xOf(model.start[i]! + model.dur[i]!);
    if (x0 < lineX && runsPast(x1, lineX)) at.crosses = true;
    else if (x0 < lineX && x1 > from) at.ends = true;
    else if (x0 >= lineX && x1 > lineX + 1) at.begins = true;
  }
  return at;
}

/**
 * The pieces of the step lines at `stepXs` to draw in the page's colour over the line (role 'split'): in each drawn
 * row (a folded stack's levels share one) where one bar ends at the line and another begins on it, and none crosses
 * it, the height of its bars, over the whole pixels the line is drawn on.
 */
export function stepLineSplits(
  model: TraceModel,
  rows: readonly Row[],
  stepXs: readonly number[],
  xOf: (t: number) => number,
  toT: (x: number) => number,
): LineSegment[] {
  const splits: LineSegment[] = [];
  for (const x of stepXs) {
    const byY = new Map<number, AtLine>();
    for (const row of rows) {
      const here = meet(model, row, x, xOf, toT);
      const seen = byY.get(row.y) ?? { ends: false, begins: false, crosses: false };
      byY.set(row.y, {
        ends: seen.ends || here.ends,
        begins: seen.begins || here.begins,
        crosses: seen.crosses || here.crosses,
      });
    }
    for (const [y, at] of byY)
      if (at.ends && at.begins && !at.crosses) {
        // the whole pixels the line is drawn over: a line between pixels is smudged over both, and a gap as smudged
        // left the bars joined by a paler blue
        const [x0, x1] = [Math.floor(x), Math.ceil(x + 1)];
        splits.push({ role: 'split', x: x0, w: x1 - x0, y0: y, y1: y + ROW_HEIGHT - 1 });
      }
  }
  return splits;
}
