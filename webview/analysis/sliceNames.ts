// A trace's names as the timeline says them, where the profiler's are the compiler's codes: a compiled call
// ("Torch-Compiled Region: 0/1") by its function, Inductor's run of a compiled graph ("## Call CompiledFxGraph
// f73ycg… ##") and the kernels it generated ("graph_1_cpp_fused_add_mul_relu_0") by the compiled call they ran in
// and their place in it, a profiler step ("ProfilerStep#2") as "step 2", the profiler's own span as "profiling". The compiled call is the one enclosing
// the name's first slice on a CPU thread (for a kernel seen only on a GPU, its launch's): a graph's or kernel's name
// is its graph's alone, so its first slice speaks for every one.
import {
  compiledCallName,
  compileName,
  graphRunName,
  tracedCompileName,
} from '../../extension/present/compileNames.ts';
import { kernelForSlice } from '../../extension/present/kernelLinks.ts';
import { generatedKernelWords, readGeneratedName } from '../../extension/present/kernelNames.ts';
import type { CompiledFrame, KernelProvenance } from '../../extension/shared/report.ts';
import { slicesByCorrelation } from '../../extension/shared/trace/flowLinks.ts';
import { lastStartingBy, levelsOf } from '../../extension/shared/trace/levels.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { isGraphRun, regionNames } from '../../extension/shared/trace/timelineMarks.ts';

const PROFILER_STEP = /^ProfilerStep#(\d+)$/;
// the profiler's own span on its track, numbered by its session ("PyTorch Profiler (0)"): the window it recorded
const PROFILER_SESSION = /^PyTorch Profiler \(\d+\)$/;

/** A profiler step's name in words: "ProfilerStep#2" is "step 2"; steps found otherwise ("call 2") as they are. */
export function stepWords(name: string): string {
  const step = PROFILER_STEP.exec(name);
  return step ? `step ${step[1]}` : name;
}

/**
 * Per name id, the name in words where the trace's is a compiler code (the rest: as the trace says them). `frames`
 * and `kernels`: the compiles and kernels of the report entry the trace was profiled for (null: a trace opened
 * without its report), which name a compile by its function and a kernel's user lines.
 */
export function namesInWords(
  model: TraceModel,
  frames: readonly CompiledFrame[] | null,
  kernels: KernelProvenance[] | null,
): Map<number, string> {
  const shown = new Map<number, string>();
  for (const [id, compileId] of regionNames(model)) shown.set(id, compiledCallName(frames, compileId));
  const wanted = new Uint8Array(model.names.length);
  model.names.forEach((name, id) => {
    if (PROFILER_STEP.test(name)) shown.set(id, stepWords(name));
    else if (PROFILER_SESSION.test(name)) shown.set(id, 'profiling');
    else if (isGraphRun(name) || readGeneratedName(name)) wanted[id] = 1;
  });
  if (!wanted.includes(1)) return shown;
  for (const [id, compileId] of enclosingCompiles(model, wanted)) {
    const name = model.names[id]!;
    if (isGraphRun(name)) {
      shown.set(id, graphRunName(frames, compileId));
      continue;
    }
    const kernel = kernels ? kernelForSlice(name, kernels, compileId) : null;
    const compile = compileId
      ? tracedCompileName(frames, compileId)
      : kernel?.compileId
        ? compileName(frames, kernel.compileId)
        : null;
    // the report's kernel in the runner's words (schema 1.28); a trace without a report, or a report before them
    shown.set(id, kernel?.nameText ?? generatedKernelWords(name, compile, kernel?.sourceLines ?? null) ?? name);
  }
  return shown;
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
