// The axis's step labels (webview/timelineText.ts axisLayout): every step in view labelled where a label saying what
// it counts fits, steps too close for a label each one label for the run of them ("steps 2–3"), never a bare number
// (review 17Y Y8), none cut and none past the pane's edge, the step the view begins inside
// named at its left; the stretch before the trace's
// first step named, not a negative time; and the marks' lane (webview/overlays.ts markTexts): the focused mark labelled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TimelineMark } from '../../extension/shared/trace/timelineMarks.ts';
import { markTexts } from '../../webview/overlays.ts';
import { shortestFit } from '../../webview/markLabelForms.ts';
import { scaleLinear } from 'd3';
import {
  axisLayout,
  axisTicks,
  LABEL_WIDTH,
  partsSaidAlike,
  sliceLabel,
  type Measure,
  type StepEdge,
} from '../../webview/timelineText.ts';

/** 6 px a character. */
const m: Measure = { width: (text) => 6 * text.length, ascent: 8, descent: 3 };
const ink = { colour: '#000', alpha: 1 };

/** The step labels drawn for step lines at `xs` (steps 1, 2, …); `begun`: the view begins inside step 1, at `left`. */
const stepTexts = (xs: number[], width: number, left = 0, begun = false): { text: string; x: number; w: number }[] => {
  const steps: StepEdge[] = xs.map((x, k) => ({
    x,
    label: `step ${k + 1}`,
    short: String(k + 1),
    before: k === 0 && !begun ? 'before step 1' : null,
    ...(k === 0 && begun ? { begun } : {}),
  }));
  const { texts, lines } = axisLayout([], steps, { left, width, height: 100 }, m, ink, []);
  // a line for each step begun in view, none for the one begun before it
  assert.equal(lines.length, xs.length - (begun ? 1 : 0));
  return texts.map(({ text, x, w }) => ({ text, x, w }));
};
const stepLabels = (xs: number[], width: number, left = 0, begun = false): string[] =>
  stepTexts(xs, width, left, begun).map((t) => t.text);

/** A mark of the marks' lane on track 0, with no compile id. */
const mark = (kind: TimelineMark['kind'], startUs: number, durUs: number, label: string): TimelineMark => ({
  kind,
  startUs,
  durUs,
  label,
  compileId: null,
  track: 0,
});

test("a tick at the right edge with no room for its label is not drawn, rather than drawn with no number (review 12 M10: '1.5 s │ … │')", () => {
  const ticks = [0, 100, 200, 300, 390].map((x, k) => ({ x, label: `${(k * 0.5).toFixed(1)} s` }));
  const { texts, lines } = axisLayout(ticks, [], { left: 0, width: 400, height: 100 }, m, ink, []);
  // "2.0 s" (30 px) right of x 390 runs past 400: neither it nor its tick
  assert.deepEqual(
    texts.map((t) => t.text),
    ['0.0 s', '0.5 s', '1.0 s', '1.5 s'],
  );
  assert.deepEqual(
    lines.map((l) => l.x),
    [0, 100, 200, 300],
  );
});

test("the tail after the trace's last step named right of its end line, as the lead-in is left of the first, whole or not at all", () => {
  // review 15W W9: "before call 0" at the left, nothing after call 2's end line though ops ran there
  const steps: StepEdge[] = [0, 100].map((x, k) => ({ x, label: `call ${k}`, short: String(k), before: null }));
  const said = (endX: number, width: number): string[] =>
    axisLayout([], steps, { left: 0, width, height: 100 }, m, ink, [], { x: endX, label: 'after call 1' }).texts.map(
      (t) => t.text,
    );
  assert.deepEqual(said(200, 300), ['call 0', 'call 1', 'after call 1']);
  // its pad at the pane's edge given up: 72 px from 204 ends at the edge
  assert.deepEqual(said(200, 276), ['call 0', 'call 1', 'after call 1']);
  // no room for it whole before the pane's edge: beside call 1's own label "after it" (review 18Y Y10: ≈57 px of
  // launches after call 2 unnamed), never "after…"
  assert.deepEqual(said(200, 270), ['call 0', 'call 1', 'after it']);
  // none where even that has no room
  assert.deepEqual(said(200, 250), ['call 0', 'call 1']);
  // nor over the last step's label
  assert.deepEqual(said(110, 300), ['call 0', 'call 1']);
  // nor "after it" beside a label of more than the last step ("calls 0–1"): it would say which
  const close: StepEdge[] = [0, 10].map((x, k) => ({ x, label: `call ${k}`, short: String(k), before: null }));
  const tail = { x: 200, label: 'after call 1' };
  assert.deepEqual(
    axisLayout([], close, { left: 0, width: 270, height: 100 }, m, ink, [], tail).texts.map((t) => t.text),
    ['calls 0–1'],
  );
});

