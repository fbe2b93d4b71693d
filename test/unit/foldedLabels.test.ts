// Which frames a timeline labels (webview/sliceRects.ts pickFoldedLabels, timelineNames.ts labelWords): a folded
// stack's row labels one frame at a place, a wider panel never fewer words; an unfolded stack says a frame said in its
// parent's words with its own function added, else the same words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickFoldedLabels, type FoldedLabel } from '../../webview/sliceRects.ts';
import { TimelineNames } from '../../webview/timelineNames.ts';
import { cpuOp, scanEvents, type TraceEvent } from './traceEvents.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';

/** 6 px a character, as a label's room is counted (the slice's width less 6 px): whole, else none (no whole word) */
const fitsWhole =
  (words: string[]) =>
  ({ i, x0, x1 }: FoldedLabel): { width: number | null; wholeWidth: number } => {
    const wholeWidth = 6 * words[i]!.length;
    return { width: wholeWidth <= x1 - x0 - 6 ? wholeWidth : null, wholeWidth };
  };

test("a folded stack's row: a frame's label unless a frame around it keeps that room, at every width", () => {
  const model = { track: Uint32Array.from([0, 0, 0]), depth: Uint16Array.from([0, 1, 2]) };
  const words = ["Inductor's kernel launch", "Inductor's kernel launcher", 'the kernel launch into CUDA'];
  // review 13 Q5: a deeper frame wide enough for a label took its outer frame's ("Indu…", "torc…" at 1400 px); review
  // 14 T6: at 560 px "Inductor's compiled graph", at 700 px "torch.mm" in its place. A frame keeps the room of its
  // whole words over the frames inside it, whether they fit yet or not: at 700 px the outer one too narrow for its
  // words keeps their room, no deeper one takes it
  assert.deepEqual(pickFoldedLabels(model, [{ i: 0, x0: 100, x1: 160 }], fitsWhole(words)), []);
  const wide: FoldedLabel[] = [
    { i: 0, x0: 100, x1: 260 },
    { i: 1, x0: 110, x1: 240 },
    { i: 2, x0: 120, x1: 230 },
  ];
  assert.deepEqual(pickFoldedLabels(model, wide, fitsWhole(words)), [0]);
  // wider still: the outer one's words, and a deeper one whole beside them, not under them (review 13 Q5:
  // "Inductor's compiled graph" lost at 700 px to torch.mm, which it ran, 200 px to the right of its label)
  const beside: FoldedLabel[] = [
    { i: 0, x0: 100, x1: 600 },
    { i: 1, x0: 110, x1: 200 },
    { i: 2, x0: 300, x1: 500 },
  ];
  assert.deepEqual(pickFoldedLabels(model, beside, fitsWhole(words)), [0, 2]);
  // frames side by side at one depth, or on other tracks, each keep theirs
  const apart = { track: Uint32Array.from([0, 0, 1]), depth: Uint16Array.from([1, 1, 2]) };
  const side: FoldedLabel[] = [
    { i: 0, x0: 100, x1: 250 },
    { i: 1, x0: 250, x1: 420 },
    { i: 2, x0: 100, x1: 300 },
  ];
  assert.deepEqual(pickFoldedLabels(apart, side, fitsWhole(words)), [0, 1, 2]);
});

test('a wider panel only adds labels to a folded row, never trades one for another (review 14 T6)', () => {
  // one stack at 560, 700 and 1400 px: an outer frame, a frame inside it at its start (too narrow for its words at
  // 560 px, wide enough at 700 px, where it took the outer frame's label), one past the outer words' room, and one
  // inside that
  const model = { track: Uint32Array.from([0, 0, 0, 0]), depth: Uint16Array.from([0, 1, 1, 2]) };
  const words = ["Inductor's compiled graph", 'torch.mm', 'torch.addmm', "Inductor's kernel launch"];
  const spans = [
    [0, 1],
    [0.02, 0.14],
    [0.45, 0.95],
    [0.5, 0.9],
  ];
  const picked = [560, 700, 1400].map((width) => {
    const scale = (t: number): number => 190 + t * (width - 200);
    const candidates = spans.flatMap(([t0, t1], i) =>
      scale(t1!) - scale(t0!) >= 40 ? [{ i, x0: scale(t0!), x1: scale(t1!) }] : [],
    );
    return pickFoldedLabels(model, candidates, fitsWhole(words));
  });
  for (let k = 1; k < picked.length; k++)
    assert.ok(
      picked[k - 1]!.every((i) => picked[k]!.includes(i)),
      `${picked[k - 1]!.map((i) => words[i]).join(' | ')}, then ${picked[k]!.map((i) => words[i]).join(' | ')}`,
    );
  assert.deepEqual(picked, [
    [0, 2],
    [0, 2],
    [0, 2],
  ]);
});

