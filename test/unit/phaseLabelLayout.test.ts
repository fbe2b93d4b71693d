// Which compile-phase bars of one depth are labelled (webview/phaseLabelLayout.ts), on constructed lanes: by cost,
// then room, the same bars at every wider track plus more (review 11K K1 / 11J J2 / 11I I4: Counter's 209 ms guards
// unnamed at 1360 px, its 30.1 ms trace named; named the other way round at 560), and the words that tell a row's
// phases of one name apart (review 11K K6 / 11J J7).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LaneBar } from '../../webview/phaseLabelLane.ts';
import { placeChartLabels, type LabelPlace } from '../../webview/phaseLabelLayout.ts';
import { phaseLabelForms } from '../../webview/timelineWords.ts';

/** A bar of `ms` at `startMs` on an axis of `axisMs` drawn over 97 % of the track (compilePhases.ts), at least 0.15 %
 *  wide; its forms `lengths` px long. */
function bar(startMs: number, ms: number, axisMs: number, lengths: number[], phase = `phase at ${startMs}`): LaneBar {
  const from = (startMs / axisMs) * 0.97;
  return { from, to: from + Math.max(0.0015, (ms / axisMs) * 0.97), ms, startMs, lengths, phase };
}

/** One depth of one row, alone in its chart. */
const placeLabels = (bars: LaneBar[], markers: number[], width: number): Map<LaneBar, LabelPlace> =>
  placeChartLabels([{ bars, markers }], width);

/** train_small's "Counter: forward · 268 ms": two slivers of trace bytecode, then build guards, at the axis's end. */
const AXIS = 10913;
const counter = (): LaneBar[] => [
  bar(9964.8, 30.1, AXIS, [150, 95, 70]),
  bar(9999.5, 8.5, AXIS, [150, 95, 70]),
  bar(10019.8, 209.1, AXIS, [140, 85, 68]),
];

const labelled = (bars: LaneBar[], width: number, markers: number[] = []): Set<number> =>
  new Set([...placeLabels(bars, markers, width).keys()].map((b) => bars.indexOf(b)));

test("a label lies in its bar or directly beside it, no other bar nearer: Counter's guards named right of it where the track has room, never left of the trace slivers before it (review 13 O1)", () => {
  for (const width of [300, 420, 850, 1200]) {
    const bars = counter();
    const guards = placeLabels(bars, [], width).get(bars[2]!);
    // the axis's end leaves 9 % of the track right of it: room at 850 px, not at 420
    assert.equal(guards !== undefined, width >= 850, `${width} px: ${JSON.stringify(guards)}`);
    if (guards) assert.ok(guards.at >= bars[2]!.to * width, `${width} px: right of its bar`);
  }
});

test("every label's nearest bar of its depth is its own: a costlier bar's label never beyond a cheaper bar beside it (review 13 O1)", () => {
  // rank 1's 2.06 s recompile: the forward's Inductor, then the costlier backward compile right after it, room left
  // of both; the backward's label there would touch the forward's bar
  const [forward, backward] = [bar(55000, 400, 57148, [90]), bar(55401, 974, 57148, [150])];
  for (const width of [560, 850, 1400, 4000]) {
    const places = placeLabels([forward, backward], [], width);
    for (const [own, place] of places) {
      const length = own.lengths[place.form]!;
      const gapTo = (b: LaneBar): number => Math.max(0, b.from * width - (place.at + length), place.at - b.to * width);
      const other = own === forward ? backward : forward;
      assert.ok(gapTo(own) < gapTo(other), `${width} px: ${JSON.stringify(place)} nearer another bar`);
    }
  }
});

test('a wider track only adds labels: each set holds the one at every narrower width', () => {
  // lanes of the kinds the fixtures draw: a recompile's slivers at the axis's end, a first compile's bars at its
  // start, cache diamonds among them
  const lanes: { bars: LaneBar[]; markers: number[] }[] = [
    { bars: counter(), markers: [] },
    {
      bars: [
        bar(20.8, 520.3, AXIS, [160, 80, 66]),
        bar(592.9, 7092.1, AXIS, [110, 66]),
        bar(7723.9, 53.9, AXIS, [150, 90, 68]),
      ],
      markers: [],
    },
    {
      bars: [
        bar(55357, 8.4, 57148, [150, 90, 60]),
        bar(55368, 753, 57148, [160, 90, 50]),
        bar(56166, 18, 57148, [140, 80]),
        bar(56185, 913, 57148, [120, 70]),
      ],
      markers: [(56131.7 / 57148) * 0.97],
    },
  ];
  for (const { bars, markers } of lanes) {
    let before = new Set<number>();
    for (let width = 60; width <= 1600; width += 1) {
      const now = labelled(bars, width, markers);
      const lost = [...before].filter((k) => !now.has(k));
      assert.deepEqual(lost, [], `bars labelled at ${width - 1} px, not at ${width} px`);
      before = now;
    }
    // the third's costliest at the axis's end, a sliver right before it: its label has no place that is its own
    assert.ok(before.size > 0 || bars.length === 4, 'labelled at the widest');
  }
});

