// A trace's names as the timeline says them, where the profiler's are the compiler's codes: a compiled call
// ("Torch-Compiled Region: 0/1") by its function, Inductor's run of a compiled graph ("## Call CompiledFxGraph
// f73ycg… ##") and the kernels it generated ("graph_1_cpp_fused_add_mul_relu_0") by the compiled call they ran in
// and their place in it, a profiler step ("ProfilerStep#2") as "step 2", the profiler's own span as "profiling",
// PyTorch's wrappers around a graph and library kernels by what they do (shared/trace/traceWords.ts: "TorchDynamo
// Cache Lookup" is "checking the compiled code's guards", "sm80_xmma_gemm_…" "matrix multiply (cuBLAS)"). The compiled call is the one enclosing
// the name's first slice on a CPU thread (for a kernel seen only on a GPU, its launch's): a graph's or kernel's name
// is its graph's alone, so its first slice speaks for every one. The lines a name cites ("lines 12, 13", "forward
// after line 24") follow the user's edits, as the report panel's do (shared/movedLines.ts).
import {
  compiledCallName,
  compileName,
  contextlibWords,
  graphRunName,
  markLabel,
  tracedCompileName,
} from '../../extension/present/compileNames.ts';
import { kernelForSlice } from '../../extension/present/kernelLinks.ts';
import { generatedKernelWords, readGeneratedName } from '../../extension/present/kernelNames.ts';
import { saidAfterEdits, type LinesNow } from '../../extension/shared/movedLines.ts';
import type { CompiledFrame, GraphBreak, KernelProvenance } from '../../extension/shared/report.ts';
import { cellLineLabel, placeOf, type SourcePlace } from '../../extension/shared/sourcePlace.ts';
import { slicesByCorrelation } from '../../extension/shared/trace/flowLinks.ts';
import { lastStartingBy, levelsOf } from '../../extension/shared/trace/levels.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { callsByPlace, placedCalls, placedName, type PlacedCall } from './compiledCalls.ts';
import { isGraphRun, regionNames, type TimelineMark } from '../../extension/shared/trace/timelineMarks.ts';
import { traceNameWords } from '../../extension/shared/trace/traceWords.ts';

const PROFILER_STEP = /^ProfilerStep#(\d+)$/;
// the profiler's own span on its track, numbered by its session ("PyTorch Profiler (0)"): the window it recorded
const PROFILER_SESSION = /^PyTorch Profiler \(\d+\)$/;

/**
 * A profiler step's name in words: "ProfilerStep#2" is "step 2"; steps found otherwise ("call 2") as they are. In a
 * window of the script's own calls opened at its call `fromCall` (the profiler's warm-up step, not recorded), step N
 * is the script's call fromCall + N, numbered as the runner numbers them (script/in_situ_report.py): "call 5".
 */
export function stepWords(name: string, fromCall: number | null = null): string {
  const step = PROFILER_STEP.exec(name);
  if (!step) return name;
  return fromCall === null ? `step ${step[1]}` : `call ${fromCall + Number(step[1])}`;
}

/** A model whose profiler steps are the script's calls from `fromCall` on (stepWords), its steps labelled so. */
export function stepsAsCalls(model: TraceModel, fromCall: number | null): TraceModel {
  if (fromCall === null) return model;
  return { ...model, steps: model.steps.map((step) => ({ ...step, label: stepWords(step.label, fromCall) })) };
}

/** A name in words and the file (or cell) its bare "line 9" is in: null where it names no line of the user's. */
export interface SaidName {
  text: string;
  own: SourcePlace | null;
}

/** Where the lines of a compile's name are: its function's file. */
export const compilePlace = (frames: readonly CompiledFrame[] | null, compileId: string | null): SourcePlace | null => {
  const location = compileId ? frames?.find((f) => f.compileId === compileId)?.location : null;
  return location ? placeOf(location) : null;
};

