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

/**
 * The observed run's profiled windows of the script's own steps (schema 1.17 `inSitu.windows`), one per side that
 * recorded a trace: "in situ eager", "in situ compiled", the compiled one compared with the eager one. `fromCall`:
 * the script's call that opened the window (the runner's, from 0; null: not said).
 */
export function inSituTraces(report: Report): {
  label: string;
  trace: string;
  compareWith: string | null;
  side: 'eager' | 'compiled';
  fromCall: number | null;
}[] {
  const windows = report.inSitu?.windows ?? {};
  const eager = windows['eager']?.trace
    ? {
        label: 'in situ eager',
        trace: windows['eager'].trace,
        side: 'eager' as const,
        fromCall: windows['eager'].fromCall ?? null,
      }
    : null;
  const compiled = windows['compiled']?.trace
    ? {
        label: 'in situ compiled',
        trace: windows['compiled'].trace,
        side: 'compiled' as const,
        fromCall: windows['compiled'].fromCall ?? null,
      }
    : null;
  return [
    ...(eager ? [{ ...eager, compareWith: null }] : []),
    ...(compiled ? [{ ...compiled, compareWith: eager?.label ?? null }] : []),
  ];
}

/** The script's call that opened the in-situ window a pane shows (its steps are the script's next calls), or null
 *  where the pane is no in-situ window's. */
export function paneFromCall(report: Report | null, paneLabel: string): number | null {
  return report ? (inSituTraces(report).find((t) => t.label === paneLabel)?.fromCall ?? null) : null;
}
