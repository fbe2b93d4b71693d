// A compile said by the user's function and which compile of it it was ("forward", "forward, recompile 2",
// "forward after line 24"), never by Dynamo's compile id ("0/2"): every surface that names a compile, a kernel's
// compile or a compiled region of a timeline says it this way. The id stays only where a tooltip explains it.
import type { CompiledFrame, SourceLocation } from '../shared/report.ts';
import { cellLineLabel, placeLabel } from '../shared/sourcePlace.ts';
import type { TimelineMark } from '../shared/trace/timelineMarks.ts';
import CONTEXTLIB_TABLE from '../../native-runner/compile_lens_runner/report/contextlib_words.json';

/** Dynamo's name for the rest of a function after a graph break: `torch_dynamo_resume_in_forward_at_24`. */
const RESUME = /^torch_dynamo_resume_in_(.+)_at_(\d+)$/;

/** "forward", or "forward after line 24" for the part of forward Dynamo compiled after a graph break there; in a
 *  notebook "forward after cell 3, line 7" (the name's own line is the exported script's, which no cell has): that
 *  part's code starts at the break's line, so its frame's location, mapped to the cell by the runner, is the break's
 *  place (report/compile_names.py function_name's). */
export function functionName(name: string, location?: SourceLocation | null): string {
  const resume = RESUME.exec(name);
  if (!resume) return name;
  if (location?.function === name && location.cell != null)
    return `${resume[1]} after ${cellLineLabel({ cell: location.cell, line: location.line })}`;
  return `${resume[1]} after line ${resume[2]}`;
}

/** "F/N" (or "F/N_k", a restarted compile): frame F's compile N, 0 its first. */
function parts(compileId: string): { frame: string; attempt: number } | null {
  const match = /^(\d+)\/(\d+)(?:_\d+)?$/.exec(compileId);
  return match ? { frame: match[1]!, attempt: Number(match[2]) } : null;
}

/** The frame's function where the report names one, and which compile of it the id is; null for no id. */
function named(
  frames: readonly CompiledFrame[] | null | undefined,
  compileId: string,
): { fn: string | null; frame: number; attempt: number } | null {
  const id = parts(compileId);
  if (!id) return null;
  const frame = (frames ?? []).find(
    (f) => f.compileId !== null && parts(f.compileId)?.frame === id.frame && f.function,
  );
  return { fn: frame?.function ? frameName(frame) : null, frame: Number(id.frame), attempt: id.attempt };
}

/** contextlib's functions a with statement's context manager runs, by what they do there: the runner's one table */
const CONTEXTLIB_WORDS = new Map<string, string>(Object.entries(CONTEXTLIB_TABLE));

/** "making a with statement's context manager" of contextlib's `helper`, as a compile's name and a timeline's Python
 *  frame say it; null for another function. */
export const contextlibWords = (fn: string): string | null => CONTEXTLIB_WORDS.get(fn) ?? null;

/** "making a with statement's context manager", "contextlib" of contextlib's `helper`: a function of Python's own whose
 *  file means nothing to the user, by what it does and its module; null for another. */
function libraryFunctionWords(library: string, fn: string): { words: string; module: string } | null {
  const module = library.split(' ').pop()!.split('/').pop()!.replace(/\.py$/, '');
  const words = library.startsWith("Python's") && module === 'contextlib' ? contextlibWords(fn) : null;
  return words ? { words, module } : null;
}

/** A frame by its function, as report/compile_names.py names it: a recorded frame with no location is not the user's
 *  code (the runner keeps user files' only), named by the user's line whose call led there, the library's frame as
 *  detail (schema 1.35), else where the report says it is (schema 1.31); a part resumed after a graph break is at a
 *  line of that file, which means nothing where the file is not named. */
function frameName(frame: CompiledFrame): string {
  const fn = frame.function!;
  const resume = RESUME.exec(fn);
  // torch.compile(module)'s wrapper: its code is the module the user called
  if (frame.library?.startsWith("PyTorch's") && fn === 'inner' && frame.calledFrom)
    return `the compiled module called at ${placeLabel(frame.calledFrom)}`;
  // contextlib's by what it does, its line after a graph break meaning nothing to the user (review 13 F5)
  const does = frame.library ? libraryFunctionWords(frame.library, resume ? resume[1]! : fn) : null;
  if (does) {
    const after = resume ? ', after a graph break in it' : '';
    return frame.calledFrom
      ? `the call at ${placeLabel(frame.calledFrom)} (${does.words}, ${does.module}${after})`
      : `${does.words} (${does.module})${after}`;
  }
  // a resumed part's graph break by its file's line, "contextlib.py:105" (review 10 F5: "line 105" read as the user's)
  const broke = resume && frame.library ? `${frame.library.split(' ').pop()!.split('/').pop()}:${resume[2]}` : '';
  if (frame.library && frame.calledFrom) {
    const after = resume ? `, after its graph break at ${broke}` : '';
    return `the call at ${placeLabel(frame.calledFrom)} (${resume ? resume[1] : fn} in ${frame.library}${after})`;
  }
  if (frame.library)
    return resume
      ? `${resume[1]} (in ${frame.library}), after its graph break at ${broke}`
      : `${fn} (in ${frame.library})`;
  if ('location' in frame && frame.location === null)
    return resume ? `${resume[1]} (not in your files), after a graph break` : `${fn} (not in your files)`;
  return functionName(fn, frame.location);
}

