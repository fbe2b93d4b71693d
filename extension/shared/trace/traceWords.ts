// The trace's names a user does not know, in words they do: the one table every surface that shows a trace's
// names says them from. PyTorch's spans around a compiled graph and the profiler's own work by what they do; a
// library's kernel (cuBLAS, cuBLASLt, CUTLASS, cuDNN) by the operation it does and its library ("matrix multiply
// (cuBLAS)", not "sm80_xmma_gemm_f32f32_…_cublas"); ATen's own kernels by their op; an ATen op by what it is in the
// user's model ("addmm: Linear's matrix multiply with bias"). The trace's own name stays beside the words (tooltips,
// the details' "As the profiler recorded it"). Names are data: they go out as text, never as HTML. A compile phase
// as the compile-phases chart says it (compilePhaseWords.ts).
import { compilePhaseWords } from './compilePhaseWords.ts';

/** Spans of PyTorch's and of the profiler's, by what they do (the time outside a compiled call's graph is in them).
 *  The ones around a graph say whose they are, Dynamo's or AOTAutograd's: "set-up" and "wrapper" alone read as one
 *  thing twice in a range's table (review 4A). */
const SPAN_WORDS = new Map([
  ['TorchDynamo Cache Lookup', "checking the compiled code's guards"],
  ['Pregraph bytecode', "Dynamo's bytecode before the graph (gathers its inputs)"],
  ['AOTDispatcher Runtime Wrapper Prologue', "AOTAutograd's wrapper before the graph"],
  ['AOTDispatcher Runtime Wrapper Epilogue', "AOTAutograd's wrapper after the graph"],
  ['CompiledFunction', "compiled graph's autograd function (forward)"],
  ['CompiledFunctionBackward', "compiled graph's backward"],
  ['Activity Buffer Request', "the profiler's own work: a buffer for the GPU's activity records"],
  // Inductor's launch of a generated kernel: the launcher it writes for the kernel (triton_heuristics.py), then its
  // static CUDA launcher's call (static_triton_launcher.py), seen as Python frames
  ['<string>(1): launcher', "Inductor's kernel launcher"],
  ['<built-in function _launch_kernel>', "the kernel's CUDA launch"],
  // the profiler's record of a module's call: torch.compile's wrapper module by what it is (review 13 Q3/P5:
  // "nn.Module: OptimizedModule_0", "DistributedDataParallel.fo…")
  ['DistributedDataParallel.forward', "DDP's forward"],
  // ATen's private ops a user's module or optimizer reaches, by what they do (review 13 O8: "_transformer_enco…",
  // "_native_m…"; review 14 S8: "inside _foreach_copy_, the profiler's own work"); the report explains the fast path
  ['aten::_transformer_encoder_layer_fwd', "TransformerEncoderLayer's fast path"],
  ['aten::_native_multi_head_attention', "MultiheadAttention's fast path"],
  ['aten::_masked_softmax', "attention's masked softmax"],
  ['aten::_foreach_copy_', 'copying a list of tensors'],
]);
/** Shorter whole forms of a span's words, longest first, for a bar too narrow for them: the guard check before a
 *  compiled call is its per-call overhead, left blank in a 55-px bar (review 16Z Z6); a cut "checking…" says none. */
const SPAN_FORMS = new Map<string, readonly string[]>([
  ['TorchDynamo Cache Lookup', ['checking guards', 'guards']],
  ['Pregraph bytecode', ["Dynamo's bytecode before the graph", "Dynamo's bytecode", 'bytecode']],
  ['AOTDispatcher Runtime Wrapper Prologue', ["AOTAutograd's wrapper", 'wrapper']],
  ['AOTDispatcher Runtime Wrapper Epilogue', ["AOTAutograd's wrapper", 'wrapper']],
]);

/** The shorter whole forms of a name's words (traceNameWords), longest first, where it has them; else null. */
export const traceNameForms = (name: string): readonly string[] | null => SPAN_FORMS.get(name) ?? null;

/** torch.compile's module around the user's, as the profiler records its call ("nn.Module: OptimizedModule_0") */
const COMPILED_MODULE = /^nn\.Module: OptimizedModule_\d+$/;
/** the profiler's record of another module's call, by its class and a count of its own ("nn.Module: SimpleNet_0") */
const MODULE_CALL = /^nn\.Module: (\w+?)_\d+$/;

