// The trace's names in words (extension/shared/trace/traceWords.ts): every library and ATen kernel of the recorded
// GPU traces said by what it does and whose it is, never by its mangled name; PyTorch's and the profiler's spans by
// what they do; an ATen op as the user knows it; any other name left to be said as it is.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { SliceKind } from '../../extension/shared/trace/model.ts';
import { atenOpWords, kernelWords, traceNameWords } from '../../extension/shared/trace/traceWords.ts';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const GPU_TRACES = [
  'traces/mlp-eager.trace.json',
  'traces/mlp-reduce-overhead.trace.json',
  'traces/gpt_small-reduce-overhead.trace.json',
  'recorded/encoder_fastpath-h200/in-situ-eager.trace.json',
];

test('every library and ATen kernel of the GPU traces in words, none of them its mangled name', async () => {
  const unsaid: string[] = [];
  let kernels = 0;
  for (const file of GPU_TRACES) {
    const model = await scanTraceFile(path.join(FIXTURES, file));
    const names = new Set<string>();
    for (let i = 0; i < model.count; i++)
      if (model.kind[i] === SliceKind.KernelExtern || model.kind[i] === SliceKind.KernelAten)
        names.add(model.names[model.name[i]!]!);
    kernels += names.size;
    for (const name of names) {
      const words = kernelWords(name);
      if (!words || /[<>:]|_kernel|xmma|sm\d\d/.test(words)) unsaid.push(`${file}: ${name} → ${words}`);
    }
  }
  assert.ok(kernels >= 10, `${kernels} library and ATen kernels`);
  assert.deepEqual(unsaid, []);
});

test('a library kernel by its operation and library; ATen kernels by their op', () => {
  const said: [string, string][] = [
    [
      'sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_split_k_kernel__5x_cublas',
      'matrix multiply (cuBLAS)',
    ],
    ['ampere_sgemm_128x64_tn', 'matrix multiply (cuBLAS)'],
    [
      'void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_tn_align1>(cutlass_80_simt_sgemm_64x64_8x5_tn_align1::Params)',
      'matrix multiply (CUTLASS)',
    ],
    ['void sgemm_largek_lds64<true, false, 5, 5, 4, 4, 4, 34>(float*, float const*)', 'matrix multiply (cuBLAS)'],
    ['nvjet_sm90_hsh_64x8_64x16_2x4_h_bz_relubias_TNT', 'matrix multiply with bias and ReLU (cuBLASLt)'],
    ['nvjet_sm90_hsh_64x8_64x16_2x4_h_bz_bias_TNT', 'matrix multiply with bias (cuBLASLt)'],
    [
      'void cublasLt::epilogue::impl::globalKernel<8, 32, float, float, float, true, true, 1>(int, int, long)',
      "matrix multiply's epilogue (cuBLASLt)",
    ],
    [
      'void cublasLt::splitKreduce_kernel<32, 16, int, float>(cublasLt::cublasSplitKParams<float>)',
      "split-K matrix multiply's sum of parts (cuBLASLt)",
    ],
    [
      'void scal_kernel<float, float, 1, true, 6, 5, 5, 3>(cublasTransposeParams<float>, float const*)',
      'scaling by a number (cuBLAS)',
    ],
    [
      'cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0',
      'attention (cuDNN)',
    ],
    [
      'fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, cutlass::arch::Sm80>::Params)',
      'attention (CUTLASS)',
    ],
    [
      'void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::Half>, std::array<char*, 3ul> >(int)',
      "add (ATen's elementwise kernel)",
    ],
    [
      'void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::Half, float, false>(int, float)',
      'layer norm (ATen)',
    ],
  ];
  for (const [raw, words] of said) assert.equal(traceNameWords(raw), words, raw);
  assert.equal(
    traceNameWords('Activity Buffer Request'),
    "the profiler's own work: a buffer for the GPU's activity records",
  );
  assert.equal(traceNameWords('TorchDynamo Cache Lookup'), "checking the compiled code's guards");
  // not a library's kernel: said as the trace says it, or by the names of their own (sliceNames.ts)
  for (const name of [
    'aten::addmm',
    'cudaLaunchKernel',
    'triton_poi_fused_addmm_relu_0',
    'graph_1_cpp_fused_relu_0',
    'Memset (Device)',
  ])
    assert.equal(traceNameWords(name), null, name);
});

