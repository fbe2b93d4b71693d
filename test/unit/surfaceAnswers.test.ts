// One answer on every surface: a verdict that agrees with its number, ranges never zero-width or absurd (÷3…×3), no
// headline comparing compile-inclusive totals, the answer's number said with its own range, the panel's and the CLI's
// cells the answer's, one pay-back (the answer's), a compile time only the compiler's count.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { answerNumbers, saidOf } from '../../extension/present/answer.ts';
import {
  formatBreakEven,
  formatInterval,
  formatMs,
  formatSeconds,
  formatSpeedup,
} from '../../extension/present/numbers.ts';
import { digestRegion, measurementCells } from '../../extension/present/regionDigest.ts';
import { digestReport, modeCells } from '../../extension/present/reportDigest.ts';
import type { Answer, AnswerNumber, ModeResult, Report } from '../../extension/shared/report.ts';
import { fixture, FIXTURE_REPORTS, number, surfaces } from './surfaces.ts';

/** The run's answer and each region's, with what each is about. */
const answersOf = (report: Report): { where: string; answer: Answer }[] =>
  [
    { where: 'the run', answer: report.answer },
    ...(report.regions ?? []).map((r) => ({ where: r.id, answer: r.answer })),
  ].filter((a): a is { where: string; answer: Answer } => a.answer !== undefined);

const RANGE = /(?<![\d.])(\d[\d,]*\.\d+)–(\d[\d,]*\.\d+)×/g;
const NOISY = 3; // a range beyond ÷3…×3 of its value is not said (measure/ranges.py NOISY_FACTOR)

/**
 * What makes a report's surfaces contradict its answers or one another ([] when nothing does): a verdict against its
 * number (compile below 1.0×, stay eager whose range clears 1.05×), a range zero-width or wider than ÷3…×3, a headline
 * comparing compile-inclusive totals, a number said with another range, a panel cell other than the answer's number.
 */
