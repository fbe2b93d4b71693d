// Constructed lanes of compile-phase bars for the label-layout tests (phaseLabelPlaces.test.ts, phaseLabelForms.test.ts):
// a bar on an axis as compilePhases.ts draws it, train_small's Counter row, and the bars a layout labels.
import { type LaneBar } from '../../webview/phaseLabelLane.ts';
import { placeChartLabels, type LabelPlace } from '../../webview/phaseLabelLayout.ts';

/** A bar of `ms` at `startMs` on an axis of `axisMs` drawn over 97 % of the track (compilePhases.ts), at least 0.15 %
 *  wide; its forms `lengths` px long. */
export function bar(
  startMs: number,
  ms: number,
  axisMs: number,
  lengths: number[],
  phase = `phase at ${startMs}`,
): LaneBar {
  const from = (startMs / axisMs) * 0.97;
  return { from, to: from + Math.max(0.0015, (ms / axisMs) * 0.97), ms, startMs, lengths, phase };
}

/** One depth of one row, alone in its chart. */
export const placeLabels = (bars: LaneBar[], markers: number[], width: number): Map<LaneBar, LabelPlace> =>
  placeChartLabels([{ bars, markers }], width);

/** train_small's "Counter: forward · 268 ms": two slivers of trace bytecode, then build guards, at the axis's end. */
export const AXIS = 10913;
export const counter = (): LaneBar[] => [
  bar(9964.8, 30.1, AXIS, [150, 95, 70]),
  bar(9999.5, 8.5, AXIS, [150, 95, 70]),
  bar(10019.8, 209.1, AXIS, [140, 85, 68]),
];

export const labelled = (bars: LaneBar[], width: number, markers: number[] = []): Set<number> =>
  new Set([...placeLabels(bars, markers, width).keys()].map((b) => bars.indexOf(b)));
