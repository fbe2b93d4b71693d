// The first-call chart of a script-mode region (SVG, d3 scales and axes): call index → duration, the calls that
// compiled, recompiled, ran eagerly (Dynamo) or ran with compiling off (in situ) marked (each mark's <title> says what happened, the recompile's guard
// failure included), the steady state shaded. A log scale when compile calls dwarf the rest.
import {
  axisBottom,
  axisLeft,
  scaleLinear,
  scaleLog,
  select,
  symbol,
  symbolDiamond,
  symbolSquare,
  symbolX,
  type ScaleContinuousNumeric,
  type ScaleLinear,
} from 'd3';
import type { Region, RegionCall } from '../extension/shared/report.ts';
import { formatMs } from '../extension/present/numbers.ts';
import { explanationsOf } from '../extension/present/glossary.ts';
import { el } from './panels.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The charts' drawing size: the width of a panel beside the editor (styles.ts draws them no wider), so their
 * 11 px text is drawn at 11 px there, not shrunk. */
export const WIDTH = 540;
export const HEIGHT = 220;
export const MARGIN = { top: 10, right: 16, bottom: 36, left: 70 };
/** max / min duration beyond which the y axis is logarithmic: a 60 s compile call next to 0.4 s calls */
const LOG_RATIO = 20;

type StepPoint = NonNullable<NonNullable<Region['inSitu']>['stepPoints']>[number];

export type CallMark = 'compiled' | 'recompiled' | 'eager' | 'switched-off' | 'cached';

/** The in-situ sides as both charts' legends name them (the runner's chart_text.SIDE_WORDS). */
export const SIDE_TEXT = { compiled: 'as written (compiled)', eager: 'compiling off (eager)' } as const;

/** How a call is drawn: in situ's compiling-off side is its own mark (no compiled code ran in it: not "compiled code
 *  reused", and not Dynamo falling back either, review 6B Q); Dynamo running it eagerly outranks the compile event
 *  (its compile, if any, is in the title). */
export function markOf(call: RegionCall): CallMark {
  if (call.side === 'eager') return 'switched-off';
  if (call.ranCompiled === false) return 'eager';
  return call.event === 'cached' ? 'cached' : call.event;
}

/** Each mark's legend words. */
const MARK_TEXT: Record<CallMark, string> = {
  compiled: 'compiled',
  recompiled: 'recompiled',
  eager: 'Dynamo fell back: ran eagerly',
  'switched-off': SIDE_TEXT.eager,
  cached: 'compiled code reused',
};

/** The mark's tooltip: the call and its duration (a point's label and value, as an axis says them), what happened
 * and why in the runner's words (schema 1.24, the call's `said`: the panel words none of it), its inputs. */
export function callTitle(call: RegionCall): string {
  const lines = [`call ${call.index}: ${call.ms === null ? 'no duration recorded' : formatMs(call.ms)}`];
  if (call.said !== undefined) lines.push(call.said);
  lines.push(`inputs: ${call.signature}`);
  // a tooltip holds no marked words: the compiler's terms in it are explained below it
  return [...lines, ...explanationsOf(lines.join('\n')).map((e) => `· ${e}`)].join('\n');
}

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, className?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  if (className) node.setAttribute('class', className);
  return node;
}

export function withTitle<T extends SVGElement>(node: T, text: string): T {
  const title = svg('title');
  title.textContent = text;
  node.append(title);
  return node;
}

/** The y scale of durations: logarithmic when the longest is over LOG_RATIO times the shortest; a log scale's domain
 *  reaches the whole decades around its values, so every point lies between two of its ticks (review 8 A17: a 0.5 ms
 *  call drawn under the lowest tick, "1 ms", could not be read). */
export function durationScale(
  values: number[],
  range: [number, number],
): { y: ScaleContinuousNumeric<number, number>; logScale: boolean } {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const logScale = hi / lo > LOG_RATIO;
  const y: ScaleContinuousNumeric<number, number> = logScale
    ? scaleLog()
        .domain([
          Math.min(lo / 1.5, 10 ** Math.floor(Math.log10(lo))),
          Math.max(hi * 1.5, 10 ** Math.ceil(Math.log10(hi))),
        ])
        .range(range)
    : scaleLinear()
        .domain([0, hi * 1.1])
        .nice()
        .range(range);
  return { y, logScale };
}

/** The y axis's ticks: whole decades on a log scale (d3's log ticks label every 2, 3, … 9 too, printed over each
 * other in a chart this short), else five. */