test("while a costlier bar of its depth has no label but has a place, a bar's label lies only in its bar; where that bar has no place at all, beside itself too (review 13 O3, relaxed by 14R R1)", () => {
  // TinyTransformer's first compile: trace bytecode (520 ms, at the axis's start, its room taken by backend compile
  // right after it), backend compile, build guards after it: at 560 px the trace has no place in any form, so the
  // guards are named beside their bar (and at every wider width: a wider panel only adds labels)
  const first = (): LaneBar[] => [
    { ...bar(20.8, 520.3, AXIS, [160, 80, 66]), nameOnly: 26 },
    bar(592.9, 7092.1, AXIS, [110, 66]),
    bar(7723.9, 53.9, AXIS, [150, 90, 68]),
  ];
  assert.deepEqual(labelled(first(), 560), new Set([1, 2]));
  assert.ok(!placeLabels(first(), [], 560).get(first()[2]!)?.inside);
  assert.deepEqual(labelled(first(), 850), new Set([0, 1, 2]));
  // with room for its name alone in it at 560 px, the trace is named, in its bar
  const roomy = first();
  roomy[0] = { ...roomy[0]!, nameOnly: 18 };
  assert.ok(placeLabels(roomy, [], 560).get(roomy[0])?.inside);
  // in its bar it may be: a guards bar wide enough for its label, the trace still without
  const wide = [bar(20.8, 520.3, AXIS, [2000]), bar(592.9, 7092.1, AXIS, [110]), bar(7723.9, 1500, AXIS, [60])];
  assert.deepEqual(labelled(wide, 560), new Set([1, 2]));
  assert.ok(placeLabels(wide, [], 560).get(wide[2]!)!.inside);
  // a trace sliver right before guards, which have no room: not named
  const [trace, guards] = [bar(9000, 8, AXIS, [40]), bar(9009, 60, AXIS, [2000])];
  assert.deepEqual(labelled([trace, guards], 850), new Set());
});

test("a depth's costliest bar is named first, else no bar of its depth is, but where it has no place at all (review 14R R1)", () => {
  // train_small's "Counter: forward after line 29": 43.4 ms of trace, 1.7 ms of backend, 57.3 ms of guards at the
  // axis's end: the guards named right of their bar where the track has room; left of the backend sliver only while
  // the trace before it is a sliver too at every wider width, so not here (its trace is 2 px wide from 480 px)
  const afterLine29 = (): LaneBar[] => [
    bar(10413.8, 43.4, AXIS, [150, 95, 60]),
    bar(10457.4, 1.7, AXIS, [110, 55]),
    bar(10459.3, 57.3, AXIS, [150, 95, 65]),
  ];
  for (const width of [300, 420, 850, 1200]) {
    const bars = afterLine29();
    const guards = placeLabels(bars, [], width).get(bars[2]!);
    if (guards) assert.ok(guards.at >= bars[2]!.to * width, `${width} px: ${JSON.stringify(guards)}`);
  }
  // bare at 300 and 420 px: the trace, with a place left of it, leaves its depth bare; at 850 px the guards have none
  // (no room right, the trace against the backend sliver left), so the trace is named left of its bar
  assert.deepEqual(labelled(afterLine29(), 420), new Set());
  assert.deepEqual(labelled(afterLine29(), 850), new Set([0]));
  assert.deepEqual(labelled(afterLine29(), 1200), new Set([0, 2]));
  // the costliest with no room for any form: the cheaper ones named, each where it has room
  const boxed = [bar(100, 40, 1000, [30]), bar(150, 300, 1000, [2000]), bar(600, 200, 1000, [30])];
  assert.deepEqual(labelled(boxed, 400), new Set([0, 2]));
});