/**
 * Per name id, the name in words where the trace's is a compiler code (the rest: as the trace says them), as the
 * report said it. `frames` and `kernels`: the compiles and kernels of the report entry the trace was profiled for
 * (null: a trace opened without its report), which name a compile by its function and a kernel's user lines;
 * `hosts`: the calls named by place that another frame's compile ran inside (callsAround).
 */
export function namesSaid(
  model: TraceModel,
  frames: readonly CompiledFrame[] | null,
  kernels: KernelProvenance[] | null,
  fromCall: number | null = null,
  hosts: readonly PlacedCall[] = [],
): Map<number, SaidName> {
  const shown = new Map<number, SaidName>();
  const plain = (text: string): SaidName => ({ text, own: null });
  for (const [id, compileId] of regionNames(model)) {
    // a call named by place that another frame's compile ran inside: by its place alone, its attempt left to its own
    // compile's band (review 14 T2: "1st compiled call in the step, recompile 1" under the band of the 4th call's
    // recompile, two recompiles read for one 2 s stall; the 1st's ran 55 ms before)
    const host = hosts.find((call) => call.compileId === compileId);
    shown.set(id, {
      text: host ? placedName(host, 0) : compiledCallName(frames, compileId),
      own: compilePlace(frames, compileId),
    });
  }
  const wanted = new Uint8Array(model.names.length);
  const torchTypes = torchTypeObjects(model.names);
  model.names.forEach((name, id) => {
    if (PROFILER_STEP.test(name)) shown.set(id, plain(stepWords(name, fromCall)));
    else if (PROFILER_SESSION.test(name)) shown.set(id, plain('profiling'));
    else if (traceNameWords(name)) shown.set(id, plain(traceNameWords(name)!));
    else if (isGraphRun(name) || readGeneratedName(name)) wanted[id] = 1;
    else {
      const frame = pythonFrameWords(name, torchTypes);
      if (frame !== name) shown.set(id, plain(frame));
    }
  });
  if (!wanted.includes(1)) return shown;
  for (const [id, compileId] of enclosingCompiles(model, wanted)) {
    const name = model.names[id]!;
    if (isGraphRun(name)) {
      shown.set(id, { text: graphRunName(frames, compileId), own: compilePlace(frames, compileId) });
      continue;
    }
    const kernel = kernels ? kernelForSlice(name, kernels, compileId) : null;
    const compile = compileId
      ? tracedCompileName(frames, compileId)
      : kernel?.compileId
        ? compileName(frames, kernel.compileId)
        : null;
    const own = kernel?.sourceLines[0];
    // the report's kernel in the runner's words (schema 1.28); a trace without a report, or a report before them
    shown.set(id, {
      text: kernel?.nameText ?? generatedKernelWords(name, compile, kernel?.sourceLines ?? null) ?? name,
      own: own ? placeOf(own) : compilePlace(frames, compileId ?? kernel?.compileId ?? null),
    });
  }
  return shown;
}

// Inductor's generated module: a hash-named file in its cache ("/tmp/torchinductor_me/o2/co2zx5luqj….py(127): call")
const GENERATED_MODULE = /^(?:.*\/)?(c[a-z0-9]{40,})\.py\((\d+)\): (.+)$/;
// this tool's own frames, around the user's calls it profiles
const RUNNER_FRAME = /^(?:.*\/)?compile_lens_runner\/(?:.*\/)?([^/]+\.py)\((\d+)\): (.+)$/;

/** torch.compile's wrapper around the user's function (eval_frame.py's compile_wrapper or _fn) */
export const TORCH_COMPILE_WRAPPER = "torch.compile's wrapper";
/** the same wrapper inside one: the user's compiled code calling its graph (Dynamo wraps the graph's call in _fn too),
 *  not a second compile (review 15W W4: "torch.compile's wrapper" above and below the user's forward) */
export const COMPILED_GRAPH_CALL = "compiled code's call of its graph";

