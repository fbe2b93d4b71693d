// Which kind of slice an event is (SliceKind, model.ts), from its name and its `cat`egory: how the timeline
// colours it and what the summary counts it as.
import { isCompilePhase } from './compilePhaseWords.ts';
import COMPARED_STEPS from '../../../native-runner/compile_lens_runner/measure/compared_steps.json';
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
// is (re)compiled: the pattern the runner's compared steps find a compile by too (measure/compared_steps.json, which
// both read).
const COMPILE_NAME = new RegExp(COMPARED_STEPS.compileName);

export function classifyHostName(name: string, cat: Cat): SliceKind {
  if (cat === Cat.CudaRuntime || cat === Cat.CudaDriver) return SliceKind.RuntimeLaunch;
  if (name.startsWith('ProfilerStep#')) return SliceKind.Step;
  if (COMPILE_NAME.test(name) || isCompilePhase(name)) return SliceKind.Compile;
  if (name.includes('cpp_fused')) return SliceKind.KernelGenerated; // graph_0_cpp_fused_... on CPU
  return cat === Cat.Unknown ? SliceKind.Other : SliceKind.CpuOp;
}

/** Events of these categories ran on a device (GPU stream tracks). */
export const isDeviceCat = (cat: Cat): boolean => cat >= Cat.Kernel;
