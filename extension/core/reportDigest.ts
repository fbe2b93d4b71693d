// The few numbers a user reads first, derived once from a report for the CLI, the CodeLens and the panel.
import { collectFindings, type Finding } from './findings.ts';
import type { ModeResult, Report } from './report.ts';

export interface ModeDigest {
  mode: string;
  status: 'ok' | 'error';
  speedup: number | null;
  /** how much the speedup varied between timing rounds: interquartile range / median of the per-round ratios,
   *  robust to one disturbed round (falls back to the full spread, then to the compiled timing's spread) */
  spreadPct: number | null;
  medianMs: number | null;
  /** eager measured in the same interleaved rounds: the speedup's other side */
  pairedEagerMs: number | null;
  compileSeconds: number | null;
  breakEvenCalls: number | null;
  kernelsPerStep: number | null;
  graphCount: number | null;
  graphBreaks: number;
  recompiles: number;
  error: string | null;
  /** compiled output differed from eager beyond the dtype's tolerance */
  mismatch: string | null;
  /** why a first measurement was thrown away and re-taken (e.g. a recompile inside the timed region) */
  remeasured: string | null;
}

export interface ReportDigest {
  target: string;
  device: string;
  status: Report['status'];
  error: string | null;
  eagerMs: number | null;
  eagerKernelsPerStep: number | null;
  modes: ModeDigest[];
  recommendation: Report['recommendation'];
  /** `cell`: notebooks only, the cell's index (`line` is then within the cell) */
  findings: { kind: Finding['kind']; file: string; line: number; cell?: number; reason: string; modes: string[] }[];
}

/** One mode's (or one replayed region measurement's) numbers. */
export function digestMode(m: ModeResult): ModeDigest {
  return {
    mode: m.mode,
    status: m.status,
    speedup: m.speedup,
    spreadPct: m.speedupIqrPct ?? m.speedupSpreadPct ?? m.timing?.spreadPct ?? null,
    medianMs: m.timing?.medianMs ?? null,
    pairedEagerMs: m.eagerTiming?.medianMs ?? null,
    compileSeconds: m.compileSeconds,
    breakEvenCalls: m.breakEvenCalls ?? null,
    kernelsPerStep: m.kernelsPerStep,
    graphCount: m.compiler?.graphCount ?? null,
    graphBreaks: m.compiler?.graphBreaks.length ?? 0,
    recompiles: m.compiler?.recompiles.length ?? 0,
    error: m.status === 'error' && m.error ? `${m.error.message} — ${m.error.fix}` : null,
    mismatch: m.correctness && !m.correctness.ok ? (m.correctness.message ?? `max abs error ${m.correctness.maxAbsError}`) : null,
    remeasured: m.discardedTimings?.find((t) => t.valid === false)?.invalidReason ?? null,
  };
}

/** A finding as the CLI prints it in --json (also `check --json`). */
export function digestFinding(f: Finding): ReportDigest['findings'][number] {
  return { kind: f.kind, file: f.file, line: f.line, ...(f.cell !== null ? { cell: f.cell } : {}), reason: f.reason, modes: f.modes };
}

export function digestReport(report: Report): ReportDigest {
  return {
    target: report.target.name,
    device: `${report.environment.device} (${report.environment.deviceName})`,
    status: report.status,
    error: report.error ? `${report.error.message} — ${report.error.fix}` : null,
    eagerMs: report.eager.timing?.medianMs ?? null,
    eagerKernelsPerStep: report.eager.kernelsPerStep,
    modes: report.modes.map(digestMode),
    recommendation: report.recommendation,
    findings: collectFindings(report).map(digestFinding),
  };
}

const fmt = (value: number | null, digits: number, unit = ''): string => (value === null ? '—' : `${value.toFixed(digits)}${unit}`);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The best mode that ran, for one-line summaries: the recommended one, else the fastest. */
export function headlineMode(digest: ReportDigest): ModeDigest | null {
  const ran = digest.modes.filter((m) => m.status === 'ok' && m.speedup !== null);
  return ran.find((m) => m.mode === digest.recommendation.mode)
    ?? ran.sort((a, b) => (b.speedup ?? 0) - (a.speedup ?? 0))[0]
    ?? null;
}

/** "3.31× (default) · 1 graph · 0 breaks · compile 9.5 s" — the CodeLens after a run. */
export function headline(digest: ReportDigest): string {
  const mode = headlineMode(digest);
  if (!mode) return digest.error ? `failed: ${digest.error}` : 'no mode finished';
  return [
    `${fmt(mode.speedup, 2, '×')} (${mode.mode})`,
    plural(mode.graphCount ?? 0, 'graph'),
    plural(mode.graphBreaks, 'break'),
    ...(mode.recompiles ? [plural(mode.recompiles, 'recompile')] : []),
    `compile ${fmt(mode.compileSeconds, 1, ' s')}`,
  ].join(' · ');
}

export function formatDigest(digest: ReportDigest): string {
  const out: string[] = [];
  out.push(`Compile Lens — ${digest.target} on ${digest.device}: ${digest.status}`);
  if (digest.error) out.push(`  error: ${digest.error}`);
  out.push(`  eager: ${fmt(digest.eagerMs, 3, ' ms')}/call, ${fmt(digest.eagerKernelsPerStep, 0)} kernels/step`);
  for (const m of digest.modes) {
    if (m.status === 'error') {
      out.push(`  ${m.mode}: failed — ${m.error ?? 'unknown error'}`);
      continue;
    }
    out.push(
      `  ${m.mode}: ${fmt(m.speedup, 2, '×')} (±${fmt(m.spreadPct, 1, '%')}), ${fmt(m.medianMs, 3, ' ms')}/call` +
        (m.pairedEagerMs !== null ? ` vs eager ${fmt(m.pairedEagerMs, 3, ' ms')} in the same rounds, ` : ', ') +
        `kernels/step ${fmt(digest.eagerKernelsPerStep, 0)} → ${fmt(m.kernelsPerStep, 0)}, ` +
        `${plural(m.graphCount ?? 0, 'graph')}, ${plural(m.graphBreaks, 'graph break')}, ${plural(m.recompiles, 'recompile')}, ` +
        `compile ${fmt(m.compileSeconds, 1, ' s')}` + (m.breakEvenCalls !== null ? `, break-even after ${Math.ceil(m.breakEvenCalls)} calls` : ''),
    );
    if (m.mismatch) out.push(`    numeric mismatch vs eager: ${m.mismatch}`);
    if (m.remeasured) out.push(`    re-measured: ${m.remeasured}`);
  }
  if (digest.findings.length) {
    out.push('  findings:');
    for (const f of digest.findings) out.push(`    ${f.file}:${f.line}  ${f.kind}: ${f.reason}`);
  }
  out.push(`  recommendation: ${digest.recommendation.mode ?? "don't compile"} — ${digest.recommendation.reason}`);
  return out.join('\n');
}
