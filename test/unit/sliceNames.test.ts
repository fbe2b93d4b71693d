// A trace's compiler codes said in words on the timeline (labels, tooltips, details, kernel lists), on recorded
// traces: a generated kernel by the compiled call it ran in and its place there, with the user's lines where the
// report has them; Inductor's run of a compiled graph; a profiler step; a compiled call the script never recompiled
// (a region's profiled copy) without a "recompile" the report does not have.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { loadReport } from '../../extension/node/reportFile.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { paneFrames, paneKernels } from '../../extension/present/kernelLinks.ts';
import { generatedKernelWords, readGeneratedName } from '../../extension/present/kernelNames.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { callsByPlace, ordinal, type PlacedCall } from '../../webview/analysis/compiledCalls.ts';
import {
  callsAround,
  hostedWords,
  innerFrameWords,
  compilesOfTrace,
  markSaid,
  namesSaid,
  pythonFrameWords,
  tracedFrames,
} from '../../webview/analysis/sliceNames.ts';
import { timelineMarks, type TimelineMark } from '../../extension/shared/trace/timelineMarks.ts';
import { traceNameForms, traceNameWords } from '../../extension/shared/trace/traceWords.ts';

const FIXTURES = path.resolve(__dirname, '../fixtures');

/** The trace's names in words, by the trace's own name: [trace's name, words] of each name said otherwise. */
async function said(trace: string, reportPath: string | null, pane: string): Promise<Map<string, string>> {
  const model: TraceModel = await scanTraceFile(path.join(FIXTURES, trace));
  const report = reportPath ? (await loadReport(path.join(FIXTURES, reportPath))).report : null;
  const words = namesSaid(
    model,
    report ? paneFrames(report, pane) : compilesOfTrace(model).frames,
    report ? (paneKernels(report, pane)?.kernels ?? null) : null,
  );
  return new Map([...words].map(([id, w]) => [model.names[id]!, w.text]));
}

const graphRun = (names: Map<string, string>): string[] =>
  [...names].filter(([raw]) => raw.startsWith('## Call CompiledFxGraph ')).map(([, w]) => w);

test("Inductor's kernel names read: graph prefix, kind, place in the graph; other names are not kernels", () => {
  assert.deepEqual(readGeneratedName('graph_12_cpp_fused_add_mul_relu_3'), { graph: 12, kind: 'cpp', index: 3 });
  assert.deepEqual(readGeneratedName('triton_red_fused_sum_1'), { graph: null, kind: 'reduction', index: 1 });
  assert.deepEqual(readGeneratedName('triton_tem_fused_addmm_0'), { graph: null, kind: 'template', index: 0 });
  for (const name of ['aten::addmm', 'extern_kernels.addmm', 'void cutlass::Kernel2<x>(y)', 'cpp_fused'])
    assert.equal(readGeneratedName(name), null, name);
  // no compiled call around it: Inductor's own graph count, counted from 1
  assert.equal(
    generatedKernelWords('graph_4_cpp_fused_relu_1', null, null),
    'fused C++ function 2 of Inductor graph 5',
  );
  // a Triton kernel, a GPU's, stays a kernel
  assert.equal(generatedKernelWords('triton_poi_fused_relu_1', null, null), 'fused kernel 2');
});

test("a target's CPU kernel: its compile by function, which recompile, the user's lines (fused-cpu)", async () => {
  const names = await said('reports/fused-cpu/default.trace.json', 'reports/fused-cpu/report.json', 'default');
  assert.equal(
    names.get('graph_3_cpp_fused_add_mul_relu_0'),
    "fused C++ function 1 of forward, recompiled for x's size 16 in dimension 0 (lines 12, 13)",
  );
  assert.equal(names.get('Torch-Compiled Region: 0/1'), "compiled forward, recompiled for x's size 16 in dimension 0");
  assert.deepEqual(graphRun(names), ["Inductor's code of forward, recompiled for x's size 16 in dimension 0"]);
  assert.equal(names.get('ProfilerStep#2'), 'step 2');
  assert.equal(names.get('PyTorch Profiler (0)'), 'profiling', "the profiler's own span, without its session number");
});

