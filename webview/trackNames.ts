// The label column's track names: told apart where a trace names several tracks alike, and cut to the column so
// that what tells them apart still shows (the whole name is the column's tooltip).
import type { TrackInfo } from '../extension/shared/trace/model.ts';
import { fitAround, fitMiddle, type Measure } from './timelineText.ts';

/** Indices of the names that occur more than once, by name. */
function alike(names: readonly string[]): number[][] {
  const byName = new Map<string, number[]>();
  names.forEach((name, i) => byName.set(name, [...(byName.get(name) ?? []), i]));
  return [...byName.values()].filter((group) => group.length > 1);
}

/**
 * Each track's name, different from the others': where several share one, each says what differs (its process id,
 * its thread id or GPU stream); tracks alike in all of these are numbered.
 */
export function distinctTrackNames(tracks: readonly Pick<TrackInfo, 'name' | 'pid' | 'tid' | 'gpu'>[]): string[] {
  const names = tracks.map((t) => t.name);
  for (const group of alike(names)) {
    const pids = new Set(group.map((i) => tracks[i]!.pid)).size > 1;
    const tids = new Set(group.map((i) => tracks[i]!.tid)).size > 1;
    for (const i of group) {
      const { pid, tid, gpu } = tracks[i]!;
      const parts = [...(pids ? [`pid ${pid}`] : []), ...(tids ? [`${gpu ? 'stream' : 'tid'} ${tid}`] : [])];
      if (parts.length) names[i] = `${names[i]} (${parts.join(', ')})`;
    }
  }
  for (const group of alike(names)) group.forEach((i, k) => (names[i] = `${names[i]} #${k + 1}`));
  return names;
}

/**
 * Names for a column `room` px wide: each in the middle-cut form, and where two would then read alike, both
 * around where they differ (the names are different: distinctTrackNames).
 */
export function fitNames(names: readonly string[], room: number, m: Measure): string[] {
  const fitted = names.map((name) => fitMiddle(name, room, m));
  for (const group of alike(fitted)) {
    const first = names[group[0]!]!;
    let differ = 0;
    while (differ < first.length && group.every((i) => names[i]![differ] === first[differ])) differ++;
    for (const i of group) fitted[i] = fitAround(names[i]!, Math.min(differ, names[i]!.length - 1), room, m);
  }
  return fitted;
}
