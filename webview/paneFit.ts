// A multi-region report's panes, each region's fitted to its own steps (review 9C C4: every pane on the longest
// region's axis left `step`'s 90 µs panes blank slivers beside TinyTransformer's 250 ms). The panes share one zoom;
// a region's panes read it stretched by their own factor (1: as is), so that Fit to step puts each region's aligned
// step across the width and each pane's axis says its own times. Fit all, and a finding shown, set every factor to 1.
import type { ScaleLinear } from 'd3';
import type { Report } from '../extension/shared/report.ts';
import { inSituTraces, regionTraces } from '../extension/present/regionTraces.ts';

/** Per pane label, the id of the report region its trace is of (a replay's or its in-situ window's), else null. */
export function paneRegions(report: Report | null, labels: readonly string[]): (string | null)[] {
  if (!report) return labels.map(() => null);
  const regionOf = new Map<string, string>();
  for (const t of regionTraces(report)) regionOf.set(t.label, t.region.id);
  for (const t of inSituTraces(report)) if (t.region) regionOf.set(t.label, t.region.id);
  return labels.map((label) => regionOf.get(label) ?? null);
}

/**
 * Per pane, the factor its times are stretched by: where the panes are of two regions or more, each region's longest
 * aligned step (`lengths`, µs) across the longest of them all; a pane of no region, or one region alone: 1.
 */
export function regionStretches(lengths: readonly number[], regions: readonly (string | null)[]): number[] {
  const longest = Math.max(0, ...lengths);
  const regionLongest = new Map<string, number>();
  lengths.forEach((length, p) => {
    const region = regions[p];
    if (region != null) regionLongest.set(region, Math.max(regionLongest.get(region) ?? 0, length));
  });
  if (regionLongest.size < 2) return lengths.map(() => 1);
  return regions.map((region) => {
    const own = region == null ? 0 : (regionLongest.get(region) ?? 0);
    return own > 0 && longest > 0 ? longest / own : 1;
  });
}

/**
 * Per pane of a step view, the pane whose step sets the scale it is drawn on where that is another's: the longest
 * step among the panes read at its stretch (its region's: regionStretches), else null (its own step sets it, or it
 * has none). `lengths`: each pane's step, µs (0: none). Fit to step left eager's shorter step in the left fifth of
 * its pane with nothing saying the axis was the compiled pane's (review 17Z Z7).
 */
export function scaleSetters(lengths: readonly number[], stretches: readonly number[]): (number | null)[] {
  return lengths.map((own, p) => {
    let setter = p;
    lengths.forEach((length, q) => {
      if (stretches[q] === stretches[p] && length > lengths[setter]!) setter = q;
    });
    return setter === p || own <= 0 ? null : setter;
  });
}

/** The panes' shared scale as a pane stretched by `stretch` reads it: its own times on its axis. */
export function paneScale(current: ScaleLinear<number, number>, stretch: number): ScaleLinear<number, number> {
  if (stretch === 1) return current;
  const [from, to] = current.domain() as [number, number];
  return current.copy().domain([from / stretch, to / stretch]);
}

/** The share of a step view's window left past its longest step: the line where that step ends is drawn in the
 *  canvas, a few px from its edge, not on it (review 10-12 J5: rank 0's step 2 ran off the right edge, no end line). */
const STEP_MARGIN = 0.02;

/** The least margin past a step view's end line, px of the plot: 2% of a narrow pane's is a few px, the last rank's
 *  end line at the pane's edge while rank 0's, which ends sooner, had 40 (review 14 T8). */
const STEP_MARGIN_PX = 24;

/** A step view's window's end, pane time (µs since the aligned step): where the longest of the panes' steps ends
 *  (`longest`, µs), with a margin, at least STEP_MARGIN_PX of the plot `plotPx` wide (a plot of unknown width: its
 *  share alone); 1 where none has length. */
export const stepWindowEnd = (longest: number, plotPx = Infinity): number =>
  Math.max(longest * (1 + STEP_MARGIN), longest / (1 - Math.min(0.5, STEP_MARGIN_PX / Math.max(1, plotPx)))) || 1;

/** Whether the view `[from, to]` (the panes' shared time) is a step view's fit (stepWindowEnd): from 0 to past the
 *  longest step's end (`longest`, µs) by no more than the widest margin a fit leaves, at any width (a narrowest plot's,
 *  100 px). Zoomed away from it (a kernel click, a finding's focus, the wheel), no pane's step sets the scale (review
 *  19Y Y6: "on the scale of the pane above" beside a focus note saying eager's axis reads default's time). */
export function fitsStep([from, to]: readonly [number, number], longest: number): boolean {
  const span = to - from;
  return (
    longest > 0 && Math.abs(from) <= span * 1e-6 && to >= longest && to <= stepWindowEnd(longest, 100) * (1 + 1e-6)
  );
}

/** The whole traces' window, pane time: [from, to] with a step view's margin past its end, where the last step's
 *  end line is drawn (review 13 Q8: the all views' last slices ran into the pane's right edge, no line closing
 *  their step). */
export const allWindow = (from: number, to: number): [number, number] => [from, to + (to - from) * STEP_MARGIN];