test("a script region's kernels, each its place in the region's graph (script-kernels-cpu r1)", async () => {
  const names = await said(
    'reports/script-kernels-cpu/regions/r1-as-written.trace.json',
    'reports/script-kernels-cpu/report.json',
    "TinyMLP, compiled with torch.compile's defaults",
  );
  assert.equal(names.get('graph_1_cpp_fused_gelu_0'), 'fused C++ function 1 of forward (line 13)');
  assert.equal(names.get('graph_1_cpp_fused_add_1'), 'fused C++ function 2 of forward (line 14)');
});

test('a trace opened alone: kernels and graph runs by the compiled call around them, each call by the code it ran', async () => {
  // no Python stacks (profiled without with_stack): a compiled call by its place in the step and the ops it runs
  const cpu = await said('traces/cpu-graphbreak-default.trace.json', null, '');
  assert.equal(cpu.get('Torch-Compiled Region: 1/0'), '2nd compiled call in the step (sum_view)');
  assert.equal(
    cpu.get('graph_1_cpp_fused_sum_view_0'),
    'fused C++ function 1 of 2nd compiled call in the step (sum_view)',
  );
  assert.ok(
    graphRun(cpu).includes("Inductor's code of 2nd compiled call in the step (sum_view)"),
    graphRun(cpu).join(' | '),
  );
  // a module's ATen ops by the module the user's code names (review 15V V7, 16Z Z5: "(convolution, native_batch_norm, …)")
  assert.equal(cpu.get('Torch-Compiled Region: 0/0'), '1st compiled call in the step (Conv, BatchNorm, …)');
  // Dynamo's second compile of the 4th call's code: the same place, said a recompile
  assert.equal(cpu.get('Torch-Compiled Region: 3/0'), '4th compiled call in the step (addmm, gelu)');
  assert.equal(cpu.get('Torch-Compiled Region: 3/1'), '4th compiled call in the step (addmm, gelu), recompile 1');
  // a Triton kernel runs on the GPU: the compiled call around its launch, named by the Python stacks' forward
  const gpu = await said('traces/mlp-default.trace.json', null, '');
  assert.equal(gpu.get('triton_poi_fused_addmm_relu_0'), 'fused kernel 1 of forward');
  // with the report: its user line
  const named = await said('traces/mlp-default.trace.json', 'reports/h100-mlp/report.json', 'default');
  assert.equal(named.get('triton_poi_fused_addmm_relu_0'), 'fused kernel 1 of compiled function 1 (line 19)');
  for (const words of [...cpu.values(), ...gpu.values()])
    assert.doesNotMatch(words, /\d+\/\d+|CompiledFxGraph|graph_\d|compiled (?:graph|function) \d/);
  // a CPU trace's generated functions are counted as "generated C++ functions": never named kernels (review 18Y Y4)
  for (const words of cpu.values()) assert.doesNotMatch(words, /kernel/);
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal), [
    '1st',
    '2nd',
    '3rd',
    '4th',
    '11th',
    '12th',
    '13th',
    '21st',
    '22nd',
    '101st',
    '111th',
  ]);
});

test("PyTorch's wrappers around a compiled graph by what they do", async () => {
  const cpu = await said('traces/cpu-graphbreak-default.trace.json', null, '');
  assert.equal(cpu.get('TorchDynamo Cache Lookup'), "checking the compiled code's guards");
  // whose span each is, Dynamo's or AOTAutograd's: review 4A read "compiled code's wrapper, before its graph" and
  // "compiled code's set-up before its graph" as one thing twice in a range's table
  assert.equal(cpu.get('Pregraph bytecode'), "Dynamo's bytecode before the graph (gathers its inputs)");
  assert.equal(cpu.get('AOTDispatcher Runtime Wrapper Prologue'), "AOTAutograd's wrapper before the graph");
  assert.equal(traceNameWords('AOTDispatcher Runtime Wrapper Epilogue'), "AOTAutograd's wrapper after the graph");
  // and whole shorter forms for a narrow bar: the per-call guard check said in 55 px (review 16Z Z6)
  assert.deepEqual(traceNameForms('TorchDynamo Cache Lookup'), ['checking guards', 'guards']);
  assert.equal(traceNameForms('aten::mm'), null);
});

