// A script region's in-situ steps overlaid (SVG, d3; both separate runs, or both sides of the interleaved run, 1.16):
// per call index, the step from that call to the next as
// the script made it as written (compiled) and with compiling off (eager), the steps that compiled marked, the
// steady state shaded with both medians. A log scale when compile steps dwarf the rest.
import { line, scaleLinear } from 'd3';
import type { InSituPoint, Region } from '../extension/shared/report.ts';
import { inSituNumber } from '../extension/present/answer.ts';
import { formatMs, formatSpeedup } from '../extension/present/numbers.ts';
import { el } from './panels.ts';
import {
  drawAxes,
  durationScale,
  HEIGHT,
  legendEntry,
  MARGIN,
  steadyMark,
  svg,
  WIDTH,
  withTitle,
} from './regionChart.ts';

type Side = 'compiled' | 'eager';
const SIDE_TEXT: Record<Side, string> = { compiled: 'as written (compiled)', eager: 'compiling off (eager)' };

function steps(points: InSituPoint[]): { index: number; ms: number; compiles: number }[] {
  // interleaved runs (schema 1.16) carry each call's index: the two sides take turns in one run
  return points.flatMap((p, position) =>
    p[1] !== null && p[1] > 0 ? [{ index: p[3] ?? position, ms: p[1], compiles: p[2] }] : [],
  );
}

/** A side's line, as a legend mark. */
function runMark(side: Side): SVGElement {
  const mark = svg('path', `run ${side}`);
  mark.setAttribute('d', 'M-6,0H6');
  return mark;
}

/** A step that compiled, centred on (cx, cy). */
function stepMark(side: Side, cx: number, cy: number): SVGElement {
  const mark = svg('circle', `situ-mark ${side}`);
  mark.setAttribute('cx', String(cx));
  mark.setAttribute('cy', String(cy));
  mark.setAttribute('r', '4');
  return mark;
}

/** A report before the runner's lines: the step's number (the answer's words where it has them) and times, listed. */
const numberFields = (
  said: string | undefined,
  step: { speedup: number; eagerMs: number; compiledMs: number },
): string =>
  `per step: ${said ?? formatSpeedup(step.speedup)} · eager ${formatMs(step.eagerMs)} · compiled ${formatMs(step.compiledMs)}`;

/** The overlay with its legend, or null when the region has no in-situ series with a step. */
export function renderInSituChart(region: Region): HTMLElement | null {
  const situ = region.inSitu;
  if (!situ?.series) return null;
  const sides = { compiled: steps(situ.series.compiled), eager: steps(situ.series.eager) };
  const all = [...sides.compiled, ...sides.eager];
  if (!all.length) return null;
  const box = el('div', 'region-chart in-situ-chart');
  const last = Math.max(...all.map((p) => p.index));
  const x = scaleLinear()
    .domain([-0.5, last + 0.5])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  const { y, logScale } = durationScale(
    all.map((p) => p.ms),
    [HEIGHT - MARGIN.bottom, MARGIN.top],
  );
  const chart = svg('svg', 'in-situ');
  chart.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', `${region.id} ${region.name}: each step as written and with compiling off`);
  chart.dataset['scale'] = logScale ? 'log' : 'linear';
  const from = situ.steadyFromCall;
  if (from != null && from <= last) {
    const shade = svg('rect', 'steady');
    shade.setAttribute('x', String(x(from - 0.5)));
    shade.setAttribute('y', String(MARGIN.top));
    shade.setAttribute('width', String(x(last + 0.5) - x(from - 0.5)));
    shade.setAttribute('height', String(HEIGHT - MARGIN.bottom - MARGIN.top));
    const step = situ.step;
    // the runner's line for the steps (schema 1.24), else the recorded numbers listed
    const said = situ.lines?.[0] ?? (step ? numberFields(inSituNumber(region.answer, 'step')?.text, step) : null);
    chart.append(withTitle(shade, `steady state from call ${from}${said ? `\n${said}` : ''}`));
    for (const [side, ms] of step
      ? ([
          ['compiled', step.compiledMs],
          ['eager', step.eagerMs],
        ] as const)
      : []) {
      const median = svg('line', `steady-median ${side}`);
      median.setAttribute('x1', String(x(from - 0.5)));
      median.setAttribute('x2', String(x(last + 0.5)));
      median.setAttribute('y1', String(y(ms)));
      median.setAttribute('y2', String(y(ms)));
      // the runner's words (schema 1.25); a report before them: the fields listed
      chart.append(withTitle(median, situ.medianText?.[side] ?? `${SIDE_TEXT[side]} · median ${formatMs(ms)}`));
    }
  }
  drawAxes(chart, x, y, logScale, 'step (from call N to call N+1)', 'step time');
  const path = line<{ index: number; ms: number }>()
    .x((p) => x(p.index))
    .y((p) => y(p.ms));
  for (const side of ['eager', 'compiled'] as const) {
    const trace = svg('path', `run ${side}`);
    trace.setAttribute('d', path(sides[side]) ?? '');
    trace.dataset['side'] = side;
    trace.dataset['steps'] = String(sides[side].length);
    chart.append(withTitle(trace, SIDE_TEXT[side]));
    for (const p of sides[side].filter((s) => s.compiles > 0)) {
      const mark = stepMark(side, x(p.index), y(p.ms));
      mark.dataset['call'] = String(p.index);
      const said = situ.compileSteps?.find((c) => c.side === side && c.index === p.index)?.text;
      chart.append(withTitle(mark, said ?? `step ${p.index} · ${formatMs(p.ms)} · compiles ${p.compiles}`));
    }
  }
  const legend = el('div', 'chart-legend');
  legend.append(
    legendEntry(runMark('compiled'), SIDE_TEXT.compiled),
    legendEntry(runMark('eager'), SIDE_TEXT.eager),
    legendEntry(stepMark('compiled', 0, 0), 'a step that compiled'),
  );
  if (from != null) legend.append(legendEntry(steadyMark(), 'steady state'));
  box.append(chart, legend);
  return box;
}
