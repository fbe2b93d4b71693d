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
  /** of `count`, slices inside another of this name (aten::sum calling aten::sum): their time is in that one's */
  nested: number;
  /** µs inside the range, each moment once: a nested slice's time is its outer one's (review 4A F5: "aten::sum 2
   *  52.4 µs" beside the kernels' "aten::sum 1 27.9 µs" counted the inner call's 24.5 µs twice) */
  totalUs: number;
  /** µs inside the range in its slices and in no slice of another name nested in them (a call nested in one of its
   *  own name is its own time, in either table) */
  selfUs: number;
  /** totalUs per outermost slice (count − nested) */
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
  /** per name, the names of the slices nested in its slices in the range (aten::conv2d: aten::convolution, …) */
  nested: Map<string, Set<string>>;
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
  const nestedIds = new Map<number, Set<number>>();
  const kernelRows = new Map<number, RangeRow>();
  const cpuRows = new Map<number, RangeRow>();
  const add = (rows: Map<number, RangeRow>, i: number, total: number, self: number, nested: boolean): void => {
    const id = model.name[i]!;
    const row = rows.get(id) ?? { name: model.names[id]!, count: 0, nested: 0, totalUs: 0, selfUs: 0, avgUs: 0 };
    row.count++;
    row.nested += nested ? 1 : 0;
    row.totalUs += nested ? 0 : total;
    row.selfUs += self;
    rows.set(id, row);
  };
  for (let track = 0; track < model.tracks.length; track++) {
    const gpu = model.tracks[track]!.gpu;
    const first = levels.trackLevels[track]!;
    const end = levels.trackLevels[track + 1]!;
    // slice i (of `level`) inside a slice of its own name, up the levels: whether one is (`nested`), whether one
    // that is a kernel is (`inKernel`: the kernels' table folds it into that row too, as the CPU ops' does), and
    // whether its own time is in no slice of another name nested in that one (`selfTold`: else that slice's)
    const sameNameAbove = (i: number, level: number): { nested: boolean; inKernel: boolean; selfTold: boolean } => {
      const found = { nested: false, inKernel: false, selfTold: true };
      let between = false;
      for (let up = level - 1, child = i; up >= first; up--) {
        child = parentOf(model, levels.levelStart[up]!, levels.levelStart[up + 1]!, child);
        if (child < 0) break;
        if (model.name[child] !== model.name[i]) between = true;
        else {
          found.nested = true;
          found.inKernel ||= kernels[child] === 1;
          found.selfTold &&= !between;
        }
      }
      return found;
    };
    // deepest level first: each slice's children (the level below) have given it their time already
    let childTime = new Map<number, number>();
    // the name ids nested in each slice of the level below's parents, handed up as the time is
    let childNames = new Map<number, Set<number>>();
    for (let level = end - 1; level >= first; level--) {
      const parentTime = new Map<number, number>();
      const parentNames = new Map<number, Set<number>>();
      const parentStart = level > first ? levels.levelStart[level - 1]! : 0;
      const parentEnd = levels.levelStart[level]!;
      forEachOverlapping(model, levels, level, from, to, (i) => {
        const total = inside(i);
        const self = Math.max(0, total - (childTime.get(i) ?? 0));
        const nestedInI = childNames.get(i);
        if (level > first) {
          const parent = parentOf(model, parentStart, parentEnd, i);
          if (parent >= 0) {
            parentTime.set(parent, (parentTime.get(parent) ?? 0) + total);
            const names = parentNames.get(parent) ?? new Set<number>();
            names.add(model.name[i]!);
            for (const id of nestedInI ?? []) names.add(id);
            parentNames.set(parent, names);
          }
        }
        if (nestedInI?.size) {
          const names = nestedIds.get(model.name[i]!) ?? new Set<number>();
          for (const id of nestedInI) names.add(id);
          nestedIds.set(model.name[i]!, names);
        }
        const cpuOp = !gpu && isOp(model.kind[i]!);
        const above = kernels[i] === 1 || cpuOp ? sameNameAbove(i, level) : null;
        // self: the row's time in no slice of another name nested in its slices, alike in both tables (review
        // 16 Y2: aten::sum's nested aten::sum was its own time in the CPU ops' table, not in the kernels')
        const own = above && !above.selfTold ? 0 : self;
        if (kernels[i] === 1 || above?.inKernel) add(kernelRows, i, total, own, above?.nested ?? false);
        if (cpuOp) add(cpuRows, i, total, own, above?.nested ?? false);
      });
      childTime = parentTime;
      childNames = parentNames;
    }
  }
  const sorted = (rows: Map<number, RangeRow>): RangeRow[] => {
    const out = [...rows.values()];
    for (const row of out) row.avgUs = row.totalUs / (row.count - row.nested);
    return sortRangeRows(out, 'totalUs', 'descending');
  };
  return {
    fromUs: from,
    toUs: to,
    kernels: sorted(kernelRows),
    cpuOps: sorted(cpuRows),
    nested: new Map(
      [...nestedIds].map(([id, inside]) => [model.names[id]!, new Set([...inside].map((n) => model.names[n]!))]),
    ),
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
  /**
   * ran only before (fused away or replaced), only after (new), on both sides, or before as `name` and after as
   * `calledAs`, an op nested in it before (eager's aten::conv2d runs aten::convolution, which compiled code calls
   * directly): the same op under another nesting, compared, not said gone and new
   */
  change: 'only before' | 'only after' | 'both' | 'called as';
  /** 'called as': the after side's name; 'only before' in the CPU ops: the kernel it is called as after (the
   *  kernels' 'called as'), which ran on both sides there; else null */
  calledAs: string | null;
  /** after's total - before's total, µs (a side that did not run it counts 0) */
  deltaUs: number;
}

