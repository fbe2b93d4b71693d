// What a timeline shows (a report's traces, or trace files) and the messages that send it to the webview.
// Pure of VS Code, so the preview-then-load sequence is tested without it.
import path from 'node:path';
import type { HostToWebview, TimelineSource } from './protocol.ts';
import { scriptMode } from './regionDigest.ts';
import type { Report, RegionMeasurement } from './report.ts';
import { artifactPath, loadReport } from './reportFile.ts';
import { hostsOf, orderByRank, rankLabel } from './trace/ranks.ts';
import { readTraceFile, type TraceReading } from './trace/scanner.ts';
import { readTraceHead, type TraceHead } from './trace/traceHead.ts';
import type { FirstView } from './trace/window.ts';

/** Traces from this many slices are previewed: below it, building and sending the whole model is quick. */
export const PREVIEW_MIN_EVENTS = 200_000;

export interface TimelineContent {
  title: string;
  source: TimelineSource;
  report: Report | null;
  panes: { label: string; reading: TraceReading; compareTo?: number | null; rank?: TraceHead }[];
}

/**
 * A script report's traces: per measured region its eager trace (once per file) and each measurement's compiled
 * trace, compared with the eager trace of the same inputs. Labels name the region: "r0 Model eager", "r0 Model default".
 */
export function regionTraces(report: Report): { label: string; trace: string; compareWith: string | null }[] {
  const out: { label: string; trace: string; compareWith: string | null }[] = [];
  for (const region of report.regions ?? []) {
    const traced = region.measurements.filter((m) => m.status === 'ok' && m.trace);
    // inputs are named only where a region was traced on more than one signature
    const signatures = new Set(traced.map((m) => m.signature));
    const inputs = (m: RegionMeasurement) => (signatures.size > 1 && m.why ? ` · ${m.why === 'last' ? 'last' : 'most frequent'} inputs` : '');
    const eagerLabels = new Map<string, string>();
    for (const m of traced) {
      let compareWith: string | null = null;
      if (m.eagerTrace) {
        compareWith = eagerLabels.get(m.eagerTrace) ?? `${region.id} ${region.name} eager${inputs(m)}`;
        if (!eagerLabels.has(m.eagerTrace)) {
          eagerLabels.set(m.eagerTrace, compareWith);
          out.push({ label: compareWith, trace: m.eagerTrace, compareWith: null });
        }
      }
      const mode = m.mode === 'as-written' ? scriptMode(region) : m.mode;
      out.push({ label: `${region.id} ${region.name} ${mode}${inputs(m)}`, trace: m.trace!, compareWith });
    }
  }
  return out;
}

/** Whether a webview's saved state holds a source to reopen after a restart (state is data from disk). */
export function isTimelineSource(value: unknown): value is TimelineSource {
  const candidate = value as Partial<{ kind: unknown; reportPath: unknown; tracePaths: unknown }> | null;
  return (candidate?.kind === 'report' && typeof candidate.reportPath === 'string')
    || ((candidate?.kind === 'traces' || candidate?.kind === 'ranks') && Array.isArray(candidate.tracePaths)
      && candidate.tracePaths.length > 0 && candidate.tracePaths.every((p) => typeof p === 'string'));
}

/** Reads every trace of the source into raw columns (throws TraceError / report errors with their cause). */
export async function readTimelineSource(source: TimelineSource): Promise<TimelineContent> {
  const panes: TimelineContent['panes'] = [];
  if (source.kind === 'traces') {
    for (const tracePath of source.tracePaths) panes.push({ label: path.basename(tracePath), reading: await readTraceFile(tracePath) });
    return { title: panes.map((p) => p.label).join(' vs '), source, report: null, panes };
  }
  if (source.kind === 'ranks') {
    const ranks = await readRankPanes(source.tracePaths.map((trace) => ({ trace, rank: null })));
    return { title: `${ranks.length} rank${ranks.length === 1 ? '' : 's'} — ${path.basename(commonFolder(source.tracePaths))}`, source, report: null, panes: ranks };
  }
  const loaded = await loadReport(source.reportPath);
  const rankTraces = (loaded.report.ranks ?? []).filter((r) => r.trace).map((r) => ({ trace: artifactPath(loaded, r.trace)!, rank: r.rank }));
  if (rankTraces.length > 0) {
    // a torchrun job: its ranks are the timeline (the per-rank compare is the per-step table, not eager vs compiled)
    return { title: `Compile Lens — ${loaded.report.target.name} — ${rankTraces.length} ranks`, source, report: loaded.report, panes: await readRankPanes(rankTraces) };
  }
  const eagerTrace = artifactPath(loaded, loaded.report.eager.trace);
  if (eagerTrace) panes.push({ label: 'eager', reading: await readTraceFile(eagerTrace) });
  for (const mode of loaded.report.modes) {
    const trace = artifactPath(loaded, mode.trace);
    if (mode.status === 'ok' && trace) panes.push({ label: mode.mode, reading: await readTraceFile(trace) });
  }
  for (const { label, trace, compareWith } of regionTraces(loaded.report)) {
    const compareTo = compareWith === null ? null : panes.findIndex((p) => p.label === compareWith);
    panes.push({ label, reading: await readTraceFile(artifactPath(loaded, trace)!), compareTo });
  }
  return { title: `Compile Lens — ${loaded.report.target.name}`, source, report: loaded.report, panes };
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

/**
 * The 'preview' to send first: big traces cut to the slices around `view`, small ones whole. Null when no
 * trace is big, or a big one has no steps (nothing says where the view opens): then only the load is sent.
 */
export function previewMessage(content: TimelineContent, view: FirstView | null, minEvents = PREVIEW_MIN_EVENTS): HostToWebview | null {
  if (!content.panes.some((p) => p.reading.events >= minEvents)) return null;
  const panes = [];
  for (const { label, reading, compareTo, rank } of content.panes) {
    const trace = reading.events >= minEvents ? reading.preview(view) : reading.model();
    if (!trace) return null;
    panes.push({ label, trace, events: reading.events, ...paneExtras(compareTo, rank) });
  }
  return { type: 'preview', title: content.title, source: content.source, report: content.report, panes };
}

/** The 'load' with every slice (builds the models on first use). */
export function loadMessage(content: TimelineContent): HostToWebview {
  const panes = content.panes.map(({ label, reading, compareTo, rank }) => ({ label, trace: reading.model(), ...paneExtras(compareTo, rank) }));
  return { type: 'load', title: content.title, source: content.source, report: content.report, panes };
}

/** The optional pane fields, only where set (absent and null mean different things for compareTo). */
function paneExtras(compareTo: number | null | undefined, rank: TraceHead | undefined): { compareTo?: number | null; rank?: TraceHead } {
  return { ...(compareTo !== undefined ? { compareTo } : {}), ...(rank ? { rank } : {}) };
}
