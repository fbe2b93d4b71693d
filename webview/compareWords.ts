// The compare's words: its table's headings and rows, the kernels' and ops' families, the range tables' captions and
// the range pair's titles, in the words the compare counts in (split from timelineWords.ts, which words the
// timeline's own state). Words about the report's data are the runner's, shown as carried.
import { formatCount, formatSpeedup, formatUs, formatUsLike } from '../extension/present/numbers.ts';
import { SLICE_KIND_NAMES, SliceKind, type TraceModel } from '../extension/shared/trace/model.ts';
import { sharedUnit, type StepsCompared } from './analysis/stepMap.ts';
import { stepsText } from './timelineWords.ts';
import {
  CPU_OPS,
  KERNEL_NAMES,
  kernelCountNames,
  workDevice,
  type WorkDevice,
} from '../extension/present/workCounts.ts';

/** The compare table's heading: "eager → default, per step (steps 2–3 of each; step 1 left out: …)". */
export function comparisonTitle(
  before: string,
  after: string,
  steps: { before: StepsCompared | null; after: StepsCompared | null },
): string {
  if (!steps.before || !steps.after) return `${before} → ${after}, whole trace`;
  const which =
    stepsText(steps.before) === stepsText(steps.after)
      ? `${stepsText(steps.before)} of each`
      : `${before} ${stepsText(steps.before)}, ${after} ${stepsText(steps.after)}`;
  const cold = [steps.before, steps.after].flatMap((s) =>
    s.coldStep !== null && s.first > s.coldStep ? [`${s.unit} ${s.coldStep}`] : [],
  );
  const leftOut = cold.length
    ? `; ${cold.length === 2 && cold[0] !== cold[1] ? `${before} ${cold[0]}, ${after} ${cold[1]}` : cold[0]} left out: the profiler's start-up and the first call's own costs are in it`
    : '';
  // a step that compiled is the compiler's time (compare.ts leaves it out where steps without one are left)
  const sides = [
    [before, steps.before],
    [after, steps.after],
  ] as const;
  const compiled = sides.flatMap(([label, s]) =>
    s.compiling?.length ? [`${label} ${numbered(s.unit, s.compiling)}`] : [],
  );
  const count = sides.reduce((n, [, s]) => n + (s.compiling?.length ?? 0), 0);
  const compiling = count ? `; ${compiled.join(', ')} left out: a compile ran in ${count === 1 ? 'it' : 'them'}` : '';
  // "per call" where both sides' steps are calls, as their axes name them
  return `${before} → ${after}, mean per ${sharedUnit(steps.before, steps.after)} (${which}${leftOut}${compiling})`;
}

/** "step 3", "steps 3, 5": steps by their numbers, not a range (they need not be adjacent). */
const numbered = (unit: string, numbers: readonly number[]): string =>
  numbers.length === 1 ? `${unit} ${numbers[0]}` : `${unit}s ${numbers.join(', ')}`;

/** Why the compare says no change for rows whose two values are not the same quantity (compare.ts: `unlike`). */
export const unlikeSteps = {
  /** one side's steps are calls found as repeated kernels, the other's the profiler's steps */
  units: (labels: { before: string; after: string }, units: { before: string; after: string }): string =>
    `${labels.before}'s ${units.before}s and ${labels.after}'s ${units.after}s are not the same quantity (a call found as repeated kernels spans the call alone, a profiler's step everything the loop ran between its marks): no change is said per ${units.before} or ${units.after}.`,
  /** every compared step of a side held a compile */
  compiling: (label: string, unit: string): string =>
    `Every ${unit} compared of ${label} holds a compile: its times are the compiler's, so no change is said for them.`,
  /** a side's compared steps lie far apart: their mean is none of their times */
  apart: (label: string, steps: StepsCompared, shortestUs: number, longestUs: number): string =>
    `${label}'s ${stepsText(steps)} took ${formatUsLike(shortestUs, longestUs)} to ${formatUs(longestUs)} under the profiler, ${formatCount(longestUs / shortestUs)}× apart: their mean is none of their times (something held one of them up: the host, the profiler), so no change is said for the times; profile more steps.`,
};

