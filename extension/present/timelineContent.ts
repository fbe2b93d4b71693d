// What a timeline shows (a report's traces, or trace files) and the messages that send it to the webview.
// Pure (node/timelineSource.ts reads the files), so the preview-then-load sequence is tested without VS Code.
import type { HostToWebview, TimelineSource } from '../shared/protocol.ts';
import { scriptMode } from './regionDigest.ts';
import type { Region, Report, RegionMeasurement } from '../shared/report.ts';
import type { TraceHead } from '../shared/trace/traceHead.ts';
import type { TraceReading } from '../shared/trace/traceReading.ts';
import type { FirstView } from '../shared/trace/window.ts';

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
export interface RegionTrace {
  label: string;
  trace: string;
  compareWith: string | null;
  region: Region;
  /** the compiled side's measurement; null for an eager trace */
  measurement: RegionMeasurement | null;
}

export function regionTraces(report: Report): RegionTrace[] {
  const out: RegionTrace[] = [];
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
          out.push({ label: compareWith, trace: m.eagerTrace, compareWith: null, region, measurement: null });
        }
      }
      const mode = m.mode === 'as-written' ? scriptMode(region) : m.mode;
      out.push({ label: `${region.id} ${region.name} ${mode}${inputs(m)}`, trace: m.trace!, compareWith, region, measurement: m });
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

/** The 'report' a report's panel gets before its traces (null for trace files). */
export function reportMessage(content: Pick<TimelineContent, 'title' | 'source' | 'report'>): HostToWebview | null {
  return content.report ? { type: 'report', title: content.title, source: content.source, report: content.report } : null;
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
  return { type: 'preview', title: content.title, source: content.source, panes };
}

/** The 'load' with every slice (builds the models on first use). */
export function loadMessage(content: TimelineContent): HostToWebview {
  const panes = content.panes.map(({ label, reading, compareTo, rank }) => ({ label, trace: reading.model(), ...paneExtras(compareTo, rank) }));
  return { type: 'load', title: content.title, source: content.source, panes };
}

/** The optional pane fields, only where set (absent and null mean different things for compareTo). */
function paneExtras(compareTo: number | null | undefined, rank: TraceHead | undefined): { compareTo?: number | null; rank?: TraceHead } {
  return { ...(compareTo !== undefined ? { compareTo } : {}), ...(rank ? { rank } : {}) };
}
