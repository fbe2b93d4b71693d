// DOM parts around the timelines: report header, details of the selected slice, compare tables.
// Every string from a report or trace goes in through textContent (el()), never as HTML.
import type { Report } from '../extension/shared/report.ts';
import { digestReport, modeCells, titleWords, type ReportDigest } from '../extension/present/reportDigest.ts';
import { kernelCountNames } from '../extension/present/workCounts.ts';
import {
  formatCount,
  formatUs,
  formatUsLike,
  keepUnits,
  plural,
  shownUs,
  splitTimes,
} from '../extension/present/numbers.ts';
import { tableTime, type TraceComparison } from './analysis/compare.ts';
import { sharedUnit } from './analysis/stepMap.ts';
import { KERNEL_ARG_FIELDS, type TraceModel } from '../extension/shared/trace/model.ts';
import { placeLabel } from '../extension/shared/sourcePlace.ts';
import { explanation, splitTerms } from '../extension/present/glossary.ts';
import { kernelArg } from '../extension/present/kernelArgs.ts';
import { followSaid, sourceLink, type Reveal } from './sourceLinks.ts';
import {
  calledAsHeading,
  onlyInHeading,
  calledAsName,
  comparisonCaveat,
  profiledStepChange,
  comparisonTitle,
  insideTooltip,
  stepGrewOutsideKernels,
  kernelListHeading,
  kernelListTime,
  sliceKindName,
} from './compareWords.ts';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) appendKeptTimes(node, text);
  return node;
}

/** `text` appended to `node`, each time with its unit in a span that does not wrap: a heading or a line never breaks
 *  "9.65" from "s" (review 16 X6), and its text reads as it did (no no-break space in what a reader copies). */
function appendKeptTimes(node: HTMLElement, text: string): void {
  const parts = splitTimes(text);
  if (!parts.some((part) => part.time)) node.append(text);
  else
    for (const part of parts) {
      if (!part.time) node.append(part.text);
      else {
        const time = document.createElement('span');
        time.className = 'nowrap';
        time.textContent = part.text;
        node.append(time);
      }
    }
}

/** A change as a signed share: "+84%", "−93%" (a minus sign, not a hyphen), "0%" where it rounds to none. */
export function formatChange(ratio: number): string {
  const pct = Math.round(ratio * 100);
  return pct === 0 ? '0%' : `${pct > 0 ? '+' : '−'}${Math.abs(pct)}%`;
}

/** A timeline legend's entry: a slice kind's swatch (its class kind-N) and its words, on one line when the legend wraps. */
export function swatchEntry(kind: number | 'communication', label: string): HTMLElement {
  const entry = el('span', 'legend-entry');
  entry.append(el('span', `swatch kind-${kind}`), el('span', 'legend-label', label));
  return entry;
}

/** A speedup's cell: coloured, and its word ("faster", "slower") after it, only where the runner says the number points
 *  that way; a number too noisy (or timed on a busy host) gets the runner's word for that and no colour. */
export function speedupCell(
  text: string,
  cells: { direction: 'faster' | 'slower' | null; directionText: string | null },
): HTMLTableCellElement {
  const cell = el('td', cells.direction ?? undefined, text);
  const word = cells.directionText ?? cells.direction;
  // the runner's words for a number say "too noisy to say" themselves: not twice
  if (text && word && !text.includes(word)) cell.dataset['said'] = word;
  return cell;
}

