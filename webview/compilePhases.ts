// Compile time on a timeline: per mode, one row per compile (named by its function: compileNames.ts, and by its
// region in a script's report), its phases as nested bars (Dynamo,
// AOT Autograd, Inductor, codegen, kernel compile, autotune) and its cache lookups as markers over them (filled: a
// hit), so a slow compile shows which graph and which phase it was; a legend under them says what each colour and
// marker is. Bars are SVG placed by a d3 scale in % of the row.
import { scaleLinear, select } from 'd3';
import type { CompilePhase, CompilerInsight, ModeResult, Report } from '../extension/shared/report.ts';
import { compileName } from '../extension/present/compileNames.ts';
import { explanationsOf } from '../extension/present/glossary.ts';
import { formatMs, formatTimeTicks, formatUs, plural } from '../extension/present/numbers.ts';
import type { SourcePlace } from '../extension/shared/sourcePlace.ts';
import { compilePlace } from './analysis/sliceNames.ts';
import { appendTerms, el } from './panels.ts';
import { followSaid } from './sourceLinks.ts';
import { LEAST_BAR, type ChartLane, type LaneBar } from './phaseLabelLane.ts';
import { placeChartLabels } from './phaseLabelLayout.ts';
import { partOf } from './phaseLabelParts.ts';
import { markerGoesUp, type BarSpan } from './phaseMarkers.ts';
import { phaseInsideWords, phaseLabelForms, phasesUnlabelled } from './timelineWords.ts';

const SVG = 'http://www.w3.org/2000/svg';
const ROW = 16;
const MAX_COMPILES = 40;

/** What each bar colour (phaseClass) is, in the legend's order. */
export const PHASE_LEGEND: [string, string][] = [
  ['phase-dynamo', 'Dynamo (tracing, guards)'],
  ['phase-backend', 'backend compile'],
  ['phase-aot', 'AOT Autograd'],
  ['phase-inductor', 'Inductor'],
  ['phase-codegen', 'code generation'],
  ['phase-load', 'loading the generated code (building its C++ where it is not built yet)'],
  ['phase-kernel', 'kernel compile (C++ or Triton)'],
  ['phase-autotune', 'autotuning'],
  ['phase-cache', 'cache'],
];
/** The C++ compile's colour on a CPU run, where Inductor builds no Triton kernel. */
const CPU_KERNEL_LEGEND = 'C++ compile';
const CACHE_LEGEND: [string, string][] = [
  // a hit still loads the cached code (and may build it): that time is the "load from cache" bar, not a compile
  ['cache-hit', "cache hit (loading what it found takes the 'load from cache' bar's time)"],
  ['cache-miss', 'cache miss'],
];

/** The cache marker's diamond, centred on its phase's start. */
const DIAMOND = `M0,2 L5,${ROW / 2} L0,${ROW - 2} L-5,${ROW / 2} Z`;

/** CSS class of a phase's bar, by what part of the compiler it is. */
function phaseClass(phase: CompilePhase): string {
  if (phase.cache) return phase.cache === 'hit' ? 'cache-hit' : 'cache-miss';
  const name = phase.name.toLowerCase();
  for (const [needle, cls] of [
    ['autotune', 'autotune'],
    ['kernel compile', 'kernel'],
    ['c++ compile', 'kernel'],
    ['load module', 'load'],
    ['codegen', 'codegen'],
    ['inductor', 'inductor'],
    ['aot', 'aot'],
    ['backward', 'aot'],
    ['cache', 'cache'],
    ['backend', 'backend'],
  ] as const) {
    if (name.includes(needle)) return `phase-${cls}`;
  }
  return 'phase-dynamo';
}

/** A phase's time as the timeline says its slice's: under 1 ms in µs (formatUs: "985 µs"), else as every compile time
 *  (formatMs) (review 19Z Z6: "0.985 ms", the chart's only time under 1 ms said in ms). */
const phaseTime = (ms: number): string => (ms > 0 && ms < 1 ? formatUs(ms * 1000) : formatMs(ms));

