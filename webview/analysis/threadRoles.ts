// A CPU thread's role where its ops say it: the thread a communication backend runs its collectives on. The trace
// names such threads as the OS did ("thread 28229 (python3)" on rank 0, "thread 28230 (pt_gloo_runloop)" on rank
// 1, for the same collective: review 8A A16); by their role they match across ranks.
import type { TraceModel } from '../../extension/shared/trace/model.ts';

/** A backend's collective as its process group records it ("gloo:all_reduce"), and the backend as it is written. */
const BACKEND_COLLECTIVE = /^(gloo|nccl|mpi|ucc|xccl|rccl):/;
const BACKEND_WORD: Record<string, string> = {
  gloo: 'gloo',
  nccl: 'NCCL',
  mpi: 'MPI',
  ucc: 'UCC',
  xccl: 'XCCL',
  rccl: 'RCCL',
};

/**
 * Per track, the backend whose collectives its thread runs ("gloo"), where that is its role: a CPU thread whose every
 * top-level op is one backend's collective; null for the others (the training loop's thread, which calls the
 * collectives among its other ops, NCCL's record of them on the caller's thread included).
 */
export function collectiveThreads(model: TraceModel): (string | null)[] {
  const backendOfName = model.names.map((name) => BACKEND_COLLECTIVE.exec(name)?.[1] ?? null);
  const roles: (string | null)[] = model.tracks.map(() => null);
  if (backendOfName.every((b) => b === null)) return roles; // most traces: no pass over the slices
  /** per track, the backend of its top-level ops so far; '' once one is not a backend's collective, or two differ */
  const found: (string | null)[] = model.tracks.map(() => null);
  for (let i = 0; i < model.count; i++) {
    if (model.depth[i] !== 0) continue;
    const track = model.track[i]!;
    const backend = backendOfName[model.name[i]!] ?? '';
    found[track] = found[track] === null || found[track] === backend ? backend : '';
  }
  return model.tracks.map((t, k) => (!t.gpu && !t.stack && found[k] ? BACKEND_WORD[found[k]]! : null));
}