test("a region's profiled copy is not a recompile: the timeline says none where the report says none", async () => {
  const names = await said(
    'traces/profiled-copy-cpu/regions/r0-as-written.trace.json',
    'traces/profiled-copy-cpu/report.json',
    "scale, compiled with torch.compile's defaults",
  );
  // the trace's compiled call is Dynamo's second compile of scale (the profile's copy); the report lists 0/0, 1/0
  assert.equal(names.get('Torch-Compiled Region: 0/1'), 'compiled scale');
  assert.deepEqual(graphRun(names), ["Inductor's code of scale"]);
  assert.equal(names.get('graph_1_cpp_fused_add_gelu_mul_sum_0'), 'fused C++ function 1 of scale (lines 6, 7)');
  for (const words of names.values()) assert.doesNotMatch(words, /recompile/);
});

test("the observed run's compiled window is named by the script's own compiles (serve_script-cpu)", async () => {
  const names = await said(
    'recorded/serve_script-cpu/in-situ-compiled.trace.json',
    'recorded/serve_script-cpu/report.json',
    'TinyTransformer, in situ compiled',
  );
  assert.equal(names.get('Torch-Compiled Region: 0/0'), 'compiled forward');
  assert.deepEqual(graphRun(names), ["Inductor's code of forward"]);
});

test("Python frames: Inductor's generated module by what it is, no memory address, this tool's frames as its", async () => {
  const names = await said('traces/mlp-reduce-overhead.trace.json', null, 'reduce-overhead');
  assert.equal(
    names.get('/tmp/inductor_mlp/o2/co2zx5luqjtdlcjhma4bme5yze2xy4c34knwdd4hw6gt5n7ybvyo.py(127): call'),
    // by what it is, not its hashed file (review 8B B12: "co2zx5….py"; review 16Z Z5: "cezje7…py:94, call" raw)
    "Inductor's generated code, call",
  );
  const addresses = [...names].filter(([raw, words]) => / at 0x[0-9a-f]+>$/.test(raw) && words.includes(' at 0x'));
  assert.deepEqual(addresses, []);
  assert.equal(
    pythonFrameWords('/work/.venv/lib/python3.12/site-packages/compile_lens_runner/measure/profiling.py(163): profile'),
    'Compile Lens: profiling.py:163, profile',
  );
});

test('Python frames say what ran from their start: a built-in by its name as code calls it, a library file by the library and function (review 10 D13)', async () => {
  // "<built-in method mm of ty…", "<built-in method addmm o…", "torch/_in…" in the folded stack's row
  const names = await said('traces/mlp-default.trace.json', null, 'default');
  // the type object whose methods the trace also ran as ATen ops is torch's functions'
  assert.equal(names.get('<built-in method mm of type object at 0x7f952c33e180>'), 'torch.mm');
  assert.equal(names.get('<built-in method addmm of type object at 0x7f952c33e180>'), 'torch.addmm');
  const copies = await said('traces/mlp-reduce-overhead.trace.json', null, 'reduce-overhead');
  // one of ATen's private ops in the words its op's slice says (review 14 S8: "torch._foreach_copy_", and "inside
  // _foreach_copy_, the profiler's own work")
  assert.equal(
    copies.get('<built-in method _foreach_copy_ of type object at 0x7f952c33e180>'),
    'copying a list of tensors',
  );
  assert.equal(copies.get('aten::_foreach_copy_'), 'copying a list of tensors');
  assert.deepEqual(
    [...names, ...copies].filter(([, words]) => words.startsWith('<built-in') || words.startsWith('torch/')),
    [],
    'no frame said by its raw built-in or torch path',
  );
  const addresses = new Set(['0x7f95']);
  const cases: [string, string][] = [
    ['<built-in method mm of type object at 0x7f95>', 'torch.mm'],
    // another type object's method: not torch's, its type unknown
    ['<built-in method fromkeys of type object at 0x1234>', 'fromkeys'],
    ['<built-in method size of Tensor object at 0x7f6c18d88be0>', 'Tensor.size'],
    ['<built-in function linear>', 'linear'],
    [
      '<built-in method _is_tracing of pybind11_builtins.pybind11_detail_function_record_v1_system_libstdcpp_gxx_abi_1xxx_use_cxx11_abi_1 object at 0x7f95835a8050>',
      '_is_tracing',
    ],
    // a library's frame by its function first: a cut keeps it, never the library alone (review 14 T5: "torch: …")
    ['torch/_dynamo/guards.py(2201): fn', "fn (torch's guards.py:2201)"],
    ['tqdm/_monitor.py(69): run', "run (tqdm's _monitor.py:69)"],
    ['/usr/lib/python3/site-packages/numpy/core/fromnumeric.py(3): sum', "sum (numpy's fromnumeric.py:3)"],
    // the user's files by their line in words, Python's own by module (review 11 I9: "anchors.py(191): <module>",
    // "threading.py(359): wait" beside "torch: __call__ (eval_frame.py:460)")
    ['/home/me/proj/model.py(3): forward', 'model.py line 3, forward'],
    ['anchors.py(191): <module>', 'anchors.py line 191, module level'],
    ['threading.py(359): wait', "wait (Python's threading)"],
    // a thread's root and its run of its work, said as such (review 15W W3: "_bootstrap (Python's threading)")
    ['threading.py(1030): _bootstrap', 'thread start'],
    ['/usr/lib/python3.11/threading.py(1073): _bootstrap_inner', 'thread start'],
    ['threading.py(1010): run', "thread's work"],
    ['/usr/lib/python3.11/queue.py(171): get', "get (Python's queue)"],
    // a user's own file named as one of Python's is theirs (code read 6: "worker (Python's queue)")
    ['/home/me/app/queue.py(12): worker', 'queue.py line 12, worker'],
    ['/home/me/app/socket.py(3): serve', 'socket.py line 3, serve'],
    // (review 13 F5: "helper (Python's contextlib)", a place in Python, not what it does)
    ['contextlib.py(299): helper', "making a with statement's context manager (contextlib)"],
    ['<frozen os>(779): getenv', "getenv (Python's os)"],
    ['<frozen _collections_abc>(804): get', "get (Python's _collections_abc)"],
  ];
  for (const [raw, words] of cases) assert.equal(pythonFrameWords(raw, addresses), words, raw);
});

