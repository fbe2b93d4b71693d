// Two runs of the same file side by side (the Runs view's "Compare with…"): did the fix help? Per region (a script),
// named by its function and line, or per mode (a target): each run's verdict and number in the runner's words, then
// time per call, kernels per step (a CPU run's CPU ops), compile time, graphs, breaks and recompiles, and the region's facts that changed;
// then the graph breaks and recompiles the later run no longer has, and those it added. Pure: the host reads the two
// reports, the compare panel (webview/runCompare.ts) draws what this returns.
import { directionOf } from './answer.ts';
import { collectFindings, type Finding } from './findings.ts';
import { digestRegion, headlineMeasurement, type RegionDigest } from './regionDigest.ts';
import { digestReport, speedupText, targetWords, timesOfSpeedup, type ModeDigest } from './reportDigest.ts';
import { runHeadline } from './headline.ts';
import { clockOf, runListEntry } from './runList.ts';
import type { ComparedBlock, ComparedRun, RunComparison } from '../shared/protocol.ts';
import type { AnswerNumber, Report } from '../shared/report.ts';
import { baseName } from '../shared/fileName.ts';
import { cellLineLabel } from '../shared/sourcePlace.ts';
import { formatCount, formatMs, formatSeconds, formatSpeedup, formatTimesOfRatio, plural } from './numbers.ts';
import { kernelCountNames, workDevice, type WorkDevice } from './workCounts.ts';

const text = (value: number | null, format: (v: number) => string): string => (value === null ? '—' : format(value));

// each side's time on a row of its own (review 5C Y3: "per call 0.0738 → 0.0363 ms" read as both sides'; G10: the
// compiled time alone, 16.3 µs → 16.8 µs under 1.04× → 1.05×, left the ratio's rise untraceable): the first two are
// said per what each run's time is of (Side.quantity)
const MEASURES = ['compiled per call', 'eager per call', 'count', 'compile', 'graphs', 'graph breaks', 'recompiles'];
/** A script region's compile row, in the words of the facts that say its number ("2.52 s compiling in the script's
 *  own calls", report/sentences.region_facts): the compiler's total over the script's calls, every frame of them, not
 *  one frame's compile nor one call's (review 17Y Y4: a bare "compile 2.52 s" beside the Compiler view's "scale 1
 *  compile, 2.51 s" read as one region's compile at two values); a notebook's run's, "the notebook's", as its facts say
 *  (settings.notebook; review 19X X4). */
const scriptCompile = (whose: 'script' | 'notebook') => `compiling in the ${whose}'s own calls`;
/** The rows of times, by the side each is of. */
const TIMES = ['compiled', 'eager'] as const;

/** One side of a block: its answer, then a value per measure in MEASURES' order, what its time is of ("per step in
 *  situ", "per call replayed"; null: no time), its speedup with its range (null: none), and the region's facts (null:
 *  not in this run). */
interface Side {
  answer: string;
  values: string[];
  quantity: string | null;
  speedup: Speedup | null;
  facts: string[] | null;
  /** the device its count is of (null: not run): a CPU's is of CPU ops, a GPU's of kernels */
  device: WorkDevice | null;
}

/** A side's speedup and where its next run may land (no range: an older report, or one too noisy to say). */
interface Speedup {
  value: number;
  range: { low: number; high: number } | null;
  /** what it is a ratio of times of: "per call replayed" */
  quantity: string;
  /** it points a way the runner backs (faster or slower): not too noisy, not timed on a busy host */
  directed: boolean;
}

const absent = (answer: string): Side => ({
  answer,
  values: MEASURES.map(() => ''),
  quantity: null,
  speedup: null,
  facts: null,
  device: null,
});

/** Where both runs' speedups are of one quantity and each lies inside the other's range, the change between them is
 *  not measured, whichever way the two numbers point: said so in words (review 14S S0: "1.04× → 1.05×" beside times
 *  that fell read as two directions); null otherwise. */
