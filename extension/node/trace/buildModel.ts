// A raw trace (rawTrace.ts, slices in file order) built into the model the timeline draws (model.ts): tracks
// ordered, slices sorted by (track, depth, start) and nested, kernel args and flows linked, CUDA-graph replays
// marked, steps found. Also the preview: the same build over only the slices around the first view.
import { isKernelKind, SliceKind, usSince, type TraceModel, type TrackInfo } from '../../shared/trace/model.ts';
import { release, scratchArray } from './memory.ts';
import { ARG_FIELD_COUNT, type RawTrace } from './rawTrace.ts';
import type { TraceColumns } from '../../shared/trace/rowParts.ts';
import { RowsByKey } from './rowsByKey.ts';
import { MAX_DEPTH, orderRows } from './modelOrder.ts';
import { sortRangeNearlySorted } from './sort.ts';
import { overlapsWindow, viewWindow, type FirstView } from '../../shared/trace/window.ts';
import { CACHE_LOOKUP } from '../../shared/trace/timelineMarks.ts';
import { pythonThreads, type PythonThreads } from './pythonThreads.ts';
import { nameThreadTracks, PYTHON_STACK_TRACK, tracksHoldingRows } from './threadTracks.ts';

/** What a preview's build takes from the whole trace: its origin, steps and CUDA-graph launches. */
type WholeTrace = Pick<TraceModel, 'steps' | 'stepSource'> & { origin: number; graphLaunches: Set<number> };

/**
 * The model of `raw`, each compile phase of it once already (withoutPhaseTwins, on the whole trace where it is read:
 * a window folded again could leave out a phase the whole trace keeps). `part`: a preview's build, with the whole
 * trace's origin, steps and CUDA-graph launches, and no warnings. Consumes the raw columns (see buildModelInParts).
 */
export function buildModel(raw: RawTrace, part?: WholeTrace): TraceModel {
  return finishBuild(buildModelInParts(raw, Infinity, part));
}

/** The model a build in parts returns, its parts not looked at (the rest of it built at once). */
export function finishBuild(building: Iterator<BuiltRows, TraceModel>): TraceModel {
  let step = building.next();
  while (!step.done) step = building.next();
  return step.value;
}

/** Rows [from, to) of a model being built, final in `columns` (its other rows may not be yet). */
export interface BuiltRows {
  columns: TraceColumns;
  from: number;
  to: number;
}

/**
 * The model of `raw` (its compile phases once: buildModel), built so that its rows can be posted while the rest is
 * built: yields each part of `rowsPerPart` rows but the last as soon as its rows are final, and returns the model.
 * Consumes the raw columns, giving each back (memory.ts) once the model's is made from it (modelOrder.ts), the args
 * at the end.
 */
export function* buildModelInParts(
  raw: RawTrace,
  rowsPerPart: number,
  part?: WholeTrace,
): Generator<BuiltRows, TraceModel> {
  const warnings = [...raw.notes, ...raw.problems.messages()];
  const n = raw.count;
  const origin = part ? part.origin : n === 0 ? 0 : minimum(raw.start.data, n);
  // µs since the origin in whole ns (model.ts), in place: the raw columns are the build's to consume
  sinceOrigin(raw.start.data, n, origin);

  const inStack = pythonFrameNames(raw.names);
  const threads = otherPythonThreads(raw, inStack);
  const { trackOrder, stackOrder, trackInfos } = orderTracks(raw, threads);
  const trackKey = raw.track.data; // file-order track ids become the model's, in place
  const kind = raw.kind.data;
  for (let i = 0; i < n; i++) {
    const frame = kind[i] === SliceKind.CpuOp && inStack[raw.name.data[i]!];
    // a thread of those Kineto has no id for: its own stack track, after the first of its track's (orderTracks)
    const thread = frame ? (threads.get(trackKey[i]!)?.threadOf.get(i) ?? 0) : 0;
    trackKey[i] = (frame ? stackOrder : trackOrder)[trackKey[i]!]! + thread;
  }
  nameThreadTracks(trackInfos, tracksHoldingRows(trackKey, n, trackInfos.length));
  const ordered = orderRows(raw, trackKey, trackInfos);
  if (ordered.clamped) warnings.push('timestamps span more than 78 hours; order of far-away events is approximate');
  if (ordered.depthClamped)
    warnings.push(`slices nested deeper than ${MAX_DEPTH} levels are drawn at level ${MAX_DEPTH}`);
  const model: TraceModel = {
    count: n,
    ...ordered.columns,
    names: raw.names,
    tracks: trackInfos,
    originUs: origin,
    steps: [],
    stepSource: 'none',
    kernelArgs: { slice: new Uint32Array(0), values: new Float64Array(0) },
    warnings,
  };
  raw.flows.link(model, ordered.levels, trackOrder);
  // Each part posted while the next is made (only CUDA-graph replays are left to mark).
  const replays = part?.graphLaunches ?? graphLaunchCorrelations(model);
  for (let from = 0; from < n; from += rowsPerPart) {
    const to = Math.min(n, from + rowsPerPart);
    markGraphReplays(model, replays, from, to);
    if (to < n) yield { columns: model, from, to };
  }
  model.kernelArgs = remapArgs(raw, ordered.modelRow);
  if (part) return { ...model, steps: part.steps, stepSource: part.stepSource, warnings: [] };
  return Object.assign(model, findSteps({ ...model, onGpu: (row) => model.tracks[model.track[row]!]!.gpu }));
}

