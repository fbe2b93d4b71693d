// Where a compile-phase bar's label may go at a track width (phaseLabelChoice.ts chooses the bars labelled,
// phaseLabelLayout.ts places them): the bars the eye takes for one (a bar and the slivers against it), a label in its
// bar or directly beside it with no other bar nearer (review 13 O1), clear of cache diamonds, and whether a depth's
// labels all fit in their bars' order. Pure: the bars as shares of the track, labels' lengths in px.

import { byCost } from './phaseLabelParts.ts';
import { MARKER_HALF } from './phaseMarkers.ts';

/** A bar's label forms' lengths in px: longest first, each with its time (in its bar or beside it), and its shortest
 *  name alone, without its time (only in its bar, where no form with its time has room: review 12N N1); that form's
 *  index is lengths.length. */
export interface FormLengths {
  lengths: readonly number[];
  nameOnly?: number;
  /** whether each form (its name alone last) says the compiler part its phase is of ("Dynamo: trace bytecode …"
   *  does, "trace" not), null where it is that part's name alone ("Dynamo"); none where its phase has no part */
  partSaid?: readonly (boolean | null)[];
}

/** A bar of one depth of a compile's row. */
export interface LaneBar extends FormLengths {
  /** where it is drawn, as shares of the track's width (its rect's x, and x + width) */
  from: number;
  to: number;
  /** what it cost and when it began, in ms: the order its label is given room in */
  ms: number;
  startMs: number;
  /** the phase it is a bar of: a chart says every bar of a phase in one form */
  phase: string;
  /** its colour (compilePhases.ts phaseClass): slivers of two colours against each other are one mark to the eye, of
   *  the colour drawn last, which a label beside them would name */
  colour?: string;
  /** where its forms count it among its compile's bars of its name ("(backward, 1 of 2)"): its forms without the count
   *  ("(backward)"), its label where one of the bars it is counted among (the chart's bars of the same `among`) has
   *  none (review 13 P6: "(1 of 2)", its 2nd unlabelled) */
  uncounted?: FormLengths & { among: string };
}

/** One depth of a compile's row: its bars, and its cache markers (shares of the track). */
export interface ChartLane {
  bars: readonly LaneBar[];
  markers: readonly number[];
  /** the compile's row it is a depth of (lanes without one: each a row of its own) */
  row?: number;
}

/** px between a label and the bar it names (a bar of its depth no nearer to it than PAD more: review 13 O1), and the
 *  least between it and a cache marker. */
const PAD = 3;
export const CLEAR = 1;
/** px more between a label and a diamond that lies between it and its bar: "lowering 51.8 ms ◇" against the diamond
 *  read as the diamond's name (review 16Z Z8) */
const MARKER_GAP = 6;
const ROUNDING = 1e-6;
/** The least width a bar is drawn at, as a share of the track (compilePhases.ts draws it). */
export const LEAST_BAR = 0.0015;
/** A bar drawn narrower than this (px) is a sliver: to the eye, the edge of a bar it touches (within TOUCH px), whose
 *  label beside them both is that bar's (review 14R R1: a step's guards, a sub-px trace against them, bare). */
const SLIVER = 2;
const TOUCH = 1;
/** The track width (px) past which the bars the eye takes for one are those it takes at this width: slivers that
 *  grow wider than SLIVER only past it stay a bar's edge, so a label beside them keeps its place at any wider panel.
 *  A 1500-px panel's track, just past a 1400-px one's (816 px): at 1200, slivers that grew to 2 px between took
 *  from a bar its only place, beside them, so it was bare at 1400 px too (review 16Y Y5: Counter's `== 2` guards). */
const CLUSTERS_UPTO = 900;

type Span = [number, number];
/** Bars of a depth the eye takes for one: a bar and the slivers touching it (never two bars wider than slivers), or
 *  slivers alone (`wide` false). */
interface Cluster {
  span: Span;
  bars: LaneBar[];
  wide: boolean;
}
interface Candidate {
  at: number;
  end: number;
  inside: boolean;
}

/** A bar to label, in its form `form`; only in its bar where a costlier bar of its depth has no label (review 13 O3). */
interface ToLabel {
  bar: LaneBar;
  form: number;
  insideOnly: boolean;
}

/** A bar's forms as shown: without their count where `uncounted` holds it. */
const formsOf = (bar: LaneBar, uncounted: ReadonlySet<LaneBar>): FormLengths =>
  uncounted.has(bar) && bar.uncounted ? bar.uncounted : bar;
/** A form's length in px, and whether it may lie only in its bar (its name alone). */
const formLength = (forms: FormLengths, form: number): number =>
  form < forms.lengths.length ? forms.lengths[form]! : (forms.nameOnly ?? Infinity);