test('room for every whole label: each whole', () => {
  assert.deepEqual(stepLabels([0, 100, 200], 400), ['step 1', 'step 2', 'step 3']);
});

test('the warm-up step says so where its label fits, else its plain label; the steps after it whole', () => {
  const edges = (xs: number[]): StepEdge[] =>
    xs.map((x, k) => ({
      x,
      label: `step ${k + 1}`,
      short: String(k + 1),
      before: null,
      ...(k === 0 ? { warmUp: 'warm-up step 1' } : {}),
    }));
  const labels = (xs: number[], width: number): string[] =>
    axisLayout([], edges(xs), { left: 0, width, height: 100 }, m, ink, []).texts.map((t) => t.text);
  assert.deepEqual(labels([0, 100, 200], 400), ['warm-up step 1', 'step 2', 'step 3']);
  assert.deepEqual(labels([0, 100, 130], 400), ['warm-up step 1', 'steps 2–3']);
  // too narrow for "warm-up step 1" (84 px): "step 1"
  assert.deepEqual(labels([0, 60, 200], 400), ['step 1', 'step 2', 'step 3']);
});

test('a step too narrow for its whole label: one label for it and the steps after it, never its number alone (review 17Y Y8: a bare "2–3" beside a time axis read as times)', () => {
  assert.deepEqual(stepLabels([0, 100, 120, 140], 500), ['step 1', 'steps 2–4']);
  assert.deepEqual(stepLabels([0, 100, 120, 300], 500), ['step 1', 'steps 2–3', 'step 4']);
  assert.deepEqual(stepLabels([0, 100, 104, 150], 500), ['step 1', 'steps 2–4']);
  assert.deepEqual(stepLabels([0, 100, 104, 106, 300], 500), ['step 1', 'steps 2–4', 'step 5']);
  // the first ones too close for "step 1": the run said whole
  assert.deepEqual(stepLabels([0, 2, 4, 300], 500), ['steps 1–3', 'step 4']);
  // no room for "step 4" right of its line nor at the edge: it joins the label before, never a bare "4"
  assert.deepEqual(stepLabels([0, 2, 4, 70], 90), ['steps 1–4']);
});

test("the last step near the pane's edge: its whole label, ending at the edge where no room is right of its line, never begun left of its line", () => {
  assert.deepEqual(stepLabels([0, 440], 500), ['step 1', 'step 2']);
  // far from "step 1" measured from where its label would begin, as a label with room is (gpt_small at 1000 px:
  // "call 1 … │   2", the number at the edge 28 px right of its line)
  assert.deepEqual(stepLabels([0, 112], 150), ['step 1', 'step 2']);
  const [, last] = stepTexts([0, 112], 150);
  // its pad at the edge given up, a px of air left of it: it begins at its line
  assert.deepEqual(last, { text: 'step 2', x: 114, w: 36 });
  // no room from its line to the edge: it joins the label before, from that one's line, never shifted left over the
  // step before's bar (review 18Y Y6: "steps 2–3" begun 13 px left of step 2's line at 700 px, inside step 1), nor
  // a lone "2" (review s29)
  assert.deepEqual(stepLabels([0, 480], 500), ['steps 1–2']);
  assert.deepEqual(stepLabels([0, 100, 120, 480], 500), ['step 1', 'steps 2–4']);
  assert.deepEqual(stepLabels([0, 497], 500), ['steps 1–2']);
  assert.deepEqual(stepLabels([0, 100, 496, 498], 500), ['step 1', 'steps 2–4']);
  // 700 px's eager pane (review 18Y Y6): steps 2 and 3 16 px apart, 31 px before the edge; "steps 2–3" is 54 px
  assert.deepEqual(stepLabels([273, 620, 636], 651), ['before step 1', 'steps 1–3']);
  // no room for the joined label either: none, never one begun left of its line
  assert.deepEqual(stepLabels([0, 20, 40], 50), []);
});

