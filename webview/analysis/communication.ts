// Which slices are collective communication, by name: a table over a model's names (not a slice kind, so the
// scanner is untouched and any model, old or new, can be classified).
import type { TraceModel } from '../../extension/shared/trace/model.ts';

/**
 * Collective communication as torch.profiler names it:
 * - CPU ops: `nccl:all_reduce`, `gloo:broadcast` (backend-prefixed record_function ranges), `c10d::allreduce_`
 *   (the dispatcher op), `_c10d_functional::all_gather_into_tensor` / `wait_tensor` (functional collectives:
 *   FSDP2, compiled DDP), `record_param_comms` (the wrapper with the collective's sizes), `ProcessGroupNCCL::...`;
 * - GPU kernels: `ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)`, `ncclKernel_*` (and RCCL's).
 */
export const COMMUNICATION_NAME =
  /^(?:nccl|gloo|mpi|ucc|xccl|rccl):|^_?c10d(?:_functional)?::|^record_param_comms$|^(?:nccl|rccl)(?:Dev)?Kernel|^ProcessGroup(?:NCCL|Gloo|MPI|UCC|XCCL)\b/;

export function isCommunicationName(name: string): boolean {
  return COMMUNICATION_NAME.test(name);
}

/** Per name id of `names`: 1 for a communication name, 0 otherwise. */
export function communicationNames(names: readonly string[]): Uint8Array {
  const table = new Uint8Array(names.length);
  for (let id = 0; id < names.length; id++) if (isCommunicationName(names[id]!)) table[id] = 1;
  return table;
}

/** Whether any slice of the model is communication. */
export function hasCommunication(model: TraceModel, table = communicationNames(model.names)): boolean {
  if (!table.includes(1)) return false; // most traces: no pass over the slices
  for (let i = 0; i < model.count; i++) if (table[model.name[i]!]) return true;
  return false;
}

/** The collectives (by `table`, communicationNames) that overlap [t0, t1] (µs, model time): each with its track, so
 *  a graph break's band label on another thread can leave their time unclaimed (overlays.markTexts `busy`). */
export function collectiveSpans(
  model: TraceModel,
  table: Uint8Array,
  t0: number,
  t1: number,
): { track: number; startUs: number; endUs: number }[] {
  if (!table.includes(1)) return []; // most traces: no pass over the slices
  const out: { track: number; startUs: number; endUs: number }[] = [];
  for (let i = 0; i < model.count; i++) {
    const start = model.start[i]!;
    const end = start + model.dur[i]!;
    if (table[model.name[i]!] && start < t1 && end > t0)
      out.push({ track: model.track[i]!, startUs: start, endUs: end });
  }
  return out;
}

/** The start of the span that overlaps [fromUs, toUs) the most; null: none overlaps it. */
export function mostOverlapping(
  spans: readonly { startUs: number; endUs: number }[],
  fromUs: number,
  toUs: number,
): number | null {
  let best: { startUs: number; overlap: number } | null = null;
  for (const { startUs, endUs } of spans) {
    const overlap = Math.min(endUs, toUs) - Math.max(startUs, fromUs);
    if (overlap > 0 && (best === null || overlap > best.overlap)) best = { startUs, overlap };
  }
  return best?.startUs ?? null;
}
