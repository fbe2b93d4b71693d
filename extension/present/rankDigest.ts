// A torchrun job's ranks (`--nproc-per-node N`) in a few lines, derived once for the CLI's text and `--json`: how
// each rank ended, what it compiled and how long its calls took, and where the ranks diverged.
import type { Divergence, RankEntry, Report } from '../shared/report.ts';
import { placeLabel } from '../shared/sourcePlace.ts';
import { formatSeconds, plural } from './numbers.ts';

export interface RankDigest {
  rank: number;
  /** the rank and how it ended, the runner's words (schema 1.27: "rank 1 (host-a, node 0): error — CUDA out of
   *  memory (at train.py:88)"); before them, the fields listed */
  label: string;
  /** attach: the host and launcher node it ran on */
  host: string | null;
  nodeRank: number | null;
  status: NonNullable<RankEntry['status']> | 'unknown';
  exitCode: number | null;
  /** its error, with the line it failed at, when it failed */
  error: string | null;
  graphs: number | null;
  graphBreaks: number | null;
  recompiles: number | null;
  /** its recompiles where their count is not their calls, the one event they were: "recompiled at call 3 (2
   *  compiles)" (the runner's, schema 1.36; "2 at call 3" in reports of s29); else null */
  recompilesText: string | null;
  /** the rank table's recompiles cell, where and how many compiles (the runner's, schema 1.39: "at call 3 (2 compiles)"); else null */
  recompilesCell: string | null;
  compileSeconds: number | null;
  fxGraphCacheHits: number | null;
  fxGraphCacheMisses: number | null;
  /** per region: the script's calls on this rank and their steady state */
  regions: { id: string; name: string; calls: number; steadyMs: number | null; steadyFromCall: number | null }[];
  collectives: number | null;
  trace: string | null;
  /** after a timeout: the collective it was waiting in and where, in words */
  waiting: string | null;
  /** what it compiled and ran, in words (the runner's, schema 1.25; before it, the fields listed) */
  facts: string | null;
  /** each region's calls and steady time, one line each (the runner's, schema 1.25; before it, the fields listed) */
  regionLines: string[];
}

export interface DivergenceDigest {
  kind: Divergence['kind'];
  severity: 'error' | 'warning';
  message: string;
  file: string | null;
  line: number | null;
  cell: number | null;
  ranks: number[];
  /** the runner's fix for it (details.fix: a recompile's, said once here since its recompile is not a second finding) */
  fix: string | null;
}

/** A report before the runner's words for its ranks (schema 1.25): what a rank compiled and ran, label and value. */
function factFields(entry: RankEntry): string | null {
  const fields = [
    ['graphs', entry.graphCount],
    ['graph breaks', entry.graphBreaks],
    ['recompiles', entry.recompiles],
    ['compiling', entry.compileSeconds == null ? null : formatSeconds(entry.compileSeconds)],
    ['collectives', entry.collectives?.length],
  ].filter(([, value]) => value != null);
  return fields.length ? fields.map(([label, value]) => `${label} ${value}`).join(' · ') : null;
}

/** A report before the runner's words for a rank's ending (schema 1.27): the rank, then its fields label and value. */
function labelFields(entry: RankEntry): string {
  const fields = [
    ['host', entry.host],
    ['node', entry.nodeRank],
    ['status', entry.status],
    ['error', entry.errorText ?? entry.error?.message],
  ].filter(([, value]) => value != null);
  return [`rank ${entry.rank}`, ...fields.map(([label, value]) => `${label} ${value}`)].join(' · ');
}

