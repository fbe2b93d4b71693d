// The columnar trace model: what the byte-level scanner produces and the timeline draws.
// Typed arrays (not one object per event) so multi-GB traces fit in memory and cross postMessage cheaply.

/** How a slice is coloured and counted. Numeric so it fits a Uint8Array column. */
export const enum SliceKind {
  CpuOp = 0, // ATen op / python function / user annotation on a CPU thread
  RuntimeLaunch = 1, // cudaLaunchKernel, cudaGraphLaunch, cudaMemcpyAsync ... (CPU side of a GPU activity)
  KernelGenerated = 2, // Triton / Inductor-generated kernel (GPU) or Inductor C++ kernel (CPU)
  KernelExtern = 3, // cuBLAS / cuDNN / CUTLASS / other library kernels
  KernelAten = 4, // ATen native kernels (at::native::...)
  Memory = 5, // memcpy / memset
  GraphReplay = 6, // kernels launched by a CUDA-graph replay
  Step = 7, // ProfilerStep#N
  Compile = 8, // Dynamo / Inductor compile spans found inside the profiled region
  Other = 9,
}

export const NS_PER_US = 1000;

/**
 * µs in whole ns, as the model keeps times (as Perfetto does): kineto writes ns, and parsing its decimals or
 * taking the origin away adds float noise below that. Whole ns also pack small for the webview (rowsWire.ts).
 */
export function wholeNs(us: number): number {
  return Math.round(us * NS_PER_US) / NS_PER_US;
}

/** µs from `origin` to `us`, in whole ns. */
export function usSince(us: number, origin: number): number {
  return wholeNs(us - origin);
}

/** Where the model's last slice ends (µs since the origin; 0 without slices). */
export function traceEnd(model: Pick<TraceModel, 'count' | 'start' | 'dur'>): number {
  let end = 0;
  for (let i = 0; i < model.count; i++) end = Math.max(end, model.start[i]! + model.dur[i]!);
  return end;
}

/** Number of SliceKind values, for tables indexed by kind. */
export const SLICE_KIND_COUNT = 10;

export const SLICE_KIND_NAMES: readonly string[] = [
  'CPU op',
  'runtime launch',
  'generated kernel',
  'library kernel',
  'ATen kernel',
  'memcpy/memset',
  'CUDA-graph replay',
  'profiler step',
  'compile',
  'other',
];

/** True for kinds that are device activities (what torch.profiler counts as kernels). */
export function isKernelKind(kind: number): boolean {
  return kind >= SliceKind.KernelGenerated && kind <= SliceKind.GraphReplay;
}

export interface TrackInfo {
  pid: string;
  tid: string;
  name: string;
  /** true for GPU streams (device activity), false for CPU threads */
  gpu: boolean;
  maxDepth: number;
  /** the Python frames (python_function events) of a CPU thread: a track of their own, folded in the timeline */
  stack?: boolean;
}

/** Per-kernel launch facts from the trace's args, one row per GPU slice that had any. */
export const KERNEL_ARG_FIELDS = [
  'grid x',
  'grid y',
  'grid z',
  'block x',
  'block y',
  'block z',
  'registers per thread',
  'shared memory',
  'blocks per SM',
  'warps per SM',
  'est. achieved occupancy %',
  'stream',
  'device',
  'External id',
  'bytes',
] as const;

export interface KernelArgsTable {
  /** slice index of each row, ascending (binary-searchable) */
  slice: Uint32Array;
  /** KERNEL_ARG_FIELDS.length values per row; NaN where the trace did not say */
  values: Float64Array;
}

export interface TraceModel {
  /** number of slices (rows of the columns below); rows are ordered by track, then depth, then start */
  count: number;
  /** µs relative to originUs, whole ns (wholeNs) */
  start: Float64Array;
  /** µs, whole ns */
  dur: Float64Array;
  track: Uint32Array;
  /** index into names */
  name: Uint32Array;
  kind: Uint8Array;
  depth: Uint16Array;
  /** correlation id linking a launch to its kernels; -1 when none */
  correlation: Float64Array;
  names: string[];
  tracks: TrackInfo[];
  /** absolute trace timestamp (µs) of time 0 */
  originUs: number;
  /** ProfilerStep spans, µs relative to originUs (inferred from repeating kernel sequences when absent) */
  steps: { start: number; end: number; label: string }[];
  /** where `steps` came from: ProfilerStep# annotations, a repeating kernel sequence, or nowhere */
  stepSource: 'profiler' | 'repetition' | 'none';
  /** kernel launch args (grid, block, registers, ...) for GPU slices */
  kernelArgs: KernelArgsTable;
  /** problems found while reading: each names the problem and, where known, the byte position */
  warnings: string[];
}
