// The compiler's bands on a timeline and their labels (webview/overlays.ts): a label names its own band's event at
// every width, shortened, never another's; a break's band that a compile spans is the compile's; a band that ended
// before the view is not labelled; breaks close together each keep a label; a slice label is drawn
// clear of a band whose edge would cross it; a finding's outline stops at the profiled window's row as bands do.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TimelineMark } from '../../extension/shared/trace/timelineMarks.ts';
import type { TextBox } from '../../webview/frameLayout.ts';
import { clearLabelsOfBands, drawFocus, markHovers, markTexts } from '../../webview/overlays.ts';
import { shortestFit } from '../../webview/markLabelForms.ts';
import type { Theme } from '../../webview/theme.ts';
import type { Measure } from '../../webview/timelineText.ts';

/** 6 px a character. */
const m: Measure = { width: (text) => 6 * text.length, ascent: 8, descent: 3 };
const ink = { colour: '#000', alpha: 1 };

const mark = (kind: TimelineMark['kind'], startUs: number, durUs: number, label: string, track = 0): TimelineMark => ({
  kind,
  startUs,
  durUs,
  label,
  compileId: null,
  track,
});

/** The labels drawn for `marks` in a lane from x 100 to `width` at 1 px/µs, with step lines at `stepXs`. */
const said = (marks: TimelineMark[], width = 600, stepXs: number[] = []): { text: string; x: number; w: number }[] =>
  markTexts(marks, 30, 100, width, (t) => t, m, ink, [ink], [], stepXs).map(({ text, x, w }) => ({ text, x, w }));