/**
 * What the log names inside a phase and what it does not: "Inside it the log names 10 × C++ compile: 11.8 s of
 * 54.6 s; …" (the rest of a long codegen bar is work the log times no step of). `phases`: its compile's.
 */
function stepsInside(phase: CompilePhase, phases: readonly CompilePhase[]): string {
  const end = phase.startMs + phase.durMs;
  const nested = phases.filter(
    (p) => !p.cache && p.depth === phase.depth + 1 && p.startMs >= phase.startMs && p.startMs < end,
  );
  const counts = new Map<string, number>();
  for (const p of nested) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const namedMs = nested.reduce((sum, p) => sum + Math.min(p.durMs, end - p.startMs), 0);
  return phaseInsideWords(
    [...counts].map(([step, count]) => ({ step, count })),
    phaseTime(namedMs),
    phaseTime(phase.durMs),
    phaseTime(Math.max(0, phase.durMs - namedMs)),
    phase.name.startsWith('Inductor'),
  );
}

/** A bar's names, longest first, told apart from its row's others of its name by the runner (schema 1.40); a 1.38 or
 *  1.39 report's bar by its name, then its short name (code read 36 item 7), an older one's by its name. */
const labelsOf = (phase: CompilePhase): readonly string[] =>
  phase.labels ?? [phase.name, ...(phase.shortName ? [phase.shortName] : [])];

/** A bar label's dataset key `name` with its forms' `prefix` ("uncounted": "uncountedForms"), or none. */
const formKey = (prefix: string, name: string): string =>
  prefix ? `${prefix}${name[0]!.toUpperCase()}${name.slice(1)}` : name;

/** Sets a bar label's forms on its text: timed, longest first, and its shortest name alone (code read 36 item 11: not
 *  cut back out of a form); `prefix` "uncounted": its forms without their count "(1 of 2)" (schema 1.44). */
function setForms(text: SVGTextElement, labels: readonly string[], time: string, prefix = ''): void {
  const key = (name: string): string => formKey(prefix, name);
  text.dataset[key('forms')] = phaseLabelForms(labels, time).join('\n');
  text.dataset[key('name')] = labels.at(-1)!;
}

/** A bar's hover `tip`, which names its compile (its lines), said again after the user's edits. */
const sayTip = (title: Element, own: SourcePlace | null, tip: string): void => {
  followSaid(title, own, tip, (node, said) => {
    node.textContent = said;
  });
};

/** A row label's hover: what it says (its label whole first: the column ends a name longer than it with "…"), then
 *  the phases fitLabels could not label, and the count and time in all of a phase's several bars some of which are
 *  bare (schema 1.51 countedText: review 17X X4, 13 C++ builds' total said nowhere). */
function sayRowTitle(label: HTMLElement): void {
  const { unlabelled, counted } = label.dataset;
  label.title = [label.dataset['said'], ...(unlabelled ? [unlabelled] : []), ...(counted ? [counted] : [])].join('\n');
}

/** Between a row's name and its time: held to the name's last word and to the time. */
const ROW_TIME = '\u00a0·\u00a0';

/** The most words a row name's closing phrase (after its last comma) has to be held whole: "made no graph". */
const HELD_PHRASE_WORDS = 3;

/** A row's label with the last word of its name held to a number after it ("dimension 0", "self.calls == 1"), and
 *  its closing phrase of a few words held whole ("captured nothing, made no graph": review 17X X9, "made no / graph"
 *  at 560 px), as drawn: not in the words that follow edits, which find "line 29" by its space (review 11K K5:
 *  "dimension / 0 · 901 ms"). */
function heldToItsWord(label: string): string {
  const at = label.lastIndexOf(ROW_TIME);
  if (at < 0) return label;
  const name = label.slice(0, at).replace(/ (?=[^\p{L}]*$)/gu, '\u00a0');
  const comma = name.lastIndexOf(', ');
  const phrase = name.slice(comma + 2);
  const held =
    comma >= 0 && phrase.split(' ').length <= HELD_PHRASE_WORDS
      ? `${name.slice(0, comma + 2)}${phrase.replace(/ /g, '\u00a0')}`
      : name;
  return `${held}${label.slice(at)}`;
}

