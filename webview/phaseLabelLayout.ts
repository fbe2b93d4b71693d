// Which bars of one depth of a compile-phase row are labelled, in which form and where (compilePhases.ts measures and
// draws them). Labels go to bars by what they cost, the longest first, then by room; and the bars labelled are chosen
// on a ladder of widths fixed for every panel, each keeping the labels of the narrower ones, so a wider panel only
// adds labels, never swaps one for another (review 11K K1 / 11J J2: "trace bytecode 30.1 ms" named at 1360 px, the
// 209 ms guards bar beside it at 560). Pure: the bars as shares of the track, the labels' lengths in px.

/** A bar of one depth of a compile's row. */
export interface LaneBar {
  /** where it is drawn, as shares of the track's width (its rect's x, and x + width) */
  from: number;
  to: number;
  /** what it cost and when it began, in ms: the order its label is given room in, and the bars it may lie past */
  ms: number;
  startMs: number;
  /** its label's forms' lengths in px, longest form first */
  lengths: readonly number[];
}

/** A label placed: its form (an index into its bar's lengths), its start in px, and whether it lies in its bar. */
export interface LabelPlace {
  form: number;
  at: number;
  inside: boolean;
}

/** px between a label and the bar it names, and the least between it and anything else drawn at its depth. */
const PAD = 3;
const CLEAR = 1;
/** A cache marker's diamond reaches this far either side of its phase's start (compilePhases.ts DIAMOND). */
const MARKER_HALF = 5;
const ROUNDING = 1e-6;
/** The track widths, in px, at which the bars labelled are chosen: the same ladder at every panel's width. */
const LADDER_FROM = 16;
const LADDER_STEP = 1.05;

type Span = [number, number];
interface Candidate {
  at: number;
  end: number;
  inside: boolean;
  /** the room between two bars it lies in (k: before the lane's k-th bar from the left), or null: in its bar */
  room: number | null;
}

/** A bar to label, in a form `length` px long, kept out of the rooms a costlier bar with no label could have. */
interface ToLabel {
  bar: LaneBar;
  length: number;
  barred: ReadonlySet<number>;
}

/** One depth of a row at a track width: what is drawn there, in px. */
class Lane {
  readonly bars: readonly LaneBar[];
  private readonly markers: Span[];
  constructor(
    bars: readonly LaneBar[],
    private readonly markerShares: readonly number[],
    readonly width: number,
  ) {
    // left to right: the order the labels keep (review 10H H2: labels that read the phases backwards)
    this.bars = [...bars].sort((a, b) => a.from - b.from || a.to - b.to);
    this.markers = markerShares.map((m) => [m * width - MARKER_HALF, m * width + MARKER_HALF]);
  }

  /** Whether [from, to) is in the track and clear of every marker, and `bars` (a span around it) of every bar but
   *  `own`. */
  private clear(own: LaneBar, [from, to]: Span, bars: Span): boolean {
    if (from < 0 || to > this.width) return false;
    // less a rounding's worth: a room that begins at a bar's own edge is clear of it at every width
    const apart =
      ([from, to]: Span) =>
      ([a, b]: Span): boolean =>
        b <= from - CLEAR + ROUNDING || a >= to + CLEAR - ROUNDING;
    return (
      this.bars.every((b) => b === own || apart(bars)([b.from * this.width, b.to * this.width])) &&
      this.markers.every(apart([from, to]))
    );
  }

  /** What a label left of `bar` may end at: its start, or the left of a diamond between it and the bar before it
   *  (a label left of a diamond, never under it: review 5A G7); each with where a bar may begin right of the label
   *  (the diamond's centre: a bar under its left half shows left of it at a wider panel). */
  private startsOf(bar: LaneBar): { edge: number; bars: number }[] {
    const before = Math.max(0, ...this.bars.filter((b) => b.to <= bar.from).map((b) => b.to));
    const diamonds = this.markerShares.filter((m) => m >= before && m < bar.to);
    return [
      { edge: bar.from * this.width, bars: bar.from * this.width },
      ...diamonds.map((m) => ({ edge: m * this.width - MARKER_HALF, bars: m * this.width })),
    ];
  }