/**
 * The model of only the slices around `view` (see window.ts), without building the whole model first; null when
 * the trace has no steps to say where the view opens. Equals sliceWindow() of the full model over the same
 * window, except that track depths count only these slices (and steps and CUDA-graph replays may differ where
 * only flow events, not args, link launches to kernels). Leaves `raw` as it was.
 */
export function previewModel(raw: RawTrace, view: FirstView | null): TraceModel | null {
  const n = raw.count;
  const absStart = raw.start.data;
  const dur = raw.dur.data;
  const origin = minimum(absStart, n);
  const start = scratchArray(Float64Array, n);
  for (let i = 0; i < n; i++) start[i] = usSince(absStart[i]!, origin);
  const tracks = raw.tracks;
  const track = raw.track.data;
  const found = findSteps({
    count: n,
    start,
    dur,
    kind: raw.kind.data,
    name: raw.name.data,
    correlation: raw.correlation.data,
    names: raw.names,
    onGpu: (row) => tracks[track[row]!]!.gpu,
  });
  release(start);
  const window = viewWindow(found.steps, view);
  if (!window) return null;
  const graphLaunches = graphLaunchCorrelations({
    count: n,
    name: raw.name.data,
    kind: raw.kind.data,
    correlation: raw.correlation.data,
    names: raw.names,
  });
  return windowModel(raw, { origin, graphLaunches, ...found }, window);
}

/**
 * The model of the slices of `raw` overlapping `window` (µs since the whole trace's origin), with the flows inside
 * it, built with the whole trace's origin, steps and CUDA-graph launches. `raw` may hold the whole trace or only
 * the events around the window (node/trace/skimRead.ts), its compile phases once (buildModel); it is left as it was.
 */
export function windowModel(raw: RawTrace, whole: WholeTrace, [from, to]: [number, number]): TraceModel {
  const absStart = raw.start.data;
  const dur = raw.dur.data;
  const rows: number[] = [];
  for (let i = 0; i < raw.count; i++)
    if (overlapsWindow(usSince(absStart[i]!, whole.origin), dur[i]!, from, to)) rows.push(i);
  return buildModel(raw.rows(Uint32Array.from(rows), from + whole.origin, to + whole.origin), whole);
}

/**
 * Tracks ordered CPU threads first, then GPU streams, then each CPU thread's Python stack (its python_function
 * frames: a stack 25 frames deep, idle threads' among them, would push the ops, launches and kernels off screen),
 * each by the trace's sort_index metadata. Every CPU thread gets its stack track whether or not these rows have
 * frames, so that a preview's tracks are the full model's; the timeline leaves out tracks with no slice.
 */
interface KeyedTrack {
  raw: number;
  stack: boolean;
  /** a thread of those Kineto has no id for (pythonThreads): its index among them; 0 for every other track */
  thread: number;
  key: [number, number, number, string, string, number];
}

