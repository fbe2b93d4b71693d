// The compiled calls of a trace opened without its report and without Python stacks (profiled without
// with_stack): nothing in it names the code a call ran, so each is named by what the trace does know, its place
// among its step's compiled calls and the ops it runs ("2nd compiled call in the step (sum, view)", a module's ops by
// the module: "(Conv, BatchNorm, …)"), never by
// Dynamo's frame number ("compiled function 2"), which means nothing to the user.
import type { CompiledFrame } from '../../extension/shared/report.ts';
import { readGeneratedName } from '../../extension/present/kernelNames.ts';
import { forEachOverlapping, levelsOf } from '../../extension/shared/trace/levels.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { isGraphRun, regionNames } from '../../extension/shared/trace/timelineMarks.ts';

/** ops named in a call's name, at most: the name stays a label, not a listing */
const MAX_OPS = 2;
/** an op's words, at most (Inductor's fused names run long: "_native_batch_norm_legit_no_training_convolution…"):
 *  a longer one is said by the op it begins with ("native_batch_norm"), else left to the list's "…" */
const MAX_OP_CHARS = 20;
const CPP_OPS = /^(?:graph_\d+_)?cpp_fused_(\w+?)_\d+$/;
const TRITON_OPS = /^triton_(?:poi|red|per|tem|for)_fused_(\w+?)_\d+$/;

/** "1st", "2nd", "3rd", "4th", "11th", "22nd". */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** What an op slice runs: "addmm" for aten::addmm, "sum_view" for graph_1_cpp_fused_sum_view_0; null for a slice
 *  that is no op (a wrapper, a launch). */
function opOf(name: string): string | null {
  const op = name.startsWith('aten::')
    ? name.slice('aten::'.length)
    : readGeneratedName(name)
      ? (CPP_OPS.exec(name)?.[1] ?? TRITON_OPS.exec(name)?.[1] ?? null)
      : null;
  // ATen's private ops ("_native_batch_norm_legit") by their name, not the underscore first
  return op?.replace(/^_+/, '') ?? null;
}

/** A long op name by the longest op its name begins with, whole words of it ("native_batch_norm" of
 *  "native_batch_norm_legit_no_training"), never a part of a word ("native_batch_norm_l…", review 14 S8); null
 *  where no such start fits. */
function shortOp(op: string): string | null {
  for (let end = op.lastIndexOf('_', MAX_OP_CHARS); end > 0; end = op.lastIndexOf('_', end - 1)) {
    const start = op.slice(0, end);
    if (KNOWN_OPS.has(start)) return start;
  }
  return null;
}

/** ops a long name may begin with: ATen's, as the fused names Inductor writes spell them */
const KNOWN_OPS = new Set(['native_batch_norm', 'native_layer_norm', 'native_group_norm', 'convolution', 'addmm']);

/** ATen's ops that one of nn's modules runs, by that module as the user's code names it (review 15V V7, 16Z Z5:
 *  "(convolution, native_batch_norm, …)", ATen's names in a call's label where the eager side says "batch_norm") */
const MODULE_OPS = new Map([
  ['convolution', 'Conv'],
  ['batch_norm', 'BatchNorm'],
  ['native_batch_norm', 'BatchNorm'],
  ['layer_norm', 'LayerNorm'],
  ['native_layer_norm', 'LayerNorm'],
  ['group_norm', 'GroupNorm'],
  ['native_group_norm', 'GroupNorm'],
]);

/** The outermost ops run in slice `at` (on its track, not in a compiled call nested in it), in time order: those its
 *  compiled graphs ran where it ran one, not the eager code after a graph break; `more`: some not said whole. */
function opsIn(model: TraceModel, at: number, regions: ReadonlyMap<number, string>): { ops: string[]; more: boolean } {
  const levels = levelsOf(model);
  const track = model.track[at]!;
  const from = model.start[at]!;
  const to = from + model.dur[at]!;
  const inside: number[] = [];
  const nested: [number, number][] = [];
  const graphs: [number, number][] = [];
  for (let level = levels.trackLevels[track]! + model.depth[at]! + 1; level < levels.trackLevels[track + 1]!; level++)
    forEachOverlapping(model, levels, level, from, to, (j) => {
      if (model.start[j]! < from) return;
      const span: [number, number] = [model.start[j]!, model.start[j]! + model.dur[j]!];
      if (regions.has(model.name[j]!)) nested.push(span);
      else if (isGraphRun(model.names[model.name[j]!]!)) graphs.push(span);
      else if (opOf(model.names[model.name[j]!]!)) inside.push(j);
    });
  inside.sort((a, b) => model.start[a]! - model.start[b]! || model.depth[a]! - model.depth[b]!);
  const ops: string[] = [];
  let more = false;
  let end = -Infinity;
  for (const j of inside) {
    const start = model.start[j]!;
    const within = ([a, b]: [number, number]): boolean => start >= a && start < b;
    if (start < end || nested.some(within) || (graphs.length && !graphs.some(within))) continue;
    end = start + model.dur[j]!;
    const op = opOf(model.names[model.name[j]!]!)!;
    // a long one by the op it begins with, what follows it left to the list's "…"
    const short = op.length > MAX_OP_CHARS ? shortOp(op) : op;
    const said = short === null ? null : (MODULE_OPS.get(short) ?? short);
    if (said !== null && !ops.includes(said)) ops.push(said);
    if (short !== op) more = true;
  }
  return { ops, more };
}

