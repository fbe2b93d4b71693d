// Which bars of a compile-phase chart are labelled, in which form and where (compilePhases.ts measures and draws
// them). Labels go to bars by what they cost, the longest first, then by room; and the bars labelled are chosen on a
// ladder of widths fixed for every panel, each keeping the labels of the narrower ones, so a wider panel only adds
// labels, never swaps one for another (review 11K K1 / 11J J2); a depth's costliest bar before any other (review 12N
// N1), and while a costlier bar of its depth has no label but has a place, a bar's label only in its bar (review 13
// O3: "guards 53.9 ms" beside the backend compile, the 0.5-s trace unnamed; relaxed by review 14R R1). A label lies in
// its bar or directly beside it, no other bar nearer to it than its own (review 13 O1: "backward compile 974 ms"
// against the forward's Inductor bar), slivers under 2 px against a bar counting as its edge (review 14R R1/R2).
// A chart says each phase with its time in one form, lengthened up the ladder and never shortened, so a wider panel
// never shortens a name (review 16X X4); a bar with no room for it by its name alone in its bar, one cut per phase per
// row (review 13 O5 / P6, 16Z Z9); a row says a part for all its phases of it or none (phaseLabelParts.ts); a count
// "(1 of 2)" only where every bar it counts is labelled. Pure: the bars as shares of the track, labels' lengths in px.

import { byCost, saidOfOnePart } from './phaseLabelParts.ts';

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

/** A label placed: its form (an index into its bar's lengths, or lengths.length: its name alone), in its forms
 *  without their count or not, its start in px, and whether it lies in its bar. */
export interface LabelPlace {
  form: number;
  uncounted: boolean;
  at: number;
  inside: boolean;
}

/** px between a label and the bar it names (a bar of its depth no nearer to it than PAD more: review 13 O1), and the
 *  least between it and a cache marker. */
const PAD = 3;
const CLEAR = 1;
/** A cache marker's diamond reaches this far either side of its phase's start (compilePhases.ts DIAMOND). */
const MARKER_HALF = 5;
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
 *  grow wider than SLIVER only past it stay a bar's edge, so a label beside them keeps its place at any wider panel. */
const CLUSTERS_UPTO = 1200;
/** The track widths, in px, at which the bars labelled are chosen: the same ladder at every panel's width. */
const LADDER_FROM = 16;
const LADDER_STEP = 1.05;

type Span = [number, number];
/** Bars of a depth the eye takes for one: a bar and the slivers touching it (never two bars wider than slivers), or
 *  slivers alone (`wide` false). */
interface Cluster {
  span: Span;
  widest: LaneBar;
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
const onlyInside = (bar: LaneBar, form: number): boolean => form >= bar.lengths.length;
/** The gap in px between two spans (0 where they overlap). */
const gap = ([a, b]: Span, [c, d]: Span): number => Math.max(0, c - b, a - d);

/** One depth of a row as its times place it, the same at every width: its bars left to right, and its costliest. */
class LaneOrder {
  readonly bars: readonly LaneBar[];
  readonly byCost: readonly LaneBar[];
  /** Bars labelled, at some width of the ladder, where every costlier bar of their depth unlabelled had no place at
   *  all: beside themselves too, at every wider width (review 14R R1: a recompile's Inductor bare, its costlier bars at
   *  the axis's end against another) */
  readonly freed = new Set<LaneBar>();
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
class Lane {
  private readonly markers: Span[];
  private readonly clusters: Cluster[];
  private readonly clusterOfBar = new Map<LaneBar, Cluster>();
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
      widest: b,
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
          const widest = bars.reduce((w, x) => (x.to - x.from > w.to - w.from + ROUNDING ? x : w));
          const span: Span = [Math.min(a.span[0], b.span[0]), Math.max(a.span[1], b.span[1])];
          clusters.splice(j, 1);
          clusters[i] = { span, widest, bars, wide: a.wide || b.wide };
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
   *  midway between two is neither's). */
  private clear(bar: LaneBar, label: Span, own: number, side: -1 | 1): boolean {
    const [from, to] = label;
    if (from < 0 || to > this.width) return false;
    const home = this.clusterOf(bar);
    // the widest's; of bars as wide (slivers drawn at the least width), the one strictly nearest it (the DDP job's
    // 0.5-px trace, as wide as its guards, named across them)
    const wide = (b: LaneBar): boolean => b.to - b.from >= home.widest.to - home.widest.from - ROUNDING;
    const nearer = (b: LaneBar): boolean => gap(label, this.span(b)) > gap(label, this.span(bar)) + ROUNDING;
    if (!wide(bar) || !home.bars.every((b) => b === bar || !wide(b) || nearer(b))) return false;
    // less a rounding's worth: a label that begins at a marker's own edge is clear of it at every width
    const apart = ([a, b]: Span): boolean => b <= from - CLEAR + ROUNDING || a >= to + CLEAR - ROUNDING;
    const unmistakable = ({ span }: Cluster): boolean => {
      // how far it reaches past its bar's cluster's edge toward the label
      const past = side < 0 ? span[1] - home.span[1] : home.span[0] - span[0];
      return gap(label, span) >= (past <= ROUNDING ? own : own + PAD) - ROUNDING;
    };
    return this.clusters.every((c) => c === home || unmistakable(c)) && this.markers.every(apart);
  }