/** A raw track's name (trackName), by its process's and thread's metadata. */
function rawTrackName(raw: RawTrace, t: RawTrace['tracks'][number]): string {
  const process = raw.processMeta.get(t.pid);
  const thread = raw.threadMeta.get(`${t.pid}\u0000${t.tid}`);
  return trackName(t, process?.labels ?? process?.name ?? null, thread?.name ?? null);
}

/** Per raw track of Python threads Kineto has no id for ("other Python threads"), those threads, where it holds
 *  several (pythonThreads.ts). */
function otherPythonThreads(raw: RawTrace, inStack: Uint8Array): Map<number, PythonThreads> {
  const found = new Map<number, PythonThreads>();
  raw.tracks.forEach((t, index) => {
    if (t.gpu || rawTrackName(raw, t) !== OTHER_PYTHON_THREADS) return;
    const threads = pythonThreads(raw, index, inStack, OTHER_PYTHON_THREADS);
    if (threads) found.set(index, threads);
  });
  return found;
}

function orderTracks(
  raw: RawTrace,
  threads: ReadonlyMap<number, PythonThreads>,
): { trackOrder: Uint32Array; stackOrder: Uint32Array; trackInfos: TrackInfo[] } {
  const keyed: KeyedTrack[] = [];
  raw.tracks.forEach((t, index) => {
    const process = raw.processMeta.get(t.pid);
    const thread = raw.threadMeta.get(`${t.pid}\u0000${t.tid}`);
    const sort = [process?.sortIndex ?? Number(t.pid), thread?.sortIndex ?? Number(t.tid), t.pid, t.tid] as const;
    keyed.push({ raw: index, stack: false, thread: 0, key: [t.gpu ? 1 : 0, ...sort, 0] });
    if (t.gpu) return;
    const count = threads.get(index)?.names.length ?? 1;
    for (let k = 0; k < count; k++) keyed.push({ raw: index, stack: true, thread: k, key: [2, ...sort, k] });
  });
  keyed.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const x = a.key[i];
      const y = b.key[i];
      if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
      if (typeof x === 'number' && typeof y === 'number') return Number.isNaN(x) ? 1 : Number.isNaN(y) ? -1 : x - y;
      return String(x) < String(y) ? -1 : 1;
    }
    return 0;
  });
  const trackOrder = new Uint32Array(raw.tracks.length);
  const stackOrder = new Uint32Array(raw.tracks.length);
  const trackInfos = keyed.map(({ raw: rawIndex, stack, thread }, index): TrackInfo => {
    // a raw track's threads are its stack tracks index, index + 1, …: the keys differ only in the thread's
    if (thread === 0) (stack ? stackOrder : trackOrder)[rawIndex] = index;
    const t = raw.tracks[rawIndex]!;
    const name = rawTrackName(raw, t);
    const info: TrackInfo = { pid: t.pid, tid: t.tid, name, gpu: t.gpu, maxDepth: 0 };
    const stackAs = threads.get(rawIndex)?.names[thread] ?? stackName(name, t.tid);
    return stack ? { ...info, name: stackAs, stack: true } : info;
  });
  // a GPU stream keeps no stack: its rows never go there
  for (let t = 0; t < raw.tracks.length; t++) if (raw.tracks[t]!.gpu) stackOrder[t] = trackOrder[t]!;
  return { trackOrder, stackOrder, trackInfos };
}

/**
 * A Python stack track's name: "Python stack · thread 1661", by the id its ops' track names ("ops · thread 1661
 * (python3)": threadTracks.ts; the name too would not fit the label column); Kineto's thread 0 already says it is
 * Python's (and says it is a stack where its ops are drawn too: threadTracks.ts).
 */
const stackName = (thread: string, tid: string): string =>
  thread === OTHER_PYTHON_THREADS ? thread : `${PYTHON_STACK_TRACK}${isId(tid) ? `thread ${tid}` : thread}`;

/**
 * Per name id, 1 for a Python frame as the profiler's Python tracer names them ("torch/nn/modules/module.py(1783):
 * _call_impl", "<built-in method addmm of …>", "nn.Module: SimpleNet_0"): the raw trace keeps no category, and
 * no ATen op or record_function of torch's is named so.
 */
