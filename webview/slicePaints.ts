// What a slice's label is drawn on: the fills SliceRects lays at the slice's start, in the order it fills them. A
// folded Python stack draws all its levels in one row, so a frame's label there lies on the frames around it too: a
// frame dimmed as the profiler's own work, drawn faint over an opaque frame around it, is that frame's colour, not the
// page's (review 14T T7: its label was chosen for the faint fill, light grey on slice blue at 1.9:1).
import type { TraceModel } from '../extension/shared/trace/model.ts';
import type { Paint } from './frameLayout.ts';
import { lowerBoundStart, type Row } from './timelineRows.ts';

/** The slice of `row` drawn at time t, or -1 (its slices are start-sorted and do not overlap). */
function sliceAt(model: TraceModel, row: Row, t: number): number {
  const next = lowerBoundStart(model, row.first, row.end, t);
  if (next < row.end && model.start[next] === t) return next;
  const before = next - 1;
  return before >= row.first && model.start[before]! + model.dur[before]! > t ? before : -1;
}

/**
 * The paints under slice i's label, bottom first, the page left out: its own fill (`paintOf`), and in a folded row
 * those of the row's other frames where the label begins (`at`: the slice's start, or the view's left edge where the
 * slice began before it), outer to inner, the opaque ones before the dimmed ones (SliceRects fills the dimmed after
 * all the others; an inner frame begun there is drawn over the label's own).
 */
export function slicePaints(
  model: TraceModel,
  rows: readonly Row[],
  i: number,
  paintOf: (slice: number) => Paint,
  at: number = model.start[i]!,
): Paint[] {
  const [track, depth] = [model.track[i]!, model.depth[i]!];
  const own = rows.find((r) => r.track === track && r.depth === depth && r.first <= i && i < r.end);
  if (!own?.folded) return [paintOf(i)];
  const others = rows
    .filter((r) => r.folded && r.track === track && r.depth !== depth)
    .map((r) => ({ depth: r.depth, j: sliceAt(model, r, at) }))
    .filter((o) => o.j >= 0);
  const stack = [...others, { depth, j: i }].sort((a, b) => a.depth - b.depth);
  const paints = stack.map((o) => paintOf(o.j));
  return [...paints.filter((p) => p.alpha === 1), ...paints.filter((p) => p.alpha !== 1)];
}
