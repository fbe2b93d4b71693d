// Script mode's numbers per region (each callable torch.compile returned while the script ran), derived once for
// the CLI lines, `--json`, the CodeLens on the torch.compile line and the report panel. Nothing unmeasured is
// printed as a number: what was not measured says why, in words, and carries no verdict.
import { reasonTexts, saidOf } from './answer.ts';
import { cudaGraphLines } from './cudaGraphsText.ts';
import { countTag, findingText, plainSaid } from './findings.ts';
import { regionHeadline, runHeadline } from './headline.ts';
import { digestInSitu, wallLine, type InSituDigest } from './inSituDigest.ts';
import { formatRanks } from './rankDigest.ts';
import { regionStory } from './regionStory.ts';
import { digestMode, digestReport, timesOfSpeedup, type ModeDigest } from './reportDigest.ts';
import type { AnswerNumber, Recommendation, Region, RegionMeasurement, Report } from '../shared/report.ts';
import { placeLabel } from '../shared/sourcePlace.ts';
import {
  formatBreakEven,
  formatCount,
  formatInterval,
  formatMs,
  formatSeconds,
  formatSpeedup,
  formatSpread,
  plural,
} from './numbers.ts';
import { kernelCountNames, workDevice } from './workCounts.ts';

export interface RegionMeasurementDigest extends ModeDigest {
  /** the runner's: "torch.compile's defaults (as written)" for the script's own compiled callable, else the what-if
   *  mode ("mode='max-autotune'"); a report before schema 1.33: the mode's name */
  label: string;
  /** the captured inputs it was measured on */
  signature: string | null;
  /** those inputs as a user reads them, their grad mode in words: the runner's (schema 1.43 signatureText, "float32[4,
   *  8] with grad"); a report before it, the signature as recorded */
  inputs: string | null;
  why: 'most-frequent' | 'last' | null;
  /** how many of the script's calls had these inputs */
  signatureCalls: number | null;
  eagerKernelsPerStep: number | null;
  /** what its count is of, by the device the region ran on: "kernels", a CPU's "CPU ops" (the runner's
   *  report/mode_line.count_name) */
  counted: string;
  /** its failure is in the region's recommendation, which the CLI prints below it: the line says "failed" only
   *  (review 4B P3: the error twice) */
  errorSaid: boolean;
  /** its number's role in the runner's words (schema 1.40 roleText: "speedup", "evidence, not the answer"), as the
   *  CLI's line and the panel's cell both say it; null: it failed (no number), or an older report */
  role: string | null;
}

