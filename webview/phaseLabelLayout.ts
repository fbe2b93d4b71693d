// Which bars of a compile-phase chart are labelled, in which form and where (compilePhases.ts measures and draws
// them): the bars and forms phaseLabelChoice.ts chose on its ladder (by cost, then room; a wider panel only adds
// labels and never shortens a name), where each may go phaseLabelLane.ts's (in its bar or directly beside it, no other
// bar nearer: review 13 O1); a count "(1 of 2)" said only where every bar it counts is labelled, a bar the only one
// of its mates labelled keeping it (review 15U U5); a part said on all its bars down the chart or none, but rows
// where it must be (phaseLabelParts.ts). Pure: the bars as shares of the track, labels' lengths in px.

import { chartLabelled } from './phaseLabelChoice.ts';
import { CLEAR, Lane, LaneOrder, onlyInside, type ChartLane, type LaneBar } from './phaseLabelLane.ts';
import { byCost, saidOfOnePart } from './phaseLabelParts.ts';

/** A label placed: its form (an index into its bar's lengths, or lengths.length: its name alone), in its forms
 *  without their count or not, its start in px, and whether it lies in its bar. */
export interface LabelPlace {
  form: number;
  uncounted: boolean;
  at: number;
  inside: boolean;
}

/**
 * Each bar's label at track width `width` (px), or none, for every depth of every row of one chart (`lanes`): the bars
 * labelled as chartLabelled chose them; a bar counted among others ("(1 of 2)") without its count where one of those has no
 * label, and of such bars none of which is labelled, the costliest without it where that fits; each phase in the form the ladder lengthened it to (chartLabelled), or its name alone; a part said alike
 * down the chart (phaseLabelParts.ts); placed where most wanted that leaves the rest their room.
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
