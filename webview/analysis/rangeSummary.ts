// What ran in a time range of one trace (a drag across a pane): per name its count, total, self and average
// time, kernels and CPU ops apart, as Perfetto's area selection; and two such ranges side by side (eager vs
// compiled: what fused away, what got slower). Times are the parts of slices inside the range (a slice cut by an
// edge counts only its inside), so a table never claims more time than the range holds.
import { forEachOverlapping, levelsOf } from '../../extension/shared/trace/levels.ts';
import { SliceKind, type TraceModel } from '../../extension/shared/trace/model.ts';
import { kernelIndices } from '../../extension/shared/trace/summary.ts';

export interface RangeRow {
  name: string;
  /** slices of this name overlapping the range */
  count: number;
  /** µs inside the range */
  totalUs: number;
  /** µs inside the range not spent in a nested slice on the same track */
  selfUs: number;
  /** totalUs / count */
  avgUs: number;
}

export interface RangeSummary {
  /** µs, the model's time (relative to its origin) */
  fromUs: number;
  toUs: number;
  /** device kernels (CPU kernels on a CPU-only trace: the slices the report counts as kernels) */
  kernels: RangeRow[];
  /** the trace has no GPU track: `kernels` are CPU kernels (outermost ATen ops, Inductor C++ kernels), also among `cpuOps` */
  kernelsOnCpu: boolean;
  /** slices on CPU threads (ops, Python functions, runtime calls, annotations); not the profiler's step spans or its
   *  own session span, which hold the ops rather than being one */
  cpuOps: RangeRow[];
}

/** A CPU slice that is work of the script's: the profiler's steps (ProfilerStep#N) and its own spans (its session,
 *  of no category it names: SliceKind.Other) hold the ops, and are no op of their own. */
export const isOp = (kind: number): boolean =>
  kind !== (SliceKind.Step as number) && kind !== (SliceKind.Other as number);

const kernelSets = new WeakMap<TraceModel, Uint8Array>();

/** 1 per slice counted as a kernel (summary.kernelIndices: the same kernels as the compare table and the report). */
function kernelFlags(model: TraceModel): Uint8Array {
  let flags = kernelSets.get(model);
  if (!flags) {
    flags = new Uint8Array(model.count);
    for (const i of kernelIndices(model)) flags[i] = 1;
    kernelSets.set(model, flags);
  }
  return flags;
}

/** Every slice overlapping [fromUs, toUs] of the model, summed by name; rows by total time, largest first. */
export function summarizeRange(model: TraceModel, fromUs: number, toUs: number): RangeSummary {
  const from = Math.min(fromUs, toUs);
  const to = Math.max(fromUs, toUs);
  const levels = levelsOf(model);
  const kernels = kernelFlags(model);
  const inside = (i: number): number =>
    Math.max(0, Math.min(to, model.start[i]! + model.dur[i]!) - Math.max(from, model.start[i]!));
  const kernelRows = new Map<number, RangeRow>();
  const cpuRows = new Map<number, RangeRow>();
  const add = (rows: Map<number, RangeRow>, i: number, total: number, self: number): void => {
    const id = model.name[i]!;
    const row = rows.get(id);
    if (row) {
      row.count++;
      row.totalUs += total;
      row.selfUs += self;
    } else rows.set(id, { name: model.names[id]!, count: 1, totalUs: total, selfUs: self, avgUs: 0 });
  };
  for (let track = 0; track < model.tracks.length; track++) {
    const gpu = model.tracks[track]!.gpu;
    const first = levels.trackLevels[track]!;
    const end = levels.trackLevels[track + 1]!;
    // deepest level first: each slice's children (the level below) have given it their time already
    let childTime = new Map<number, number>();
    for (let level = end - 1; level >= first; level--) {
      const parentTime = new Map<number, number>();
      const parentStart = level > first ? levels.levelStart[level - 1]! : 0;
      const parentEnd = levels.levelStart[level]!;
      forEachOverlapping(model, levels, level, from, to, (i) => {
        const total = inside(i);
        const self = Math.max(0, total - (childTime.get(i) ?? 0));
        if (level > first) {
          const parent = parentOf(model, parentStart, parentEnd, i);
          if (parent >= 0) parentTime.set(parent, (parentTime.get(parent) ?? 0) + total);
        }
        if (kernels[i]) add(kernelRows, i, total, self);
        if (!gpu && isOp(model.kind[i]!)) add(cpuRows, i, total, self);
      });
      childTime = parentTime;
    }
  }
  const sorted = (rows: Map<number, RangeRow>): RangeRow[] => {
    const out = [...rows.values()];
    for (const row of out) row.avgUs = row.totalUs / row.count;
    return sortRangeRows(out, 'totalUs', 'descending');
  };
  return {
    fromUs: from,
    toUs: to,
    kernels: sorted(kernelRows),
    cpuOps: sorted(cpuRows),
    kernelsOnCpu: !model.tracks.some((t) => t.gpu),
  };
}

/** The slice of the level [from, to) containing the start of slice i (its parent: the level above), or -1. */
function parentOf(model: TraceModel, from: number, to: number, i: number): number {
  let a = from;
  let b = to;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (model.start[m]! <= model.start[i]!) a = m + 1;
    else b = m;
  }
  const p = a - 1;
  return p >= from && model.start[p]! + model.dur[p]! >= model.start[i]! ? p : -1;
}

export type RangeSortKey = 'name' | 'count' | 'totalUs' | 'selfUs' | 'avgUs';
export type SortDirection = 'ascending' | 'descending';

/** A sorted copy; ties by name, so the order never depends on the input's. */
export function sortRangeRows<T extends RangeRow>(
  rows: readonly T[],
  key: RangeSortKey,
  direction: SortDirection,
): T[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const by = key === 'name' ? a.name.localeCompare(b.name) : a[key] - b[key];
    return sign * by || a.name.localeCompare(b.name);
  });
}

/** One name on both sides of a compared pair; a side that did not run it has count 0. */
export interface RangePairRow {
  name: string;
  before: RangeRow | null;
  after: RangeRow | null;
  /** ran only before (fused away or replaced), only after (new), or on both sides */
  change: 'only before' | 'only after' | 'both';
  /** after's total - before's total, µs (a side that did not run it counts 0) */
  deltaUs: number;
}

export interface RangePair {
  kernels: RangePairRow[];
  cpuOps: RangePairRow[];
}

/** Two ranges' rows matched by name, largest change in time first. */
export function compareRanges(before: RangeSummary, after: RangeSummary): RangePair {
  const pair = (b: RangeRow[], a: RangeRow[]): RangePairRow[] => {
    const afterByName = new Map(a.map((row) => [row.name, row]));
    const rows: RangePairRow[] = [];
    for (const row of b) {
      const other = afterByName.get(row.name) ?? null;
      afterByName.delete(row.name);
      rows.push({
        name: row.name,
        before: row,
        after: other,
        change: other ? 'both' : 'only before',
        deltaUs: (other?.totalUs ?? 0) - row.totalUs,
      });
    }
    for (const row of afterByName.values())
      rows.push({ name: row.name, before: null, after: row, change: 'only after', deltaUs: row.totalUs });
    return rows.sort((x, y) => Math.abs(y.deltaUs) - Math.abs(x.deltaUs) || x.name.localeCompare(y.name));
  };
  return { kernels: pair(before.kernels, after.kernels), cpuOps: pair(before.cpuOps, after.cpuOps) };
}
