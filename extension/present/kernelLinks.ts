// Links between generated kernels and the user's lines, both ways: the CodeLens on a kernel in Inductor's output
// code ("fuses lines 12, 13 (add, relu)"), the hover on a compiled user line (which kernels it ended up
// in, with what, how long per step), and which kernel of the report a timeline slice is. Pure, no Node or VS Code
// imports: the host and the webview share it.
import { escapeMarkdown } from './findings.ts';
import type {
  CompileArtifacts,
  CompiledFrame,
  CompilerInsight,
  GraphBreak,
  KernelProvenance,
  Report,
} from '../shared/report.ts';
import { inSituTraces, regionTraces } from './regionTraces.ts';
import { formatUs, plural } from './numbers.ts';
import { compileName } from './compileNames.ts';
import { generatedKernelWords, kernelOps, linesText, readGeneratedName } from './kernelNames.ts';
import { EditedLines, movedLineKeys, saidAfterEdits, type TextChange } from '../shared/movedLines.ts';
import { placeOf } from '../shared/sourcePlace.ts';

export const isExternKernel = (kernel: KernelProvenance): boolean => kernel.name.startsWith('extern_kernels.');

/** The profiled steps a kernel's time per step is the mean of (schema 1.43 kernelSteps, which says the rule: the
 *  trace compare's). */
export type KernelSteps = NonNullable<CompilerInsight['kernelSteps']>;

/** "0.891 µs/step under the profiler, mean of steps 2–3": a kernel's time in the profiled steps, which carry the
 *  profiler's overhead (and a busy host's) — beside a timed call of 0.11 ms, a bare "5.87 ms/step" read as a second
 *  time for the same call — and which steps, as the runner says them (kernelSteps.text; review 13O O2: "0.943
 *  µs/step" of every step here, "0.891 µs/step" of steps 2–3 in the compare, for one kernel); a report before them
 *  (null), "every profiled step", the first too, as it was; a 1.43–1.44 report, before the runner's words, by its
 *  numbers */
export const formatUsPerStep = (us: number, steps: KernelSteps | null): string =>
  `${formatUs(us)}/step under the profiler, mean of ${
    steps === null
      ? 'every profiled step'
      : (steps.text ?? (steps.first === steps.last ? `step ${steps.first}` : `steps ${steps.first}–${steps.last}`))
  }`;

/** The CodeLens title over a kernel in the generated code. */
export function kernelLensTitle(kernel: KernelProvenance): string {
  if (kernel.lensText) return kernel.lensText; // the runner's words (schema 1.28); a report before them: made here
  const ops = kernel.atenOps.length ? ` (${kernelOps(kernel)})` : '';
  const verb = isExternKernel(kernel) ? 'library call for' : 'fuses';
  return `${verb} ${linesText(kernel.sourceLines)}${ops}`;
}

export interface KernelLens {
  /** 1-based line in the output code */
  line: number;
  title: string;
  kernel: KernelProvenance;
}

/** One lens per kernel of `compile` that has a line in its output code, in line order. */
export function kernelLenses(kernels: KernelProvenance[], compileId: string): KernelLens[] {
  return kernels
    .filter((k) => (k.compileId ?? null) === compileId && k.codeLine)
    .map((k) => ({ line: k.codeLine!, title: kernelLensTitle(k), kernel: k }))
    .sort((a, b) => a.line - b.line);
}

/** Where a kernel's generated code is: its compile's output code file (report-relative) and the kernel's line. */
export interface CodeTarget {
  mode: string;
  compileId: string;
  outputCode: string;
  line: number | null;
}

export function codeTarget(
  report: Report,
  mode: string,
  kernel: Pick<KernelProvenance, 'compileId' | 'codeLine'>,
): CodeTarget | null {
  const compile = compileOf(report, mode, kernel.compileId ?? null);
  return compile?.outputCode
    ? { mode, compileId: compile.compileId, outputCode: compile.outputCode, line: kernel.codeLine ?? null }
    : null;
}