/** the compiled module's __call__ and the profiler's record of that module's call in it (traceWords.ts) */
export const COMPILED_MODULE = 'compiled module';
/** nn.Module's call of a module (_call_impl), under the profiler's record of that module's call */
export const MODULE_CALL = 'module call';
/** a thread's root frames, threading's _bootstrap and the _bootstrap_inner it calls: one start */
export const THREAD_START = 'thread start';
/** Words that two nested frames say of one call (a thread's start in _bootstrap and _bootstrap_inner, the compiled
 *  module's __call__ and the profiler's record of it): the inner one adds nothing, its hover names it (review 16Z Z5:
 *  "thread start (2 of 2)" read as a second start, "compiled module (2 of 2)" as the model wrapped twice). */
export const ONE_CALL_WORDS: ReadonlySet<string> = new Set([THREAD_START, COMPILED_MODULE]);

/** The inner frame of one call said twice (ONE_CALL_WORDS), and nn.Module's call under its module's record, in quiet
 *  words of its own: never its parent's again ("thread start (2 of 2)", review 16Z Z5), never a wide bar left blank
 *  (review 17Z Z2: four blank full-width bars in the unfolded stack read as a drawing failure). `name`: the frame as
 *  the trace names it; a frame without words of its own is said by its function ("_bootstrap_inner"). */
export function innerFrameWords(name: string): string {
  if (name.startsWith('nn.Module: ')) return "the profiler's record of its call";
  if (/(?:^|\/)threading\.py\(\d+\): _bootstrap_inner$/.test(name)) return "Python's thread bootstrap";
  if (/(?:^|\/)torch\/nn\/modules\/module\.py\(\d+\): (?:_call_impl|_wrapped_call_impl)$/.test(name))
    return "nn.Module's call";
  return /\): ([A-Za-z_]\w*)$/.exec(name)?.[1] ?? name;
}

/** PyTorch's internal frames a user meets on the timeline without acting there, by what they do (review s29:
 *  "subproc_pool.py" and "_cuda_setDevice" read as places); the frame itself stays in the slice's tooltip. */
const TORCH_INTERNALS: [RegExp, string][] = [
  // the compile workers' thread by what its frames do, not by the track's own name twice over it (review 16Z Z5:
  // "Inductor's compile workers (2 of 2)" under the track "Inductor's compile workers")
  [
    /^(?:.*\/)?torch\/_inductor\/compile_worker\/subproc_pool\.py\(\d+\): _read_thread$/,
    "reading the workers' replies",
  ],
  [/^(?:.*\/)?torch\/_inductor\/compile_worker\/subproc_pool\.py\(\d+\): _recv_msg$/, "waiting for a worker's reply"],
  [/^(?:.*\/)?torch\/_inductor\/compile_worker\/[^/]+\.py\(\d+\): /, "Inductor's compile workers"],
  // a compiled call's way down to its kernels (review 13 Q3: "torch: run (triton_heuristics.py:1407)", "torch:
  // call_func_at_runtime_with_args (utils.py:124)" in the unfolded stack): torch.compile's wrapper, AOTAutograd's,
  // Inductor's graph, then the launch of each kernel it generated
  [/^(?:.*\/)?torch\/_dynamo\/eval_frame\.py\(\d+\): (?:_fn|compile_wrapper)$/, TORCH_COMPILE_WRAPPER],
  // (review 14 T5: "torch: __call__ (eval_frame.py:460)", "torch: _call_impl (module.py:1783)" twice) the compiled
  // module's __call__, said as the profiler's record of that module in it is (review 15W W4: "compiled module's call"
  // over "compiled module" read as compiled twice), then nn.Module's call of each module inside it
  [/^(?:.*\/)?torch\/_dynamo\/eval_frame\.py\(\d+\): __call__$/, COMPILED_MODULE],
  [/^(?:.*\/)?torch\/nn\/modules\/module\.py\(\d+\): (?:_call_impl|_wrapped_call_impl)$/, MODULE_CALL],
  [
    /^(?:.*\/)?torch\/_functorch\/(?:_aot_autograd\/(?:runtime_wrappers|utils)|aot_autograd)\.py\(\d+\): (?:wrapper|runtime_wrapper|call_func_at_runtime_with_args|__call__|forward)$/,
    "AOTAutograd's wrapper",
  ],
  [/^(?:.*\/)?torch\/_inductor\/output_code\.py\(\d+\): __call__$/, "Inductor's compiled graph"],
  // (its inputs copied where misaligned, then the graph's code run)
  [/^(?:.*\/)?torch\/_inductor\/utils\.py\(\d+\): run$/, "Inductor's compiled graph, inputs aligned"],
  [/^(?:.*\/)?torch\/_inductor\/runtime\/triton_heuristics\.py\(\d+\): run$/, "Inductor's kernel launch"],
  [/^(?:.*\/)?torch\/_inductor\/runtime\/static_triton_launcher\.py\(\d+\): run$/, "Inductor's static launcher"],
  [
    /^<built-in function _cuda_(?:setDevice|init|isInBadFork|getDeviceCount)>$|^(?:.*\/)?torch\/cuda\/__init__\.py\(\d+\): (?:_lazy_init|is_initialized|set_device|init)$/,
    'CUDA set-up',
  ],
  [/^<built-in function _cuda_(?:exchangeDevice|maybeExchangeDevice)>$/, 'CUDA device switch'],
];

