// The few numbers a user reads first, derived once from a report for the CLI and the panel (the one-line headline is the runner's: headline.ts).
// Every number carries what it rests on; what was not measured is left out or said in words, never a placeholder.
import { directionOf, saidOf, type Said } from './answer.ts';
import { collectFindings, findingText, type Finding } from './findings.ts';
import {
  formatCount,
  formatInterval,
  formatMs,
  formatPct,
  formatSeconds,
  formatSpeedup,
  formatSpeedupRange,
  formatSpread,
  formatTimesOfRatio,
} from './numbers.ts';
import type { ModeResult, PrecisionSettings, Report } from '../shared/report.ts';
import { kernelCountNames, workDevice, type WorkDevice } from './workCounts.ts';

export interface ModeDigest {
  mode: string;
  status: 'ok' | 'error';
  /** null when nothing compiled was validly measured (see notMeasured) */
  speedup: number | null;
  /** where the next run's speedup may land (schema 1.4); null for older reports */
  interval: { low: number; high: number } | null;
  /** how much the per-pair ratios varied between rounds: interquartile range / median of the per-round ratios
   *  (falls back to the full spread, then to the compiled timing's spread) */
  spreadPct: number | null;
  /** compiled per-call time the speedup uses (the fastest round; the median in reports before 1.4) */
  medianMs: number | null;
  /** eager measured in the same interleaved rounds: the speedup's other side */
  pairedEagerMs: number | null;
  /** the times the answer's speedup is the ratio of (eager may be another mode's pairs' fastest: runEager); null in a
   *  report before answers held them */
  ratioOf: { eagerMs: number; compiledMs: number } | null;
  /** interleaved eager/compiled pairs the speedup rests on */
  pairs: number | null;
  compileSeconds: number | null;
  /** calls until its compile pays back: the answer's pay-back where this is the answer's number (null otherwise);
   *  a report before answers: as recorded */
  breakEvenCalls: number | null;
  /** which way the speedup points, where it backs one (the runner's: answer.ts directionOf); null: too noisy, a busy
   *  host, or no number */
  direction: 'faster' | 'slower' | null;
  /** the runner's word beside the speedup ("faster", "too noisy to say"); null in a report before 1.26 */
  directionText: string | null;
  kernelsPerStep: number | null;
  graphCount: number | null;
  graphBreaks: number;
  recompiles: number;
  error: string | null;
  /** compiled output is less accurate than eager (against a higher-precision reference when one was needed): the
   *  runner's sentence, schema 1.33's mismatchText */
  mismatch: string | null;
  /** why a first measurement was thrown away and re-taken (e.g. a recompile inside the timed region): the runner's
   *  sentence, schema 1.33's remeasuredText */
  remeasured: string | null;
  /** schema 1.24: the runner's notes beside the number (outputs that differ no more than eager's, eager from another
   * mode's pairs, a host slow through the pairs, a contended host); before them, those fields listed */
  notes: string[];
  /** schema 1.21: why there is no number (the runner's sentence, with its fix: e.g. Dynamo ran the timed calls eagerly) */
  notMeasured: string | null;
  /** schema 1.21: the runner's words for the number: "1.30× per call with default (1.25–1.36×), 1.66 ms → 0.90 ms per call" */
  numberText: string | null;
  /** schema 1.25: the measurement in one line, the runner's (the CLI's line for the mode); before it, the fields listed */
  measuredText: string | null;
}

