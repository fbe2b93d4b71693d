// Which bars of one depth of a compile-phase row are labelled, in which form and where (compilePhases.ts measures and
// draws them). Labels go to bars by what they cost, the longest first, then by room; and the bars labelled are chosen
// on a ladder of widths fixed for every panel, each keeping the labels of the narrower ones, so a wider panel only
// adds labels, never swaps one for another (review 11K K1 / 11J J2: "trace bytecode 30.1 ms" named at 1360 px, the
// 209 ms guards bar beside it at 560); a depth's costliest bar before any other (review 12N N1). Pure: the bars as
// shares of the track, the labels' lengths in px.

/** A bar of one depth of a compile's row. */
export interface LaneBar {
  /** where it is drawn, as shares of the track's width (its rect's x, and x + width) */
  from: number;
  to: number;
  /** what it cost and when it began, in ms: the order its label is given room in, and the bars it may lie past */
  ms: number;
  startMs: number;
  /** its label's forms' lengths in px, longest first, each with its time: in its bar or beside it */
  lengths: readonly number[];
  /** its shortest name's length alone, without its time: a form only in its bar, which says what the bar is where
   *  no form with its time has room (review 12N N1: TinyTransformer's 0.5 s trace unnamed at every width); its
   *  form's index is lengths.length */
  nameOnly?: number;
}

/** A label placed: its form (an index into its bar's lengths, or lengths.length: its name alone), its start in px,
 *  and whether it lies in its bar. */
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

/** A bar to label, in its form `form`, kept out of the rooms a costlier bar with no label could have. */
interface ToLabel {
  bar: LaneBar;
  form: number;
  barred: ReadonlySet<number>;
}

/** A form's length in px, and whether it may lie only in its bar (its name alone). */
const formLength = (bar: LaneBar, form: number): number =>
  form < bar.lengths.length ? bar.lengths[form]! : (bar.nameOnly ?? Infinity);
const onlyInside = (bar: LaneBar, form: number): boolean => form >= bar.lengths.length;
/** A bar's forms, the name alone last where it has one. */
const formCount = (bar: LaneBar): number => bar.lengths.length + (bar.nameOnly === undefined ? 0 : 1);

/** What costs more: the order bars are given room in. */
const byCost = (a: LaneBar, b: LaneBar): number => b.ms - a.ms || a.startMs - b.startMs;

/** One depth of a row as its times place it, the same at every width (worked out once per lane, not once per width
 *  of the ladder: the code read's item 8): its bars left to right, its costliest, and the bars each may lie past. */
class LaneOrder {
  readonly bars: readonly LaneBar[];
  readonly costliest: LaneBar | undefined;
  private readonly index: Map<LaneBar, number>;
  /** per bar, the bars next to it its label may lie past, before it and after it */
  private readonly runs: Map<LaneBar, { before: LaneBar[]; after: LaneBar[] }>;

  constructor(bars: readonly LaneBar[]) {
    // left to right: the order the labels keep (review 10H H2: labels that read the phases backwards)
    this.bars = [...bars].sort((a, b) => a.from - b.from || a.to - b.to);
    this.index = new Map(this.bars.map((b, k) => [b, k]));
    this.costliest = [...bars].sort(byCost)[0];
    const byStart = [...this.bars].sort((a, b) => a.startMs - b.startMs);
    this.runs = new Map(
      byStart.map((bar, k) => [bar, { before: this.run(byStart, k, -1), after: this.run(byStart, k, 1) }]),
    );
  }

  /** The k-th bar's place left to right. */
  at(bar: LaneBar): number {
    return this.index.get(bar)!;
  }

  /** The bars next to the k-th of `byStart` that its label may lie past, on `side` (-1 before it, 1 after it): all
   *  within twice its time of it, in ms, so the same bars at every width; slivers beside it, each at most half its
   *  cost (a 209 ms guards bar's label left of the two slivers of trace before it, review 11K K1), or for the lane's
   *  costliest any cheaper bar, so that it is named wherever any bar is (review 12N N1: 57.3 ms of guards after
   *  43.4 ms of trace at the axis's end, unnamed at every width, or the trace named beside it). */
  private run(byStart: readonly LaneBar[], k: number, side: -1 | 1): LaneBar[] {
    const bar = byStart[k]!;
    const most = bar === this.costliest ? bar.ms : bar.ms / 2;
    const run: LaneBar[] = [];
    for (let j = k + side; j >= 0 && j < byStart.length; j += side) {
      const next = byStart[j]!;
      const reach = side < 0 ? bar.startMs - next.startMs : next.startMs + next.ms - (bar.startMs + bar.ms);
      if (next.ms > most || reach > 2 * bar.ms) break;
      run.push(next);
    }
    return run;
  }