// a built-in as the profiler's Python tracer names it: "<built-in method mm of type object at 0x7f…>",
// "<built-in method size of Tensor object at 0x…>", "<built-in function linear>"
const BUILT_IN = /^<built-in (?:function (\w+)|method (\w+) of (?:([\w.]+) object)?[^>]*?)(?: at (0x[0-9a-f]+))?>$/;
// a file of a library: its path inside the package the profiler strips site-packages from ("torch/nn/modules/
// module.py(1783): _call_impl"), not an absolute path (the user's files, Inductor's generated code) nor a bare file
const LIBRARY_FRAME = /^(?:.*\/(?:site|dist)-packages\/)?([A-Za-z_]\w*)\/(?:[^()]*\/)?([^/()]+\.py)\((\d+)\): (.+)$/;

// a frame of a file outside any library: the user's ("anchors.py(191): <module>", "/home/me/model.py(3): forward"),
// or Python's own, which the profiler names by file alone ("threading.py(359): wait") or under its lib/python3.x
const FILE_FRAME = /^(?:(.*)\/)?([A-Za-z_]\w*)\.py\((\d+)\): (<module>|[A-Za-z_]\w*)$/;
/** a folder of Python's own modules: "/usr/lib/python3.11", not a user's folder that holds a queue.py */
const PYTHON_LIB = /(?:^|\/)lib\/python3(?:\.\d+)?$/;
// a frame of Python's own modules frozen into the interpreter: "<frozen os>(779): getenv"
const FROZEN_FRAME = /^<frozen ([\w.]+)>\(\d+\): ([A-Za-z_]\w*)$/;
/** Python's own modules a profiled stack meets (threads, context managers, enums), by file: "Python's threading" */
const PYTHON_MODULES = new Set([
  'threading',
  'contextlib',
  'enum',
  'functools',
  'abc',
  'typing',
  'selectors',
  'queue',
  'socket',
  'subprocess',
  'weakref',
  'runpy',
  'dataclasses',
  'warnings',
]);

/** threading's frames that start a thread: its root, said as such, and then Thread.run, its work (review 15W W3: two
 *  folded tracks read "_bootstrap (Python's threading)" alone) */
const THREAD_ROOTS = new Set(['_bootstrap', '_bootstrap_inner']);

/**
 * The type objects (by address) whose built-in methods are torch's functions ("<built-in method mm of type object
 * at 0x7f95…>" is torch.mm): those one of whose methods the trace also ran as the ATen op of that name ("aten::mm").
 */
export function torchTypeObjects(names: readonly string[]): Set<string> {
  const aten = new Set(names.flatMap((name) => /^aten::(\w+)$/.exec(name)?.slice(1) ?? []));
  const found = new Set<string>();
  for (const name of names) {
    const [, , method, type, at] = BUILT_IN.exec(name) ?? [];
    if (method && type === 'type' && at && aten.has(method)) found.add(at);
  }
  return found;
}