function pythonFrameNames(names: readonly string[]): Uint8Array {
  const frame = /^\S.*\(\d+\): \S|^<built-in (method|function) |^nn\.Module: /;
  return Uint8Array.from(names, (name) => (frame.test(name) ? 1 : 0));
}

/**
 * A track's name in the label column's room, saying what it holds: "thread 1661 (python3)" for a thread of the host
 * process Kineto labels "CPU" (a thread is on the CPU: the label would only push its id and name out of the column),
 * "other Python threads" for its thread 0 (where Kineto files the Python stacks of threads it has no id for: a tqdm
 * monitor, Inductor's compile-worker reader), "GPU 0 · stream 7"; Kineto's own work (CUPTI buffer requests, pid -1)
 * and its span of the profiled window (pid "Spans") by what they are, never "process -1", and unlike each other.
 */
function trackName(
  t: { pid: string | number; tid: string | number; gpu: boolean },
  processName: string | null,
  threadName: string | null,
): string {
  const thread = (threadName ?? (isId(t.tid) ? `${t.gpu ? 'stream' : 'thread'} ${t.tid}` : String(t.tid))).trim();
  if (processName === 'CPU') return threadName || String(t.tid) !== '0' ? thread : OTHER_PYTHON_THREADS;
  if (!processName && Number(t.pid) === -1) return 'profiler overhead';
  // Kineto's span of the profiled window (pid "Spans", tid "PyTorch Profiler"): said once, plainly
  if (!processName && t.pid === 'Spans') return 'profiled window';
  return `${processName ?? `process ${t.pid}`} · ${thread}`;
}

const OTHER_PYTHON_THREADS = 'other Python threads';

/** A pid or tid that is a number (Kineto also files spans under words: pid "Spans", tid "PyTorch Profiler"). */
const isId = (id: string | number): boolean => /^-?\d+$/.test(String(id));

/** The kernel args table in the model's slice order; gives back the raw args columns. */
function remapArgs(raw: RawTrace, modelRow: Uint32Array): TraceModel['kernelArgs'] {
  const rows = raw.argRows;
  const rawSlice = raw.argSlice.data;
  const rawValues = raw.argValues.data;
  const sliceOfRow = scratchArray(Uint32Array, rows);
  for (let r = 0; r < rows; r++) sliceOfRow[r] = modelRow[rawSlice[r]!]!;
  raw.argSlice.release();
  // Each slice has at most one args row: order the rows by slice through a slice -> row table.
  const rowOfSlice = scratchArray(Int32Array, modelRow.length).fill(-1);
  for (let r = 0; r < rows; r++) rowOfSlice[sliceOfRow[r]!] = r;
  const order = scratchArray(Uint32Array, rows);
  for (let k = 0, i = 0; i < rowOfSlice.length; i++) if (rowOfSlice[i]! >= 0) order[k++] = rowOfSlice[i]!;
  release(rowOfSlice);
  const slice = new Uint32Array(rows);
  const values = new Float64Array(rows * ARG_FIELD_COUNT);
  for (let k = 0; k < rows; k++) {
    const r = order[k]!;
    slice[k] = sliceOfRow[r]!;
    values.set(rawValues.subarray(r * ARG_FIELD_COUNT, (r + 1) * ARG_FIELD_COUNT), k * ARG_FIELD_COUNT);
  }
  release(sliceOfRow, order);
  raw.argValues.release();
  return { slice, values };
}

// The build's passes over every row, each in a function of its own: V8 optimises a small function's loop
// within a few thousand iterations, while a loop in the build itself ran unoptimised to the end, boxing every
// float it read (~16 scavenges and a doubled young generation on a 100 MB trace).

/** The smallest of values[0, n). */
function minimum(values: Float64Array, n: number): number {
  let least = Infinity;
  for (let i = 0; i < n; i++) if (values[i]! < least) least = values[i]!;
  return least;
}

/** values[0, n) as µs since `origin` in whole ns, in place. */
function sinceOrigin(values: Float64Array, n: number, origin: number): void {
  for (let i = 0; i < n; i++) values[i] = usSince(values[i]!, origin);
}