export interface ReportDigest {
  // target, device and status: documented fields of `--json`
  target: string;
  device: string;
  status: Report['status'];
  /** schema 1.29: which run, on which device, how it ended, the runner's: "fused.py on cpu (Intel Xeon …): ok"; a
   *  report before it: the same words from its fields (headerWords) */
  header: string;
  error: string | null;
  eagerKernelsPerStep: number | null;
  /** the device the kernel counts are of: a CPU's count its CPU ops, a GPU's its kernels (workCounts.ts) */
  workDevice: WorkDevice;
  /** CUDA: share of eager's profiled step the GPU sat idle between kernels */
  eagerGpuIdlePct: number | null;
  /** eager is limited by the host CPU issuing kernels: the speedup depends on this host's CPU */
  launchBound: boolean;
  /** schema 1.24: the runner's note on it (why the speedup belongs to this host); before it, the field listed */
  launchBoundNote: string | null;
  /** CUDA: the float32 precision settings the outputs were compared under, in words */
  precision: string | null;
  modes: ModeDigest[];
  recommendation: Report['recommendation'];
  /** `cell`: notebooks only, the cell's index (`line` is then within the cell) */
  /** `ranks`: a torchrun job only, the ranks it happened on */
  findings: {
    kind: Finding['kind'];
    file: string;
    line: number;
    cell?: number;
    reason: string;
    modes: string[];
    count: number;
    ranks?: number[];
    /** schema 1.35, a torchrun job's graph break: each rank's count and whose, the runner's words ("3 graph breaks at
     *  this line on ranks 0 and 2, 4 on ranks 1 and 3"); `count` is then the headline rank's alone */
    countByRank?: string;
    /** schema 1.16: the runner's words for it and its fix, where it has them */
    what?: string;
    fix?: string;
  }[];
}

/** A report before the runner's notes (schema 1.24): what they rest on, label and value. */
function noteFields(m: ModeResult, measured: boolean): string[] {
  const out: string[] = [];
  const c = m.correctness;
  if (c?.ok && c.reference && c.reference !== 'none' && c.reference !== 'unavailable') {
    const rmse =
      c.eagerRmse != null && c.compiledRmse != null
        ? ` · RMSE compiled ${c.compiledRmse.toPrecision(2)}, eager ${c.eagerRmse.toPrecision(2)}`
        : '';
    out.push(
      `outputs vs eager: max abs error ${(c.maxAbsError ?? 0).toPrecision(3)} · reference ${c.reference}${rmse}`,
    );
  }
  const shift = m.speedupInterval?.runEager;
  if (measured && shift)
    out.push(
      `eager taken from the run: ${formatMs(shift.bestEagerMs)} per call · in these pairs ${formatMs(shift.eagerMs)}`,
    );
  const slow = m.speedupInterval?.slowHost;
  const sides = (['eager', 'compiled'] as const).filter((side) => slow?.[side] !== undefined);
  if (measured && sides.length)
    out.push(
      `host slower than its fastest: ${sides.map((side) => `${side} ${formatSpeedup(slow![side]!)}`).join(' · ')}`,
    );
  const load = m.timing?.hostLoad;
  if (load?.contended && load.reason) out.push(`host contended: ${load.reason} · fix: ${load.fix}`);
  return out;
}

/** "TF32: matmul off, cuDNN on; float32 matmul precision highest" (CUDA only: TF32 does not apply on CPU). */
export function precisionText(p: PrecisionSettings | undefined): string | null {
  if (!p) return null;
  const onOff = (v: boolean | null | undefined): string => (v == null ? 'unknown' : v ? 'on' : 'off');
  return `TF32 matmul ${onOff(p.cudaMatmulAllowTf32)}, cuDNN TF32 ${onOff(p.cudnnAllowTf32)}; float32 matmul precision ${p.float32MatmulPrecision ?? 'unknown'}`;
}

/** One mode's (or one replayed region measurement's) numbers: its speedup and range as the runner's answer holds
 *  them (said: answer.ts), or, in a report made before answers, as recorded. */
