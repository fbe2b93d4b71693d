// Two runs of the same file side by side, as markdown (the Runs view's "Compare with…"): did the fix help? Per mode
// (a target) or per region (a script): speedup with where the next run may land, time per call, kernels per step,
// compile time, graphs, breaks and recompiles; then the graph breaks and recompiles the later run no longer has, and
// those it added. Pure: the host reads the two reports and shows the text.
import { collectFindings, escapeMarkdown, type Finding } from './findings.ts';
import { digestRegion, headlineMeasurement, type RegionDigest } from './regionDigest.ts';
import { digestReport, perCallText, speedupText, targetTitle, type ModeDigest } from './reportDigest.ts';
import { clockOf, runListEntry, timeOf } from './runList.ts';
import type { Report } from '../shared/report.ts';
import { baseName } from '../shared/fileName.ts';
import { formatCount, formatMs, formatSeconds } from './numbers.ts';

const text = (value: number | null, format: (v: number) => string): string => (value === null ? '—' : format(value));

/** A mode's cells, in MEASURES' order. */
function modeRows(m: ModeDigest | null, eagerKernels: number | null): string[] {
  if (!m) return ['not run', '', '', '', '', '', ''];
  if (m.status === 'error') return [`failed: ${m.error ?? 'unknown error'}`, '', '', '', '', '', ''];
  return [
    m.speedup === null ? `not measured${m.notMeasured ? `. ${m.notMeasured}` : ''}` : speedupText(m),
    perCallText(m) ?? '—',
    m.kernelsPerStep === null
      ? '—'
      : `${eagerKernels === null ? '' : `${formatCount(eagerKernels)} → `}${formatCount(m.kernelsPerStep)}`,
    text(m.compileSeconds, formatSeconds),
    text(m.graphCount, String),
    String(m.graphBreaks),
    String(m.recompiles),
  ];
}

const MEASURES = ['speedup', 'per call', 'kernels / step', 'compile', 'graphs', 'graph breaks', 'recompiles'];

/** One block per mode or region: a row per measure, the two runs side by side. */
function block(title: string, before: string[], after: string[]): string[] {
  const cell = escapeMarkdown;
  return [
    `### ${cell(title)}`,
    '',
    '| | before | after |',
    '|---|---|---|',
    ...MEASURES.map((measure, k) => `| ${measure} | ${cell(before[k]!)} | ${cell(after[k]!)} |`),
    '',
  ];
}

/** A region's cells, in MEASURES' order: its headline measurement, the compiled time that number rests on (else the
 *  steady state's median of the script's calls). */
function regionRows(d: RegionDigest | undefined): string[] {
  if (!d) return ['not in this run', '', '', '', '', '', ''];
  const m = headlineMeasurement(d);
  // the runner's words for the number its answer rests on (schema 1.21), else its headline
  const speedup = d.number ?? d.headline;
  return [
    speedup,
    d.numberCompiled ?? text(d.steadyMs, formatMs),
    m?.kernelsPerStep == null
      ? '—'
      : `${m.eagerKernelsPerStep === null ? '' : `${formatCount(m.eagerKernelsPerStep)} → `}${formatCount(m.kernelsPerStep)}`,
    text(d.compileSeconds, formatSeconds),
    text(d.graphs, String),
    String(d.graphBreaks),
    String(d.recompiles),
  ];
}

/** A region is the same across runs where its name and torch.compile line are; its id may differ. */
const regionKey = (d: RegionDigest): string => `${d.name}@${d.line ?? ''}`;

const findingKey = (f: Finding): string => `${f.kind}|${f.file}|${f.cell ?? ''}|${f.line}|${f.reason}`;

function findingLine(f: Finding): string {
  const where = `${baseName(f.file)}${f.cell != null ? ` cell ${f.cell + 1}` : ''}:${f.line}`;
  return `- ${f.kind === 'graph-break' ? 'graph break' : 'recompile'} at ${escapeMarkdown(where)}: ${escapeMarkdown(f.what ?? f.reason)}`;
}

/** The compare's tab: "Compile Lens: compare b_item 22:15:03 → 22:18:41", the times as the runs' tabs say them
 *  (report3B M13: it opened as "Preview Untitled-1"). */
export const compareTitle = (before: Report, after: Report, now = new Date()): string =>
  `Compile Lens: compare ${targetTitle(after)} ${clockOf(before.createdAt, now)} → ${clockOf(after.createdAt, now)}`;

/** The comparison of `before` with `after` (older first), as markdown. */
export function compareRuns(before: Report, after: Report): string {
  const [was, now] = [runListEntry(before, ''), runListEntry(after, '')];
  const when = (r: Report) => timeOf(r.createdAt) || r.createdAt;
  // the heading names the file alone (report3B M13: with both times it took 4 lines of a third-width column); each
  // run's time leads its own line
  const out = [
    `# ${escapeMarkdown(now.name)}`,
    '',
    `before, ${when(before)}: ${escapeMarkdown(was.description)}  `,
    `after, ${when(after)}: ${escapeMarkdown(now.description)}`,
    '',
  ];
  if (before.target.kind === 'script' || after.target.kind === 'script') {
    const regions = (r: Report) => new Map((r.regions ?? []).map(digestRegion).map((d) => [regionKey(d), d]));
    const [a, b] = [regions(before), regions(after)];
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      const d = b.get(key) ?? a.get(key)!;
      out.push(
        ...block(
          `${d.name}${d.line !== null ? ` (line ${d.line})` : ''}`,
          regionRows(a.get(key)),
          regionRows(b.get(key)),
        ),
      );
    }
  } else {
    const [a, b] = [digestReport(before), digestReport(after)];
    for (const mode of new Set([...a.modes, ...b.modes].map((m) => m.mode))) {
      out.push(
        ...block(
          mode,
          modeRows(a.modes.find((m) => m.mode === mode) ?? null, a.eagerKernelsPerStep),
          modeRows(b.modes.find((m) => m.mode === mode) ?? null, b.eagerKernelsPerStep),
        ),
      );
    }
  }
  const sites = (r: Report) =>
    new Map(
      collectFindings(r)
        .filter((f) => f.kind === 'graph-break' || f.kind === 'recompile')
        .map((f) => [findingKey(f), f]),
    );
  const [a, b] = [sites(before), sites(after)];
  const gone = [...a].filter(([k]) => !b.has(k)).map(([, f]) => f);
  const added = [...b].filter(([k]) => !a.has(k)).map(([, f]) => f);
  out.push('## Graph breaks and recompiles', '');
  if (!gone.length && !added.length) out.push(`The same ${a.size} site${a.size === 1 ? '' : 's'} in both runs.`);
  if (gone.length) out.push(`Gone (${gone.length}):`, ...gone.map(findingLine), '');
  if (added.length) out.push(`Added (${added.length}):`, ...added.map(findingLine), '');
  return out.join('\n');
}