export interface RegionDigest {
  id: string;
  name: string;
  /** schema 1.33: the region as every heading says it, the runner's: its name, its id after it only where another
   *  region shares the name ("forward (r1)"); a report before it: "r0 TinyTransformer" */
  label: string;
  kind: Region['kind'];
  file: string | null;
  line: number | null;
  /** notebooks: index of the cell holding the torch.compile line */
  cell: number | null;
  /** the mode the script compiled with: its own torch.compile(mode=...), 'default' when it gave none */
  mode: string;
  /** schema 1.33: what the script's torch.compile call set, the runner's: "backend='eager', dynamic=True",
   *  "torch.compile's defaults"; null in a report before it (the surfaces then say no mode) */
  modeText: string | null;
  calls: number;
  /** calls in which the region compiled or recompiled */
  compiles: number;
  /** rank 0's in a torchrun job, whose region this is (its calls, graphs, chart) */
  recompiles: number;
  graphs: number | null;
  graphBreaks: number;
  /** calls in which Dynamo ran the original code eagerly (recompile limit, skipped frame, suppressed error) */
  eagerCalls: number;
  /** compile time inside the script's own calls (those that reported it): its compile record's total where it has
   * one, as the region's facts say it (report/in_situ_text.compile_seconds_reported; review 8A A3: a compile no call
   * reported, the recompile limit's, made the calls' sum read 548 ms beside the facts' 550 ms) */
  compileSeconds: number | null;
  /** schema 1.32: what the script did with it, counted, in the runner's words ("6 calls", "1 graph and 3 graph breaks on rank 0",
   * "recompiled at call 3 on rank 1"); a report before 1.32: its counts, said here */
  facts: string[];
  steadyFromCall: number | null;
  steadyMs: number | null;
  /** schema 1.21: why the region has no number, in the runner's words ("Not replayed: mutates self.calls."); null
   * where it has an in-situ number (then notReplayed says why its replay gave none) */
  notMeasured: string | null;
  /** beside an in-situ number: why its replay gave no number ("Not replayed: input cache is a DynamicCache …") */
  notReplayed: string | null;
  /** what the replay left out and why (measured as the script let go of it, its own compiles not allowed) */
  replayLeftOut: string | null;
  measurements: RegionMeasurementDigest[];
  /** the region's verdict and its sentence, as the runner wrote them */
  recommendation: Recommendation | null;
  verdict: Recommendation['verdict'] | null;
  /** schema 1.21: the runner's words for the number the verdict rests on ("1.31× per step in situ (1.22–1.40×), …") */
  number: string | null;
  /** the compiled time that number rests on ("0.67 ms", "0.70 ms/step"): the one a surface beside it shows (issue 44) */
  numberCompiled: string | null;
  story: string | null;
  /** schema 1.14: the script's own steps and calls, as written against compiling off (null: no in-situ runs) */
  inSitu: InSituDigest | null;
  /** schema 1.16: the CUDA-graph outcome in lines ([] where CUDA graphs were not in use) */
  cudaGraphs: string[];
  /** schema 1.16: the region ran no compiled code (the runner's sentence, said first; no speedup is shown) */
  noCompiledCode: string | null;
  /** the runner's one line for the torch.compile line: "compile it: 1.84× (default) · 2 graphs · 1 recompile" (headline.ts) */
  headline: string;
  /** schema 1.22: shape fixes the profile's budget left out: the runner's title for measuring them ("Measure the shape
   * fix (runs the script once more, about 12 s)"); null where none was */
  measureShapeFix: string | null;
}

/** The region as every heading and pane says it: the runner's label (schema 1.33); a report before it, its id and name */
export const regionLabel = (region: Region): string => region.label ?? `${region.id} ${region.name}`;

/** The mode the script itself asked for, by its names in its torch.compile call ("default", "max-autotune, backend
 *  eager"): --json's `mode` */
export function scriptMode(region: Region): string {
  const { mode, backend } = region.options ?? {};
  const modeText = typeof mode === 'string' ? mode : 'default';
  const backendText = typeof backend === 'string' && backend !== 'inductor' ? `, backend ${backend}` : '';
  return `${modeText}${backendText}`;
}

function digestMeasurement(region: Region, m: RegionMeasurement, index: number): RegionMeasurementDigest {
  const signature = m.signature ?? null;
  const said = saidOf(region.answer, index);
  const digest = digestMode(m, said);
  return {
    ...digest,
    // the script's own callable: its compile is the script's, said once in the region's facts; a what-if mode's is
    // the replay's own, on these inputs
    compileSeconds: m.mode === 'as-written' ? null : digest.compileSeconds,
    // the runner's (schema 1.33: "torch.compile's defaults (as written)"); a report before it: the mode's name
    label: m.modeText ?? m.mode,
    signature,
    inputs: m.signatureText ?? signature,
    why: m.why ?? null,
    signatureCalls:
      signature === null ? null : (region.signatures?.find((s) => s.signature === signature)?.calls ?? null),
    eagerKernelsPerStep: m.eagerKernelsPerStep ?? null,
    counted: kernelCountNames(workDevice(region.device)).all,
    errorSaid: !!m.error?.message && !!region.recommendation?.reason.includes(m.error.message),
    role: m.roleText ?? null,
  };
}

/** Why the region's replay gave no number (the runner's reason); null where it did, or in a report before answers. */
const notReplayed = (region: Region): string | null =>
  reasonTexts(region.answer, ['never-called', 'replay-not-possible', 'not-measured', 'measurement-failed'])[0] ?? null;