export const onlyInside = (bar: LaneBar, form: number): boolean => form >= bar.lengths.length;
/** The gap in px between two spans (0 where they overlap). */
const gap = ([a, b]: Span, [c, d]: Span): number => Math.max(0, c - b, a - d);

/** One depth of a row as its times place it, the same at every width: its bars left to right, and its costliest. */
export class LaneOrder {
  readonly bars: readonly LaneBar[];
  readonly byCost: readonly LaneBar[];
  /** Bars labelled, at some width of the ladder, where every costlier bar of their depth unlabelled had no place at
   *  all: beside themselves too, at every wider width (review 14R R1: a recompile's Inductor bare, its costlier bars at
   *  the axis's end against another) */
  readonly freed = new Set<LaneBar>();
  /** Bars with no place they could keep at the width last fitted (LaneAhead.placeless): a label beside their cluster
   *  may name a narrower bar of it nearer the label (review 20X X3: Counter's 30.1-ms trace sliver, against its
   *  209-ms guards, bare at 560/700 px where the guards have no place at 1400 px, and the trace its own there) */
  passed: ReadonlySet<LaneBar> = new Set();
  constructor(bars: readonly LaneBar[]) {
    // left to right: the order the labels keep (review 10H H2: labels that read the phases backwards)
    this.bars = [...bars].sort((a, b) => a.from - b.from || a.to - b.to);
    this.byCost = [...bars].sort(byCost);
  }

  get costliest(): LaneBar | undefined {
    return this.byCost[0];
  }

  /** The bars `forms` labels (each in its form), left to right; each only in its bar where a costlier one has none. */
  labelled(forms: ReadonlyMap<LaneBar, number>): ToLabel[] {
    return this.bars
      .filter((b) => forms.has(b))
      .map((bar) => ({
        bar,
        form: forms.get(bar)!,
        insideOnly: !this.freed.has(bar) && this.bars.some((b) => !forms.has(b) && byCost(b, bar) < 0),
      }));
  }
}

/** One depth of a row at a track width: what is drawn there, in px. */
export class Lane {
  private readonly markers: Span[];
  private readonly clusters: Cluster[];
  private readonly clusterOfBar = new Map<LaneBar, Cluster>();
  /** its order's bars passed over as it was made (LaneOrder.passed): its candidates are known by them */
  private readonly passed: ReadonlySet<LaneBar>;
  /** which bars the eye takes for one here, as a key: lanes alike in it differ only in room */
  readonly clustering: string;
  /** each bar's candidates by its form and whether only in its bar: asked for again at every fit of the ladder */
  private readonly candidatesOf = new Map<LaneBar, Map<number, Candidate[]>>();
  constructor(
    readonly order: LaneOrder,
    private readonly markerShares: readonly number[],
    readonly width: number,
    private readonly uncounted: ReadonlySet<LaneBar> = new Set(),
  ) {
    this.passed = order.passed;
    this.markers = markerShares.map((m) => [m * width - MARKER_HALF, m * width + MARKER_HALF]);
    this.clusters = this.clustered();
    for (const cluster of this.clusters) for (const bar of cluster.bars) this.clusterOfBar.set(bar, cluster);
    const index = (bar: LaneBar): number => order.bars.indexOf(bar);
    this.clustering = this.clusters.map((c) => `${c.wide ? 'w' : 's'}${c.bars.map(index).join(',')}`).join(' ');
  }

  /** The depth's clusters, left to right: each bar joined to the slivers that touch it, or chain to it. */
  private clustered(): Cluster[] {
    const px = Math.min(this.width, CLUSTERS_UPTO);
    const sliver = (b: LaneBar): boolean => (b.to - b.from) * px < SLIVER - ROUNDING;
    const clusters: Cluster[] = this.order.bars.map((b) => ({
      span: this.span(b),
      bars: [b],
      wide: !sliver(b),
    }));
    const touch = (a: Cluster, b: Cluster): boolean => (gap(a.span, b.span) / this.width) * px <= TOUCH;
    for (let joined = true; joined;) {
      joined = false;
      for (let i = 0; i < clusters.length && !joined; i++)
        for (let j = i + 1; j < clusters.length && !joined; j++) {
          const [a, b] = [clusters[i]!, clusters[j]!];
          if (!touch(a, b) || (a.wide && b.wide)) continue;
          const bars = [...a.bars, ...b.bars];
          const span: Span = [Math.min(a.span[0], b.span[0]), Math.max(a.span[1], b.span[1])];
          clusters.splice(j, 1);
          clusters[i] = { span, bars, wide: a.wide || b.wide };
          joined = true;
        }
    }
    return clusters;
  }

  private clusterOf(bar: LaneBar): Cluster {
    return this.clusterOfBar.get(bar)!;
  }