/** A kernel's name as a library or ATen writes it: a C++ signature, or a library's own naming scheme. */
const KERNEL_NAME = /^(?:void |sm\d+_|ampere_|volta_|turing_|hopper_|nvjet_|cutlass|cudnn|fmha_|gemv|gemm)/;

/** Whose a library kernel is, by marks in its name (the first that matches). */
const LIBRARIES: [RegExp, string][] = [
  [/cublasLt|nvjet_/, 'cuBLASLt'],
  // before cuBLAS's marks: a CUTLASS kernel's name holds "sgemm_" too
  [/cutlass/i, 'CUTLASS'],
  [/cublas|^(?:sm\d+|ampere|volta|turing|hopper)_|sgemm_|gemv|scal_kernel/, 'cuBLAS'],
  [/cudnn/i, 'cuDNN'],
];

/** What a library kernel does, by marks in its name (the first that matches). */
const OPERATIONS: [RegExp, string][] = [
  [/fmha|flash|sdpa|attention/i, 'attention'],
  [/splitKreduce/, "split-K matrix multiply's sum of parts"],
  [/epilogue/, "matrix multiply's epilogue"],
  [/fprop|dgrad|wgrad|implicit_gemm|conv/i, 'convolution'],
  [/gemv/i, 'matrix-vector multiply'],
  [/gemm|nvjet_/i, 'matrix multiply'],
  [/scal_kernel/, 'scaling by a number'],
];

/** What a matrix multiply kernel also does, where its name says it ("…_relubias_TNT"). */
const FUSED: [RegExp, string][] = [
  [/relu_?bias|bias_?relu/i, ' with bias and ReLU'],
  [/gelu_?bias|bias_?gelu/i, ' with bias and GELU'],
  [/bias/i, ' with bias'],
];

/** ATen's own CUDA kernels: "void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<…>…". */
const ATEN_KERNEL = /^void at::native::(?:\(anonymous namespace\)::)?(\w+)/;
/** the op an elementwise kernel runs, named in its functor ("CUDAFunctor_add", "launch_clamp_scalar") */
const ELEMENTWISE_OP = /(?:CUDAFunctor(?:OnSelf|OnOther)?_|launch_)([a-z]\w*?)(?:_scalar|_kernel)?\b/;

/**
 * A library's or ATen's kernel in words: "matrix multiply (cuBLAS)", "matrix multiply with bias and ReLU
 * (cuBLASLt)", "add (ATen's elementwise kernel)"; null for any other name.
 */
export function kernelWords(name: string): string | null {
  const aten = ATEN_KERNEL.exec(name);
  if (aten) {
    const kernel = aten[1]!.replace(/^vectorized_|_kernel$|_grid_stride$/g, '');
    const op = ELEMENTWISE_OP.exec(name)?.[1];
    return kernel === 'elementwise' && op
      ? `${op.replace(/_/g, ' ')} (ATen's elementwise kernel)`
      : `${kernel.replace(/_kernel\b/g, '').replace(/_/g, ' ')} (ATen)`;
  }
  if (!KERNEL_NAME.test(name)) return null;
  const operation = OPERATIONS.find(([mark]) => mark.test(name))?.[1];
  if (!operation) return null;
  const fused = operation === 'matrix multiply' ? (FUSED.find(([mark]) => mark.test(name))?.[1] ?? '') : '';
  const library = LIBRARIES.find(([mark]) => mark.test(name))?.[1];
  return `${operation}${fused}${library ? ` (${library})` : ''}`;
}