export function digestMode(m: ModeResult, said: Said | null): ModeDigest {
  const number = said ? said.number : null;
  const invalid = said && m.status === 'ok' && !number ? (said.unmeasured?.text ?? null) : null;
  const recorded = m.speedupInterval ? { low: m.speedupInterval.low, high: m.speedupInterval.high } : null;
  return {
    mode: m.mode,
    status: m.status,
    speedup: said ? (number?.value ?? null) : m.speedup,
    interval: said
      ? number?.low !== undefined && number.high !== undefined
        ? { low: number.low, high: number.high }
        : null
      : recorded,
    numberText: number?.text ?? null,
    spreadPct: m.speedupIqrPct ?? m.speedupSpreadPct ?? m.timing?.spreadPct ?? null,
    medianMs: m.timing ? (m.timing.estimateMs ?? m.timing.medianMs) : null,
    pairedEagerMs: m.eagerTiming ? (m.eagerTiming.estimateMs ?? m.eagerTiming.medianMs) : null,
    ratioOf:
      number?.eagerMs !== undefined && number.compiledMs !== undefined
        ? { eagerMs: number.eagerMs, compiledMs: number.compiledMs }
        : null,
    pairs: m.eagerTiming?.rounds.length ?? null,
    compileSeconds: m.compileSeconds,
    breakEvenCalls: said ? (said.paysBack?.steps ?? null) : (m.breakEvenCalls ?? null),
    direction: number
      ? directionOf(number)
      : !said && m.speedup !== null
        ? m.speedup < 1
          ? 'slower'
          : 'faster'
        : null,
    directionText: number?.directionText ?? null,
    kernelsPerStep: m.kernelsPerStep,
    graphCount: m.compiler?.graphCount ?? null,
    graphBreaks: m.compiler?.graphBreaks.length ?? 0,
    recompiles: m.compiler?.recompiles.length ?? 0,
    error: m.status === 'error' && m.error ? `${m.error.message} — ${m.error.fix}` : null,
    // the runner's sentence (schema 1.33); a report before it: the comparison's message, said as the runner says it
    mismatch:
      m.mismatchText ??
      (m.correctness && !m.correctness.ok
        ? `Compiled outputs differ from eager's: ${m.correctness.message ?? `max abs error ${m.correctness.maxAbsError}`}`
        : null),
    // the runner's sentence (schema 1.33); a report before it: the discarded timing's reason as the runner wrote it
    remeasured: m.remeasuredText ?? m.discardedTimings?.find((t) => t.valid === false)?.invalidReason ?? null,
    notes: m.notes ?? noteFields(m, !invalid),
    measuredText: m.measuredText ?? null,
    notMeasured: invalid,
  };
}

/** A finding as the CLI prints it in --json (also `check --json`). */
export function digestFinding(f: Finding): ReportDigest['findings'][number] {
  return {
    kind: f.kind,
    file: f.file,
    line: f.line,
    ...(f.cell !== null ? { cell: f.cell } : {}),
    reason: f.reason,
    modes: f.modes,
    count: f.count,
    ...(f.what !== null ? { what: f.what } : {}),
    ...(f.fix !== null ? { fix: f.fix } : {}),
    ...(f.ranks ? { ranks: f.ranks } : {}),
    ...(f.countByRank ? { countByRank: f.countByRank } : {}),
  };
}

/** A report before the runner's header (schema 1.29): its words from the fields, as report/sentences.header_text says
 *  them (regionDigest.test holds the two equal on the fixtures). */
export function headerWords(report: Report): string {
  const { environment } = report;
  return `${titleWords(report)} on ${environment.device} (${environment.deviceName}): ${report.status}`;
}

/** Every title of the report: the runner's (titleText: "ddp_train, rank 1 of 4"), else, in a report before it, what
 *  ran (targetWords). */
export const titleWords = (report: Report): string => report.titleText ?? targetWords(report);

/** What ran, as its user wrote it: a function target "compile_target in fused.py", not its name
 *  "fused-compile_target", which is for folders; else its name. A report before titleText (titleWords), and the
 *  compare's tab (runCompare.ts). */