  /** Whether `bar` has no place at all at this width in any of `forms` (in it or beside it), other labels aside. */
  placeless(bar: LaneBar, forms: readonly number[]): boolean {
    return forms.every((form) => !this.candidates({ bar, form, insideOnly: false }).length);
  }

  private span(bar: LaneBar): Span {
    return [bar.from * this.width, bar.to * this.width];
  }

  /** Whether a label at `label`, `own` px from its bar `bar`'s cluster (on `side`: -1 left of the label, 1 right of
   *  it), is in the track, clear of every marker, and unmistakably its bar's (review 13 O1): its bar the widest of its
   *  cluster (a label beside slivers and a bar is the bar's: review 14R R1), of bars as wide the nearest, no other
   *  cluster of its depth nearer to it on its cluster's side, and on the other side each at least PAD farther (a label
   *  midway between two is neither's); a wider bar passed over (LaneOrder.passed) farther from it than its own. */
  private clear(bar: LaneBar, label: Span, own: number, side: -1 | 1): boolean {
    const [from, to] = label;
    if (from < 0 || to > this.width) return false;
    const home = this.clusterOf(bar);
    // the widest's, a bar passed over aside, which is farther; of bars as wide (slivers drawn at the least width), the
    // one strictly nearest it (the DDP job's 0.5-px trace, as wide as its guards, named across them)
    const kept = home.bars.filter((b) => b === bar || !this.passed.has(b));
    const widest = Math.max(...kept.map((b) => b.to - b.from));
    const wide = (b: LaneBar): boolean => b.to - b.from >= widest - ROUNDING;
    const nearer = (b: LaneBar): boolean => gap(label, this.span(b)) > gap(label, this.span(bar)) + ROUNDING;
    if (!wide(bar) || !home.bars.every((b) => b === bar || !wide(b) || nearer(b))) return false;
    // slivers alone, one of another colour as wide: the mark is of either colour to the eye, a label beside it that
    // one's, so each is said in its row's hover (review 19Z Z6: "Inductor: kernel codegen 0.985 ms" beside a 1-px teal
    // bar under a magenta load module's as wide); a wider one's colour is the mark's (a step's guards past a 0.5-px
    // backend compile)
    const asWideElse = (b: LaneBar): boolean => b.colour !== bar.colour && wide(b);
    if (!home.wide && home.bars.some(asWideElse)) return false;
    // less a rounding's worth: a label that begins at a marker's own edge is clear of it at every width
    const apart = ([a, b]: Span): boolean => b <= from - CLEAR + ROUNDING || a >= to + CLEAR - ROUNDING;
    const unmistakable = ({ span }: Cluster): boolean => {
      // how far it reaches past its bar's cluster's edge toward the label
      const past = side < 0 ? span[1] - home.span[1] : home.span[0] - span[0];
      return gap(label, span) >= (past <= ROUNDING ? own : own + PAD) - ROUNDING;
    };
    return this.clusters.every((c) => c === home || unmistakable(c)) && this.markers.every(apart);
  }

  /** What a label left of `bar` may end at: its start, or the left of a diamond on or against it (a label left of a
   *  diamond, never under it: review 5A G7). */
  private startsOf(bar: LaneBar): number[] {
    const [from] = this.clusterOf(bar).span;
    const before = Math.max(0, ...this.clusters.filter((c) => c.span[1] <= from).map((c) => c.span[1]));
    // a diamond over the bar's end too (the cache hit's, just past its 1-px load from cache: review 17X X7); one
    // that stands apart from the bar, never: a label past it reads as its name (review 16Z/17X Z8: "lowering 188
    // ms ◇", the lowering bar 8 px on)
    const diamonds = this.markerShares
      .map((m) => m * this.width)
      .filter((m) => m >= before && m - MARKER_HALF < bar.to * this.width && m + MARKER_HALF >= from - PAD);
    // each left of the bar: a diamond past its start bounds no label beside it
    return [from, ...diamonds.map((m) => m - MARKER_HALF - MARKER_GAP).filter((edge) => edge < from)];
  }

  /** What a label right of `bar` may begin after, likewise: its end, or the right of a diamond on or against it. */
  private endsOf(bar: LaneBar): number[] {
    const [, to] = this.clusterOf(bar).span;
    const after = Math.min(this.width, ...this.clusters.filter((c) => c.span[0] >= to).map((c) => c.span[0]));
    const diamonds = this.markerShares
      .map((m) => m * this.width)
      .filter((m) => m <= after && m + MARKER_HALF > bar.from * this.width && m - MARKER_HALF <= to + PAD);
    return [to, ...diamonds.map((m) => m + MARKER_HALF + MARKER_GAP).filter((edge) => edge > to)];
  }

