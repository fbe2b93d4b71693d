// Which lane of a compile's row a cache lookup's diamond is drawn in at a track width (compilePhases.ts draws it and
// moves it there at each fit). The log puts a lookup in the lane under the phase open at it; the diamond stays there
// where it touches a bar of that lane (the AOT Autograd bar it begins, the load from cache it ends), else it goes up
// onto the bar of the phase it was made in: Inductor's FX graph cache miss comes ~100 ms before Inductor's lowering
// begins (its graph passes, which the log names no phase of), so in the lowering's lane it floated 15 px left of that
// bar, lined up with nothing there (review 18Z Z6). It goes up too where it lies on the start of the bar above, nearer
// that start than any of its own lane's: at a narrow track that miss touched the lowering sliver after it and stayed
// in front of it, read as codegen's miss ("◇ codegen 205 ms", review 19X X2). Pure: px along the track.

/** A cache marker's diamond reaches this far either side of its lookup's time (compilePhases.ts DIAMOND). */
export const MARKER_HALF = 5;
/** px between a diamond and a bar it is taken to touch, or the start of a bar it is taken to mark. */
const TOUCH = 1;

/** A bar's span along the track, in px. */
export type BarSpan = readonly [number, number];

/** Whether a diamond at `at` is drawn in the lane above its own (`lane`: its own lane's bars; `above`: the bars of the
 *  lane over it): where it lies on a bar of the lane above and touches no bar of its own lane, or marks that bar's
 *  start (within TOUCH of it, no bar of its own lane starting as near) and lies on no bar of its own lane (the load
 *  from cache a hit's diamond ends, right before the guards' bar over it). */
export function markerGoesUp(at: number, lane: readonly BarSpan[], above: readonly BarSpan[]): boolean {
  const touches = ([from, to]: BarSpan): boolean => at + MARKER_HALF >= from - TOUCH && at - MARKER_HALF <= to + TOUCH;
  const fromStart = ([from]: BarSpan): number => Math.abs(at - from);
  const nearestOwnStart = Math.min(...lane.map(fromStart));
  const onOwn = lane.some((bar) => touches(bar) && bar[0] <= at);
  const marksStart = !onOwn && above.some((bar) => fromStart(bar) <= TOUCH && fromStart(bar) < nearestOwnStart);
  return marksStart || (!lane.some(touches) && above.some(([from, to]) => at >= from && at <= to));
}
