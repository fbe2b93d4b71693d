// A script region's in-situ numbers (schema 1.14; pairs used, 1.15; interleaved, 1.16; why per step, 1.17): its own steps and calls,
// compiled against eager — interleaved blocks of the observed run itself (torch >= 2.6), or separate runs as written
// and with compiling off (torch < 2.6). What the CLI block leads with, what --json carries, and the report panel's
// overlay title (the CodeLens line is the runner's region headline). A failed compiled call is said at the user's line; no number is made up.
import { inSituNumber } from './answer.ts';
import type { InSituSpeedup, Recommendation, Region, Report } from '../shared/report.ts';
import { formatBreakEven, formatMs, formatRate, formatSeconds, formatSpeedup, formatWhole, plural } from './numbers.ts';

export interface InSituNumber {
  speedup: number;
  low: number;
  high: number;
  eagerMs: number;
  compiledMs: number;
}

export interface InSituDigest {
  /** pairs of runs (one as written, one with compiling off) the numbers pool; interleaved: pairs of adjacent blocks */
  pairs: number;
  /** what the numbers rest on: "6 pairs of adjacent eager/compiled blocks in this run, one signature" */
  basis: string;
  /** interleaved: steady steps each way and the steps left out ("left out: 9 spanning a switch, …"), or null */
  steadyNote: string | null;
  /** interleaved: the device's work per step both ways and whether the step was launch-bound (the runner's line) */
  workLine: string | null;
  /** interleaved, several signatures: one line per compared signature */
  signatureLines: string[];
  /** the region's verdict (--json; null: none) */
  verdict: Recommendation['verdict'] | null;
  step: InSituNumber | null;
  call: InSituNumber | null;
  /** schema 1.21: the runner's words for each: "1.22× per step in situ (0.87–1.32×), 0.86 ms → 0.70 ms per step" */
  stepText: string | null;
  callText: string | null;
  /** the compile cost inside the script: its warm-up's time over eager's */
  compileSeconds: number | null;
  breakEvenSteps: number | null;
  stepsMade: number | null;
  paysBack: boolean | null;
  steadyFromCall: number | null;
  /** recompiles inside the steady state, counted in the compiled step */
  lateCompiles: number;
  stepsPerSecond: { compiled: number; eager: number } | null;
  /** without a steady step: the region's calls with their steps, compiles included, both ways */
  regionSeconds: { compiled: number; eager: number } | null;
  /** why there is no step speedup */
  reason: string | null;
  /** where the runs' calls differ */
  unmatched: string | null;
  /** which pairs the speedup rests on and why others were not used (the host CPU's state): "4 pairs ran, 2 used (…)" */
  pairsNote: string | null;
  /** a compiled call that failed: "file.py:14: a branch on a tensor's value (...)" and its fix */
  failure: { text: string; fix: string; line: number | null; call: number | null } | null;
  whatIf: {
    mode: string;
    step: InSituNumber | null;
    compileSeconds: number | null;
    breakEvenSteps: number | null;
    failure: string | null;
  }[];
}

const number = (
  s: { speedup: number; low: number; high: number; eagerMs: number; compiledMs: number } | null | undefined,
): InSituNumber | null =>
  s ? { speedup: s.speedup, low: s.low, high: s.high, eagerMs: s.eagerMs, compiledMs: s.compiledMs } : null;

function failureText(f: NonNullable<NonNullable<Region['inSitu']>['failure']>): string {
  const where = f.location ? `${f.location.file.split(/[\\/]/).pop()}:${f.location.line}: ` : '';
  return `${where}${f.what}`;
}

/** What the speedup rests on, from the host CPU's probes: pairs used, why the others were not, steps at the host's
 * fast state per pair, a widened interval, probes that read the host faster than any state the steps could count in. */
