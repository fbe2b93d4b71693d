// A CPU thread's tracks named by what they hold. Its ops and its Python stack are two tracks (buildModel.ts
// orderTracks); where both hold slices, a user sees two tracks of one thread, and names told apart only by word order
// and the stack's ▸ ("thread 1661 (python3)" beside "Python · thread 1661") did not say which held what (review 13Q
// Q10). Known only once each row's track is: a thread's stack track is made whether or not it holds a frame.
import type { TrackInfo } from '../../shared/trace/model.ts';

/** Before the name of a thread's track of ops, where its Python stack is drawn too: "ops · thread 1661 (python3)". */
const OPS_TRACK = 'ops · ';
/** Before the name of a thread's track of Python frames: "Python stack · thread 1661". */
export const PYTHON_STACK_TRACK = 'Python stack · ';

/** Per track of `trackCount`, 1 where some of the `count` rows (`trackOf`, each row's track) is on it. */
export function tracksHoldingRows(trackOf: Uint32Array, count: number, trackCount: number): Uint8Array {
  const holds = new Uint8Array(trackCount);
  for (let i = 0; i < count; i++) holds[trackOf[i]!] = 1;
  return holds;
}

/**
 * Each CPU thread's track of ops renamed "ops · …" where a stack track of its thread (same pid and tid) holds a slice
 * too (`holds`, per track), and such a stack track that bears the thread's own name ("other Python threads", Kineto's
 * thread 0) renamed "Python stack · …"; in place. A thread whose ops alone are drawn keeps its plain name (one drawn
 * only as its stack is "Python stack · …" from buildModel's stackName), and GPU streams keep theirs. A stack track named by a role ("tqdm's monitor") already says whose stack it is.
 */
export function nameThreadTracks(tracks: TrackInfo[], holds: Uint8Array): void {
  const threadKey = (t: TrackInfo): string => `${t.pid}\u0000${t.tid}`;
  const drawnStacks = new Set<string>();
  tracks.forEach((t, k) => {
    if (t.stack && holds[k]) drawnStacks.add(threadKey(t));
  });
  tracks.forEach((ops, k) => {
    if (ops.gpu || ops.stack || !holds[k] || !drawnStacks.has(threadKey(ops))) return;
    for (const stack of tracks)
      if (stack.stack && threadKey(stack) === threadKey(ops) && stack.name === ops.name)
        stack.name = `${PYTHON_STACK_TRACK}${stack.name}`;
    ops.name = `${OPS_TRACK}${ops.name}`;
  });
}
