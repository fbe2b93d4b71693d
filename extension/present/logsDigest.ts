// A report read from compiler logs (`inspect`) in a few lines, for the CLI's text and `--json`: what the compiler
// did (compiles, graphs, breaks and recompiles grouped by site with their counts, failures, restarts, caches, compile
// time), the findings at the user's lines, the ranks and where they diverged, and what could not be read or placed.
import { compileName } from './compileNames.ts';
import { cudaGraphLines } from './cudaGraphsText.ts';
import { collectFindings, findingMessage } from './findings.ts';
import { digestDivergence, digestRank, formatRanks, type DivergenceDigest, type RankDigest } from './rankDigest.ts';
import type { CompilerInsight, EarlierAttempt, Report, SourceMapping } from '../shared/report.ts';
import { digestFinding, type ReportDigest } from './reportDigest.ts';
import { placeLabel } from '../shared/sourcePlace.ts';
import { formatSeconds, plural } from './numbers.ts';

export interface LogsCounts {
  /** compiles Dynamo started (dynamo_start records: one per compile id) */
  compiles: number;
  graphs: number;
  /** graph-break records, and the sites (line and reason) they group into */
  graphBreaks: number;
  graphBreakSites: number;
  recompiles: number;
  recompileSites: number;
  compileFailures: number;
  restarts: number;
  cache: { fxGraph: Record<string, number>; aotAutograd: Record<string, number> };
  compileSeconds: number;
}

export interface LogsDigest {
  logs: { path: string; rank: number | null; records: number }[];
  counts: LogsCounts;
  findings: ReportDigest['findings'];
  /** schema 1.16: the CUDA-graph outcome in lines ([] where CUDA graphs were not in use) */
  cudaGraphs: string[];
  compileFailures: { compileId: string | null; failType: string | null; reason: string | null }[];
  ranks?: RankDigest[];
  divergence?: DivergenceDigest[];
  /** an attached job torchrun restarted: "restarted once: attempt 0 failed on rank 1 at train.py:88" (else null) */
  jobRestarts: string | null;
  /** files the logs name that are not placed on a workspace file, and why */
  unmapped: string[];
  warnings: string[];
}

const cacheOf = (insight: CompilerInsight | null | undefined, name: string): Record<string, number> => ({
  hit: 0,
  miss: 0,
  bypass: 0,
  ...insight?.cache?.[name],
});

