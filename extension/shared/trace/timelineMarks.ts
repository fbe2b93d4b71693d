// What the compiler did, where it happened on a trace's time axis: compiles and recompiles (Dynamo/Inductor
// spans inside the profile), graph breaks (a compiled frame that ran eager code before the frame resumed after
// the break was entered: "Torch-Compiled Region" nested in another), and CUDA-graph replays (cudaGraphLaunch to
// its last replayed kernel). Read from the trace's own events; and a finding (a report's graph break or
// recompile, by compile id) matched to its marks, for "Show in timeline".
import { slicesByCorrelation } from './flowLinks.ts';
import { forEachOverlapping, levelsOf } from './levels.ts';
import { SliceKind, type TraceModel } from './model.ts';
import { Cat, classifyHostName } from './sliceKinds.ts';

export type MarkKind = 'compile' | 'recompile' | 'graph-break' | 'cudagraph-replay';

export interface TimelineMark {
  kind: MarkKind;
  /** µs, the model's time */
  startUs: number;
  durUs: number;
  /** what the mark says on the timeline */
  label: string;
  /** the frame's compile id ("0/2") where the trace names it */
  compileId: string | null;
  track: number;
  /** a graph break's: the ops the profiler recorded in its span (0: only Python ran there, or nothing it records) */
  opsRecorded?: number;
}

/** the profiler's span of a compiled frame's call, named by its compile id */
const REGION = /^Torch-Compiled Region: (\d+\/\d+)$/;
const COMPILE_ID = /compile_id=(\d+\/\d+)/;
/** Dynamo's check of a compiled frame's guards, just before each call of its compiled code. */
export const CACHE_LOOKUP = 'TorchDynamo Cache Lookup';

/** Inductor's span around a compiled graph's call: "## Call CompiledFxGraph f73ycg… ##". */
export const isGraphRun = (name: string): boolean => name.startsWith('## Call CompiledFxGraph ');

const isRecompile = (compileId: string | null): boolean => compileId !== null && !compileId.endsWith('/0');

/** The compile id of each "Torch-Compiled Region: 0/1" name, by name id: slices are then matched by id, not by a regex each. */
export function regionNames(model: TraceModel): Map<number, string> {
  const ids = new Map<number, string>();
  model.names.forEach((name, id) => {
    const compileId = REGION.exec(name)?.[1];
    if (compileId) ids.set(id, compileId);
  });
  return ids;
}

/**
 * Whether the model may have marks, from its names alone (a pass over the names, not the slices): where it may,
 * the timeline keeps a lane for them, so finding them after the first frame moves nothing.
 */
export function mayHaveMarks(model: TraceModel): boolean {
  return model.names.some(
    (name) =>
      name === 'cudaGraphLaunch' || REGION.test(name) || classifyHostName(name, Cat.Unknown) === SliceKind.Compile,
  );
}

/** Every mark of the model, by start. */
export function timelineMarks(model: TraceModel): TimelineMark[] {
  const marks = [...compileMarks(model), ...graphBreakMarks(model), ...replayMarks(model)];
  return marks.sort((a, b) => a.startUs - b.startUs || a.kind.localeCompare(b.kind));
}

/** Outermost compile spans, each with the compile id a nested `_data: compile_id=` annotation gives it. */
function compileMarks(model: TraceModel): TimelineMark[] {
  const spans: number[] = [];
  for (let i = 0; i < model.count; i++) if (model.kind[i] === SliceKind.Compile) spans.push(i);
  spans.sort(
    (a, b) => model.track[a]! - model.track[b]! || model.start[a]! - model.start[b]! || model.dur[b]! - model.dur[a]!,
  );
  const marks: TimelineMark[] = [];
  let outer: TimelineMark | null = null;
  for (const i of spans) {
    const id = COMPILE_ID.exec(model.names[model.name[i]!]!)?.[1] ?? null;
    if (outer && outer.track === model.track[i] && model.start[i]! <= outer.startUs + outer.durUs) {
      outer.compileId ??= id;
      continue;
    }
    outer = {
      kind: 'compile',
      startUs: model.start[i]!,
      durUs: model.dur[i]!,
      label: '',
      compileId: id,
      track: model.track[i]!,
    };
    marks.push(outer);
  }
  for (const mark of marks) {
    if (isRecompile(mark.compileId)) mark.kind = 'recompile';
    mark.label = `${mark.kind}${mark.compileId ? ` ${mark.compileId}` : ''}`;
  }
  return marks;
}

/**
 * A compiled frame that broke runs its first graph, then eager code, then the frame resuming after the break
 * (looked up and entered inside it): the break is marked from the end of its last graph call before that
 * lookup to the lookup.
 */