  /** The rooms (Candidate's) a label of `bar` may lie in, at every width: beside it, and past its runs. */
  rooms(bar: LaneBar): number[] {
    const k = this.at(bar);
    const { before, after } = this.runs.get(bar)!;
    return [k, k + 1, ...after.map((b) => this.at(b) + 1), ...before.map((b) => this.at(b))];
  }

  /** The farthest bar of `bar`'s run on `side` (-1: the leftmost before it, 1: the rightmost after it), or null. */
  farthest(bar: LaneBar, side: -1 | 1): LaneBar | null {
    const { before, after } = this.runs.get(bar)!;
    return side < 0
      ? before.reduce<LaneBar | null>((a, b) => (a && a.from <= b.from ? a : b), null)
      : after.reduce<LaneBar | null>((a, b) => (a && a.to >= b.to ? a : b), null);
  }
}

/** One depth of a row at a track width: what is drawn there, in px. */
class Lane {
  private readonly markers: Span[];
  constructor(
    readonly order: LaneOrder,
    private readonly markerShares: readonly number[],
    readonly width: number,
  ) {
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
      this.order.bars.every((b) => b === own || apart(bars)([b.from * this.width, b.to * this.width])) &&
      this.markers.every(apart([from, to]))
    );
  }

  /** What a label left of `bar` may end at: its start, or the left of a diamond between it and the bar before it
   *  (a label left of a diamond, never under it: review 5A G7); each with where a bar may begin right of the label
   *  (the diamond's centre: a bar under its left half shows left of it at a wider panel). */
  private startsOf(bar: LaneBar): { edge: number; bars: number }[] {
    const before = Math.max(0, ...this.order.bars.filter((b) => b.to <= bar.from).map((b) => b.to));
    const diamonds = this.markerShares.filter((m) => m >= before && m < bar.to);
    return [
      { edge: bar.from * this.width, bars: bar.from * this.width },
      ...diamonds.map((m) => ({ edge: m * this.width - MARKER_HALF, bars: m * this.width })),
    ];
  }

  /** What a label right of `bar` may begin after, likewise: its end, or the right of a diamond before the next bar. */
  private endsOf(bar: LaneBar): { edge: number; bars: number }[] {
    const after = Math.min(1, ...this.order.bars.filter((b) => b.from >= bar.to).map((b) => b.from));
    const diamonds = this.markerShares.filter((m) => m <= after && m > bar.from);
    return [
      { edge: bar.to * this.width, bars: bar.to * this.width },
      ...diamonds.map((m) => ({ edge: m * this.width + MARKER_HALF, bars: m * this.width })),
    ];
  }

  /** Where `bar`'s label in form `form` may go, most wanted first: in its bar (after a diamond at its start), right
   *  of it, left of it, then past the bars beside it it may lie past; none in the rooms `barred`. Its name alone: in
   *  its bar only. */
  candidates(bar: LaneBar, form: number, barred: ReadonlySet<number>): Candidate[] {
    const length = formLength(bar, form);
    const k = this.order.at(bar);
    const [x, end] = [bar.from * this.width, bar.to * this.width];
    const start = this.markers
      .filter(([a, b]) => a < x + PAD + length && b > x)
      .reduce((from, [, b]) => Math.max(from, b + 1), x + PAD);
    const inside = start + length + PAD <= end ? [{ at: start, end: start + length, inside: true, room: null }] : [];
    if (onlyInside(bar, form)) return inside;
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
    const last = this.order.farthest(bar, 1);
    const first = this.order.farthest(bar, -1);
    const all = [
      ...inside,
      ...this.endsOf(bar).map(right(k + 1)),
      ...this.startsOf(bar).map(left(k)),
      ...(last ? this.endsOf(last).map(right(this.order.at(last) + 1)) : []),
      ...(first ? this.startsOf(first).map(left(this.order.at(first))) : []),
    ];
    return all.filter((c) => c !== null);
  }

  /** Whether the bars `labelled` (left to right, from the k-th on), each in its form, can all be labelled after
   *  `frontier`, their labels in their bars' order: each the one ending first that fits, which leaves the most room. */
  fits(labelled: readonly ToLabel[], frontier = -Infinity, k = 0): boolean {
    for (let at = frontier, i = k; i < labelled.length; i++) {
      const { bar, form, barred } = labelled[i]!;
      const ends = this.candidates(bar, form, barred)
        .filter((c) => c.at >= at + CLEAR)
        .map((c) => c.end);
      if (!ends.length) return false;
      at = Math.min(...ends);
    }
    return true;
  }
}

