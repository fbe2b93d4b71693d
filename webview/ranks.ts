// A distributed job's ranks in the timeline: how they are aligned (said above the panes), the communication
// legend entry, and the per-step table under the panes (communication, overlap, step time, slowest rank).
import type { TimelinePane } from '../extension/core/protocol.ts';
import type { TraceModel } from '../extension/core/trace/model.ts';
import { rankStepTable, type RankStepStat, type RankStepTable } from '../extension/core/trace/rankSteps.ts';
import { hostsOf, rankAlignment, type RankAlignment } from '../extension/core/trace/ranks.ts';
import { formatMicros } from '../extension/core/trace/summary.ts';
import type { TraceHead } from '../extension/core/trace/traceHead.ts';
import { el } from './panels.ts';

export interface RankView {
  heads: TraceHead[];
  alignment: RankAlignment;
  /** null while a preview shows (its panes hold only the slices around the first view) */
  table: RankStepTable | null;
}

/** The rank view of a message's panes, or null when they are not a rank set (every pane carries its rank). */
export function rankViewOf(panes: readonly TimelinePane[], models: readonly TraceModel[], partial: boolean): RankView | null {
  if (panes.length === 0 || !panes.every((p) => p.rank)) return null;
  const heads = panes.map((p) => p.rank!);
  return {
    heads,
    alignment: rankAlignment(models.map((trace, p) => ({ trace, rank: heads[p] }))),
    table: partial ? null : rankStepTable(models),
  };
}

/** What the panes are and how their times line up, in words. */
export function renderRankNote(view: RankView): HTMLElement {
  const box = el('div', 'rank-note');
  const { heads, alignment } = view;
  const worldSize = Math.max(0, ...heads.map((h) => h.worldSize ?? 0));
  const backend = heads.find((h) => h.backend)?.backend;
  const ranks = heads.map((h) => h.rank).filter((r): r is number => r !== null);
  const of = worldSize > 0 ? ` of world size ${worldSize}` : '';
  const missing = worldSize > heads.length ? ` — ${worldSize - heads.length} rank${worldSize - heads.length === 1 ? '' : 's'} not shown` : '';
  box.append(el('p', 'rank-set', `Ranks ${ranks.join(', ')}${of}${backend ? ` (${backend})` : ''}${missing}.`));
  if (alignment.mode === 'absolute') {
    const hosts = hostsOf(heads);
    const host = hosts.length === 1 ? ` of one host (${hosts[0]})` : '';
    box.append(el('p', 'rank-alignment', `One time axis: the ranks${host} share its clock, so their slices line up as they ran. Time 0 is the earliest rank's start of the step.`));
    if (alignment.note) box.append(el('p', 'rank-alignment warning', alignment.note));
  } else {
    box.append(el('p', 'rank-alignment warning', alignment.reason));
  }
  return box;
}

const percent = (part: number, whole: number): string => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');

/**
 * One row per step and rank: step time, communication, the part overlapped with computation, work (the step
 * less its exposed communication); per step the slowest rank and its lead. Number cells carry data-value (µs).
 */
export function renderRankSteps(table: RankStepTable, labels: readonly string[], showStep: (step: number) => void): HTMLElement {
  const section = el('section', 'rank-steps');
  section.append(el('h3', undefined, 'Communication per step'));
  const sides = new Set(table.sides);
  const measured = sides.size === 1 && sides.has('gpu') ? 'GPU collective kernels (NCCL)'
    : sides.size === 1 ? 'CPU collective ops (gloo, or no GPU collective kernels in these traces)'
    : 'GPU collective kernels where a rank has them, else its CPU collective ops';
  section.append(el('p', 'hint', `Communication: the union of ${measured}; overlapped: the part during which the same rank computed. `
    + 'Work is the step less its exposed (not overlapped) communication: in a synchronous job the rank with the most work is the one the others waited for.'));
  if (table.wholeTrace) section.append(el('p', 'hint', 'No ProfilerStep spans in these traces: one row per rank covers its whole trace, and no slowest rank is named (whole traces differ by when each profiler started). Profile with a schedule and prof.step() for steps.'));
  const grid = el('table', 'rank-steps-table');
  const head = el('tr');
  for (const title of ['step', 'rank', 'step time', 'communication', 'overlapped', 'work', 'slowest rank']) head.append(el('th', undefined, title));
  grid.append(head);
  table.rows.forEach((row, index) => {
    row.ranks.forEach((stat, p) => {
      const tr = el('tr', row.slowest?.pane === p && !row.slowest.even ? 'slowest' : undefined);
      tr.dataset.step = row.label;
      tr.dataset.pane = String(p);
      if (p === 0) {
        const step = el('th', 'step');
        step.rowSpan = row.ranks.length;
        if (table.wholeTrace) step.textContent = row.label;
        else {
          const link = el('button', 'link', row.label);
          link.type = 'button';
          link.title = 'Show this step in the timeline';
          link.addEventListener('click', () => showStep(index));
          step.append(link);
        }
        tr.append(step);
      }
      tr.append(el('td', undefined, labels[p]));
      tr.append(...statCells(stat));
      if (p === 0) {
        const slowest = el('td', 'slowest-rank', slowestText(row.slowest, labels));
        slowest.rowSpan = row.ranks.length;
        if (row.slowest) slowest.dataset.pane = String(row.slowest.pane);
        tr.append(slowest);
      }
      grid.append(tr);
    });
  });
  const scroll = el('div', 'table-scroll');
  scroll.append(grid);
  section.append(scroll);
  return section;
}

function statCells(stat: RankStepStat | null): HTMLElement[] {
  if (!stat) return [0, 1, 2, 3].map(() => el('td', 'num', '—'));
  const cell = (us: number, text = formatMicros(us)): HTMLElement => {
    const td = el('td', 'num', text);
    td.dataset.value = String(us);
    return td;
  };
  return [
    cell(stat.stepUs),
    cell(stat.commUs, `${formatMicros(stat.commUs)} (${percent(stat.commUs, stat.stepUs)} of step)`),
    cell(stat.overlappedUs, `${formatMicros(stat.overlappedUs)} (${percent(stat.overlappedUs, stat.commUs)})`),
    cell(stat.workUs),
  ];
}

function slowestText(slowest: RankStepTable['rows'][number]['slowest'], labels: readonly string[]): string {
  if (!slowest) return '—';
  const lead = `+${formatMicros(slowest.leadUs)} of work`;
  return slowest.even ? `even (${labels[slowest.pane]} ${lead})` : `${labels[slowest.pane]}, ${lead} over the fastest`;
}

/** The legend's communication entry (swatch + label). */
export function communicationLegend(): HTMLElement[] {
  return [el('span', 'swatch kind-communication'), el('span', 'legend-label', 'communication (NCCL/gloo)')];
}