/** Correlation ids of the cudaGraphLaunch calls among these slices (a raw trace's, flows linked or not). */
function graphLaunchCorrelations(
  c: Pick<TraceModel, 'count' | 'name' | 'kind' | 'correlation' | 'names'>,
): Set<number> {
  const graphLaunchName = c.names.indexOf('cudaGraphLaunch');
  const launches = new Set<number>();
  if (graphLaunchName < 0) return launches;
  for (let i = 0; i < c.count; i++) {
    if (c.name[i] === graphLaunchName && c.kind[i] === SliceKind.RuntimeLaunch && c.correlation[i]! >= 0)
      launches.add(c.correlation[i]!);
  }
  return launches;
}

/** Kernels whose launch was a cudaGraphLaunch are CUDA-graph replays, whatever library they came from: rows [from, to). */
function markGraphReplays(model: TraceModel, replayCorrelations: Set<number>, from: number, to: number): void {
  if (replayCorrelations.size === 0) return;
  for (let i = from; i < to; i++) {
    const kind = model.kind[i]!;
    if (
      kind >= SliceKind.KernelGenerated &&
      kind <= SliceKind.KernelAten &&
      model.tracks[model.track[i]!]!.gpu &&
      replayCorrelations.has(model.correlation[i]!)
    ) {
      model.kind[i] = SliceKind.GraphReplay;
    }
  }
}

/** What findSteps reads: a model's columns, or a raw trace's with start made relative to the origin. */
interface StepColumns {
  count: number;
  start: Float64Array;
  dur: Float64Array;
  kind: Uint8Array;
  name: Uint32Array;
  correlation: Float64Array;
  names: string[];
  onGpu(row: number): boolean;
}

/**
 * ProfilerStep# spans when the trace has them; otherwise, when the device kernels' name sequence repeats
 * exactly (N profiled calls of the same model), each repetition becomes a step spanning its launches and kernels
 * and the compiled call that launches them (widenToCompiledCalls).
 */
export function findSteps(c: StepColumns): Pick<TraceModel, 'steps' | 'stepSource'> {
  const steps: TraceModel['steps'] = [];
  for (let i = 0; i < c.count; i++) {
    if (c.kind[i] === SliceKind.Step)
      steps.push({ start: c.start[i]!, end: c.start[i]! + c.dur[i]!, label: c.names[c.name[i]!]! });
  }
  if (steps.length > 0) return { steps: steps.sort((a, b) => a.start - b.start), stepSource: 'profiler' };
  // Device kernels in start order (equal starts: row order), in typed arrays given back as soon as done: a
  // profile without ProfilerStep has about one kernel per three slices, too many for JS arrays and Maps.
  const isDeviceKernel = (i: number): boolean => isKernelKind(c.kind[i]!) && c.onGpu(i);
  let kernelCount = 0;
  for (let i = 0; i < c.count; i++) if (isDeviceKernel(i)) kernelCount++;
  const kernels = scratchArray(Uint32Array, kernelCount);
  for (let i = 0, k = 0; i < c.count; i++) if (isDeviceKernel(i)) kernels[k++] = i;
  const startNs = scratchArray(Float64Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) startNs[k] = Math.min(Math.round(c.start[kernels[k]!]! * 1000), 2 ** 48 - 1);
  const byStart = scratchArray(Uint32Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) byStart[k] = k;
  sortRangeNearlySorted(byStart, 0, kernelCount, startNs, startNs); // nearly sorted already; ties by position, i.e. row
  for (let k = 0; k < kernelCount; k++) byStart[k] = kernels[byStart[k]!]!;
  release(startNs, kernels);
  const kernelNames = scratchArray(Uint32Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) kernelNames[k] = c.name[byStart[k]!]!;
  const period = repetitionPeriod(kernelNames);
  release(kernelNames);
  if (period === 0) {
    release(byStart);
    return { steps, stepSource: 'none' };
  }
  // the last launch (in row order) of each correlation id
  const launchOf = new RowsByKey();
  for (let i = 0; i < c.count; i++)
    if (c.kind[i] === SliceKind.RuntimeLaunch && c.correlation[i]! >= 0) launchOf.set(c.correlation[i]!, i);
  // per call, its first and last launch (its first kernel where none was traced)
  const launched: { first: number; last: number }[] = [];
  for (let first = 0; first < kernelCount; first += period) {
    let start = Infinity;
    let end = -Infinity;
    let lastLaunch = -Infinity;
    for (let k = first; k < first + period; k++) {
      const i = byStart[k]!;
      const launch = launchOf.get(c.correlation[i]!);
      start = Math.min(start, c.start[i]!, launch >= 0 ? c.start[launch]! : Infinity);
      end = Math.max(end, c.start[i]! + c.dur[i]!);
      lastLaunch = Math.max(lastLaunch, launch >= 0 ? c.start[launch]! : c.start[i]!);
    }
    // numbered from 0, as the runner numbers a script's calls ("Call 0 compiled")
    steps.push({ start, end, label: `call ${first / period}` });
    launched.push({ first: start, last: lastLaunch });
  }
  release(byStart);
  launchOf.release();
  widenToCompiledCalls(c, steps, launched);
  return { steps, stepSource: 'repetition' };
}