test('a bar wide enough for its name alone is named by it, in its bar, where no form with its time has room', () => {
  // TinyTransformer's first trace: 520 ms at the axis's start, backend compile right after it
  const first = (): LaneBar[] => [
    { ...bar(20.8, 520.3, AXIS, [160, 80, 66]), nameOnly: 26 },
    bar(592.9, 7092.1, AXIS, [110, 66]),
    bar(7723.9, 53.9, AXIS, [150, 90, 68]),
  ];
  for (const [width, named] of [
    [560, false],
    [850, true],
    [1200, true],
  ] as const) {
    const bars = first();
    const trace = placeLabels(bars, [], width).get(bars[0]!);
    assert.equal(trace !== undefined, named, `${width} px: ${JSON.stringify(trace)}`);
    if (!trace) continue;
    // its name alone (the form after its timed ones), in its bar
    assert.deepEqual([trace.form, trace.inside], [3, true]);
    assert.ok(trace.at + 26 <= bars[0]!.to * width);
  }
  // never beside its bar: a bar too narrow for it, with room on both sides, left without (no form with its time
  // fits the track)
  const narrow = { ...bar(5000, 100, AXIS, [2000]), nameOnly: 26 };
  assert.equal(placeLabels([narrow], [], 850).size, 0);
});

test("the costliest form that leaves every other label room; labels in their bars' order, clear of each other", () => {
  const bars = counter();
  for (const width of [300, 850]) {
    const places = [...placeLabels(bars, [], width)].sort(([a], [b]) => a.from - b.from);
    for (let k = 1; k < places.length; k++) {
      const [[prevBar, prev], [, next]] = [places[k - 1]!, places[k]!];
      assert.ok(prev.at + prevBar.lengths[prev.form]! < next.at, `${width} px: labels overlap or swap order`);
    }
  }
  // a wide track: room for the longest form
  const wide = placeLabels(counter(), [], 4000);
  assert.ok(
    [...wide.values()].every((p) => p.form === 0),
    JSON.stringify([...wide.values()]),
  );
});

test("a bar's label forms are the runner's names for it, longest first, each with its time", () => {
  assert.deepEqual(phaseLabelForms(['Inductor: codegen (backward)', 'codegen (backward)'], '913 ms'), [
    'Inductor: codegen (backward) 913 ms',
    'codegen (backward) 913 ms',
  ]);
});

test('a chart says each phase in one form: the longest every labelled bar of it can take (review 13 O5)', () => {
  // two rows' guards: one with room for "Dynamo: build guards 32.9 ms", the other only for "guards 30.1 ms"
  const roomy = bar(1000, 400, 10000, [150, 95, 70], 'Dynamo: build guards');
  const tight = { ...bar(5000, 400, 10000, [150, 95, 70], 'Dynamo: build guards'), to: 0.97 };
  const boxIn = bar(5000 + 400 * 1.2, 10, 10000, [2000]);
  const places = placeChartLabels(
    [
      { bars: [roomy], markers: [] },
      { bars: [tight, { ...boxIn, from: 0.97 - 80 / 1000 }], markers: [] },
    ],
    1000,
  );
  const forms = [roomy, tight].map((b) => places.get(b)?.form);
  assert.ok(forms[0] !== undefined && forms[0] === forms[1], JSON.stringify(forms));
  // alone, the roomy one takes its longest
  assert.equal(placeChartLabels([{ bars: [roomy], markers: [] }], 1000).get(roomy)!.form, 0);
  // by its name alone in one bar (3 s, room for it in it at a narrower track than the others have beside them) and
  // with its time in two others (100 ms each): by its name, the others unlabelled (a wider track only adds labels);
  // and the other way round where the named bar has no room for its name
  const named = { ...bar(0, 3000, 10000, [2000, 2000], 'trace'), nameOnly: 20 };
  const timed = [bar(4000, 100, 10000, [80, 60], 'trace'), bar(7000, 100, 10000, [80, 60], 'trace')];
  const chart = placeChartLabels(
    [{ bars: [named], markers: [] }, ...timed.map((b) => ({ bars: [b], markers: [] }))],
    1000,
  );
  assert.deepEqual(
    [named, ...timed].map((b) => chart.has(b)),
    [true, false, false],
  );
  const cheap = { ...bar(0, 150, 10000, [2000, 2000], 'trace'), nameOnly: 20 };
  const other = placeChartLabels(
    [{ bars: [cheap], markers: [] }, ...timed.map((b) => ({ bars: [b], markers: [] }))],
    1000,
  );
  assert.deepEqual(
    [cheap, ...timed].map((b) => other.has(b)),
    [false, true, true],
  );
});