  /** What a label right of `bar` may begin after, likewise: its end, or the right of a diamond before the next bar. */
  private endsOf(bar: LaneBar): { edge: number; bars: number }[] {
    const after = Math.min(1, ...this.bars.filter((b) => b.from >= bar.to).map((b) => b.from));
    const diamonds = this.markerShares.filter((m) => m <= after && m > bar.from);
    return [
      { edge: bar.to * this.width, bars: bar.to * this.width },
      ...diamonds.map((m) => ({ edge: m * this.width + MARKER_HALF, bars: m * this.width })),
    ];
  }

  /** The bars next to `bar` that its label may lie past, slivers beside it: each at most half its cost, and all
   *  within twice its time of it, in ms, so the same bars at every width (a 209 ms guards bar's label left of the two
   *  slivers of trace before it, review 11K K1). `side`: -1 before it, 1 after it. */
  private run(bar: LaneBar, side: -1 | 1): LaneBar[] {
    const byStart = [...this.bars].sort((a, b) => a.startMs - b.startMs);
    const run: LaneBar[] = [];
    for (let k = byStart.indexOf(bar) + side; k >= 0 && k < byStart.length; k += side) {
      const next = byStart[k]!;
      const reach = side < 0 ? bar.startMs - next.startMs : next.startMs + next.ms - (bar.startMs + bar.ms);
      if (next.ms > bar.ms / 2 || reach > 2 * bar.ms) break;
      run.push(next);
    }
    return run;
  }

  /** The rooms (Candidate's) a label of `bar` may lie in, at every width: beside it, and past its runs. */
  rooms(bar: LaneBar): number[] {
    const k = this.bars.indexOf(bar);
    const after = this.run(bar, 1).map((b) => this.bars.indexOf(b) + 1);
    const before = this.run(bar, -1).map((b) => this.bars.indexOf(b));
    return [k, k + 1, ...after, ...before];
  }

  /** Where a label `length` px long may go, most wanted first: in its bar (after a diamond at its start), right of
   *  it, left of it, then past the cheaper bars beside it; none in the rooms `barred`. */
  candidates(bar: LaneBar, length: number, barred: ReadonlySet<number>): Candidate[] {
    const k = this.bars.indexOf(bar);
    const [x, end] = [bar.from * this.width, bar.to * this.width];
    const inside = this.markers
      .filter(([a, b]) => a < x + PAD + length && b > x)
      .reduce((start, [, b]) => Math.max(start, b + 1), x + PAD);
    // beside it, with nothing drawn between the label and the edge it is beside (a thin bar in the gap: review 11K K1)
    const right =
      (room: number) =>
      ({ edge, bars }: { edge: number; bars: number }): Candidate | null =>
        !barred.has(room) && this.clear(bar, [edge + CLEAR, edge + PAD + length], [bars + CLEAR, edge + PAD + length])
          ? { at: edge + PAD, end: edge + PAD + length, inside: false, room }
          : null;
    const left =
      (room: number) =>
      ({ edge, bars }: { edge: number; bars: number }): Candidate | null =>
        !barred.has(room) && this.clear(bar, [edge - PAD - length, edge - CLEAR], [edge - PAD - length, bars - CLEAR])
          ? { at: edge - PAD - length, end: edge - PAD, inside: false, room }
          : null;
    const last = this.run(bar, 1).reduce<LaneBar | null>((a, b) => (a && a.to >= b.to ? a : b), null);
    const first = this.run(bar, -1).reduce<LaneBar | null>((a, b) => (a && a.from <= b.from ? a : b), null);
    const all = [
      ...(inside + length + PAD <= end ? [{ at: inside, end: inside + length, inside: true, room: null }] : []),
      ...this.endsOf(bar).map(right(k + 1)),
      ...this.startsOf(bar).map(left(k)),
      ...(last ? this.endsOf(last).map(right(this.bars.indexOf(last) + 1)) : []),
      ...(first ? this.startsOf(first).map(left(this.bars.indexOf(first))) : []),
    ];
    return all.filter((c) => c !== null);
  }