export function digestRank(entry: RankEntry): RankDigest {
  const fx = entry.cache?.['fxGraph'];
  return {
    rank: entry.rank,
    label: entry.labelText ?? labelFields(entry),
    host: entry.host ?? null,
    nodeRank: entry.nodeRank ?? null,
    status: entry.status ?? 'unknown',
    exitCode: entry.exitCode ?? null,
    error: entry.errorText ?? entry.error?.message ?? null,
    graphs: entry.graphCount ?? null,
    graphBreaks: entry.graphBreaks ?? null,
    recompiles: entry.recompiles ?? null,
    recompilesText: entry.recompilesText ?? null,
    recompilesCell: entry.recompilesCell ?? null,
    compileSeconds: entry.compileSeconds ?? null,
    fxGraphCacheHits: fx?.['hit'] ?? null,
    fxGraphCacheMisses: fx?.['miss'] ?? null,
    regions: (entry.regions ?? []).map((r) => ({
      id: r.id,
      name: r.name,
      calls: r.callCount,
      steadyMs: r.steadyState?.medianMs ?? null,
      steadyFromCall: r.steadyState?.fromCall ?? null,
    })),
    collectives: entry.collectives?.length ?? null,
    trace: entry.trace ?? null,
    waiting: entry.waitingText ?? entry.stack?.waitingIn ?? null,
    facts: entry.factsText ?? factFields(entry),
    regionLines: entry.regionsText ?? (entry.regions ?? []).map((r) => `${r.id} ${r.name} · calls ${r.callCount}`),
  };
}

export function digestDivergence(d: Divergence): DivergenceDigest {
  return {
    kind: d.kind,
    severity: d.severity ?? 'error',
    message: d.message,
    file: d.location?.file ?? null,
    line: d.location?.line ?? null,
    cell: d.location?.cell ?? null,
    ranks: d.ranks,
    fix: typeof d.details?.['fix'] === 'string' ? d.details['fix'] : null,
  };
}

/** Divergences that mean the ranks ran different code: what `check` fails on (cache warnings are compile time only). */
export const failingDivergence = (report: Report): Divergence[] =>
  (report.divergence ?? []).filter((d) => (d.severity ?? 'error') === 'error');

/** "rank 1: ok · 2 graphs, 2 graph breaks, … · r0 Model: 6 calls, 0.94 ms/call from call 4": the runner's words for
 * the rank and how it ended, what it compiled and ran, its regions, where it waited. */
export function rankLine(d: RankDigest): string {
  return [d.label, d.facts, d.regionLines.join('; '), d.waiting]
    .filter((part) => part !== null && part !== '')
    .join(' · ');
}

/** A placed sentence: "train.py:42  rank 1 recompiled …"; a warning says so. */
export function divergenceLine(d: DivergenceDigest, fullPath = false): string {
  const where =
    d.file !== null && d.line !== null ? `${placeLabel({ file: d.file, line: d.line, cell: d.cell }, fullPath)}  ` : '';
  return `${where}${d.severity === 'warning' ? '(warning) ' : ''}${d.message}`;
}

/** What the ranks' lack of divergence says: that they compiled the same graphs only where some rank compiled one
 *  (ranks stopped before any compile diverged in nothing, and agreed on nothing either). */
export function noDivergenceText(report: Report): string {
  return (report.ranks ?? []).some((r) => (r.graphCount ?? 0) > 0)
    ? 'none: the ranks compiled and ran the same graphs'
    : 'none found: no rank compiled a graph, so there was nothing to compare';
}

/** The CLI's block for a torchrun job: one line per rank, then the divergences (or that there were none). */
export function formatRanks(report: Report): string[] {
  if (!report.ranks?.length) return [];
  const lines = [
    report.target.kind === 'logs'
      ? `  ranks (${plural(report.ranks.length, 'log')}):`
      : `  ranks (torchrun, ${plural(report.ranks.length, 'process', 'processes')}):`,
  ];
  for (const entry of report.ranks) lines.push(`    ${rankLine(digestRank(entry))}`);
  const divergence = (report.divergence ?? []).map(digestDivergence);
  if (!divergence.length) lines.push(`  divergence: ${noDivergenceText(report)}`);
  else {
    lines.push('  divergence:');
    for (const d of divergence) lines.push(`    ${divergenceLine(d)}`, ...(d.fix ? [`      fix: ${d.fix}`] : []));
  }
  return lines;
}