/** The bars of `order` to label (`forms`: each one's form), left to right, each barred from the rooms of the costlier
 *  bars left without a label: a cheaper bar never takes the room a costlier one is named in at a wider panel
 *  (review 11K K1: "trace bytecode 30.1 ms" where guards' 209 ms went unnamed). */
function inOrder(order: LaneOrder, forms: ReadonlyMap<LaneBar, number>): ToLabel[] {
  const unlabelled = order.bars.filter((b) => !forms.has(b));
  return order.bars
    .filter((b) => forms.has(b))
    .map((bar) => ({
      bar,
      form: forms.get(bar)!,
      barred: new Set(unlabelled.filter((b) => byCost(b, bar) < 0).flatMap((b) => order.rooms(b))),
    }));
}

/** Which bars are labelled at track width `width`, each in its shortest form that fits (its name alone, in its bar,
 *  where none with its time does): by cost, then room, at each width of the ladder up to it, each keeping those
 *  labelled at the one before (what fits at a width fits at every wider one); the lane's costliest first, and no
 *  other before it (review 12N N1: a step's 25.6 ms trace named at 560 px beside its 38.2 ms guards, unnamed). */
function labelledBars(order: LaneOrder, markers: readonly number[], width: number): Map<LaneBar, number> {
  const costliest = [...order.bars].sort(byCost);
  const shortest = new Map<LaneBar, number>();
  for (let ladder = LADDER_FROM; ladder <= width && shortest.size < costliest.length; ladder *= LADDER_STEP) {
    const lane = new Lane(order, markers, ladder);
    for (const bar of costliest) {
      if (shortest.has(bar)) continue;
      const form = [bar.lengths.length - 1, bar.lengths.length].find((f) => {
        if (f < 0 || f >= formCount(bar)) return false;
        shortest.set(bar, f);
        return lane.fits(inOrder(order, shortest));
      });
      if (form !== undefined) continue;
      shortest.delete(bar);
      if (bar === order.costliest) break;
    }
  }
  return shortest;
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
  const order = new LaneOrder(bars);
  const lane = new Lane(order, markers, width);
  const forms = labelledBars(order, markers, width);
  const costliest = [...forms.keys()].sort(byCost);
  // what fitted at the ladder's width fits at this wider one; a rounding that says otherwise drops the cheapest
  while (forms.size && !lane.fits(inOrder(order, forms))) forms.delete(costliest.pop()!);
  const most = Math.max(0, ...bars.map(formCount));
  for (let form = 0; form < most; form++)
    for (const bar of costliest) {
      const was = forms.get(bar)!;
      if (form >= was) continue;
      forms.set(bar, form);
      if (!lane.fits(inOrder(order, forms))) forms.set(bar, was);
    }
  const labelled = inOrder(order, forms);
  const places = new Map<LaneBar, LabelPlace>();
  let frontier = -Infinity;
  labelled.forEach(({ bar, form, barred }, k) => {
    const place = lane
      .candidates(bar, form, barred)
      .find((c) => c.at >= frontier + CLEAR && lane.fits(labelled, c.end, k + 1));
    if (!place) return; // never: `labelled` fits, so its first bar has a place that leaves the rest theirs
    places.set(bar, { form, at: place.at, inside: place.inside });
    frontier = place.end;
  });
  return places;
}