/** ATen ops by what they are in the user's model: the nn module or the Python that calls them. */
const OP_WORDS = new Map([
  ['addmm', "Linear's matrix multiply with bias"],
  ['mm', 'matrix multiply (a Linear without bias, or @)'],
  ['bmm', 'batched matrix multiply'],
  ['baddbmm', 'batched matrix multiply with bias'],
  ['matmul', 'matrix multiply (@)'],
  ['linear', 'nn.Linear'],
  ['conv1d', 'nn.Conv1d'],
  ['conv2d', 'nn.Conv2d'],
  ['conv3d', 'nn.Conv3d'],
  ['convolution', 'a convolution (nn.Conv*)'],
  ['_convolution', 'a convolution (nn.Conv*)'],
  ['relu', 'ReLU'],
  ['gelu', 'GELU'],
  ['silu', 'SiLU'],
  ['layer_norm', 'nn.LayerNorm'],
  ['native_layer_norm', 'nn.LayerNorm'],
  ['batch_norm', 'nn.BatchNorm'],
  ['native_batch_norm', 'nn.BatchNorm'],
  ['softmax', 'softmax'],
  ['_softmax', 'softmax'],
  ['scaled_dot_product_attention', 'attention (F.scaled_dot_product_attention)'],
  ['embedding', 'nn.Embedding'],
  ['add', '+'],
  ['mul', '*'],
  ['sub', '-'],
  ['div', '/'],
  ['item', '.item(): a value read back to Python'],
  ['_local_scalar_dense', '.item(): a value read back to Python'],
  ['copy_', 'a copy (.copy_(), .to())'],
  ['_to_copy', 'a copy (.to())'],
]);

/** An ATen op as the user knows it: "addmm: Linear's matrix multiply with bias"; "max_pool2d" for one the table
 *  lacks; any other name as it is. */
export function atenOpWords(name: string): string {
  const op = /^aten::(\w+)$/.exec(name)?.[1];
  if (!op) return name;
  const words = OP_WORDS.get(op);
  return words ? `${op}: ${words}` : op;
}

// PyTorch's record of an optimizer's method ("Optimizer.step#AdamW.step"), of autograd's node for an op's backward
// ("AddmmBackward0") and of the engine running one ("autograd::engine::evaluate_function: AddmmBackward0")
const OPTIMIZER_RECORD = /^Optimizer\.(step|zero_grad)#(\w+)\.\1$/;
// (an ATen op's node ends in its number, "AddmmBackward0"; a user's autograd.Function's, "MyFnBackward", has none)
const BACKWARD_NODE = /^(?:torch::autograd::)?([A-Z]\w*?)Backward\d+$/;
const EVALUATE = /^autograd::engine::evaluate_function: (.+)$/;
/** autograd's node that adds a leaf tensor's gradient into its .grad */
const ACCUMULATE_GRAD = /^(?:torch::autograd::)?AccumulateGrad$/;

/** An autograd node in words: "backward of addmm" (AddmmBackward0), "accumulating a gradient"; null for another. Its
 *  backward first: a label cut to a narrow bar keeps "backward…", the fact that it is backward work, where "addmm's…"
 *  (a possessive that leads on) is no cut at all and left two bars blank (review 15W W5). */
function backwardWords(name: string): string | null {
  if (ACCUMULATE_GRAD.test(name)) return 'accumulating a gradient into .grad';
  const op = BACKWARD_NODE.exec(name)?.[1];
  // the op's name as ATen spells it: "NativeLayerNorm" is native_layer_norm (a numbered node is an ATen op's)
  return op ? `backward of ${op.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase()}` : null;
}

/**
 * PyTorch's records of the training step's parts in words: "optimizer step (AdamW)", "backward of addmm", "backward
 * of addmm (autograd)" (review 11 K7: "Optimizer.step#AdamW.step" read as a bug, "AddmmB…", "evaluate_fu…"; review 13
 * Q6: "autograd: addmm's backward" cut to "autograd:…", its op last); null for another name.
 */
function recordWords(name: string): string | null {
  const optimizer = OPTIMIZER_RECORD.exec(name);
  if (optimizer) return `optimizer ${optimizer[1]} (${optimizer[2]})`;
  const evaluated = EVALUATE.exec(name)?.[1];
  if (evaluated) return `${SPAN_WORDS.get(evaluated) ?? backwardWords(evaluated) ?? evaluated} (autograd)`;
  return backwardWords(name);
}

/** A name of the trace in words where the table has them (a span's, a compile phase's, a kernel's, a record of the
 *  step's parts), else null: said as it is. */
export function traceNameWords(name: string): string | null {
  if (COMPILED_MODULE.test(name)) return 'compiled module';
  // the user's module by its class, as their code names it (review 14 T5: "nn.Module: SimpleNet_0")
  const module = MODULE_CALL.exec(name)?.[1];
  if (module) return module;
  return SPAN_WORDS.get(name) ?? compilePhaseWords(name) ?? kernelWords(name) ?? recordWords(name);
}