/** The measurement a region's headline shows: the script's own compiled callable on its most frequent inputs. */
export function headlineMeasurement(digest: Pick<RegionDigest, 'measurements'>): RegionMeasurementDigest | null {
  const asWritten = digest.measurements.filter((m) => m.mode === 'as-written');
  return asWritten.find((m) => m.why === 'most-frequent') ?? asWritten[0] ?? digest.measurements[0] ?? null;
}

/** The region has an in-situ number (a step or call speedup of the script's own calls). */
function inSituNumber(region: Region): boolean {
  return Boolean(region.inSitu?.step ?? region.inSitu?.call);
}

/** The compiled time an answer's number rests on, per its unit: "0.67 ms" a call, "0.70 ms/step". */
function compiledOf(n: AnswerNumber | null | undefined): string | null {
  if (n?.compiledMs === undefined) return null;
  return `${formatMs(n.compiledMs)}${n.unit === 'call' ? '' : `/${n.unit}`}`;
}

export function digestRegion(region: Region): RegionDigest {
  const compileCalls = region.calls.filter((c) => c.event !== 'cached');
  const reported = compileCalls.filter((c) => c.compileSeconds != null);
  const measurements = region.measurements.map((m, k) => digestMeasurement(region, m, k));
  const inSitu = digestInSitu(region);
  // a torchrun job's recompiles are every rank's, each with its ranks; the rest of the region is rank 0's
  const elsewhere = (region.compiler?.recompiles ?? []).filter((r) => r.ranks && !r.ranks.includes(0));
  const digest: Omit<RegionDigest, 'facts'> = {
    id: region.id,
    label: regionLabel(region),
    name: region.name,
    kind: region.kind,
    file: region.location?.file ?? null,
    line: region.location?.line ?? null,
    cell: region.location?.cell ?? null,
    mode: scriptMode(region),
    modeText: region.modeText ?? null,
    calls: region.callCount,
    compiles: compileCalls.length,
    // the compiler's own list counts past the recorded calls' cut-off; the calls say it when there is no such list
    recompiles: region.compiler
      ? region.compiler.recompiles.length - elsewhere.length
      : compileCalls.filter((c) => c.event === 'recompiled').length,
    graphs: region.compiler?.graphCount ?? null,
    graphBreaks: region.compiler?.graphBreaks.length ?? 0,
    eagerCalls: region.calls.filter((c) => c.ranCompiled === false).length,
    compileSeconds: reported.length
      ? (region.compiler?.compileSeconds?.['total'] ?? reported.reduce((sum, c) => sum + c.compileSeconds!, 0))
      : null,
    steadyFromCall: region.steadyState?.fromCall ?? null,
    steadyMs: region.steadyState?.medianMs ?? null,
    notMeasured: inSituNumber(region) ? null : notReplayed(region),
    notReplayed: inSituNumber(region) ? notReplayed(region) : null,
    replayLeftOut: region.replay.leftOut ?? null,
    measurements,
    recommendation: region.recommendation ?? null,
    verdict: region.answer?.verdict ?? region.recommendation?.verdict ?? null,
    number: region.answer?.number?.text ?? null,
    numberCompiled: compiledOf(region.answer?.number),
    story: regionStory(region),
    inSitu,
    noCompiledCode: region.noCompiledCode?.headline ?? null,
    cudaGraphs: cudaGraphLines(region.compiler),
    headline: regionHeadline(region),
    measureShapeFix: region.shapes?.measure?.title ?? null,
  };
  return { ...digest, facts: region.facts ?? olderFacts(digest) };
}

const KIND_TEXT: Record<Region['kind'], string> = {
  module: 'torch.compile(module)',
  function: 'torch.compile(function)',
  'module-compile': 'Module.compile()',
};

/** "recommendation: Use default: …" — the runner's reason already says the verdict: it is printed once. */
export function recommendationLine(recommendation: Recommendation): string {
  return `recommendation: ${recommendation.reason}`;
}