function unmeasuredChange(before: Side, after: Side): string | null {
  const [was, now] = [before.speedup, after.speedup];
  if (!was?.range || !now?.range || was.quantity !== now.quantity) return null;
  // a busy host's or a too-noisy number says no change either way: its own words ("host busy, not trusted") stay
  if (!was.directed || !now.directed) return null;
  const inside = (v: number, r: { low: number; high: number }) => r.low <= v && v <= r.high;
  if (!inside(was.value, now.range) || !inside(now.value, was.range)) return null;
  return `no measurable change: ${formatSpeedup(was.value)} → ${formatSpeedup(now.value)} ${now.quantity}, each inside the other's range`;
}

/** The eager and compiled times a speedup is the ratio of, at the digits where they divide to it as shown. */
const timesOf = (r: { eagerMs: number; compiledMs: number }, speedup: number): [string, string] =>
  formatTimesOfRatio(r.eagerMs, r.compiledMs, speedup);

/** What a region's number is a time of, in the words its number says it ("1.31× per step in situ"). */
const QUANTITY: Record<AnswerNumber['kind'], (unit: AnswerNumber['unit']) => string> = {
  'in-situ-step': (unit) => `per ${unit} in situ`,
  'in-situ-call': () => 'per call in situ',
  'replay-call': () => 'per call replayed',
  'target-rounds': () => 'per call',
};

/** A row of times (k: 0 compiled, 1 eager): one quantity in both runs ("compiled per step in situ": "0.471 ms");
 *  where the runs' numbers are of different quantities (one run's step in situ, the other's call replayed: 10× apart,
 *  review s29), no one measure is both, and the row says so, each value with its own ("0.471 ms per step in situ"). */
function timeRow(before: Side, after: Side, k: 0 | 1): { measure: string; values: [string, string] } {
  const said = [before.quantity, after.quantity].filter((q): q is string => q !== null);
  const [was, now] = [before.values[k]!, after.values[k]!];
  if (said.length < 2 || said[0] === said[1])
    return { measure: `${TIMES[k]} ${said[0] ?? 'per call'}`, values: [was, now] };
  return {
    measure: `${TIMES[k]} time, not the same quantity in both runs`,
    values: [`${was} ${before.quantity!}`, `${now} ${after.quantity!}`],
  };
}

const kernelsText = (eager: number | null, compiled: number | null | undefined): string =>
  compiled == null ? '—' : `${eager === null ? '' : `${formatCount(eager)} → `}${formatCount(compiled)}`;

/** The row of counts, named as the panel names them by the device they are of ("kernels / step", a CPU run's "CPU
 *  ops / step"; a region's replay "CPU ops / call", the panel's replay column; review 18Y Y1: "kernels / step 5 → 2"
 *  of two CPU runs); where the runs ran on unlike devices, no one name is both's, and each value says its own. */
function countRow(before: Side, after: Side, unit: 'step' | 'call'): { measure: string; values: [string, string] } {
  const [was, now] = [before.values[2]!, after.values[2]!];
  const devices = [...new Set([before.device, after.device].filter((d): d is WorkDevice => d !== null))];
  if (devices.length < 2)
    return { measure: `${kernelCountNames(devices[0] ?? 'GPU').all} / ${unit}`, values: [was, now] };
  const said = (value: string, device: WorkDevice | null) =>
    value && value !== '—' && device ? `${value} ${kernelCountNames(device).all}` : value;
  return {
    measure: `kernels or CPU ops / ${unit}, as each run's device counts`,
    values: [said(was, before.device), said(now, after.device)],
  };
}