test('an ATen op as the user knows it; one the table lacks without its namespace; any other name as it is', () => {
  assert.equal(atenOpWords('aten::addmm'), "addmm: Linear's matrix multiply with bias");
  assert.equal(atenOpWords('aten::linear'), 'linear: nn.Linear');
  assert.equal(atenOpWords('aten::max_pool2d'), 'max_pool2d');
  assert.equal(atenOpWords('ProfilerStep#2'), 'ProfilerStep#2');
});

test("PyTorch's records of a training step's parts in words: the optimizer's, autograd's, Inductor's launch", () => {
  // review 11 K7/J8/I9: "Optimizer.step#AdamW.step" read as a bug; "AddmmB…", "evaluate_fu…", "_lau…" raw
  const said: [string, string][] = [
    ['Optimizer.step#AdamW.step', 'optimizer step (AdamW)'],
    ['Optimizer.zero_grad#SGD.zero_grad', 'optimizer zero_grad (SGD)'],
    ['AddmmBackward0', 'backward of addmm'],
    ['NativeLayerNormBackward0', 'backward of native_layer_norm'],
    ['TBackward0', 'backward of t'],
    // what it is first: a cut keeps "backward…", never "autograd:…" (review 13 Q6) nor nothing, as the possessive
    // "addmm's…" was (review 15W W5)
    ['autograd::engine::evaluate_function: AddmmBackward0', 'backward of addmm (autograd)'],
    [
      'autograd::engine::evaluate_function: torch::autograd::AccumulateGrad',
      'accumulating a gradient into .grad (autograd)',
    ],
    ['autograd::engine::evaluate_function: CompiledFunctionBackward', "compiled graph's backward (autograd)"],
    // a user's autograd.Function's node is no ATen op's: its own name, not "my_fn's backward" (code read 12)
    ['autograd::engine::evaluate_function: MyFnBackward', 'MyFnBackward (autograd)'],
    // (Inductor's kernel launch is the frame that calls it, triton_heuristics.py's run: analysis/sliceNames.ts)
    ['<built-in function _launch_kernel>', "the kernel's CUDA launch"],
    ['nn.Module: OptimizedModule_0', 'compiled module'],
    // the user's module by its class, without the profiler's count (review 14 T5: "nn.Module: SimpleNet_0")
    ['nn.Module: SimpleNet_0', 'SimpleNet'],
    ['nn.Module: Block_12', 'Block'],
    ['DistributedDataParallel.forward', "DDP's forward"],
    ['<string>(1): launcher', "Inductor's kernel launcher"],
    // the compiled graph's own backward keeps its words
    ['CompiledFunctionBackward', "compiled graph's backward"],
  ];
  for (const [raw, words] of said) assert.equal(traceNameWords(raw), words, raw);
  // not a record of these: as it is
  for (const raw of ['Optimizer.step#AdamW.zero_grad', 'Backward0', 'aten::addmm', 'MyFnBackward', 'nn.Module: Net'])
    assert.equal(traceNameWords(raw), null, raw);
});

test("ATen's private ops a module or optimizer reaches by what they do, never their raw names (review 13 O8, 14 S8)", () => {
  // "_transformer_enco…", "_native_m…" in the fast path's timeline, which the report explains in words
  assert.equal(traceNameWords('aten::_transformer_encoder_layer_fwd'), "TransformerEncoderLayer's fast path");
  assert.equal(traceNameWords('aten::_native_multi_head_attention'), "MultiheadAttention's fast path");
  assert.equal(traceNameWords('aten::_foreach_copy_'), 'copying a list of tensors');
  // an op the user calls by its own name stays that name
  assert.equal(traceNameWords('aten::addmm'), null);
});