/** A measurement's numbers as the CLI line and the report panel's table cells both say them (null: not measured). */
export function measurementCells(m: RegionMeasurementDigest): {
  speedup: string | null;
  /** which way it points, where the runner says it backs one: the panel colours it and says the word */
  direction: 'faster' | 'slower' | null;
  directionText: string | null;
  nextRun: string | null;
  compiled: string | null;
  eager: string | null;
  kernels: string | null;
  compile: string | null;
  breakEven: string | null;
} {
  return {
    speedup: m.speedup === null ? null : formatSpeedup(m.speedup),
    direction: m.direction,
    directionText: m.directionText,
    // where another run may land; reports before the interval have the rounds' spread, said as what it is
    nextRun:
      m.speedup === null
        ? null
        : m.interval
          ? formatInterval(m.interval.low, m.interval.high, m.speedup)
          : m.spreadPct === null || m.numberText
            ? null
            : formatSpread(m.spreadPct),
    ...timesOfSpeedup(m),
    kernels:
      m.kernelsPerStep === null
        ? null
        : `${m.eagerKernelsPerStep === null ? '' : `${formatCount(m.eagerKernelsPerStep)} → `}${formatCount(m.kernelsPerStep)}`,
    // a what-if mode's first call on these inputs in the replay: not the script's compile (its facts say that one)
    compile: m.compileSeconds === null ? null : formatSeconds(m.compileSeconds),
    breakEven: m.breakEvenCalls === null ? null : formatBreakEven(m.breakEvenCalls, 'call'),
  };
}

function measurementLine(m: RegionMeasurementDigest): string {
  const inputs = m.inputs
    ? ` on ${m.why === 'last' ? 'the last' : m.why === 'most-frequent' ? 'the most frequent' : 'captured'} inputs ${m.inputs}${m.signatureCalls !== null ? ` (${plural(m.signatureCalls, 'call')})` : ''}`
    : '';
  if (m.status === 'error')
    return `${m.label}${inputs}: failed${m.errorSaid ? '' : ` — ${m.error ?? 'unknown error'}`}`;
  if (m.notMeasured) return `${m.label}${inputs}: not measured. ${m.notMeasured}`;
  // the runner's line (schema 1.28: report/mode_line.py); a report before it: its fields, said the same way
  if (m.measuredText) return m.measuredText;
  const c = measurementCells(m);
  const facts: string[] = [];
  // the runner's words for its number (schema 1.21); a report before them: its recorded speedup and spread
  if (m.numberText) facts.push(m.numberText);
  else if (c.speedup !== null) facts.push(`${c.speedup}${c.nextRun === null ? '' : ` (${c.nextRun})`}`);
  // the eager time said as how it was made, the rounds' fastest (a region's replay has always estimated so)
  const rounds = m.pairs ? `, fastest rounds of ${m.pairs} interleaved pairs` : ' in the same rounds';
  if (c.compiled !== null) facts.push(`${c.compiled}/call${c.eager !== null ? ` vs eager ${c.eager}${rounds}` : ''}`);
  if (m.eagerKernelsPerStep !== null && c.kernels !== null) facts.push(`${m.counted}/call ${c.kernels}`);
  if (c.compile !== null) facts.push(`the replay compiled these inputs with ${m.label} in ${c.compile}`);
  if (c.breakEven !== null) facts.push(`break-even after ${c.breakEven}`);
  return `${m.label}${inputs}: ${facts.join(', ') || 'no timing recorded'}`;
}

/** A report before schema 1.32 (no region.facts): its counts, said without the runner's words for a torchrun job's
 * ranks or a call that recompiled several frames. */
function olderFacts(d: Omit<RegionDigest, 'facts'>): string[] {
  const facts = [plural(d.calls, 'call')];
  if (d.graphs !== null) facts.push(plural(d.graphs, 'graph'));
  if (d.graphBreaks) facts.push(plural(d.graphBreaks, 'graph break'));
  if (d.recompiles) facts.push(plural(d.recompiles, 'recompile'));
  if (d.eagerCalls) facts.push(`${plural(d.eagerCalls, 'call')} ran eagerly`);
  if (d.compileSeconds !== null)
    facts.push(
      `${formatSeconds(d.compileSeconds)} ${d.graphs === 0 ? 'trying to compile' : 'compiling'} in the script's own calls`,
    );
  return facts;
}

