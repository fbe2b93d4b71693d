// A distributed job's ranks in the timeline: how they are aligned (said above the panes), the communication
// legend entry, and the per-step table under the panes (communication, overlap, step time, slowest rank).
import { stepWords } from './analysis/sliceNames.ts';
import type { TimelinePane } from '../extension/shared/protocol.ts';
import type { TraceModel } from '../extension/shared/trace/model.ts';
import { meanWorkUs, RANKS_SHOWN_FIRST, slowestAndFastest } from './analysis/rankOrder.ts';
import { rankStepTable, type RankStepStat, type RankStepTable } from './analysis/rankSteps.ts';
import { hostsOf, rankAlignment, type RankAlignment } from '../extension/shared/trace/ranks.ts';
import { formatUsLike } from '../extension/present/numbers.ts';
import type { TraceHead } from '../extension/shared/trace/traceHead.ts';
import { el, swatchEntry } from './panels.ts';

export interface RankView {
  heads: TraceHead[];
  alignment: RankAlignment;
  /** null while a preview shows (its panes hold only the slices around the first view) */
  table: RankStepTable | null;
  /** more ranks than RANKS_SHOWN_FIRST: how the panes are ordered and how many wait behind "Show all" */
  order: { by: 'work' | 'rank'; total: number; hidden: number } | null;
}

/**
 * The panes to draw of a message's panes and their rank view. Up to RANKS_SHOWN_FIRST ranks: all, as sent (rank
 * order). More: slowest first by mean work per step (rank order while a preview shows: its steps are partial), the
 * slowest and fastest only unless `showAll`; the others are neither built into a timeline nor drawn.
 */
export function rankPanesShown<P extends TimelinePane>(
  panes: readonly P[],
  models: readonly TraceModel[],
  partial: boolean,
  showAll: boolean,
): { panes: P[]; models: TraceModel[]; view: RankView | null } {
  const all = { panes: [...panes], models: [...models] };
  if (panes.length <= RANKS_SHOWN_FIRST || !panes.every((p) => p.rank))
    return { ...all, view: rankViewOf(panes, models, partial) };
  const by = partial ? 'rank' : 'work';
  const order = partial
    ? {
        shown: panes.map((_, p) => p).slice(0, RANKS_SHOWN_FIRST),
        rest: panes.map((_, p) => p).slice(RANKS_SHOWN_FIRST),
      }
    : slowestAndFastest(meanWorkUs(rankStepTable(models)));
  const chosen = showAll ? [...order.shown, ...order.rest] : order.shown;
  const shown = { panes: chosen.map((p) => panes[p]!), models: chosen.map((p) => models[p]!) };
  const view = rankViewOf(shown.panes, shown.models, partial)!;
  return { ...shown, view: { ...view, order: { by, total: panes.length, hidden: panes.length - chosen.length } } };
}

/** The rank view of a message's panes, or null when they are not a rank set (every pane carries its rank). */
function rankViewOf(panes: readonly TimelinePane[], models: readonly TraceModel[], partial: boolean): RankView | null {
  if (panes.length === 0 || !panes.every((p) => p.rank)) return null;
  const heads = panes.map((p) => p.rank!);
  return {
    heads,
    alignment: rankAlignment(models.map((trace, p) => ({ trace, rank: heads[p]! }))),
    table: partial ? null : rankStepTable(models),
    order: null,
  };
}

