// Which kind of slice an event is (SliceKind, model.ts), from its name and its `cat`egory: how the timeline
// colours it and what the summary counts it as.
import { isCompilePhase } from './compilePhaseWords.ts';
import { SliceKind } from './model.ts';

/** The `cat` values of torch.profiler events that classification tells apart. */
export const enum Cat {
  Unknown,
  CpuOp,
  PythonFunction,
  UserAnnotation,
  CudaRuntime,
  CudaDriver,
  Kernel,
  GpuMemcpy,
  GpuMemset,
  GpuUserAnnotation,
}

export const CAT_NAMES: [string, Cat][] = [
  ['cpu_op', Cat.CpuOp],
  ['python_function', Cat.PythonFunction],
  ['user_annotation', Cat.UserAnnotation],
  ['cuda_runtime', Cat.CudaRuntime],
  ['cuda_driver', Cat.CudaDriver],
  ['kernel', Cat.Kernel],
  ['gpu_memcpy', Cat.GpuMemcpy],
  ['gpu_memset', Cat.GpuMemset],
  ['gpu_user_annotation', Cat.GpuUserAnnotation],
];

/** Kernel-name rules, checked in order. Names come from real H100 traces (see test/fixtures/traces/README.md). */
export function classifyDeviceName(name: string, cat: Cat): SliceKind {
  if (cat === Cat.GpuMemcpy || cat === Cat.GpuMemset || /^(Memcpy|Memset)\b/.test(name)) return SliceKind.Memory;
  if (cat === Cat.GpuUserAnnotation) return SliceKind.Other;
  if (/\btriton_|^triton|cpp_fused/.test(name)) return SliceKind.KernelGenerated;
  if (/\bat::native::|\bat_cuda_detail::|\bat::cuda::/.test(name)) return SliceKind.KernelAten;
  return SliceKind.KernelExtern; // cuBLAS(Lt) / cuDNN / CUTLASS / xmma / nvjet / fmha and anything else a library shipped
}

// Dynamo/Inductor compile phases: `dynamo_timed` record_function names (each by its key too, its plain twin:
// compilePhaseWords.ts), their `_data: compile_id=` annotations, and the python frames that only run when a frame
// is (re)compiled.
const COMPILE_NAME =
  /\(dynamo_timed\)$|compile_id=\d|^(dynamo|entire_frame_compile|backend_compile|compile_attempt_\d+|inductor_compile|compile_fx_inner|aot_compile)$|torch\/_dynamo\/convert_frame\.py\(\d+\): (_compile|compile_inner)$|torch\/_inductor\/compile_fx\.py\(\d+\): (compile_fx|compile_fx_inner|fx_codegen_and_compile)$/;

export function classifyHostName(name: string, cat: Cat): SliceKind {
  if (cat === Cat.CudaRuntime || cat === Cat.CudaDriver) return SliceKind.RuntimeLaunch;
  if (name.startsWith('ProfilerStep#')) return SliceKind.Step;
  if (COMPILE_NAME.test(name) || isCompilePhase(name)) return SliceKind.Compile;
  if (name.includes('cpp_fused')) return SliceKind.KernelGenerated; // graph_0_cpp_fused_... on CPU
  return cat === Cat.Unknown ? SliceKind.Other : SliceKind.CpuOp;
}

/** Events of these categories ran on a device (GPU stream tracks). */
export const isDeviceCat = (cat: Cat): boolean => cat >= Cat.Kernel;
