// A step view draws nothing past its step's end line, so a slice that runs on past it is cut there: each row's such
// slice is marked "→" just right of the line, "continues past the step's end" (review 16 Z1: rank 1's all_reduce,
// last to arrive, ended on step 2's end line in the step view with nothing marking it cut, and ran 1.5 ms on into
// step 3 in the whole trace's: two lengths for the one bar the view exists to explain).
import type { TraceModel } from '../extension/shared/trace/model.ts';
import type { Paint, TextBox } from './frameLayout.ts';
import { lowerBoundStart, ROW_HEIGHT, type Row } from './timelineRows.ts';
import { placeText, type Measure } from './timelineText.ts';

/** Whether a slice ending at x `endX` runs on past a step's line at `lineX`: by a pixel or more at the zoom drawn.
 *  One rule for the step view's cut mark and the whole trace's line drawn over a bar (stepLineSplits.ts), so the two
 *  views agree on which bars run into the next step (review 17Z Z4). */
export const runsPast = (endX: number, lineX: number): boolean => endX - lineX >= 1;

/** the mark of a slice cut at its step's end */
export const CONTINUES = '→';
/** its room from the end line: clear of it (a line is cut around a text within 1 px of it) */
const CUT_INSET = 3;

/**
 * Each row's slice that began in the step (from `startUs`, before its end `endUs`) and runs on past it by a pixel or
 * more, marked with CONTINUES right of the end line, where that fits before the pane's edge (`width`). A frame that
 * began before the step holds it whole (the module's call, the profiled window): marking it says nothing, and every
 * stack row read "→" (CI shots of 86cefe76, timeline-stack-unfolded).
 */
export function stepCutTexts(
  model: TraceModel,
  rows: readonly Row[],
  endUs: number,
  xOf: (t: number) => number,
  width: number,
  m: Measure,
  ink: Paint,
  under: Paint[],
  startUs = -Infinity,
): TextBox[] {
  const endX = xOf(endUs);
  const at = endX + CUT_INSET;
  if (at + m.width(CONTINUES) > width) return [];
  // (a folded stack's levels share one row drawn: one mark there)
  const cutAt = new Set<number>();
  for (const row of rows) {
    // a row's slices do not overlap: only the last one begun before the end can run past it
    const last = lowerBoundStart(model, row.first, row.end, endUs) - 1;
    if (
      last >= row.first &&
      model.start[last]! >= startUs &&
      runsPast(xOf(model.start[last]! + model.dur[last]!), endX)
    )
      cutAt.add(row.y);
  }
  return [...cutAt].map((y) => placeText(m, 'cut', CONTINUES, at, y + ROW_HEIGHT / 2, ink, under));
}
