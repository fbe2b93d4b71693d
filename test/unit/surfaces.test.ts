// One quantity, one number: every fixture report is said by each surface's real function — the CLI's text and
// --json, the report panel's cells and lines, the CodeLens title and tooltip, the hover, Problems, the Runs view, the
// Compiler view — and a number shown on several of them must read the same, formatted by present/numbers.ts alone.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { reportJson, reportText } from '../../extension/cli/main.ts';
import { buildCompilerTree, type CompilerTreeNode } from '../../extension/present/compilerTree.ts';
import { collectFindings, findingHover, findingMessage } from '../../extension/present/findings.ts';
import { runHeadline } from '../../extension/present/headline.ts';
import { shortLine } from '../../extension/present/lensLine.ts';
import {
  formatBreakEven,
  formatCount,
  formatInterval,
  formatMs,
  formatPct,
  formatSeconds,
  formatSpeedup,
  formatWhole,
} from '../../extension/present/numbers.ts';
import {
  digestRegion,
  headlineMeasurement,
  measurementCells,
  regionFacts,
  regionLine,
  runSummary,
  type RegionDigest,
} from '../../extension/present/regionDigest.ts';
import { digestRank } from '../../extension/present/rankDigest.ts';
import { digestReport, modeCells } from '../../extension/present/reportDigest.ts';
import { runListEntry } from '../../extension/present/runList.ts';
import { compareRuns } from '../../extension/present/runCompare.ts';
import { answerNumbers, saidOf } from '../../extension/present/answer.ts';
import type { Answer, ModeResult, Region, Report } from '../../extension/shared/report.ts';

const FIXTURES = path.resolve(__dirname, '../fixtures');

function reportFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const at = path.join(dir, name);
    return statSync(at).isDirectory() ? reportFiles(at) : name === 'report.json' ? [at] : [];
  });
}

// the fixtures, and the reports a run of the Python tests left where COMPILE_LENS_TEST_REPORTS points (a folder)
const EXTRA = process.env['COMPILE_LENS_TEST_REPORTS'];
const FILES = [
  ...reportFiles(FIXTURES),
  ...(EXTRA && statSync(EXTRA, { throwIfNoEntry: false }) ? reportFiles(EXTRA) : []),
];

/** Every string the runner wrote into the report: its sentences carry its own numbers (formats.py, held to the same
 *  table by numbers.test.ts), and are displayed as they are. */
