// Where a compile-phase bar's label lies and which bars of one depth are labelled (webview/phaseLabelLayout.ts), on
// constructed lanes: by cost, then room, the same bars at every wider track plus more (review 11K K1 / 11J J2 / 11I I4:
// Counter's 209 ms guards unnamed at 1360 px, its 30.1 ms trace named; named the other way round at 560), in or beside
// its own bar, past the slivers at its edge, apart from the cache diamonds near it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LaneBar } from '../../webview/phaseLabelLane.ts';
import { AXIS, bar, counter, labelled, placeLabels } from './phaseLabelBars.ts';

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

test("a depth's costliest bar is named first, else no bar of its depth is, but where it has no place at all, or none it could keep at a wider width (review 14R R1, 20X X3)", () => {
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
    const places = placeLabels(bars, [], width);
    const guards = places.get(bars[2]!);
    if (guards) assert.ok(guards.at >= bars[2]!.to * width, `${width} px: ${JSON.stringify(guards)}`);
    // the trace left of its bar, past no other: at 300 and 420 px a sliver against the guards' as the eye takes them,
    // named all the same, the guards having no place at 850 px (no room right, the trace, 2 px wide, left), so none
    // they could keep here (review 20X X3: bare at 560/700 px with 275 px free, named at 1400)
    const trace = places.get(bars[0]!)!;
    assert.ok(trace.at + 150 <= bars[0]!.from * width, `${width} px: ${JSON.stringify(trace)}`);
  }
  assert.deepEqual(labelled(afterLine29(), 300), new Set([0]));
  assert.deepEqual(labelled(afterLine29(), 420), new Set([0]));
  assert.deepEqual(labelled(afterLine29(), 850), new Set([0]));
  assert.deepEqual(labelled(afterLine29(), 1200), new Set([0, 2]));
  // a step's 25.6-ms trace, its 38.2-ms guards a place they keep at every wider width (left of the trace sliver, then
  // right of their bar): the guards named, the trace not beside them while it is a sliver against them (review 12N N1:
  // the trace named at 560 px, the costlier guards bare)
  const step = (): LaneBar[] => [
    bar(9100, 25.6, AXIS, [150, 95, 60]),
    bar(9127, 0.35, AXIS, [110, 55]),
    bar(9128, 38.2, AXIS, [150, 95, 65]),
  ];
  for (const width of [300, 420, 560, 850]) assert.deepEqual(labelled(step(), width), new Set([2]), `${width} px`);
  assert.deepEqual(labelled(step(), 1200), new Set([0, 2]));
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

test("slivers of two colours against each other: neither named beside them, each said in its row's hover; of one colour, one is (review 19Z Z6)", () => {
  // timeline.png's "forward after line 13 · 452 ms" on a 7.03-s axis over a 785-px track: its 0.985-ms kernel codegen
  // and its load module, each drawn at the least width, the teal under the magenta: "Inductor: kernel codegen
  // 0.985 ms" beside them named the magenta bar to the eye
  const tail = (colours: [string, string]): LaneBar[] => [
    { ...bar(6990, 0.985, 7030, [190, 140]), colour: colours[0] },
    { ...bar(6991, 0.4, 7030, [170, 120]), colour: colours[1] },
  ];
  const twoColours = tail(['phase-codegen', 'phase-load']);
  assert.deepEqual(labelled(twoColours, 785), new Set(), 'two colours');
  const oneColour = tail(['phase-dynamo', 'phase-dynamo']);
  assert.equal(labelled(oneColour, 785).size, 1, 'one colour');
  // the other colour's sliver narrower: the mark is of the wider one's colour, its label beside them its (a step's
  // guards past a 0.5-px backend compile)
  const wider = [
    { ...bar(6990, 14, 7030, [190, 140]), colour: 'phase-dynamo' },
    { ...bar(6989.5, 0.3, 7030, [170, 120]), colour: 'phase-backend' },
  ];
  assert.deepEqual(labelled(wider, 785), new Set([0]), 'a narrower sliver of another colour');
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
