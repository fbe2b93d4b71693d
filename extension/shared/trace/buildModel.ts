// A raw trace (rawTrace.ts, slices in file order) built into the model the timeline draws (model.ts): tracks
// ordered, slices sorted by (track, depth, start) and nested, kernel args and flows linked, CUDA-graph replays
// marked, steps found. Also the preview: the same build over only the slices around the first view.
import { isKernelKind, NS_PER_US, SliceKind, usSince, type TraceModel, type TrackInfo } from './model.ts';
import { release, scratchArray } from './memory.ts';
import { ARG_FIELD_COUNT, type RawTrace, type RawTrack } from './rawTrace.ts';
import type { LevelIndex } from './levels.ts';
import type { TraceColumns } from './rowParts.ts';
import { RowsByKey } from './rowsByKey.ts';
import { MAX_KEY, sortRangeNearlySorted } from './sort.ts';
import { overlapsWindow, viewWindow, type FirstView } from './window.ts';

const MAX_DEPTH = 65_535;

/** What a preview's build takes from the whole trace: its origin, steps and CUDA-graph launches. */
type WholeTrace = Pick<TraceModel, 'steps' | 'stepSource'> & { origin: number; graphLaunches: Set<number> };

/**
 * The model of `raw`. `part`: a preview's build, with the whole trace's origin, steps and CUDA-graph launches,
 * and no warnings. Consumes the raw columns (see buildModelInParts).
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
export interface BuiltRows { columns: TraceColumns; from: number; to: number }

/**
 * The model of `raw`, built so that its rows can be posted while the rest is built: yields each part of
 * `rowsPerPart` rows but the last as soon as its rows are final, and returns the model. Consumes the raw columns,
 * giving each back (memory.ts) once no model row needs it: start and dur once copied grouped by track, the rest
 * (17 of the 33 bytes a raw row holds) after the last part. The build's own arrays are plain ones (on Node 20 a
 * resizable buffer's elements are read 1.5–2.5× slower), each of the model's columns made in one of them that the
 * build is done with (see there).
 */
export function* buildModelInParts(raw: RawTrace, rowsPerPart: number, part?: WholeTrace): Generator<BuiltRows, TraceModel> {
  const n = raw.count;
  const origin = part ? part.origin : n === 0 ? 0 : minimum(raw.start.data, n);
  // µs since the origin in whole ns (model.ts), in place: the raw columns are the build's to consume
  const start = sinceOrigin(raw.start.data, n, origin);
  const rawDur = raw.dur.data;
  const warnings = [...raw.notes, ...raw.problems.messages()];

  const { trackOrder, trackInfos } = orderTracks(raw);
  const trackKey = raw.track.data; // file-order track ids become the model's, in place
  for (let i = 0; i < n; i++) trackKey[i] = trackOrder[trackKey[i]];
  const grouped = groupByTrack(trackKey, trackInfos.length, start, rawDur, n);
  raw.start.release();
  raw.dur.release();
  if (grouped.clamped) warnings.push('timestamps span more than 78 hours; order of far-away events is approximate');
  const byStart = orderWithinTracks(grouped);
  const { depthAt, depthClamped } = nestingDepths(byStart, grouped, trackInfos);
  if (depthClamped) warnings.push(`slices nested deeper than ${MAX_DEPTH} levels are drawn at level ${MAX_DEPTH}`);
  // Stable (track, depth) order: one counting sort over (track, depth) buckets, each bucket one level (levels.ts).
  const bucketBase = new Uint32Array(trackInfos.length + 1);
  for (let t = 0; t < trackInfos.length; t++) bucketBase[t + 1] = bucketBase[t] + trackInfos[t].maxDepth + 1;
  const { positions, levels } = orderByLevel(byStart, depthAt, grouped.trackFrom, bucketBase);
  // First the columns the flows are linked on, gathered from the grouped ones: near each other, not across the
  // file. Each column goes into the memory of an array the build is done with, of the same length: the first
  // write to fresh memory faults its pages in (~40 ms per 76 MB here), which had become the build's largest cost.
  const { startNs, longestFirst, rowAt } = grouped;
  const modelStart = gatherFloat64(grouped.start, positions, startNs);
  const dur = gatherFloat64(grouped.dur, positions, longestFirst);
  const order = gatherUint32(rowAt, positions, byStart);
  const model: TraceModel = {
    count: n, start: modelStart, dur, track: rowAt, name: positions, kind: new Uint8Array(n), depth: depthAt,
    correlation: grouped.start, names: raw.names, tracks: trackInfos, originUs: origin,
    steps: [], stepSource: 'none', kernelArgs: { slice: new Uint32Array(0), values: new Float64Array(0) }, warnings,
  };
  fillLevels(model, levels);
  raw.flows.link(model, levels, trackOrder, raw.correlation.data, order);
  const replays = part?.graphLaunches ?? graphLaunchCorrelations({ count: n, name: raw.name.data, kind: raw.kind.data, correlation: raw.correlation.data, names: raw.names });
  // The rest part by part, each posted while the next is made.
  const rawRows = { name: raw.name.data, kind: raw.kind.data, correlation: raw.correlation.data };
  for (let from = 0; from < n; from += rowsPerPart) {
    const to = Math.min(n, from + rowsPerPart);
    gatherRows(model, rawRows, order, from, to);
    markGraphReplays(model, replays, from, to);
    if (to < n) yield { columns: model, from, to };
  }
  for (const column of [raw.correlation, raw.track, raw.name, raw.kind]) column.release();
  const newIndexOf = new Uint32Array(grouped.dur.buffer, 0, n);
  for (let k = 0; k < n; k++) newIndexOf[order[k]] = k;
  model.kernelArgs = remapArgs(raw, newIndexOf);
  if (part) return { ...model, steps: part.steps, stepSource: part.stepSource, warnings: [] };
  return Object.assign(model, findSteps({ ...model, onGpu: (row) => model.tracks[model.track[row]].gpu }));
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
  for (let i = 0; i < n; i++) start[i] = usSince(absStart[i], origin);
  const tracks = raw.tracks;
  const track = raw.track.data;
  const found = findSteps({
    count: n, start, dur, kind: raw.kind.data, name: raw.name.data, correlation: raw.correlation.data, names: raw.names,
    onGpu: (row) => tracks[track[row]].gpu,
  });
  release(start);
  const window = viewWindow(found.steps, view);
  if (!window) return null;
  const graphLaunches = graphLaunchCorrelations({ count: n, name: raw.name.data, kind: raw.kind.data, correlation: raw.correlation.data, names: raw.names });
  return windowModel(raw, { origin, graphLaunches, ...found }, window);
}