test('every step label begins right of its own line, at any width', () => {
  for (let width = 60; width <= 520; width += 7)
    for (const xs of [
      [0, 100, 120, 480],
      [0, 2, 4, 70],
      [10, 300, 310, 330],
      [0, 40, 45],
    ]) {
      const inView = xs.filter((x) => x < width);
      const lines = new Map<string, number>(inView.map((x, k) => [String(k + 1), x]));
      for (const { text, x } of stepTexts(inView, width))
        if (!text.startsWith('before')) {
          const first = /(\d+)/.exec(text)![1]!;
          assert.ok(x > lines.get(first)!, `${width} px: "${text}" at ${x}, its line at ${lines.get(first)}`);
        }
    }
});

test("the steps begun in a line's pixel column after it: named by its label, none left unsaid (review s29)", () => {
  const steps: StepEdge[] = [
    { x: 0, label: 'step 1', short: '1', before: null, through: { label: 'step 2', short: '2' } },
    { x: 300, label: 'step 3', short: '3', before: null },
  ];
  const { texts } = axisLayout([], steps, { left: 0, width: 500, height: 100 }, m, ink, []);
  assert.deepEqual(
    texts.map((t) => t.text),
    ['steps 1–2', 'step 3'],
  );
});

test('the step the view begins inside: named at the left edge, with no line', () => {
  assert.deepEqual(stepLabels([10, 200], 400, 10, true), ['step 1', 'step 2']);
  assert.deepEqual(stepLabels([10, 30], 400, 10, true), ['steps 1–2']);
});

test('the stretch before the first step: "before step 1" left of its line where it fits, else nothing', () => {
  assert.deepEqual(stepLabels([200, 400], 600, 0), ['before step 1', 'step 1', 'step 2']);
  // never a bare "before": beside the step's line it read as a stray word (review 8B B12)
  assert.deepEqual(stepLabels([50, 400], 600, 0), ['step 1', 'step 2']);
  // over the recorded time before the line only, never the blank axis left of it (review 21Y Y3: 11 px before the
  // profiled window began); "before step 1" is 78 px wide, with its pads 84
  const withRecordedFrom = (fromX: number): string[] =>
    axisLayout(
      [],
      [
        { x: 200, label: 'step 1', short: '1', before: 'before step 1', beforeFromX: fromX },
        { x: 400, label: 'step 2', short: '2', before: null },
      ],
      { left: 0, width: 600, height: 100 },
      m,
      ink,
      [],
    ).texts.map((t) => t.text);
  assert.deepEqual(withRecordedFrom(100), ['before step 1', 'step 1', 'step 2']);
  assert.deepEqual(withRecordedFrom(130), ['step 1', 'step 2']);
});

test("the marks' lane: the focused break keeps its label; a band begun off-screen does not take the lane from it", () => {
  const ink = { colour: '#000', alpha: 1 };
  const brk = (startUs: number, durUs: number, label: string): TimelineMark =>
    mark('graph-break', startUs, durUs, label);
  // the view is 100–600 µs at 1 px/µs, its lane from x = 100: line 20's band began at 0, line 22's at 130
  const marks = [
    brk(0, 400, 'graph break at line 20, in forward: eager code between graphs'),
    brk(130, 5, 'graph break at line 22'),
  ];
  const said = (focused: { startUs: number; durUs: number }[]): string[] =>
    markTexts(marks, 30, 100, 600, (t) => t, m, ink, [ink], focused).map((t) => t.text);
  assert.ok(said([{ startUs: 130, durUs: 5 }]).includes('graph break at line 22'), said([]).join(' | '));
  // unfocused, the mark that begins in view is labelled whole, the one begun off-screen only where room is left
  assert.ok(said([]).includes('graph break at line 22'), said([]).join(' | '));
  for (const box of markTexts(marks, 30, 100, 600, (t) => t, m, ink, [ink]))
    assert.ok(box.x >= 100 && box.x + box.w <= 600, `${box.text} at ${box.x}`);
});

