// Launch → kernel arrows for a selected slice, as Perfetto draws flows: a launch (cudaLaunchKernel,
// cudaGraphLaunch...) to the kernels it launched, a kernel back to its launch, and a CPU op (aten::mm) through
// the launches nested in it to their kernels. From the model's correlation column, which the scanner filled from
// the events' correlation ids and, where args had none, from the trace's flow events (flows.ts).
import { forEachOverlapping, levelsOf } from './levels.ts';
import { SliceKind, type TraceModel } from './model.ts';

/** An arrow from a CPU-side slice (a launch) to a device-side one (its kernel); slice indexes of one model. */
export interface FlowArrow { from: number; to: number }

export interface FlowLinks {
  arrows: FlowArrow[];
  /** arrows left out past the limit (a CPU op over a whole step may launch thousands of kernels) */
  more: number;
}

/** Slices with a correlation id, ordered by it: each id's slices are one contiguous run. */
interface CorrelationIndex { rows: Uint32Array; ids: Float64Array }

const indexes = new WeakMap<TraceModel, CorrelationIndex>();

function correlationIndex(model: TraceModel): CorrelationIndex {
  let index = indexes.get(model);
  if (index) return index;
  let n = 0;
  for (let i = 0; i < model.count; i++) if (model.correlation[i] >= 0) n++;
  const rows = new Uint32Array(n);
  n = 0;
  for (let i = 0; i < model.count; i++) if (model.correlation[i] >= 0) rows[n++] = i;
  rows.sort((a, b) => model.correlation[a] - model.correlation[b] || a - b);
  const ids = new Float64Array(n);
  for (let r = 0; r < n; r++) ids[r] = model.correlation[rows[r]];
  index = { rows, ids };
  indexes.set(model, index);
  return index;
}

/** The slices whose correlation id is `id`, in row order. */
export function slicesOfCorrelation(model: TraceModel, id: number): number[] {
  const { rows, ids } = correlationIndex(model);
  let a = 0;
  let b = ids.length;
  while (a < b) { const m = (a + b) >>> 1; if (ids[m] < id) a = m + 1; else b = m; }
  const out: number[] = [];
  for (let r = a; r < ids.length && ids[r] === id; r++) out.push(rows[r]);
  return out;
}

const onGpu = (model: TraceModel, i: number): boolean => model.tracks[model.track[i]]?.gpu ?? false;

/** A launch's arrows to its device slices (none when it launched nothing the trace holds). */
function launchArrows(model: TraceModel, launch: number, into: FlowArrow[]): void {
  for (const j of slicesOfCorrelation(model, model.correlation[launch])) if (onGpu(model, j)) into.push({ from: launch, to: j });
}

/** Launches (runtime calls with a correlation id) nested in CPU slice i on its track, in time order. */
function nestedLaunches(model: TraceModel, i: number): number[] {
  const levels = levelsOf(model);
  const track = model.track[i];
  const from = model.start[i];
  const to = from + model.dur[i];
  const out: number[] = [];
  for (let level = levels.trackLevels[track] + model.depth[i] + 1; level < levels.trackLevels[track + 1]; level++) {
    forEachOverlapping(model, levels, level, from, to, (j) => {
      if (model.start[j] >= from && model.kind[j] === SliceKind.RuntimeLaunch && model.correlation[j] >= 0) out.push(j);
    });
  }
  return out.sort((a, b) => model.start[a] - model.start[b]);
}

/**
 * The arrows to draw for selected slice i: a device slice's from its launch; a launch's to its kernels; any
 * other CPU slice's from the launches nested in it to their kernels. At most `limit` arrows.
 */
export function flowLinks(model: TraceModel, i: number, limit = 500): FlowLinks {
  const arrows: FlowArrow[] = [];
  if (i < 0 || i >= model.count) return { arrows, more: 0 };
  if (onGpu(model, i)) {
    if (model.correlation[i] >= 0) for (const j of slicesOfCorrelation(model, model.correlation[i])) if (!onGpu(model, j)) arrows.push({ from: j, to: i });
  } else if (model.correlation[i] >= 0 && model.kind[i] === SliceKind.RuntimeLaunch) {
    launchArrows(model, i, arrows);
  } else {
    for (const launch of nestedLaunches(model, i)) launchArrows(model, launch, arrows);
  }
  return { arrows: arrows.slice(0, limit), more: Math.max(0, arrows.length - limit) };
}

/** The slices at the other ends of the arrows (the launches and kernels linked to i), without i, in row order. */
export function linkedSlices(links: FlowLinks, i: number): number[] {
  const out = new Set<number>();
  for (const { from, to } of links.arrows) { if (from !== i) out.add(from); if (to !== i) out.add(to); }
  return [...out].sort((a, b) => a - b);
}
