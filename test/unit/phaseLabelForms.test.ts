// Which form a compile-phase bar's label takes (webview/phaseLabelLayout.ts), on constructed lanes: the runner's names
// for it, one form per phase down a chart, its count "(1 of 2)" or its part said alike, its name alone in its bar, and
// the words that tell a row's phases of one name apart (review 11K K6 / 11J J7).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LaneBar } from '../../webview/phaseLabelLane.ts';
import { placeChartLabels } from '../../webview/phaseLabelLayout.ts';
import { phaseLabelForms } from '../../webview/timelineWords.ts';
import { bar } from './phaseLabelBars.ts';

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
  // which of `first` and the two timed bars, each on a row of its own, are labelled
  const labelledBeside = (first: LaneBar): boolean[] => {
    const chart = placeChartLabels(
      [{ bars: [first], markers: [] }, ...timed.map((b) => ({ bars: [b], markers: [] }))],
      1000,
    );
    return [first, ...timed].map((b) => chart.has(b));
  };
  assert.deepEqual(labelledBeside(named), [true, false, false]);
  const cheap = { ...bar(0, 150, 10000, [2000, 2000], 'trace'), nameOnly: 20 };
  assert.deepEqual(labelledBeside(cheap), [false, true, true]);
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
