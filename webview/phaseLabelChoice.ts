// Which bars of a compile-phase chart are labelled, and in which form (phaseLabelLayout.ts places them): chosen on a
// ladder of widths fixed for every panel, each keeping the labels of the narrower ones, so a wider panel only adds
// labels (review 11K K1 / 11J J2), each phase said with its time in one form lengthened up the ladder, never
// shortened (review 16X X4). Pure: where each label may go is phaseLabelLane.ts's.

import {
  clusterChanges,
  fitsWith,
  Lane,
  LaneAhead,
  onlyInside,
  type ChartLane,
  type LaneBar,
  type LaneOrder,
} from './phaseLabelLane.ts';

/** The track widths, in px, at which the bars labelled are chosen: the same ladder at every panel's width. */
const LADDER_FROM = 16;
const LADDER_STEP = 1.05;

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
export function chartLabelled(
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
  const wayOf = (bar: LaneBar, way: Way): number | null =>
    way === 'timed' ? (bar.lengths.length ? timed(bar) : null) : bar.nameOnly === undefined ? null : bar.lengths.length;
  for (let ladder = LADDER_FROM; ladder <= width; ladder *= LADDER_STEP) {
    // each depth's lanes at this width made where first asked for: most depths are all labelled, or all bare
    const lanesAt: LaneAhead[] = [];
    const at = (k: number): LaneAhead => {
      lanesAt[k] ??= laneAhead(orders[k]!, lanes[k]!.markers, ladder, changes[k]!);
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
        const none = at(k).placeless(b, forms);
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
          .flatMap((w) => withoutPart(bar, wayOf(bar, w)))
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
  // the bars passed over at the panel's own width, where the labels are placed
  orders.forEach((order, k) => laneAhead(order, lanes[k]!.markers, width, changes[k]!));
  return chosen;
}

/**
 * Depth `order` at track width `width`, and at each wider width its bars cluster otherwise (of `changed`, its lanes
 * where they do, made with none passed over: the narrowest of each way): what fits there fits at every wider width
 * clustered alike (the ladder's claim), so those need no fitting. Its bars with no place they could keep there are
 * passed over (LaneOrder.passed, set here): a label beside one's cluster may name a narrower bar of it (review 20X X3).
 */
function laneAhead(order: LaneOrder, markers: readonly number[], width: number, changed: readonly Lane[]): LaneAhead {
  order.passed = new Set();
  const now = new Lane(order, markers, width);
  const seen = new Set([now.clustering]);
  const ahead = changed.filter(
    (lane) => lane.width > width && !seen.has(lane.clustering) && !!seen.add(lane.clustering),
  );
  const strict = new LaneAhead(now, ahead);
  // with a place here: where it has none, the depth's narrow, and its cheaper bars wait for its room as before
  const passed = order.bars.filter((b) => {
    const forms = [...Array(b.lengths.length + 1).keys()];
    return !now.placeless(b, forms) && strict.placeless(b, forms);
  });
  if (!passed.length) return strict;
  order.passed = new Set(passed);
  return new LaneAhead(
    new Lane(order, markers, width),
    ahead.map((lane) => new Lane(order, markers, lane.width)),
  );
}

/** A bar's form `form`, then where that says its compiler part, the same without it: a bar labelled first at this
 *  width is one its part was not said on at any narrower one (a part is said on every bar of it or none: review
 *  17X X8, phaseLabelParts.ts), so its phase's form with the part, lengthened to on other rows, asks room for words
 *  never shown (review 20X X3: the restart's "Dynamo: trace bytecode (given up, restarted) 30.1 ms", 274 px, 1 px
 *  short at 560 px, shown as "trace bytecode (given up, restarted) 30.1 ms"). */
function withoutPart(bar: LaneBar, form: number | null): (number | null)[] {
  if (form === null || bar.partSaid?.[form] !== true) return [form];
  return bar.partSaid[form + 1] === false && form + 1 < bar.lengths.length ? [form, form + 1] : [form];
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
