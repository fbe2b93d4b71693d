// The Python threads Kineto files under the host process's thread 0, the ones it has no id for (a tqdm monitor,
// Inductor's compile-worker reader): their stacks come one after another in that one track, each thread's nested
// under the frames of the one before (the Python tracer's parent links say so too), ten rows with nothing saying
// where one thread ends (review 10 G4). Each thread's frames are told apart from its root, threading's _bootstrap,
// and drawn in a stack track of their own where its frames say its role.
import type { RawTrace } from './rawTrace.ts';

/** A thread's root frame: every thread Python starts runs inside it. */
const THREAD_ROOT = /^(?:.*\/)?threading\.py\(\d+\): _bootstrap$/;

/** A thread's role, by a frame it runs: the first that matches names it. */
const ROLES: [RegExp, string][] = [
  [/^(?:.*\/)?tqdm\/_monitor\.py\(\d+\): /, "tqdm's monitor"],
  [/^(?:.*\/)?torch\/_inductor\/compile_worker\/[^/]+\.py\(\d+\): /, "Inductor's compile workers"],
];

/** The threads of one such track: a stack track per role, and per row of it the one it is in. */
export interface PythonThreads {
  /** each stack track's name: a role's ("tqdm's monitor"), then the rest's */
  names: string[];
  /** per row of the track's Python frames, its stack track (an index into `names`) */
  threadOf: Map<number, number>;
}

/**
 * The threads of raw track `track`'s Python frames (`inStack`, per name id: 1 for a frame), each frame in the thread
 * of the innermost root that holds it (by time: a root starts its thread's frames, and the next root nested in them
 * starts the next thread's), each thread in its role's stack track; a thread of no role, and frames in no root, in
 * one named `rest`. The tracks are the roles the trace's names hold, whichever of its rows are read: a preview's are
 * the whole trace's. Null where no role's frame is among them: one track, as it was.
 */
export function pythonThreads(
  raw: Pick<RawTrace, 'count' | 'track' | 'start' | 'dur' | 'name' | 'names'>,
  track: number,
  inStack: Uint8Array,
  rest: string,
): PythonThreads | null {
  const roles = ROLES.filter(([frame]) => raw.names.some((name) => frame.test(name)));
  if (!roles.length || !raw.names.some((name) => THREAD_ROOT.test(name))) return null;
  const rows: number[] = [];
  for (let i = 0; i < raw.count; i++) if (raw.track.data[i] === track && inStack[raw.name.data[i]!]) rows.push(i);
  const start = raw.start.data;
  const dur = raw.dur.data;
  const nameOf = (i: number): string => raw.names[raw.name.data[i]!]!;
  // outer before inner: by start, the longer first
  rows.sort((a, b) => start[a]! - start[b]! || dur[b]! - dur[a]!);
  /** per thread found, its rows; thread -1: frames in no root */
  const threads: number[][] = [];
  const threadOf = new Map<number, number>();
  const open: { end: number; thread: number }[] = [];
  for (const i of rows) {
    while (open.length && open[open.length - 1]!.end <= start[i]!) open.pop();
    const thread = THREAD_ROOT.test(nameOf(i)) ? threads.push([]) - 1 : (open[open.length - 1]?.thread ?? -1);
    threads[thread]?.push(i);
    threadOf.set(i, roles.length);
    open.push({ end: start[i]! + dur[i]!, thread });
  }
  for (const rowsOfThread of threads) {
    const role = roles.findIndex(([frame]) => rowsOfThread.some((i) => frame.test(nameOf(i))));
    if (role >= 0) for (const i of rowsOfThread) threadOf.set(i, role);
  }
  // a role says what thread it is without "Python stack · " before it, in the label column's room (its ▸ says it folds)
  return { names: [...roles.map(([, role]) => role), rest], threadOf };
}