test('a count "(1 of 2)" only where every bar it counts among is labelled, else the forms without it (review 13 P6)', () => {
  const counted = (startMs: number, ms: number): LaneBar => ({
    ...bar(startMs, ms, 10000, [200]),
    phase: 'C++ compile',
    uncounted: { lengths: [150], nameOnly: 40, among: 'row 0' },
  });
  // both with room beside them: each counted
  const both = [counted(1000, 500), counted(6000, 500)];
  const said = placeChartLabels([{ bars: both, markers: [] }], 1000);
  assert.deepEqual(
    both.map((b) => said.get(b)?.uncounted),
    [false, false],
  );
  // the second boxed in by a bar right before it and a costlier one right after it: the first, the only one labelled,
  // keeps its count, which says it is one of two (review 15U U5: a lone "C++ 5.72 s" read as the sum)
  const boxed = [counted(1000, 500), counted(6000, 30), bar(6031, 3000, 10000, [100]), bar(5970, 29, 10000, [100])];
  const alone = placeChartLabels([{ bars: boxed, markers: [] }], 1000);
  assert.equal(alone.has(boxed[1]!), false);
  assert.equal(alone.get(boxed[0]!)?.uncounted, false);
  // a third with room: the two labelled said without their count, the bare one among them
  const three = [counted(1000, 500), counted(6000, 30), bar(6031, 3000, 10000, [100]), bar(5970, 29, 10000, [100])];
  three.push(counted(3100, 100));
  const two = placeChartLabels([{ bars: three, markers: [] }], 2000);
  assert.deepEqual(
    [0, 1, 4].map((k) => two.get(three[k]!)?.uncounted),
    [true, undefined, true],
  );
});

test('bars counted among others none of which has room for its count with its time: the costliest named with it alone in its bar, only it, never without it (review 14R R1, 15U U5)', () => {
  // three C++ builds side by side, 60 ms gaps: "(k of 3)" with its time fits none, "C++ (2 of 3)" fits in the
  // costliest, as would "C++ 5.72 s": a lone label without its count, read as the three's sum (review 15U U5)
  const counted = (startMs: number, ms: number, nameOnly: number): LaneBar => ({
    ...bar(startMs, ms, 10000, [400, 300]),
    nameOnly,
    phase: 'C++ compile',
    uncounted: { lengths: [200, 70], nameOnly: 25, among: 'row 0' },
  });
  for (const [nameOnly, said] of [
    [80, { form: 2, uncounted: false, inside: true }],
    [95, undefined], // no room for its count: bare, never "C++ 5.72 s"
  ] as const) {
    // a costlier bar right after them (its label in it): no room beside the last either
    const builds = [counted(1000, 400, nameOnly), counted(1460, 1000, nameOnly), counted(2520, 500, nameOnly)];
    const after = bar(3080, 6000, 10000, [100]);
    const places = placeChartLabels([{ bars: [...builds, after], markers: [] }], 1000);
    assert.deepEqual(
      builds.map((b) => places.get(b)),
      [undefined, said && { ...said, at: builds[1]!.from * 1000 + 3 }, undefined],
      `${nameOnly} px`,
    );
    assert.ok(places.get(after)?.inside);
  }
});