export function pairsNote(pairs: number, s: InSituSpeedup | null): string | null {
  if (!s?.fastStateSteps) return null; // runs without probes
  const parts: string[] = [];
  const used = s.pairsUsed;
  const notUsed = (s.pairsNotUsed ?? []).map(
    (n) => `pair ${n.pair}: ${n.why}${n.speedup !== null ? `, ${formatSpeedup(n.speedup)} on its own` : ''}`,
  );
  if (used?.length) {
    parts.push(`${plural(pairs, 'pair')} ran, ${used.length} used${notUsed.length ? ` (${notUsed.join('; ')})` : ''}`);
  } else if (used) {
    parts.push(
      `${plural(pairs, 'pair')} ran, none with both runs at the host CPU's fast state: all count${notUsed.length ? ` (${notUsed.join('; ')})` : ''}`,
    );
  }
  const slow = (['eager', 'compiled'] as const)
    .filter((side) => s.slowHost?.[side] !== undefined)
    .map((side) => `${side} ${formatSpeedup(s.slowHost![side]!)}`);
  if (slow.length)
    parts.push(`interval widened: the CPU probe beside the steps read ${slow.join(', ')} the fast state's`);
  const per = (side: 'eager' | 'compiled'): string => s.fastStateSteps!.map((f) => f[side]).join('/');
  parts.push(`steps at the host's fast state per pair: eager ${per('eager')}, compiled ${per('compiled')}`);
  const faster = s.fasterProbesMs ?? [];
  if (faster.length && s.fastStateProbeMs !== undefined) {
    parts.push(
      `the host ran faster at ${plural(faster.length, 'probe')} (${formatMs(Math.min(...faster))} against ${formatMs(s.fastStateProbeMs)}): ` +
        'the whole profile may have run slow',
    );
  }
  return parts.join('; ');
}

const DROPPED: Record<string, string> = {
  'warm-up': 'in the compiled warm-up',
  switch: 'spanning a switch',
  'first on its signature': "a side's first on its signature",
  compiled: 'compiling',
  observer: "with Compile Lens's own work",
  'ran eagerly': 'on the compiled side with no compiled code run',
};

const COMPARED: Record<string, string> = {
  signature: 'one signature',
  'matched-mix': "per signature, over the script's mix",
  pooled: 'signatures pooled (a new one almost every call)',
};

function basisOf(s: NonNullable<Region['inSitu']>): string {
  if (s.method !== 'interleaved')
    return `${plural(s.pairs, 'pair')} of runs: the script as written vs with compiling off`;
  const number = s.step ?? s.call;
  const by = number?.comparedBy ? `, ${COMPARED[number.comparedBy]}` : '';
  return `${plural(number?.pairs ?? 0, 'pair')} of adjacent eager/compiled blocks in this run${by}`;
}

function steadyNoteOf(s: NonNullable<Region['inSitu']>): string | null {
  if (s.method !== 'interleaved' || !s.steadySteps) return null;
  const left = Object.entries(s.dropped ?? {}).map(([why, n]) => `${n} ${DROPPED[why] ?? why}`);
  return `steady steps: eager ${s.steadySteps.eager}, compiled ${s.steadySteps.compiled}${left.length ? `; left out: ${left.join(', ')}` : ''}`;
}

export function digestInSitu(region: Region): InSituDigest | null {
  const s = region.inSitu;
  if (!s || (!s.pairs && !s.failure && !(s.method === 'interleaved' && s.reason))) return null;
  const f = s.failure ?? null;
  const step = s.step ?? null;
  return {
    pairs: s.pairs,
    basis: basisOf(s),
    steadyNote: steadyNoteOf(s),
    workLine: s.work?.text ?? null,
    signatureLines:
      step?.comparedBy === 'matched-mix'
        ? (step.signatures ?? []).map(
            (g) =>
              `${g.signature}: ${formatSpeedup(g.speedup)}, ${formatMs(g.eagerMs)} → ${formatMs(g.compiledMs)} (${plural(g.calls, 'call')})`,
          )
        : [],
    verdict: region.recommendation?.verdict ?? null,
    step: number(s.step),
    call: number(s.call),
    stepText: inSituNumber(region.answer, 'step')?.text ?? null,
    callText: inSituNumber(region.answer, 'call')?.text ?? null,
    compileSeconds: s.compileSeconds ?? null,
    breakEvenSteps: s.breakEvenSteps ?? null,
    stepsMade: s.stepsMade ?? null,
    paysBack: s.paysBack ?? null,
    steadyFromCall: s.steadyFromCall ?? null,
    lateCompiles: s.lateCompiles ?? 0,
    stepsPerSecond: s.stepsPerSecond ?? null,
    regionSeconds: s.regionSeconds ?? null,
    reason: s.reason ?? null,
    unmatched: s.unmatched ?? null,
    pairsNote: pairsNote(s.pairs, s.step ?? s.call ?? null),
    failure: f ? { text: failureText(f), fix: f.fix, line: f.location?.line ?? null, call: f.index ?? null } : null,
    whatIf: (s.whatIf ?? []).map((w) => ({
      mode: w.mode,
      step: number(w.step),
      compileSeconds: w.compileSeconds,
      breakEvenSteps: w.breakEvenSteps,
      failure: w.failure ? failureText(w.failure) : null,
    })),
  };
}