  /** Whether the bars `labelled` (left to right, from the k-th on), each in its form, can all be labelled after
   *  `frontier`, their labels in their bars' order: each the one ending first that fits, which leaves the most room. */
  fits(labelled: readonly ToLabel[], frontier = -Infinity, k = 0): boolean {
    for (let at = frontier, i = k; i < labelled.length; i++) {
      const { bar, length, barred } = labelled[i]!;
      const ends = this.candidates(bar, length, barred)
        .filter((c) => c.at >= at + CLEAR)
        .map((c) => c.end);
      if (!ends.length) return false;
      at = Math.min(...ends);
    }
    return true;
  }
}

/** What costs more: the order bars are given room in. */
const byCost = (a: LaneBar, b: LaneBar): number => b.ms - a.ms || a.startMs - b.startMs;

/** The bars of `lane` to label (`forms`: each one's form), left to right, each barred from the rooms of the costlier
 *  bars left without a label: a cheaper bar never takes the room a costlier one is named in at a wider panel
 *  (review 11K K1: "trace bytecode 30.1 ms" where guards' 209 ms went unnamed). */
function inOrder(lane: Lane, forms: Map<LaneBar, number>): ToLabel[] {
  return lane.bars
    .filter((b) => forms.has(b))
    .map((bar) => ({
      bar,
      length: bar.lengths[forms.get(bar)!]!,
      barred: new Set(lane.bars.filter((b) => !forms.has(b) && byCost(b, bar) < 0).flatMap((b) => lane.rooms(b))),
    }));
}

/** Which bars are labelled at track width `width`: by cost, then room, at each width of the ladder up to it, each
 *  keeping those labelled at the one before (what fits at a width fits at every wider one), in their shortest forms. */
function labelledBars(bars: readonly LaneBar[], markers: readonly number[], width: number): Set<LaneBar> {
  const costliest = [...bars].sort(byCost);
  const shortest = new Map<LaneBar, number>();
  for (let ladder = LADDER_FROM; ladder <= width && shortest.size < bars.length; ladder *= LADDER_STEP) {
    const lane = new Lane(bars, markers, ladder);
    for (const bar of costliest) {
      if (shortest.has(bar)) continue;
      shortest.set(bar, bar.lengths.length - 1);
      if (!lane.fits(inOrder(lane, shortest))) shortest.delete(bar);
    }
  }
  return new Set(shortest.keys());
}

/**
 * Each bar's label at track width `width` (px), or none: the bars labelled as labelledBars chose them, each in the
 * longest of its forms that leaves every other one room (the costliest bars' first, and each bar's longest form before
 * any shorter one), placed where most wanted that leaves the rest their room. `markers`: the cache markers at this
 * depth, as shares of the track.
 */
export function placeLabels(
  bars: readonly LaneBar[],
  markers: readonly number[],
  width: number,
): Map<LaneBar, LabelPlace> {
  const lane = new Lane(bars, markers, width);
  const costliest = [...labelledBars(bars, markers, width)].sort(byCost);
  const forms = new Map(costliest.map((bar) => [bar, bar.lengths.length - 1]));
  // what fitted at the ladder's width fits at this wider one; a rounding that says otherwise drops the cheapest
  while (forms.size && !lane.fits(inOrder(lane, forms))) forms.delete(costliest.pop()!);
  const longest = Math.max(0, ...bars.map((b) => b.lengths.length));
  for (let form = 0; form < longest; form++)
    for (const bar of costliest) {
      const was = forms.get(bar)!;
      if (form >= was) continue;
      forms.set(bar, form);
      if (!lane.fits(inOrder(lane, forms))) forms.set(bar, was);
    }
  const order = inOrder(lane, forms);
  const places = new Map<LaneBar, LabelPlace>();
  let frontier = -Infinity;
  order.forEach(({ bar, length, barred }, k) => {
    const place = lane
      .candidates(bar, length, barred)
      .find((c) => c.at >= frontier + CLEAR && lane.fits(order, c.end, k + 1));
    if (!place) return; // never: `order` fits, so its first bar has a place that leaves the rest theirs
    places.set(bar, { form: forms.get(bar)!, at: place.at, inside: place.inside });
    frontier = place.end;
  });
  return places;
}