  /** Where `bar`'s label in form `form` may go, most wanted first: in its bar (after a diamond at its start), right
   *  of it, left of it; its name alone, or where a costlier bar has no label (`insideOnly`), in its bar only. */
  candidates({ bar, form, insideOnly }: ToLabel): Candidate[] {
    const key = insideOnly ? -1 - form : form;
    const known = this.candidatesOf.get(bar) ?? new Map<number, Candidate[]>();
    this.candidatesOf.set(bar, known);
    const found = known.get(key) ?? this.placesOf(bar, form, insideOnly);
    known.set(key, found);
    return found;
  }

  private placesOf(bar: LaneBar, form: number, insideOnly: boolean): Candidate[] {
    const length = formLength(formsOf(bar, this.uncounted), form);
    const [x, end] = this.span(bar);
    const start = this.markers
      .filter(([a, b]) => a < x + PAD + length && b > x)
      .reduce((from, [, b]) => Math.max(from, b + 1), x + PAD);
    const inside = start + length + PAD <= end ? [{ at: start, end: start + length, inside: true }] : [];
    if (insideOnly || onlyInside(bar, form)) return inside;
    const cluster = this.clusterOf(bar).span;
    const beside = (from: number, own: number, side: -1 | 1): Candidate | null =>
      this.clear(bar, [from, from + length], own, side) ? { at: from, end: from + length, inside: false } : null;
    const all = [
      ...inside,
      ...this.endsOf(bar).map((edge) => beside(edge + PAD, edge + PAD - cluster[1], -1)),
      ...this.startsOf(bar).map((edge) => beside(edge - PAD - length, cluster[0] - (edge - PAD), 1)),
    ];
    return all.filter((c) => c !== null);
  }

  /** Whether the bars `labelled` (left to right, from the k-th on), each in its form, can all be labelled after
   *  `frontier`, their labels in their bars' order: each the one ending first that fits, which leaves the most room. */
  fits(labelled: readonly ToLabel[], frontier = -Infinity, k = 0): boolean {
    for (let at = frontier, i = k; i < labelled.length; i++) {
      const ends = this.candidates(labelled[i]!)
        .filter((c) => c.at >= at + CLEAR)
        .map((c) => c.end);
      if (!ends.length) return false;
      at = Math.min(...ends);
    }
    return true;
  }
}

/** A depth at a width of the ladder, and at each wider width where what the eye takes for one bar changes (a sliver
 *  grows to SLIVER px, or moves off a bar by more than TOUCH): a label given its place at the one has a place at
 *  every wider width (the clusters aside, what fits at a width fits at every wider one), so a wider panel only adds
 *  labels. */
export class LaneAhead {
  constructor(
    readonly now: Lane,
    private readonly ahead: readonly Lane[],
  ) {}

  fits(labelled: readonly ToLabel[]): boolean {
    return this.now.fits(labelled) && this.ahead.every((lane) => lane.fits(labelled));
  }

  /** Whether `bar` has, in each of `forms`, no place here or at some wider width clustered otherwise: a label given
   *  here is kept at every wider width, so it has none it could keep (review 20X X3: Counter's 57.3-ms guards, room
   *  left of them at 560 px, none at 1400 past the trace bar grown wider than a sliver). */
  placeless(bar: LaneBar, forms: readonly number[]): boolean {
    return forms.every((form) => [this.now, ...this.ahead].some((lane) => lane.placeless(bar, [form])));
  }
}

/** The widths, in px, at which `order`'s clusters change: just past each bar's SLIVER px, each gap's TOUCH px. */
export function clusterChanges(order: LaneOrder): number[] {
  const past = (px: number, share: number): number[] =>
    share > 0 && px / share < CLUSTERS_UPTO ? [(px / share) * (1 + 1e-9)] : [];
  return order.bars.flatMap((b, i) => [
    ...past(SLIVER, b.to - b.from),
    ...order.bars.slice(i + 1).flatMap((c) => past(TOUCH, Math.max(c.from - b.to, b.from - c.to))),
  ]);
}

/** Whether `lane`'s bars `forms` labels, with `bar` in form `form`, fit (`forms` as it was after); `bar` beside itself
 *  too where every costlier bar of its depth unlabelled has no place at all (`placeless`: review 14R R1, O3 relaxed). */
export function fitsWith(
  lane: LaneAhead,
  order: LaneOrder,
  forms: Map<LaneBar, number>,
  bar: LaneBar,
  form: number,
  placeless: (b: LaneBar) => boolean,
): boolean {
  const free = order.byCost.every((b) => byCost(b, bar) >= 0 || forms.has(b) || placeless(b));
  const wasFree = order.freed.has(bar);
  if (free) order.freed.add(bar);
  forms.set(bar, form);
  const fits = lane.fits(order.labelled(forms));
  forms.delete(bar);
  if (!wasFree && !(fits && free)) order.freed.delete(bar);
  return fits;
}
