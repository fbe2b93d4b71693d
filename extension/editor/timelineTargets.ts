// A Problems entry's graph break or recompile as the timeline looks for it ("Show in timeline"): the compile
// ids the report gives that site, and the modes or regions it was seen in. Matched by place and reason as
// findings.ts makes one finding per site and reason.
import type { Finding } from '../present/findings.ts';
import { regionLabel } from '../present/regionDigest.ts';
import type { Report, SourceLocation } from '../shared/report.ts';
import type { TimelineTarget } from '../shared/trace/timelineMarks.ts';

const samePlace = (
  location: SourceLocation | null | undefined,
  finding: Pick<Finding, 'file' | 'line' | 'cell'>,
): boolean =>
  !!location &&
  location.file === finding.file &&
  location.line === finding.line &&
  (location.cell ?? null) === finding.cell;

/** The target of a graph-break or recompile finding in `report`; null for other findings or a site the report does not hold. */
export function timelineTarget(
  report: Report,
  finding: Pick<Finding, 'kind' | 'file' | 'line' | 'cell' | 'reason'> & { message: string },
): TimelineTarget | null {
  if (finding.kind !== 'graph-break' && finding.kind !== 'recompile') return null;
  const ids = new Set<string>();
  const modes = new Set<string>();
  const sources = [
    ...report.modes.map((mode) => ({ label: mode.mode, compiler: mode.compiler })),
    // a region by the name its panes start with (regionTraces.ts: "Net, compiled with mode='default' (as written)"), which the
    // timeline ranks first when it looks for the finding (webview/focus.ts)
    ...(report.regions ?? []).map((region) => ({ label: regionLabel(region), compiler: region.compiler ?? null })),
  ];
  for (const { label, compiler } of sources) {
    if (finding.kind === 'graph-break') {
      for (const item of compiler?.graphBreaks ?? []) {
        const site = item.location ?? item.userStack[item.userStack.length - 1];
        if (!samePlace(site, finding) || item.reason !== finding.reason) continue;
        modes.add(label);
        if (item.compileId) ids.add(item.compileId);
      }
    } else {
      for (const item of compiler?.recompileSites ?? []) {
        if (!samePlace(item.location, finding) || (item.reason !== finding.reason && item.pattern !== finding.reason))
          continue;
        modes.add(label);
        for (const id of item.compileIds ?? []) if (id) ids.add(id);
      }
      for (const item of compiler?.recompiles ?? []) {
        if (!samePlace(item.location, finding) || (item.reason !== finding.reason && item.pattern !== finding.reason))
          continue;
        modes.add(label);
        if (item.compileId) ids.add(item.compileId);
      }
    }
  }
  if (!modes.size) return null;
  return { kind: finding.kind, compileIds: [...ids].sort(), label: finding.message, modes: [...modes] };
}