function compileRow(
  phases: CompilePhase[],
  x: (ms: number) => number,
  label: string,
  title: string,
  name: string,
  own: SourcePlace | null,
  cacheBuild: string | null,
): HTMLElement {
  const row = el('div', 'phase-row');
  // the lines its name cites ("forward after line 24", "at train.py:77") where they are after the user's edits, as
  // the panel's links and the findings say them (review N3: a row kept the line an edit had moved)
  // and in its hover: the label's line, then why it recompiled (PyTorch's words may cite the line too)
  const said = [label, title, ...explanationsOf(`${label}\n${title}`)].join('\n');
  const labelEl = followSaid(el('div', 'phase-label'), own, said, (node, now) => {
    appendTerms(node, heldToItsWord(now.split('\n')[0]!));
    node.dataset['said'] = now;
    sayRowTitle(node);
  });
  const depth = Math.max(0, ...phases.map((p) => p.depth)) + 1;
  const svg = select(document.createElementNS(SVG, 'svg'))
    .attr('class', 'phase-track')
    .attr('width', '100%')
    .attr('height', depth * ROW);
  // markers last: drawn over the bars, never under the next one
  for (const phase of [...phases.filter((p) => !p.cache), ...phases.filter((p) => p.cache)]) {
    const y = phase.depth * ROW;
    const said = `${labelsOf(phase)[0]}${phase.cache ? `: ${phase.cache}` : `: ${phaseTime(phase.durMs)}`} (${name}, at ${formatMs(phase.startMs)})`;
    const inside = phase.cache || phase.depth >= depth - 1 ? null : stepsInside(phase, phases);
    // a C++ compile under a cache hit's load: why it is there, in the runner's words (review 8 A9)
    const why = cacheBuild && phaseClass(phase) === 'phase-kernel' ? cacheBuild : null;
    const tip = [said, inside, why].filter(Boolean).join('\n');
    if (phase.cache) {
      const marker = svg
        .append('svg')
        .attr('x', `${x(phase.startMs)}%`)
        .attr('y', y)
        .attr('data-lane-y', y)
        .attr('width', 10)
        .attr('height', ROW)
        .attr('overflow', 'visible')
        .attr('class', `cache-marker ${phaseClass(phase)}`);
      marker.append('path').attr('d', DIAMOND);
      sayTip(marker.append('title').node()!, own, tip);
      continue;
    }
    // what it cost and when it began: the order labels are given room in (phaseLabelLayout.ts)
    const bar = svg
      .append('g')
      .attr('class', `phase ${phaseClass(phase)}`)
      .attr('data-ms', phase.durMs)
      .attr('data-start-ms', phase.startMs);
    const width = x(phase.startMs + phase.durMs) - x(phase.startMs);
    bar
      .append('rect')
      .attr('x', `${x(phase.startMs)}%`)
      .attr('y', y + 1)
      .attr('width', `${Math.max(LEAST_BAR * 100, width)}%`)
      .attr('height', ROW - 2);
    // a label in the bar or beside it (the title says it for every bar): fitLabels() places it at the panel's
    // width in the longest of its forms that fits (phaseLabelForms), or hides it where none has room, so a label
    // never runs over the next bar; each told apart from its row's others of its name
    const text = bar
      .append('text')
      .attr('x', `${x(phase.startMs)}%`)
      .attr('dx', 3)
      .attr('y', y + ROW - 4)
      .attr('data-phase', phase.name)
      .attr('data-counted', phase.countedText ?? null)
      .node()!;
    setForms(text, labelsOf(phase), phaseTime(phase.durMs));
    if (phase.uncountedLabels) setForms(text, phase.uncountedLabels, phaseTime(phase.durMs), 'uncounted');
    sayTip(bar.append('title').node()!, own, tip);
  }
  row.append(labelEl, svg.node()!);
  return row;
}

