// What a pane's timeline calls the trace's slices and marks: the compiler's codes in words (analysis/sliceNames.ts), by
// the report entry the trace was profiled for where the pane has one, else as the trace itself names its compiles,
// with the lines they cite where the user's edits moved them. The canvas (timeline.ts) draws them.
import type { CompiledFrame, GraphBreak, KernelProvenance } from '../extension/shared/report.ts';
import type { LinesNow } from '../extension/shared/movedLines.ts';
import type { TraceModel } from '../extension/shared/trace/model.ts';
import { lastStartingBy, levelsOf } from '../extension/shared/trace/levels.ts';
import { regionNames, timelineMarks, type TimelineMark } from '../extension/shared/trace/timelineMarks.ts';
import {
  callSlicesAround,
  COMPILED_GRAPH_CALL,
  compilesOfTrace,
  hostedWords,
  innerFrameWords,
  markSaid,
  MODULE_CALL,
  nameNow,
  namesNow,
  namesSaid,
  ONE_CALL_WORDS,
  type SaidName,
  TORCH_COMPILE_WRAPPER,
  type TracedCompiles,
} from './analysis/sliceNames.ts';
import { coldStep } from './analysis/stepMap.ts';
import type { PlacedCall } from './analysis/compiledCalls.ts';
import { firstIsWarmUp } from '../extension/shared/trace/window.ts';
import { profilerWorkLabel, traceNamed } from './timelineWords.ts';
import { partOf, withoutNamespace } from './timelineText.ts';
import { ProfilerWork } from './analysis/profilerWork.ts';
import type { SliceWords } from './sliceTexts.ts';
import { traceNameForms, traceNameWords } from '../extension/shared/trace/traceWords.ts';
import { isOp } from './analysis/rangeSummary.ts';

/** the profiler's record of a module's call ("nn.Module: SimpleNet_0"), which the module's own name says */
const MODULE_RECORD = 'nn.Module: ';

export class TimelineNames {
  /** the marks, once found (the canvas draws none until then) */
  protected foundMarks: TimelineMark[] | null = null;
  /** each found mark's label as the report said it, before the user's edits moved the lines it names */
  private marksSaid: SaidName[] = [];
  private paneFrames: readonly CompiledFrame[] | null = null;
  /** the compiles as the trace names them, found once: by the code they ran where it has Python stacks
   *  (tracedFrames), else by their place in the step (callsByPlace): compilesOfTrace */
  private tracedCompiles: TracedCompiles | null = null;
  private paneKernels: KernelProvenance[] | null = null;
  private paneBreaks: GraphBreak[] | null = null;
  /** the calls named by place that another frame's compile ran inside, once the marks are found (namesSaid) */
  private hostCalls: PlacedCall[] = [];
  /** per slice of such a call, the words that say the call that compiled inside it (hostedWords) */
  private hosted = new Map<number, string>();
  /** the script's call that opened the in-situ window this trace is (its profiler steps are the calls after it) */
  private paneFromCall: number | null = null;
  /** per name id, the names said otherwise than the trace says them, as the report said them (sliceName) */
  private saidNames: Map<number, SaidName> | null = null;
  /** the same, with the lines they name where the user's edits moved them */
  private shownNames: Map<number, string> | null = null;
  /** the profiler's own work in this pane: what runs during it, and the frames it ran inside (found once) */
  private work: ProfilerWork | null = null;

  constructor(
    readonly model: TraceModel,
    /** where the lines the names cite are now (the user's edits since the report; sourceLinks.ts) */
    protected readonly linesNow: LinesNow,
  ) {}