/** `text` into `node`, each compiler term in it (glossary.ts) marked with its explanation as a tooltip. */
export function appendTerms(node: HTMLElement, text: string): void {
  // the runner quotes the user's code as `code` (a fix's condition, an op): shown as code, never as backticks
  const spans = text.split(/`([^`]+)`/);
  if (spans.length > 1) {
    spans.forEach((span, k) => (k % 2 ? node.append(el('code', undefined, span)) : appendTerms(node, span)));
    return;
  }
  for (const part of splitTerms(text)) {
    if (!part.term) {
      appendKeptTimes(node, part.text);
      continue;
    }
    const term = el('span', 'term', part.text);
    term.title = part.term.explanation;
    node.append(term);
  }
}

/** el() whose text marks each compiler term in it (glossary.ts) with its explanation as a tooltip. */
export function termEl<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string | undefined,
  text: string,
): HTMLElementTagNameMap[K] {
  const node = el(tag, className);
  appendTerms(node, text);
  return node;
}

/** termEl() for the runner's sentence about `own` (the file or cell its bare "line 9" is in): the lines it names
 *  follow the user's edits (sourceLinks.followSaid). */
export function saidEl<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string | undefined,
  text: string,
  own: { file: string; cell?: number | null } | null,
): HTMLElementTagNameMap[K] {
  return followSaid(el(tag, className), own, text, appendTerms);
}

/** The host's 'beforeEdit': a banner under the panel's title that the report is older than the user's edit (its note,
 *  BEFORE_EDIT), once; the next run's report replaces the panel, and the banner with it. */
export function showBeforeEdit(app: HTMLElement, note: string): void {
  if (app.querySelector('.before-edit')) return;
  const banner = el('p', 'warning before-edit', note);
  banner.setAttribute('role', 'status');
  const title = app.querySelector('h1');
  if (title) title.after(banner);
  else app.prepend(banner);
}

/** Speedup per mode with where the next run may land, kernels/step eager → compiled (a CPU run's CPU ops), what the numbers rest on
 *  (launch-bound eager, correctness reference, TF32 settings), graph breaks, recommendation (a script's: its regions'
 *  answers, below): the same digest the CLI prints and the CodeLens shows, so the three never disagree. What was not
 *  measured is said in words. */
export function renderReportHeader(report: Report, reveal: Reveal): HTMLElement {
  const digest = digestReport(report);
  const header = el('section', 'report');
  // compiler logs (inspect): nothing was run here, the log does not say on which machine; no timing table
  const fromLogs = report.target.kind === 'logs';
  header.append(
    el(
      'h2',
      undefined,
      fromLogs ? `${titleWords(report)} — compiler logs` : `${titleWords(report)} — ${report.environment.deviceName}`,
    ),
  );
  // a script's numbers are its regions' (rendered below the header): its single 'script' entry times nothing
  if (report.target.kind !== 'script' && !fromLogs) header.append(modesTable(digest));

  // what the columns mean (each mode's pairs are in its line): no number of the report's in it, the glossary's words
  // the runner's legend (report.speedupNote); a report before it: the glossary's words
  const legend =
    report.speedupNote ?? (digest.modes.some((m) => m.interval && m.pairs) ? explanation('next run') : null);
  if (legend) header.append(el('p', 'note', legend));
  if (digest.launchBoundNote) header.append(el('p', 'note', digest.launchBoundNote));
  if (digest.precision) header.append(el('p', 'note', `Outputs compared under ${digest.precision}.`));

  const breaks = digest.findings.filter((f) => f.kind === 'graph-break');
  // no heading over an empty list: a report without graph breaks says nothing of them here
  if (breaks.length) header.append(breakList(breaks, reveal));
  // a script's answer is its regions' (each says its own below, once); the run's stands where there is no region
  if (report.target.kind !== 'script' || !report.regions?.length) {
    const own = report.target.file ? { file: report.target.file } : null;
    header.append(saidEl('p', 'recommendation', `Recommendation: ${digest.recommendation.reason}`, own));
  }
  return header;
}

/** The graph breaks, each in the runner's words where it has them (PyTorch's otherwise), then its fix and a link to
 *  its line, named by the file's base name (the full path in the link's title); a notebook's by its cell
 *  ("explore.ipynb cell 3, line 2"), which it opens in the notebook editor. */
function breakList(breaks: ReportDigest['findings'], reveal: Reveal): HTMLElement {
  const breakSection = el('div', 'breaks');
  // one item per line and fix (the runner's breakSites), one that broke more than once there ×N, as Problems says it;
  // the heading counts the breaks those items stand for, as the region's facts and the rank table do (review 5C M9:
  // "2 graph breaks" over an item and a "×2" item). A torchrun job's items say each rank's count (the runner's words):
  // no one count heads them (s29: a merged "3 graph breaks" over ranks 1 and 3's 4)
  const count = breaks.reduce((n, b) => n + b.count, 0);
  const byRank = breaks.some((b) => b.countByRank !== undefined);
  breakSection.append(termEl('h3', undefined, byRank ? 'graph breaks, by rank' : plural(count, 'graph break')));
  const list = el('ul');
  for (const graphBreak of breaks) {
    const item = el('li');
    const at = { file: graphBreak.file, line: graphBreak.line, cell: graphBreak.cell ?? null };
    item.append(saidEl('span', undefined, graphBreak.what ?? graphBreak.reason, at));
    // as Problems counts it
    item.append(
      graphBreak.countByRank ? ` (${graphBreak.countByRank})` : graphBreak.count > 1 ? ` ×${graphBreak.count}` : '',
    );
    item.append(
      ' ',
      sourceLink(at, (line) => placeLabel({ ...at, line }), reveal),
    );
    // the runner's fix as it reads after "Fix:" (formats.fix_words: lower case, as every fix of the page)
    if (graphBreak.fix) item.append(saidEl('div', 'fix', `Fix: ${graphBreak.fix}`, at));
    list.append(item);
  }
  breakSection.append(list);
  return breakSection;
}

/** The modes table's value columns, by the cell each fills, and their titles: the count's by the run's device, a
 *  CPU run's of its CPU ops as its compare's rows say (review 18Y Y1: "kernels / step" of a CPU run). */
const MODE_COLUMNS = [
  ['speedup', () => 'speedup'],
  ['nextRun', () => 'next run'],
  ['perCall', () => 'per call'],
  ['kernels', (digest: ReportDigest) => `${kernelCountNames(digest.workDevice).all} / step`],
] as const;

/** Eager and each mode: speedup, where the next run may land, per-call time, kernels per step, and notes; a column
 *  no row has a value for is left out. */
function modesTable(digest: ReportDigest): HTMLElement {
  const table = el('table', 'modes');
  const failed = (mode: ReportDigest['modes'][number]): string | null =>
    mode.status === 'error'
      ? `failed: ${mode.error ?? 'unknown error'}`
      : mode.notMeasured
        ? `not measured. ${mode.notMeasured}`
        : null;
  const eager = modeCells(null, digest);
  const rows = digest.modes.map((mode) => ({ mode, whole: failed(mode), cells: modeCells(mode, digest) }));
  const measured = [eager, ...rows.filter((r) => r.whole === null).map((r) => r.cells)];
  const columns = MODE_COLUMNS.filter(([key]) => measured.some((cells) => cells[key]));
  const head = el('tr');
  for (const title of ['mode', ...columns.map(([, title]) => title(digest))]) head.append(el('th', undefined, title));
  table.append(head);
  const eagerRow = el('tr');
  eagerRow.append(
    el('td', undefined, 'eager'),
    ...columns.map(([key]) => el('td', undefined, keepUnits(eager[key] ?? ''))),
  );
  table.append(eagerRow);
  const note = (text: string): void => {
    const noteRow = el('tr');
    const cell = termEl('td', 'note', text);
    cell.colSpan = columns.length + 1;
    noteRow.append(cell);
    table.append(noteRow);
  };
  for (const { mode, whole, cells } of rows) {
    const row = el('tr');
    row.append(el('td', undefined, mode.mode));
    if (whole !== null) {
      const cell = el('td', 'error', whole);
      cell.colSpan = columns.length;
      row.append(cell);
    } else {
      row.append(
        ...columns.map(([key]) =>
          key === 'speedup'
            ? speedupCell(cells.speedup, cells)
            : // a range is one value: "0.44–0.59×", never "0.44–" over "0.59×" in a narrow panel (review 6C); a
              // time never split from its unit
              el('td', key === 'nextRun' ? 'nowrap' : undefined, keepUnits(cells[key] ?? '')),
        ),
      );
    }
    table.append(row);
    for (const text of [mode.mismatch, ...mode.notes, mode.remeasured]) {
      if (text) note(text);
    }
  }
  return table;
}

/** Kernel args said in the details' first table; the rest are the profiler's bookkeeping (its raw fields). */
const RAW_ARGS = new Set<string>(['stream', 'device', 'External id']);

/**
 * What slice i is, in words: its name as the timeline says it (`say`: a generated kernel by its graph and place),
 * kind, where and when it ran and its launch's grid and resources; the profiler's own fields (the trace's name, the
 * nesting depth, the launch's correlation and External id, stream and device numbers) under a toggle; then the
 * slices its arrows link it to (`more`: arrows past the drawn limit), each a link that follows the arrow.
 */
export function renderDetails(
  model: TraceModel,
  i: number,
  say: (nameId: number) => string,
  linked: number[],
  more: number,
  paneLabel: string,
  startedOnAxis: string,
  follow: (slice: number) => void,
): HTMLElement {
  const box = el('section', 'details');
  const nameId = model.name[i]!;
  box.append(el('h3', undefined, say(nameId)));
  const rows: [string, string][] = [
    ['kind', sliceKindName(model, i)],
    ['profile', paneLabel],
    ['ran on', model.tracks[model.track[i]!]?.name ?? '?'],
    // as the axis under it says it (its 0 is a step's start, not the profile's); "at …": a bare "582.1 µs" read as a
    // duration (reportB D22)
    ['started', `at ${startedOnAxis} on the axis`],
    ['this one took', formatUs(model.dur[i]!)],
  ];
  const raw: [string, string][] = [
    ['name in the trace', model.names[nameId] ?? '?'],
    ['nesting depth (0: outermost)', String(model.depth[i])],
    ["started, from the profile's start", formatUs(model.start[i]!)],
  ];
  if (model.correlation[i]! >= 0) raw.push(['correlation (launch ↔ kernel id)', String(model.correlation[i])]);
  const argRow = findArgsRow(model, i);
  if (argRow >= 0) {
    const values = model.kernelArgs.values.subarray(
      argRow * KERNEL_ARG_FIELDS.length,
      (argRow + 1) * KERNEL_ARG_FIELDS.length,
    );
    const triple = (at: number): string =>
      [values[at], values[at + 1], values[at + 2]].map((v) => (Number.isNaN(v) ? '?' : String(v))).join(' × ');
    if (!Number.isNaN(values[0])) rows.push(['grid (blocks)', triple(0)]);
    if (!Number.isNaN(values[3])) rows.push(['block (threads)', triple(3)]);
    for (let f = 6; f < KERNEL_ARG_FIELDS.length; f++) {
      const field = KERNEL_ARG_FIELDS[f]!;
      if (Number.isNaN(values[f])) continue;
      if (RAW_ARGS.has(field)) raw.push([field, String(values[f])]);
      else rows.push(kernelArg(field, values[f]!)); // rounded, with units
    }
  }
  box.append(factsTable(rows));
  const toggle = el('details', 'raw-fields');
  toggle.append(el('summary', undefined, 'As the profiler recorded it'), factsTable(raw));
  box.append(toggle);
  if (linked.length > 0) {
    const onGpu = model.tracks[model.track[i]!]?.gpu ?? false;
    box.append(
      el(
        'h4',
        undefined,
        `${onGpu ? 'launched by' : 'launches'} (arrows on the timeline): ${linked.length}${more ? ` (+${more} more arrows not drawn)` : ''}`,
      ),
    );
    const list = el('ul', 'linked');
    for (const j of linked.slice(0, 50)) {
      const item = el('li');
      // inline text, not a button (a block): a long kernel name wraps after its bullet, its time after its last
      // word; no href, which the VS Code webview would follow itself
      const link = el('a', 'follow', `${sliceKindName(model, j)}: ${say(model.name[j]!)}`);
      link.tabIndex = 0;
      link.setAttribute('role', 'link');
      // the trace's own name where it is said otherwise ("matrix multiply (cuBLAS)" for "sm80_xmma_gemm_…")
      const raw = model.names[model.name[j]!]!;
      link.title = `${raw === say(model.name[j]!) ? '' : `${raw}\n`}Select it and bring it into view`;
      link.addEventListener('click', () => follow(j));
      link.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') follow(j);
      });
      // no line break inside "(3.2 µs)"
      item.append(link, `\u00a0(${formatUs(model.dur[j]!).replace(' ', '\u00a0')})`);
      list.append(item);
    }
    if (linked.length > 50) list.append(el('li', undefined, `… ${linked.length - 50} more`));
    box.append(list);
  }
  return box;
}

function factsTable(rows: readonly [string, string][]): HTMLTableElement {
  const table = el('table', 'facts');
  for (const [key, value] of rows) {
    const row = el('tr');
    row.append(el('th', undefined, key), el('td', undefined, value));
    table.append(row);
  }
  return table;
}

function findArgsRow(model: TraceModel, i: number): number {
  const slices = model.kernelArgs.slice;
  let a = 0;
  let b = slices.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (slices[m]! < i) a = m + 1;
    else b = m;
  }
  return a < slices.length && slices[a] === i ? a : -1;
}

/**
 * One table per compared pair; each number cell carries its raw value in data-value. `say`: a kernel's name as each
 * side's timeline says it (a generated kernel by its graph and place; the trace's name in its tooltip).
 * `afterBreaks`: the graph breaks the report names in the after side's code (0 without a report).
 */
/** Why a side's step is longer though its kernels took less, where its step rows show it (stepGrewOutsideKernels). */
function grewOutsideKernels(comparison: TraceComparison, after: string, breaks: number): string | null {
  const [step, inside, outside] = (['step', 'inside', 'outside'] as const).map((part) =>
    comparison.rows.find((r) => r.ofStep === part),
  );
  if (!step || !inside || !outside || step.unlike) return null;
  const time = tableTime(comparison.rows);
  const said = (row: typeof step): { before: string; after: string } => ({
    before: time(row.before),
    after: time(row.after),
  });
  return stepGrewOutsideKernels(
    after,
    sharedUnit(comparison.steps.before, comparison.steps.after),
    comparison.device,
    { ...said(step), longer: step.after > step.before },
    { ...said(inside), fell: inside.after < inside.before },
    { ...said(outside), grew: outside.after > outside.before },
    breaks,
  );
}

export function renderComparison(
  beforeLabel: string,
  afterLabel: string,
  comparison: TraceComparison,
  say: Record<'before' | 'after', (name: string) => string>,
  afterBreaks = 0,
): HTMLElement {
  const section = el('section', 'compare');
  section.append(el('h3', undefined, comparisonTitle(beforeLabel, afterLabel, comparison.steps)));
  // above the table, not under it: a "−99%" read before the caveat reads as a win the verdict may deny
  section.append(el('p', 'hint compare-caveat', comparisonCaveat));
  if (comparison.unlike) section.append(el('p', 'compare-unlike', comparison.unlike));
  const table = el('table', 'compare-table');
  const head = el('tr');
  for (const title of ['', beforeLabel, afterLabel, 'change']) head.append(el('th', undefined, title));
  table.append(head);
  const time = tableTime(comparison.rows);
  // a metric both sides have none of (GPU metrics on a CPU run) says nothing
  for (const row of comparison.rows.filter((r) => r.before !== 0 || r.after !== 0)) {
    const tr = el('tr');
    tr.dataset['metric'] = row.metric;
    // one unit in the table (its longest time's): "13.0 ms → 0.87 ms", not "13.0 ms → 868.6 µs"
    const cell = (value: number): HTMLElement => {
      const td = el('td', 'num', row.unit === 'us' ? time(value) : formatCount(value));
      td.dataset['value'] = String(value);
      return td;
    };
    // the step's own length under the profiler: no %-difference, which reads as a speedup (issue 44); two values
    // that are not the same quantity have no change to say (comparison.unlike says why)
    const stepRow = row.ofStep === 'step';
    const change = row.unlike
      ? '—'
      : stepRow && row.before > 0
        ? profiledStepChange.text(shownUs(time(row.after)) / shownUs(time(row.before)))
        : row.before === 0
          ? row.after === 0
            ? '—'
            : 'new'
          : formatChange(row.after / row.before - 1);
    // the step's parts under it, indented: a drop in kernel time reads as a part of the step, not as the step
    const name = el(
      'th',
      row.ofStep && row.ofStep !== 'step' && comparison.per === 'step' ? 'part' : undefined,
      row.metric,
    );
    if (row.ofStep === 'inside') name.title = insideTooltip(comparison.device);
    const changeCell = el('td', stepRow && !row.unlike ? 'not-compared' : 'num', change);
    if (row.unlike && comparison.unlike) changeCell.title = comparison.unlike;
    else if (stepRow) changeCell.title = profiledStepChange.tooltip;
    tr.append(name, cell(row.before), cell(row.after), changeCell);
    table.append(tr);
  }
  section.append(table);
  const grew = grewOutsideKernels(comparison, afterLabel, afterBreaks);
  if (grew) section.append(el('p', 'compare-why', grew));
  const kernelList = (title: string, kernels: TraceComparison['newKernels'], side: 'before' | 'after'): void => {
    if (kernels.length === 0) return;
    const steps = comparison.steps[side];
    section.append(el('h4', undefined, kernelListHeading(title, steps, kernels.length)));
    const list = el('ul', 'kernels');
    for (const k of kernels.slice(0, 15)) {
      // its family only where its name does not say it already ("aten::conv2d", not "aten: aten::conv2d")
      const name = say[side](k.name);
      const said = name.toLowerCase().includes(k.family) ? name : `${k.family}: ${name}`;
      const item = el(
        'li',
        undefined,
        `${formatCount(k.countPer)}× ${said} — ${kernelListTime(formatUs(k.usPer), steps)}`,
      );
      item.title = k.name;
      list.append(item);
    }
    section.append(list);
  };
  kernelList(onlyInHeading(beforeLabel, comparison.device, true), comparison.disappearedKernels, 'before');
  kernelList(onlyInHeading(afterLabel, comparison.device, false), comparison.newKernels, 'after');
  if (comparison.calledAs.length) {
    section.append(el('h4', undefined, calledAsHeading(afterLabel, comparison.calledAs.length, comparison.device)));
    const list = el('ul', 'kernels called-as');
    for (const { before, after } of comparison.calledAs) {
      const times = `${formatUsLike(before.usPer, Math.max(before.usPer, after.usPer))} → ${formatUsLike(after.usPer, Math.max(before.usPer, after.usPer))}`;
      const said = calledAsName(say.before(before.name), say.after(after.name), afterLabel);
      list.append(el('li', undefined, `${formatCount(before.countPer)}× ${said} — ${times}`));
    }
    section.append(list);
  }
  const spans = [
    ...comparison.compileSpans.before.map((s) => [beforeLabel, s] as const),
    ...comparison.compileSpans.after.map((s) => [afterLabel, s] as const),
  ];
  for (const [label, span] of spans)
    section.append(
      el(
        'p',
        'compile-warning',
        `${label}: compile inside the profiled region — ${span.name}, ${formatUs(span.durUs)}`,
      ),
    );
  return section;
}