/** A slice's label words by its raw name, as the timeline's names give them for `model`. */
function labelWordsOf(model: TraceModel): (raw: string) => string | null {
  const names = new TimelineNames(model, {
    line: (_p: unknown, line: number): number => line,
    named: (): null => null,
  });
  return (raw) => names.labelWords(model.name.indexOf(model.names.indexOf(raw)));
}

test("a frame said in its parent's words adds its place in their run, else repeats none; one said otherwise keeps its own", () => {
  // review 13 Q7: "CUDA set-up" over "CUDA set-up" (set_device, then the built-in _cuda_setDevice it calls); review 14
  // T3: the nested frames left blank, four wide bars under "AOTAutograd's wrapper" with no words; review 15W W3: then
  // their functions' own names, "AOTAutograd's wrapper, call_func_at_runtime_with_args", "…, wrapper"
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
    frame('torch/_inductor/output_code.py(628): __call__', 430, 40),
    frame('torch/_functorch/_aot_autograd/runtime_wrappers.py(534): runtime_wrapper', 432, 5),
  ]);
  const words = labelWordsOf(model);
  // the run's first counted too (review 16Z Z5: "(2 of 5)" with no "(1 of …)")
  assert.equal(words('torch/cuda/__init__.py(626): set_device'), 'CUDA set-up (1 of 2)');
  assert.equal(words('<built-in function _cuda_setDevice>'), 'CUDA set-up (2 of 2)');
  assert.equal(words('anchors.py(18): forward'), 'anchors.py line 18, forward');
  // under _lazy_init, past the user's frame beside it
  assert.equal(words('<built-in function _cuda_init>'), 'CUDA set-up (2 of 2)');
  assert.equal(
    words('torch/_functorch/_aot_autograd/runtime_wrappers.py(8): wrapper'),
    "AOTAutograd's wrapper (1 of 3)",
  );
  // the same function nested in itself, and the frame in it: their place in the run, not a blank bar
  assert.equal(
    words('torch/_functorch/_aot_autograd/runtime_wrappers.py(9): wrapper'),
    "AOTAutograd's wrapper (2 of 3)",
  );
  assert.equal(
    words('torch/_functorch/_aot_autograd/utils.py(124): call_func_at_runtime_with_args'),
    "AOTAutograd's wrapper (3 of 3)",
  );
  // a wrapper under another frame is a run of its own
  assert.equal(
    words('torch/_functorch/_aot_autograd/runtime_wrappers.py(534): runtime_wrapper'),
    "AOTAutograd's wrapper",
  );
});

test("torch.compile's wrapper inside another is the compiled code's call of its graph, not a second compile", () => {
  // review 15W W4: "torch.compile's wrapper" above the user's forward and again under it read as compiled twice
  const frame = (name: string, ts: number, dur: number): TraceEvent => ({
    ...cpuOp(name, ts, dur),
    cat: 'python_function',
  });
  const model = scanEvents([
    frame('torch/_dynamo/eval_frame.py(460): __call__', 0, 100),
    { ...cpuOp('nn.Module: OptimizedModule_0', 1, 98), cat: 'python_function' },
    frame('torch/_dynamo/eval_frame.py(956): compile_wrapper', 2, 96),
    frame('anchors.py(18): forward', 3, 94),
    frame('torch/_dynamo/eval_frame.py(1240): _fn', 4, 90),
    frame('torch/_functorch/aot_autograd.py(1192): forward', 5, 80),
  ]);
  const words = labelWordsOf(model);
  const names = new TimelineNames(model, {
    line: (_p: unknown, line: number): number => line,
    named: (): null => null,
  });
  assert.equal(words('torch/_dynamo/eval_frame.py(956): compile_wrapper'), "torch.compile's wrapper");
  assert.equal(words('torch/_dynamo/eval_frame.py(1240): _fn'), "compiled code's call of its graph");
  // the folded row says it alike (frameWords)
  assert.equal(
    names.frameWords(model.name.indexOf(model.names.indexOf('torch/_dynamo/eval_frame.py(1240): _fn'))),
    "compiled code's call of its graph",
  );
  assert.equal(words('torch/_functorch/aot_autograd.py(1192): forward'), "AOTAutograd's wrapper");
  // the compiled module's call and the profiler's record of it: one call, said once, no count (review 16Z Z5:
  // "compiled module (2 of 2)" read as the model wrapped twice); the record in quiet words of its own, not a blank
  // full-width bar (review 17Z Z2)
  assert.equal(words('torch/_dynamo/eval_frame.py(460): __call__'), 'compiled module');
  assert.equal(words('nn.Module: OptimizedModule_0'), "the profiler's record of its call");
});