test("PyTorch's internals a user does not act in, by what they do: Inductor's compile workers, CUDA set-up", async () => {
  // review s29: "subproc_pool.py" and "_cuda_setDevice" read as places; the recorded traces hold both
  for (const trace of ['traces/mlp-default.trace.json', 'traces/mlp-reduce-overhead.trace.json']) {
    const names = await said(trace, null, 'default');
    const raw = [...names.keys()];
    assert.ok(
      raw.some((n) => n.includes('compile_worker/subproc_pool.py')),
      trace,
    );
    for (const [name, words] of names) {
      // (the pool's reader thread by what it does: review 16Z Z5, the track's own name said over it twice)
      if (name.includes('compile_worker/'))
        assert.ok(
          /^Inductor's compile workers$|^reading the workers' replies$|^waiting for a worker's reply$/.test(words),
          name,
        );
      if (name === '<built-in function _cuda_setDevice>') assert.equal(words, 'CUDA set-up', name);
    }
  }
  const plain = await said('traces/mlp-default.trace.json', null, 'default');
  assert.equal(plain.get('<built-in function _cuda_setDevice>'), 'CUDA set-up');
  assert.equal(pythonFrameWords('torch/cuda/__init__.py(450): _lazy_init'), 'CUDA set-up');
  assert.equal(pythonFrameWords('<built-in function _cuda_exchangeDevice>'), 'CUDA device switch');
  // a frame of the user's own by its file and line in words
  assert.equal(pythonFrameWords('anchors.py(18): forward'), 'anchors.py line 18, forward');
});

test("the inner frame of one call said twice is said in quiet words of its own, never blank nor its parent's", () => {
  // review 17Z Z2: four blank full-width bars under "compiled module", "SimpleNet" and "thread start"
  assert.equal(innerFrameWords('nn.Module: OptimizedModule_0'), "the profiler's record of its call");
  assert.equal(
    innerFrameWords('/usr/lib/python3.11/threading.py(1073): _bootstrap_inner'),
    "Python's thread bootstrap",
  );
  assert.equal(innerFrameWords('torch/nn/modules/module.py(1783): _call_impl'), "nn.Module's call");
  assert.equal(innerFrameWords('torch/nn/modules/module.py(1772): _wrapped_call_impl'), "nn.Module's call");
  // one without words of its own: its function
  assert.equal(innerFrameWords('torch/_dynamo/eval_frame.py(460): __call__'), '__call__');
});