export function targetWords(report: Report): string {
  const { target } = report;
  return target.kind === 'function' && target.function && target.file
    ? `${target.function} in ${target.file.split(/[\\/]/).pop()!}`
    : target.name;
}

export function digestReport(report: Report): ReportDigest {
  const eager = report.eager;
  const precision =
    report.environment.device === 'cuda'
      ? report.modes.find((m) => m.correctness?.precision)?.correctness?.precision
      : undefined;
  return {
    target: report.target.name,
    device: `${report.environment.device} (${report.environment.deviceName})`,
    status: report.status,
    header: report.headerText ?? headerWords(report),
    error: report.error ? `${report.error.message} — ${report.error.fix}` : null,
    eagerKernelsPerStep: eager.kernelsPerStep,
    workDevice: workDevice(report.environment.device),
    eagerGpuIdlePct: eager.gpuIdlePct ?? null,
    launchBound: eager.launchBound === true,
    launchBoundNote: launchBoundNote(report),
    precision: precisionText(precision),
    modes: report.modes.map((m, k) => digestMode(m, saidOf(report.answer, k))),
    recommendation: report.recommendation,
    findings: collectFindings(report).map(digestFinding),
  };
}

/** The runner's words for a measured mode's number; a report made before answers: its recorded speedup and range. */
export const speedupText = (m: ModeDigest): string =>
  m.numberText ??
  (m.interval ? formatSpeedupRange(m.speedup ?? 0, m.interval.low, m.interval.high) : formatSpeedup(m.speedup ?? 0));

/** Eager's launch-bound note, the runner's (schema 1.24); before it, the field listed. */
function launchBoundNote(report: Report): string | null {
  const eager = report.eager;
  if (eager.launchBoundText) return eager.launchBoundText;
  return eager.launchBound && eager.gpuIdlePct != null
    ? `eager launch-bound: GPU idle ${formatPct(eager.gpuIdlePct)} between kernels`
    : null;
}

/** A measured mode's eager and compiled times as every surface shows them beside its speedup: the ones the speedup
 *  is the ratio of, at the digits where they divide to it as shown (review 15U U1: "compiled 13.7 µs, eager 9.65 µs"
 *  beside a 0.71× read as 0.70×); a report before answers held them: its pairs' times (null: not timed). */
export function timesOfSpeedup(m: ModeDigest): { eager: string | null; compiled: string | null } {
  if (m.ratioOf && m.speedup !== null) {
    const [eager, compiled] = formatTimesOfRatio(m.ratioOf.eagerMs, m.ratioOf.compiledMs, m.speedup);
    return { eager, compiled };
  }
  return {
    eager: m.pairedEagerMs === null ? null : formatMs(m.pairedEagerMs),
    compiled: m.medianMs === null ? null : formatMs(m.medianMs),
  };
}

/** "0.33 ms (eager 0.84 ms)": compiled per call and the eager its speedup rests on (timesOfSpeedup). */
export function perCallText(m: ModeDigest): string | null {
  const { eager, compiled } = timesOfSpeedup(m);
  if (compiled === null) return null;
  return `${compiled}${eager === null ? '' : ` (eager ${eager})`}`;
}

