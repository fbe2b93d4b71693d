// The compiler part a compile phase is of ("Dynamo" of "Dynamo: build guards") and how a chart says it: for all its
// phases of that part or for none (phaseLabelLayout.ts places the labels; this picks their forms by part). Pure.

/** A bar as the part rule sees it (phaseLabelLayout.ts LaneBar): its cost, its phase, its forms' lengths and whether
 *  each says its part. */
interface PartBar {
  ms: number;
  startMs: number;
  phase: string;
  lengths: readonly number[];
  nameOnly?: number;
  partSaid?: readonly (boolean | null)[];
}

/** What costs more: the order bars are given room in. */
export const byCost = (a: PartBar, b: PartBar): number => b.ms - a.ms || a.startMs - b.startMs;

/** The compiler part a phase is of ("Dynamo" of "Dynamo: build guards"): its first form says it, its others not. */
export const partOf = (phase: string): string | null => /^([^:]+): /.exec(phase)?.[1] ?? null;

/** The phases of one part said alike, all with their part or none (review 15U R2: "Dynamo: trace bytecode 31.3 ms"
 *  beside "build guards 57.6 ms"; review 16X X4: "Inductor: codegen 61.4 s" over "load", "Dynamo: whole frame" beside
 *  "trace"). A row with a phase that has no form without its part ("Inductor: codegen") says it in that row, its part's
 *  other bars there unlabelled where they have no room for it; the other rows' bars of a part, across the chart, with
 *  it only where every one of them is labelled and has room for it, so a wider panel, which only adds labels, never
 *  takes a part away; else without it (a bar by its name alone in its bar only): a part read evenly down the chart,
 *  never on a few rows of a column that drops it (review 17X X8: "Dynamo: whole frame 2.38 ms" among "whole frame
 *  52.5 ms"). */
export function saidOfOnePart(
  lanes: readonly { bars: readonly PartBar[]; row?: number }[],
  chosen: Map<PartBar, number>[],
  fits: (lanes: Iterable<number>) => boolean,
): void {
  const rowOf = (k: number): number => lanes[k]!.row ?? -1 - k;
  const says = (bar: PartBar, form: number): boolean | null => bar.partSaid?.[form] ?? null;
  const canBe = (bar: PartBar, form: number): boolean => form < bar.lengths.length || bar.nameOnly !== undefined;
  /** a bar with no form without its part ("Inductor: codegen"): its row says its part */
  const partOnly = (bar: PartBar): boolean => !bar.partSaid!.some((s, f) => s === false && canBe(bar, f));
  const rows = new Map<string, { lane: number; bar: PartBar }[]>();
  lanes.forEach(({ bars }, lane) => {
    for (const bar of bars) {
      const part = partOf(bar.phase);
      if (!part || !bar.partSaid) continue;
      const key = `${rowOf(lane)}\n${part}`;
      rows.set(key, [...(rows.get(key) ?? []), { lane, bar }]);
    }
  });
  // a part's bars in rows where a bar labelled has no form without it, each row a group; the others, one group
  const groups = new Map<string, { lane: number; bar: PartBar }[]>();
  for (const [key, row] of rows) {
    const forcedRow = row.some(({ lane, bar }) => chosen[lane]!.has(bar) && partOnly(bar));
    const chartKey = forcedRow ? key : `chart\n${partOf(row[0]!.bar.phase)}`;
    groups.set(chartKey, [...(groups.get(chartKey) ?? []), ...row]);
  }
  for (const row of groups.values()) {
    const bars = row.filter(({ lane, bar }) => chosen[lane]!.has(bar));
    const was = bars.map(({ lane, bar }) => chosen[lane]!.get(bar)!);
    const lanesOf = new Set(bars.map(({ lane }) => lane));
    const restore = (): void => bars.forEach(({ lane, bar }, k) => chosen[lane]!.set(bar, was[k]!));
    /** Each bar in the first form from `from` on that `ok` takes (or unlabelled where `drop`), where all fit. */
    const sayAll = (ok: (s: boolean | null) => boolean, from: (form: number) => number, drop = false): boolean => {
      for (const [k, { lane, bar }] of bars.entries()) {
        if (ok(says(bar, was[k]!))) continue;
        const form = [...Array(bar.lengths.length + 1).keys()].find(
          (f) => f >= from(was[k]!) && ok(says(bar, f)) && canBe(bar, f),
        );
        if (form !== undefined) chosen[lane]!.set(bar, form);
        else if (drop) chosen[lane]!.delete(bar);
        else return false;
      }
      return fits(lanesOf);
    };
    const withPart = (s: boolean | null): boolean => s !== false;
    const forced = bars.some(({ bar }) => partOnly(bar));
    if (forced) {
      // each bar said with its part where that fits, in its longest form that does, else unlabelled
      if (sayAll(withPart, () => 0)) continue;
      restore();
      for (const [k, { lane, bar }] of [...bars.entries()].sort(([, a], [, b]) => byCost(b.bar, a.bar))) {
        if (withPart(says(bar, was[k]!))) continue;
        chosen[lane]!.set(bar, 0);
        if (!withPart(says(bar, 0)) || !fits([lane])) chosen[lane]!.delete(bar);
      }
      if (!fits(lanesOf)) restore();
      continue;
    }
    if (bars.length === row.length && bars.every(({ bar }, k) => withPart(says(bar, was[k]!)))) continue;
    if (bars.length === row.length && sayAll(withPart, () => 0)) continue;
    restore();
    if (
      !sayAll(
        (s) => s !== true,
        (f) => f,
      )
    )
      restore();
  }
}