export function compileOf(report: Report, mode: string, compileId: string | null): CompileArtifacts | undefined {
  return report.modes.find((m) => m.mode === mode)?.compiler?.compiles?.find((c) => c.compileId === compileId);
}

/** A kernel in the runner's words (schema 1.28): by its kind, place, compile and lines, a library call by its CodeLens
 *  words; a report before them gets the same words here (compileNames.test holds the two equal). */
export const kernelWords = (kernel: KernelProvenance, compile: string | null): string =>
  kernel.nameText ??
  (kernel.lensText === undefined ? generatedKernelWords(kernel.name, compile, kernel.sourceLines) : null) ??
  kernelLensTitle(kernel);

const and = (items: readonly string[]): string =>
  items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;

/** A function's compiles that made a kernel: "first compile and recompile 1"; more than 3 by their count, "first
 *  compile and 7 recompiles" (each listed read as a wall of "the recompile for self.calls == 17"). */
function compilesOfOne(items: readonly string[]): string {
  if (items.length <= 3) return and(items);
  const recompiles = items.filter((item) => item !== 'first compile').length;
  return `${recompiles < items.length ? 'first compile and ' : ''}${plural(recompiles, 'recompile')}`;
}

/** The compiles that made a kernel alike, grouped by their function: "forward (first compile and recompile 1)"; a
 *  function compiled once is its name alone. */
function compilesByFunction(compiles: readonly string[]): string {
  const which = new Map<string, string[]>();
  for (const name of compiles) {
    const recompile = /^(.*), recompile (\d+)$/.exec(name);
    const [base, item] = recompile ? [recompile[1]!, `recompile ${recompile[2]}`] : [name, 'first compile'];
    which.set(base, [...(which.get(base) ?? []), item]);
  }
  return and(
    [...which].map(([base, items]) =>
      items.length === 1 && items[0] === 'first compile' ? base : `${base} (${compilesOfOne(items)})`,
    ),
  );
}

/** A kernel several compiles made alike, once, in the runner's words (schema 1.29): "fused kernel 1 (lines 12, 13),
 *  made by 2 compiles: forward (first compile and recompile 1)"; made alike within one compile only (its forward and
 *  backward graphs), the kernel's own words; a report before them gets the same words here (kernelLinks.test holds
 *  the two equal). */
export function sharedKernelWords(kernel: KernelProvenance, compiles: readonly string[]): string {
  if (kernel.sharedText !== undefined) return kernel.sharedText;
  const distinct = [...new Set(compiles)];
  const said = (compile: string | null): string =>
    generatedKernelWords(kernel.name, compile, kernel.sourceLines) ?? kernelLensTitle(kernel);
  if (distinct.length === 1) return said(distinct[0]!);
  return `${said(null)}, made by ${plural(distinct.length, 'compile')}: ${compilesByFunction(distinct)}`;
}

/** A kernel a user line ended up in. */
export interface LineUse {
  mode: string;
  kernel: KernelProvenance;
  /** the kernel in the runner's words, once for the compiles that made it alike (the lines it names where they are
   *  now, after the user's edits: movedLineIndex) */
  said: string;
  target: CodeTarget | null;
  /** the steps its time per step is the mean of (its mode's kernelSteps), null in a report before them */
  steps: KernelSteps | null;
}

/** Per file, per 1-based line: the kernels of every mode that the line's ops were fused into. */
export function compiledLineIndex(report: Report): Map<string, Map<number, LineUse[]>> {
  const index = new Map<string, Map<number, LineUse[]>>();
  for (const mode of report.modes) {
    const kernels = mode.compiler?.kernels ?? [];
    const compile = (k: KernelProvenance): string => compileName(mode.compiler?.frames, k.compileId);
    // the kernels a recompile made again: the same name and lines (report/compile_names.name_all)
    const alike = (k: KernelProvenance): KernelProvenance[] =>
      kernels.filter((o) => o.name === k.name && linesText(o.sourceLines) === linesText(k.sourceLines));
    for (const kernel of kernels) {
      const same = alike(kernel);
      const said =
        same.length > 1 ? sharedKernelWords(kernel, same.map(compile)) : kernelWords(kernel, compile(kernel));
      for (const line of kernel.sourceLines) {
        const byLine = index.get(line.file) ?? new Map<number, LineUse[]>();
        index.set(line.file, byLine);
        const uses = byLine.get(line.line) ?? [];
        byLine.set(line.line, uses);
        const steps = mode.compiler?.kernelSteps ?? null;
        uses.push({ mode: mode.mode, kernel, said, target: codeTarget(report, mode.mode, kernel), steps });
      }
    }
  }
  return index;
}