/** The compare table's caption: its steps ran under the profiler, so they say what changed, not how fast. */
export const comparisonCaveat =
  "From profiled calls, under the profiler, which slows them (each op by its own overhead, so eager's many ops more than compiled code's few): what ran, not how fast. The verdict above is timed without the profiler.";

/** The step row's change cell: no %-difference, which read as a speedup (issue 44: "−33%" beside compiled calls the
 *  call chart showed slower, the timed verdict too noisy to say), and no words that read as a verdict either ("not a
 *  speedup" beside 142 → 115 µs read as "compiled lost", review 10 F1): the after side's time as a multiple of the
 *  before side's, said not to be the verdict ("2.15× as long, not the verdict": review 14 S9, a dash left the row a
 *  user reads first with no change); `afterOverBefore` is the ratio of the two times as the row shows them, in the
 *  panel's one format for a multiple (review 15V V4: "×2.2" beside 154 µs and 331 µs, which divide to 2.15); its
 *  tooltip says why. */
export const profiledStepChange = {
  text: (afterOverBefore: number): string => `${formatSpeedup(afterOverBefore)} as long, not the verdict`,
  tooltip:
    "The after side's profiled time as a multiple of the before side's. These are profiled calls, which the profiler slows, eager's many ops more than compiled code's few: their change is not how much faster compiling made them. The timed number above, without the profiler, is.",
};

/** What a CPU trace's time "inside" is, in one set of words for its row, the row under it and the sentence under the
 *  table: the outermost ATen ops and Inductor's generated C++ functions (summary.ts cpuKernelIndices), which are
 *  unlike: an ATen op's time holds its dispatch and allocation, a generated function's only its own code (review
 *  14R R6 / 15U U4 / 15V V3: "20.5 µs → 0.289 µs −99%" beside a stay-eager verdict read as kernels made 70× faster,
 *  "generated C++ kernels without" as "without the generated kernels", and "kernels" for eager's ATen ops). */
const CPU_OPS_TIME = "an ATen op's time includes its dispatch; a generated C++ function has none";

/** What the time inside is of, by the device the trace ran its work on; `counted`: with what each counts. */
const insideOf = (device: WorkDevice, counted = false): string =>
  device === 'GPU' ? 'GPU kernels' : counted ? `${CPU_OPS} (${CPU_OPS_TIME})` : CPU_OPS;

const FAMILY: Partial<Record<SliceKind, 'generated' | 'library' | 'aten'>> = {
  [SliceKind.KernelGenerated]: 'generated',
  [SliceKind.KernelExtern]: 'library',
  [SliceKind.KernelAten]: 'aten',
};

/** A slice's kind as its card says it: a kernel family's by the device its slice ran on, an Inductor C++ function on
 *  a CPU thread "generated C++ function", as the compare counts it (review 17 X6: "generated kernel" on the card of a
 *  CPU trace's function, "generated C++ functions 0 → 2" in the compare); other kinds by their name. */
export function sliceKindName(model: Pick<TraceModel, 'kind' | 'track' | 'tracks'>, i: number): string {
  const kind = model.kind[i]! as SliceKind;
  const family = FAMILY[kind];
  if (!family) return SLICE_KIND_NAMES[kind] ?? 'other';
  return KERNEL_NAMES[model.tracks[model.track[i]!]?.gpu ? 'GPU' : 'CPU'][family];
}

/** The range table's captions, in the compare's words for the same quantities (review 16 Y1: the compare's "CPU
 *  ops" was the range table's "CPU kernels", and its "CPU ops" the table of every level, several times larger). */
