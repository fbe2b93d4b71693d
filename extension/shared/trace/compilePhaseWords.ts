// Dynamo's and Inductor's compile phases as a trace records them, in the words the compile-phases chart says them:
// the runner's labels (compiler/phase_labels.json, the one table both read: "Dynamo: whole frame", "AOT Autograd",
// "load from cache"), then the rest of what a compile records. A trace's name says no device, so its phases are said
// in the table's `labels`, not its CPU words (`onCpu`: the runner's bars of a CPU run, phase_names.py).
// PyTorch's `dynamo_timed` records each phase twice on the profiler's thread, once by its key
// ("GraphLowering.compile_to_fn") and once with " (dynamo_timed)" after it (review 9E E4/E5: the plain twin read as a
// "CPU op" and both as raw internals): both are the same phase, so both are compile slices and both are said alike.
// A trace opened without its report has only these names, so they are worded here, not by the runner.
import PHASE_TABLE from '../../../native-runner/compile_lens_runner/compiler/phase_labels.json';

const CHART_LABELS = PHASE_TABLE.labels;

/** A phase's key (the trace's name without " (dynamo_timed)") in words, where the chart has them or names its span. */
const PHASE_WORDS = new Map([
  ...Object.entries(CHART_LABELS),
  // the same spans by the function the chart's span names in its `fn_name=` (entire_frame_compile is
  // _compile.compile_inner's, backend_compile OutputGraph.call_user_compiler's, ...)
  ['_compile.compile_inner', CHART_LABELS.entire_frame_compile],
  ['OutputGraph.call_user_compiler', CHART_LABELS.backend_compile],
  ['compile_fx_inner', CHART_LABELS.inductor_compile],
  ['GraphLowering.compile_to_module', CHART_LABELS.code_gen],
  // the rest of what a compile records, each by what it does
  ['dynamo', 'Dynamo: compile'],
  ['gc', 'Dynamo: garbage collection before compiling'],
  ['pgo.dynamic_whitelist', 'Dynamo: dynamic shapes from earlier runs'],
  ['insert_deferred_runtime_asserts', 'Dynamo: runtime asserts'],
  ['aot_compile', 'AOT compile'],
  ['aot_collect_metadata', 'AOT Autograd: metadata'],
  ['aot_trace_joint_graph', 'AOT Autograd: forward and backward graph'],
  ['min_cut_rematerialization_partition', 'AOT Autograd: split into forward and backward'],
  ['compile_fx.<locals>.fw_compiler_base', 'forward compile'],
  ['compile_fx', 'Inductor'],
  ['fx_codegen_and_compile', 'Inductor: lower, codegen and compile'],
  ['additional_fake_tensor_prop', 'Inductor: shape propagation'],
  ['_recursive_pre_grad_passes', 'Inductor: pre-grad passes'],
  ['_recursive_joint_graph_passes', 'Inductor: joint-graph passes'],
  ['_recursive_post_grad_passes', 'Inductor: post-grad passes'],
  ['Scheduler.__init__', 'Inductor: scheduling'],
  ['Scheduler.fused_nodes', 'Inductor: fusion'],
  ['GraphLowering.codegen', 'Inductor: generate code'],
  ['GraphLowering.compile_to_fn', 'Inductor: codegen and load'],
  ['PythonWrapperCodegen.generate', 'Inductor: wrapper codegen'],
  ['async_compile.wait', 'Inductor: waiting for kernel compiles'],
  ['TritonBundler.collect', 'Inductor: bundle Triton kernels'],
  ['TritonBundler.read_and_emit', 'Inductor: load bundled Triton kernels'],
  ['TritonBundler.load_cached_static_autotuners', 'autotune'],
  ['StaticAutotunerFuture.warm_precompile', 'autotune'],
]);

const TIMED = ' (dynamo_timed)';
/** one Inductor pass: "pass.post_grad_passes.remove_noop_ops" */
const PASS = /^pass\.(pre_grad|joint_graph|post_grad)_passes\.(\w+)$/;
/** Dynamo's attempts at one frame, each its trace and the compile of what it captured (a restart is the next) */
const ATTEMPT = /^compile_attempt_(\d+)$/;

/**
 * A compile phase's name in words ("GraphLowering.compile_to_fn (dynamo_timed)" and "GraphLowering.compile_to_fn"
 * are "Inductor: codegen and load"; "pass.post_grad_passes.remove_noop_ops" is "Inductor: post-grad pass
 * remove_noop_ops"; "compile_attempt_0" is "Dynamo: trace and compile", a restarted one "Dynamo: trace and compile
 * again (attempt 2: the one before given up, restarted)", as the chart says its traces, "(given up, restarted)" and
 * "(again)" (review E5: "Dynamo: attempt 1" said nothing; 19Y Y5), another " (dynamo_timed)" one "compile phase
 * <key>"; null for a name that is no compile phase.
 */
export function compilePhaseWords(name: string): string | null {
  const timed = name.endsWith(TIMED);
  const key = timed ? name.slice(0, -TIMED.length) : name;
  const words = PHASE_WORDS.get(key);
  if (words) return words;
  const pass = PASS.exec(key);
  if (pass) return `Inductor: ${pass[1]!.replace('_', '-')} pass ${pass[2]}`;
  const attempt = ATTEMPT.exec(key);
  if (attempt) {
    const n = Number(attempt[1]);
    return n
      ? `Dynamo: trace and compile again (attempt ${n + 1}: the one before given up, restarted)`
      : 'Dynamo: trace and compile';
  }
  return timed ? `compile phase ${key}` : null;
}

/** Whether a name is a compile phase's (compilePhaseWords names it): the timeline colours it as compile. */
export const isCompilePhase = (name: string): boolean => compilePhaseWords(name) !== null;
