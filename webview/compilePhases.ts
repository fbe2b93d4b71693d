// Compile time on a timeline: per mode, one row per compile (named by its function: compileNames.ts), its phases as nested bars (Dynamo,
// AOT Autograd, Inductor, codegen, kernel compile, autotune) and its cache lookups as markers (filled: a hit), so a
// slow compile shows which graph and which phase it was. Bars are SVG placed by a d3 scale in % of the row.
import { scaleLinear, select } from 'd3';
import type { CompilePhase, ModeResult, Report } from '../extension/shared/report.ts';
import { compileName } from '../extension/present/compileNames.ts';
import { explanationsOf } from '../extension/present/glossary.ts';
import { formatMs, formatTimeTicks, plural } from '../extension/present/numbers.ts';
import { el, termEl } from './panels.ts';

const SVG = 'http://www.w3.org/2000/svg';
const ROW = 16;
const MAX_COMPILES = 40;
const MIN_LABEL_PCT = 12;

/** CSS class of a phase's bar, by what part of the compiler it is. */
function phaseClass(phase: CompilePhase): string {
  if (phase.cache) return phase.cache === 'hit' ? 'cache-hit' : 'cache-miss';
  const name = phase.name.toLowerCase();
  for (const [needle, cls] of [
    ['autotune', 'autotune'],
    ['kernel compile', 'kernel'],
    ['c++ compile', 'kernel'],
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

function compileRow(
  phases: CompilePhase[],
  x: (ms: number) => number,
  label: string,
  title: string,
  name: string,
): HTMLElement {
  const row = el('div', 'phase-row');
  const labelEl = termEl('div', 'phase-label', label);
  labelEl.title = [title, ...explanationsOf(`${label}\n${title}`)].join('\n');
  const depth = Math.max(0, ...phases.map((p) => p.depth)) + 1;
  const svg = select(document.createElementNS(SVG, 'svg'))
    .attr('class', 'phase-track')
    .attr('width', '100%')
    .attr('height', depth * ROW);
  for (const phase of phases) {
    const y = phase.depth * ROW;
    const tip = `${phase.name}${phase.cache ? `: ${phase.cache}` : `: ${formatMs(phase.durMs)}`} (${name}, at ${formatMs(phase.startMs)})`;
    if (phase.cache) {
      const marker = svg
        .append('svg')
        .attr('x', `${x(phase.startMs)}%`)
        .attr('y', y)
        .attr('width', 10)
        .attr('height', ROW)
        .attr('overflow', 'visible')
        .attr('class', `cache-marker ${phaseClass(phase)}`);
      marker.append('path').attr('d', `M0,2 L5,${ROW / 2} L0,${ROW - 2} L-5,${ROW / 2} Z`);
      marker.append('title').text(tip);
      continue;
    }
    const bar = svg.append('g').attr('class', `phase ${phaseClass(phase)}`);
    const width = x(phase.startMs + phase.durMs) - x(phase.startMs);
    bar
      .append('rect')
      .attr('x', `${x(phase.startMs)}%`)
      .attr('y', y + 1)
      .attr('width', `${Math.max(0.15, width)}%`)
      .attr('height', ROW - 2);
    // a label only where the bar is wide enough to hold it (the title says it for every bar): fitLabels() hides
    // those that do not fit at the panel's width, so a label never runs over the next bar's
    if (width >= MIN_LABEL_PCT)
      bar
        .append('text')
        .attr('x', `${x(phase.startMs)}%`)
        .attr('dx', 3)
        .attr('y', y + ROW - 4)
        .text(`${phase.name} ${formatMs(phase.durMs)}`);
    bar.append('title').text(tip);
  }
  row.append(labelEl, svg.node()!);
  new ResizeObserver(() => fitLabels(svg.node()!)).observe(svg.node()!);
  watchTheme();
  return row;
}

// VS Code sets its font as variables on <html> and swaps the body's class with the theme: a label's width changes
// with the font, not with the track's, so every track's labels are fitted again then.
let refitOnThemeChange: MutationObserver | null = null;
function watchTheme(): void {
  if (refitOnThemeChange) return;
  refitOnThemeChange = new MutationObserver(() => {
    for (const track of document.querySelectorAll<SVGSVGElement>('.compile-phases svg.phase-track')) fitLabels(track);
  });
  refitOnThemeChange.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  refitOnThemeChange.observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

/** Shows a bar's label only where it fits inside the bar at the drawn width. */
function fitLabels(track: SVGSVGElement): void {
  for (const bar of track.querySelectorAll<SVGGElement>('g.phase')) {
    const text = bar.querySelector('text');
    const rect = bar.querySelector('rect');
    if (!text || !rect) continue;
    text.style.display = '';
    text.style.display = text.getComputedTextLength() + 6 <= rect.getBBox().width ? '' : 'none';
  }
}

function modeSection(mode: ModeResult): HTMLElement | null {
  const phases = mode.compiler?.phases ?? [];
  if (!phases.length) return null;
  const order = [...new Set(phases.map((p) => p.compileId))];
  const end = Math.max(...phases.map((p) => p.startMs + p.durMs));
  const outermost = (id: string): number =>
    phases.filter((p) => p.compileId === id && p.depth === 0 && !p.cache).reduce((sum, p) => sum + p.durMs, 0);
  const total = order.reduce((sum, id) => sum + outermost(id), 0);
  const details = el('details', 'compile-phases');
  details.open = true;
  details.dataset['mode'] = mode.mode;
  const hits = phases.filter((p) => p.cacheHit).length;
  details.append(
    el(
      'summary',
      undefined,
      `Compile phases — ${mode.mode}: ${plural(order.length, 'compile')}, ${formatMs(total)}${hits ? `, ${plural(hits, 'cache hit')}` : ''}`,
    ),
  );
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
  details.append(axis);
  for (const id of order.slice(0, MAX_COMPILES)) {
    const name = compileName(mode.compiler?.frames, id);
    const recompile = mode.compiler?.recompiles.find((r) => r.compileId === id);
    const label = `${name} · ${formatMs(outermost(id))}`;
    // why it recompiled, in the user's terms, PyTorch's words after; the compile id only here, explained
    const why = recompile
      ? [recompile.explanation?.what, `PyTorch's words: ${recompile.reason}`].filter(Boolean).join('\n')
      : null;
    details.append(
      compileRow(
        phases.filter((p) => p.compileId === id),
        x,
        label,
        [why, `Dynamo's compile id ${id}`].filter(Boolean).join('\n'),
        name,
      ),
    );
  }
  if (order.length > MAX_COMPILES)
    details.append(el('p', 'hint', `… ${order.length - MAX_COMPILES} more compiles not drawn.`));
  return details;
}

/** The compile timelines of every mode with compile phases in the report, or null when none has any. */
export function renderCompilePhases(report: Report | null): HTMLElement | null {
  const sections = (report?.modes ?? []).map(modeSection).filter((s): s is HTMLElement => s !== null);
  if (!sections.length) return null;
  const box = el('section', 'compile-timeline');
  box.append(el('h3', undefined, 'Where compile time went'), ...sections);
  return box;
}