  /**
   * The compiler's marks (compiles, graph breaks, replays), found on first use: a pass over the slices that
   * drawFrame.ts runs after the first frame, so it never delays it. Until then none are drawn.
   */
  get marks(): readonly TimelineMark[] {
    if (!this.foundMarks) {
      const found = timelineMarks(this.model);
      const hostSlices = callSlicesAround(this.model, found);
      const regions = regionNames(this.model);
      const around = hostSlices.map((i) => (i < 0 ? null : regions.get(this.model.name[i]!)!));
      const placed = this.callsNamedByPlace ? this.traced.placed : [];
      this.marksSaid = found.map((m, i) => markSaid(m, this.frames, this.paneBreaks, around[i], placed));
      // the calls a band lies over: their slices said by their place alone (namesSaid), found with the marks, each
      // slice with the call that compiled inside it (hostedWords)
      this.hostCalls = placed.filter((call) => around.includes(call.compileId));
      this.hosted = new Map();
      hostSlices.forEach((i, k) => {
        const host = this.hostCalls.find((call) => call.compileId === around[k]);
        const words = host ? hostedWords(host, found[k]!.compileId!, placed) : null;
        if (words && !this.hosted.has(i)) this.hosted.set(i, words);
      });
      if (this.hostCalls.length) this.saidNames = this.shownNames = null;
      this.foundMarks = found.map((m, i) => ({ ...m, label: nameNow(this.marksSaid[i]!, this.linesNow) }));
    }
    return this.foundMarks;
  }

  /** The compiles of the report entry this trace was profiled for, to name its marks and compiled regions by
   *  function (compileNames.ts). */
  get frames(): readonly CompiledFrame[] | null {
    // a trace opened without its report: its compiles as the trace names them (compilesOfTrace)
    if (!this.paneFrames?.length) this.paneFrames = this.traced.frames;
    return this.paneFrames.length ? this.paneFrames : null;
  }

  set frames(frames: readonly CompiledFrame[] | null) {
    this.paneFrames = frames;
    this.saidNames = this.shownNames = null;
  }

  private get traced(): TracedCompiles {
    return (this.tracedCompiles ??= compilesOfTrace(this.model));
  }

  /** Whether its compiled calls are named by their place in the step: no report names their code, nor does the
   *  trace (no Python stacks). */
  get callsNamedByPlace(): boolean {
    return this.traced.byPlace && this.frames !== null && this.frames === this.traced.frames;
  }

  /** The kernels of the report entry this trace was profiled for, to say a generated kernel's user lines. */
  set kernels(kernels: KernelProvenance[] | null) {
    this.paneKernels = kernels;
    this.saidNames = this.shownNames = null;
  }

  /** The script's call that opened the in-situ window this trace is: its step slices say the script's calls. */
  set fromCall(fromCall: number | null) {
    this.paneFromCall = fromCall;
    this.saidNames = this.shownNames = null;
  }

  /**
   * The number of the pane's warm-up step (its first where later ones follow and it is clearly longer than they are:
   * the profiler's start-up and the first call's one-time work are in it, firstIsWarmUp), else null: none in a script's in-situ window, opened after the profiler's own
   * warm-up call and the script's first calls.
   */
  get warmUpStep(): number | null {
    return this.paneFromCall === null && firstIsWarmUp(this.model.steps) ? coldStep(this.model.steps) : null;
  }

  /** The number of the step the pane's compare leaves out (its first where later ones follow: stepMap.ts coldStep),
   *  else null: none in a script's in-situ window, all of whose calls are counted. */
  get leftOutStep(): number | null {
    return this.paneFromCall === null ? coldStep(this.model.steps) : null;
  }

  /** The graph breaks of the report entry this trace was profiled for, to say a break mark's line. */
  set breaks(breaks: GraphBreak[] | null) {
    this.paneBreaks = breaks;
    this.foundMarks = null;
  }

  /** The user moved lines of their code: the names and marks that cite lines say them where they are now. */
  linesMoved(): void {
    this.shownNames = null;
    if (this.foundMarks)
      this.foundMarks = this.foundMarks.map((m, i) => ({ ...m, label: nameNow(this.marksSaid[i]!, this.linesNow) }));
  }