export const rangeTableNames = {
  /** what the compare counts inside a step: GPU kernels, or on a CPU-only trace its CPU ops */
  counted: (onCpu: boolean): string => (onCpu ? CPU_OPS : 'GPU kernels'),
  /** what those CPU ops are, said under the one pane's table */
  countedOnCpu: "outermost ATen ops and Inductor's C++ functions, as the compare counts them",
  /** every CPU slice, at every level: the ops, the calls nested in them, Python functions, runtime calls */
  everyLevel: 'Every CPU slice, nested calls too',
  /** where a name's call is nested in another of its name (aten::sum in aten::sum) */
  nestedNote: "a call nested in another of its name is counted, its time in that one's total and self",
};

/** The rest of a step, outside what is inside: on CPU an ATen op's dispatch is inside. */
const restOf = (device: 'GPU' | 'CPU'): string => (device === 'GPU' ? 'dispatch, Python' : 'Python');

/** The compare table's step rows: the step's mean length under the profiler leads, then its two parts, the
 *  inside one named so its drop reads as a part of the step ("−93%" of kernel time under a slower step); a step by
 *  the word its heading says ("call" where both sides' steps are calls: "mean per call" above "step" read as two
 *  quantities). */
export const stepRowNames = {
  // the profiler slows each op, so a step of many eager ops more than a compiled one: its length is not the verdict's
  // (review 5C Y1: '450 µs → 303 µs −33%' led the table under a 0.85× verdict)
  step: (unit: 'step' | 'call'): string => `${unit} under the profiler (slowed by it; not the timed verdict)`,
  // the caveat on what each side counts only where a side ran generated C++ (review 16 Y7: beside backend='eager',
  // which generates none, it sent the reader looking for C++ that was not there)
  inside: (device: 'GPU' | 'CPU', generated: boolean): string =>
    device === 'GPU'
      ? 'time inside GPU kernels only'
      : generated
        ? `time inside CPU ops only (${CPU_OPS_TIME})`
        : 'time inside CPU ops only',
  // the complement of the row above it, by its words
  outside: (unit: 'step' | 'call', device: 'GPU' | 'CPU'): string => `rest of the ${unit}, outside ${insideOf(device)}`,
};

/** The inside row's tooltip: what it counts and what it leaves out. */
export const insideTooltip = (device: 'GPU' | 'CPU'): string =>
  `Only the time inside ${insideOf(device, true)}: the rest of the step (${restOf(device)}, eager code between graphs) is in the row under it; the step's length is the row above.`;

/**
 * Under the compare table, where the trace shows why a side's profiled step (`unit`: as the heading names it) is longer
 * though its kernels (CPU ops) took less: the rest of it grew ("Under the profiler, the compiled steps (default) took
 * longer (0.35 ms → 0.42 ms) though their time inside GPU kernels fell (106 µs → 7.6 µs): the rest of each step —
 * dispatch, Python, the eager code of its graph break — grew 0.24 ms → 0.41 ms."); null where it does not (a shorter
 * step, or kernels that took longer too). Where the profiled time went, never a win or a loss: the timed verdict
 * above is the answer, and it may lean the other way (review 8A A5: "that is where they lost" under 1.07×).
 * `graphBreaks`: the report names a graph break in the after side's code, so its eager code is in that rest.
 */
export function stepGrewOutsideKernels(
  after: string,
  unit: 'step' | 'call',
  device: 'GPU' | 'CPU',
  step: { before: string; after: string; longer: boolean },
  inside: { before: string; after: string; fell: boolean },
  outside: { before: string; after: string; grew: boolean },
  graphBreaks: number,
): string | null {
  if (!step.longer || !inside.fell || !outside.grew) return null;
  const rest = `${restOf(device)}${graphBreaks ? `, the eager code of ${graphBreaks === 1 ? 'its graph break' : 'its graph breaks'}` : ''}`;
  // the side named in brackets, never with a possessive: "torch.compile's defaults's steps" (review 7B N10)
  return `Under the profiler, the compiled ${unit}s (${after}) took longer (${step.before} → ${step.after}) though their time inside ${insideOf(device, true)} fell (${inside.before} → ${inside.after}): the rest of each ${unit} — ${rest} — grew ${outside.before} → ${outside.after}.`;
}

/** A selected range of a pane: "default: 1.2 ms – 3.4 ms on its axis (2.2 ms)" (times on the pane's axis, said
 *  as its ticks are). */