/**
 * A Python frame's name as the timeline says it, its start saying what ran at every width (review 10 D13: "<built-in
 * method mm of ty…", "torch/_in…" in the folded stack's row): Inductor's generated module by what it is ("Inductor's
 * generated code, call": its hashed file name read as raw, review 16Z Z5), this
 * tool's own frames as its ("Compile Lens: profiling.py:163, profile"), PyTorch's internals a user does not act in by
 * what they do ("Inductor's compile workers", "CUDA set-up"), a built-in by its name as Python code calls it
 * ("torch.mm" where `torchTypes` holds its type object's address, "Tensor.size", "linear"), a library's file by the
 * function and library ("get_profiler_kwargs (torch's triton_heuristics.py:1385)"), Python's own by function and module ("wait (Python's
 * threading)", "getenv (Python's os)" of "<frozen os>(779): getenv"), the user's file by its line in words ("anchors.py line 191, module level": review 11 I9, two frame
 * forms in one stack); any other name as it is.
 */
export function pythonFrameWords(name: string, torchTypes: ReadonlySet<string> = new Set()): string {
  const internal = TORCH_INTERNALS.find(([frame]) => frame.test(name));
  if (internal) return internal[1];
  const generated = GENERATED_MODULE.exec(name);
  // by what it is, its hashed file left to the hover (review 16Z Z5: "cezje7…py:94, call" read as raw)
  if (generated) return `Inductor's generated code, ${generated[3]}`;
  const runner = RUNNER_FRAME.exec(name);
  if (runner) return `Compile Lens: ${runner[1]}:${runner[2]}, ${runner[3]}`;
  const library = LIBRARY_FRAME.exec(name);
  // the function first, so a cut keeps it (review 14 T5: "torch: …" cut to its library alone)
  if (library) return `${library[4]} (${library[1]}'s ${library[2]}:${library[3]})`;
  const frozen = FROZEN_FRAME.exec(name);
  if (frozen) return `${frozen[2]} (Python's ${frozen[1]})`;
  const file = FILE_FRAME.exec(name);
  if (file) {
    const [, folder, module, line, fn] = file;
    // a user's own queue.py is theirs (code read 6: "worker (Python's queue)")
    if (PYTHON_MODULES.has(module!) && (folder === undefined || PYTHON_LIB.test(folder))) {
      // a with statement's context manager by what it does, as its compile is named (review 13 F5)
      const does = module === 'contextlib' ? contextlibWords(fn!) : null;
      if (module === 'threading' && THREAD_ROOTS.has(fn!)) return THREAD_START;
      if (module === 'threading' && fn === 'run') return "thread's work";
      return does ? `${does} (contextlib)` : `${fn} (Python's ${module})`;
    }
    return `${module}.py line ${line}, ${fn === '<module>' ? 'module level' : fn}`;
  }
  const builtIn = BUILT_IN.exec(name);
  if (!builtIn) return name;
  const [, fn, method, type, at] = builtIn;
  if (fn) return fn;
  // a method of torch's functions' type object is torch's function; of another type object, the type is unknown;
  // of pybind11's function records (torch._C's), of no type a user names
  // (one of ATen's private ops said in words, as its op's slice says it: "torch._foreach_copy_", review 14 S8)
  if (type === 'type')
    return at && torchTypes.has(at) ? (traceNameWords(`aten::${method}`) ?? `torch.${method}`) : method!;
  return type && !type.startsWith('pybind11_builtins.') ? `${type}.${method}` : method!;
}

// a frame of code the user (or a library outside torch) wrote: not torch's, not a built-in, not Python's <string>
const CODE_FRAME = /^(?!torch\/|<)(?:.*\/)?[^/<>]+\.py\(\d+\): ([A-Za-z_]\w*)$/;

/**
 * The compiles of a trace opened without its report, by the code they ran: each compiled call ("Torch-Compiled
 * Region: 0/1") by the first frame of code outside torch that starts inside it on its thread's Python stack (its
 * function: Dynamo runs the frame it compiled there; a resumed one after a graph break is
 * "torch_dynamo_resume_in_forward_at_24"). Empty where the trace has no Python stacks (the profile was taken
 * without with_stack): compilesOfTrace then names them by their place.
 */
