// Which frames a timeline labels (webview/sliceRects.ts pickFoldedLabels, timelineNames.ts labelWords): a folded
// stack's row labels one frame at a place, a wider panel never fewer words; an unfolded stack says a frame said in its
// parent's words with its own function added, else the same words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickFoldedLabels, type FoldedLabel } from '../../webview/sliceRects.ts';
import { TimelineNames } from '../../webview/timelineNames.ts';
import { cpuOp, scanEvents, type TraceEvent } from './traceEvents.ts';

/** 6 px a character, as a label's room is counted (the slice's width less 6 px): whole, else cut to the room */
const fitsWhole =
  (words: string[]) =>
  ({ i, x0, x1 }: FoldedLabel): { whole: boolean; width: number } | null => {
    const room = x1 - x0 - 6;
    return room < 24 ? null : { whole: 6 * words[i]!.length <= room, width: Math.min(room, 6 * words[i]!.length) };
  };

test("a folded stack's row: the frame whose words fit whole, never a deeper one cut to 'Indu…' over them", () => {
  // review 13 Q5 (gpu-mlp, the Python row): at 700 px the kernel launch's frame "torch: run (tri…"; at 1400 px its
  // deeper frames wide enough for a label took it, "Indu…", "torc…"
  const model = { track: Uint32Array.from([0, 0, 0]), depth: Uint16Array.from([0, 1, 2]) };
  const words = ["Inductor's kernel launch", "Inductor's kernel launcher", 'the kernel launch into CUDA'];
  // at 700 px only the outer frame is wide enough for a label: it, cut
  assert.deepEqual(pickFoldedLabels(model, [{ i: 0, x0: 100, x1: 160 }], fitsWhole(words)), [0]);
  // at 1400 px the outer one fits whole, the deeper ones (wide enough for a label, not for their words) do not: the
  // outer one's words still
  const wide: FoldedLabel[] = [
    { i: 0, x0: 100, x1: 260 },
    { i: 1, x0: 110, x1: 160 },
    { i: 2, x0: 120, x1: 162 },
  ];
  assert.deepEqual(pickFoldedLabels(model, wide, fitsWhole(words)), [0]);
  // wider still, the deepest whole: it, the frame drawn on top
  const wider: FoldedLabel[] = [
    { i: 0, x0: 100, x1: 600 },
    { i: 1, x0: 110, x1: 200 },
    { i: 2, x0: 120, x1: 400 },
  ];
  assert.deepEqual(pickFoldedLabels(model, wider, fitsWhole(words)), [2]);
  // none fits whole: the outer one, with the most room; never two labels at one place
  const narrow: FoldedLabel[] = [
    { i: 0, x0: 100, x1: 150 },
    { i: 1, x0: 105, x1: 148 },
  ];
  assert.deepEqual(pickFoldedLabels(model, narrow, fitsWhole(words)), [0]);
  // a deeper frame whole beside the outer one's label, not under it: both (review 13 Q5: "Inductor's compiled graph"
  // lost at 700 px to torch.mm, which it ran, 200 px to the right of its label)
  const beside: FoldedLabel[] = [
    { i: 0, x0: 100, x1: 600 },
    { i: 2, x0: 300, x1: 500 },
  ];
  assert.deepEqual(pickFoldedLabels(model, beside, fitsWhole(words)), [0, 2]);
  // frames side by side at one depth, or on other tracks, each keep theirs
  const apart = { track: Uint32Array.from([0, 0, 1]), depth: Uint16Array.from([1, 1, 2]) };
  const side: FoldedLabel[] = [
    { i: 0, x0: 100, x1: 150 },
    { i: 1, x0: 150, x1: 200 },
    { i: 2, x0: 100, x1: 200 },
  ];
  assert.deepEqual(pickFoldedLabels(apart, side, fitsWhole(words)), [0, 1, 2]);
});

test("a frame said in its parent's words adds its own function, else repeats them; one said otherwise keeps its own", () => {
  // review 13 Q7: "CUDA set-up" over "CUDA set-up" (set_device, then the built-in _cuda_setDevice it calls); review 14
  // T3: the nested frames left blank, four wide bars under "AOTAutograd's wrapper" with no words
  const frame = (name: string, ts: number, dur: number): TraceEvent => ({
    ...cpuOp(name, ts, dur),
    cat: 'python_function',
  });
  const model = scanEvents([
    frame('torch/cuda/__init__.py(626): set_device', 0, 100),
    frame('<built-in function _cuda_setDevice>', 10, 80),
    frame('torch/cuda/__init__.py(450): _lazy_init', 200, 100),
    frame('anchors.py(18): forward', 210, 50),
    frame('<built-in function _cuda_init>', 270, 20),
    frame('torch/_functorch/_aot_autograd/runtime_wrappers.py(8): wrapper', 400, 100),
    frame('torch/_functorch/_aot_autograd/runtime_wrappers.py(9): wrapper', 410, 80),
    frame('torch/_functorch/_aot_autograd/utils.py(124): call_func_at_runtime_with_args', 420, 60),
  ]);
  const names = new TimelineNames(model, {
    line: (_p: unknown, line: number): number => line,
    named: (): null => null,
  });
  const words = (raw: string): string => names.labelWords(model.name.indexOf(model.names.indexOf(raw)));
  assert.equal(words('torch/cuda/__init__.py(626): set_device'), 'CUDA set-up');
  assert.equal(words('<built-in function _cuda_setDevice>'), 'CUDA set-up, _cuda_setDevice');
  assert.equal(words('anchors.py(18): forward'), 'anchors.py line 18, forward');
  // under _lazy_init, past the user's frame beside it
  assert.equal(words('<built-in function _cuda_init>'), 'CUDA set-up, _cuda_init');
  assert.equal(words('torch/_functorch/_aot_autograd/runtime_wrappers.py(8): wrapper'), "AOTAutograd's wrapper");
  // the same function nested in itself: the words repeated, not a blank bar
  assert.equal(words('torch/_functorch/_aot_autograd/runtime_wrappers.py(9): wrapper'), "AOTAutograd's wrapper");
  assert.equal(
    words('torch/_functorch/_aot_autograd/utils.py(124): call_func_at_runtime_with_args'),
    "AOTAutograd's wrapper, call_func_at_runtime_with_args",
  );
});