function inconsistencies(report: Report, said: Record<string, string>): string[] {
  const problems: string[] = [];
  const numbers = answersOf(report).flatMap(({ answer }) => answerNumbers(answer));
  for (const { where, answer } of answersOf(report)) {
    const n = answer.number;
    if ((answer.verdict === 'compile' || answer.verdict === 'compile-for-longer-runs') && (!n || n.value < 1))
      problems.push(`${where}: ${answer.verdict} on ${n ? formatSpeedup(n.value) : 'no number'}`);
    if (answer.verdict === 'stay-eager' && n?.low !== undefined && n.low > 1.05)
      problems.push(`${where}: stay-eager on a range that clears 1.05× (${n.text ?? ''})`);
    if (n && !answer.headline.includes(n.text ?? '\u0000'))
      problems.push(`${where}: the headline "${answer.headline}" does not say its number "${n.text ?? ''}"`);
    for (const m of answerNumbers(answer)) {
      if (m.low === undefined || m.high === undefined) continue;
      if (!(m.low < m.value && m.value < m.high))
        problems.push(`${where}: ${m.text ?? ''}: zero-width, or not around its value`);
      if (m.high / m.value > NOISY || m.value / m.low > NOISY)
        problems.push(`${where}: ${m.text ?? ''}: wider than ÷3…×3`);
    }
  }
  const headlines = [
    said['lensTitle'],
    said['lensTooltip'],
    said['runs'],
    said['log'],
    (JSON.parse(said['json']!) as { headline: string }).headline,
  ];
  for (const line of headlines)
    if (/compiles included|\d s compiled .*\bvs\b.*\beager\b/.test(line ?? ''))
      problems.push(`a headline compares compile-inclusive totals: ${line ?? ''}`);
  for (const [surface, text] of Object.entries(said)) {
    for (const m of text.matchAll(RANGE)) {
      const [low, high] = [number(m[1]!), number(m[2]!)];
      if (!(low < high)) problems.push(`${surface}: a zero-width range ${m[0]}`);
      else if (high / low > NOISY * NOISY) problems.push(`${surface}: a range wider than ÷3…×3: ${m[0]}`);
    }
    // one quantity, one value: wherever a surface says a number as the runner words it ("1.22× per step in situ")
    // with a range (or why none is said), they are the answer's; a line cut to fit (the CodeLens) may leave them out
    for (const n of numbers) {
      const head = (n.text ?? '').split(' (')[0]!;
      for (let at = text.indexOf(head); head && at >= 0; at = text.indexOf(head, at + 1)) {
        const ranged = text.startsWith(' (', at + head.length);
        if (ranged && !numbers.some((o) => o.text?.split(' (')[0] === head && text.startsWith(o.text, at)))
          problems.push(
            `${surface}: "${text.slice(at, at + head.length + 24)}…" where the answer says "${n.text ?? ''}"`,
          );
      }
    }
  }
  // a number that points nowhere (too noisy, timed on a busy host) reads as such wherever it is shown: every line
  // that says it ("0.90× per call replayed") says the runner's word for it, not only the headline's reasons
  for (const n of numbers.filter((x) => x.direction === 'too-noisy' || x.direction === 'host-busy')) {
    const head = bareNumber(n.text ?? '');
    for (const [surface, text] of Object.entries(said))
      for (const line of text.split('\n'))
        if (head && line.includes(head) && !line.includes(n.directionText ?? '\u0000'))
          problems.push(`${surface}: "${line.slice(0, 80)}…" says ${head} without "${n.directionText ?? ''}"`);
  }
  // the panel's and the CLI's cells are the answer's numbers; a direction (the word and colour beside a speedup) and
  // a break-even only where the answer backs them: never on a number too noisy for a range, one whose range spans
  // more than 2× (too noisy to decide), or one timed on a contended host
  const cells = (
    where: string,
    n: ReturnType<typeof saidOf>,
    measured: ModeResult,
    cell: {
      speedup: string | null;
      nextRun: string | null;
      direction: 'faster' | 'slower' | null;
      breakEven?: string | null;
    },
  ) => {
    if (!n?.number) return;
    const { value, low, high } = n.number;
    if (cell.speedup !== formatSpeedup(value))
      problems.push(`${where}: speedup cell ${cell.speedup} for ${n.number.text ?? ''}`);
    const range = low !== undefined && high !== undefined ? formatInterval(low, high, value) : '';
    if ((cell.nextRun ?? '') !== range)
      problems.push(`${where}: range cell ${cell.nextRun} for ${n.number.text ?? ''}`);
    const noisy = n.number.tooNoisy !== undefined || (low !== undefined && high !== undefined && high > 2 * low);
    const busy = measured.timing?.hostLoad?.contended === true;
    if (cell.direction !== null && (noisy || busy))
      problems.push(`${where}: "${cell.direction}" beside ${n.number.text ?? ''}, which backs no direction`);
    if (cell.direction !== null && cell.direction !== (value < 1 ? 'slower' : 'faster'))
      problems.push(`${where}: "${cell.direction}" beside ${formatSpeedup(value)}`);
    const paysBack = n.number === answerOf(report, where)?.number ? paysBackText(answerOf(report, where)) : null;
    if ((cell.breakEven ?? null) !== null && cell.breakEven !== paysBack)
      problems.push(`${where}: break-even ${cell.breakEven} where the answer's pay-back is ${paysBack ?? 'none'}`);
  };
  const digest = digestReport(report);
  digest.modes.forEach((m, k) => cells(m.mode, saidOf(report.answer, k), report.modes[k]!, modeCells(m, digest)));
  for (const region of report.regions ?? [])
    digestRegion(region).measurements.forEach((m, k) =>
      cells(`${region.id} ${m.label}`, saidOf(region.answer, k), region.measurements[k]!, measurementCells(m)),
    );
  // one pay-back, the answer's: a surface says "pays back after" or "break-even" only with an answer's value
  const paysBack = new Set(answersOf(report).map(({ answer }) => paysBackText(answer)));
  for (const [surface, text] of Object.entries(said))
    for (const m of text.matchAll(PAYS_BACK))
      if (!paysBack.has(m[1]!)) problems.push(`${surface}: "${m[0]}" where no answer pays back after ${m[1]}`);
  // one compile time per label: a time said as compiling is the compiler's own count (a call's, the region's or the
  // mode's, a what-if replay's own, a shape fix's); any other time (the in-situ warm-up's) is said as what it is
  const compiled = compilerSeconds(report);
  for (const [surface, text] of Object.entries(said))
    for (const pattern of COMPILE_SECONDS)
      for (const m of text.matchAll(pattern))
        if (!compiled.has(m[1]!))
          problems.push(`${surface}: "${m[0]}" is no compile time the compiler counted (${[...compiled].join(', ')})`);
  // a region whose compiles made no graph ran no compiled code: no surface says a call of it compiled
  for (const region of report.regions ?? []) {
    if (region.compiler?.graphCount !== 0 && !region.noCompiledCode) continue;
    const d = digestRegion(region);
    for (const text of [d.story ?? '', d.facts.join(' · '), ...region.calls.map((c) => c.said ?? '')])
      if (/\b[Cc]all \d+ compiled\b|compiled \(median|^compiled\b|\d s compiling\b/.test(text))
        problems.push(`${region.id}: "${text}" for a region whose compiles made no graph`);
  }
  return problems;
}

/** "10.33× per call replayed": a number's own words, without the words that say whether to trust it (before it, for
 *  one too noisy: "too noisy to say, 10.33× per call replayed (…)") or its range. */
const bareNumber = (text: string): string => /\d[\d,]*(?:\.\d+)?× [^,(]*[^,( ]/.exec(text)?.[0] ?? '';

/** The answer a cell is of: the run's for a target's mode, else the region's whose id leads `where`. */
const answerOf = (report: Report, where: string): Answer | undefined =>
  report.target.kind === 'script' ? report.regions?.find((r) => where.startsWith(`${r.id} `))?.answer : report.answer;

/** "537 calls": the answer's pay-back as a surface writes it; null where it says none. */
function paysBackText(answer: Answer | undefined): string | null {
  const pays = answer?.reasons.find((r) => r.code === 'pays-back-after');
  return pays?.steps === undefined ? null : formatBreakEven(pays.steps, pays.unit === 'call' ? 'call' : 'step');
}

const PAYS_BACK = /(?:pays back after|break-even(?: after)?:?) ((?:about )?\d[\d,]* (?:steps?|calls?|tokens?))\b/g;

/** A time said as compiling: "6.5 s compiling", "Its 2.4 s compile", "compile 3.4 s", "compile inside the script: 3.1 s",
 *  "Call 0 compiled (3.7 s)", "recompiled for size 8 in dimension 0 (343 ms", "530 ms went to compiling", "compiling took 1.2 s",
 *  "recompiling took 495 ms". */
const COMPILE_SECONDS: RegExp[] = [
  /(?<![\d.])(\d[\d,]*(?:\.\d+)? m?s) (?:compiling|compile|went to compiling)\b/g,
  /\bcompile(?: inside the script)?:? (\d[\d,]*(?:\.\d+)? m?s)\b/g,
  /\b(?:compiled|recompiled)(?: for [^()]*)? \((\d[\d,]*(?:\.\d+)? m?s)\b/g,
  /\b(?:re)?compiling took (\d[\d,]*(?:\.\d+)? m?s)\b/g,
];

/** Every compile time the compiler counted, as surfaces write it: each call's, each region's and mode's total, each
 *  compiler record's, each rank's, a what-if replay's own, a shape fix's (as measured and as written). */
function compilerSeconds(report: Report): Set<string> {
  const seconds: (number | null | undefined)[] = [];
  for (const m of [...report.modes, ...(report.regions ?? []).flatMap((r) => r.measurements)])
    if (m.mode !== 'as-written' || !report.regions?.some((r) => r.answer)) seconds.push(m.compileSeconds);
  for (const region of report.regions ?? []) {
    const calls = region.calls.map((c) => c.compileSeconds).filter((s): s is number => s != null);
    seconds.push(
      ...calls,
      region.calls.reduce((sum, c) => sum + (c.event === 'recompiled' ? (c.compileSeconds ?? 0) : 0), 0),
      region.compiler?.compileSeconds?.['total'],
    );
    for (const r of region.answer?.reasons ?? []) if (r.code === 'shape-fix') seconds.push(r.seconds, r.wasSeconds);
  }
  for (const m of report.modes) seconds.push(m.compiler?.compileSeconds?.['total']);
  for (const rank of report.ranks ?? []) seconds.push(rank.compileSeconds);
  for (const r of report.answer?.reasons ?? []) if (r.code === 'pays-back-after' && !r.warmUp) seconds.push(r.seconds);
  // a region's compile said as its compile rows say it ("783 ms"), a mode's total in seconds ("0.27 s recompiling")
  const known = seconds.filter((s): s is number => s != null);
  return new Set([...known.map(formatSeconds), ...known.map((s) => formatMs(s * 1000))]);
}

for (const { name, report } of FIXTURE_REPORTS) {
  test(`${name}: one answer on every surface: a verdict that agrees with its number, ranges never zero-width or absurd, no compile-inclusive totals, one value per quantity`, () => {
    if (report.target.kind !== 'logs' && !report.regions?.length && report.modes.length)
      assert.ok(report.answer, "the fixture carries the runner's answer (scripts/rederive_fixtures.py)");
    assert.deepEqual(inconsistencies(report, surfaces(report)), []);
  });
}

test('the consistency check fails on a contradicting verdict, an absurd or zero-width range, compile-inclusive totals, a second value, a number too noisy said bare, a direction or pay-back the answer does not back', () => {
  const problems = (report: Report): string[] => inconsistencies(report, surfaces(report));
  const target = fixture('graphbreak-cpu');
  assert.deepEqual(problems(target), []);
  const n = target.answer!.number!;
  const contradicted = structuredClone(target);
  contradicted.answer!.verdict = 'compile';
  contradicted.answer!.number = { ...n, value: 0.9, text: '0.90× per call with default' };
  assert.ok(problems(contradicted).some((p) => p.includes('compile on 0.90×')));
  const flat = structuredClone(target);
  Object.assign(flat.answer!.number!, { low: n.value, high: n.value });
  assert.ok(problems(flat).some((p) => p.includes('zero-width')));
  const absurd = structuredClone(target);
  Object.assign(absurd.answer!.number!, { low: 1.01, high: 128.11 });
  assert.ok(problems(absurd).some((p) => p.includes('wider than ÷3…×3')));
  const stay = fixture('script-kernels-cpu');
  stay.regions![0]!.answer!.number = { ...stay.regions![0]!.answer!.number!, low: 1.1, high: 1.3 };
  assert.ok(problems(stay).some((p) => p.includes('stay-eager on a range that clears 1.05×')));
  const totals = fixture('script-in-situ-cpu');
  totals.regions![0]!.headline = 'no verdict: 31.5 s compiled (compiles included) vs 0.32 s eager in situ';
  assert.ok(problems(totals).some((p) => p.startsWith('a headline compares compile-inclusive totals')));
  // a surface saying the answer's number with another range: two values for one quantity
  const script = fixture('script-in-situ-cpu');
  const step = answerNumbers(script.regions![0]!.answer).find((x) => x.kind === 'in-situ-step')!;
  const said = surfaces(script);
  said['cli'] += `\n${step.text!.split(' (')[0]} (0.50–1.50×)`;
  assert.ok(inconsistencies(script, said).some((p) => p.startsWith('cli: ') && p.includes('where the answer says')));
  // a direction beside a number too noisy to back one; a pay-back or a compile time that is not the answer's or the
  // compiler's; a region whose compiles made no graph said to have compiled
  // (serve_script-cpu: its replay too noisy for a range, recorded on a busy host: the host is said as why, review 9E E1)
  const noisyRun = (): { report: Report; replay: AnswerNumber } => {
    const report = fixture('', path.join('recorded', 'serve_script-cpu', 'report.json'));
    const replay = answerNumbers(report.regions![0]!.answer).find((n) => n.kind === 'replay-call')!;
    assert.equal(replay.direction, 'host-busy');
    return { report, replay };
  };
  assert.deepEqual(problems(noisyRun().report), []);
  // a range too wide to say where a next run lands is never shown (issue 44: "next run 1.01–128.11×")
  const wide = noisyRun();
  const wideSaid = surfaces(wide.report);
  wideSaid['cli'] += '\n1.03× per step in situ (0.51–4.66×)';
  assert.ok(inconsistencies(wide.report, wideSaid).includes('cli: a range wider than ÷3…×3: 0.51–4.66×'));
  const bare = noisyRun();
  const measured = bare.report.regions![0]!.measurements[0]!;
  measured.measuredText = measured.measuredText!.replace(bare.replay.text!, bareNumber(bare.replay.text!));
  assert.ok(problems(bare.report).some((p) => p.startsWith('cli: ') && p.includes('without "host busy, not trusted"')));
  const noisy = noisyRun();
  noisy.replay.direction = 'slower';
  assert.ok(problems(noisy.report).some((p) => p.includes('which backs no direction')));
  const again = surfaces(script);
  again['panel'] += '\nbreak-even: 19,467 steps\ncompile inside the script: 3.1 s';
  assert.ok(inconsistencies(script, again).some((p) => p.includes('where no answer pays back after 19,467 steps')));
  assert.ok(inconsistencies(script, again).some((p) => p.includes('is no compile time the compiler counted')));
  const noGraph = fixture('', path.join('recorded', 'encoder_fastpath-h200', 'report.json'));
  noGraph.regions![0]!.story = 'Call 0 compiled (783 ms).';
  assert.ok(problems(noGraph).some((p) => p.includes('whose compiles made no graph')));
});