  /**
   * A slice's name as the timeline says it: the profiler's span of a compiled frame's call ("Torch-Compiled Region:
   * 0/1") by the function it compiled ("compiled forward, recompile 1"), Inductor's run of its graph ("## Call
   * CompiledFxGraph f73ycg… ##") as "Inductor's code of forward", a kernel Inductor generated by its graph and place
   * ("fused kernel 1 of forward (lines 12, 13)"), a profiler step as "step 2" (an in-situ window's as the script's call, "call 5"), the profiler's own work with the frames
   * it ran inside ("inside CUDA set-up, the profiler's own work: …"); every other name as the trace gives it (the
   * tooltip and the details keep the trace's own).
   */
  sliceName(nameId: number): string {
    this.saidNames ??= namesSaid(this.model, this.frames, this.paneKernels, this.paneFromCall, this.hostCalls);
    this.shownNames ??= namesNow(this.saidNames, this.linesNow);
    const said = this.shownNames.get(nameId) ?? this.model.names[nameId]!;
    const frames = this.profilerWork.labelFrames.get(nameId);
    if (!frames) return said;
    const model = this.model;
    // (in a sentence the frames' names without a namespace, as a table says them: "inside _foreach_copy_", review
    // 13 P5: "inside aten::_foreach_copy_")
    return profilerWorkLabel(said, [...new Set(frames.map((i) => withoutNamespace(this.sliceName(model.name[i]!))))]);
  }

  /** The profiler's own work in this pane (analysis/profilerWork.ts): its labels (sliceName), the dimming and the
   *  hovers of the slices during it read the one found. */
  get profilerWork(): ProfilerWork {
    return (this.work ??= new ProfilerWork(this.model));
  }

  /** A name of this trace as the timeline's slices say it (sliceName, less its namespace as their labels are:
   *  timelineText.sliceLabel), found by the trace's own name: a range's table lists "conv2d" beside the slice
   *  "conv2d", not "aten::conv2d" (review 11 J8). */
  sayName(name: string): string {
    const id = this.model.names.indexOf(name);
    return withoutNamespace(id < 0 ? name : this.sliceName(id));
  }

  /**
   * Slice `i`'s words where they depend on the frames around it: torch.compile's wrapper inside another one is the
   * compiled code's call of its graph (sliceNames.COMPILED_GRAPH_CALL); a call named by place with the call that
   * compiled inside it, under that compile's band ("1st compiled call in the step, where the 4th recompiled"); else
   * its name's (sliceName).
   */
  frameWords(i: number): string {
    const words = this.sliceName(this.model.name[i]!);
    const hosted = this.hosted.get(i);
    if (hosted) return `${words}, ${hosted}`;
    if (words !== TORCH_COMPILE_WRAPPER) return words;
    for (let up = frameAround(this.model, i); up >= 0; up = frameAround(this.model, up))
      if (this.sliceName(this.model.name[up]!) === words) return COMPILED_GRAPH_CALL;
    return words;
  }

  /**
   * The words slice `i`'s label says: its frameWords; a nested frame said in the same words as the frame it ran inside
   * (one level up on its track) adds its place in that run of frames, the first too: "AOTAutograd's wrapper (1 of 5)",
   * "(2 of 5)"; two frames of one call (ONE_CALL_WORDS) and nn.Module's call under its module's record say it once, the inner
   * frame in quiet words of its own (innerFrameWords: "Python's thread bootstrap", "nn.Module's call"): no function's
   * own name ("…, call_func_at_runtime_with_args", "…, wrapper": review 15W W3), no wide bar left blank (review 14 T3:
   * four bars under "AOTAutograd's wrapper" read as a drawing failure; review 13 Q7: "CUDA set-up" over "CUDA set-up").
   * None where the record around it says the same op with a note added: autograd's "backward of addmm (autograd)" over
   * its node's "backward of addmm", cut to the same words twice (review 14 T10); its hover names it. The record keeps
   * its words.
   */
  labelWords(i: number): string | null {
    const model = this.model;
    const words = this.frameWords(i);
    const parent = frameAround(model, i);
    const parentWords = parent < 0 ? null : this.frameWords(parent);
    if (parentWords?.startsWith(`${words} (`)) return null;
    // one call said by two frames, and nn.Module's call of the module whose record is around it: said once
    const raw = model.names[model.name[i]!]!;
    if (ONE_CALL_WORDS.has(words)) return parentWords === words ? innerFrameWords(raw) : words;
    if (words === MODULE_CALL && parent >= 0 && model.names[model.name[parent]!]!.startsWith(MODULE_RECORD))
      return innerFrameWords(raw);
    let at = 1;
    for (let up = parent; up >= 0 && this.frameWords(up) === words; up = frameAround(model, up)) at++;
    // (a run is of a Python stack's frames: an op's children are not searched for one)
    if (at === 1 && !model.tracks[model.track[i]!]!.stack) return words;
    let of = at;
    for (let down = this.frameInside(i, words); down >= 0; down = this.frameInside(down, words)) of++;
    // the run's first counted too: no "(2 of 5)" under a bar that reads as one alone (review 16Z Z5)
    return of > 1 ? `${words} (${at} of ${of})` : words;
  }