/** A number in the runner's words (schema 1.21; a report before them: its recorded speedup), then its times. */
const said = (text: string | null, n: InSituNumber, unit: string): string =>
  `${text ?? `${formatSpeedup(n.speedup)} per ${unit}`}, ${formatMs(n.eagerMs)} → ${formatMs(n.compiledMs)} per ${unit}`;

/** The CLI's in-situ lines for a region (indented by the caller): the numbers first, then what they rest on. */
export function inSituLines(d: InSituDigest): string[] {
  const runs = d.basis;
  const lines: string[] = [];
  if (d.failure)
    lines.push(`in situ: compiled call ${d.failure.call ?? '?'} failed at ${d.failure.text}. Fix: ${d.failure.fix}`);
  if (d.step) {
    lines.push(
      `in situ (${runs}): ${said(d.stepText, d.step, 'step')}${d.call ? `; ${said(d.callText, d.call, 'call')}` : ''}`,
    );
    const payback =
      d.breakEvenSteps === null
        ? 'compiled steps are not faster: it never pays back'
        : `pays back after ${formatBreakEven(d.breakEvenSteps, 'step')}${d.stepsMade !== null ? `; this run made ${formatWhole(d.stepsMade)}` : ''}`;
    lines.push(
      `  compile inside the script ${d.compileSeconds === null ? 'unknown' : formatSeconds(d.compileSeconds)}; ${payback}` +
        (d.stepsPerSecond
          ? `; ${formatRate(d.stepsPerSecond.eager)} → ${formatRate(d.stepsPerSecond.compiled)} steps/s`
          : ''),
    );
    if (d.workLine) lines.push(`  why: ${d.workLine}`);
    if (d.lateCompiles)
      lines.push(`  ${plural(d.lateCompiles, 'recompile')} in the steady state, counted in the compiled step`);
  } else if (d.call) {
    // steady calls, but every step held a compile (another region's)
    lines.push(
      `in situ (${runs}): ${said(d.callText, d.call, 'call')}; no step speedup — ${d.reason ?? 'no steady step'}`,
    );
  } else if (d.pairs || d.reason) {
    lines.push(`in situ (${runs}): no steady step — ${d.reason ?? 'none was matched'}`);
  }
  if (d.pairsNote && (d.step || d.call)) lines.push(`  ${d.pairsNote}`);
  if (d.steadyNote && (d.step || d.call)) lines.push(`  ${d.steadyNote}`);
  lines.push(...d.signatureLines.map((line) => `  ${line}`));
  if (d.unmatched) lines.push(`  not compared: ${d.unmatched}`);
  for (const w of d.whatIf) {
    // reports of the separate in-situ runs (torch < 2.6, before schema 1.21) only
    const text = w.failure
      ? `failed at ${w.failure}`
      : w.step
        ? `per step ${formatSpeedup(w.step.speedup)}`
        : 'no steady step';
    lines.push(
      `  in situ with mode=${w.mode}: ${text}${w.compileSeconds !== null ? `, compile ${formatSeconds(w.compileSeconds)}` : ''}` +
        (w.breakEvenSteps !== null ? `, pays back after ${formatBreakEven(w.breakEvenSteps, 'step')}` : ''),
    );
  }
  return lines;
}

/** "the whole script: 5.12 s as written, 0.69 s with compiling off (in situ, fastest of 2 runs each)", or null. */
export function wallLine(report: Report): string | null {
  const wall = report.inSitu?.wallSeconds;
  if (!wall?.compiled.length || !wall.eager.length) return null;
  const n = Math.min(wall.compiled.length, wall.eager.length);
  return (
    `the whole script: ${formatSeconds(Math.min(...wall.compiled))} as written, ${formatSeconds(Math.min(...wall.eager))} with compiling off` +
    ` (in situ${n > 1 ? `, fastest of ${n} runs each` : ''})`
  );
}
