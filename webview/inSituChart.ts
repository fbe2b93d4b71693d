// A script region's in-situ steps overlaid (SVG, d3; both separate runs, or both sides of the interleaved run, 1.16):
// per call index, the step from that call to the next as
// the script made it as written (compiled) and with compiling off (eager), the steps that compiled marked, the
// steady state shaded with both medians. A log scale when compile steps dwarf the rest.
import { line, scaleLinear } from 'd3';
import type { InSituPoint, Region } from '../extension/shared/report.ts';
import { el } from './panels.ts';
import {
  countedRuns,
  drawAxes,
  durationScale,
  HEIGHT,
  legendEntry,
  MARGIN,
  SIDE_TEXT,
  steadyMark,
  steadyShades,
  svg,
  WIDTH,
  withTitle,
} from './regionChart.ts';

type Side = 'compiled' | 'eager';

interface Step {
  index: number;
  ms: number;
  compiles: number;
}

function steps(points: InSituPoint[]): Step[] {
  // interleaved runs (schema 1.16) carry each call's index: the two sides take turns in one run
  return points.flatMap((p, position) =>
    p[1] !== null && p[1] > 0 ? [{ index: p[3] ?? position, ms: p[1], compiles: p[2] }] : [],
  );
}

/** `own` steps in call order with a null wherever a step of `other` ran between two of them: the line's gaps. */
function withGaps(own: Step[], other: Step[]): (Step | null)[] {
  const between = other.map((p) => p.index).sort((a, b) => a - b);
  const sorted = [...own].sort((a, b) => a.index - b.index);
  const out: (Step | null)[] = [];
  let k = 0; // the first of `between` past the previous step
  sorted.forEach((p, n) => {
    if (n > 0) {
      while (k < between.length && between[k]! <= sorted[n - 1]!.index) k++;
      if (k < between.length && between[k]! < p.index) out.push(null);
    }
    out.push(p);
  });
  return out;
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

/** The overlay with its legend, or null when the region has no in-situ series with two steps: one step is a lone dot
 *  on a full chart, which says nothing the story's sentence does not ("Call 0 compiled (118 ms)", review G11). */
export function renderInSituChart(region: Region): HTMLElement | null {
  const situ = region.inSitu;
  if (!situ?.series) return null;
  const sides = { compiled: steps(situ.series.compiled), eager: steps(situ.series.eager) };
  const all = [...sides.compiled, ...sides.eager];
  if (all.length < 2) return null;
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
  // the steady state is shaded only where the runner found steady steps both ways (its step speedup): a report
  // saying "no steady eager step" has a first quiet call, but no steady state to shade
  const from = situ.step ? situ.steadyFromCall : null;
  const points = new Map((situ.stepPoints ?? []).map((p) => [p.index, p]));
  if (from != null && from <= last) {
    const step = situ.step;
    // the runner's words; a report before them: its in-situ number's line, else none (the panel words nothing)
    const title = situ.steadyText ?? situ.lines?.[0] ?? null;
    // only the steps the number counted (s27): a left-out step inside the steady state stays unshaded
    chart.append(...steadyShades(countedRuns(situ.stepPoints, from, last), x, title));
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
      median.dataset['ms'] = String(ms);
      // the runner's words (schema 1.25)
      const said = situ.medianText?.[side];
      chart.append(said === undefined ? median : withTitle(median, said));
    }
  }
  drawAxes(chart, x, y, logScale, 'step (from call N to call N+1)', 'step time');
  // a gap where the other side ran: each side's line joins only its own adjacent steps, never across the other's block
  const path = line<Step | null>()
    .defined((p) => p !== null)
    .x((p) => x(p!.index))
    .y((p) => y(p!.ms));
  let drewLeftOut = false; // a left-out step that compiled is drawn as a compile mark, not hollow
  for (const side of ['eager', 'compiled'] as const) {
    const trace = svg('path', `run ${side}`);
    trace.setAttribute('d', path(withGaps(sides[side], sides[side === 'eager' ? 'compiled' : 'eager'])) ?? '');
    trace.dataset['side'] = side;
    trace.dataset['steps'] = String(sides[side].length);
    chart.append(withTitle(trace, SIDE_TEXT[side]));
    for (const p of sides[side]) {
      const point = points.get(p.index);
      if (p.compiles > 0) {
        const mark = stepMark(side, x(p.index), y(p.ms));
        mark.dataset['call'] = String(p.index);
        const said = situ.compileSteps?.find((c) => c.side === side && c.index === p.index)?.text;
        // the runner's words (schema 1.25) say whether it counted too (s27)
        chart.append(said === undefined ? mark : withTitle(mark, said));
      } else if (point?.text) {
        // each step says in the runner's words whether it counted (and whose it is under torchrun); a left-out one
        // is drawn hollow, apart from the counted
        const mark = svg('circle', point.counted ? `situ-point ${side} counted` : 'situ-point left-out');
        mark.setAttribute('cx', String(x(p.index)));
        mark.setAttribute('cy', String(y(p.ms)));
        mark.setAttribute('r', point.counted ? '1.5' : '2.5');
        mark.dataset['call'] = String(p.index);
        drewLeftOut ||= !point.counted;
        chart.append(withTitle(mark, point.text));
      }
    }
  }
  const legend = el('div', 'chart-legend');
  // an entry only for what the chart draws: a side with no step (the script's calls all came before the interleaving
  // began) has no line to name
  for (const side of ['compiled', 'eager'] as const)
    if (sides[side].length) legend.append(legendEntry(runMark(side), SIDE_TEXT[side]));
  legend.append(legendEntry(stepMark('compiled', 0, 0), 'a step that compiled'));
  if (from != null && from <= last) legend.append(legendEntry(steadyMark(), 'steady state (the steps counted)'));
  if (drewLeftOut) {
    const hollow = svg('circle', 'situ-point left-out');
    hollow.setAttribute('r', '2.5');
    legend.append(legendEntry(hollow, 'a step left out (its tooltip says why)'));
  }
  // a torchrun job's steps are the slowest rank's at each step: whose, in the runner's words (review 3B M2)
  if (situ.ranksText) box.append(el('p', 'chart-whose', situ.ranksText));
  box.append(chart, legend);
  return box;
}
