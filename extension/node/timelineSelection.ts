// What "Open Trace Timeline" opens for the chosen files and folders: one trace, two to four compared, or a
// distributed job's rank traces on one time axis (a folder of them, or several files that are distinct ranks).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TimelineSource } from '../shared/protocol.ts';
import { orderByRank } from '../shared/trace/ranks.ts';
import { type TraceHead } from '../shared/trace/traceHead.ts';
import { readTraceHead } from './trace/readTraceHead.ts';

/**
 * Rank traces read at once: all of them are read to find the slowest and fastest ranks, which are drawn first
 * (webview/ranks.ts: past RANKS_SHOWN_FIRST the others only on demand).
 */
export const MAX_RANK_PANES = 64;
/** Traces compared side by side. */
export const MAX_COMPARE_PANES = 4;

const TRACE_FILE = /\.json(?:\.gz)?$/i;

export interface TimelineSelection {
  source: TimelineSource;
  /** what was left out and why, to tell the user */
  notes: string[];
}

interface Chosen {
  file: string;
  head: TraceHead;
}

/** A trace that says which rank it is (distributedInfo, or rank<N> in its name and a trace's shape). */
const isRankTrace = (head: TraceHead): head is TraceHead & { rank: number } =>
  head.rank !== null && head.looksLikeTrace;

/**
 * Folders give their rank traces (`*.json`, `*.json.gz` that are rank traces; not recursive); files are taken
 * as they are. Several files that are all distinct ranks, or any folder, open as ranks; other files are compared.
 * Throws an Error naming the folder when a folder has no rank trace in it.
 */
export async function resolveTimelineSelection(paths: readonly string[]): Promise<TimelineSelection> {
  const notes: string[] = [];
  const fromFolders: Chosen[] = [];
  const files: Chosen[] = [];
  for (const chosen of paths) {
    if (!(await stat(chosen)).isDirectory()) {
      files.push({ file: chosen, head: await readTraceHead(chosen) });
      continue;
    }
    const names = (await readdir(chosen)).filter((name) => TRACE_FILE.test(name)).sort();
    const inFolder: Chosen[] = [];
    for (const name of names) {
      const file = path.join(chosen, name);
      // an unreadable file in the folder is not one of its traces
      const head = await readTraceHead(file).catch(() => null);
      if (head && isRankTrace(head)) inFolder.push({ file, head });
    }
    if (inFolder.length === 0) {
      throw new Error(
        `No rank traces in ${chosen}: a rank trace is a torch.profiler .json or .json.gz trace written under torch.distributed (it carries "distributedInfo") or named rank<N>.`,
      );
    }
    fromFolders.push(...inFolder);
  }
  const all = [...fromFolders, ...files];
  const ranks = new Set(all.map((c) => c.head.rank));
  const asRanks =
    fromFolders.length > 0 || (all.length > 1 && all.every((c) => isRankTrace(c.head)) && ranks.size === all.length);
  if (!asRanks) {
    if (all.length > MAX_COMPARE_PANES)
      notes.push(
        `Showing the first ${MAX_COMPARE_PANES} of the ${all.length} traces chosen: a timeline compares at most ${MAX_COMPARE_PANES}.`,
      );
    return { source: { kind: 'traces', tracePaths: all.slice(0, MAX_COMPARE_PANES).map((c) => c.file) }, notes };
  }
  const ordered = orderByRank(all, (c) => c.head.rank);
  const seen = new Map<number, string>();
  const kept: Chosen[] = [];
  for (const { file, head } of ordered) {
    if (!isRankTrace(head)) {
      notes.push(
        `${path.basename(file)} is not a rank trace (no "distributedInfo", no rank<N> in its name): not shown with the ranks.`,
      );
      continue;
    }
    const first = seen.get(head.rank);
    if (first !== undefined) {
      notes.push(`${path.basename(file)} is rank ${head.rank} too (as ${path.basename(first)}): not shown.`);
      continue;
    }
    seen.set(head.rank, file);
    kept.push({ file, head });
  }
  const shown = kept.slice(0, MAX_RANK_PANES);
  const [first] = shown;
  const last = shown.at(-1);
  if (kept.length > shown.length && first && last) {
    notes.push(
      `Showing ranks ${first.head.rank}–${last.head.rank} of the ${kept.length} rank traces: a timeline shows at most ${MAX_RANK_PANES} ranks. To see others, select their files and open those.`,
    );
  }
  return { source: { kind: 'ranks', tracePaths: shown.map((c) => c.file) }, notes };
}