function graphBreakMarks(model: TraceModel): TimelineMark[] {
  const regionIds = regionNames(model);
  if (!regionIds.size) return [];
  const levels = levelsOf(model);
  const lookup = model.names.indexOf(CACHE_LOOKUP);
  const graphCall = new Uint8Array(model.names.length);
  model.names.forEach((name, id) => {
    if (isGraphRun(name)) graphCall[id] = 1;
  });
  const marks: TimelineMark[] = [];
  for (let i = 0; i < model.count; i++) {
    const compileId = regionIds.get(model.name[i]!);
    if (!compileId) continue;
    const track = model.track[i]!;
    const from = model.start[i]!;
    const to = from + model.dur[i]!;
    const nested = (visit: (j: number) => void): void => {
      for (
        let level = levels.trackLevels[track]! + model.depth[i]! + 1;
        level < levels.trackLevels[track + 1]!;
        level++
      ) {
        forEachOverlapping(model, levels, level, from, to, (j) => {
          if (model.start[j]! >= from) visit(j);
        });
      }
    };
    // the first lookup (or region) of a frame resuming inside this one, then this frame's last graph call before it
    let resumeAt = Infinity;
    nested((j) => {
      if ((model.name[j] === lookup || regionIds.has(model.name[j]!)) && model.start[j]! < resumeAt)
        resumeAt = model.start[j]!;
    });
    if (resumeAt === Infinity) continue;
    let lastGraphEnd = from;
    nested((j) => {
      if (graphCall[model.name[j]!] && model.start[j]! < resumeAt)
        lastGraphEnd = Math.max(lastGraphEnd, model.start[j]! + model.dur[j]!);
    });
    // what ran between the graphs as the profiler recorded it: a break's span with none is Python alone (review
    // 6A H2: a cold step's 6 ms named by the compiled call's ops read as those ops run eagerly)
    let opsRecorded = 0;
    nested((j) => {
      if (model.kind[j] === SliceKind.CpuOp && model.start[j]! >= lastGraphEnd && model.start[j]! < resumeAt)
        opsRecorded++;
    });
    marks.push({
      kind: 'graph-break',
      startUs: lastGraphEnd,
      durUs: Math.max(0, resumeAt - lastGraphEnd),
      label: `graph break in ${compileId}`,
      compileId,
      track,
      opsRecorded,
    });
  }
  return marks;
}

/** Each cudaGraphLaunch, from the launch to the end of the last device slice it replayed. */
function replayMarks(model: TraceModel): TimelineMark[] {
  const launch = model.names.indexOf('cudaGraphLaunch');
  if (launch < 0) return [];
  const launches: number[] = [];
  for (let i = 0; i < model.count; i++)
    if (model.name[i] === launch && model.kind[i] === SliceKind.RuntimeLaunch) launches.push(i);
  const replayed = slicesByCorrelation(
    model,
    new Set(launches.map((i) => model.correlation[i]!).filter((id) => id >= 0)),
    true,
  );
  return launches.map((i) => {
    let end = model.start[i]! + model.dur[i]!;
    for (const j of replayed.get(model.correlation[i]!) ?? []) end = Math.max(end, model.start[j]! + model.dur[j]!);
    return {
      kind: 'cudagraph-replay',
      startUs: model.start[i]!,
      durUs: end - model.start[i]!,
      label: 'CUDA-graph replay',
      compileId: null,
      track: model.track[i]!,
    };
  });
}

/** A report's finding as the timeline looks for it: a graph break or recompile of these compile ids. */
export interface TimelineTarget {
  kind: 'graph-break' | 'recompile';
  compileIds: string[];
  /** the finding's message, said beside the marks (or where none is found) */
  label: string;
  /** panes whose label starts with one of these (the modes or regions the finding was seen in) come first */
  modes: string[];
}

/**
 * Where a finding happened in a trace: a graph break's marks of its frame; a recompile's compile span, else the
 * first run of the code it compiled (the recompile itself happened before the profile). Empty when the trace
 * holds neither (e.g. the frame never ran while profiled).
 */
export function targetSpans(
  model: TraceModel,
  marks: readonly TimelineMark[],
  target: TimelineTarget,
): { startUs: number; durUs: number }[] {
  const ids = new Set(target.compileIds);
  const found = marks.filter((m) => m.kind === target.kind && m.compileId !== null && ids.has(m.compileId));
  if (found.length || target.kind !== 'recompile') return found.map(({ startUs, durUs }) => ({ startUs, durUs }));
  const firstRuns = new Map<string, { startUs: number; durUs: number }>();
  const regionIds = regionNames(model);
  for (let i = 0; i < model.count; i++) {
    const id = regionIds.get(model.name[i]!);
    if (!id || !ids.has(id)) continue;
    const seen = firstRuns.get(id);
    if (!seen || model.start[i]! < seen.startUs) firstRuns.set(id, { startUs: model.start[i]!, durUs: model.dur[i]! });
  }
  return [...firstRuns.values()].sort((a, b) => a.startUs - b.startUs);
}