test("a graph break's label too long for its room: the break and its line first, what its band spans dropped", () => {
  // review 8B B1: "Python between graphs, no op recorded: graph break at line 20, …" was cut to "Python b…"
  const label = 'graph break at line 22, in forward after line 20: eager code between graphs';
  const fit = (room: number): string | null => shortestFit(label, 'graph-break', room, m);
  assert.equal(fit(6 * 48), 'graph break at line 22, in forward after line 20');
  assert.equal(fit(6 * 30), 'graph break at line 22');
  // then which break it is in fewest words; none where that does not fit: "graph bre…" and "graph…" say not which
  // (review 11 I6)
  assert.equal(fit(6 * 16), 'break at line 22');
  assert.equal(fit(6 * 10), null);
  assert.equal(fit(6 * 7), null);
  // a trace without its report: the compiled call by its place is dropped first, then said by its number
  assert.equal(
    shortestFit('graph break in 1st compiled call (convolution, …): Python between graphs', 'graph-break', 6 * 12, m),
    'break 1',
  );
});

test("the marks' lane: each CUDA-graph replay's label inside its own call, never across the next call's line", () => {
  // review 5A G5 (mlp-reduce-overhead, zoomed): each call's replay near its end, the next call's line just after it;
  // the labels began at their marks and ran across the next line, and the last replay had none
  const replay = (startUs: number): TimelineMark => mark('cudagraph-replay', startUs, 2, 'CUDA-graph replay');
  const stepXs = [110, 400, 495];
  const marks = [replay(330), replay(455), replay(545)];
  const boxes = markTexts(marks, 30, 100, 600, (t) => t, m, ink, [ink], [], stepXs);
  // each from its mark (review 9 D5: never moved left of it), cut to its call; none where even "CUDA-graph…" does
  // not fit before the next line (the hover says it)
  assert.deepEqual(
    boxes.map((b) => [b.text, b.x]),
    [['CUDA-graph…', 331]],
  );
  for (const [k, box] of boxes.entries()) {
    const mark = marks[k]!;
    const own = [stepXs.filter((x) => x <= mark.startUs).at(-1)!, stepXs.find((x) => x > mark.startUs) ?? 600];
    assert.ok(box.x > own[0]! && box.x + box.w < own[1]!, `label ${k} "${box.text}" at ${box.x}–${box.x + box.w}`);
  }
});

test("the marks' lane: a label begins at its mark or not at all, never moved left of it to fit", () => {
  // review 9 D5/E3 (cpu-graphbreak, step view): three breaks near their step's end were labelled "graph break" at
  // the step's start and 300 and 600 µs on, over ordinary ops, 300–800 µs left of their stripes
  const brk = (startUs: number): TimelineMark =>
    mark(
      'graph-break',
      startUs,
      4,
      'graph break in 1st compiled call in the step (convolution, …): Python between graphs, no op recorded',
    );
  const stepXs = [110, 560];
  // (50 px apart: room for each one's "break N" before the next band, which none runs over: review 14 S7)
  const marks = [brk(400), brk(450), brk(500)];
  const boxes = markTexts(marks, 30, 100, 600, (t) => t, m, ink, [ink], [], stepXs);
  assert.ok(boxes.length > 0, 'the first break keeps a label');
  for (const box of boxes) {
    const mark = marks.filter((k) => k.startUs <= box.x).at(-1);
    assert.ok(mark && box.x - mark.startUs <= 12, `"${box.text}" at ${box.x}, its mark not under it`);
    assert.ok(box.x + box.w <= 560, `"${box.text}" runs across the next step's line`);
  }
  // the one at the right edge: cut from its mark, not moved left to end there whole
  const edge = markTexts([brk(520)], 30, 100, 600, (t) => t, m, ink, [ink]);
  assert.ok(
    edge.every((box) => box.x >= 520),
    edge.map((b) => `${b.text} at ${b.x}`).join(' | '),
  );
});

