// Launch → kernel arrows for a selected slice, as Perfetto draws flows: a launch (cudaLaunchKernel,
// cudaGraphLaunch...) to the kernels it launched, a kernel back to its launch, and a CPU op (aten::mm) through
// the launches nested in it to their kernels. From the model's correlation column, which the scanner filled from
// the events' correlation ids and, where args had none, from the trace's flow events (flows.ts).
import { forEachOverlapping, levelsOf } from './levels.ts';
import { SliceKind, type TraceModel } from './model.ts';

/** An arrow from a CPU-side slice (a launch) to a device-side one (its kernel); slice indexes of one model. */
export interface FlowArrow {
  from: number;
  to: number;
}

export interface FlowLinks {
  arrows: FlowArrow[];
  /** arrows left out past the limit (a CPU op over a whole step may launch thousands of kernels) */
  more: number;
}

/**
 * The slices on GPU (`gpu`) or CPU tracks whose correlation id is one of `ids`, by id, in row order. One pass
 * over those tracks' rows, no index kept: a selection costs a scan (milliseconds on a multi-GB trace) rather
 * than a sorted copy of the column held for the model's life.
 */
export function slicesByCorrelation(model: TraceModel, ids: ReadonlySet<number>, gpu: boolean): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (!ids.size) return out;
  const levels = levelsOf(model);
  for (let track = 0; track < model.tracks.length; track++) {
    if (model.tracks[track]!.gpu !== gpu) continue;
    const end = levels.levelStart[levels.trackLevels[track + 1]!]!;
    for (let j = levels.levelStart[levels.trackLevels[track]!]!; j < end; j++) {
      const id = model.correlation[j]!;
      if (id < 0 || !ids.has(id)) continue;
      const list = out.get(id);
      if (list) list.push(j);
      else out.set(id, [j]);
    }
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

const onGpu = (model: TraceModel, i: number): boolean => model.tracks[model.track[i]!]?.gpu ?? false;

/** Launches (runtime calls with a correlation id) nested in CPU slice i on its track, in time order. */
function nestedLaunches(model: TraceModel, i: number): number[] {
  const levels = levelsOf(model);
  const track = model.track[i]!;
  const from = model.start[i]!;
  const to = from + model.dur[i]!;
  const out: number[] = [];
  for (let level = levels.trackLevels[track]! + model.depth[i]! + 1; level < levels.trackLevels[track + 1]!; level++) {
    forEachOverlapping(model, levels, level, from, to, (j) => {
      if (model.start[j]! >= from && model.kind[j] === SliceKind.RuntimeLaunch && model.correlation[j]! >= 0)
        out.push(j);
    });
  }
  return out.sort((a, b) => model.start[a]! - model.start[b]!);
}

/**
 * The arrows to draw for selected slice i: a device slice's from its launch; a launch's to its kernels; any
 * other CPU slice's from the launches nested in it to their kernels. At most `limit` arrows.
 */
export function flowLinks(model: TraceModel, i: number, limit = 500): FlowLinks {
  const arrows: FlowArrow[] = [];
  if (i < 0 || i >= model.count) return { arrows, more: 0 };
  if (onGpu(model, i)) {
    const id = model.correlation[i]!;
    for (const j of slicesByCorrelation(model, new Set(id >= 0 ? [id] : []), false).get(id) ?? [])
      arrows.push({ from: j, to: i });
  } else {
    const launches =
      model.correlation[i]! >= 0 && model.kind[i] === SliceKind.RuntimeLaunch ? [i] : nestedLaunches(model, i);
    const kernels = slicesByCorrelation(model, new Set(launches.map((l) => model.correlation[l]!)), true);
    for (const launch of launches)
      for (const j of kernels.get(model.correlation[launch]!) ?? []) arrows.push({ from: launch, to: j });
  }
  return { arrows: arrows.slice(0, limit), more: Math.max(0, arrows.length - limit) };
}

/** The slices at the other ends of the arrows (the launches and kernels linked to i), without i, in row order. */
export function linkedSlices(links: FlowLinks, i: number): number[] {
  const out = new Set<number>();
  for (const { from, to } of links.arrows) {
    if (from !== i) out.add(from);
    if (to !== i) out.add(to);
  }
  return [...out].sort((a, b) => a - b);
}