  /** What a label left of `bar` may end at: its start, or the left of a diamond between it and the bar before it
   *  (a label left of a diamond, never under it: review 5A G7). */
  private startsOf(bar: LaneBar): number[] {
    const [from] = this.clusterOf(bar).span;
    const before = Math.max(0, ...this.clusters.filter((c) => c.span[1] <= from).map((c) => c.span[1]));
    const diamonds = this.markerShares.map((m) => m * this.width).filter((m) => m >= before && m < bar.to * this.width);
    return [from, ...diamonds.map((m) => m - MARKER_HALF - MARKER_GAP)];
  }

  /** What a label right of `bar` may begin after, likewise: its end, or the right of a diamond before the next bar. */
  private endsOf(bar: LaneBar): number[] {
    const [, to] = this.clusterOf(bar).span;
    const after = Math.min(this.width, ...this.clusters.filter((c) => c.span[0] >= to).map((c) => c.span[0]));
    const diamonds = this.markerShares
      .map((m) => m * this.width)
      .filter((m) => m <= after && m > bar.from * this.width);
    return [to, ...diamonds.map((m) => m + MARKER_HALF + MARKER_GAP)];
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
class LaneAhead {
  constructor(
    readonly now: Lane,
    private readonly ahead: readonly Lane[],
  ) {}

  fits(labelled: readonly ToLabel[]): boolean {
    return this.now.fits(labelled) && this.ahead.every((lane) => lane.fits(labelled));
  }
}

/** The widths, in px, at which `order`'s clusters change: just past each bar's SLIVER px, each gap's TOUCH px. */
function clusterChanges(order: LaneOrder): number[] {
  const past = (px: number, share: number): number[] =>
    share > 0 && px / share < CLUSTERS_UPTO ? [(px / share) * (1 + 1e-9)] : [];
  return order.bars.flatMap((b, i) => [
    ...past(SLIVER, b.to - b.from),
    ...order.bars.slice(i + 1).flatMap((c) => past(TOUCH, Math.max(c.from - b.to, b.from - c.to))),
  ]);
}

/** Whether `lane`'s bars `forms` labels, with `bar` in form `form`, fit (`forms` as it was after); `bar` beside itself
 *  too where every costlier bar of its depth unlabelled has no place at all (`placeless`: review 14R R1, O3 relaxed). */
function fitsWith(
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

/** How a phase's bars are labelled across a chart: with their time, or by their name alone, in their bars. */
type Way = 'timed' | 'named';

/**
 * Which bars of a chart (each depth of each row: `orders`) are labelled at track width `width`, each in its shortest
 * form that fits: by cost, then room, at each width of a ladder up to it, each keeping those labelled at the one
 * before (what fits at a width fits at every wider one: a wider panel only adds labels); a depth's costliest first,
 * and no other before it (review 12N N1). A phase's bars all with their time or all by their name alone (review 13
 * P6: "trace" beside "Dynamo: trace bytecode 207 ms"): the way its first bar labelled is, until every one by its name
 * alone has room for its time, or a bar with room only the other way has it where all of them have room to (review
 * 14T T1: a resumed frame's backend compile, room for "backend" in it, bare); a bar left bare by its phase's way alone
 * blanks not its depth, its cheaper bars there only in their own (code read 37 item 2: a recompile's guards with
 * their time beside them left the first compile's row bare).
 */
function chartLabelled(
  orders: readonly LaneOrder[],
  lanes: readonly ChartLane[],
  width: number,
): Map<LaneBar, number>[] {
  const chosen = orders.map(() => new Map<LaneBar, number>());
  const ways = new Map<string, Way>();
  const rowOf = (k: number): number => lanes[k]!.row ?? -1 - k;
  /** Each phase said with its time: the form its bars take (an index into their forms, a bar with fewer forms in its
   *  last), only ever longer up the ladder, a bar labelled later in it: a wider panel never shortens a name (review
   *  16X X4: "build guards 53.9 ms" at 1400 px, "guards" at 2000 where the 209-ms guards found room) */
  const floors = new Map<string, number>();
  const timed = (bar: LaneBar): number => Math.min(floors.get(bar.phase) ?? Infinity, bar.lengths.length - 1);
  const changes = orders.map((order, k) =>
    clusterChanges(order)
      .sort((a, b) => a - b)
      .map((w) => new Lane(order, lanes[k]!.markers, w)),
  );
  /** Of a depth's lanes wider than `now`, the narrowest of each way its bars cluster other than now's: what fits
   *  there fits at every wider width clustered alike (the ladder's claim), so those need no fitting */
  const aheadOf = (now: Lane, changed: readonly Lane[]): Lane[] => {
    const seen = new Set([now.clustering]);
    return changed.filter(
      (lane) => lane.width > now.width && !seen.has(lane.clustering) && !!seen.add(lane.clustering),
    );
  };
  const wayOf = (bar: LaneBar, way: Way): number | null =>
    way === 'timed' ? (bar.lengths.length ? timed(bar) : null) : bar.nameOnly === undefined ? null : bar.lengths.length;
  for (let ladder = LADDER_FROM; ladder <= width; ladder *= LADDER_STEP) {
    // each depth's lanes at this width made where first asked for: most depths are all labelled, or all bare
    const lanesAt: LaneAhead[] = [];
    const at = (k: number): LaneAhead => {
      if (!lanesAt[k]) {
        const now = new Lane(orders[k]!, lanes[k]!.markers, ladder);
        lanesAt[k] = new LaneAhead(now, aheadOf(now, changes[k]!));
      }
      return lanesAt[k];
    };
    const fitsAll = (ks: Iterable<number>): boolean =>
      [...ks].every((k) => at(k).fits(orders[k]!.labelled(chosen[k]!)));
    /** Says phase `phase` the other way across the chart where every bar of it labelled has room to, `bar` (of lane
     *  `lane`) with them: a costlier bar never left bare by the way a cheaper one of its phase took first (code read
     *  37 item 2). */
    const turn = (phase: string, way: Way, bar: LaneBar, lane: number): boolean => {
      const said = chosen.flatMap((forms, k) =>
        [...forms.keys()].filter((b) => b.phase === phase).map((b) => ({ b, k, was: forms.get(b)! })),
      );
      const all = [...said, { b: bar, k: lane, was: -1 }];
      const forms = all.map(({ b }) => wayOf(b, way));
      if (forms.some((f) => f === null)) return false;
      all.forEach(({ b, k }, i) => chosen[k]!.set(b, forms[i]!));
      if (fitsAll(new Set(all.map(({ k }) => k)))) return true;
      for (const { b, k, was } of all) {
        if (was < 0) chosen[k]!.delete(b);
        else chosen[k]!.set(b, was);
      }
      return false;
    };
    /** Whether a bar of lane `k` has no place at this width in a form its phase may be said in on the chart (the 63-s
     *  compile's 5.72-s C++ build, room in it for its name alone, its phase said with its time on another row) */
    // asked of a bar at every fit this width: known by the way its phase is said (a bar's lane is its own)
    const placelessWays = new Map<LaneBar, Map<Way | undefined, boolean>>();
    const placeless =
      (k: number) =>
      (b: LaneBar): boolean => {
        const way = ways.get(b.phase);
        const known = placelessWays.get(b) ?? new Map<Way | undefined, boolean>();
        placelessWays.set(b, known);
        const said = known.get(way);
        if (said !== undefined) return said;
        const forms = (['timed', 'named'] as const)
          .filter((w) => way === undefined || way === w)
          .flatMap((w) => (w === 'timed' ? b.lengths.map((_, i) => i) : [wayOf(b, w)].filter((f) => f !== null)));
        const none = at(k).now.placeless(b, forms);
        known.set(way, none);
        return none;
      };
    orders.forEach((order, k) => {
      const forms = chosen[k]!;
      for (const bar of order.byCost) {
        if (forms.has(bar)) continue;
        const way = ways.get(bar.phase);
        const form = (['timed', 'named'] as const)
          .filter((w) => way === undefined || way === w)
          .map((w) => wayOf(bar, w))
          .find((f) => f !== null && fitsWith(at(k), order, forms, bar, f, placeless(k)));
        if (form !== undefined && form !== null) {
          forms.set(bar, form);
          ways.set(bar.phase, onlyInside(bar, form) ? 'named' : 'timed');
          continue;
        }
        const other: Way = way === 'timed' ? 'named' : 'timed';
        const otherForm = way === undefined ? null : wayOf(bar, other);
        if (otherForm === null || !fitsWith(at(k), order, forms, bar, otherForm, placeless(k))) {
          // a costliest bar with a place, unlabelled, leaves its depth bare (review 12N N1)
          if (bar === order.costliest && !placeless(k)(bar)) break;
          continue;
        }
        // room only for its name alone, its phase said with its time: named so in its bar, the phase's other bars
        // keeping their time (a wider panel never shortens a name: review 16X X4; its bar named, review 14T T1)
        if (other === 'named') {
          // one cut per phase per row (review 16Z Z9): never beside a bar of its phase with its time in its row
          const row = rowOf(k);
          const timedBeside = chosen.some(
            (said, j) => rowOf(j) === row && [...said].some(([b, f]) => b.phase === bar.phase && !onlyInside(b, f)),
          );
          if (!timedBeside) forms.set(bar, otherForm);
        }
        // room with its time: the phase turned that way where its other bars have room to, else this bar bare, and
        // its depth's cheaper bars only in their own (the way alone never blanks a depth)
        else if (turn(bar.phase, other, bar, k)) ways.set(bar.phase, other);
      }
    });
    lengthen(chosen, ways, floors, (ks) => fitsAll(ks));
    // a phase by name alone whose bars all have room for their time now: with their time
    for (const [phase, way] of ways) {
      if (way !== 'named') continue;
      const named = chosen.flatMap((forms, k) =>
        [...forms.keys()].filter((b) => b.phase === phase).map((b) => ({ b, k })),
      );
      if (!named.every(({ b }) => b.lengths.length)) continue;
      // in their shortest form with their time, longer than their name alone: lengthened from there
      for (const { b, k } of named) chosen[k]!.set(b, b.lengths.length - 1);
      if (named.every(({ k }) => at(k).fits(orders[k]!.labelled(chosen[k]!)))) {
        ways.set(phase, 'timed');
        floors.delete(phase);
      } else for (const { b, k } of named) chosen[k]!.set(b, b.lengths.length);
    }
  }
  return chosen;
}

/** Each phase said with its time in the longest form every labelled bar of it can take at this width of the ladder
 *  (`fits` of their depths), never shorter than it was (`floors`): the phases whose bars cost most first. */
function lengthen(
  chosen: Map<LaneBar, number>[],
  ways: ReadonlyMap<string, Way>,
  floors: Map<string, number>,
  fits: (lanes: Iterable<number>) => boolean,
): void {
  const phases = new Map<string, { lane: number; bar: LaneBar }[]>();
  chosen.forEach((forms, lane) => {
    for (const bar of forms.keys())
      if (ways.get(bar.phase) === 'timed') phases.set(bar.phase, [...(phases.get(bar.phase) ?? []), { lane, bar }]);
  });
  const costOf = (bars: { bar: LaneBar }[]): number => Math.max(...bars.map(({ bar }) => bar.ms));
  for (const [phase, all] of [...phases].sort(([, a], [, b]) => costOf(b) - costOf(a))) {
    // a bar by its name alone (its time had no room): with its time where that has room now, in the longest form
    // from its phase's on that does (its row's own cut: review 16Z Z9)
    const bars = all.filter(({ lane, bar }) => {
      if (!onlyInside(bar, chosen[lane]!.get(bar)!)) return true;
      const from = Math.min(floors.get(phase) ?? Infinity, bar.lengths.length - 1);
      const form = [...bar.lengths.keys()].find((f) => {
        chosen[lane]!.set(bar, f);
        return f >= from && fits([lane]);
      });
      if (form !== undefined) return true;
      chosen[lane]!.set(bar, bar.lengths.length);
      return false;
    });
    if (!bars.length) continue;
    const now = Math.max(...bars.map(({ lane, bar }) => chosen[lane]!.get(bar)!));
    const was = bars.map(({ lane, bar }) => chosen[lane]!.get(bar)!);
    const lanes = new Set(bars.map(({ lane }) => lane));
    const form = [...Array(now).keys()].find((f) => {
      for (const { lane, bar } of bars) chosen[lane]!.set(bar, Math.min(f, bar.lengths.length - 1));
      return fits(lanes);
    });
    if (form === undefined) bars.forEach(({ lane, bar }, k) => chosen[lane]!.set(bar, was[k]!));
    floors.set(phase, form ?? now);
  }
}

/**
 * Each bar's label at track width `width` (px), or none, for every depth of every row of one chart (`lanes`): the bars
 * labelled as chartLabelled chose them; a bar counted among others ("(1 of 2)") without its count where one of those has no
 * label, and of such bars none of which is labelled, the costliest without it where that fits; each phase in the form the ladder lengthened it to (chartLabelled), or its name alone; a part said per row
 * (phaseLabelParts.ts); placed where most wanted that leaves the rest their room.
 */
export function placeChartLabels(lanes: readonly ChartLane[], width: number): Map<LaneBar, LabelPlace> {
  const orders = lanes.map((l) => new LaneOrder(l.bars));
  const chosen = chartLabelled(orders, lanes, width);
  const among = (key: string): LaneBar[] => lanes.flatMap((l) => l.bars.filter((b) => b.uncounted?.among === key));
  /** The bars said without their count: one of those they are counted among unlabelled, another labelled; a bar the
   *  only one of them labelled keeps its count, which says it is one of several (review 15U U5: a lone "C++ 5.72 s"
   *  read as the 13 builds' sum) */
  const uncountedOf = (): Set<LaneBar> => {
    const shown = new Set(chosen.flatMap((forms) => [...forms.keys()]));
    const saidWithout = (mates: LaneBar[]): boolean =>
      mates.some((m) => !shown.has(m)) && mates.filter((m) => shown.has(m)).length > 1;
    return new Set(lanes.flatMap((l) => l.bars.filter((b) => b.uncounted && saidWithout(among(b.uncounted.among)))));
  };
  let uncounted = uncountedOf();
  let fitted = orders.map((order, k) => new Lane(order, lanes[k]!.markers, width, uncounted));
  // what fitted at the ladder's width fits at this wider one; a rounding that says otherwise drops the cheapest, and
  // a bar dropped may leave a mate the only one labelled, with its count: fitted again until all fit
  for (let dropped = true; dropped;) {
    dropped = false;
    fitted.forEach((lane, k) => {
      const forms = chosen[k]!;
      const cheapest = [...forms.keys()].sort(byCost);
      while (forms.size && !lane.fits(lane.order.labelled(forms))) {
        forms.delete(cheapest.pop()!);
        dropped = true;
      }
    });
    uncounted = uncountedOf();
    fitted = orders.map((order, k) => new Lane(order, lanes[k]!.markers, width, uncounted));
  }
  // bars counted among others none of which is labelled (the 63-s compile's 13 C++ builds, "C++ (12 of 13) 5.72 s"
  // too long for any: review 14R R1): the costliest named where that fits, every costlier bar of its depth named; only
  // it, so no two bars of a row are said alike (review 11K K6); with its count, with its time or by its name alone in
  // its bar as its phase is said, never without its count: a lone "C++ 5.72 s" read as the 13 builds' sum (review
  // 15U U5)
  const mates = new Map<string, LaneBar[]>();
  for (const l of lanes)
    for (const b of l.bars) if (b.uncounted) mates.set(b.uncounted.among, [...(mates.get(b.uncounted.among) ?? []), b]);
  const labelledNow = new Set(chosen.flatMap((forms) => [...forms.keys()]));
  for (const group of mates.values()) {
    if (group.some((b) => labelledNow.has(b))) continue;
    const bar = [...group].sort(byCost)[0]!;
    const k = orders.findIndex((order) => order.bars.includes(bar));
    const [order, forms] = [orders[k]!, chosen[k]!];
    if (order.byCost.some((b) => byCost(b, bar) < 0 && !forms.has(b))) continue;
    // in the way its phase's other bars are said, with their time or by name (review 13 P6)
    const ways = new Set(
      chosen.flatMap((said) => [...said].filter(([b]) => b.phase === bar.phase).map(([b, f]) => onlyInside(b, f))),
    );
    // with its time in the form its phase's bars are said in (a wider panel never shortens a name)
    const phaseForm = Math.max(
      -1,
      ...chosen.flatMap((said) =>
        [...said].filter(([b, f]) => b.phase === bar.phase && !onlyInside(b, f)).map(([, f]) => f),
      ),
    );
    const timedForm = phaseForm < 0 ? bar.lengths.length - 1 : Math.min(phaseForm, bar.lengths.length - 1);
    const wayForms = [timedForm, bar.lengths.length].filter((f) => !ways.size || ways.has(onlyInside(bar, f)));
    const form = wayForms.find((f) => {
      forms.set(bar, f);
      return f >= 0 && fitted[k]!.fits(order.labelled(forms));
    });
    if (form === undefined) forms.delete(bar);
  }
  // each phase's timed bars in the form the ladder lengthened them to (chartLabelled): a wider panel never shortens
  saidOfOnePart(lanes, chosen, (ks) => [...ks].every((k) => fitted[k]!.fits(orders[k]!.labelled(chosen[k]!))));
  const places = new Map<LaneBar, LabelPlace>();
  fitted.forEach((lane, k) => {
    const labelled = orders[k]!.labelled(chosen[k]!);
    let frontier = -Infinity;
    labelled.forEach((label, i) => {
      const place = lane.candidates(label).find((c) => c.at >= frontier + CLEAR && lane.fits(labelled, c.end, i + 1));
      if (!place) return; // never: `labelled` fits, so its first bar has a place that leaves the rest theirs
      places.set(label.bar, {
        form: label.form,
        uncounted: uncounted.has(label.bar),
        at: place.at,
        inside: place.inside,
      });
      frontier = place.end;
    });
  });
  return places;
}