/** Eager's and a measured mode's cells in the report panel's table, in the CLI's words and numbers. */
export function modeCells(
  m: ModeDigest | null,
  digest: ReportDigest,
): {
  speedup: string;
  /** which way it points, where the runner says it backs one: the panel colours it and says the word */
  direction: 'faster' | 'slower' | null;
  /** the runner's word beside the speedup ("faster", "too noisy to say"); null: none, or a report before 1.26 */
  directionText: string | null;
  nextRun: string;
  perCall: string;
  kernels: string;
} {
  if (!m) {
    // eager's time per call is the one each mode's speedup rests on, timed in that mode's pairs: said in that mode's
    // row ("(eager 0.84 ms)"), none in its own
    return {
      speedup: formatSpeedup(1),
      direction: null,
      directionText: null,
      nextRun: '',
      perCall: '',
      kernels: digest.eagerKernelsPerStep === null ? '' : formatCount(digest.eagerKernelsPerStep),
    };
  }
  return {
    speedup: m.speedup === null ? '' : formatSpeedup(m.speedup),
    direction: m.direction,
    directionText: m.directionText,
    // the answer's range (schema 1.21: none where too noisy or not recorded); a report before answers: its spread
    nextRun: m.interval
      ? formatInterval(m.interval.low, m.interval.high, m.speedup ?? undefined)
      : m.spreadPct !== null && !m.numberText
        ? formatSpread(m.spreadPct)
        : '',
    perCall: perCallText(m) ?? '',
    kernels:
      digest.eagerKernelsPerStep === null || m.kernelsPerStep === null
        ? ''
        : `${formatCount(digest.eagerKernelsPerStep)} → ${formatCount(m.kernelsPerStep)}`,
  };
}

/** Eager's profile; its time per call is each mode's "vs eager", the one that mode's speedup rests on. */
function eagerLine(digest: ReportDigest): string | null {
  const parts: string[] = [];
  const counted = kernelCountNames(digest.workDevice).all;
  if (digest.eagerKernelsPerStep !== null) parts.push(`${formatCount(digest.eagerKernelsPerStep)} ${counted}/step`);
  if (digest.eagerGpuIdlePct !== null && !digest.launchBound)
    parts.push(`GPU idle ${formatPct(digest.eagerGpuIdlePct)} between kernels`);
  return parts.length ? `  eager: ${parts.join(', ')}` : null;
}

/** A report before the runner's mode line (schema 1.25): the mode's number and times, label and value. */
function modeFields(m: ModeDigest, digest: ReportDigest): string {
  const fields = [`speedup ${speedupText(m)}`];
  const times = timesOfSpeedup(m);
  if (times.compiled !== null) fields.push(`compiled ${times.compiled}/call`);
  if (times.eager !== null) fields.push(`eager ${times.eager}/call`);
  if (digest.eagerKernelsPerStep !== null && m.kernelsPerStep !== null)
    fields.push(
      `${kernelCountNames(digest.workDevice).all}/step ${formatCount(digest.eagerKernelsPerStep)} → ${formatCount(m.kernelsPerStep)}`,
    );
  if (m.compileSeconds !== null) fields.push(`compile ${formatSeconds(m.compileSeconds)}`);
  return `${m.mode}: ${fields.join(' · ')}`;
}

export function formatDigest(digest: ReportDigest): string {
  const out: string[] = [];
  out.push(`Compile Lens — ${digest.header}`);
  if (digest.error) out.push(`  error: ${digest.error}`);
  const eager = eagerLine(digest);
  if (eager) out.push(eager);
  if (digest.launchBoundNote) out.push(`  ${digest.launchBoundNote}`);
  for (const m of digest.modes) {
    if (m.status === 'error') {
      out.push(`  ${m.mode}: failed — ${m.error ?? 'unknown error'}`);
      continue;
    }
    if (m.notMeasured) {
      out.push(`  ${m.mode}: not measured. ${m.notMeasured}`);
    } else {
      out.push(`  ${m.measuredText ?? modeFields(m, digest)}`);
    }
    if (m.mismatch) out.push(`    ${m.mismatch}`);
    for (const note of m.notes) out.push(`    ${note}`);
    if (m.remeasured) out.push(`    ${m.remeasured}`);
  }
  if (digest.precision) out.push(`  precision: ${digest.precision}`);
  if (digest.findings.length) {
    out.push('  findings:');
    for (const f of digest.findings)
      out.push(`    ${f.file}:${f.line}  ${f.kind}${f.count > 1 ? ` ×${f.count}` : ''}: ${findingText(f)}`);
  }
  out.push(`  recommendation: ${digest.recommendation.reason}`);
  return out.join('\n');
}