/**
 * The index after an edit of `file`: that file's lines on the lines they moved to (lines an edit merged keep every
 * use), and the lines each use's words name ("(lines 12, 13)", in any file's entry) where they are now, as the
 * runner's other sentences follow edits (shared/movedLines.ts).
 */
export function movedLineIndex(
  index: ReadonlyMap<string, ReadonlyMap<number, LineUse[]>>,
  file: string,
  changes: readonly TextChange[],
): Map<string, Map<number, LineUse[]>> {
  const now = new EditedLines();
  now.set({ file, cell: null }, changes);
  const out = new Map<string, Map<number, LineUse[]>>();
  for (const [name, byLine] of index) {
    const keyed = name === file ? movedLineKeys(byLine, changes) : new Map(byLine);
    for (const [line, uses] of keyed)
      keyed.set(
        line,
        uses.map((use) => {
          const own = use.kernel.sourceLines[0];
          return { ...use, said: saidAfterEdits(use.said, own ? placeOf(own) : null, now) };
        }),
      );
    out.set(name, keyed);
  }
  return out;
}

/**
 * The hover over a compiled user line: each kernel it ended up in, once (a kernel a recompile made again is one entry
 * naming its compiles), in the runner's words, with its time per step and, for a kernel Inductor generated, the ATen
 * ops it fused (a library call's words name them); the mode only where the line was compiled in several. `openLink`
 * makes the command link that opens the kernel's generated code (the host's command URI).
 */
export function compiledLineHover(uses: LineUse[], openLink: (use: LineUse) => string | null, maxKernels = 8): string {
  const groups = new Map<string, LineUse[]>();
  for (const use of uses) {
    const key = `${use.mode}\0${use.kernel.name}\0${use.said}`;
    groups.set(key, [...(groups.get(key) ?? []), use]);
  }
  const manyModes = new Set(uses.map((u) => u.mode)).size > 1;
  const out = ['**Compile Lens — compiled into**', ''];
  const entries = [...groups.values()];
  for (const same of entries.slice(0, maxKernels)) {
    // the one that ran in the profile speaks for the group (its time, its code), else the latest compile
    const use =
      same.find((u) => u.kernel.usPerStep !== null && u.kernel.usPerStep !== undefined) ?? same[same.length - 1]!;
    const k = use.kernel;
    const time =
      k.usPerStep === null || k.usPerStep === undefined
        ? null
        : formatUsPerStep(k.usPerStep, k.kernelSteps ?? use.steps);
    const link = openLink(use);
    const parts = [
      `${manyModes ? `${escapeMarkdown(use.mode)}: ` : ''}${escapeMarkdown(use.said)}`,
      time,
      readGeneratedName(k.name) && k.atenOps.length ? escapeMarkdown(kernelOps(k)) : null,
      // its name in the generated code, as the file the link opens writes it
      `\`${k.name.replace(/`/g, "'")}\``,
    ]
      .filter(Boolean)
      .join(' · ');
    out.push(`- ${parts}${link ? ` — [Open generated code](${link})` : ''}`);
  }
  if (entries.length > maxKernels) out.push(`- … ${entries.length - maxKernels} more`);
  return out.join('\n');
}

/**
 * The report kernel a timeline slice is: the same name (Triton kernels on the GPU), or the name with what Inductor
 * puts before it in the profile: `graph_<n>_` (its C++ kernels record themselves so on the CPU, n telling graphs
 * apart, from any graph of any region). Among kernels of that name, the one of `compileId` (the compiled region the
 * slice ran in) when known; null when several match and none is told apart.
 */
