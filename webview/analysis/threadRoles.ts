// A CPU thread's role where its ops say it: the thread a communication backend runs its collectives on. The trace
// names such threads as the OS did ("thread 28229 (python3)" on rank 0, "thread 28230 (pt_gloo_runloop)" on rank
// 1, for the same collective: review 8A A16); by their role they match across ranks.
import { SliceKind, type TraceModel } from '../../extension/shared/trace/model.ts';

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
 * Per track, the backend whose collectives its thread runs ("gloo"), where that is its role: a CPU thread with a
 * backend's collective and no profiler step (the training loop's thread, which calls the collectives, is the
 * loop's); null for the others. A thread with two backends' collectives keeps none.
 */
export function collectiveThreads(model: TraceModel): (string | null)[] {
  const backendOfName = model.names.map((name) => BACKEND_COLLECTIVE.exec(name)?.[1] ?? null);
  const roles: (string | null)[] = model.tracks.map(() => null);
  if (backendOfName.every((b) => b === null)) return roles; // most traces: no pass over the slices
  const found = model.tracks.map(() => new Set<string>());
  const loop = new Set<number>();
  for (let i = 0; i < model.count; i++) {
    const track = model.track[i]!;
    if (model.kind[i] === SliceKind.Step) loop.add(track);
    const backend = backendOfName[model.name[i]!];
    if (backend) found[track]!.add(backend);
  }
  return model.tracks.map((t, k) => {
    const [backend, ...others] = found[k]!;
    return !t.gpu && !t.stack && !loop.has(k) && backend && !others.length ? BACKEND_WORD[backend]! : null;
  });
}