test("a row's bars never left bare by the way another row's bar of their phase took first (code read 37 item 2)", () => {
  const phaseBar = (phase: string, from: number, to: number, ms: number, timed: number, name: number): LaneBar => ({
    phase,
    from,
    to,
    ms,
    startMs: from * 1000,
    lengths: [timed],
    nameOnly: name,
  });
  // a first compile: its costliest, guards, packed between trace and backend (no room beside it: by its name in it)
  const first = (): LaneBar[] => [
    phaseBar('trace', 0, 0.1, 50, 90, 40),
    phaseBar('guards', 0.1, 0.16, 200, 86, 40),
    phaseBar('backend', 0.16, 0.3, 100, 90, 50),
  ];
  // a recompile whose costliest is a narrow guards bar, room right of it: with its time beside it
  const recompile = (): LaneBar[] => [phaseBar('guards', 0, 0.01, 20, 80, 40), phaseBar('trace', 0.5, 0.51, 5, 80, 40)];
  for (const width of [900, 1200, 1500]) {
    const [one, two] = [first(), recompile()];
    const alone = placeChartLabels([{ bars: one, markers: [] }], width);
    assert.ok(alone.size > 0, `${width} px: the first compile alone labelled`);
    const chart = placeChartLabels(
      [
        { bars: one, markers: [] },
        { bars: two, markers: [] },
      ],
      width,
    );
    assert.ok(
      one.some((b) => chart.has(b)),
      `${width} px: the first compile bare beside the recompile`,
    );
    assert.ok(
      two.some((b) => chart.has(b)),
      `${width} px: the recompile bare`,
    );
    // one way per phase per row: every labelled bar of a phase in it with its time, or every one by its name alone
    // (review 16Z Z9); another row's by its name alone where its time has no room (a wider panel never shortens a
    // name: review 16X X4)
    for (const row of [one, two])
      for (const phase of ['trace', 'guards']) {
        const ways = new Set(row.filter((b) => b.phase === phase && chart.has(b)).map((b) => chart.get(b)!.form));
        assert.ok(ways.size <= 1, `${width} px: ${phase} said ${ways.size} ways`);
      }
  }
});

test("a compile's costliest bar of a depth named by its name alone in it where its phase is said with its time on another row, that row keeping its time (review 14T T1, 16X X4)", () => {
  const backend = (from: number, to: number, ms: number): LaneBar => ({
    from,
    to,
    ms,
    startMs: from * 10000,
    phase: 'backend compile',
    lengths: [110, 80],
    nameOnly: 50,
  });
  // the first compile's backend compile, room for its time in it; the resumed frame's at the axis's end, a trace
  // sliver right before it: room in it for its name alone, none beside it
  const first = [backend(0.05, 0.6, 5560)];
  const resumed = [
    { ...backend(0.9, 0.905, 40), phase: 'trace', lengths: [90], nameOnly: 30 },
    backend(0.905, 0.97, 328),
  ];
  for (const width of [1000, 1400]) {
    const chart = placeChartLabels(
      [
        { bars: first, markers: [] },
        { bars: resumed, markers: [] },
      ],
      width,
    );
    const [big, late] = [chart.get(first[0]!), chart.get(resumed[1]!)];
    assert.ok(late?.inside, `${width} px: the resumed frame's backend compile unlabelled`);
    // by its name alone (its index: its lengths' count) where its time has no room in it, the first compile's
    // keeping its time (a wider panel never shortens a name: review 16X X4); with its time where it has
    assert.equal(late.form, width === 1000 ? 2 : 1, `${width} px`);
    assert.ok(big !== undefined && big.form < 2, `${width} px: ${JSON.stringify(big)}`);
  }
});

test('slivers (under 2 px) against a bar are its edge: its label beside them names it, where they stay slivers at every wider width (review 14R R1/R2)', () => {
  // train_small's "step, recompiled for x's size 48": a 0.5-px trace and a backend sliver right before its guards,
  // little room right of them: the guards named left of the slivers at 312 px (the 560-px panel's track), right of
  // themselves once there is room
  const step = (): LaneBar[] => [
    bar(9333, 19, AXIS, [250, 160, 70]),
    bar(9353, 0.35, AXIS, [160, 60]),
    bar(9354, 45.2, AXIS, [160, 106, 78]),
  ];
  for (const width of [312, 396, 816]) {
    const bars = step();
    const guards = placeLabels(bars, [], width).get(bars[2]!);
    assert.ok(guards && guards.at + 78 <= bars[0]!.from * width, `${width} px: ${JSON.stringify(guards)}`);
    assert.deepEqual(labelled(bars, width), new Set([2]), `${width} px: the slivers' own labels never there`);
  }
  // the trace a visible bar (2 px or more) between the label and the guards: not left of it
  const wideTrace = step();
  wideTrace[0] = bar(9300, 60, AXIS, [250, 160, 70]);
  const guards = placeLabels(wideTrace, [], 312).get(wideTrace[2]!);
  assert.ok(!guards || guards.at >= wideTrace[2]!.to * 312, JSON.stringify(guards));
});