test("a record inside one that says its op with a note added draws no label: one op's words once (review 14 T10)", () => {
  // ranks, rank 0, step 4: "addmm's …" over "addmm's…" over "mm", autograd's record of AddmmBackward0 over the node:
  // the node, the inner repeat, unlabelled; the record around it keeps its words (review 15W W5)
  const model = scanEvents([
    cpuOp('autograd::engine::evaluate_function: AddmmBackward0', 0, 100),
    cpuOp('AddmmBackward0', 5, 90),
    cpuOp('aten::mm', 10, 40),
    cpuOp('autograd::engine::evaluate_function: torch::autograd::AccumulateGrad', 200, 50),
    cpuOp('aten::add_', 210, 20),
  ]);
  const words = labelWordsOf(model);
  assert.equal(words('autograd::engine::evaluate_function: AddmmBackward0'), 'backward of addmm (autograd)');
  assert.equal(words('AddmmBackward0'), null);
  assert.equal(words('aten::mm'), 'aten::mm');
  assert.equal(words('aten::add_'), 'aten::add_');
});

test("one call said by two frames is said once, the inner in quiet words of its own; nn.Module's call under its module's record likewise", () => {
  // review 16Z Z5: "thread start" over "thread start (2 of 2)" (_bootstrap, _bootstrap_inner: one start), two
  // "module call" rows (OptimizedModule's and SimpleNet's _call_impl) read as the model wrapped twice; review 17Z Z2:
  // left blank, four full-width bars read as a drawing failure
  const frame = (name: string, ts: number, dur: number): TraceEvent => ({
    ...cpuOp(name, ts, dur),
    cat: 'python_function',
  });
  const model = scanEvents([
    frame('threading.py(1030): _bootstrap', 0, 100),
    frame('threading.py(1073): _bootstrap_inner', 1, 98),
    frame('threading.py(1010): run', 2, 96),
    frame('torch/_inductor/compile_worker/subproc_pool.py(271): _read_thread', 3, 94),
    frame('torch/_inductor/compile_worker/subproc_pool.py(76): _recv_msg', 4, 90),
    frame('torch/_dynamo/eval_frame.py(460): __call__', 200, 100),
    { ...cpuOp('nn.Module: OptimizedModule_0', 201, 98), cat: 'python_function' },
    frame('torch/nn/modules/module.py(1783): _call_impl', 202, 96),
    frame('torch/_dynamo/eval_frame.py(956): compile_wrapper', 203, 94),
    { ...cpuOp('nn.Module: SimpleNet_0', 204, 92), cat: 'python_function' },
    frame('torch/nn/modules/module.py(1784): _call_impl', 205, 90),
    frame('anchors.py(18): forward', 206, 88),
    frame('/tmp/inductor_mlp/ez/cezje7u6ms3kqo2vttpqjpuqnpockilxi75dpw2q6f5laccd4ump.py(94): call', 207, 80),
  ]);
  const words = labelWordsOf(model);
  assert.equal(words('threading.py(1030): _bootstrap'), 'thread start');
  assert.equal(words('threading.py(1073): _bootstrap_inner'), "Python's thread bootstrap");
  assert.equal(words('threading.py(1010): run'), "thread's work");
  // the compile workers' frames by what they do, not the track's own name again
  assert.equal(
    words('torch/_inductor/compile_worker/subproc_pool.py(271): _read_thread'),
    "reading the workers' replies",
  );
  assert.equal(words('torch/_inductor/compile_worker/subproc_pool.py(76): _recv_msg'), "waiting for a worker's reply");
  assert.equal(words('nn.Module: OptimizedModule_0'), "the profiler's record of its call");
  assert.equal(words('torch/nn/modules/module.py(1783): _call_impl'), "nn.Module's call");
  assert.equal(words('nn.Module: SimpleNet_0'), 'SimpleNet');
  assert.equal(words('torch/nn/modules/module.py(1784): _call_impl'), "nn.Module's call");
  // Inductor's generated code as such, its hashed file left to the hover
  assert.equal(
    words('/tmp/inductor_mlp/ez/cezje7u6ms3kqo2vttpqjpuqnpockilxi75dpw2q6f5laccd4ump.py(94): call'),
    "Inductor's generated code, call",
  );
});