export function kernelForSlice(
  sliceName: string,
  kernels: KernelProvenance[],
  compileId?: string | null,
): KernelProvenance | null {
  const bare = sliceName.replace(/^graph_\d+_/, '');
  const named = kernels.filter((k) => k.name === sliceName || k.name === bare);
  if (named.length <= 1) return named[0] ?? null;
  const inRegion = compileId ? named.filter((k) => k.compileId === compileId) : [];
  return inRegion.length === 1 ? inRegion[0]! : null;
}

/** The kernels a timeline pane's compiled code may run, and the report mode whose compiles hold their generated code. */
export interface PaneKernels {
  mode: string;
  kernels: KernelProvenance[];
  /** the steps their times per step are the mean of (kernelSteps), null in a report before them */
  steps: KernelSteps | null;
}

/**
 * The kernels of the pane labelled `paneLabel`: a target's mode pane has its mode's; a script region's pane "r0 Net
 * default" (the script's own compiled callable, replayed) has the kernels the script's compiles made for that region
 * (the "script" entry holds them, with their generated code); a what-if mode's pane, those its replay compiled.
 * Null for eager panes and traces without a report.
 */
export function paneKernels(report: Report, paneLabel: string): PaneKernels | null {
  const mode = report.modes.find((m) => m.mode === paneLabel) ?? inSituCompiled(report, paneLabel);
  if (mode)
    return { mode: mode.mode, kernels: mode.compiler?.kernels ?? [], steps: mode.compiler?.kernelSteps ?? null };
  const traced = regionTraces(report).find((t) => t.label === paneLabel && t.measurement);
  if (!traced?.measurement) return null;
  if (traced.measurement.mode !== 'as-written')
    return {
      mode: traced.measurement.mode,
      kernels: traced.measurement.compiler?.kernels ?? [],
      steps: traced.measurement.compiler?.kernelSteps ?? null,
    };
  const script = report.modes.find((m) => m.mode === 'script');
  // the region's own compile ids: a kernel name other regions' compiles also made is not this region's
  const ids = new Set((traced.region.compiler?.frames ?? []).map((f) => f.compileId));
  const kernels = (script?.compiler?.kernels ?? []).filter((k) => !ids.size || ids.has(k.compileId ?? ''));
  return script ? { mode: script.mode, kernels, steps: script.compiler?.kernelSteps ?? null } : null;
}

/** The compiles behind the pane labelled `paneLabel` (as paneKernels picks them), to name them by function; null for
 *  eager panes and traces without a report. */
export function paneFrames(report: Report | null, paneLabel: string): CompiledFrame[] | null {
  return paneCompiler(report, paneLabel)?.frames ?? null;
}

/** The graph breaks of the report entry a pane was profiled for (a timeline's break marks say their line). */
export function paneBreaks(report: Report | null, paneLabel: string): GraphBreak[] | null {
  return paneCompiler(report, paneLabel)?.graphBreaks ?? null;
}

/** What the compiler did for the report entry a pane was profiled for: a mode's, or a region's measurement's. */
function paneCompiler(report: Report | null, paneLabel: string): CompilerInsight | null {
  if (!report) return null;
  const mode = report.modes.find((m) => m.mode === paneLabel) ?? inSituCompiled(report, paneLabel);
  if (mode) return mode.compiler ?? null;
  const traced = regionTraces(report).find((t) => t.label === paneLabel && t.measurement);
  if (!traced?.measurement) return null;
  return (traced.measurement.mode === 'as-written' ? traced.region.compiler : traced.measurement.compiler) ?? null;
}

/** The script's own entry where the pane is the observed run's compiled window ("TinyTransformer, in situ
 *  compiled"): the script's compiled code is what ran there, by the script's compiles. */
function inSituCompiled(report: Report, paneLabel: string): Report['modes'][number] | undefined {
  const window = inSituTraces(report).find((t) => t.label === paneLabel);
  return window?.side === 'compiled' ? report.modes.find((m) => m.mode === 'script') : undefined;
}