function runnerStrings(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string' && value.length > 3) into.add(value);
  else if (Array.isArray(value)) value.forEach((v) => runnerStrings(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => runnerStrings(v, into));
  return into;
}

const treeText = (nodes: CompilerTreeNode[]): string[] =>
  nodes.flatMap((n) => [n.label, n.description ?? '', ...treeText(n.children)]);

/** What each surface says of a report, as text. */
function surfaces(report: Report): Record<string, string> {
  const digest = digestReport(report);
  const regions = (report.regions ?? []).map(digestRegion);
  const findings = collectFindings(report);
  const run = runListEntry(report, '/ws/.compile-lens/runs/x/report.json');
  const lens = report.target.kind === 'script' ? regions.map((r) => r.headline) : [runHeadline(report)];
  const lensTooltip = report.target.kind === 'script' ? regions.map(regionLine) : lens;
  const panel =
    report.target.kind === 'script'
      ? regions.flatMap((r) => [
          r.headline,
          r.recommendation?.reason ?? '',
          regionFacts(r).join(' · '),
          r.story ?? '',
          ...(r.inSitu?.lines ?? []),
          ...r.measurements.map((m) => Object.values(measurementCells(m)).join(' | ')),
        ])
      : [
          Object.values(modeCells(null, digest)).join(' | '),
          ...digest.modes.map((m) => Object.values(modeCells(m, digest)).join(' | ')),
          digest.launchBoundNote ?? '',
        ];
  return {
    cli: reportText(report),
    json: JSON.stringify(reportJson(report)),
    panel: panel.join('\n'),
    lensTitle: lens.map((l) => shortLine(l)).join('\n'),
    lensTooltip: lensTooltip.join('\n'),
    hover: findings.map(findingHover).join('\n'),
    problems: findings.map(findingMessage).join('\n'),
    runs: `${run.description}\n${run.tooltip}`,
    log: runSummary(report),
    compilerView: treeText(buildCompilerTree(report)).join('\n'),
    compare: compareRuns(report, report).replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1'), // markdown, read as text
  };
}

const number = (text: string): number => Number(text.replace(/,/g, ''));

/** Each number-with-unit, and that number as numbers.ts writes it: a token written any other way was formatted elsewhere. */
const UNITS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/(?<![\d.])(\d[\d,]*\.\d+)–(\d[\d,]*\.\d+)×/g, (m) => formatInterval(number(m[1]!), number(m[2]!))],
  [/(?<![\d.–])(\d[\d,]*\.\d+)×/g, (m) => formatSpeedup(number(m[1]!))],
  [/(?<![\d.])(\d[\d,]*(?:\.\d+)?) ms\b/g, (m) => formatMs(number(m[1]!))],
  [/(?<![\d.])(\d[\d,]*(?:\.\d+)?) s\b/g, (m) => formatSeconds(number(m[1]!))],
  [/(?<![\d.])(\d[\d,]*(?:\.\d+)?)%/g, (m) => formatPct(number(m[1]!))],
  [/(?<![\d.])(\d[\d,]*) (steps|calls)\b/g, (m) => `${formatWhole(number(m[1]!))} ${m[2]}`],
  [
    /kernels\/(step|call) (\d+(?:\.\d+)?) → (\d+(?:\.\d+)?)/g,
    (m) => `kernels/${m[1]} ${formatCount(number(m[2]!))} → ${formatCount(number(m[3]!))}`,
  ],
];

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
    const range = low !== undefined && high !== undefined ? formatInterval(low, high) : '';
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
    for (const text of [d.story ?? '', regionFacts(d).join(' · '), ...region.calls.map((c) => c.said ?? '')])
      if (/\b[Cc]all \d+ compiled\b|compiled \(median|^compiled\b|\d s compiling\b/.test(text))
        problems.push(`${region.id}: "${text}" for a region whose compiles made no graph`);
  }
  return problems;
}

const MS = String.raw`(\d[\d,]*(?:\.\d+)? ms)`;

/** A compiled time or a speedup as a screen says it, keyed by its label: what it is, per what, and how it was
 *  measured (in situ, replayed, a what-if's, the first-call chart's own median). */
interface Said {
  where: string;
  label: string;
  value: string;
}

/** The numbers a piece of text says of a region, each with its label; `how` where the piece's place says how it was
 *  measured (a replay row, the in-situ overlay), else its own words do. A time said without how it was measured reads
 *  as the script's own calls, in situ. */