export const rangeTitle = (pane: string, from: string, to: string, length: string): string =>
  `${pane}: ${from} – ${to} on its axis (${length})`;

/** A compared pair's ranges: the same steps of each, "eager → default, step 2 of each (the same share of it):
 *  eager 1.93 ms, default 0.91 ms"; where either side has no steps, "the same range of each: 2.2 ms". Where the
 *  pair covers a trace's first step (with later ones after it), that its one-time work is in it, as the compare
 *  leaves it out for that (comparisonTitle). */
export function rangePairTitle(
  before: { label: string; steps: StepsCompared | null; us: number },
  after: { label: string; steps: StepsCompared | null; us: number },
): string {
  if (!before.steps || !after.steps)
    return `${before.label} → ${after.label}, the same range of each: ${formatUs(before.us)}`;
  const steps = stepsText(before.steps);
  const which =
    steps === stepsText(after.steps)
      ? `${steps} of each (the same share of ${before.steps.first === before.steps.last ? 'it' : 'them'})`
      : `${before.label} ${steps}, ${after.label} ${stepsText(after.steps)}`;
  const cold = [before.steps, after.steps].find((s) => s.coldStep !== null && s.first === s.coldStep);
  const caveat =
    cold === undefined
      ? ''
      : ` — ${cold.unit} ${cold.coldStep} is the first, with one-time work in it (the profiler's start-up, the first call's own costs): later steps compare like with like`;
  return `${before.label} → ${after.label}, ${which}: ${before.label} ${formatUs(before.us)}, ${after.label} ${formatUs(after.us)}${caveat}`;
}

/** A range pair's row for an op the compiled side calls under another name, nested in it on the eager side:
 *  "aten::conv2d, called as aten::convolution in default". */
export const calledAsName = (before: string, inner: string, after: string): string =>
  `${before}, called as ${inner} in ${after}`;

/** The compare's list of such ops: "kernels default calls under another name (2)". */
/** A compare kernel list's heading with the steps its times are the mean of ("kernels only in default, per step in
 *  steps 2–3 (1)"; the whole trace where the trace has no steps): a kernel's details and hover give its mean of the
 *  same steps, and say them (kernelLinks.formatUsPerStep; review 13O O2: 0.891 µs here, 0.943 there, before). */
export const kernelListHeading = (title: string, steps: StepsCompared | null, count: number): string =>
  `${title}${steps ? `, per ${steps.unit} in ${stepsText(steps)}` : ', in the whole trace'} (${count})`;

/** A kernel's time in such a list, per step of those steps: "0.891 µs/step". */
export const kernelListTime = (time: string, steps: StepsCompared | null): string =>
  steps ? `${time}/${steps.unit}` : time;

/** "kernels under another name in default, not fused away (2)" (review 11 I8: "kernels default calls under …"); on
 *  a CPU trace "CPU ops …", the compare's rows' word (review 17 Y2). */
export const calledAsHeading = (after: string, count: number, device: 'GPU' | 'CPU' = 'GPU'): string =>
  `${kernelCountNames(device).all} under another name in ${after}, not fused away (${count})`;

/** "kernels only in eager (fused away or replaced)", "CPU ops only in default": a compare list's heading, in the
 *  words its rows count them in (review 17 Y2: "kernels only in …" listing "aten: gelu" under "ATen ops 5 → 2"). */
export const onlyInHeading = (side: string, device: 'GPU' | 'CPU', before: boolean): string =>
  `${kernelCountNames(device).all} only in ${side}${before ? ' (fused away or replaced)' : ''}`;

/** The replay table's per-call count column: GPU kernels, or on a CPU run its CPU ops (review 17 Y2). */
export const perCallCountTitle = (device: string | null | undefined): string =>
  `${kernelCountNames(workDevice(device)).all} / call`;

/** A range pair's change for an op the other side does not call, where it calls one nested in it directly. */
export const notCalledText = (inner: string, after: string): string => `not called: ${after} calls ${inner} directly`;