/**
 * The model of the slices of `raw` overlapping `window` (µs since the whole trace's origin), with the flows inside
 * it, built with the whole trace's origin, steps and CUDA-graph launches. `raw` may hold the whole trace or only
 * the events around the window (node/trace/skimRead.ts); it is left as it was.
 */
export function windowModel(raw: RawTrace, whole: WholeTrace, [from, to]: [number, number]): TraceModel {
  const absStart = raw.start.data;
  const dur = raw.dur.data;
  const rows: number[] = [];
  for (let i = 0; i < raw.count; i++) if (overlapsWindow(usSince(absStart[i], whole.origin), dur[i], from, to)) rows.push(i);
  return buildModel(raw.rows(Uint32Array.from(rows), from + whole.origin, to + whole.origin), whole);
}

/** Tracks ordered CPU threads first, then GPU streams, each by the trace's sort_index metadata. */
function orderTracks(raw: RawTrace): { trackOrder: Uint32Array; trackInfos: TrackInfo[] } {
  const sortKeyOf = (t: RawTrack): [number, number, number, string, string] => {
    const process = raw.processMeta.get(t.pid);
    const thread = raw.threadMeta.get(`${t.pid}\u0000${t.tid}`);
    return [t.gpu ? 1 : 0, process?.sortIndex ?? Number(t.pid), thread?.sortIndex ?? Number(t.tid), t.pid, t.tid];
  };
  const keyed = raw.tracks.map((t, index) => ({ raw: index, key: sortKeyOf(t) }));
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
  const trackInfos = keyed.map(({ raw: rawIndex }, index): TrackInfo => {
    trackOrder[rawIndex] = index;
    const t = raw.tracks[rawIndex];
    const process = raw.processMeta.get(t.pid);
    const thread = raw.threadMeta.get(`${t.pid}\u0000${t.tid}`);
    const processName = process?.labels ?? process?.name ?? `process ${t.pid}`;
    const threadName = (thread?.name ?? `${t.gpu ? 'stream' : 'thread'} ${t.tid}`).trim();
    return { pid: t.pid, tid: t.tid, name: `${processName} · ${threadName}`, gpu: t.gpu, maxDepth: 0 };
  });
  return { trackOrder, trackInfos };
}