/** The CLI's lines for one region: what the script did with it, each measurement, its story and its verdict. */
export function formatRegion(d: RegionDigest): string[] {
  const where =
    d.file !== null && d.line !== null ? ` — ${placeLabel({ file: d.file, line: d.line, cell: d.cell })}` : '';
  // in situ first (the script's own steps); the replay's numbers after it, labelled as what they measured
  const lines = [
    `  ${d.label}${where} (${[KIND_TEXT[d.kind], d.modeText].filter(Boolean).join(', ')}): ${d.facts.join(', ')}`,
    `    ${d.headline}`,
  ];
  lines.push(...d.cudaGraphs.map((line) => `    ${line}`));
  if (d.noCompiledCode) {
    lines.push(`    ${d.noCompiledCode}`); // in place of its timings: they compare eager code with itself
    if (d.recommendation) lines.push(`    ${recommendationLine(d.recommendation)}`);
    return lines;
  }
  if (d.inSitu) lines.push(...d.inSitu.lines.map((line) => `    ${line}`));
  for (const m of d.measurements) {
    // each replay says what it measured and its number's role, as the panel's cell does: the answer's or evidence
    lines.push(`    replay${m.role ? ` (${m.role})` : ''}: ${measurementLine(m)}`);
    if (m.mismatch) lines.push(`      ${m.mismatch}`);
    if (m.remeasured) lines.push(`      ${m.remeasured}`);
    for (const note of m.notes) lines.push(`      ${note}`);
  }
  if (d.replayLeftOut) lines.push(`    replay: left out: ${d.replayLeftOut}`);
  if (d.story) lines.push(`    ${d.story}`);
  if (d.recommendation) lines.push(`    ${recommendationLine(d.recommendation)}`);
  return lines;
}

/** `profile --script`: one block per region instead of a target's eager and mode rows; a verdict only where one was measured. */
export function formatScriptDigest(report: Report): string {
  const digest = digestReport(report);
  const regions = (report.regions ?? []).map(digestRegion);
  const out = [`Compile Lens — ${digest.header}`];
  if (digest.error) out.push(`  error: ${digest.error}`);
  if (!regions.length && report.status !== 'error')
    out.push('  no region: torch.compile returned no callable while the script ran');
  for (const region of regions) out.push(...formatRegion(region));
  const wall = wallLine(report);
  if (wall) out.push(`  ${wall}`);
  out.push(...formatRanks(report));
  // divergences are in the ranks' block; a torchrun job's findings say which ranks they happened on
  const findings = digest.findings.filter((f) => f.kind !== 'divergence');
  if (findings.length) {
    out.push('  findings:');
    for (const f of findings) {
      // as Problems says it (findingMessage): the count and ranks beside the kind, its code spans quoted
      out.push(
        `    ${placeLabel(f, true)}  ${f.kind}${countTag({ ...f, ranks: f.ranks ?? null, worldSize: report.ranks?.length ?? null })}: ${plainSaid(findingText(f))}`,
      );
      if (f.fix) out.push(`      fix: ${f.fix}`);
    }
  }
  if (regions.length > 1) out.push(`  ${recommendationLine(report.recommendation)}`);
  return out.join('\n');
}

/** A region's headline and then which region it is: "compile it: 1.84× (default) · 2 graphs — TinyTransformer" (the
 * answer first, so that a line cut to fit keeps it). */
export const regionLine = (d: RegionDigest): string => `${d.headline} — ${d.label}`;

/** A finished run in a few lines (the extension's log): a target's headline, or one line per region of a script. */
export function runSummary(report: Report): string {
  if (report.target.kind !== 'script') return runHeadline(report);
  const regions = (report.regions ?? []).map(digestRegion);
  if (!regions.length)
    return report.status === 'error'
      ? 'The script failed before torch.compile returned a callable.'
      : 'torch.compile returned no callable while the script ran.';
  return regions
    .map(
      (r) =>
        `${r.label}${r.file !== null && r.line !== null ? ` (${placeLabel({ file: r.file, line: r.line, cell: r.cell })})` : ''}: ${r.headline}`,
    )
    .join('\n');
}