test("a compiled call's way down to its kernels in words, as the recording holds it: wrappers, graph, kernel launch", async () => {
  // review 13 Q3/P5 (gpu-mlp, the unfolded stack): "torch: run (triton_heuristics.py:1407)", "torch:
  // call_func_at_runtime_with_args (utils.py:124)", "nn.Module: OptimizedModule_0" said as the code names them
  const names = await said('traces/mlp-default.trace.json', null, 'default');
  const expected: [string, string][] = [
    ['torch/_dynamo/eval_frame.py(1240): _fn', "torch.compile's wrapper"],
    ['torch/_dynamo/eval_frame.py(956): compile_wrapper', "torch.compile's wrapper"],
    ['nn.Module: OptimizedModule_0', 'compiled module'],
    // review 14 T5: "torch: __call__ (eval_frame.py:460)", "torch: _call_impl (module.py:1783)", "nn.Module: SimpleNet_0"
    // said as the profiler's record of the module in it (review 15W W4: "compiled module's call" over "compiled module")
    ['torch/_dynamo/eval_frame.py(460): __call__', 'compiled module'],
    ['torch/nn/modules/module.py(1783): _call_impl', 'module call'],
    ['nn.Module: SimpleNet_0', 'SimpleNet'],
    ['torch/_functorch/_aot_autograd/runtime_wrappers.py(769): wrapper', "AOTAutograd's wrapper"],
    ['torch/_functorch/_aot_autograd/utils.py(124): call_func_at_runtime_with_args', "AOTAutograd's wrapper"],
    ['torch/_inductor/output_code.py(628): __call__', "Inductor's compiled graph"],
    ['torch/_inductor/utils.py(3397): run', "Inductor's compiled graph, inputs aligned"],
    ['torch/_inductor/runtime/triton_heuristics.py(1407): run', "Inductor's kernel launch"],
    ['torch/_inductor/runtime/static_triton_launcher.py(232): run', "Inductor's static launcher"],
    ['<built-in function _launch_kernel>', "the kernel's CUDA launch"],
  ];
  for (const [raw, words] of expected) assert.equal(names.get(raw), words, raw);
  // the rest of torch's frames there by library and function, never an Inductor helper called the launch
  assert.equal(
    names.get('torch/_inductor/runtime/triton_heuristics.py(1385): get_profiler_kwargs'),
    "get_profiler_kwargs (torch's triton_heuristics.py:1385)",
  );
  // DDP's record of its forward (ddp-ranks-cpu)
  const ddp = await said('reports/ddp-ranks-cpu/ranks/rank1/rank1.trace.json.gz', null, 'default');
  assert.equal(ddp.get('DistributedDataParallel.forward'), "DDP's forward");
});

test("a compile inside another call named by place from the parts of both: the host's ops and code never break the short form", () => {
  // code read 37 item 4: "1st compiled call in the step (mm)" as the host failed a pattern that parsed the name back,
  // and the band fell back to "…, recompile 1, inside 1st compiled call in the step (mm)" (review 13 Q1/P2)
  const call = (compileId: string, ord: string, ops: string, code: number | null, attempt: number): PlacedCall => ({
    compileId,
    ordinal: ord,
    within: 'in the step',
    ops,
    code,
    attempt,
  });
  const placed = [call('0/1', '1st', 'mm', null, 1), call('4/1', '4th', 'addmm', null, 1)];
  const mark: TimelineMark = { kind: 'recompile', startUs: 0, durUs: 10, label: '', compileId: '4/1', track: 0 };
  const said = (calls: PlacedCall[]): string => markSaid(mark, callsByPlace(calls), null, '0/1', calls).text;
  assert.equal(said(placed), "4th compiled call's recompile (addmm), inside the 1st");
  // told apart by code: each keeps its own
  assert.equal(
    said([call('0/1', '1st', 'mm', 1, 1), call('4/1', '4th', '', 5, 2)]),
    "4th compiled call's recompile 2, code 5, inside the 1st (code 1)",
  );
  // outside the steps: said, where the band is
  const outside = placed.map((c) => ({ ...c, within: 'outside the steps' as const }));
  assert.equal(said(outside), "4th compiled call's recompile (addmm), inside the 1st outside the steps");
  // in different places: each whole, the host by its call, not which compile of it ran
  assert.equal(
    said([{ ...placed[0]!, within: 'outside the steps' }, placed[1]!]),
    '4th compiled call in the step (addmm), recompile 1, inside 1st compiled call outside the steps (mm)',
  );
});