/** The kernel args table in the model's slice order; gives back the raw args columns. */
function remapArgs(raw: RawTrace, newIndexOf: Uint32Array): TraceModel['kernelArgs'] {
  const rows = raw.argRows;
  const rawSlice = raw.argSlice.data;
  const rawValues = raw.argValues.data;
  const sliceOfRow = scratchArray(Uint32Array, rows);
  for (let r = 0; r < rows; r++) sliceOfRow[r] = newIndexOf[rawSlice[r]];
  raw.argSlice.release();
  // Each slice has at most one args row: order the rows by slice through a slice -> row table.
  const rowOfSlice = scratchArray(Int32Array, newIndexOf.length).fill(-1);
  for (let r = 0; r < rows; r++) rowOfSlice[sliceOfRow[r]] = r;
  const order = scratchArray(Uint32Array, rows);
  for (let k = 0, i = 0; i < rowOfSlice.length; i++) if (rowOfSlice[i] >= 0) order[k++] = rowOfSlice[i];
  release(rowOfSlice);
  const slice = new Uint32Array(rows);
  const values = new Float64Array(rows * ARG_FIELD_COUNT);
  for (let k = 0; k < rows; k++) {
    const r = order[k];
    slice[k] = sliceOfRow[r];
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
  for (let i = 0; i < n; i++) if (values[i] < least) least = values[i];
  return least;
}

/**
 * The rows grouped by track (counting sort; each track's rows in file order) with the columns the order and the
 * nesting read copied alongside: then every later pass reads near where it read last, where reading the file-order
 * columns through a permutation jumped across all of them (twice as slow on a 2 GB trace). Sort keys as sort.ts
 * wants them: start in ns, then longest first (the longest slice's ns minus this one's, so the key has only as many
 * radix digits as the durations need); `clamped`: some start was past MAX_KEY (78 hours) and was cut to it.
 */
interface TrackGroups {
  /** the positions of track t are [trackFrom[t], trackFrom[t + 1]) */
  trackFrom: Uint32Array;
  /** the file-order row at each position */
  rowAt: Uint32Array;
  start: Float64Array; dur: Float64Array; startNs: Float64Array; longestFirst: Float64Array;
  clamped: boolean;
}

function groupByTrack(trackKey: Uint32Array, tracks: number, start: Float64Array, dur: Float64Array, n: number): TrackGroups {
  const trackFrom = new Uint32Array(tracks + 1);
  for (let i = 0; i < n; i++) trackFrom[trackKey[i] + 1]++;
  for (let t = 0; t < tracks; t++) trackFrom[t + 1] += trackFrom[t];
  const next = trackFrom.slice(0, tracks);
  let longestNs = 0;
  for (let i = 0; i < n; i++) longestNs = Math.max(longestNs, Math.min(Math.round(dur[i] * NS_PER_US), MAX_KEY));
  const groups: TrackGroups = {
    trackFrom, rowAt: new Uint32Array(n), start: new Float64Array(n), dur: new Float64Array(n),
    startNs: new Float64Array(n), longestFirst: new Float64Array(n), clamped: false,
  };
  const { rowAt, startNs, longestFirst } = groups;
  const groupedStart = groups.start;
  const groupedDur = groups.dur;
  let clamped = false;
  for (let i = 0; i < n; i++) {
    const p = next[trackKey[i]]++;
    const s = start[i];
    const d = dur[i];
    rowAt[p] = i;
    groupedStart[p] = s;
    groupedDur[p] = d;
    const ns = Math.round(s * NS_PER_US);
    if (ns > MAX_KEY) clamped = true;
    startNs[p] = Math.min(ns, MAX_KEY);
    longestFirst[p] = longestNs - Math.min(Math.round(d * NS_PER_US), MAX_KEY);
  }
  groups.clamped = clamped;
  return groups;
}

/** Each track's positions by (start, longest first), ties in row order. */
function orderWithinTracks(groups: TrackGroups): Uint32Array {
  const { trackFrom, startNs, longestFirst } = groups;
  const n = startNs.length;
  const byStart = new Uint32Array(n);
  for (let p = 0; p < n; p++) byStart[p] = p;
  for (let t = 0; t + 1 < trackFrom.length; t++) sortRangeNearlySorted(byStart, trackFrom[t], trackFrom[t + 1], startNs, longestFirst); // nearly sorted already
  return byStart;
}

/** Nesting depth at each k of `byStart`, from a stack of open slices' end times per track; raises the tracks' maxDepth. */
function nestingDepths(byStart: Uint32Array, groups: TrackGroups, tracks: TrackInfo[]): { depthAt: Uint16Array; depthClamped: boolean } {
  const { trackFrom, start, dur } = groups;
  const depthAt = new Uint16Array(byStart.length);
  const stack: number[] = [];
  let depthClamped = false;
  for (let t = 0; t < tracks.length; t++) {
    stack.length = 0;
    let maxDepth = 0;
    for (let k = trackFrom[t]; k < trackFrom[t + 1]; k++) {
      const p = byStart[k];
      const s = start[p];
      while (stack.length > 0 && stack[stack.length - 1] <= s) stack.pop();
      if (stack.length > MAX_DEPTH) depthClamped = true;
      const depth = Math.min(stack.length, MAX_DEPTH);
      depthAt[k] = depth;
      if (depth > maxDepth) maxDepth = depth;
      stack.push(s + dur[p]);
    }
    tracks[t].maxDepth = maxDepth;
  }
  return { depthAt, depthClamped };
}

/**
 * The positions in the model's order, (track, depth, start): a stable counting sort of `byStart` over (track,
 * depth) buckets, each bucket one level of the level index (levels.ts).
 */
function orderByLevel(byStart: Uint32Array, depthAt: Uint16Array, trackFrom: Uint32Array, bucketBase: Uint32Array): { positions: Uint32Array; levels: LevelIndex } {
  const buckets = bucketBase[bucketBase.length - 1];
  const levelStart = new Uint32Array(buckets + 1);
  for (let t = 0; t + 1 < trackFrom.length; t++) {
    const base = bucketBase[t] + 1;
    for (let k = trackFrom[t]; k < trackFrom[t + 1]; k++) levelStart[base + depthAt[k]]++;
  }
  for (let b = 0; b < buckets; b++) levelStart[b + 1] += levelStart[b];
  const next = levelStart.slice(0, buckets);
  const positions = new Uint32Array(byStart.length);
  for (let t = 0; t + 1 < trackFrom.length; t++) {
    const base = bucketBase[t];
    for (let k = trackFrom[t]; k < trackFrom[t + 1]; k++) positions[next[base + depthAt[k]]++] = byStart[k];
  }
  return { positions, levels: { trackLevels: bucketBase, levelStart } };
}

/** The model's track and depth columns, whole: constant over each level. */
function fillLevels(model: TraceModel, { trackLevels, levelStart }: LevelIndex): void {
  for (let t = 0; t + 1 < trackLevels.length; t++) {
    model.track.fill(t, levelStart[trackLevels[t]], levelStart[trackLevels[t + 1]]);
    for (let l = trackLevels[t]; l < trackLevels[t + 1]; l++) model.depth.fill(l - trackLevels[t], levelStart[l], levelStart[l + 1]);
  }
}

/** column[order[k]] for every k, written over `out`. One function per array type, so V8 copies floats without boxing them. */
function gatherFloat64(column: Float64Array, order: Uint32Array, out: Float64Array): Float64Array {
  for (let k = 0; k < order.length; k++) out[k] = column[order[k]];
  return out;
}

function gatherUint32(column: Uint32Array, order: Uint32Array, out: Uint32Array): Uint32Array {
  for (let k = 0; k < order.length; k++) out[k] = column[order[k]];
  return out;
}

/** values[0, n) as µs since `origin` in whole ns, in place. */
function sinceOrigin(values: Float64Array, n: number, origin: number): Float64Array {
  for (let i = 0; i < n; i++) values[i] = usSince(values[i], origin);
  return values;
}

/** The raw columns a part's rows are gathered from. */
interface RawRows { name: Uint32Array; kind: Uint8Array; correlation: Float64Array }

/** Rows [from, to) of the model's name, kind and correlation columns, from the raw rows in `order`. */
function gatherRows(model: TraceModel, raw: RawRows, order: Uint32Array, from: number, to: number): void {
  const { name, kind, correlation } = model;
  for (let k = from; k < to; k++) {
    const row = order[k];
    name[k] = raw.name[row];
    kind[k] = raw.kind[row];
    correlation[k] = raw.correlation[row];
  }
}

/** Correlation ids of the cudaGraphLaunch calls among these slices (a raw trace's, flows linked or not). */
function graphLaunchCorrelations(c: Pick<TraceModel, 'count' | 'name' | 'kind' | 'correlation' | 'names'>): Set<number> {
  const graphLaunchName = c.names.indexOf('cudaGraphLaunch');
  const launches = new Set<number>();
  if (graphLaunchName < 0) return launches;
  for (let i = 0; i < c.count; i++) {
    if (c.name[i] === graphLaunchName && c.kind[i] === SliceKind.RuntimeLaunch && c.correlation[i] >= 0) launches.add(c.correlation[i]);
  }
  return launches;
}

/** Kernels whose launch was a cudaGraphLaunch are CUDA-graph replays, whatever library they came from: rows [from, to). */
function markGraphReplays(model: TraceModel, replayCorrelations: Set<number>, from: number, to: number): void {
  if (replayCorrelations.size === 0) return;
  for (let i = from; i < to; i++) {
    const kind = model.kind[i];
    if (kind >= SliceKind.KernelGenerated && kind <= SliceKind.KernelAten && model.tracks[model.track[i]].gpu && replayCorrelations.has(model.correlation[i])) {
      model.kind[i] = SliceKind.GraphReplay;
    }
  }
}

/** What findSteps reads: a model's columns, or a raw trace's with start made relative to the origin. */
interface StepColumns {
  count: number;
  start: Float64Array; dur: Float64Array; kind: Uint8Array; name: Uint32Array; correlation: Float64Array;
  names: string[];
  onGpu(row: number): boolean;
}

/**
 * ProfilerStep# spans when the trace has them; otherwise, when the device kernels' name sequence repeats
 * exactly (N profiled calls of the same model), each repetition becomes a step spanning its launches and kernels.
 */
export function findSteps(c: StepColumns): Pick<TraceModel, 'steps' | 'stepSource'> {
  const steps: TraceModel['steps'] = [];
  for (let i = 0; i < c.count; i++) {
    if (c.kind[i] === SliceKind.Step) steps.push({ start: c.start[i], end: c.start[i] + c.dur[i], label: c.names[c.name[i]] });
  }
  if (steps.length > 0) return { steps: steps.sort((a, b) => a.start - b.start), stepSource: 'profiler' };
  // Device kernels in start order (equal starts: row order), in typed arrays given back as soon as done: a
  // profile without ProfilerStep has about one kernel per three slices, too many for JS arrays and Maps.
  const isDeviceKernel = (i: number): boolean => isKernelKind(c.kind[i]) && c.onGpu(i);
  let kernelCount = 0;
  for (let i = 0; i < c.count; i++) if (isDeviceKernel(i)) kernelCount++;
  const kernels = scratchArray(Uint32Array, kernelCount);
  for (let i = 0, k = 0; i < c.count; i++) if (isDeviceKernel(i)) kernels[k++] = i;
  const startNs = scratchArray(Float64Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) startNs[k] = Math.min(Math.round(c.start[kernels[k]] * 1000), 2 ** 48 - 1);
  const byStart = scratchArray(Uint32Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) byStart[k] = k;
  sortRangeNearlySorted(byStart, 0, kernelCount, startNs, startNs); // nearly sorted already; ties by position, i.e. row
  for (let k = 0; k < kernelCount; k++) byStart[k] = kernels[byStart[k]];
  release(startNs, kernels);
  const kernelNames = scratchArray(Uint32Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) kernelNames[k] = c.name[byStart[k]];
  const period = repetitionPeriod(kernelNames);
  release(kernelNames);
  if (period === 0) { release(byStart); return { steps, stepSource: 'none' }; }
  // the last launch (in row order) of each correlation id
  const launchOf = new RowsByKey();
  for (let i = 0; i < c.count; i++) if (c.kind[i] === SliceKind.RuntimeLaunch && c.correlation[i] >= 0) launchOf.set(c.correlation[i], i);
  for (let first = 0; first < kernelCount; first += period) {
    let start = Infinity;
    let end = -Infinity;
    for (let k = first; k < first + period; k++) {
      const i = byStart[k];
      const launch = launchOf.get(c.correlation[i]);
      start = Math.min(start, c.start[i], launch >= 0 ? c.start[launch] : Infinity);
      end = Math.max(end, c.start[i] + c.dur[i]);
    }
    steps.push({ start, end, label: `call ${first / period + 1}` });
  }
  release(byStart);
  launchOf.release();
  return { steps, stepSource: 'repetition' };
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