/** Where a compiled call is: among its step's calls, else outside the steps, else (a trace with none) the trace's. */
export type CallWithin = 'in the step' | 'outside the steps' | 'in the trace';

/** A compiled call named by its place, in parts: whose place ("4th"), where, the ops it runs (words, at most
 *  MAX_OPS: "addmm"; empty: none), its code's number where two frames share the rest (null: none do), and which of
 *  its frame's compiles it runs (0: the first). A name is built from them (placedName), never parsed back. */
export interface PlacedCall {
  compileId: string;
  ordinal: string;
  within: CallWithin;
  ops: string;
  code: number | null;
  attempt: number;
}

/** "2nd compiled call in the step (sum_view)", ", code 2" where two frames share that, ", recompile 1" for its
 *  frame's second compile (`attempt` given: another than the call's own). */
export function placedName(call: PlacedCall, attempt: number = call.attempt): string {
  const ops = call.ops ? ` (${call.ops})` : '';
  const code = call.code === null ? '' : `, code ${call.code}`;
  return `${call.ordinal} compiled call ${call.within}${ops}${code}${attempt ? `, recompile ${attempt}` : ''}`;
}

/**
 * Each compiled call ("Torch-Compiled Region: 1/0") of the model by its place among the compiled calls of the step
 * it first runs in (of the trace where it has no steps) and the ops it runs, in parts (placedName says them): a
 * recompile takes its first compile's place. Empty where the model has no compiled call.
 */
export function placedCalls(model: TraceModel): PlacedCall[] {
  const regions = regionNames(model);
  if (!regions.size) return [];
  // every call, by start: the first of each compile id is the one named
  const calls: number[] = [];
  for (let i = 0; i < model.count; i++)
    if (regions.has(model.name[i]!) && !model.tracks[model.track[i]!]!.gpu) calls.push(i);
  calls.sort((a, b) => model.start[a]! - model.start[b]!);
  const steps = model.stepSource === 'profiler' ? model.steps : [];
  const stepOf = (t: number): number => steps.findIndex((s) => t >= s.start && t < s.end);
  // Dynamo's frame ("1" of "1/0"): a recompile runs the same code, so takes its first compile's place
  const frameOf = (i: number): string => regions.get(model.name[i]!)!.split('/')[0]!;
  // per step (-1: none), its calls' frames in the order they first run in it
  const stepFrames = new Map<number, string[]>();
  const callStep = new Map<number, number>();
  for (const i of calls) {
    const step = stepOf(model.start[i]!);
    callStep.set(i, step);
    const frames = stepFrames.get(step) ?? [];
    if (!frames.includes(frameOf(i))) frames.push(frameOf(i));
    stepFrames.set(step, frames);
  }
  const within = (step: number): CallWithin =>
    step >= 0 ? 'in the step' : steps.length ? 'outside the steps' : 'in the trace';
  const named = new Map<string, PlacedCall>();
  for (const i of calls) {
    const compileId = regions.get(model.name[i]!)!;
    if (named.has(compileId)) continue;
    const step = callStep.get(i)!;
    const { ops, more } = opsIn(model, i, regions);
    named.set(compileId, {
      compileId,
      ordinal: ordinal(stepFrames.get(step)!.indexOf(frameOf(i)) + 1),
      within: within(step),
      ops: ops.length ? ops.slice(0, MAX_OPS).join(', ') + (ops.length > MAX_OPS || more ? ', …' : '') : '',
      code: null,
      attempt: Number(compileId.split('/')[1]?.split('_')[0] ?? 0),
    });
  }
  // two frames at the same place running the same ops (steps that call different code): told apart by frame
  const framesOf = new Map<string, Set<string>>();
  for (const call of named.values()) {
    const base = placedName(call, 0);
    framesOf.set(base, (framesOf.get(base) ?? new Set()).add(call.compileId.split('/')[0]!));
  }
  return [...named.values()].map((call) =>
    framesOf.get(placedName(call, 0))!.size > 1 ? { ...call, code: Number(call.compileId.split('/')[0]) + 1 } : call,
  );
}

/** The compiled calls of placedCalls as report frames with only a name (compileNames.ts says a frame's nameText as
 *  it is). */
export const callsByPlace = (placed: readonly PlacedCall[]): CompiledFrame[] =>
  placed.map((call) => ({ compileId: call.compileId, function: null, seconds: 0, nameText: placedName(call) }));
