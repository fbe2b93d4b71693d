// A script region's in-situ numbers (schema 1.14; interleaved, 1.16): its own steps and calls, compiled against eager.
// Their lines are the runner's (schema 1.24, `inSitu.lines`: report/in_situ_text.py), shown as they are by the CLI
// block, --json and the report panel. A report written before them (or measured by separate runs, torch < 2.6) gets
// its recorded fields listed, label and value, never a sentence made up here.
import { inSituNumber, paysBackOf } from './answer.ts';
import type { AnswerNumber, InSituSpeedup, Recommendation, Region, Report } from '../shared/report.ts';
import {
  formatBreakEven,
  formatSpeedupRange,
  formatRate,
  formatSeconds,
  formatSpeedup,
  formatTimesOfRatio,
  formatWhole,
  plural,
} from './numbers.ts';

export interface InSituNumber {
  speedup: number;
  low: number;
  high: number;
  eagerMs: number;
  compiledMs: number;
}

export interface InSituDigest {
  /** pairs of runs (separate runs) or of adjacent eager/compiled blocks (interleaved) the numbers rest on */
  pairs: number;
  /** the region's verdict (--json; null: none) */
  verdict: Recommendation['verdict'] | null;
  step: InSituNumber | null;
  call: InSituNumber | null;
  /** the compile cost inside the script: its warm-up's time over eager's */
  compileSeconds: number | null;
  breakEvenSteps: number | null;
  stepsMade: number | null;
  paysBack: boolean | null;
  steadyFromCall: number | null;
  stepsPerSecond: { compiled: number; eager: number } | null;
  /** the region's calls with their steps, compiles included, both ways */
  regionSeconds: { compiled: number; eager: number } | null;
  /** why there is no step speedup (the runner's words) */
  reason: string | null;
  /** a compiled call that failed, at the user's line, with the runner's words for it and its fix */
  failure: { what: string; fix: string; line: number | null; call: number | null } | null;
  /** schema 1.24: the runner's lines (the caller indents them); before it, the recorded fields listed */
  lines: string[];
}

const number = (s: InSituSpeedup | null | undefined): InSituNumber | null =>
  s ? { speedup: s.speedup, low: s.low, high: s.high, eagerMs: s.eagerMs, compiledMs: s.compiledMs } : null;

/** A number as the answer holds it (its words), else as recorded: speedup and range; then its times. */
function numberField(said: AnswerNumber | null, n: InSituNumber): string {
  const value = said?.text ?? formatSpeedupRange(n.speedup, n.low, n.high);
  // at the digits where they divide to the speedup beside them
  const [eager, compiled] = formatTimesOfRatio(n.eagerMs, n.compiledMs, said?.value ?? n.speedup);
  return `${value} · eager ${eager} · compiled ${compiled}`;
}

/** A report before schema 1.24: its in-situ fields, label and value (numbers with units), one line each. */
function fieldLines(region: Region, s: NonNullable<Region['inSitu']>): string[] {
  const lines = [`in situ (${s.method ?? 'separate-runs'}): pairs ${s.pairs}`];
  const field = (label: string, value: string | number | null | undefined): void => {
    if (value !== null && value !== undefined && value !== '') lines.push(`  ${label}: ${value}`);
  };
  const f = s.failure;
  if (f)
    field(
      'failed',
      `compiled call ${f.index ?? '?'}${f.location ? ` (line ${f.location.line})` : ''} · ${f.what} · fix: ${f.fix}`,
    );
  const step = number(s.step);
  const call = number(s.call);
  if (step) field('per step', numberField(inSituNumber(region.answer, 'step'), step));
  if (call) field('per call', numberField(inSituNumber(region.answer, 'call'), call));
  // the pay-back only where the in-situ step is the answer's number (one pay-back, the answer's), or in a report
  // before answers; with it the warm-up's time beyond eager steps it pays back (not the compiler's count: the
  // region's facts), never alone, where it read as a second compile time (issue 44)
  const stepNumber = inSituNumber(region.answer, 'step');
  const pays = !region.answer
    ? s.breakEvenSteps
    : stepNumber && stepNumber === region.answer.number
      ? paysBackOf(region.answer)?.steps
      : null;
  if (pays != null && s.compileSeconds != null)
    field('compiled warm-up beyond eager steps', formatSeconds(s.compileSeconds));
  if (pays != null) field('break-even', formatBreakEven(pays, 'step'));
  if (s.stepsMade != null) field('steps made', formatWhole(s.stepsMade));
  if (s.stepsPerSecond)
    field('steps/s', `eager ${formatRate(s.stepsPerSecond.eager)} · compiled ${formatRate(s.stepsPerSecond.compiled)}`);
  if (s.steadySteps) field('steady steps', `eager ${s.steadySteps.eager} · compiled ${s.steadySteps.compiled}`);
  const left = Object.values(s.dropped ?? {}).reduce((sum, n) => sum + n, 0);
  if (left) field('steps left out', formatWhole(left));
  field('why', s.work?.text);
  field('no step speedup', s.reason);
  field('not compared', s.unmatched);
  for (const w of s.whatIf ?? [])
    field(
      `mode=${w.mode}`,
      [
        w.failure ? `failed: ${w.failure.what}` : w.step ? `per step ${formatSpeedup(w.step.speedup)}` : null,
        w.compileSeconds !== null ? `compiled warm-up beyond eager steps ${formatSeconds(w.compileSeconds)}` : null,
        // a what-if mode is evidence: its pay-back is not the answer's, said only before answers
        w.breakEvenSteps !== null && !region.answer ? `break-even ${formatBreakEven(w.breakEvenSteps, 'step')}` : null,
      ]
        .filter((p) => p !== null)
        .join(' · '),
    );
  return lines;
}

export function digestInSitu(region: Region): InSituDigest | null {
  const s = region.inSitu;
  if (!s || (!s.pairs && !s.failure && !(s.method === 'interleaved' && s.reason))) return null;
  const f = s.failure ?? null;
  return {
    pairs: s.pairs,
    verdict: region.answer?.verdict ?? region.recommendation?.verdict ?? null,
    step: number(s.step),
    call: number(s.call),
    compileSeconds: s.compileSeconds ?? null,
    breakEvenSteps: s.breakEvenSteps ?? null,
    stepsMade: s.stepsMade ?? null,
    paysBack: s.paysBack ?? null,
    steadyFromCall: s.steadyFromCall ?? null,
    stepsPerSecond: s.stepsPerSecond ?? null,
    regionSeconds: s.regionSeconds ?? null,
    reason: s.reason ?? null,
    failure: f ? { what: f.what, fix: f.fix, line: f.location?.line ?? null, call: f.index ?? null } : null,
    lines: s.lines ?? fieldLines(region, s),
  };
}

/** The whole script both ways, as recorded by the separate runs (torch < 2.6), in the runner's words (schema 1.29:
 *  report/in_situ_text.wall_text); a report before them gets the same words here (inSituDigest.test holds the two
 *  equal on the fixtures); null without both sides. */
export function wallLine(report: Report): string | null {
  if (report.inSitu?.wallText) return report.inSitu.wallText;
  const wall = report.inSitu?.wallSeconds;
  if (!wall?.compiled.length || !wall.eager.length) return null;
  const n = Math.min(wall.compiled.length, wall.eager.length);
  return (
    `whole script, fastest of ${plural(n, 'run')} each: as written ${formatSeconds(Math.min(...wall.compiled))}` +
    ` · compiling off ${formatSeconds(Math.min(...wall.eager))}`
  );
}