export function tracedFrames(model: TraceModel): CompiledFrame[] {
  const regions = regionNames(model);
  const stackOf = new Map<string, number>();
  model.tracks.forEach((t, k) => {
    if (t.stack) stackOf.set(`${t.pid}\u0000${t.tid}`, k);
  });
  if (!regions.size || !stackOf.size) return [];
  const code = new Map<number, string>();
  model.names.forEach((name, id) => {
    const fn = CODE_FRAME.exec(name)?.[1];
    if (fn && !GENERATED_MODULE.test(name) && !RUNNER_FRAME.test(name)) code.set(id, fn);
  });
  const trackRows = new Map<number, [number, number]>();
  for (let i = 0; i < model.count; i++) {
    const rows = trackRows.get(model.track[i]!);
    if (rows) rows[1] = i + 1;
    else trackRows.set(model.track[i]!, [i, i + 1]);
  }
  const found = new Map<string, string>();
  for (let i = 0; i < model.count; i++) {
    const compileId = regions.get(model.name[i]!);
    if (!compileId || found.has(compileId)) continue;
    const t = model.tracks[model.track[i]!]!;
    const rows = trackRows.get(stackOf.get(`${t.pid}\u0000${t.tid}`) ?? -1);
    if (!rows) continue;
    const from = model.start[i]!;
    const to = from + model.dur[i]!;
    let first = -1;
    for (let j = rows[0]; j < rows[1]; j++)
      if (code.has(model.name[j]!) && model.start[j]! >= from && model.start[j]! <= to)
        if (first < 0 || model.start[j]! < model.start[first]!) first = j;
    if (first >= 0) found.set(compileId, code.get(model.name[first]!)!);
  }
  return [...found].map(([compileId, fn]) => ({ compileId, function: fn, seconds: 0 }));
}

/**
 * The compiles of a trace opened without its report, as the trace names them: by the code they ran where it has
 * Python stacks (tracedFrames), else by their place in the step and the ops they run (callsByPlace, `byPlace`).
 */
export function compilesOfTrace(model: TraceModel): TracedCompiles {
  const byCode = tracedFrames(model);
  if (byCode.length) return { frames: byCode, byPlace: false, placed: [] };
  const placed = placedCalls(model);
  return { frames: callsByPlace(placed), byPlace: true, placed };
}

/** A trace's compiles as it names them (compilesOfTrace): by code, or by place, then with the parts of each name. */
export interface TracedCompiles {
  frames: CompiledFrame[];
  byPlace: boolean;
  placed: PlacedCall[];
}

/** A name with the lines it cites where they are after the user's edits (`now`). */
export const nameNow = ({ text, own }: SaidName, now: LinesNow): string =>
  own ? saidAfterEdits(text, own, now) : text;

/** The names of `namesSaid`, each as nameNow says it. */
export const namesNow = (said: ReadonlyMap<number, SaidName>, now: LinesNow): Map<number, string> =>
  new Map([...said].map(([id, name]) => [id, nameNow(name, now)]));

/** "line 22", or in a notebook "cell 3, line 7". */
const lineWords = (at: { line: number; cell?: number | null }): string =>
  at.cell == null ? `line ${at.line}` : cellLineLabel({ cell: at.cell, line: at.line });

/** What a graph break's band spans: the eager code run between the graph before the break and the one resuming
 *  after it (not the break's cost, which it read as). */
const BETWEEN_GRAPHS = 'eager code between graphs';
/** The same where the profiler recorded no op there: Python alone ran (or nothing it records), not the ops that the
 *  compiled call's name lists (review 6A H2). */
const PYTHON_BETWEEN_GRAPHS = 'Python between graphs, no op recorded';