/** A mode's side: the runner's words for its number, its time per call and the eager it rests on, and its counts. */
function modeSide(m: ModeDigest | null, eagerKernels: number | null, device: WorkDevice): Side {
  if (!m) return absent('not run');
  if (m.status === 'error') return absent(`failed: ${m.error ?? 'unknown error'}`);
  // the times the answer's speedup is the ratio of; a report before answers held them: its pairs' fastest rounds
  const times = timesOfSpeedup(m);
  const [eager, compiled] = [times.eager ?? '—', times.compiled ?? '—'];
  return {
    answer: m.speedup === null ? `not measured${m.notMeasured ? `. ${m.notMeasured}` : ''}` : speedupText(m),
    values: [
      compiled,
      eager,
      kernelsText(eagerKernels, m.kernelsPerStep),
      text(m.compileSeconds, formatSeconds),
      text(m.graphCount, String),
      String(m.graphBreaks),
      String(m.recompiles),
    ],
    quantity: 'per call',
    speedup:
      m.speedup === null
        ? null
        : { value: m.speedup, range: m.interval, quantity: 'per call', directed: m.direction !== null },
    facts: [],
    device,
  };
}

/** A region's side: the runner's one line for it (its verdict first), the compiled and eager times its number is the
 *  ratio of (else the steady state's median of the script's compiled calls, and no eager) and what they are times of,
 *  its headline measurement's kernels, its counts and its facts. */
function regionSide(d: RegionDigest | undefined, number: AnswerNumber | null, device: WorkDevice): Side {
  if (!d) return absent('not in this run');
  const m = headlineMeasurement(d);
  // the time bare: the row's measure says what it is of (timeMeasure)
  const ratioOf =
    number?.eagerMs !== undefined && number.compiledMs !== undefined
      ? { eagerMs: number.eagerMs, compiledMs: number.compiledMs }
      : null;
  const [eager, compiled] = ratioOf && number ? timesOf(ratioOf, number.value) : ['—', text(d.steadyMs, formatMs)];
  const quantity =
    ratioOf && number ? QUANTITY[number.kind](number.unit) : d.steadyMs === null ? null : 'per call, steady state';
  return {
    answer: d.headline,
    quantity,
    speedup: number
      ? {
          value: number.value,
          range: number.low !== undefined && number.high !== undefined ? { low: number.low, high: number.high } : null,
          quantity: QUANTITY[number.kind](number.unit),
          directed: directionOf(number) !== null,
        }
      : null,
    values: [
      compiled,
      eager,
      kernelsText(m?.eagerKernelsPerStep ?? null, m?.kernelsPerStep),
      text(d.compileSeconds, formatSeconds),
      text(d.graphs, String),
      String(d.graphBreaks),
      String(d.recompiles),
    ],
    facts: d.facts,
    device,
  };
}

/** A block of the two sides; what changed is said where the region is in both runs (else its answer says so). Its
 *  compile row named `compile` (a script region's: scriptCompile), its counts per `unit` (a region's replay: per
 *  call). */
function block(
  title: string,
  before: Side,
  after: Side,
  compile = 'compile',
  unit: 'step' | 'call' = 'step',
): ComparedBlock {
  const [was, now] = [before.facts ?? [], after.facts ?? []];
  const both = before.facts !== null && after.facts !== null;
  return {
    title,
    answer: [before.answer, after.answer],
    change: unmeasuredChange(before, after),
    rows: MEASURES.map((measure, k) =>
      k === 0 || k === 1
        ? timeRow(before, after, k)
        : k === 2
          ? countRow(before, after, unit)
          : { measure: measure === 'compile' ? compile : measure, values: [before.values[k]!, after.values[k]!] },
    ),
    changed: both ? [was.filter((f) => !now.includes(f)), now.filter((f) => !was.includes(f))] : [[], []],
  };
}

/** A region is the same across runs where its name and torch.compile line are; its id may differ. */
const regionKey = (d: RegionDigest): string => `${d.name}@${d.cell ?? ''}@${d.line ?? ''}`;

/** "scale (line 12)", "scale (cell 3, line 7)": the region as the user wrote it, not its id. */
const regionTitle = (d: RegionDigest): string =>
  d.line === null
    ? d.name
    : `${d.name} (${d.cell === null ? `line ${d.line}` : cellLineLabel({ cell: d.cell, line: d.line })})`;