/** The profiler's span of a call of compiled code (the timeline's "compiled forward"). */
export const COMPILED_REGION = 'Torch-Compiled Region';

/**
 * Each repeated call widened to the compiled call that launches it: a "Torch-Compiled Region" holding its first
 * launch and none of the calls beside it, and the guard check ("TorchDynamo Cache Lookup") that ran just before it.
 * A call is then the call's CPU span (its guards and set-up, which run before its first launch) and its kernels,
 * where the kernel span alone started the call milliseconds into its "compiled forward" (report4A F10), and the
 * region alone left its guard check left of the call's line (review 5A G6). Told by time, not thread: a skim keeps
 * no nesting.
 */
function widenToCompiledCalls(
  c: StepColumns,
  steps: TraceModel['steps'],
  launched: readonly { first: number; last: number }[],
): void {
  // by name id: a name is tested once, not once per row
  const isRegion = c.names.map((name) => name.startsWith(COMPILED_REGION));
  const isLookup = c.names.map((name) => name === CACHE_LOOKUP);
  const rows: number[] = [];
  for (let i = 0; i < c.count; i++) {
    const kind = c.kind[i]!;
    if (
      (kind === SliceKind.CpuOp || kind === SliceKind.Other) &&
      (isRegion[c.name[i]!] || isLookup[c.name[i]!]) &&
      !c.onGpu(i)
    )
      rows.push(i);
  }
  rows.sort((a, b) => c.start[a]! - c.start[b]!);
  /** the guard check since the last region, the one before the next region */
  let lookup = -1;
  for (const i of rows) {
    if (isLookup[c.name[i]!]) {
      lookup = i;
      continue;
    }
    const [from, to] = [c.start[i]!, c.start[i]! + c.dur[i]!];
    const guard = lookup >= 0 && c.start[lookup]! + c.dur[lookup]! <= from ? c.start[lookup]! : from;
    lookup = -1;
    // the last call whose first launch is at or after the region's start
    let j = 0;
    for (let lo = 0, hi = launched.length; lo < hi;) {
      const mid = (lo + hi) >> 1;
      if (launched[mid]!.first < from) lo = j = mid + 1;
      else hi = mid;
    }
    const call = launched[j];
    if (!call || call.first > to) continue;
    if ((j > 0 && launched[j - 1]!.last >= from) || (j + 1 < launched.length && launched[j + 1]!.first <= to)) continue;
    const step = steps[j]!;
    step.start = Math.min(step.start, guard);
    step.end = Math.max(step.end, to);
  }
}

/** Smallest p such that the sequence is ≥ 2 exact repetitions of its first p items; 0 when none. */
function repetitionPeriod(sequence: Uint32Array): number {
  const n = sequence.length;
  for (let p = 1; p <= n / 2; p++) {
    if (n % p !== 0) continue;
    let repeats = true;
    for (let i = p; i < n && repeats; i++) repeats = sequence[i] === sequence[i - p];
    if (repeats) return p;
  }
  return 0;
}