  /** Slice `i`'s label: its labelWords, with the shorter whole forms of its name for a narrow bar where it has them
   *  (traceWords.traceNameForms: "guards" where "checking the compiled code's guards" does not fit); null: none. */
  labelFor(i: number): SliceWords | null {
    const said = this.labelWords(i);
    if (said === null) return null;
    const raw = this.model.names[this.model.name[i]!]!;
    const shorter = said === traceNameWords(raw) ? traceNameForms(raw) : null;
    const words = this.withoutPartAbove(i, said);
    return shorter ? { i, words, shorter } : { i, words };
  }

  /** A phase's words less its part where a bar around it on its track is named by the part ("codegen and load" under
   *  "Inductor", whose it is said once above): at every width, one column of a stack said one way, not "Inductor:"
   *  on some of its phases and not on others as their rows' room allowed (review 19Y Y4, 19Z Z5). */
  private withoutPartAbove(i: number, words: string): string {
    const part = partOf(words);
    if (part === '') return words;
    const named = part.slice(0, -': '.length);
    for (let up = frameAround(this.model, i); up >= 0; up = frameAround(this.model, up))
      if (this.frameWords(up) === named) return words.slice(part.length);
    return words;
  }

  /** The longest slice one level down on slice `i`'s track, inside it, said in `words` (frameWords), or -1. */
  private frameInside(i: number, words: string): number {
    const model = this.model;
    const { trackLevels, levelStart } = levelsOf(model);
    const track = model.track[i]!;
    const end = model.start[i]! + model.dur[i]!;
    for (let level = trackLevels[track]!; level < trackLevels[track + 1]!; level++) {
      const from = levelStart[level]!;
      if (model.depth[from] !== model.depth[i]! + 1) continue;
      const to = levelStart[level + 1]!;
      let j = lastStartingBy(model, from, to, model.start[i]!);
      if (j < from || model.start[j]! < model.start[i]!) j++;
      // (the longest: the run goes on through it, past short calls of the same wrapper begun before it)
      let found = -1;
      for (; j < to && model.start[j]! + model.dur[j]! <= end; j++)
        if ((found < 0 || model.dur[j]! > model.dur[found]!) && this.frameWords(j) === words) found = j;
      return found;
    }
    return -1;
  }

  /** The outermost op that holds slice `i` on its track (`i` itself where none does): what its row's label names
   *  where `i` is an op nested in it (aten::view inside aten::flatten, labelled "flatten": review 14 S2). */
  outermostOp(i: number): number {
    let outer = i;
    for (let up = frameAround(this.model, i); up >= 0 && isOp(this.model.kind[up]!); up = frameAround(this.model, up))
      outer = up;
    return outer;
  }

  /** The name for a tooltip: as said, with the trace's own beside it where it is said otherwise. */
  sliceTitle(nameId: number): string {
    const raw = this.model.names[nameId]!;
    const shown = this.sliceName(nameId);
    return shown === raw ? raw : `${shown}\n(${traceNamed(raw)})`;
  }

  get marksFound(): boolean {
    return this.foundMarks !== null;
  }
}

/** The slice one level up on slice `i`'s track that holds it, or -1 (a top-level slice, or none holds it). */
function frameAround(model: TraceModel, i: number): number {
  const depth = model.depth[i]!;
  if (depth === 0) return -1;
  const { trackLevels, levelStart } = levelsOf(model);
  const track = model.track[i]!;
  for (let level = trackLevels[track]!; level < trackLevels[track + 1]!; level++) {
    const from = levelStart[level]!;
    if (model.depth[from] !== depth - 1) continue;
    const j = lastStartingBy(model, from, levelStart[level + 1]!, model.start[i]!);
    return j >= from && model.start[j]! + model.dur[j]! >= model.start[i]! + model.dur[i]! ? j : -1;
  }
  return -1;
}