/**
 * A timeline mark's label (compileNames.markLabel) with the file its lines are in; a graph break by the line that
 * broke where the report has it ("graph break at line 22, in forward after line 20": the frame alone named the line
 * of the break before it), what its band spans after that: a label cut to the lane keeps the break and its line
 * (review 8B B1: "Python b…"); a compile run inside another frame's call (`around`, callsAround) with that call
 * ("…, recompile 1, inside 1st compiled call in the step"). `breaks`: the graph breaks of the pane's report entry;
 * `placed`: the parts of the names of `frames` where they are the trace's calls by place (compilesOfTrace).
 */
export function markSaid(
  mark: TimelineMark,
  frames: readonly CompiledFrame[] | null,
  breaks: readonly GraphBreak[] | null = null,
  around: string | null = null,
  placed: readonly PlacedCall[] = [],
): SaidName {
  const broke =
    mark.kind === 'graph-break' && mark.compileId ? breaks?.find((b) => b.compileId === mark.compileId) : undefined;
  const between = mark.opsRecorded === 0 ? PYTHON_BETWEEN_GRAPHS : BETWEEN_GRAPHS;
  if (broke?.location)
    return {
      text: `graph break at ${lineWords(broke.location)}, in ${compileName(frames, mark.compileId)}: ${between}`,
      own: placeOf(broke.location),
    };
  const text = markLabel(mark, frames);
  return {
    text:
      mark.kind === 'graph-break'
        ? `${text}: ${between}`
        : around
          ? compiledInside(text, frames, mark.compileId!, around, placed)
          : text,
    own: compilePlace(frames, mark.compileId ?? null),
  };
}

/**
 * A compile's words (`own`) with the call it ran inside (`host`, another frame's call by its function, not which
 * compile of it ran: the slice under the band says that): "forward, recompile 1, inside helper"; two calls a trace
 * names by place (`placed`), from their parts, whose compile it is, which, and the call it ran in as few words: "4th
 * compiled call's recompile (addmm), inside the 1st", the host's ops and attempt left to its slice (review 13 Q1/P2:
 * "4th compiled call …, recompile 1, inside 1st compiled call in the step" over the slice "1st compiled call in the
 * step, recompile 1" claimed one 2 s stall for two recompiles; code read 37 item 4: a host running ops of its own,
 * "(mm)", fell back to that form).
 */
function compiledInside(
  own: string,
  frames: readonly CompiledFrame[] | null,
  compileId: string,
  host: string,
  placed: readonly PlacedCall[],
): string {
  const call = placed.find((c) => c.compileId === compileId);
  const around = placed.find((c) => c.compileId === host);
  if (!around || call?.within !== around.within)
    // the host by its call, not which compile of it ran: its place's name, or the report's less its attempt
    return `${own}, ${INSIDE}${around ? placedName(around, 0) : tracedCompileName(frames, host).replace(/, recompiled? .*$/, '')}`;
  const which = call.attempt === 0 ? 'compile' : call.attempt === 1 ? 'recompile' : `recompile ${call.attempt}`;
  const ops = call.ops ? ` (${call.ops})` : '';
  const code = call.code === null ? '' : `, code ${call.code}`;
  const hostCode = around.code === null ? '' : ` (code ${around.code})`;
  // "in the step" said once by the slice under it; "outside the steps" kept: it says where the band is
  const where = call.within === 'in the step' ? '' : ` ${call.within}`;
  return `${call.ordinal} compiled call's ${which}${ops}${code}, ${INSIDE}the ${around.ordinal}${hostCode}${where}`;
}
/** the words that join a compile's name to the call it ran inside (overlays.ts shortens a label around them) */
export const INSIDE = 'inside ';

/**
 * The words a call's slice (`host`, named by place) adds where another call's compile ran inside it, whose band lies
 * over it (compiledInside): "where the 4th recompiled", so the slice and the band over it name the same call as the
 * one that recompiled (review 14 T2, 16Z: "4th compiled call's recompile (addmm), inside the 1st" over a slice that
 * named the 1st alone read as an ordering bug, or as two recompiles for one 2 s stall). Null for a compile of a call
 * not named by place, or one of the host's own frame.
 */
