// A pane zoomed past its work: where the view holds none of a pane's ops though its drawn span has some, its note says
// where they are (review 18Y Y3: after a kernel click, in situ eager's pane showed only "15.1 µs unrecorded" across
// its width, its call's ops right of the window and nothing saying so, an empty pane read as eager doing nothing).
// Found per level of its tracks by binary search (a level's slices are start-sorted and do not overlap), each frame.
import { formatUs } from '../extension/present/numbers.ts';
import { SliceKind, type TraceModel } from '../extension/shared/trace/model.ts';
import { firstVisible, lowerBoundStart, TrackRows, type TrackRow } from './timelineRows.ts';

/** Where a pane's ops lie when none is in view, µs of its model's time: the last one's end before the view and the
 *  first one's start after it, each null where there is none in the drawn span. */
export interface OpsOffView {
  endsAtUs: number | null;
  beginsAtUs: number | null;
}

/** A slice the pane shows as work: not its step's own slice, nor the profiler's span around it all. */
const isOp = (model: TraceModel, i: number): boolean =>
  model.kind[i] !== SliceKind.Step && model.kind[i] !== SliceKind.Other;

/**
 * Where the ops of `span` (the pane's drawn time: its shown step's, or all) lie when none of them meets the view
 * [fromUs, toUs], each as drawn, cut to the span; null where one does, or where the span holds none. `rows`: every
 * level of the model's tracks.
 */
export function opsOffView(
  model: TraceModel,
  rows: readonly TrackRow[],
  [fromUs, toUs]: readonly [number, number],
  [spanFrom, spanTo]: readonly [number, number],
): OpsOffView | null {
  let endsAtUs: number | null = null;
  let beginsAtUs: number | null = null;
  const begin = (i: number): number => Math.max(model.start[i]!, spanFrom);
  const end = (i: number): number => Math.min(model.start[i]! + model.dur[i]!, spanTo);
  for (const row of rows) {
    // the row's slices in the span, [first, last): their cut ends sorted as their starts are
    const first = firstVisible(model, row, spanFrom);
    const last = lowerBoundStart(model, first, row.end, spanTo);
    let i = fromUs > spanTo ? last : Math.max(first, firstVisible(model, row, fromUs));
    for (; i < last && begin(i) <= toUs; i++) if (isOp(model, i)) return null;
    for (let j = i; j < last; j++)
      if (isOp(model, j)) {
        beginsAtUs = Math.min(beginsAtUs ?? Infinity, begin(j));
        break;
      }
    for (let j = Math.min(i, last) - 1; j >= first; j--)
      if (isOp(model, j)) {
        endsAtUs = Math.max(endsAtUs ?? -Infinity, end(j));
        break;
      }
  }
  return endsAtUs === null && beginsAtUs === null ? null : { endsAtUs, beginsAtUs };
}

/** Every level of a model's tracks, whatever is in view, made once per model. */
const levelsOf = new WeakMap<TraceModel, readonly TrackRow[]>();
export const everyLevel = (model: TraceModel): readonly TrackRow[] => {
  let rows = levelsOf.get(model);
  if (!rows) levelsOf.set(model, (rows = new TrackRows(model, 0).rows));
  return rows;
};

/**
 * The pane note's words for its ops off the view, their times as its axis says them (µs since its `offset`): "none
 * of its ops in view: they begin at 112 µs →", "… ← they end at 88.0 µs", "… ← until 88.0 µs, again from 112 µs →".
 */
export function opsOffViewNote(off: OpsOffView, offset: number): { text: string; tooltip: string } {
  const at = (us: number): string => formatUs(us - offset);
  const { endsAtUs, beginsAtUs } = off;
  const where =
    endsAtUs === null
      ? `they begin at ${at(beginsAtUs!)} →`
      : beginsAtUs === null
        ? `← they end at ${at(endsAtUs)}`
        : `← until ${at(endsAtUs)}, again from ${at(beginsAtUs)} →`;
  return {
    text: `none of its ops in view: ${where}`,
    tooltip:
      "The view is zoomed past this pane's work: its ops lie outside the window, at the times said on its axis. Fit to step (F) or Fit all (0) shows them.",
  };
}
