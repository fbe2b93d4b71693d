// Which compile-phase bars of one depth are labelled (webview/phaseLabelLayout.ts), on constructed lanes: by cost,
// then room, the same bars at every wider track plus more (review 11K K1 / 11J J2 / 11I I4: Counter's 209 ms guards
// unnamed at 1360 px, its 30.1 ms trace named; named the other way round at 560), and the words that tell a row's
// phases of one name apart (review 11K K6 / 11J J7).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeLabels, type LaneBar } from '../../webview/phaseLabelLayout.ts';
import { phaseLabelForms } from '../../webview/timelineWords.ts';

/** A bar of `ms` at `startMs` on an axis of `axisMs` drawn over 97 % of the track (compilePhases.ts), at least 0.15 %
 *  wide; its forms `lengths` px long. */
function bar(startMs: number, ms: number, axisMs: number, lengths: number[]): LaneBar {
  const from = (startMs / axisMs) * 0.97;
  return { from, to: from + Math.max(0.0015, (ms / axisMs) * 0.97), ms, startMs, lengths };
}

/** train_small's "Counter: forward · 268 ms": two slivers of trace bytecode, then build guards, at the axis's end. */
const AXIS = 10913;
const counter = (): LaneBar[] => [
  bar(9964.8, 30.1, AXIS, [150, 95, 70]),
  bar(9999.5, 8.5, AXIS, [150, 95, 70]),
  bar(10019.8, 209.1, AXIS, [140, 85, 68]),
];

const labelled = (bars: LaneBar[], width: number, markers: number[] = []): Set<number> =>
  new Set([...placeLabels(bars, markers, width).keys()].map((b) => bars.indexOf(b)));

test("Counter's guards, 78 % of its compile, are named at every width, left of the trace slivers before them", () => {
  for (const width of [300, 420, 850, 1200]) {
    const bars = counter();
    const places = placeLabels(bars, [], width);
    const guards = places.get(bars[2]!);
    assert.ok(guards, `${width} px: ${JSON.stringify([...places.values()])}`);
    // left of its bar (no room right of it at the axis's end on a narrow track): left of the slivers before it too,
    // never between them and it
    if (width === 300) assert.ok(guards.at < bars[2]!.from * width, 'left of its bar');
    if (guards.at < bars[2]!.from * width)
      assert.ok(guards.at + bars[2]!.lengths[guards.form]! <= bars[0]!.from * width);
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
    assert.ok(before.size > 0, 'labelled at the widest');
  }
});

test("a cheaper bar's label never takes the room beside a costlier one left without: a first compile's trace", () => {
  // TinyTransformer's first compile: trace bytecode (520 ms, at the axis's start, its room taken by backend compile
  // right after it), backend compile, build guards after it; guards' room is not trace's, so guards is named
  const bars = [
    bar(20.8, 520.3, AXIS, [160, 80, 66]),
    bar(592.9, 7092.1, AXIS, [110, 66]),
    bar(7723.9, 53.9, AXIS, [150, 90, 68]),
  ];
  assert.deepEqual(labelled(bars, 850), new Set([1, 2]));
  // a trace sliver right before guards, which have no room: not named in the room guards' label would take
  const [trace, guards] = [bar(9000, 8, AXIS, [40]), bar(9009, 60, AXIS, [2000])];
  assert.deepEqual(labelled([trace, guards], 850), new Set());
});

test("a depth's costliest bar is named first: past the cheaper bars beside it, else no bar of its depth is", () => {
  // train_small's "Counter: forward after line 29": 43.4 ms of trace, 1.7 ms of backend, 57.3 ms of guards at the
  // axis's end; the trace is no sliver of the guards, yet the guards' label may lie left of it
  const afterLine29 = (): LaneBar[] => [
    bar(10413.8, 43.4, AXIS, [150, 95, 60]),
    bar(10457.4, 1.7, AXIS, [110, 55]),
    bar(10459.3, 57.3, AXIS, [150, 95, 65]),
  ];
  for (const width of [300, 420, 850, 1200]) {
    const bars = afterLine29();
    const places = placeLabels(bars, [], width);
    const guards = places.get(bars[2]!);
    assert.ok(guards, `${width} px: ${JSON.stringify([...places.values()])}`);
    // right of its bar where the track has room, else left of the trace: never between the two
    const end = guards.at + bars[2]!.lengths[guards.form]!;
    assert.ok(end <= bars[0]!.from * width || guards.at >= bars[2]!.to * width, `${width} px: ${guards.at}–${end}`);
    // on a narrow track, left of the trace, which then has no room of its own
    if (width <= 420) assert.deepEqual(labelled(bars, width), new Set([2]), `${width} px`);
  }
  // the costliest with no room for any form, cheaper ones with room in them: none of them
  const boxed = [bar(100, 40, 1000, [30]), bar(150, 300, 1000, [2000]), bar(600, 200, 1000, [30])];
  assert.deepEqual(labelled(boxed, 400), new Set());
  assert.deepEqual(labelled([boxed[0]!, boxed[2]!], 400), new Set([0, 1]));
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