/** What the panes are, in which order, and how their times line up, in words; `showAll` draws the hidden ranks. */
export function renderRankNote(view: RankView, showAll: () => void): HTMLElement {
  const box = el('div', 'rank-note');
  const { heads, alignment, order } = view;
  const worldSize = Math.max(0, ...heads.map((h) => h.worldSize ?? 0));
  const backend = heads.find((h) => h.backend)?.backend;
  const ranks = heads.map((h) => h.rank).filter((r): r is number => r !== null);
  const of = worldSize > 0 ? ` of world size ${worldSize}` : '';
  const missing =
    worldSize > heads.length
      ? ` — ${worldSize - heads.length} rank${worldSize - heads.length === 1 ? '' : 's'} not shown`
      : '';
  box.append(el('p', 'rank-set', `Ranks ${ranks.join(', ')}${of}${backend ? ` (${backend})` : ''}${missing}.`));
  if (order) box.append(renderRankOrder(order, heads.length, showAll));
  if (alignment.mode === 'absolute') {
    const hosts = hostsOf(heads);
    const host = hosts.length === 1 ? ` of one host (${hosts[0]})` : '';
    box.append(
      el(
        'p',
        'rank-alignment',
        `One time axis: the ranks${host} share its clock, so their slices line up as they ran. Time 0 is the earliest rank's start of the step.`,
      ),
    );
    if (alignment.note) box.append(el('p', 'rank-alignment warning', alignment.note));
  } else {
    box.append(el('p', 'rank-alignment warning', alignment.reason));
  }
  return box;
}

function renderRankOrder(order: NonNullable<RankView['order']>, shown: number, showAll: () => void): HTMLElement {
  const line = el('p', 'rank-order');
  const by =
    order.by === 'work'
      ? 'slowest first, by mean work per step (the step less its exposed communication)'
      : 'in rank order until the traces have fully loaded (then slowest first)';
  if (order.hidden === 0) {
    line.textContent = `All ${order.total} ranks, ${by}.`;
    return line;
  }
  const which =
    order.by === 'work'
      ? `the ${Math.ceil(shown / 2)} slowest and the ${shown - Math.ceil(shown / 2)} fastest`
      : `the first ${shown}`;
  line.textContent = `Showing ${which} of ${order.total} ranks, ${by}; ${order.hidden} more not drawn. The per-step table covers the ranks shown. `;
  const button = el('button', 'show-all-ranks', `Show all ${order.total} ranks`);
  button.type = 'button';
  button.addEventListener('click', showAll);
  line.append(button);
  return line;
}

const percent = (part: number, whole: number): string => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');

/**
 * One row per step and rank: step time, communication, the part overlapped with computation, the rest of the step
 * (its work) split into the time that ran recorded ops and the time with none (Python, sleep, I/O); per step the
 * slowest rank and its lead. Number cells carry data-value (µs).
 */