test("the marks' lane: a break's label ends before a collective another thread runs, its band's time a wait there", () => {
  // review 9 D4 (ddp, rank 0): "graph break …: eager code between graphs" ran over the 2 s that its gloo thread
  // spent in all_reduce waiting for rank 1's recompile
  const brk = mark('graph-break', 200, 380, 'graph break in 1st compiled call in the step: eager code between graphs');
  const said = (busy: { track: number; x0: number; x1: number }[]): { text: string; x: number; w: number }[] =>
    markTexts([brk], 30, 100, 800, (t) => t, m, ink, [ink], [], [], busy);
  // alone, whole from its mark
  assert.deepEqual(
    said([]).map((b) => b.text),
    [brk.label],
  );
  // the collective on another thread from 260: cut before it
  const cut = said([{ track: 2, x0: 260, x1: 580 }]);
  assert.ok(
    cut.every((b) => b.x >= 200 && b.x + b.w <= 260),
    cut.map((b) => `${b.text} at ${b.x}–${b.x + b.w}`).join(' | '),
  );
  // from the break on: no room, no label
  assert.deepEqual(said([{ track: 2, x0: 195, x1: 580 }]), []);
  // the break's own thread's ops are its eager code: they leave it whole
  assert.deepEqual(
    said([{ track: 0, x0: 260, x1: 580 }]).map((b) => b.text),
    [brk.label],
  );
});

test('one op said one way at every width and in every view: its namespace left out of its label wherever it fits', () => {
  // review 10 G7: "all_reduce" at 1400 px, "gloo:all_reduce" at 700 px and in the step view, of one trace's op
  for (const room of [40, 100, 400])
    assert.deepEqual(
      [sliceLabel('gloo:all_reduce', room, m), sliceLabel('aten::linear', room, m)],
      room === 40 ? [null, 'linear'] : ['all_reduce', 'linear'],
      `${room} px`,
    );
  assert.equal(sliceLabel('aten::addmm', 6, m), null);
});

test('a slice label cut at whole words, never to part of a word nor to words that lead nowhere (review 14 R3, S8)', () => {
  // "add…" of addmm read as the fused-away add; "chec…" said nothing: a name with no whole word that fits, none
  assert.equal(sliceLabel('aten::addmm', 66, m), 'addmm');
  assert.equal(sliceLabel('aten::addmm', 24, m), null);
  assert.equal(sliceLabel('aten::addmm_with_a_long_tail', 60, m), null);
  assert.equal(sliceLabel('autograd::engine::evaluate_function: AddmmBackward0', 60, m), null);
  assert.equal(sliceLabel("checking the compiled code's guards", 30, m), null);
  assert.equal(sliceLabel("checking the compiled code's guards", 60, m), 'checking…');
  // nor a possessive, a preposition or a conjunction last: "Inductor's …", "code of…", "compiled nor…"
  assert.equal(sliceLabel("Inductor's code of forward", 150, m), "Inductor's code…");
  assert.equal(sliceLabel("Inductor's code of forward", 90, m), null);
  assert.equal(sliceLabel('compiled forward, recompiled for x', 120, m), 'compiled forward…');
  assert.equal(
    sliceLabel('1st compiled call in the step (convolution, relu)', 250, m),
    '1st compiled call in the step…',
  );
  // one ellipsis form, right after the last word: "addmm's backward…", never "addmm's …"
  assert.equal(sliceLabel("addmm's backward (autograd)", 120, m), "addmm's backward…");
  assert.equal(sliceLabel("addmm's backward (autograd)", 60, m), null);
  // so autograd's record says what it is first: an 85-px bar keeps "backward…" (review 15W W5: blank)
  assert.equal(sliceLabel('backward of addmm (autograd)', 79, m), 'backward…');
  // a name whose colon is followed by a space is no namespace
  assert.equal(sliceLabel('Dynamo: compile', 200, m), 'Dynamo: compile');
});

test("a slice label's cut keeps a word of the phase's own name, never its part alone (review 17Y Y7)", () => {
  // "Inductor…" of "Inductor: codegen and load" read as the "Inductor" bar one row up
  const name = 'Inductor: codegen and load';
  assert.equal(sliceLabel(name, 6 * 26, m), name);
  // its own name whole before a cut: "Inductor: codegen…" read as its child "Inductor: codegen" below it
  assert.equal(sliceLabel(name, 6 * 18, m), 'codegen and load');
  assert.equal(sliceLabel(name, 6 * 15, m), 'codegen…');
  assert.equal(sliceLabel(name, 6 * 7, m), null);
  // where its own name has no room whole, its own name cut: never the part kept and the name cut away ("Inductor:
  // lower…" over "codegen and load": review 19Y Y4)
  const waiting = 'Inductor: waiting for kernel compiles';
  assert.equal(sliceLabel(waiting, 6 * 20, m), 'waiting for kernel…');
  assert.equal(sliceLabel(waiting, 6 * 15, m), 'waiting…');
  // a phrase before a colon is no part: the profiler's work keeps the frames it ran in (labelInk's "CUDA set-up")
  const work = "inside CUDA set-up, the profiler's own work: a buffer for the GPU's activity records";
  assert.equal(sliceLabel(work, 6 * 40, m), "inside CUDA set-up, the profiler's own…");
});