export function hostedWords(host: PlacedCall, compileId: string, placed: readonly PlacedCall[]): string | null {
  const call = placed.find((c) => c.compileId === compileId && c.within === host.within);
  if (!call || call.compileId.split('/')[0] === host.compileId.split('/')[0]) return null;
  return `where the ${call.ordinal} ${call.attempt === 0 ? 'compiled' : 'recompiled'}`;
}

/**
 * Per compile mark of `marks`, the compile id of the compiled call of another frame it ran inside on its thread (the
 * innermost), else null: a frame first run inside another's call (resumed after its graph break) is compiled there,
 * and its band lies over that call's slice (review 11 I1/J1/K2: "4th compiled call …, recompile 1" over "1st
 * compiled call in the step, recompile 1", two calls named for one 2 s stall).
 */
export function callsAround(model: TraceModel, marks: readonly TimelineMark[]): (string | null)[] {
  const regions = regionNames(model);
  return callSlicesAround(model, marks).map((i) => (i < 0 ? null : regions.get(model.name[i]!)!));
}

/** Per mark of `marks`, the slice of the call callsAround finds it ran inside, else -1. */
export function callSlicesAround(model: TraceModel, marks: readonly TimelineMark[]): number[] {
  const regions = regionNames(model);
  const calls: number[] = [];
  for (let i = 0; i < model.count; i++) if (regions.has(model.name[i]!)) calls.push(i);
  return marks.map((mark) => {
    if ((mark.kind !== 'compile' && mark.kind !== 'recompile') || !mark.compileId) return -1;
    const frame = mark.compileId.split('/')[0];
    const end = mark.startUs + mark.durUs;
    let found = -1;
    for (const i of calls)
      if (
        model.track[i] === mark.track &&
        regions.get(model.name[i]!)!.split('/')[0] !== frame &&
        model.start[i]! <= mark.startUs &&
        end <= model.start[i]! + model.dur[i]! &&
        (found < 0 || model.start[i]! >= model.start[found]!)
      )
        found = i;
    return found;
  });
}

/** Per name id of `wanted` (1: asked for), the compile id of the compiled call its first slice ran in, or null. */
function enclosingCompiles(model: TraceModel, wanted: Uint8Array): Map<number, string | null> {
  const out = new Map<number, string | null>();
  const onCpu = new Map<number, number>();
  const onGpu = new Map<number, number>();
  for (let i = 0; i < model.count; i++) {
    const name = model.name[i]!;
    if (!wanted[name]) continue;
    const first = model.tracks[model.track[i]!]?.gpu ? onGpu : onCpu;
    if (!first.has(name)) first.set(name, i);
  }
  const regions = regionNames(model);
  for (const [name, i] of onCpu) out.set(name, enclosingRegion(model, regions, i));
  // a kernel seen only on a GPU: the compiled call around its launch
  const launchIds = new Map<number, number>();
  for (const [name, i] of onGpu)
    if (!onCpu.has(name) && model.correlation[i]! >= 0) launchIds.set(name, model.correlation[i]!);
  const launches = slicesByCorrelation(model, new Set(launchIds.values()), false);
  for (const name of onGpu.keys()) {
    if (onCpu.has(name)) continue;
    const launch = launches.get(launchIds.get(name) ?? -1)?.[0];
    out.set(name, launch === undefined ? null : enclosingRegion(model, regions, launch));
  }
  return out;
}

/** The innermost compiled call ("Torch-Compiled Region") around slice i on its track: its compile id, or null. */
function enclosingRegion(model: TraceModel, regions: ReadonlyMap<number, string>, i: number): string | null {
  const levels = levelsOf(model);
  const first = levels.trackLevels[model.track[i]!]!;
  const start = model.start[i]!;
  const end = start + model.dur[i]!;
  for (let level = first + model.depth[i]! - 1; level >= first; level--) {
    const from = levels.levelStart[level]!;
    const j = lastStartingBy(model, from, levels.levelStart[level + 1]!, start);
    if (j < from || model.start[j]! + model.dur[j]! < end) continue;
    const compileId = regions.get(model.name[j]!);
    if (compileId) return compileId;
  }
  return null;
}