// VS Code sets its font as variables on <html> and swaps the body's class with the theme: a label's width changes
// with the font, not with the track's, so every track's labels are fitted again then.
let refitOnThemeChange: MutationObserver | null = null;
function watchTheme(): void {
  if (refitOnThemeChange) return;
  refitOnThemeChange = new MutationObserver(() => {
    for (const chart of document.querySelectorAll<HTMLElement>('.compile-phases .phase-rows')) fitLabels(chart);
  });
  refitOnThemeChange.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  refitOnThemeChange.observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

/** A share of the track from an SVG length in % ("12.5%"). */
const share = (length: string | null): number => parseFloat(length ?? '0') / 100;

/** A bar's drawn label and what its layout knows of it. */
interface Drawn {
  bar: SVGGElement;
  text: SVGTextElement;
  /** its forms as the layout indexes them: timed, then its name alone; and without their count */
  forms: string[];
  uncounted: string[];
  track: SVGSVGElement;
  depth: number;
  lane: LaneBar;
}

/** A bar's label forms from its text (setForms), each measured in it: timed, longest first, then its name alone. */
function measured(text: SVGTextElement, prefix: string): { forms: string[]; lengths: number[]; nameOnly: number } {
  const key = (name: string): string => formKey(prefix, name);
  const timed = (text.dataset[key('forms')] ?? '').split('\n');
  const name = text.dataset[key('name')] ?? '';
  const length = (form: string): number => {
    text.textContent = form;
    return text.getComputedTextLength();
  };
  return { forms: [...timed, name], lengths: timed.map(length), nameOnly: length(name) };
}

/** Whether each of a bar's forms says the compiler part its phase is of (its part's name alone: either), where its
 *  phase has one: a row says a part for all its phases of it or for none (phaseLabelLayout.ts). */
function partsSaid(phase: string, forms: readonly string[]): Pick<LaneBar, 'partSaid'> {
  const part = partOf(phase);
  // "Dynamo 2.38 ms", "Dynamo": the part's name alone, with its time or not
  const said = (form: string): boolean | null =>
    form === part || form.startsWith(`${part} `) ? null : form.startsWith(`${part}: `);
  return part ? { partSaid: forms.map(said) } : {};
}

/** Each cache marker of `track` in the lane it is drawn in at track width `width` (phaseMarkers.ts): its own, where
 *  it touches a bar there, else on the bar over it that it was made in (review 18Z Z6). `bars`: the track's. */
function placeMarkers(track: SVGSVGElement, bars: readonly Drawn[], width: number): void {
  const spans = (y: number): BarSpan[] =>
    bars.filter((d) => d.depth === y + 1).map((d) => [d.lane.from * width, d.lane.to * width] as const);
  for (const marker of track.querySelectorAll<SVGSVGElement>('svg.cache-marker')) {
    const own = Number(marker.dataset['laneY']);
    const up = markerGoesUp(share(marker.getAttribute('x')) * width, spans(own), spans(own - ROW));
    marker.setAttribute('y', String(up ? own - ROW : own));
  }
}

/**
 * Each bar's label in one chart (`chart`: its rows, every track as wide: phaseLabelLayout.ts placeChartLabels, per
 * depth of each row): inside its bar or directly beside it, no other bar nearer (review 13 O1), clear of the other
 * labels and cache markers at its depth, in its bars' order (review 10H H2), the costliest bars first, a wider panel
 * only adding labels (review 11K K1); each phase in one form across the chart (review 13 O5), a count "(1 of 2)" only
 * where its mates are labelled too (review 13 P6); or in its bar its shortest name alone, never its time alone; a bar
 * with none hidden, and said in its row's hover.
 */
function fitLabels(chart: HTMLElement): void {
  const tracks = [...chart.querySelectorAll<SVGSVGElement>('.phase-row:not(.phase-axis) svg.phase-track')];
  const width = tracks[0]?.getBoundingClientRect().width ?? 0;
  const drawn: Drawn[] = tracks.flatMap((track, row) =>
    [...track.querySelectorAll<SVGGElement>('g.phase')].flatMap((bar) => {
      const text = bar.querySelector('text');
      const rect = bar.querySelector('rect')!;
      if (!text) return [];
      text.style.display = '';
      const told = measured(text, '');
      const uncounted = text.dataset['uncountedForms'] === undefined ? null : measured(text, 'uncounted');
      const from = share(rect.getAttribute('x'));
      const lane: LaneBar = {
        from,
        to: from + share(rect.getAttribute('width')),
        ms: Number(bar.dataset['ms']),
        startMs: Number(bar.dataset['startMs']),
        phase: text.dataset['phase'] ?? '',
        colour: [...bar.classList].find((c) => c.startsWith('phase-')) ?? '',
        lengths: told.lengths,
        nameOnly: told.nameOnly,
        ...partsSaid(text.dataset['phase'] ?? '', told.forms),
        // the bars it is counted among: its row's, of its name less the count
        ...(uncounted
          ? {
              uncounted: {
                lengths: uncounted.lengths,
                nameOnly: uncounted.nameOnly,
                among: `${row}\n${uncounted.forms.at(-1)}`,
              },
            }
          : {}),
      };
      const depth = Number(rect.getAttribute('y'));
      return [{ bar, text, forms: told.forms, uncounted: uncounted?.forms ?? told.forms, track, depth, lane }];
    }),
  );
  const lanes: ChartLane[] = tracks.flatMap((track, row) => {
    placeMarkers(
      track,
      drawn.filter((d) => d.track === track),
      width,
    );
    // the cache markers' diamonds at each depth (keyed as its bars are: depth × ROW + 1): a label under one loses
    // letters ("oad from cache", "lowering 60.4◇s")
    const markers = new Map<number, number[]>();
    for (const marker of track.querySelectorAll('svg.cache-marker')) {
      const depth = Number(marker.getAttribute('y')) + 1;
      markers.set(depth, [...(markers.get(depth) ?? []), share(marker.getAttribute('x'))]);
    }
    const own = drawn.filter((d) => d.track === track);
    return [...new Set(own.map((d) => d.depth))].map((depth) => ({
      bars: own.filter((d) => d.depth === depth).map((d) => d.lane),
      markers: markers.get(depth) ?? [],
      row,
    }));
  });
  const places = placeChartLabels(lanes, width);
  for (const track of tracks) {
    const unlabelled: string[] = [];
    const counted = new Set<string>();
    for (const { bar, text, forms, uncounted, lane } of drawn.filter((d) => d.track === track)) {
      const place = places.get(lane);
      bar.classList.toggle('beside', place !== undefined && !place.inside);
      if (!place) {
        text.textContent = forms[0]!;
        text.style.display = 'none';
        unlabelled.push(forms[0]!);
        if (text.dataset['counted']) counted.add(text.dataset['counted']);
        continue;
      }
      text.textContent = (place.uncounted ? uncounted : forms)[place.form]!;
      text.setAttribute('dx', String(place.at - lane.from * width));
    }
    // the row's hover names them: a narrow recompile's phases are read there, not found by hovering 1 px bars
    const label = track.parentElement?.querySelector<HTMLElement>('.phase-label');
    if (!label) continue;
    if (unlabelled.length) label.dataset['unlabelled'] = phasesUnlabelled(unlabelled);
    else delete label.dataset['unlabelled'];
    if (counted.size) label.dataset['counted'] = [...counted].join('\n');
    else delete label.dataset['counted'];
    sayRowTitle(label);
  }
}

/** What the bars' colours and the cache markers drawn in `box` are; `cacheBuilds`: the runner's words on a cache hit
 *  with a C++ compile under it, said beside the hit's marker (review 8 A9: only where the magenta bar was drawn). */
function phaseLegend(box: HTMLElement, cacheBuilds: readonly string[], cpu: boolean): HTMLElement {
  const legend = el('div', 'chart-legend phase-legend');
  for (const [cls, general] of PHASE_LEGEND) {
    if (!box.querySelector(`g.phase.${cls}`)) continue;
    // a CPU run builds C++ only: no kernel, no Triton (review 21Y Y2: "kernel compile (C++ or Triton)" on a CPU page)
    const label = cpu && cls === 'phase-kernel' ? CPU_KERNEL_LEGEND : general;
    const entry = el('span', 'legend-entry');
    entry.append(el('span', `swatch ${cls}`), el('span', 'legend-label', label));
    legend.append(entry);
  }
  for (const [cls, label] of CACHE_LEGEND) {
    if (!box.querySelector(`svg.cache-marker.${cls}`)) continue;
    const icon = select(document.createElementNS(SVG, 'svg'))
      .attr('class', `legend-icon cache-marker ${cls}`)
      .attr('width', 12)
      .attr('height', ROW)
      .attr('viewBox', `-6 0 12 ${ROW}`);
    icon.append('path').attr('d', DIAMOND);
    const entry = el('span', 'legend-entry');
    entry.append(icon.node()!, el('span', 'legend-label', label));
    legend.append(entry);
    // a line of its own under the entries: a sentence, wrapped at the panel's width
    if (cls === 'cache-hit')
      for (const why of new Set(cacheBuilds)) legend.append(el('span', 'hint legend-note cache-build', why));
  }
  return legend;
}

/** A script report's compile ids by the region (its name) whose code they compiled: two regions' "forward"s
 *  told apart. */
function regionsByCompile(report: Report | null): Map<string, string> {
  const regions = new Map<string, string>();
  for (const region of report?.regions ?? [])
    for (const frame of region.compiler?.frames ?? []) if (frame.compileId) regions.set(frame.compileId, region.name);
  return regions;
}

/** Each compile's row time, in ms: its outermost phases (a cache lookup is drawn over them, not added) */
export function compileRowsMs(phases: CompilePhase[]): Map<string, number> {
  const rows = new Map<string, number>();
  for (const p of phases)
    rows.set(p.compileId, (rows.get(p.compileId) ?? 0) + (p.depth === 0 && !p.cache ? p.durMs : 0));
  return rows;
}

/** The section's heading: the runner's ("2 compiles, 239 ms": the compile total its other sentences say, which the
 *  rows add up to); a report before phasesText, its rows' sum. `compiler`: a mode's record, or (schema 1.38) a
 *  torchrun job's group of ranks alike ("5 compiles (1 graph) on ranks 0 and 2, …; rank 0's drawn"). */
export function phasesHeading(mode: string, compiler: CompilerInsight, rows: Map<string, number>): string {
  const hits = (compiler.phases ?? []).filter((p) => p.cacheHit).length;
  const said =
    compiler.phasesText ??
    `${plural(rows.size, 'compile')}, ${formatMs([...rows.values()].reduce((sum, ms) => sum + ms, 0))}${hits ? `, ${plural(hits, 'cache hit')}` : ''}`;
  return `Compile phases — ${mode}: ${said}`;
}

/** The phases' records a mode draws, each a section: a torchrun job's script, each group of ranks alike (schema
 *  1.38 rankPhases: a rank's recompile has its row, review 10H H3), its compiles' regions by that rank's numbering;
 *  else the mode's own record. */
function phaseRecords(
  mode: ModeResult,
  regions: Map<string, string>,
): { compiler: CompilerInsight; regions: Map<string, string>; ranks: number[] | null }[] {
  const groups = mode.compiler?.rankPhases ?? [];
  if (groups.length)
    return groups.map((g) => ({
      compiler: g.compiler,
      regions: new Map(Object.entries(g.regions ?? {})),
      ranks: g.ranks,
    }));
  return mode.compiler ? [{ compiler: mode.compiler, regions, ranks: null }] : [];
}

function modeSection(
  mode: ModeResult,
  compiler: CompilerInsight,
  regions: Map<string, string>,
  ranks: number[] | null,
): HTMLElement | null {
  const phases = compiler.phases ?? [];
  if (!phases.length) return null;
  const rowsMs = compileRowsMs(phases);
  const order = [...rowsMs.keys()];
  const end = Math.max(...phases.map((p) => p.startMs + p.durMs));
  const details = el('details', 'compile-phases');
  details.open = true;
  details.dataset['mode'] = mode.mode;
  if (ranks) details.dataset['ranks'] = ranks.join(' ');
  details.append(el('summary', undefined, phasesHeading(mode.modeText ?? mode.mode, compiler, rowsMs)));
  // 97: room at the right for a late compile's cache marker and its thinnest bars, not cut at the panel's edge
  const x = scaleLinear()
    .domain([0, end || 1])
    .range([0, 97]);
  const axis = el('div', 'phase-row phase-axis');
  const ticks = select(document.createElementNS(SVG, 'svg'))
    .attr('class', 'phase-track')
    .attr('width', '100%')
    .attr('height', ROW);
  // few: the panel is often narrow, and a label takes ~60 px; all in one unit, their spacing's ("0 s", not "0 ms")
  const tickMs = x.ticks(4);
  const tickText = formatTimeTicks(tickMs.map((ms) => ms * 1000));
  tickMs.forEach((tick, k) => {
    ticks
      .append('text')
      .attr('x', `${x(tick)}%`)
      .attr('y', ROW - 4)
      .attr('text-anchor', x(tick) > 95 ? 'end' : 'start')
      .text(tickText[k]!);
  });
  axis.append(el('div', 'phase-label', 'time since the first compile'), ticks.node()!);
  // one grid: every row's label in one column, as wide as the widest label needs up to its share of the panel
  const rows = el('div', 'phase-rows');
  rows.append(axis);
  details.append(rows);
  // every track of the chart as wide as its axis's: one chart fitted at once, a phase said in one form across it
  new ResizeObserver(() => fitLabels(rows)).observe(ticks.node()!);
  watchTheme();
  for (const id of order.slice(0, MAX_COMPILES)) {
    // the runner's name for a compile no frame lists (schema 1.47: one that only autotuned is no recompile)
    const compile = compiler.phaseRowTexts?.[id] ?? compileName(compiler.frames, id);
    // by its region where the report has regions ("Counter: forward after line 29"), unless the name says it
    const region = regions.get(id);
    const name = region && !compile.startsWith(region) ? `${region}: ${compile}` : compile;
    const recompile = compiler.recompiles.find((r) => r.compileId === id);
    // a time never split from its unit, nor from its "·", nor that from the name's last word, where the label
    // column wraps ("2.8 / s"; review 10H E12: "forward, recompiled for x's / size 16 in dimension 0 / · 901 ms")
    const label = `${name}${ROW_TIME}${formatMs(rowsMs.get(id)!).replace(/ /g, '\u00a0')}`;
    // why it recompiled, in the user's terms, PyTorch's words after; the compile id only here, explained
    const why = recompile
      ? [recompile.explanation?.what, `PyTorch's words: ${recompile.reason}`].filter(Boolean).join('\n')
      : null;
    rows.append(
      compileRow(
        phases.filter((p) => p.compileId === id),
        x,
        label,
        [why, `Dynamo's compile id ${id}`].filter(Boolean).join('\n'),
        name,
        compilePlace(compiler.frames ?? null, id),
        phases.some((p) => p.compileId === id && p.cacheHit) ? (compiler.cacheBuildText ?? null) : null,
      ),
    );
  }
  if (order.length > MAX_COMPILES)
    details.append(el('p', 'hint', `… ${order.length - MAX_COMPILES} more compiles not drawn.`));
  return details;
}

/** The compile timelines of every mode with compile phases in the report, or null when none has any. */
export function renderCompilePhases(report: Report | null): HTMLElement | null {
  const regions = regionsByCompile(report);
  const records = (report?.modes ?? []).flatMap((mode) =>
    phaseRecords(mode, regions).map((record) => ({ mode, ...record })),
  );
  const sections = records
    .map((r) => modeSection(r.mode, r.compiler, r.regions, r.ranks))
    .filter((s): s is HTMLElement => s !== null);
  if (!sections.length) return null;
  const box = el('section', 'compile-timeline');
  box.append(el('h3', undefined, 'Where compile time went'), ...sections);
  const cacheBuilds = records.flatMap((r) => r.compiler.cacheBuildText ?? []);
  box.append(phaseLegend(box, cacheBuilds, report?.environment?.device === 'cpu'));
  return box;
}