test("a row's labels of one phase leave its part off alike: the forward's 'load module' never beside the backward's 'Inductor: load module' (review 18Y, 17Z Z9)", () => {
  const load = 'Inductor: load module';
  const waiting = 'Inductor: waiting for kernel compiles';
  const labels = [
    // ddp rank 1 at 560 px: the forward's bars narrower than the backward's
    { name: load, row: 100, room: 6 * 16 },
    { name: load, row: 100, room: 6 * 30 },
    { name: waiting, row: 116, room: 6 * 20 },
    { name: waiting, row: 116, room: 6 * 40 },
    // another row's bar of the name keeps its own form
    { name: load, row: 132, room: 6 * 30 },
    { name: 'aten::addmm', row: 100, room: 6 * 5 },
  ].map((l) => ({ ...l, text: sliceLabel(l.name, l.room, m) }));
  assert.deepEqual(
    labels.map((l) => l.text),
    ['load module', load, 'waiting for kernel…', waiting, load, 'addmm'],
  );
  // (one cut: the others' own name whole)
  assert.deepEqual(partsSaidAlike(labels), [
    'load module',
    'load module',
    'waiting for kernel…',
    'waiting for kernel compiles',
    load,
    'addmm',
  ]);
});

test("one view's axis reads in one unit at every width: a 3.6 ms call in ms at 560 px and at 1400 px (review 8B B6)", () => {
  const units = [560, 700, 1400].map((width) => {
    const scale = scaleLinear().domain([0, 3600]).range([LABEL_WIDTH, width]);
    const { ticks, say } = axisTicks(scale, width);
    return [...new Set(ticks.map((t) => say(t).split(' ')[1]))];
  });
  assert.deepEqual(units, [['ms'], ['ms'], ['ms']]);
  const wide = scaleLinear().domain([0, 3600]).range([LABEL_WIDTH, 1400]);
  assert.equal(axisTicks(wide, 1400).say(500), '0.5 ms');
});

test("the marks' lane: where a recompile and breaks compete for one place, the longest recompile keeps its label", () => {
  // review 10H H1 / 10G G3 (ddp, rank 1, the whole trace at 560 and 700 px): step 1's 64 µs break, labelled first as
  // the leftmost, "graph break in 1st compiled call in the step: eager code between graphs", ran over the 2 s
  // recompile that stalled the job, and took its place. The marks of that trace (µs from its start), 2.135 s in 500 px
  const marks = [
    mark('graph-break', 332, 64, 'graph break in 1st compiled call in the step: eager code between graphs'),
    mark('graph-break', 407, 6, 'graph break in 2nd compiled call in the step: Python between graphs, no op recorded'),
    mark('recompile', 3473, 59939, '1st compiled call in the step, recompile 1'),
    mark(
      'graph-break',
      63521,
      146,
      'graph break in 1st compiled call in the step, recompile 1: eager code between graphs',
    ),
    mark(
      'graph-break',
      63696,
      5,
      'graph break in 2nd compiled call in the step: Python between graphs, no op recorded',
    ),
    mark('recompile', 64371, 2067416, '5th compiled call in the step, recompile 1'),
  ];
  const xOf = (t: number): number => 100 + (t * 500) / 2_135_000;
  const boxes = markTexts(marks, 30, 100, 600, xOf, m, ink, [ink], [], [100, 599]);
  const said = boxes.map((b) => `${b.text} at ${b.x.toFixed(0)}`).join(' | ');
  const stall = boxes.find((b) => b.text === '5th compiled call in the step, recompile 1');
  assert.ok(stall && stall.x >= xOf(64371), said);
  // nothing else over its band: no break's "eager code between graphs", nor the other recompile's name
  for (const box of boxes.filter((b) => b !== stall)) assert.ok(box.x + box.w <= stall.x, said);
});