function saidIn(where: string, text: string, how = ''): Said[] {
  const out: Said[] = [];
  const add = (quantity: string, unit: string, measured: string, value: string, whatIf: string | undefined) =>
    out.push({
      where,
      label: `${quantity} per ${unit} ${measured || 'in situ'}${whatIf ? ` with ${whatIf}` : ''}`,
      value,
    });
  for (const clause of text.split(/ · |; |\. (?=[A-Z(])|\n/)) {
    const whatIf = /^\(?with ([^:]+):/i.exec(clause)?.[1];
    const measured = /\bin situ\b/i.test(clause) ? 'in situ' : /\breplayed\b/.test(clause) ? 'replayed' : how;
    for (const m of clause.matchAll(/(\d[\d,]*\.\d+×) per (call|step|token)\b( replayed| in situ)?/g))
      add('speedup', m[2]!, m[3]?.trim() ?? measured, m[1]!, whatIf);
    for (const m of clause.matchAll(new RegExp(String.raw`${MS} → ${MS} per (call|step|token)\b`, 'g')))
      add('compiled', m[3]!, measured, m[2]!, whatIf);
    for (const m of clause.matchAll(new RegExp(String.raw`\(compiled\): ${MS} per (call|step|token)\b`, 'g')))
      add('compiled', m[2]!, measured, m[1]!, whatIf);
    for (const m of clause.matchAll(new RegExp(String.raw`calls took ${MS}(?: compiled)? \(median`, 'g')))
      add('compiled', 'call', measured, m[1]!, whatIf);
    for (const m of clause.matchAll(new RegExp(String.raw`${MS} (?:per call, )?median( of the calls drawn)?`, 'g')))
      add('compiled', 'call', m[2] ? 'of the calls drawn' : measured, m[1]!, whatIf);
  }
  return out;
}

/** What the screens of one region say (the report panel's header, sentences, in-situ lines, replay rows and both
 *  charts' tooltips, the CodeLens, the compare), as labelled numbers. */
function regionSaid(report: Report, region: Region): Said[] {
  const d = digestRegion(region);
  const said = [d.headline, d.recommendation?.reason ?? '', regionFacts(d).join(' · '), d.story ?? '']
    .concat(d.inSitu?.lines ?? [])
    .flatMap((text) => saidIn('panel', text));
  // the replay rows: the answer's own row is the "per call replayed" its headline says; any other by its label
  const answered = region.answer?.number?.kind.startsWith('replay') ? region.answer.number.index : undefined;
  d.measurements.forEach((m, k) => {
    const how = k === answered ? 'replayed' : `replayed ${m.label}${m.signature ? ` on ${m.signature}` : ''}`;
    const cells = measurementCells(m);
    if (cells.speedup) said.push(...saidIn('replay row', `${cells.speedup} per call`, how));
    if (cells.compiled) said.push(...saidIn('replay row', `0 ms → ${cells.compiled} per call`, how));
    said.push(...m.notes.flatMap((note) => saidIn('replay row', note, how)));
  });
  const steady = region.steadyState;
  if (steady) said.push(...saidIn('first-call chart', `${steady.said ?? ''}\n${steady.label ?? ''}`));
  const situ = region.inSitu;
  for (const text of [situ?.lines?.[0] ?? '', ...Object.values(situ?.medianText ?? {})])
    said.push(...saidIn('in-situ chart', text, 'in situ'));
  said.push(...saidIn('CodeLens', `${shortLine(d.headline)}\n${regionLine(d)}`));
  // the compare's block: its per-call row is of the measurement its speedup row names
  const block = compareRuns(report, report)
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1')
    .split('### ')
    .find((b) => b.startsWith(`${d.name}${d.line !== null ? ` (line ${d.line})` : ''}\n`));
  const cell = (measure: string) => new RegExp(String.raw`^\| ${measure} \| (.*?) \|`, 'm').exec(block ?? '')?.[1];
  const [speedup, perCall] = [cell('speedup') ?? '', cell('per call') ?? ''];
  const compared = saidIn('compare', speedup);
  said.push(...compared);
  const time = /^(\d[\d,]*(?:\.\d+)? ms)(?:\/(step|token))?$/.exec(perCall);
  if (time) {
    const how = compared[0]?.label.split(' ').slice(3).join(' ') ?? '';
    said.push(...saidIn('compare', `0 ms → ${time[1]!} per ${time[2] ?? 'call'}`, how));
  }
  return said;
}

/** Labels a region's screens say with two values: "compiled per call in situ: 0.70 ms (panel), 0.66 ms (first-call
 *  chart)" ([] when each label has one value). */
function twoValues(report: Report): string[] {
  const problems: string[] = [];
  for (const region of report.regions ?? []) {
    const byLabel = new Map<string, Said[]>();
    for (const s of regionSaid(report, region)) byLabel.set(s.label, [...(byLabel.get(s.label) ?? []), s]);
    for (const [label, said] of byLabel)
      if (new Set(said.map((s) => s.value)).size > 1)
        problems.push(`${region.id} ${label}: ${[...new Set(said.map((s) => `${s.value} (${s.where})`))].join(', ')}`);
  }
  return problems;
}

/** The answer a cell is of: the run's for a target's mode, else the region's whose id leads `where`. */
const answerOf = (report: Report, where: string): Answer | undefined =>
  report.target.kind === 'script' ? report.regions?.find((r) => where.startsWith(`${r.id} `))?.answer : report.answer;

/** "537 calls": the answer's pay-back as a surface writes it; null where it says none. */
function paysBackText(answer: Answer | undefined): string | null {
  const pays = answer?.reasons.find((r) => r.code === 'pays-back-after');
  return pays?.steps === undefined ? null : formatBreakEven(pays.steps, pays.unit === 'call' ? 'call' : 'step');
}

const PAYS_BACK = /(?:pays back after|break-even(?: after)?:?) (\d[\d,]* (?:steps?|calls?|tokens?))\b/g;

/** A time said as compiling: "6.5 s compiling", "Its 2.4 s compile", "compile 3.4 s", "compile inside the script: 3.1 s",
 *  "Call 0 compiled (3.7 s)", "recompiled for batch 8 (0.34 s", "0.53 s went to compiling", "compiling took 1.2 s". */
const COMPILE_SECONDS: RegExp[] = [
  /(?<![\d.])(\d[\d,]*(?:\.\d+)? m?s) (?:compiling|compile|went to compiling)\b/g,
  /\bcompile(?: inside the script)?:? (\d[\d,]*(?:\.\d+)? m?s)\b/g,
  /\b(?:compiled|recompiled)(?: for [^()]*)? \((\d[\d,]*(?:\.\d+)? m?s)\b/g,
  /\bcompiling took (\d[\d,]*(?:\.\d+)? m?s)\b/g,
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
      calls.reduce((sum, s) => sum + s, 0),
      region.compiler?.compileSeconds?.['total'],
    );
    for (const r of region.answer?.reasons ?? []) if (r.code === 'shape-fix') seconds.push(r.seconds, r.wasSeconds);
  }
  for (const m of report.modes) seconds.push(m.compiler?.compileSeconds?.['total']);
  for (const rank of report.ranks ?? []) seconds.push(rank.compileSeconds);
  for (const r of report.answer?.reasons ?? []) if (r.code === 'pays-back-after' && !r.warmUp) seconds.push(r.seconds);
  return new Set(seconds.filter((s): s is number => s != null).map(formatSeconds));
}

/** Compiler terms no surface says as its own words (issue 44 point 4): each is said plainly, or quoted as PyTorch's
 *  behind a toggle the panel draws (not a surface here). */
const JARGON: [RegExp, string][] = [
  [/TENSOR_MATCH|___check_obj_id|\bID_MATCH\b/, 'a raw guard'],
  [/size mismatch at index \d+(\. | \()expected/, "PyTorch's guard text as our sentence"],
  [/Torch-Compiled Region/, "the profiler's name for a compiled region"],
  [/\(compile \d+\/\d+\)|\bcompile \d+\/\d+\b/, 'a compile id as a name'],
  [/\bprocess -1\b/, "Kineto's pid for its own work"],
  [/first on its signature|\d+ observer\b/, "the in-situ schedule's own words for the steps it left out"],
  [/spanning a switch/, "the in-situ schedule's word for a step across a stance switch"],
  [/host's fastest state/, "the estimator's word for the host at its fastest"],
  [/in situ: no number/i, 'a verdict that is no verdict'],
  [/\d\.\d{3,} blocks per SM/, 'an unrounded count'],
  [/shared memory \d+(?! ?[KMG]?i?B)\b/, 'a size without its unit'],
  [/no steady step — no steady/, 'the same reason said twice'],
  [/too noisy to say: [^·]*· too noisy to decide/, 'the same reason said twice'],
  [/\binterleaving\b/, "the in-situ schedule's word for switching eager and compiled"],
  [/\bcall\(s\)/, 'a count whose noun does not agree with it'],
];

/**
 * The sentences a TS surface shows that the runner words (schema 1.24: a region's in-situ lines, a mode's notes,
 * eager's launch-bound note, a graph break's cost; the story, 1.23; the headlines; 1.25: the CLI's mode line, the
 * CUDA-graph lines, the hover's count of a finding seen more than once, a rank's words), where
 * the report carries them:
 * each must be one of the report's own strings ([] when all are). A sentence composed here would not be.
 */
function shownSentences(report: Report): { where: string; text: string }[] {
  const shown: { where: string; text: string }[] = [];
  const digest = digestReport(report);
  // the CLI's line for each measured mode (schema 1.25)
  const cli = reportText(report).split('\n');
  for (const m of report.modes.filter((m) => m.measuredText !== undefined))
    shown.push({ where: `${m.mode} line`, text: cli.find((l) => l.startsWith(`  ${m.mode}: `))?.slice(2) ?? '' });
  if (report.eager.launchBoundText !== undefined) shown.push({ where: 'eager', text: digest.launchBoundNote ?? '' });
  digest.modes.forEach((m, k) => {
    if (report.modes[k]!.notes) shown.push(...m.notes.map((text) => ({ where: m.mode, text })));
  });
  for (const [k, region] of (report.regions ?? []).entries()) {
    const d = digestRegion(region);
    shown.push({ where: `${region.id} headline`, text: d.headline });
    if (region.story !== undefined) shown.push({ where: `${region.id} story`, text: d.story ?? '' });
    if (region.inSitu?.lines)
      shown.push(...(d.inSitu?.lines ?? []).map((text) => ({ where: `${region.id} in situ`, text })));
    if (region.compiler?.cudaGraphsLines)
      shown.push(...d.cudaGraphs.map((text) => ({ where: `${region.id} CUDA graphs`, text })));
    d.measurements.forEach((m, j) => {
      if (report.regions![k]!.measurements[j]!.notes)
        shown.push(...m.notes.map((text) => ({ where: `${region.id} ${m.label}`, text })));
    });
  }
  // a torchrun job's ranks: the CLI's ranks block and the panel's rank table (schema 1.25)
  for (const entry of report.ranks ?? []) {
    const d = digestRank(entry);
    const where = `rank ${entry.rank}`;
    if (entry.factsText !== undefined) shown.push({ where, text: d.facts ?? '' });
    if (entry.regionsText !== undefined) shown.push(...d.regionLines.map((text) => ({ where, text })));
    if (entry.errorText !== undefined) shown.push({ where, text: d.error ?? '' });
    if (entry.waitingText !== undefined) shown.push({ where, text: d.waiting ?? '' });
  }
  // a finding seen more than once: the hover's title says its count (schema 1.25: countText)
  for (const f of collectFindings(report).filter((f) => f.count > 1 && f.kind !== 'divergence'))
    shown.push({
      where: `${f.file}:${f.line} hover`,
      text: /^\*\*Compile Lens — (.*?)\*\*/.exec(findingHover(f))?.[1] ?? '',
    });
  const costs = [...report.modes, ...(report.regions ?? [])].some((m) => m.compiler?.breakCost !== undefined);
  if (costs)
    for (const f of collectFindings(report).filter((f) => f.kind === 'graph-break'))
      shown.push({ where: `${f.file}:${f.line}`, text: f.cost ?? '' });
  return shown;
}

const uncarried = (report: Report, shown = shownSentences(report)): string[] => {
  const carried = runnerStrings(report);
  return shown.filter((s) => !carried.has(s.text)).map((s) => `${s.where}: "${s.text}" is not the report's`);
};

test('every fixture report is read (test/fixtures/reports and the other report.json fixtures)', () => {
  assert.ok(FILES.length >= 16, FILES.join('\n'));
});

for (const file of FILES) {
  const name = path.relative(FIXTURES, file);
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;

  test(`${name}: every number on every surface is written by present/numbers.ts (one rounding, one interval form)`, () => {
    const runner = [...runnerStrings(report)].sort((a, b) => b.length - a.length);
    for (const [surface, raw] of Object.entries(surfaces(report))) {
      const text = runner.reduce((t, s) => t.split(s).join('«runner»'), raw);
      for (const [pattern, canonical] of UNITS) {
        for (const m of text.matchAll(pattern))
          assert.equal(m[0], canonical(m), `${surface} writes "${m[0]}" where numbers.ts writes "${canonical(m)}"`);
      }
      assert.doesNotMatch(text, /±\d/, `${surface}: one interval form (low–high×), no ±%`);
    }
  });

  test(`${name}: the CodeLens, the Runs view, --json, the log and the CLI say the runner's headline with the same numbers`, () => {
    const all = surfaces(report);
    const json = reportJson(report) as { headline: string; regions?: RegionDigest[] };
    const digest = digestReport(report);
    const regions = (report.regions ?? []).map(digestRegion);
    // the runner wrote the run's headline (schema 1.18; the fixtures carry it: test_fixture_verdicts.py): --json says it
    // word for word, and it leads the Runs view's line, where a narrow view keeps the answer
    assert.ok(report.headline, "the fixture carries the runner's headline");
    assert.equal(json.headline, report.headline);
    assert.ok(
      all['runs']!.startsWith(`${report.headline} · `) || all['runs']!.startsWith(`${report.headline}\n`),
      `${report.headline} | ${all['runs']}`,
    );
    if (report.target.kind !== 'script') {
      const lens = report.headline;
      assert.ok(
        all['lensTooltip'] === lens &&
          // the title is the headline cut to fit: its asides in parentheses may go first (lensLine.ts)
          [lens, lens.replace(/\s*\([^()]*\)/g, '')].some((l) => l.startsWith(all['lensTitle']!.replace(/…$/, ''))) &&
          all['log'] === lens,
        'the CodeLens, its tooltip and the log: one headline',
      );
      // the speedup the headline shows is a mode's, said the same by the CLI, the panel, the Runs view and --json
      const shown = /(\d+\.\d+)×/.exec(lens)?.[0];
      const mode = digest.modes.find((m) => m.speedup !== null && modeCells(m, digest).speedup === shown);
      assert.equal(shown === undefined, mode === undefined, `${lens}: its speedup is a measured mode's`);
      if (mode) {
        const cells = modeCells(mode, digest);
        for (const value of [cells.speedup, ...(mode.interval ? [cells.nextRun] : [])]) {
          for (const surface of ['cli', 'panel', 'runs', 'json'] as const)
            assert.ok(all[surface]!.includes(value), `${surface} shows ${value}`);
        }
        if (mode.compileSeconds !== null && lens.includes(' · compile '))
          assert.ok(
            all['cli']!.includes(`compile ${formatSeconds(mode.compileSeconds)}`) &&
              lens.includes(`compile ${formatSeconds(mode.compileSeconds)}`),
          );
      }
    }
    for (const [index, region] of regions.entries()) {
      const line = regionLine(region);
      assert.equal(
        region.headline,
        report.regions![index]!.headline,
        `${region.id}: the runner's headline, as written`,
      );
      assert.ok(
        all['lensTooltip']!.includes(line) && all['runs']!.includes(line),
        `${region.id}: the lens's and the Runs view's line are one`,
      );
      assert.ok(
        all['lensTitle']!.split('\n')[index] === shortLine(region.headline) &&
          all['log']!.includes(`: ${region.headline}`),
        `${region.id}: the lens and the log say it`,
      );
      assert.equal(
        json.regions?.find((r) => r.id === region.id)?.headline,
        region.headline,
        `${region.id}: --json's headline is the lens's`,
      );
      // the speedup the headline shows ("1.78× per call replayed"; not another ratio it names, "past 2.5× the script's
      // own time") is the one the CLI and the panel show for the same measurement
      const shown = /(\d+\.\d+)×(?= per )/.exec(region.headline)?.[0];
      if (!shown) continue;
      const number = report.regions![index]!.answer?.number;
      const step = region.inSitu?.step ?? region.inSitu?.call;
      const source = number
        ? formatSpeedup(number.value)
        : region.inSitu && step
          ? formatSpeedup(step.speedup)
          : measurementCells(headlineMeasurement(region)!).speedup;
      assert.equal(shown, source, `${region.id}: the headline's speedup is its measurement's`);
      for (const surface of ['cli', 'panel', 'runs'] as const)
        assert.ok(all[surface]!.includes(shown), `${region.id}: ${surface} shows ${shown}`);
    }
  });

  test(`${name}: one answer on every surface: a verdict that agrees with its number, ranges never zero-width or absurd, no compile-inclusive totals, one value per quantity`, () => {
    if (report.target.kind !== 'logs' && !report.regions?.length && report.modes.length)
      assert.ok(report.answer, "the fixture carries the runner's answer (scripts/rederive_fixtures.py)");
    assert.deepEqual(inconsistencies(report, surfaces(report)), []);
  });

  test(`${name}: a region's screens say one value per label (a compiled time, a speedup: in situ, replayed, a what-if's, the chart's own)`, () => {
    assert.deepEqual(twoValues(report), []);
  });

  test(`${name}: no surface says a compiler term as its own words (a guard as a sentence, a compile by its function)`, () => {
    const said = surfaces(report);
    // --json keeps each finding's guard as PyTorch wrote it, as data (`reason`), beside its words (`what`)
    const json = reportJson(report) as { findings?: { reason?: unknown }[] };
    for (const finding of json.findings ?? []) delete finding.reason;
    said['json'] = JSON.stringify(json);
    // the hover closes with PyTorch's words, quoted as theirs ("> ...")
    said['hover'] = said['hover']!.replace(/^> .*$/gm, '');
    for (const [surface, text] of Object.entries(said))
      for (const [term, what] of JARGON) assert.doesNotMatch(text, term, `${surface}: ${what}`);
  });

  test(`${name}: a sentence the runner words is shown as the report carries it, on the CLI and the panel alike`, () => {
    assert.deepEqual(uncarried(report), []);
    // the CLI's region block and the report panel show the in-situ lines and the notes whole, one a line; a region
    // that ran no compiled code shows why in their place (its two sides ran the same eager code)
    const cli = reportText(report);
    const shown = (line: string) => cli.includes(`    ${line}\n`) || cli.endsWith(`    ${line}`);
    for (const region of report.regions ?? []) {
      const instead = region.noCompiledCode?.headline;
      if (instead) assert.ok(shown(instead), instead);
      else for (const line of region.inSitu?.lines ?? []) assert.ok(shown(line), line);
    }
    for (const note of report.modes.flatMap((m) => m.notes ?? [])) assert.ok(cli.includes(`    ${note}`), note);
  });

  test(`${name}: Problems and the hover count a finding alike`, () => {
    for (const finding of collectFindings(report).filter((f) => f.count > 1 && f.kind !== 'divergence')) {
      assert.match(findingMessage(finding), new RegExp(`×${finding.count}\\b`));
      assert.match(findingHover(finding), new RegExp(`\\b${finding.count} (recompiles|graph breaks) at this line`));
    }
  });
}

test('the consistency check fails on a contradicting verdict, an absurd or zero-width range, compile-inclusive totals, a second value (or one label with two), a direction or pay-back the answer does not back', () => {
  const fixture = (dir: string): Report =>
    JSON.parse(readFileSync(path.join(FIXTURES, 'reports', dir, 'report.json'), 'utf8')) as Report;
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
  const noisy = fixture('fused-cpu');
  noisy.answer!.number!.direction = 'slower';
  assert.ok(problems(noisy).some((p) => p.includes('which backs no direction')));
  const again = surfaces(script);
  again['panel'] += '\nbreak-even: 19,467 steps\ncompile inside the script: 3.1 s';
  assert.ok(inconsistencies(script, again).some((p) => p.includes('where no answer pays back after 19,467 steps')));
  assert.ok(inconsistencies(script, again).some((p) => p.includes('is no compile time the compiler counted')));
  const noGraph = JSON.parse(
    readFileSync(path.join(FIXTURES, 'recorded', 'encoder_fastpath-h200', 'report.json'), 'utf8'),
  ) as Report;
  noGraph.regions![0]!.story = 'Call 0 compiled (0.78 s).';
  assert.ok(problems(noGraph).some((p) => p.includes('whose compiles made no graph')));
  // the first-call chart's median said as the script's calls' own (issue 44: 0.70 ms in situ, 0.66 ms on the chart)
  const unlabelled = fixture('script-in-situ-cpu');
  unlabelled.regions![0]!.steadyState!.said = 'steady state from call 1: 0.66 ms per call, median (calls varied 338%)';
  assert.deepEqual(twoValues(unlabelled), [
    'r0 compiled per call in situ: 0.70 ms (panel), 0.66 ms (first-call chart)',
  ]);
});

test('the carried-sentence check fails on a sentence the report does not carry', () => {
  const report = JSON.parse(
    readFileSync(path.join(FIXTURES, 'reports', 'script-shapes-cpu', 'report.json'), 'utf8'),
  ) as Report;
  const shown = shownSentences(report);
  assert.ok(
    shown.some((s) => s.where.endsWith('in situ')),
    'the fixture carries in-situ lines',
  );
  assert.deepEqual(uncarried(report, shown), []);
  const made = [...shown, { where: 'r0 in situ', text: 'in situ (3 pairs of runs): 0.72× per step' }];
  assert.deepEqual(uncarried(report, made), [
    'r0 in situ: "in situ (3 pairs of runs): 0.72× per step" is not the report\'s',
  ]);
});
