// What a timeline shows (a report's traces, or trace files) and the messages that send it to the webview.
// Pure of VS Code, so the preview-then-load sequence is tested without it.
import path from 'node:path';
import type { HostToWebview, TimelineSource } from './protocol.ts';
import type { Report } from './report.ts';
import { artifactPath, loadReport } from './reportFile.ts';
import { readTraceFile, type TraceReading } from './trace/scanner.ts';
import type { FirstView } from './trace/window.ts';

/** Traces from this many slices are previewed: below it, building and sending the whole model is quick. */
export const PREVIEW_MIN_EVENTS = 200_000;

export interface TimelineContent {
  title: string;
  source: TimelineSource;
  report: Report | null;
  panes: { label: string; reading: TraceReading }[];
}

/** Reads every trace of the source into raw columns (throws TraceError / report errors with their cause). */
export async function readTimelineSource(source: TimelineSource): Promise<TimelineContent> {
  const panes: TimelineContent['panes'] = [];
  if (source.kind === 'traces') {
    for (const tracePath of source.tracePaths) panes.push({ label: path.basename(tracePath), reading: await readTraceFile(tracePath) });
    return { title: panes.map((p) => p.label).join(' vs '), source, report: null, panes };
  }
  const loaded = await loadReport(source.reportPath);
  const eagerTrace = artifactPath(loaded, loaded.report.eager.trace);
  if (eagerTrace) panes.push({ label: 'eager', reading: await readTraceFile(eagerTrace) });
  for (const mode of loaded.report.modes) {
    const trace = artifactPath(loaded, mode.trace);
    if (mode.status === 'ok' && trace) panes.push({ label: mode.mode, reading: await readTraceFile(trace) });
  }
  return { title: `Compile Lens — ${loaded.report.target.name}`, source, report: loaded.report, panes };
}

/**
 * The 'preview' to send first: big traces cut to the slices around `view`, small ones whole. Null when no
 * trace is big, or a big one has no steps (nothing says where the view opens): then only the load is sent.
 */
export function previewMessage(content: TimelineContent, view: FirstView | null, minEvents = PREVIEW_MIN_EVENTS): HostToWebview | null {
  if (!content.panes.some((p) => p.reading.events >= minEvents)) return null;
  const panes = [];
  for (const { label, reading } of content.panes) {
    const trace = reading.events >= minEvents ? reading.preview(view) : reading.model();
    if (!trace) return null;
    panes.push({ label, trace, events: reading.events });
  }
  return { type: 'preview', title: content.title, source: content.source, report: content.report, panes };
}

/** The 'load' with every slice (builds the models on first use). */
export function loadMessage(content: TimelineContent): HostToWebview {
  const panes = content.panes.map(({ label, reading }) => ({ label, trace: reading.model() }));
  return { type: 'load', title: content.title, source: content.source, report: content.report, panes };
}