test('a trace without its report: a compiled call by the code it ran, from its Python stacks, not "compiled function 1"', async () => {
  const model = await scanTraceFile(path.join(FIXTURES, 'traces/mlp-default.trace.json'));
  const frames = tracedFrames(model);
  assert.deepEqual(frames, [{ compileId: '0/0', function: 'forward', seconds: 0 }]);
  const words = namesSaid(model, frames, null);
  const byRaw = new Map([...words].map(([id, w]) => [model.names[id]!, w.text]));
  assert.equal(byRaw.get('Torch-Compiled Region: 0/0'), 'compiled forward');
  assert.deepEqual(
    [...byRaw].filter(([raw]) => raw.startsWith('## Call CompiledFxGraph ')).map(([, w]) => w),
    ["Inductor's code of forward"],
  );
  // no Python stacks (profiled without with_stack): nothing to name them by
  assert.deepEqual(
    tracedFrames(await scanTraceFile(path.join(FIXTURES, 'traces/cpu-graphbreak-default.trace.json'))),
    [],
  );
});

test("a compile run inside another frame's call names that call: its band over the call's slice names one call", async () => {
  // review 11 I1/J1/K2 (ddp, rank 1): the 2 s recompile of the 4th call's frame ran inside the 1st call's slice, its
  // band "4th compiled call in the step (addmm), recompile 1" over "1st compiled call in the step, recompile 1"
  const model = await scanTraceFile(path.join(FIXTURES, 'reports/ddp-ranks-cpu/ranks/rank1/rank1.trace.json.gz'));
  const marks = timelineMarks(model);
  const around = callsAround(model, marks);
  const stall = marks.findIndex((m) => m.compileId === '4/1');
  assert.equal(around[stall], '0/1');
  // the 1st call's own recompile and the breaks ran inside no other frame's call
  assert.deepEqual(
    marks.flatMap((m, i) => (around[i] ? [m.compileId] : [])),
    ['4/1'],
  );
  // whose compile it is first, the call it ran in as few words; never "recompile 1", the slice's own words for the 1st
  // call's recompile under it (review 13 Q1/P2: two calls' "recompile 1" for one 2 s stall)
  assert.equal(
    markSaid(marks[stall]!, compilesOfTrace(model).frames, null, around[stall], compilesOfTrace(model).placed).text,
    "4th compiled call's recompile (addmm), inside the 1st",
  );
  // the 1st call's slice under that band said by its place alone: its own recompile ran 55 ms before, said by its own
  // band (review 14 T2: "1st compiled call in the step, recompile 1" under the 4th call's recompile)
  const traced = compilesOfTrace(model);
  const hosts = traced.placed.filter((call) => around.includes(call.compileId));
  const regionName = (calls: typeof hosts): string | undefined =>
    namesSaid(model, traced.frames, null, null, calls).get(model.names.indexOf('Torch-Compiled Region: 0/1'))?.text;
  assert.equal(regionName([]), '1st compiled call in the step, recompile 1');
  assert.equal(regionName(hosts), '1st compiled call in the step');
  // with the rank's report: the report's names, the call's by its function, not which compile of it ran
  const { report } = await loadReport(path.join(FIXTURES, 'reports/ddp-ranks-cpu/report.json'));
  const frames = report.modes[0]!.compiler!.rankPhases![1]!.compiler.frames ?? null;
  assert.equal(
    markSaid(marks[stall]!, frames, null, around[stall]).text,
    "forward, recompiled for x's size 8 in dimension 0, inside DistributedDataParallel at ddp_train.py:77",
  );
});

test('a call named by place under the band of a compile run inside it names the call that compiled, as the band does', () => {
  // review 14 T2, 16Z: "4th compiled call's recompile (addmm), inside the 1st" over "1st compiled call in the step"
  // read as an ordering bug: the slice says the 4th recompiled there too
  const host: PlacedCall = { compileId: '0/1', ordinal: '1st', within: 'in the step', ops: '', code: null, attempt: 1 };
  const inner: PlacedCall = { ...host, compileId: '4/1', ordinal: '4th', ops: 'addmm' };
  assert.equal(hostedWords(host, '4/1', [host, inner]), 'where the 4th recompiled');
  assert.equal(hostedWords(host, '4/0', [host, { ...inner, compileId: '4/0', attempt: 0 }]), 'where the 4th compiled');
  // its own frame's compile, or a call outside the steps, is no other call's in the step
  assert.equal(hostedWords(host, '0/1', [host, inner]), null);
  assert.equal(hostedWords(host, '4/1', [host, { ...inner, within: 'outside the steps' }]), null);
});
