// The "Compile Lens: Runs" view's entries: one per report of the workspace's .compile-lens/runs/, the newest first,
// each with what ran, when, and the runner's headline (the same words as the CodeLens). Pure: node/runList.ts reads the files.
import { baseName } from '../shared/fileName.ts';
import { runHeadline } from './headline.ts';
import { digestRegion, regionLine } from './regionDigest.ts';
import { titleWords } from './reportDigest.ts';
import type { Report } from '../shared/report.ts';

export interface RunListEntry {
  reportPath: string;
  /** what ran: "serve_script.py", "mlp" */
  name: string;
  /** the row's label: what ran and when it finished, "serve_script.py 14:02:07" (reportC J10: at the row's end, the
   *  time was cut away, and two runs of one file read alike); the run's tab says the same time (runTabTitle) */
  label: string;
  /** the runner's headline: "stay eager: 0.82× per call replayed (0.77–0.88×) · 1 graph — TinyTransformer" */
  description: string;
  /** when, with its date; every region's or mode's line, the status and the report's path */
  tooltip: string;
  createdAt: string;
  /** what ran: runs of the same target compare (editor/findingStore.ts runKey) */
  target: Report['target'];
}

/** When a run was made, to the second (two runs of one file a minute apart read apart: the Runs view, the compare's
 *  title), in the viewer's time zone ('' when the report's time is unreadable). */
export const timeOf = (iso: string): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** When a run was made where it is named beside its file (the Runs view's row, its tab): the time of day of timeOf
 *  ("14:02:07") for a run of today, with its day before it for one of another ("Nov 29 21:31:04": report3C R6, a
 *  recording from yesterday read as made today). */
export const clockOf = (iso: string, now: Date): string => {
  const at = new Date(iso);
  const clock = timeOf(iso).slice('2026-11-23 '.length);
  if (!clock || at.toDateString() === now.toDateString()) return clock;
  return `${MONTHS[at.getMonth()]} ${at.getDate()}${at.getFullYear() === now.getFullYear() ? '' : ` ${at.getFullYear()}`} ${clock}`;
};

/** A run's report tab: what ran as the report's heading says it (reportDigest.titleWords: "compile_target in
 *  fused.py"; a script by its name, without the extension, so the tab does not read as the file's own editor tab),
 *  at the time the Runs view's row and the compare say, "Compile Lens: serve_script 14:02:07" (reportC N9: the tab
 *  said the run folder's start time, the compare the report's). */
export const runTabTitle = (report: Report, now = new Date()): string =>
  ['Compile Lens:', titleWords(report), clockOf(report.createdAt, now)].filter(Boolean).join(' ');

export function runListEntry(report: Report, reportPath: string, now = new Date()): RunListEntry {
  const lines =
    report.target.kind === 'script'
      ? (report.regions ?? []).map((r) => regionLine(digestRegion(r)))
      : [runHeadline(report)];
  const name =
    report.target.kind === 'function'
      ? `${report.target.function ?? report.target.name}`
      : report.target.file
        ? baseName(report.target.file)
        : report.target.name;
  return {
    reportPath,
    name,
    label: [name, clockOf(report.createdAt, now)].filter(Boolean).join(' '),
    description: runHeadline(report),
    tooltip: [
      `${name} — ${[timeOf(report.createdAt), report.status].filter(Boolean).join(', ')}${report.error ? `: ${report.error.message}` : ''}`,
      ...lines,
      reportPath,
    ].join('\n'),
    createdAt: report.createdAt,
    target: report.target,
  };
}

/** Newest first. */
export const sortRuns = (entries: RunListEntry[]): RunListEntry[] =>
  [...entries].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