export function logsCounts(insight: CompilerInsight | null | undefined): LogsCounts {
  return {
    compiles: insight?.compiledFrames ?? 0,
    graphs: insight?.graphCount ?? 0,
    graphBreaks: (insight?.graphBreaks ?? []).reduce((n, b) => n + (b.count ?? 1), 0),
    graphBreakSites: insight?.graphBreaks.length ?? 0,
    recompiles: insight?.recompiles.length ?? 0,
    recompileSites: insight?.recompileSites?.length ?? insight?.recompiles.length ?? 0,
    compileFailures: insight?.compileFailures?.length ?? 0,
    restarts: insight?.restarts?.length ?? 0,
    cache: { fxGraph: cacheOf(insight, 'fxGraph'), aotAutograd: cacheOf(insight, 'aotAutograd') },
    compileSeconds: insight?.compileSeconds?.['total'] ?? 0,
  };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** An attached job's restarts: the runner's sentence (schema 1.27); before it, each earlier attempt's fields listed. */
export function restartsText(logs: Report['logs']): string | null {
  if (logs?.restartsText) return logs.restartsText;
  const attempts = logs?.attempts ?? [];
  if (!attempts.length) return null;
  const fields = (a: EarlierAttempt): string =>
    [
      `attempt ${a.attempt}`,
      `status ${a.status}`,
      ...(a.failedRank !== null ? [`failed rank ${a.failedRank}`] : []),
      ...(a.failedAt ? [`at ${placeLabel(a.failedAt)}`] : []),
    ].join(' · ');
  return `restarts: ${attempts.map(fields).join('; ')}`;
}

export function digestLogs(report: Report): LogsDigest {
  const insight = report.modes[0]?.compiler;
  const ranked = Boolean(report.ranks?.length);
  return {
    logs: (report.logs?.files ?? []).map(({ path, rank, records }) => ({ path, rank, records })),
    counts: logsCounts(insight),
    findings: collectFindings(report)
      .filter((f) => f.kind !== 'divergence')
      .map(digestFinding),
    cudaGraphs: cudaGraphLines(insight),
    compileFailures: (insight?.compileFailures ?? []).map(({ compileId, failType, reason }) => ({
      compileId: text(compileId),
      failType: text(failType),
      reason: text(reason),
    })),
    ...(ranked
      ? { ranks: report.ranks!.map(digestRank), divergence: (report.divergence ?? []).map(digestDivergence) }
      : {}),
    jobRestarts: restartsText(report.logs),
    unmapped: (report.logs?.sourceMap ?? []).map(mappingNote).filter((n): n is string => n !== null),
    warnings: report.logs?.warnings ?? [],
  };
}

/** A report before the runner's words for what the compiler did (schema 1.27): the counts listed, label and value. */
function countFields(c: LogsCounts): string {
  return [
    `compiles ${c.compiles}`,
    `graphs ${c.graphs}`,
    `graph breaks ${c.graphBreaks} (sites ${c.graphBreakSites})`,
    `recompiles ${c.recompiles} (sites ${c.recompileSites})`,
    `failed compiles ${c.compileFailures}`,
    `restarts ${c.restarts}`,
  ].join(' · ');
}

/** A report before them: the compile time's phases and the caches' lookups, label and value. */
const fields = (values: Record<string, number> | undefined, unit: (n: number) => string): string | null => {
  const listed = Object.entries(values ?? {}).filter(([, n]) => n);
  return listed.length ? listed.map(([k, n]) => `${k} ${unit(n)}`).join(' · ') : null;
};

/** The CLI's text for a report read from logs. */
export function formatLogsDigest(report: Report): string {
  const digest = digestLogs(report);
  const c = digest.counts;
  const ranks = digest.ranks ? ` (${plural(digest.ranks.length, 'rank')})` : '';
  // the runner's words (schema 1.29's headerText), before them the same from the fields
  const header =
    report.headerText ??
    `compiler logs ${report.target.name}${ranks}: ${plural(digest.logs.length, 'log')} read, nothing timed`;
  const out = [`Compile Lens — ${header}`];
  if (report.error) out.push(`  error: ${report.error.message} — ${report.error.fix}`);
  // what the compiler did, its compile time and caches: the runner's words (schema 1.27), before them the fields
  const compiler = report.modes[0]?.compiler;
  // a job's counts are each rank's, said with whose (the runner's, schema 1.35); its compile time and caches the
  // lowest rank's
  const head = ranks ? "  compiler (compile time and cache: the lowest rank's)" : '  compiler';
  out.push(`${head}: ${compiler?.countsText ?? countFields(c)}`);
  const time = compiler?.countsText ? compiler.compileTimeText : fields(compiler?.compileSeconds, formatSeconds);
  if (time) out.push(`  compile time: ${time}`);
  const cache = compiler?.countsText
    ? compiler.cacheText
    : Object.entries(c.cache)
        .map(([name, lookups]) => fields(lookups, String) && `${name} ${fields(lookups, String)}`)
        .filter(Boolean)
        .join('; ');
  if (cache) out.push(`  cache: ${cache}`);
  // frames compiled and no graph made: the runner's sentence (schema 1.25)
  const noGraph = report.modes[0]?.compiler?.noGraphText;
  if (noGraph) out.push(`  ${noGraph}`);
  out.push(...digest.cudaGraphs.map((line) => `  ${line}`));
  const findings = collectFindings(report).filter((f) => f.kind !== 'divergence');
  if (findings.length) {
    out.push('  findings:');
    for (const f of findings) {
      out.push(`    ${placeLabel(f, true)}  ${findingMessage(f)}`);
      if (f.fix) out.push(`      fix: ${f.fix}`);
    }
  }
  const frames = report.modes.flatMap((m) => m.compiler?.frames ?? []);
  for (const f of digest.compileFailures)
    out.push(
      `  failed to compile ${compileName(frames, f.compileId)}: ${f.failType ?? 'error'}: ${(f.reason ?? '').split('\n')[0]}`,
    );
  out.push(...formatRanks(report), ...formatLogNotes(digest));
  return out.join('\n');
}

/** A restarted job's earlier attempts, and what could not be placed on a workspace file or read at all: after any
 * digest of a report from logs. */
export function formatLogNotes(digest: Pick<LogsDigest, 'jobRestarts' | 'unmapped' | 'warnings'>): string[] {
  const out: string[] = digest.jobRestarts ? [`  ${digest.jobRestarts}`] : [];
  if (digest.unmapped.length)
    out.push('  not placed in the workspace:', ...digest.unmapped.map((note) => `    ${note}`));
  if (digest.warnings.length) out.push('  warnings:', ...digest.warnings.map((warning) => `    ${warning}`));
  return out;
}

/** One line per file that did not land on a workspace file, for the CLI and the host's log. */
export function mappingNote(m: SourceMapping): string | null {
  switch (m.status) {
    case 'ambiguous':
      return `${m.from}: several workspace files match it equally (${m.candidates.join(', ')}); findings stay at the log's path — give --source-map FROM=TO (setting compileLens.sourceMap)`;
    case 'missing':
      return m.rule
        ? `${m.from}: the rule ${m.rule} names a file that is not in the workspace; findings stay at the log's path`
        : `${m.from}: no file of that name in the workspace; findings stay at the log's path`;
    default:
      return null;
  }
}
