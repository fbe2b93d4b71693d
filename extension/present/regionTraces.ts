// A script report's traces and their pane labels: the host opens them as a timeline's panes (node/timelineSource.ts),
// and a pane's label finds its kernels again (kernelLinks.ts).
import { regionLabel } from './regionDigest.ts';
import type { Region, Report, RegionMeasurement } from '../shared/report.ts';

/**
 * A script report's traces: per measured region its eager trace (once per file) and each measurement's compiled
 * trace, compared with the eager trace of the same inputs. Labels name the region as its heading does and the mode as
 * written in torch.compile (reportB D22: "r1 TinyMLP default" read as three names), a compiled side said compiled
 * (review 8 A12: "f, eager" beside "f, backend='eager'", Dynamo's eager backend, read as one thing twice):
 * "Model, eager", "Model, compiled with torch.compile's defaults" (a call that set nothing), "f, compiled with
 * backend='eager'".
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
    const inputs = (m: RegionMeasurement) =>
      signatures.size > 1 && m.why ? ` · ${m.why === 'last' ? 'last' : 'most frequent'} inputs` : '';
    const eagerLabels = new Map<string, string>();
    for (const m of traced) {
      let compareWith: string | null = null;
      if (m.eagerTrace) {
        compareWith = eagerLabels.get(m.eagerTrace) ?? `${regionLabel(region)}, eager${inputs(m)}`;
        if (!eagerLabels.has(m.eagerTrace)) {
          eagerLabels.set(m.eagerTrace, compareWith);
          out.push({ label: compareWith, trace: m.eagerTrace, compareWith: null, region, measurement: null });
        }
      }
      // the runner's (schema 1.33); a report before it: the mode by its name
      const mode = m.mode === 'as-written' ? (region.modeText ?? 'as written') : (m.modeText ?? `mode ${m.mode}`);
      out.push({
        label: `${regionLabel(region)}, compiled with ${mode}${inputs(m)}`,
        trace: m.trace!,
        compareWith,
        region,
        measurement: m,
      });
    }
  }
  return out;
}

/** An observed run's profiled window as a pane: its label, trace, the pane it is compared with, its side. */
export interface InSituTrace {
  label: string;
  trace: string;
  compareWith: string | null;
  side: 'eager' | 'compiled';
  /** the script's call that opened the window (the runner's, from 0; null: not said) */
  fromCall: number | null;
  /** the region whose calls the window's steps are (null: a report before it said) */
  region: Region | null;
}

/**
 * The observed run's profiled windows of the script's own steps (schema 1.17 `inSitu.windows`), one per side that
 * recorded a trace, the compiled one compared with the eager one, each labelled by the region whose calls its steps
 * are, as that region's panes are ("TinyTransformer, in situ eager": review 9C C3, a bare "in situ eager" under
 * `step`'s panes read as `step`'s eager call); a report that names no region: "in situ eager".
 */
export function inSituTraces(report: Report): InSituTrace[] {
  const windows = report.inSitu?.windows ?? {};
  const sideOf = (side: 'eager' | 'compiled'): Omit<InSituTrace, 'compareWith'> | null => {
    const window = windows[side];
    if (!window?.trace) return null;
    const region = report.regions?.find((r) => r.id === window.region) ?? null;
    return {
      label: `${region ? `${regionLabel(region)}, ` : ''}in situ ${side}`,
      trace: window.trace,
      side,
      fromCall: window.fromCall ?? null,
      region,
    };
  };
  const eager = sideOf('eager');
  const compiled = sideOf('compiled');
  return [
    ...(eager ? [{ ...eager, compareWith: null }] : []),
    ...(compiled ? [{ ...compiled, compareWith: eager?.label ?? null }] : []),
  ];
}

/**
 * A script report's panes in order: each region's replayed traces (regionTraces), its in-situ windows after them
 * (review 9C C3: placed last, TinyTransformer's window sat under `step`'s panes); a window of a region not replayed,
 * or of none named, after them all.
 */
export function scriptTraces(report: Report): { label: string; trace: string; compareWith: string | null }[] {
  const replayed = regionTraces(report);
  const windows = inSituTraces(report);
  const out: { label: string; trace: string; compareWith: string | null }[] = [];
  const placed = new Set<InSituTrace>();
  replayed.forEach((t, i) => {
    out.push(t);
    if (replayed[i + 1]?.region === t.region) return;
    for (const w of windows)
      if (w.region?.id === t.region.id) {
        out.push(w);
        placed.add(w);
      }
  });
  return [...out, ...windows.filter((w) => !placed.has(w))];
}

/** The script's call that opened the in-situ window a pane shows (its steps are the script's next calls), or null
 *  where the pane is no in-situ window's. */
export function paneFromCall(report: Report | null, paneLabel: string): number | null {
  return report ? (inSituTraces(report).find((t) => t.label === paneLabel)?.fromCall ?? null) : null;
}