const findingKey = (f: Finding): string => `${f.kind}|${f.file}|${f.cell ?? ''}|${f.line}|${f.reason}`;

function findingLine(f: Finding): string {
  const where = `${baseName(f.file)}${f.cell != null ? ` cell ${f.cell + 1}` : ''}:${f.line}`;
  return `${f.kind === 'graph-break' ? 'graph break' : 'recompile'} at ${where}: ${f.what ?? f.reason}`;
}

/** When each run was made, as its Runs view row says it; the newer run's day is not said again when it is the
 *  older's ("Nov 29 00:52:10 → 00:53:01"). */
function whens(before: Report, after: Report, now: Date): [string, string] {
  const [was, is] = [clockOf(before.createdAt, now), clockOf(after.createdAt, now)];
  const sameDay = new Date(before.createdAt).toDateString() === new Date(after.createdAt).toDateString();
  return [was, sameDay ? is.split(' ').pop()! : is];
}

/** The compare's tab: "Compare b_item 00:52:10 → 00:53:01" (report4B M13: "Preview Compile Lens: compare …"), named
 *  as the runs' tabs name them, at the times their rows say. */
export function compareTitle(before: Report, after: Report, now = new Date()): string {
  const [was, is] = whens(before, after, now);
  return `Compare ${targetWords(after)} ${was} → ${is}`;
}

/** The comparison of `before` with `after` (older first). */
export function compareRuns(before: Report, after: Report, now = new Date()): RunComparison {
  const script = before.target.kind === 'script' || after.target.kind === 'script';
  const [was, is] = whens(before, after, now);
  const run = (report: Report, when: string): ComparedRun => ({
    when,
    // a script's run headline is one region's (" — scale"): its regions' blocks say each
    headline: script ? null : runHeadline(report),
  });
  const blocks: ComparedBlock[] = [];
  if (script) {
    // a region's count is of the device its calls ran on, as the panel's replay column and the runner's line say it
    const regions = (r: Report) =>
      new Map(
        (r.regions ?? []).map((region) => {
          const d = digestRegion(region);
          const device = workDevice(region.device);
          return [regionKey(d), { d, number: region.answer?.number ?? null, device }];
        }),
      );
    const [a, b] = [regions(before), regions(after)];
    const side = (r: { d: RegionDigest; number: AnswerNumber | null; device: WorkDevice } | undefined): Side =>
      r ? regionSide(r.d, r.number, r.device) : regionSide(undefined, null, 'GPU');
    const compile = scriptCompile(before.settings['notebook'] || after.settings['notebook'] ? 'notebook' : 'script');
    for (const key of new Set([...a.keys(), ...b.keys()]))
      blocks.push(
        block(regionTitle((b.get(key) ?? a.get(key))!.d), side(a.get(key)), side(b.get(key)), compile, 'call'),
      );
  } else {
    const [a, b] = [digestReport(before), digestReport(after)];
    for (const mode of new Set([...a.modes, ...b.modes].map((m) => m.mode)))
      blocks.push(
        block(
          mode,
          modeSide(a.modes.find((m) => m.mode === mode) ?? null, a.eagerKernelsPerStep, a.workDevice),
          modeSide(b.modes.find((m) => m.mode === mode) ?? null, b.eagerKernelsPerStep, b.workDevice),
        ),
      );
  }
  const sites = (r: Report) =>
    new Map(
      collectFindings(r)
        .filter((f) => f.kind === 'graph-break' || f.kind === 'recompile')
        .map((f) => [findingKey(f), f]),
    );
  const [a, b] = [sites(before), sites(after)];
  const gone = [...a].filter(([k]) => !b.has(k)).map(([, f]) => findingLine(f));
  const added = [...b].filter(([k]) => !a.has(k)).map(([, f]) => findingLine(f));
  return {
    name: runListEntry(after, '', now).name,
    runs: [run(before, was), run(after, is)],
    blocks,
    gone,
    added,
    sameSites: gone.length || added.length ? null : `The same ${plural(a.size, 'site')} in both runs.`,
  };
}
