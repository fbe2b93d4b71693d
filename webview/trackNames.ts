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
 * Each track's name (all of `tracks`), with its role where its ops say it (analysis/threadRoles.ts: `roles`, per track,
 * the backend whose collectives its thread runs), the `shown` ones told apart from each other (distinctTrackNames: a
 * hidden track's name is never drawn): `whole`, for its hovers, "gloo thread 28229 (python3)"; `drawn`, for the
 * label column, "gloo thread 28229": the role says what the thread's own name did ("pt_gloo_runloop") and reads
 * alike on every rank, so its tracks match across them (review 8A A16).
 */
export function paneTrackNames(
  tracks: readonly Pick<TrackInfo, 'name' | 'pid' | 'tid' | 'gpu'>[],
  shown: readonly number[],
  roles: readonly (string | null)[],
): { whole: string[]; drawn: string[] } {
  const short = tracks.map((t, k) => (roles[k] ? `${roles[k]} thread ${t.tid}` : null));
  const named = tracks.map((t, k) =>
    roles[k] ? { ...t, name: t.name.startsWith('thread ') ? `${roles[k]} ${t.name}` : `${short[k]} (${t.name})` } : t,
  );
  const distinct = distinctTrackNames(shown.map((t) => named[t]!));
  const whole = named.map((t) => t.name);
  shown.forEach((t, k) => (whole[t] = distinct[k]!));
  // a role's short name where the whole one needed nothing more to tell it apart
  return { whole, drawn: whole.map((name, t) => (short[t] && name === named[t]!.name ? short[t] : name)) };
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