export interface RangePair {
  kernels: RangePairRow[];
  cpuOps: RangePairRow[];
}

/** Two ranges' rows matched by name (and by nesting: RangePairRow.change), largest change in time first. */
export function compareRanges(before: RangeSummary, after: RangeSummary): RangePair {
  // calledAs: kernels' 'called as' pairs, for the CPU ops' only-before rows (their nested ops are many: allocations
  // and views too, so only the kernel an op is called as says what it became)
  const pair = (b: RangeRow[], a: RangeRow[], calledAs: Map<string, string>): RangePairRow[] => {
    const afterByName = new Map(a.map((row) => [row.name, row]));
    const beforeNames = new Set(b.map((row) => row.name));
    // only-after rows, largest first: an only-before op takes the largest one nested in it
    const onlyAfter = a.filter((row) => !beforeNames.has(row.name));
    const rows: RangePairRow[] = [];
    for (const row of b) {
      const other = afterByName.get(row.name) ?? null;
      if (other) {
        rows.push({
          name: row.name,
          before: row,
          after: other,
          change: 'both',
          calledAs: null,
          deltaUs: other.totalUs - row.totalUs,
        });
        continue;
      }
      const nested = before.nested.get(row.name);
      const inner = nested ? onlyAfter.find((r) => nested.has(r.name)) : undefined;
      if (inner) {
        onlyAfter.splice(onlyAfter.indexOf(inner), 1);
        rows.push({
          name: row.name,
          before: row,
          after: inner,
          change: 'called as',
          calledAs: inner.name,
          deltaUs: inner.totalUs - row.totalUs,
        });
        continue;
      }
      rows.push({
        name: row.name,
        before: row,
        after: null,
        change: 'only before',
        calledAs: calledAs.get(row.name) ?? null,
        deltaUs: -row.totalUs,
      });
    }
    for (const row of onlyAfter)
      rows.push({
        name: row.name,
        before: null,
        after: row,
        change: 'only after',
        calledAs: null,
        deltaUs: row.totalUs,
      });
    return rows.sort((x, y) => Math.abs(y.deltaUs) - Math.abs(x.deltaUs) || x.name.localeCompare(y.name));
  };
  const kernels = pair(before.kernels, after.kernels, new Map());
  const renamed = new Map(kernels.flatMap((r) => (r.change === 'called as' ? [[r.name, r.calledAs!] as const] : [])));
  return { kernels, cpuOps: pair(before.cpuOps, after.cpuOps, renamed) };
}
