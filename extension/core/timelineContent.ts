// What a timeline shows (a report's traces, or trace files) and the messages that send it to the webview.
// Pure of VS Code, so the preview-then-load sequence is tested without it.
import path from 'node:path';
import type { HostToWebview, TimelineSource } from './protocol.ts';
import { scriptMode } from './regionDigest.ts';
import type { Report, RegionMeasurement } from './report.ts';
import { artifactPath, loadReport } from './reportFile.ts';
import { readTraceFile, type TraceReading } from './trace/scanner.ts';
import type { FirstView } from './trace/window.ts';

/** Traces from this many slices are previewed: below it, building and sending the whole model is quick. */
export const PREVIEW_MIN_EVENTS = 200_000;

export interface TimelineContent {
  title: string;
  source: TimelineSource;
  report: Report | null;
  panes: { label: string; reading: TraceReading; compareTo?: number | null }[];
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
  for (const { label, trace, compareWith } of regionTraces(loaded.report)) {
    const compareTo = compareWith === null ? null : panes.findIndex((p) => p.label === compareWith);
    panes.push({ label, reading: await readTraceFile(artifactPath(loaded, trace)!), compareTo });
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
  for (const { label, reading, compareTo } of content.panes) {
    const trace = reading.events >= minEvents ? reading.preview(view) : reading.model();
    if (!trace) return null;
    panes.push({ label, trace, events: reading.events, ...(compareTo !== undefined ? { compareTo } : {}) });
  }
  return { type: 'preview', title: content.title, source: content.source, report: content.report, panes };
}

/** The 'load' with every slice (builds the models on first use). */
export function loadMessage(content: TimelineContent): HostToWebview {
  const panes = content.panes.map(({ label, reading, compareTo }) => ({ label, trace: reading.model(), ...(compareTo !== undefined ? { compareTo } : {}) }));
  return { type: 'load', title: content.title, source: content.source, report: content.report, panes };
}