/**
 * A compile by its function: "forward" (its first compile), "forward, recompile 2"; where the report knows no
 * function for the frame, "compiled function 2, recompile 1" (Dynamo's frames counted from 1: not "compiled graph",
 * which read as the graphs the heading counts, review 9 D7); a frame not in the user's files,
 * "inner (in PyTorch's _dynamo/external_utils.py)", "starting a with statement's context manager (contextlib), after a
 * graph break in it" where the report
 * says where it is (schema 1.31), else "inner (not in your files)"; "an unknown compile" for no id.
 */
export function compileName(
  frames: readonly CompiledFrame[] | null | undefined,
  compileId: string | null | undefined,
): string {
  if (!compileId) return 'an unknown compile';
  // the runner's name for a compile the report lists (schema 1.28, report/compile_names.py); a report before it, or
  // a compile only a trace names: made here, the same way
  const said = frames?.find((f) => f.compileId === compileId)?.nameText;
  if (said) return said;
  const id = named(frames, compileId);
  if (!id) return `compile ${compileId}`;
  const base = id.fn ?? `compiled function ${id.frame + 1}`;
  return id.attempt ? `${base}, recompile ${id.attempt}` : base;
}

/**
 * A compile a trace names ("Torch-Compiled Region: 0/1"): as compileName, but "recompile N" only where the report
 * lists that compile. A script region's profile on a CPU runs a copy compiled for the profile (with per-kernel
 * recording, script/replay._profiled_copy) from the script's own code: Dynamo counts it as the frame's next compile
 * ("0/1") though the script never recompiled, and the report, which says 0 recompiles, does not list it.
 */
export function tracedCompileName(frames: readonly CompiledFrame[] | null | undefined, compileId: string): string {
  const listed = !frames?.length || frames.some((f) => f.compileId === compileId);
  return compileName(frames, listed ? compileId : compileId.replace(/\/\d+(?:_\d+)?$/, '/0'));
}

/** Whether the report names the function of the trace's compile `compileId`. */
const functionNamed = (frames: readonly CompiledFrame[] | null | undefined, compileId: string): boolean =>
  Boolean(named(frames, compileId)?.fn);

/** A call of compiled code on a timeline (the profiler's "Torch-Compiled Region: 0/1"): "compiled forward",
 *  "compiled forward, recompile 1", "compiled function 2" where the report names no function. */
export function compiledCallName(frames: readonly CompiledFrame[] | null | undefined, compileId: string): string {
  const name = tracedCompileName(frames, compileId);
  return functionNamed(frames, compileId) ? `compiled ${name}` : name;
}

/** Inductor's call of a compiled graph's code on a timeline ("## Call CompiledFxGraph f73ycg… ##"), inside the
 *  compiled call `compileId` where one encloses it: "Inductor's code of forward", "Inductor's code of compiled graph
 *  2". Whose code it is, as "compiled forward" beside it is the whole call (guards and wrappers too, review 4A). */
export function graphRunName(frames: readonly CompiledFrame[] | null | undefined, compileId: string | null): string {
  return `Inductor's code of ${compileId ? tracedCompileName(frames, compileId) : 'a compiled graph'}`;
}

/** Which compile of its function: "first compile", "recompile 2" (where the function is named already). */
export function attemptName(compileId: string | null | undefined): string {
  const attempt = compileId ? parts(compileId)?.attempt : undefined;
  return attempt === undefined ? 'a compile' : attempt ? `recompile ${attempt}` : 'first compile';
}

/** A timeline mark's label with its compile named by function ("forward, recompile 1", "graph break in forward
 *  after line 20"); `frames`: the compiles of the pane's report entry, none for a trace opened without a report. */
export function markLabel(mark: TimelineMark, frames: readonly CompiledFrame[] | null | undefined): string {
  if (mark.kind === 'cudagraph-replay' || !mark.compileId) return mark.label;
  const name = compileName(frames, mark.compileId);
  if (mark.kind === 'graph-break') return `graph break in ${name}`;
  return mark.kind === 'recompile' ? name : `compile of ${name}`;
}