test("slivers all as wide (drawn at the least width): a label beside them is the nearest one's only", () => {
  // the DDP job's first compile: an 87 ms trace, a restart and 29 ms of guards, each 0.5 px on a 57-s axis
  const ddp = (): LaneBar[] => [
    bar(1000, 86.6, 57148, [240], 'trace'),
    bar(1087, 0.66, 57148, [200], 'restart'),
    bar(1088, 28.6, 57148, [160], 'guards'),
  ];
  const bars = ddp();
  const places = placeLabels(bars, [], 312);
  for (const [own, place] of places) {
    const nearest = place.at >= bars[2]!.to * 312 ? bars[2] : place.at < bars[0]!.from * 312 ? bars[0] : own;
    assert.equal(own, nearest, JSON.stringify(place));
  }
  assert.ok(places.size > 0);
});

test("a costlier bar with room only for its name alone, its phase said with its time on another row: named so in its bar, its depth's cheaper bars named beside themselves (review 14R R1, 14T T1)", () => {
  const at = (from: number, to: number, ms: number, lengths: number[], phase: string, nameOnly?: number): LaneBar => ({
    from,
    to,
    ms,
    startMs: from * 1000,
    lengths,
    phase,
    ...(nameOnly === undefined ? {} : { nameOnly }),
  });
  // the phase said with its time on the first row (no shorter name to turn it to); on the second, its bar has room
  // for its name alone only (from a 650-px track), a bar against it either side; the cheaper bar's label has room
  // beside it from 920 px on, where the costlier one has a place only in a form the chart does not say it in

  const said = at(0.1, 0.5, 100, [100], 'P');
  const bare = at(0.6, 0.64, 100, [120], 'P', 20);
  const cheap = at(0.1, 0.105, 5, [400], 'Q');
  const lanes = [
    { bars: [said], markers: [] },
    {
      bars: [cheap, at(0.55, 0.5995, 10, [500], 'X'), bare, at(0.6405, 0.97, 20, [2000], 'Y')],
      markers: [],
    },
  ];
  const places = placeChartLabels(lanes, 1000);
  // the costlier bar by its name alone in its bar, its phase with its time on the other row (review 14T T1, 16X X4)
  assert.ok(places.has(said) && places.get(bare)?.form === 1, JSON.stringify([...places.values()]));
  assert.ok(places.get(cheap) && !places.get(cheap)!.inside, 'the cheaper bar named beside itself');
});

test('the phases of one part are said alike in a chart, all with their part or none: never "Dynamo: trace bytecode 31.3 ms" beside "build guards 57.6 ms" (review 15U R2)', () => {
  // a step's recompile: a trace with room in it for its longest form, then guards at the axis's end, room in them only
  // without their part up to 800 px
  const dynamo = (from: number, to: number, ms: number, phase: string, lengths: number[]): LaneBar => ({
    from,
    to,
    ms,
    startMs: from * 10000,
    phase,
    lengths,
    partSaid: [true, false, false, false],
  });
  const lanes = (): LaneBar[] => [
    dynamo(0.5, 0.75, 31.3, 'Dynamo: trace bytecode', [150, 100, 60]),
    dynamo(0.78, 0.97, 57.6, 'Dynamo: build guards', [150, 90, 60]),
  ];
  const seen = new Set<string>();
  for (const width of [700, 800, 900, 1000, 1200]) {
    const bars = lanes();
    const places = placeChartLabels([{ bars, markers: [] }], width);
    const forms = bars.map((b) => places.get(b)?.form);
    assert.ok(
      forms.every((f) => f !== undefined),
      `${width} px: both labelled`,
    );
    // each says its part (form 0) or neither does
    assert.ok(forms.every((f) => f === 0) || forms.every((f) => f !== 0), `${width} px: forms ${forms.join(', ')}`);
    seen.add(forms.join(','));
  }
  // without their part where the guards have no room with it (the trace has), with it where both have
  assert.deepEqual([...seen], ['1,1', '0,0']);
});