export function renderRankSteps(
  table: RankStepTable,
  labels: readonly string[],
  showStep: (step: number) => void,
): HTMLElement {
  const section = el('section', 'rank-steps');
  section.append(el('h3', undefined, 'Communication per step'));
  const sides = new Set(table.sides);
  const measured =
    sides.size === 1 && sides.has('gpu')
      ? 'the time in GPU collective kernels (NCCL)'
      : sides.size === 1
        ? 'the time in CPU collective ops (gloo; these traces have no GPU collective kernels)'
        : "the time in a rank's GPU collective kernels where it has them, else in its CPU collective ops";
  section.append(
    el(
      'p',
      'hint',
      `Communication: ${measured}; overlapped: the part of it during which the same rank computed. ` +
        'The rest of the step splits into time running ops the profiler recorded and time with no op recorded ' +
        '(Python between ops, a sleep, I/O, waiting for data): in a synchronous job the rank with the most of both ' +
        'is the one the others waited for; where it is time with no op recorded, look there, not at its ops. ' +
        "The slowest rank's lead (last column) is that difference of time, not how long the others waited: the " +
        'timeline says that, from when each rank reached the collective, where the ranks share a clock.',
    ),
  );
  if (table.wholeTrace)
    section.append(
      el(
        'p',
        'hint',
        'No ProfilerStep spans in these traces: one row per rank covers its whole trace, and no slowest rank is named (whole traces differ by when each profiler started). Profile with a schedule and prof.step() for steps.',
      ),
    );
  // one unit in the table: ms where a step takes one or more (no "0.0 µs" beside "43.58 ms")
  const longest = Math.max(0, ...table.rows.flatMap((row) => row.ranks.map((stat) => stat?.stepUs ?? 0)));
  const time = (us: number): string => formatUsLike(us, longest);
  const grid = el('table', 'rank-steps-table');
  const head = el('tr');
  for (const title of [
    'step',
    'rank',
    'step time',
    'communication',
    'overlapped',
    'ops recorded',
    UNRECORDED_SUM,
    'slowest rank',
  ]) {
    const th = el('th', undefined, title);
    if (title === UNRECORDED_SUM)
      th.title =
        "The step's stretches with no op recorded on this rank, summed; the timeline labels each stretch on its own.";
    head.append(th);
  }
  grid.append(head);
  table.rows.forEach((row, index) => {
    row.ranks.forEach((stat, p) => {
      const tr = el('tr', row.slowest?.pane === p && !row.slowest.even ? 'slowest' : undefined);
      tr.dataset['step'] = row.label;
      tr.dataset['pane'] = String(p);
      if (p === 0) {
        const step = el('th', 'step');
        step.rowSpan = row.ranks.length;
        if (table.wholeTrace) step.textContent = stepWords(row.label);
        else {
          const link = el('button', 'link', stepWords(row.label)); // "step 3", as the timeline's axis says it
          link.type = 'button';
          link.title = 'Show this step in the timeline';
          link.addEventListener('click', () => showStep(index));
          step.append(link);
        }
        tr.append(step);
      }
      tr.append(el('td', undefined, labels[p]));
      tr.append(...statCells(stat, time));
      if (p === 0) {
        const slowest = el('td', 'slowest-rank', slowestText(row.slowest, labels, time));
        slowest.rowSpan = row.ranks.length;
        if (row.slowest) slowest.dataset['pane'] = String(row.slowest.pane);
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

function statCells(stat: RankStepStat | null, time: (us: number) => string): HTMLElement[] {
  if (!stat) return [0, 1, 2, 3, 4].map(() => el('td', 'num', '—'));
  const cell = (us: number, text = time(us)): HTMLElement => {
    const td = el('td', 'num', text);
    td.dataset['value'] = String(us);
    return td;
  };
  return [
    cell(stat.stepUs),
    cell(stat.commUs, `${time(stat.commUs)} (${percent(stat.commUs, stat.stepUs)} of step)`),
    cell(stat.overlappedUs, `${time(stat.overlappedUs)} (${percent(stat.overlappedUs, stat.commUs)})`),
    cell(stat.workUs - stat.unrecordedUs),
    cell(stat.unrecordedUs),
  ];
}

/** The column of a step's stretches with no op recorded, summed: named apart from the timeline's label of one stretch
 *  (review 12N C7: "40.2 ms, no op recorded" on the timeline, 41.0 ms for that step in a column of the same name). */
const UNRECORDED_SUM = 'no op recorded (sum)';

/**
 * The slowest rank of a step said as what was compared: its time outside communication against the fastest
 * rank's ("rank 1: 37.7 ms more outside communication than rank 0"), and how much of that ran no recorded op, never
 * more than the whole (the fastest may have run more recorded ops than the slowest: the slowest's extra unrecorded
 * time then covers all of the lead). Never said as how long the others waited for it: that is the timeline's, from
 * when each rank reached the collective and only where their clocks compare (analysis/rankWaits.ts arrivedAt; review
 * 18Y: "37.7 ms … (the time the others waited for it)" here beside rank 0's "36.8 ms of that waiting for rank 1").
 */
function slowestText(
  slowest: RankStepTable['rows'][number]['slowest'],
  labels: readonly string[],
  time: (us: number) => string,
): string {
  if (!slowest) return '—';
  const rank = labels[slowest.pane];
  const compared = `${time(slowest.leadUs)} more outside communication than ${labels[slowest.fastest]}`;
  if (slowest.even) return `even: ${rank} only ${compared}`;
  const lead = `${rank}: ${compared}`;
  // where most of the lead ran no recorded op, its ops are not what to speed up
  if (slowest.unrecordedLeadUs >= slowest.leadUs) return `${lead}, all of it with no op recorded (Python, sleep, I/O)`;
  return slowest.unrecordedLeadUs >= slowest.leadUs / 2
    ? `${lead}, ${time(slowest.unrecordedLeadUs)} of it with no op recorded (Python, sleep, I/O)`
    : `${lead}, running recorded ops`;
}

/** The legend's communication entry. */
export function communicationLegend(): HTMLElement {
  return swatchEntry('communication', 'communication (NCCL/gloo)');
}