export function durationTicks(y: ScaleContinuousNumeric<number, number>, logScale: boolean): number[] {
  const decades = logScale ? y.ticks(6).filter((v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9) : [];
  return decades.length >= 2 ? decades : y.ticks(5);
}

/** Decimals `v` needs, up to 3: 0.5 → 1, 10 → 0. */
const decimalsOf = (v: number): number => {
  for (let d = 0; d < 3; d++) if (Math.abs(v - Number(v.toFixed(d))) < 1e-9) return d;
  return 3;
};

/**
 * The y ticks' labels, in one format (reportB D25: formatMs wrote "10.0 ms", "1.00 ms", "0.10 ms" on one axis): a log
 * axis's decades as short as they go ("10 µs", "0.1 ms", "1 ms", "10 ms", "1 s"); a linear axis's in one unit with the
 * decimals its step needs ("0.5 ms", "1.0 ms", "1.5 ms"; "0.5 s", "1.0 s" where a tick reaches a second; "20 µs",
 * "40 µs" where none reaches 0.1 ms).
 */
export function durationTickLabels(ticks: readonly number[], logScale: boolean): string[] {
  // under 0.1 ms in µs, as formatMs says a time (review 8 A15)
  if (logScale)
    return ticks.map((ms) =>
      ms >= 1000
        ? `${Number((ms / 1000).toFixed(3))} s`
        : ms < 0.1
          ? `${Number((ms * 1000).toFixed(3))} µs`
          : `${Number(ms.toFixed(3))} ms`,
    );
  const top = Math.max(...ticks);
  const [unit, perMs] = top >= 1000 ? ['s', 1e-3] : top < 0.1 ? ['µs', 1e3] : ['ms', 1];
  const values = ticks.map((ms) => ms * perMs);
  const decimals = Math.max(0, ...values.map(decimalsOf));
  return values.map((v) => `${v.toFixed(decimals)} ${unit}`);
}

const SYMBOLS = {
  recompiled: symbol(symbolDiamond, 90)(),
  eager: symbol(symbolX, 70)(),
  'switched-off': symbol(symbolSquare, 30)(),
};

/** Both axes with their ticks and what they measure (the y axis in its unit: each tick says ms or s). */
export function drawAxes(
  chart: SVGSVGElement,
  x: ScaleLinear<number, number>,
  y: ScaleContinuousNumeric<number, number>,
  logScale: boolean,
  xText: string,
  yText: string,
): void {
  const last = x.domain()[1]! - 0.5;
  const xAxis = svg('g', 'axis x-axis');
  xAxis.setAttribute('transform', `translate(0,${HEIGHT - MARGIN.bottom})`);
  select(xAxis).call(
    axisBottom(x)
      .tickValues(x.ticks(Math.min(10, last + 1)).filter(Number.isInteger))
      .tickFormat((v) => String(v)),
  );
  const yAxis = svg('g', 'axis y-axis');
  yAxis.setAttribute('transform', `translate(${MARGIN.left},0)`);
  const ticks = durationTicks(y, logScale);
  const labels = durationTickLabels(ticks, logScale);
  select(yAxis).call(
    axisLeft(y)
      .tickValues(ticks)
      .tickFormat((_, k) => labels[k]!),
  );
  const xLabel = svg('text', 'axis-label');
  xLabel.setAttribute('x', String((MARGIN.left + WIDTH - MARGIN.right) / 2));
  xLabel.setAttribute('y', String(HEIGHT - 4));
  xLabel.setAttribute('text-anchor', 'middle');
  xLabel.textContent = xText;
  const yLabel = svg('text', 'axis-label');
  yLabel.setAttribute('transform', `translate(12,${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}) rotate(-90)`);
  yLabel.setAttribute('text-anchor', 'middle');
  yLabel.textContent = logScale ? `${yText} (log scale)` : yText;
  chart.append(xAxis, yAxis, xLabel, yLabel);
}

/** A legend entry: the mark as the chart draws it (same shape, same class, so the same colour), then its words. */
export function legendEntry(mark: SVGElement, text: string): HTMLElement {
  const icon = svg('svg', 'legend-icon');
  icon.setAttribute('viewBox', '-7 -7 14 14');
  icon.setAttribute('aria-hidden', 'true');
  icon.append(mark);
  const entry = el('span', 'legend-entry');
  entry.append(icon, el('span', 'legend-label', text));
  return entry;
}

/** A call's mark, centred on (cx, cy): the shapes differ as well as the colours. */
function callMark(kind: CallMark, cx: number, cy: number): SVGElement {
  if (kind === 'recompiled' || kind === 'eager' || kind === 'switched-off') {
    const mark = svg('path', `mark ${kind}`);
    mark.setAttribute('d', SYMBOLS[kind] ?? '');
    mark.setAttribute('transform', `translate(${cx},${cy})`);
    return mark;
  }
  const mark = svg('circle', `mark ${kind}`);
  mark.setAttribute('cx', String(cx));
  mark.setAttribute('cy', String(cy));
  mark.setAttribute('r', kind === 'compiled' ? '5' : '2.5');
  return mark;
}

/** The steady state's shading, as a legend mark. */
export function steadyMark(): SVGElement {
  const mark = svg('rect', 'steady');
  for (const [name, value] of [
    ['x', '-6'],
    ['y', '-6'],
    ['width', '12'],
    ['height', '12'],
  ])
    mark.setAttribute(name!, value!);
  return mark;
}

/** The chart with its legend, or a note when no call has a duration. */
export function renderRegionChart(region: Region): HTMLElement {
  const box = el('div', 'region-chart');
  const timed = region.calls.filter((c): c is RegionCall & { ms: number } => c.ms !== null && c.ms > 0);
  if (!timed.length) {
    box.append(el('p', 'hint', 'No call duration was recorded for this region.'));
    return box;
  }
  const last = region.calls[region.calls.length - 1]!.index;
  const x = scaleLinear()
    .domain([-0.5, last + 0.5])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  const { y, logScale } = durationScale(
    timed.map((c) => c.ms),
    [HEIGHT - MARGIN.bottom, MARGIN.top],
  );

  const chart = svg('svg', 'first-calls');
  chart.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', `${region.id} ${region.name}: duration of each call`);
  chart.dataset['scale'] = logScale ? 'log' : 'linear';

  const steady = region.steadyState;
  if (steady && steady.fromCall <= last) {
    // the in-situ steady state shades the calls whose steps its number counted, as the step chart does (the same
    // runs): never the other side's blocks or the steps left out between them; elsewhere every call from its start
    const runs: [number, number][] = steady.inSitu
      ? countedRuns(region.inSitu?.stepPoints, steady.fromCall, last)
      : [[steady.fromCall, last]];
    // the runner's words (schema 1.25)
    chart.append(...steadyShades(runs, x, steady.said ?? null));
    const median = svg('line', 'steady-median');
    median.setAttribute('x1', String(x(steady.fromCall - 0.5)));
    median.setAttribute('x2', String(x(last + 0.5)));
    median.setAttribute('y1', String(y(steady.medianMs)));
    median.setAttribute('y2', String(y(steady.medianMs)));
    median.dataset['ms'] = String(steady.medianMs);
    const label = svg('text', 'steady-label');
    // in the shading's top corner, clear of the marks that sit on the median line
    label.setAttribute('x', String(x(last + 0.5) - 4));
    label.setAttribute('y', String(MARGIN.top + 12));
    label.setAttribute('text-anchor', 'end');
    label.textContent = steady.label ?? 'steady state';
    chart.append(median, label);
  }

  drawAxes(chart, x, y, logScale, 'call', 'call duration');

  // cached calls first, so the few marked calls are drawn on top
  const order: CallMark[] = ['cached', 'switched-off', 'eager', 'recompiled', 'compiled'];
  for (const call of [...timed].sort((a, b) => order.indexOf(markOf(a)) - order.indexOf(markOf(b)))) {
    const kind = markOf(call);
    const [cx, cy] = [x(call.index), y(call.ms)];
    const mark = callMark(kind, cx, cy);
    mark.dataset['call'] = String(call.index);
    mark.dataset['mark'] = kind;
    chart.append(withTitle(mark, callTitle(call)));
  }
  box.append(chart, renderLegend(region, steady != null));
  return box;
}

function renderLegend(region: Region, steady: boolean): HTMLElement {
  const legend = el('div', 'chart-legend');
  const present = new Set(region.calls.map(markOf));
  for (const kind of ['compiled', 'recompiled', 'eager', 'switched-off', 'cached'] as const)
    if (present.has(kind)) legend.append(legendEntry(callMark(kind, 0, 0), MARK_TEXT[kind]));
  if (steady) legend.append(legendEntry(steadyMark(), 'steady state'));
  // what the chart leaves out: the runner's words (schema 1.25)
  for (const note of region.chartNotes ?? []) legend.append(el('span', 'legend-label', `· ${note}`));
  return legend;
}

/** A steady state's shading: one band per run of calls [first, last], titled with the runner's words where it has
 *  them (the call chart's and the in-situ step chart's one drawing). */
export function steadyShades(
  runs: readonly [number, number][],
  x: (call: number) => number,
  title: string | null,
): SVGRectElement[] {
  return runs.map(([first, end]) => {
    const shade = svg('rect', 'steady');
    shade.setAttribute('x', String(x(first - 0.5)));
    shade.setAttribute('y', String(MARGIN.top));
    shade.setAttribute('width', String(x(end + 0.5) - x(first - 0.5)));
    shade.setAttribute('height', String(HEIGHT - MARGIN.bottom - MARGIN.top));
    shade.dataset['from'] = String(first);
    shade.dataset['to'] = String(end);
    return title === null ? shade : withTitle(shade, title);
  });
}

/** The runs of consecutive counted steps from `from` to `last`, as [first, last] call indices; a report before the
 *  runner said which steps counted: the whole steady state, one run. */
export function countedRuns(points: readonly StepPoint[] | undefined, from: number, last: number): [number, number][] {
  if (!points) return [[from, last]];
  const runs: [number, number][] = [];
  for (const index of points
    .filter((p) => p.counted && p.index >= from)
    .map((p) => p.index)
    .sort((a, b) => a - b)) {
    const run = runs[runs.length - 1];
    if (run?.[1] === index - 1) run[1] = index;
    else runs.push([index, index]);
  }
  return runs;
}