test('a wider panel never shortens a name: a bar that finds room at a wider width takes its phase in the form its phase is said in, or stays bare (review 16X X4: "build guards" at 1400 px, "guards" at 2000)', () => {
  // guards said with their part-less name on a wide bar; on another row, a narrow guards bar with room for the
  // shortest form only past some width
  const guards = (from: number, to: number, ms: number): LaneBar => ({
    from,
    to,
    ms,
    startMs: from * 10000,
    phase: 'guards',
    lengths: [160, 110, 70],
  });
  const hem = (from: number, to: number): LaneBar => ({
    from,
    to,
    ms: 1,
    startMs: from * 10000,
    phase: 'X',
    lengths: [9000],
  });
  const widths = [560, 700, 1000, 1400, 2000, 2800];
  let before = Infinity;
  for (const width of widths) {
    const [wide, narrow] = [guards(0.1, 0.5, 200), guards(0.9, 0.95, 20)];
    const places = placeChartLabels(
      [
        { bars: [wide], markers: [], row: 0 },
        // hemmed in by bars too cheap to be named: room only in it
        { bars: [hem(0.5, 0.9), narrow, hem(0.95, 0.97)], markers: [], row: 1 },
      ],
      width,
    );
    const form = places.get(wide)?.form;
    assert.ok(form !== undefined && form <= before, `${width} px: form ${form} after ${before}`);
    before = form;
  }
  assert.equal(before, 0, 'its longest form at the widest');
});

test('a row says a part for all its phases of it or none; with it where one of them has no form without it, its others unlabelled where they have no room for it (review 16X X4: "Inductor: codegen 61.4 s" over "load")', () => {
  const inductor = (phase: string, from: number, to: number, ms: number, lengths: number[], name: number): LaneBar => ({
    from,
    to,
    ms,
    startMs: from * 10000,
    phase,
    lengths,
    nameOnly: name,
    // its forms with their part, then without it, then its name alone without it; "Inductor: codegen" only with it
    partSaid: lengths.length === 1 ? [true, true] : [true, false, false],
  });
  for (const width of [560, 1000, 1400]) {
    const codegen = inductor('Inductor: codegen', 0.1, 0.6, 600, [150], 120);
    // room for its part-less forms only up to 1000 px, for its name alone at any width
    const load = inductor('Inductor: load module', 0.6, 0.7, 60, [1300, 100], 30);
    const places = placeChartLabels(
      [
        { bars: [codegen], markers: [], row: 0 },
        { bars: [load], markers: [], row: 0 },
      ],
      width,
    );
    assert.ok(places.has(codegen), `${width} px: codegen labelled`);
    const loadPlace = places.get(load);
    // never "load" under "Inductor: codegen"
    assert.ok(loadPlace === undefined || loadPlace.form === 0, `${width} px: ${JSON.stringify(loadPlace)}`);
  }
});

test('a label beside a cache diamond that lies between it and its bar stands apart from the diamond: never read as its name (review 16Z Z8)', () => {
  // a recompile's AOT Autograd at the axis's end, its cache miss's diamond at its start: room only left of the diamond
  const aot: LaneBar = { from: 0.9, to: 0.97, ms: 143, startMs: 9000, phase: 'AOT Autograd', lengths: [200] };
  for (const width of [1400, 2000]) {
    const place = placeLabels([aot], [aot.from], width).get(aot);
    assert.ok(place && !place.inside, `${width} px: ${JSON.stringify(place)}`);
    const diamondLeft = aot.from * width - 5;
    assert.ok(
      diamondLeft - (place.at + 200) >= 6,
      `${width} px: ${diamondLeft - (place.at + 200)} px from the diamond`,
    );
  }
});

test("a label beside the slivers before its bar keeps its place at every wider track: Counter's `self.calls == 2` recompile's and normalize's guards named from a 1400-px panel's 816-px track on (review 16Y Y5)", () => {
  // train_small's rows, at the axis's end: the traces before the guards under 2 px at 816 px, 2 px from about 1170
  // (`== 2`) and 910 px (normalize), where the guards, no room right of them, had no place
  const calls2 = (): LaneBar[] => [
    bar(10473.3, 18.9, AXIS, [241, 193, 143]),
    bar(10494.0, 5.1, AXIS, [212, 163, 114]),
    bar(10511.6, 69.8, AXIS, [154, 106, 78]),
  ];
  const normalize = (): LaneBar[] => [
    bar(10797.4, 23.9, AXIS, [168, 119, 69]),
    bar(10826.7, 0.6, AXIS, [135, 92]),
    bar(10829.1, 82.5, AXIS, [154, 106, 78]),
  ];
  for (const [name, row] of [
    ['== 2', calls2],
    ['normalize', normalize],
  ] as const)
    for (const width of [816, 1000, 1296, 2000]) {
      const bars = row();
      const guards = placeLabels(bars, [], width).get(bars[2]!);
      assert.ok(guards, `${name} at ${width} px: its guards bare`);
    }
});

