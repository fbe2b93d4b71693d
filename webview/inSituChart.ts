// A script region's in-situ steps overlaid (SVG, d3; both separate runs, or both sides of the interleaved run, 1.16):
// per call index, the step from that call to the next as
// the script made it as written (compiled) and with compiling off (eager), the steps that compiled marked, the
// steady state shaded with both medians. A log scale when compile steps dwarf the rest.
import { axisBottom, axisLeft, line, scaleLinear, select } from 'd3';
import type { InSituPoint, Region } from '../extension/shared/report.ts';
import { formatMs, formatSpeedup } from '../extension/present/numbers.ts';
import { el } from './panels.ts';
import { durationScale, durationTicks, svg, withTitle } from './regionChart.ts';

const WIDTH = 720;
const HEIGHT = 220;
const MARGIN = { top: 10, right: 16, bottom: 36, left: 70 };

type Side = 'compiled' | 'eager';
const SIDE_TEXT: Record<Side, string> = { compiled: 'as written (compiled)', eager: 'compiling off (eager)' };

function steps(points: InSituPoint[]): { index: number; ms: number; compiles: number }[] {
  // interleaved runs (schema 1.16) carry each call's index: the two sides take turns in one run
  return points.flatMap((p, position) => (p[1] !== null && p[1] > 0 ? [{ index: p[3] ?? position, ms: p[1], compiles: p[2] }] : []));
}

/** The overlay with its legend, or null when the region has no in-situ series with a step. */
export function renderInSituChart(region: Region): HTMLElement | null {
  const situ = region.inSitu;
  if (!situ?.series) return null;
  const sides = { compiled: steps(situ.series.compiled), eager: steps(situ.series.eager) };
  const all = [...sides.compiled, ...sides.eager];
  if (!all.length) return null;
  const box = el('div', 'region-chart in-situ-chart');
  const last = Math.max(...all.map((p) => p.index));
  const x = scaleLinear().domain([-0.5, last + 0.5]).range([MARGIN.left, WIDTH - MARGIN.right]);
  const { y, logScale } = durationScale(all.map((p) => p.ms), [HEIGHT - MARGIN.bottom, MARGIN.top]);
  const chart = svg('svg', 'in-situ');
  chart.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', `${region.id} ${region.name}: each step as written and with compiling off`);
  chart.dataset.scale = logScale ? 'log' : 'linear';
  const from = situ.steadyFromCall;
  if (from != null && from <= last) {
    const shade = svg('rect', 'steady');
    shade.setAttribute('x', String(x(from - 0.5)));
    shade.setAttribute('y', String(MARGIN.top));
    shade.setAttribute('width', String(x(last + 0.5) - x(from - 0.5)));
    shade.setAttribute('height', String(HEIGHT - MARGIN.bottom - MARGIN.top));
    const step = situ.step;
    const text = step ? `: ${formatMs(step.eagerMs)} → ${formatMs(step.compiledMs)} per step (median), ${formatSpeedup(step.speedup)}` : '';
    chart.append(withTitle(shade, `steady state from call ${from}${text}`));
    for (const [side, ms] of step ? [['compiled', step.compiledMs], ['eager', step.eagerMs]] as const : []) {
      const median = svg('line', `steady-median ${side}`);
      median.setAttribute('x1', String(x(from - 0.5)));
      median.setAttribute('x2', String(x(last + 0.5)));
      median.setAttribute('y1', String(y(ms)));
      median.setAttribute('y2', String(y(ms)));
      chart.append(withTitle(median, `${SIDE_TEXT[side]}: ${formatMs(ms)} per step, median of the steady state`));
    }
  }
  const xAxis = svg('g', 'axis x-axis');
  xAxis.setAttribute('transform', `translate(0,${HEIGHT - MARGIN.bottom})`);
  select(xAxis).call(axisBottom(x).tickValues(x.ticks(Math.min(10, last + 1)).filter(Number.isInteger)).tickFormat((v) => String(v)));
  const yAxis = svg('g', 'axis y-axis');
  yAxis.setAttribute('transform', `translate(${MARGIN.left},0)`);
  select(yAxis).call(axisLeft(y).tickValues(durationTicks(y, logScale)).tickFormat((v) => formatMs(Number(v))));
  const xLabel = svg('text', 'axis-label');
  xLabel.setAttribute('x', String((MARGIN.left + WIDTH - MARGIN.right) / 2));
  xLabel.setAttribute('y', String(HEIGHT - 4));
  xLabel.setAttribute('text-anchor', 'middle');
  xLabel.textContent = 'step (from call N to call N+1)';
  chart.append(xAxis, yAxis, xLabel);
  const path = line<{ index: number; ms: number }>().x((p) => x(p.index)).y((p) => y(p.ms));
  for (const side of ['eager', 'compiled'] as const) {
    const trace = svg('path', `run ${side}`);
    trace.setAttribute('d', path(sides[side]) ?? '');
    trace.dataset.side = side;
    trace.dataset.steps = String(sides[side].length);
    chart.append(withTitle(trace, SIDE_TEXT[side]));
    for (const p of sides[side].filter((s) => s.compiles > 0)) {
      const mark = svg('circle', `situ-mark ${side}`);
      mark.setAttribute('cx', String(x(p.index)));
      mark.setAttribute('cy', String(y(p.ms)));
      mark.setAttribute('r', '4');
      mark.dataset.call = String(p.index);
      chart.append(withTitle(mark, `step ${p.index}: ${formatMs(p.ms)}, compiled ${p.compiles} time${p.compiles === 1 ? '' : 's'}`));
    }
  }
  const legend = el('div', 'chart-legend');
  legend.append(el('span', 'legend-mark run-compiled'), el('span', 'legend-label', SIDE_TEXT.compiled),
    el('span', 'legend-mark run-eager'), el('span', 'legend-label', SIDE_TEXT.eager),
    el('span', 'legend-mark compiled'), el('span', 'legend-label', 'a step that compiled'));
  if (from != null) legend.append(el('span', 'legend-mark steady'), el('span', 'legend-label', 'steady state'));
  box.append(chart, legend);
  return box;
}
