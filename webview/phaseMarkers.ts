// Which lane of a compile's row a cache lookup's diamond is drawn in at a track width (compilePhases.ts draws it and
// moves it there at each fit). The log puts a lookup in the lane under the phase open at it; the diamond stays there
// where it touches a bar of that lane (the AOT Autograd bar it begins, the load from cache it ends), else it goes up
// onto the bar of the phase it was made in: Inductor's FX graph cache miss comes ~100 ms before Inductor's lowering
// begins (its graph passes, which the log names no phase of), so in the lowering's lane it floated 15 px left of that
// bar, lined up with nothing there (review 18Z Z6). Pure: px along the track.

/** A cache marker's diamond reaches this far either side of its lookup's time (compilePhases.ts DIAMOND). */
export const MARKER_HALF = 5;
/** px between a diamond and a bar it is taken to touch. */
const TOUCH = 1;

/** A bar's span along the track, in px. */
export type BarSpan = readonly [number, number];

/** Whether a diamond at `at` is drawn in the lane above its own (`lane`: its own lane's bars; `above`: the bars of the
 *  lane over it): where it touches no bar of its own lane and lies on one of the lane above. */
export function markerGoesUp(at: number, lane: readonly BarSpan[], above: readonly BarSpan[]): boolean {
  const touches = ([from, to]: BarSpan): boolean => at + MARKER_HALF >= from - TOUCH && at - MARKER_HALF <= to + TOUCH;
  return !lane.some(touches) && above.some(([from, to]) => at >= from && at <= to);
}