test('a part is said alike down a chart: a row whose bars all have room for it drops it where another row drops it (review 17X X8: "Dynamo: whole frame 2.38 ms" among "whole frame 52.5 ms")', () => {
  const dynamo = (phase: string, from: number, to: number, ms: number, lengths = [150, 100]): LaneBar => ({
    from,
    to,
    ms,
    startMs: from * 10000,
    phase,
    lengths,
    partSaid: [true, false, false],
  });
  for (const width of [700, 1000, 1400]) {
    // the recompile limit's frame: its one bar wide, room for its part
    const limit = dynamo('Dynamo: whole frame', 0.1, 0.5, 2.38);
    // a step's recompile: its frame wide, its trace a sliver with no room for any form, so its row drops the part
    const frame = dynamo('Dynamo: whole frame', 0.5, 0.97, 52.5);
    const trace = dynamo('Dynamo: trace bytecode', 0.969, 0.97, 0.5, [9000, 8000]);
    const places = placeChartLabels(
      [
        { bars: [limit], markers: [], row: 0 },
        { bars: [frame], markers: [], row: 1 },
        { bars: [trace], markers: [], row: 1 },
      ],
      width,
    );
    assert.equal(places.get(trace), undefined, `${width} px: the sliver bare`);
    // both frames said without their part (form 1), as the row with the bare trace must be
    assert.deepEqual(
      [places.get(limit)?.form, places.get(frame)?.form],
      [1, 1],
      `${width} px: ${JSON.stringify([places.get(limit), places.get(frame)])}`,
    );
  }
});

test("a bar's label left of a cache diamond that reaches over the bar's end from just past it: train_small's 256 recompile's 1-px load from cache named at 560 and 700 px (review 17X X7: bare, 250 px free left of it)", () => {
  // its bar 1.1 px at 0.7785 of the track, the cache hit's diamond centred 0.5 px past its end
  for (const width of [396, 500, 816]) {
    const load: LaneBar = {
      from: 0.7785,
      to: 0.7813,
      ms: 32.2,
      startMs: 8500,
      phase: 'load from cache',
      lengths: [124],
    };
    const marker = 0.7818;
    const place = placeLabels([load], [marker], width).get(load);
    assert.ok(place && !place.inside, `${width} px: ${JSON.stringify(place)}`);
    // left of the diamond, apart from it (review 16Z Z8), or right of it
    const [diamondLeft, diamondRight] = [marker * width - 5, marker * width + 5];
    assert.ok(
      diamondLeft - (place.at + 124) >= 6 || place.at - diamondRight >= 6,
      `${width} px: ${JSON.stringify(place)} against the diamond`,
    );
  }
});

test("a label never past a cache diamond that stands apart from its bar: read as the diamond's name (review 16Z/17X Z8: 'lowering 188 ms ◇', the lowering bar 8 px on)", () => {
  // h100-mlp's first compile: the lowering bar hemmed in by codegen right after it, its cache miss's diamond 13 px
  // before it; room left of the diamond only
  for (const width of [300, 420, 560]) {
    const lowering: LaneBar = { from: 0.5, to: 0.52, ms: 188, startMs: 5000, phase: 'lowering', lengths: [80] };
    const codegen: LaneBar = { from: 0.52, to: 0.6, ms: 358, startMs: 5200, phase: 'codegen', lengths: [9000] };
    const marker = 0.5 - 13 / width;
    const place = placeLabels([lowering, codegen], [marker], width).get(lowering);
    assert.ok(
      place === undefined || place.at > marker * width,
      `${width} px: ${JSON.stringify(place)} before the diamond`,
    );
  }
});

test("a label beside its bar never over it, a cache diamond at the bar's start or end notwithstanding (h100's recompile: 'AOT Autograd 431 ms' drawn over its bar from its diamond on)", () => {
  for (const width of [420, 560, 700])
    for (const at of [-3, 0, 3, 12, 18]) {
      const aot: LaneBar = {
        from: 0.75,
        to: 0.75 + 20 / width,
        ms: 431,
        startMs: 7500,
        phase: 'AOT Autograd',
        lengths: [120],
      };
      const marker = 0.75 + at / width;
      const place = placeLabels([aot], [marker], width).get(aot);
      if (!place || place.inside) continue;
      const [x, end] = [aot.from * width, aot.to * width];
      assert.ok(
        place.at + 120 <= x || place.at >= end,
        `${width} px, diamond at +${at} px: ${JSON.stringify(place)} over [${x}, ${end}]`,
      );
    }
});
