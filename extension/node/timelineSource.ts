// Reads what a timeline shows from disk: every trace of a report, of chosen trace files, or of a job's ranks, into
// the TimelineContent that present/timelineContent.ts turns into the messages for the webview.
import path from 'node:path';
import type { TimelineSource } from '../shared/protocol.ts';
import { regionTraces, type TimelineContent } from '../present/timelineContent.ts';
import { hostsOf, orderByRank, rankLabel } from '../shared/trace/ranks.ts';
import type { TraceHead } from '../shared/trace/traceHead.ts';
import type { Report } from '../shared/report.ts';
import { artifactPath, loadReport, type LoadedReport } from './reportFile.ts';
import { readTraceHead } from './trace/readTraceHead.ts';
import { readTraceFile } from './trace/scanner.ts';

/** A report's timeline title: its target, and its ranks when it is a torchrun job's. */
export function reportTitle(report: Report): string {
  const ranks = (report.ranks ?? []).filter((r) => r.trace).length;
  return `Compile Lens — ${report.target.name}${ranks > 0 ? ` — ${ranks} ranks` : ''}`;
}

/**
 * Reads every trace of the source into raw columns (throws TraceError / report errors with their cause). A report
 * source's report is read once, by the caller when it has it already (`report`), else here.
 */
export async function readTimelineSource(source: TimelineSource, report?: Promise<LoadedReport>): Promise<TimelineContent> {
  const panes: TimelineContent['panes'] = [];
  if (source.kind === 'traces') {
    for (const tracePath of source.tracePaths) panes.push({ label: path.basename(tracePath), reading: await readTraceFile(tracePath) });
    return { title: panes.map((p) => p.label).join(' vs '), source, report: null, panes };
  }
  if (source.kind === 'ranks') {
    const ranks = await readRankPanes(source.tracePaths.map((trace) => ({ trace, rank: null })));
    return { title: `${ranks.length} rank${ranks.length === 1 ? '' : 's'} — ${path.basename(commonFolder(source.tracePaths))}`, source, report: null, panes: ranks };
  }
  const loaded = await (report ?? loadReport(source.reportPath));
  const title = reportTitle(loaded.report);
  const rankTraces = await Promise.all((loaded.report.ranks ?? []).filter((r) => r.trace)
    .map(async (r) => ({ trace: (await artifactPath(loaded, r.trace, `rank ${r.rank}'s trace`))!, rank: r.rank })));
  if (rankTraces.length > 0) {
    // a torchrun job: its ranks are the timeline (the per-rank compare is the per-step table, not eager vs compiled)
    return { title, source, report: loaded.report, panes: await readRankPanes(rankTraces) };
  }
  const eagerTrace = await artifactPath(loaded, loaded.report.eager.trace, 'eager trace');
  if (eagerTrace) panes.push({ label: 'eager', reading: await readTraceFile(eagerTrace) });
  for (const mode of loaded.report.modes) {
    const trace = await artifactPath(loaded, mode.trace, `${mode.mode} trace`);
    if (mode.status === 'ok' && trace) panes.push({ label: mode.mode, reading: await readTraceFile(trace) });
  }
  for (const { label, trace, compareWith } of regionTraces(loaded.report)) {
    const compareTo = compareWith === null ? null : panes.findIndex((p) => p.label === compareWith);
    panes.push({ label, reading: await readTraceFile((await artifactPath(loaded, trace, `${label} trace`))!), compareTo });
  }
  return { title, source, report: loaded.report, panes };
}

/**
 * Rank panes in rank order, labelled "rank N" (and the host, when there are several), never compared pairwise.
 * `rank`: what the caller knows (a report's rank list), over what the trace's head says.
 */
async function readRankPanes(traces: { trace: string; rank: number | null }[]): Promise<TimelineContent['panes']> {
  const heads = await Promise.all(traces.map(async ({ trace, rank }): Promise<TraceHead> => {
    const head = await readTraceHead(trace);
    return rank === null || rank === head.rank ? head : { ...head, rank, rankFrom: 'report' };
  }));
  const manyHosts = hostsOf(heads).length > 1;
  const ordered = orderByRank(traces.map((t, k) => ({ ...t, head: heads[k] })), (t) => t.head.rank);
  const panes: TimelineContent['panes'] = [];
  for (const { trace, head } of ordered) {
    panes.push({ label: rankLabel(head, path.basename(trace), manyHosts), reading: await readTraceFile(trace), compareTo: null, rank: head });
  }
  return panes;
}

/** The deepest folder holding every path. */
export function commonFolder(paths: readonly string[]): string {
  const parts = paths.map((p) => path.dirname(path.resolve(p)).split(path.sep));
  const common: string[] = [];
  for (let k = 0; parts.every((p) => k < p.length && p[k] === parts[0][k]); k++) common.push(parts[0][k]);
  return common.join(path.sep) || path.sep;
}
