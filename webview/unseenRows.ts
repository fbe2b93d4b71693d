// A track whose slices in view are all too short for a pixel together draws nothing there: its row read as lost data
// beside the step views' "gloo thread 1028: nothing here" (review 17Z Z6: rank 0's and rank 1's gloo threads empty
// across the whole 2.2 s view, their all_reduces ≤ 765 µs). Such a row says so in its own lane, in the muted ink.
import type { TraceModel } from '../extension/shared/trace/model.ts';
import type { Paint, TextBox } from './frameLayout.ts';
import { bandsAround, type MarkBand } from './overlays.ts';
import { firstVisible, ROW_HEIGHT, type Row } from './timelineRows.ts';
import { placeText, type Measure } from './timelineText.ts';

/** the words of a row whose slices in view are too short to see */
export const TOO_SHORT_HERE = 'too short to see here';
/** the room of those words from the lane's left edge */
const UNSEEN_INSET = 3;

/** Whether the slices of a track's outer row (depth 0) in [tMin, tMax] span less than a pixel together at `toX`'s
 *  zoom, and there is one: scanned until they span one. */
function tooShortToSee(model: TraceModel, row: Row, tMin: number, tMax: number, toX: (t: number) => number): boolean {
  let px = 0;
  let any = false;
  for (let i = firstVisible(model, row, tMin); i < row.end && model.start[i]! <= tMax; i++) {
    const from = Math.max(model.start[i]!, tMin);
    const to = Math.min(model.start[i]! + model.dur[i]!, tMax);
    if (to < from) continue;
    any = true;
    px += toX(to) - toX(from);
    if (px >= 1) return false;
  }
  return any;
}

/** Per drawn track whose slices in view span less than a pixel together, TOO_SHORT_HERE in its first row, from the
 *  lane's left edge (`left`), on the page (`page`) and the marks' bands that lie around it, which is what is painted
 *  again over a band that crosses it (overlays.clearLabelsOfBands: review 18Z Z3, a graph break's band through its
 *  "too"). */
export function unseenRowTexts(
  model: TraceModel,
  rows: readonly Row[],
  view: { tMin: number; tMax: number; left: number; toX: (t: number) => number },
  m: Measure,
  ink: Paint,
  page: Paint,
  bands: readonly MarkBand[] = [],
): TextBox[] {
  const x = view.left + UNSEEN_INSET;
  const under = [page, ...bandsAround(bands, x, x + m.width(TOO_SHORT_HERE)).map((b) => b.paint)];
  const texts: TextBox[] = [];
  const tracks = new Set<number>();
  for (const row of rows) {
    if (row.depth !== 0 || tracks.has(row.track)) continue;
    tracks.add(row.track);
    // (a deeper slice lies inside an outer one: the outer row's span is the track's)
    if (!tooShortToSee(model, row, view.tMin, view.tMax, view.toX)) continue;
    texts.push(placeText(m, 'unseen', TOO_SHORT_HERE, x, row.y + ROW_HEIGHT / 2, ink, under));
  }
  return texts;
}