/** A canvas that records what is painted: each rectangle filled or stroked, with its fill and alpha. */
function recordingCanvas(): {
  ctx: CanvasRenderingContext2D;
  filled: { x: number; y: number; w: number; h: number; colour: string; alpha: number }[];
  stroked: { x: number; y: number; w: number; h: number }[];
} {
  const filled: { x: number; y: number; w: number; h: number; colour: string; alpha: number }[] = [];
  const stroked: { x: number; y: number; w: number; h: number }[] = [];
  const state = { fillStyle: '', strokeStyle: '', globalAlpha: 1, lineWidth: 1 };
  const ctx = Object.assign(state, {
    fillRect: (x: number, y: number, w: number, h: number) =>
      filled.push({ x, y, w, h, colour: state.fillStyle, alpha: state.globalAlpha }),
    strokeRect: (x: number, y: number, w: number, h: number) => stroked.push({ x, y, w, h }),
    setLineDash: () => undefined,
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, filled, stroked };
}

/** what drawFocus paints with */
const theme = { warning: '#bf8803' } as unknown as Theme;

test("a recompile's label shortened names the recompile at every width, never its call alone", () => {
  // review 10H H1 / 10G G3 (ddp, rank 1): the 2 s recompile of the 4th call's frame; "shortest" was "4th compiled call"
  const trace = '4th compiled call in the step (addmm), recompile 1';
  const report = "forward, recompiled for x's size 8 in dimension 0";
  assert.equal(shortestFit(trace, 'recompile', 6 * 45, m), '4th compiled call in the step, recompile 1');
  assert.equal(shortestFit(trace, 'recompile', 6 * 20, m), 'recompile 1');
  assert.equal(shortestFit(report, 'recompile', 6 * 42, m), "recompiled for x's size 8 in dimension 0");
  assert.equal(shortestFit(report, 'recompile', 6 * 27, m), "recompiled for x's size 8…");
  for (let room = 6 * 9; room < 6 * 60; room += 6) {
    for (const label of [trace, report])
      assert.match(shortestFit(label, 'recompile', room, m) ?? '', /recompile/, `${label} in ${room} px`);
    assert.match(shortestFit('compile of forward', 'compile', room, m) ?? '', /^compile\b/, `compile in ${room} px`);
    // a compile's ": " is no clause to leave out
    assert.match(shortestFit('step: recompile limit hit, no graph', 'recompile', room, m) ?? '', /recompile/);
  }
});

test("a break's label shortened keeps which call it broke in while that fits, then which break it is", () => {
  // review 10G C10: "graph break in 1st compiled call in the step (convolution, …)" went straight to "graph break"
  const label =
    'graph break in 1st compiled call in the step (convolution, native_batch_norm, …): Python between graphs, no op recorded';
  assert.equal(shortestFit(label, 'graph-break', 6 * 50, m), 'graph break in 1st compiled call in the step');
  // then which break it is in whole words, never a cut of the long form: "graph break in 1st…" left "1st" what
  // (review 13 P4/Q9), else none
  for (const room of [6 * 14, 6 * 30, 6 * 38]) assert.equal(shortestFit(label, 'graph-break', room, m), 'break 1');
  assert.equal(shortestFit(label, 'graph-break', 6 * 6, m), null);
  const atLine = 'graph break at line 22, in forward after line 20: eager code between graphs';
  assert.equal(shortestFit(atLine, 'graph-break', 6 * 25, m), 'graph break at line 22');
  assert.equal(shortestFit(atLine, 'graph-break', 6 * 20, m), 'break at line 22');
  assert.equal(shortestFit(atLine, 'graph-break', 6 * 15, m), null);
  // a break its label names no call of: cut between words, never on a little word, then "graph break" whole or none
  const inForward = 'graph break in forward after line 20 of the model: eager code between graphs';
  assert.equal(shortestFit(inForward, 'graph-break', 6 * 40, m), 'graph break in forward after line 20…');
  assert.equal(shortestFit('graph break in forward', 'graph-break', 6 * 12, m), 'graph break');
  assert.equal(shortestFit('graph break in forward', 'graph-break', 6 * 8, m), null);
});

test('a thread\'s breaks are said in one scheme: where one is "break N", its neighbours too', () => {
  // review 13 P4 (cpu-graphbreak 1400 px, step view): "break 1", "break 2", "graph break in 3rd…" side by side
  const brk = (startUs: number, nth: string, track = 0): TimelineMark =>
    mark('graph-break', startUs, 20, `graph break in ${nth} compiled call in the step: Python between graphs`, track);
  const texts = said([brk(300, '1st'), brk(350, '2nd'), brk(400, '3rd')], 600, [100, 560]).map((t) => t.text);
  assert.deepEqual(texts.slice().sort(), ['break 1', 'break 2', 'break 3']);
  // a break alone with room says itself whole; another thread's breaks keep their own scheme
  const wide = said([brk(300, '1st'), brk(350, '2nd'), brk(400, '3rd', 1)], 800, [100, 760]).map((t) => t.text);
  assert.deepEqual(wide.slice().sort(), ['break 1', 'break 2', 'graph break in 3rd compiled call in the step']);
});

test('a break\'s band with no room for "break 1" before its step\'s line says what it is alone, inside the band, the widest first', () => {
  // review 12 I6 (cpu-graphbreak's whole trace at 560 px): step 1's widest band, 36 px before the step line at
  // 301.5, unlabelled: "break 1" (7 characters, 42 px) has no room, the band's 36 px hold "break" (its number alone,
  // "1", read as the step's under the ruler's "step 1"; the hover says which)
  const brk = (startUs: number, durUs: number, nth: string): TimelineMark =>
    mark('graph-break', startUs, durUs, `graph break in ${nth} compiled call in the step: Python between graphs`);
  const wide = brk(260, 36, '1st');
  // (the two narrow bands abutting it read as one band with it: named by its label, review 14 S7)
  const texts = said([wide, brk(296, 2, '2nd'), brk(298, 2, '3rd')], 600, [248.7, 301.5]);
  assert.deepEqual(texts, [{ text: 'break', x: 261, w: 30 }]);
  // inside its band and before its step's line, never across it
  for (const t of texts) assert.ok(t.x + t.w <= 296 && t.x + t.w <= 301.5 - 3, JSON.stringify(t));
  // with room for "break 1", that (one form for every break of the lane that has it)
  assert.deepEqual(
    said([brk(260, 36, '1st')], 600, [248.7, 320]).map((t) => t.text),
    ['break 1'],
  );
  // a break named by its line: the line alone; one its label names no more of ("graph break"): none
  const atLine = mark('graph-break', 260, 45, 'graph break at line 22, in forward: eager code between graphs');
  assert.deepEqual(
    said([atLine], 600, [248.7, 315]).map((t) => t.text),
    ['line 22'],
  );
  assert.deepEqual(said([mark('graph-break', 260, 36, 'graph break in forward')], 600, [248.7, 301.5]), []);
  // a number with no room inside its band: none (a label beside the band reads as another place's)
  assert.deepEqual(said([brk(260, 5, '1st')], 600, [248.7, 301.5]), []);
  // the lane's hover says each band's whole label, the narrowest first where bands overlap
  assert.deepEqual(
    markHovers([wide, mark('recompile', 250, 100, 'forward, recompile 1')], 100, 600, (t) => t),
    [
      { x0: 260, x1: 296, hover: wide.label },
      { x0: 250, x1: 350, hover: 'forward, recompile 1' },
    ],
  );
});

test("a break's band that a compile spans is labelled by the compile alone; one it overlaps says no eager code", () => {
  const recompile = mark('recompile', 200, 300, 'forward, recompile 1');
  const inside = mark('graph-break', 250, 20, 'graph break in forward: eager code between graphs');
  const across = mark('graph-break', 480, 60, 'graph break in helper: eager code between graphs');
  const texts = said([recompile, inside, across], 1000).map((t) => t.text);
  assert.deepEqual(texts.sort(), ['forward, recompile 1', 'graph break in helper']);
  // on another thread the compile spans none of its time: the break is said whole
  const elsewhere = { ...inside, track: 1 };
  assert.ok(said([recompile, elsewhere], 1000).some((t) => t.text === elsewhere.label));
});

test("a band that ended before the view: no label at the lane's left naming it", () => {
  // review 10G C10 (cpu-graphbreak, step 2 in view): step 1's break, ended 390 µs before the view, drew a 3 px band
  // at the left edge and "graph break in 1st compiled call in the step (convolution, …)" over step 2's first ops
  const gone = mark('graph-break', 20, 50, 'graph break in 1st compiled call in the step: eager code between graphs');
  const here = mark('graph-break', 300, 10, 'graph break in 2nd compiled call in the step: eager code between graphs');
  assert.deepEqual(
    said([gone, here]).map((t) => t.x),
    [301],
  );
});

test("breaks close together each keep a label over their own band, in one scheme, none over another's", () => {
  // review 10G C10 (cpu-graphbreak, step view at 1400 px): three breaks 50 px apart; the middle one had no label
  const brk = (startUs: number, nth: string): TimelineMark =>
    mark('graph-break', startUs, 20, `graph break in ${nth} compiled call in the step: Python between graphs`);
  const marks = [brk(300, '1st'), brk(350, '2nd'), brk(400, '3rd')];
  const texts = said(marks, 600, [100, 560]);
  assert.equal(texts.length, 3, JSON.stringify(texts));
  for (const [k, t] of texts.sort((a, b) => a.x - b.x).entries()) {
    assert.ok(t.x > marks[k]!.startUs && t.x - marks[k]!.startUs <= 12, JSON.stringify(t));
    assert.ok(k === 2 || t.x + t.w <= marks[k + 1]!.startUs, `${t.text} runs over the next break's band`);
  }
  // the last, with room for more, said as its neighbours are (review 13 P4)
  assert.deepEqual(
    texts.map((t) => t.text),
    ['break 1', 'break 2', 'break 3'],
  );
});

test("a thread's breaks in one step too close for a label each: none named, none over another's band (review 14 S7)", () => {
  // cpu-graphbreak's step view at 700 px: bands 20 px apart, "break 1" ran over band 2, which had none, then "break 3"
  const brk = (startUs: number, nth: string, track = 0): TimelineMark =>
    mark('graph-break', startUs, 8, `graph break in ${nth} compiled call in the step: Python between graphs`, track);
  assert.deepEqual(said([brk(300, '1st'), brk(320, '2nd'), brk(340, '3rd')], 600, [100, 560]), []);
  // another thread's break too (the lane is one for all of a pane's threads); one in another step keeps its label
  assert.deepEqual(said([brk(300, '1st'), brk(320, '2nd'), brk(340, '3rd', 1)], 600, [100, 560]), []);
  assert.deepEqual(
    said([brk(300, '1st'), brk(320, '2nd'), brk(400, '3rd')], 600, [100, 380, 560]).map((t) => t.text),
    ['break 3'],
  );
  // bands a few px apart read as as many bands, in the all-steps view as in the step view: a wide band's "break 1"
  // beside two thin ones 3 and 8 px right of it, unnamed, read as the step's one break (review 15 V2)
  const wide = mark('graph-break', 300, 36, 'graph break in 1st compiled call in the step: Python between graphs');
  assert.deepEqual(said([wide, brk(339, '2nd'), brk(352, '3rd')], 600, [100, 560]), []);
  assert.deepEqual(
    said([wide], 600, [100, 560]).map((t) => t.text),
    ['break 1'],
  );
  // with room for each before the next band: each named, none running over the next band
  const spaced = [brk(300, '1st'), brk(350, '2nd'), brk(400, '3rd')];
  const texts = said(spaced, 600, [100, 560]);
  assert.equal(texts.length, 3);
  for (const [k, t] of texts.sort((a, b) => a.x - b.x).entries())
    assert.ok(k === 2 || t.x + t.w < spaced[k + 1]!.startUs, JSON.stringify(t));
});

test("a slice label that a band's edge crosses is painted clear of that band; one inside a band is left under it", () => {
  // review 10G D10: the gold band edges ran through "2nd compiled call in the step (s…"
  const page = { colour: '#ffffff', alpha: 1 };
  const fill = { colour: '#1a85ff', alpha: 1 };
  const band = { paint: { colour: '#bf8803', alpha: 0.2 }, edge: '#bf8803' };
  const label = (x: number, w: number, under = [page, fill]): TextBox => ({
    role: 'slice',
    text: 'x',
    x,
    y: 52,
    w,
    h: 11,
    middle: 57.5,
    ink,
    under,
  });
  const { ctx, filled } = recordingCanvas();
  clearLabelsOfBands(
    ctx,
    [label(200.5, 100), label(420, 30, [page, fill, band.paint])],
    [
      { x0: 250.4, x1: 270.6, ...band },
      { x0: 400, x1: 500, ...band },
    ],
  );
  // the crossed label: its page and fill again over the band's whole pixels in its row; the one inside: nothing
  assert.deepEqual(
    filled.map((f) => [f.x, f.x + f.w, f.colour]),
    [
      [250, 271, '#ffffff'],
      [250, 271, '#1a85ff'],
    ],
  );
  assert.ok(filled.every((f) => f.y > 50 && f.y + f.h < 65));
});

test('a row\'s "too short to see here" that a band crosses is painted clear of it, as a slice label is (review 18Z Z3)', () => {
  // ddp-700-all rank 1: a graph break's 3 px band ran through the "too" of its gloo threads' rows
  const page = { colour: '#ffffff', alpha: 1 };
  const band = { paint: { colour: '#bf8803', alpha: 0.2 }, edge: '#bf8803' };
  const unseen: TextBox = {
    role: 'unseen',
    text: 'too short to see here',
    x: 193,
    y: 52,
    w: 110,
    h: 11,
    middle: 57.5,
    ink,
    under: [page],
  };
  const { ctx, filled } = recordingCanvas();
  clearLabelsOfBands(ctx, [unseen], [{ x0: 203.2, x1: 206.4, ...band }]);
  assert.deepEqual(
    filled.map((f) => [f.x, f.x + f.w, f.colour]),
    [[203, 207, '#ffffff']],
  );
});

test("a finding's outline stops above the profiled window's row and goes on under it, as its band does", () => {
  // review 10G G6 (timeline-depth-focus): the dashed outline ran down through the "profiled window" bar
  const { ctx, stroked } = recordingCanvas();
  const boxes = drawFocus(ctx, [{ startUs: 300, durUs: 40 }], 50, 100, 600, 400, (t) => t, theme, [[200, 215]]);
  assert.equal(stroked.length, 2);
  for (const box of boxes) assert.ok(box.y + box.h <= 200 || box.y >= 215, JSON.stringify(box));
  assert.deepEqual(drawFocus(ctx, [{ startUs: 300, durUs: 40 }], 50, 100, 600, 400, (t) => t, theme).length, 1);
});

test("a compile run inside another frame's call, shortened, says whose compile it is first at every width", () => {
  // review 13 P2/Q1 (ddp, rank 1): "recompile 1, inside 1st compiled call in the step" over the slice "1st compiled
  // call in the step, recompile 1" read as the slice's own; the call it ran in is dropped before its own
  const label = "4th compiled call's recompile (addmm), inside the 1st";
  assert.equal(shortestFit(label, 'recompile', 6 * 60, m), label);
  assert.equal(shortestFit(label, 'recompile', 6 * 45, m), "4th compiled call's recompile, inside the 1st");
  assert.equal(shortestFit(label, 'recompile', 6 * 35, m), "4th compiled call's recompile");
  assert.equal(shortestFit(label, 'recompile', 6 * 22, m), "4th call's recompile");
  for (let room = 6 * 9; room < 6 * 100; room += 6) {
    const form = shortestFit(label, 'recompile', room, m) ?? '';
    assert.match(form, /recompile/, `in ${room} px`);
    // never the call it ran in without its own: "recompile, inside the 1st" reads as the 1st's
    assert.ok(!form.includes('inside') || form.startsWith('4th compiled call'), `"${form}" in ${room} px`);
    assert.ok(form === 'recompile' || form.startsWith('4th'), `"${form}" in ${room} px`);
  }
  // a compile named by its function: the same order, its own name before the call it ran in
  const named = "forward, recompiled for x's size 8, inside helper";
  assert.equal(shortestFit(named, 'recompile', 6 * 36, m), "forward, recompiled for x's size 8");
  assert.equal(shortestFit(named, 'recompile', 6 * 30, m), "forward, recompiled for x's…");
});

test("one call's breaks a pixel or two apart are one band with one label; two calls' abutting bands, one label counting them, never naming one over both (review 16 Y6/Z7)", () => {
  // ddp's step view at 560/700 px: "break 1" over two tan bands 1 px apart, the second unnamed, read as a second
  // break; the "1" is the call
  const label = 'graph break in 1st compiled call in the step: eager code between graphs';
  const pair = [mark('graph-break', 300, 9, label), mark('graph-break', 311, 3, label)];
  assert.deepEqual(
    markHovers(pair, 100, 600, (t) => t),
    [{ x0: 300, x1: 314, hover: label }],
  );
  assert.deepEqual(
    said(pair, 1000, [100, 960]).map((t) => t.text),
    [label],
  );
  // on another thread they are two bands (the lane draws every thread's)
  assert.equal(markHovers([pair[0]!, { ...pair[1]!, track: 1 }], 100, 600, (t) => t).length, 2);
  // apart by more than a label's gap: two bands, each named by its own label
  const apart = [mark('graph-break', 300, 9, label), mark('graph-break', 380, 3, label)];
  assert.equal(markHovers(apart, 100, 600, (t) => t).length, 2);
  // two calls' bands 2 px apart, room for one label only: it counts them, never names one over both (the hover
  // says each); with no room to count them, none
  const twoSaid = (width: number): string[] => said(two, width, [100, width - 40]).map((t) => t.text);
  const two = [mark('graph-break', 300, 9, label), mark('graph-break', 311, 3, label.replace('1st', '2nd'))];
  assert.equal(markHovers(two, 100, 600, (t) => t).length, 2);
  assert.deepEqual(twoSaid(600), ['2 graph breaks']);
  assert.deepEqual(twoSaid(410), ['2 breaks']);
  assert.deepEqual(twoSaid(380), []);
});
