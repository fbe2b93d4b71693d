// Reads what a timeline shows from disk: every trace of a report, of chosen trace files, or of a job's ranks, into
// the TimelineContent that timelineContent.ts turns into the messages for the webview.
import path from 'node:path';
import type { TimelineSource } from '../shared/protocol.ts';
import { scriptTraces } from '../present/regionTraces.ts';
import { titleWords } from '../present/reportDigest.ts';
import type { ContentPane, TimelineContent } from './timelineContent.ts';
import { hostsOf, orderByRank, rankLabel } from '../shared/trace/ranks.ts';
import type { TraceHead } from '../shared/trace/traceHead.ts';
import type { Report } from '../shared/report.ts';
import { artifactPath, loadReport, type LoadedReport } from './reportFile.ts';
import { readTraceHead } from './trace/readTraceHead.ts';
import { openTraceFile } from './trace/skimRead.ts';
import type { TraceReader } from './trace/traceReading.ts';

/** A report's timeline title: its target, and its ranks when it is a torchrun job's. */
export function reportTitle(report: Report): string {
  const ranks = (report.ranks ?? []).filter((r) => r.trace).length;
  return `Compile Lens — ${titleWords(report)}${ranks > 0 ? ` — ${ranks} ranks` : ''}`;
}

/**
 * The panes of the source, each trace read in turn from now on, one after the other (a big read takes both
 * cores): a pane's `reading` resolves when its file is read, or a big one skimmed (trace/skimRead.ts: the whole
 * read waits for its model), and rejects with TraceError. Rejects with the
 * report's errors, with their cause. A report source's report is read once, by the caller when it has it already
 * (`report`), else here.
 */
export async function readTimelineSource(
  source: TimelineSource,
  report?: Promise<LoadedReport>,
): Promise<TimelineContent> {
  const inTurn = readInTurn();
  if (source.kind === 'traces') {
    const panes = source.tracePaths.map((tracePath) => ({
      label: path.basename(tracePath),
      reading: inTurn(tracePath),
    }));
    return { title: panes.map((p) => p.label).join(' vs '), source, report: null, panes };
  }
  if (source.kind === 'ranks') {
    const ranks = await readRankPanes(
      source.tracePaths.map((trace) => ({ trace, rank: null })),
      inTurn,
    );
    return {
      title: `${ranks.length} rank${ranks.length === 1 ? '' : 's'} — ${path.basename(commonFolder(source.tracePaths))}`,
      source,
      report: null,
      panes: ranks,
    };
  }
  const loaded = await (report ?? loadReport(source.reportPath));
  const title = reportTitle(loaded.report);
  const rankTraces = await Promise.all(
    (loaded.report.ranks ?? [])
      .filter((r) => r.trace)
      .map(async (r) => ({ trace: (await artifactPath(loaded, r.trace, `rank ${r.rank}'s trace`))!, rank: r.rank })),
  );
  if (rankTraces.length > 0) {
    // a torchrun job: its ranks are the timeline (the per-rank compare is the per-step table, not eager vs compiled)
    return { title, source, report: loaded.report, panes: await readRankPanes(rankTraces, inTurn) };
  }
  // every path is checked before any trace is read
  const traces: { label: string; trace: string; compareTo?: number | null }[] = [];
  const eagerTrace = await artifactPath(loaded, loaded.report.eager.trace, 'eager trace');
  if (eagerTrace) traces.push({ label: 'eager', trace: eagerTrace });
  for (const mode of loaded.report.modes) {
    const trace = await artifactPath(loaded, mode.trace, `${mode.mode} trace`);
    if (mode.status === 'ok' && trace) traces.push({ label: mode.mode, trace });
  }
  // each replayed region's traces, then the script's own steps of that region as the observed run profiled them
  for (const { label, trace, compareWith } of scriptTraces(loaded.report)) {
    const compareTo = compareWith === null ? null : traces.findIndex((p) => p.label === compareWith);
    traces.push({ label, trace: (await artifactPath(loaded, trace, `${label} trace`))!, compareTo });
  }
  const panes = traces.map(({ trace, ...pane }) => ({ ...pane, reading: inTurn(trace) }));
  return { title, source, report: loaded.report, panes };
}

/**
 * A reader of trace files one after the other: each call's read starts when the previous one has ended (read or
 * failed). A failed read is handled where its pane is sent; a pane never sent (an earlier one failed) is not an
 * unhandled rejection.
 */
function readInTurn(): (tracePath: string) => Promise<TraceReader> {
  let previous: Promise<unknown> = Promise.resolve();
  return (tracePath) => {
    const reading = previous.then(() => openTraceFile(tracePath));
    previous = reading.catch(() => {});
    return reading;
  };
}

/**
 * Rank panes in rank order, labelled "rank N" (and the host, when there are several), never compared pairwise.
 * `rank`: what the caller knows (a report's rank list), over what the trace's head says.
 */
async function readRankPanes(
  traces: { trace: string; rank: number | null }[],
  inTurn: (tracePath: string) => Promise<TraceReader>,
): Promise<ContentPane[]> {
  const withHeads = await Promise.all(
    traces.map(async ({ trace, rank }): Promise<{ trace: string; head: TraceHead }> => {
      const head = await readTraceHead(trace);
      return { trace, head: rank === null || rank === head.rank ? head : { ...head, rank, rankFrom: 'report' } };
    }),
  );
  const manyHosts = hostsOf(withHeads.map((t) => t.head)).length > 1;
  const ordered = orderByRank(withHeads, (t) => t.head.rank);
  return ordered.map(({ trace, head }) => ({
    label: rankLabel(head, path.basename(trace), manyHosts),
    reading: inTurn(trace),
    compareTo: null,
    rank: head,
  }));
}

/** The deepest folder holding every path. */
export function commonFolder(paths: readonly string[]): string {
  const parts = paths.map((p) => path.dirname(path.resolve(p)).split(path.sep));
  const [first = [], ...rest] = parts;
  const common: string[] = [];
  for (const [k, part] of first.entries()) {
    if (!rest.every((p) => p[k] === part)) break;
    common.push(part);
  }
  return common.join(path.sep) || path.sep;
}
