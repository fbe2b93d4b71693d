// The range selection's tables: what ran in the range (kernels and CPU ops apart), or for a compared pair both
// sides by name. Sortable by a header button (mouse or keyboard), rows focusable and walked with the arrow keys.
// Strings go in as text only.
import {
  compareRanges,
  sortRangeRows,
  type RangePairRow,
  type RangeRow,
  type RangeSortKey,
  type RangeSummary,
  type SortDirection,
} from './analysis/rangeSummary.ts';
import { formatRangeEnds, formatUs, formatUsLike } from '../extension/present/numbers.ts';
import type { StepsCompared } from './analysis/stepMap.ts';
import { traceNamed } from './timelineWords.ts';
import { calledAsName, notCalledText, rangePairTitle, rangeTableNames, rangeTitle } from './compareWords.ts';
import { el, formatChange } from './panels.ts';

interface Column<T> {
  title: string;
  key: string;
  value: (row: T) => number | string;
  text: (row: T) => string;
  numeric: boolean;
}

const ROW_LIMIT = 200;

/** Lines cited in a name: "line 25", "(line 25)", "(lines 21, 22)", "cell 3, line 7". */
const CITED_LINE = /\(?(?:cell \d+, )?lines? \d+(?:(?:, |–)\d+)*\)?/g;

/** A name's text, its cited lines each in a span that does not wrap: the cell wraps it between words, never
 *  inside "(line 25)" (report4A F4: "(line 2" / "5)"). */
/** A row's count, its calls nested in one of its name told: "2 (1 nested)". */
export const nestedCount = (r: RangeRow): string => (r.nested ? `${r.count} (${r.nested} nested)` : String(r.count));

function keptWhole(text: string): (string | HTMLElement)[] {
  const parts: (string | HTMLElement)[] = [];
  let last = 0;
  for (const match of text.matchAll(CITED_LINE)) {
    parts.push(text.slice(last, match.index), el('span', 'nowrap', match[0]));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((part) => part !== '');
}

/** A sortable table; `initial` is its first order. Clicking (or Enter/Space on) a header sorts by it, again reverses. */
function sortableTable<T>(
  className: string,
  caption: string,
  rows: readonly T[],
  columns: Column<T>[],
  initial: { key: string; direction: SortDirection },
  activate?: (row: T) => void,
): HTMLElement {
  const table = el('table', `range-table ${className}`);
  table.append(el('caption', undefined, caption));
  const head = el('tr');
  const body = el('tbody');
  let order = { ...initial };
  const render = (): void => {
    const column = columns.find((c) => c.key === order.key)!;
    const sign = order.direction === 'ascending' ? 1 : -1;
    const sorted = [...rows].sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      const by = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return sign * by || String(columns[0]!.value(a)).localeCompare(String(columns[0]!.value(b)));
    });
    body.replaceChildren();
    for (const row of sorted.slice(0, ROW_LIMIT)) {
      const tr = el('tr');
      tr.tabIndex = 0;
      if (activate) {
        tr.title = 'Enter or double-click: select its longest slice in the range';
        tr.addEventListener('dblclick', () => activate(row));
        tr.addEventListener('keydown', (event) => {
          if (event.key === 'Enter') activate(row);
        });
      }
      for (const c of columns) {
        const text = c.text(row);
        const td = el('td', c.numeric ? 'num' : 'name');
        if (c.numeric) td.textContent = text;
        else td.append(...keptWhole(text));
        td.dataset['col'] = c.key;
        const value = c.value(row);
        // a name said in words: PyTorch's own in its tooltip
        if (typeof value === 'string' && value !== text) td.title = traceNamed(value);
        if (typeof value === 'number') td.dataset['value'] = String(value);
        tr.append(td);
      }
      body.append(tr);
    }
    if (sorted.length > ROW_LIMIT) {
      const more = el('tr', 'more');
      const td = el('td', 'hint', `… ${sorted.length - ROW_LIMIT} more names (sort by another column to see them)`);
      td.colSpan = columns.length;
      more.append(td);
      body.append(more);
    }
    head
      .querySelectorAll('th')
      .forEach((th, n) => th.setAttribute('aria-sort', columns[n]!.key === order.key ? order.direction : 'none'));
  };
  for (const c of columns) {
    const th = el('th', c.numeric ? 'num' : undefined);
    const button = el('button', 'sort', c.title);
    button.type = 'button';
    button.dataset['key'] = c.key;
    button.addEventListener('click', () => {
      order = {
        key: c.key,
        direction:
          order.key === c.key
            ? order.direction === 'ascending'
              ? 'descending'
              : 'ascending'
            : c.numeric
              ? 'descending'
              : 'ascending',
      };
      render();
    });
    th.append(button);
    head.append(th);
  }
  const thead = el('thead');
  thead.append(head);
  table.append(thead, body);
  // arrow keys walk the rows (each row is one tab stop too)
  body.addEventListener('keydown', (event) => {
    const row = (event.target as HTMLElement).closest('tr');
    if (!row || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
    const next = (
      event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling
    ) as HTMLElement | null;
    if (next?.tabIndex === 0) next.focus();
    event.preventDefault();
    event.stopPropagation();
  });
  render();
  return table;
}

/** The steps a side's range overlaps (stepMap.stepsOverlapped), null where it overlaps none. */
type StepsCovered = StepsCompared | null;

/** A trace's name as its timeline says it (a generated kernel by its graph and place: TimelineCanvas.sayName). */
type Say = (name: string) => string;

const rowColumns = (say: Say): Column<RangeRow>[] => [
  { title: 'name', key: 'name', value: (r) => r.name, text: (r) => say(r.name), numeric: false },
  {
    title: 'count',
    key: 'count',
    value: (r) => r.count,
    // a call inside another of its name: counted, its time in that one's (the total says each moment once)
    text: nestedCount,
    numeric: true,
  },
  { title: 'total', key: 'totalUs', value: (r) => r.totalUs, text: (r) => formatUs(r.totalUs), numeric: true },
  { title: 'self', key: 'selfUs', value: (r) => r.selfUs, text: (r) => formatUs(r.selfUs), numeric: true },
  { title: 'average', key: 'avgUs', value: (r) => r.avgUs, text: (r) => formatUs(r.avgUs), numeric: true },
];

const initialKey: RangeSortKey = 'totalUs';

/**
 * One pane's range: its kernels, then its CPU ops. `offset`: the pane's time 0 (the axis shows summary times minus
 * it); `reveal`: a row's name, to select its longest slice in the range; `say`: a name as the pane's timeline says it.
 */
export function renderRangeSummary(
  summary: RangeSummary,
  paneLabel: string,
  offset: number,
  axisTime: (us: number) => string,
  reveal: (name: string) => void,
  say: Say,
): HTMLElement {
  const section = el('section', 'range-summary');
  const [from, to] = [summary.fromUs - offset, summary.toUs - offset];
  // in the axis's unit, with the digits its length needs: ends that add up
  const unit = (/ (µs|ms|s)$/.exec(axisTime(to))?.[1] ?? 'µs') as 'µs' | 'ms' | 's';
  section.append(el('h3', undefined, rangeTitle(paneLabel, ...formatRangeEnds(from, to, unit))));
  section.append(
    el(
      'p',
      'hint',
      'Times inside the range (slices cut by its edges count their inside part); self = in no slice of another name nested in it. Per profiled step under the profiler: what ran, not how fast.',
    ),
  );
  const initial = { key: initialKey, direction: 'descending' as const };
  // a call nested in another of its name: counted, its time in that one's
  const nestedNote = (rows: RangeRow[]): string =>
    rows.some((r) => r.nested) ? `: ${rangeTableNames.nestedNote}` : '';
  section.append(
    sortableTable(
      'range-kernels',
      `${rangeTableNames.counted(summary.kernelsOnCpu)}${summary.kernelsOnCpu ? `: ${rangeTableNames.countedOnCpu}` : ''} (${summary.kernels.length} names)${nestedNote(summary.kernels)}`,
      sortRangeRows(summary.kernels, initialKey, 'descending'),
      rowColumns(say),
      initial,
      (row) => reveal(row.name),
    ),
  );
  section.append(
    sortableTable(
      'range-cpu',
      `${rangeTableNames.everyLevel} (${summary.cpuOps.length} names)${nestedNote(summary.cpuOps)}`,
      sortRangeRows(summary.cpuOps, initialKey, 'descending'),
      rowColumns(say),
      initial,
      (row) => reveal(row.name),
    ),
  );
  return section;
}

function pairColumns(before: string, after: string, say: Record<'before' | 'after', Say>): Column<RangePairRow>[] {
  const side = (r: RangePairRow['before'], f: 'count' | 'totalUs'): number => (r ? r[f] : 0);
  // as the one range's table says it, its nested calls told (review 17 Y3: "sum 2" beside "2 (1 nested)")
  const countText = (r: RangePairRow['before']): string => (r ? nestedCount(r) : '0');
  // one unit per row, the larger side's: "11.72 ms → 0.11 ms", not "11.72 ms → 106.1 µs"
  const rowLargest = (r: RangePairRow): number => Math.max(side(r.before, 'totalUs'), side(r.after, 'totalUs'));
  // a name both ran is said as the compiled (after) side says it
  const name = (r: RangePairRow): string =>
    r.change === 'called as'
      ? calledAsName(say.before(r.name), say.after(r.calledAs!), after)
      : r.after
        ? say.after(r.name)
        : say.before(r.name);
  // the time it gained or lost, what the column sorts by, in the row's unit; its share or what became of it beside it
  // (review 8A A8: "−28%, −45%, gone, gone" sorted by time read as unsorted)
  const changeText = (row: RangePairRow): string => {
    const magnitude = formatUsLike(Math.abs(row.deltaUs), rowLargest(row));
    const time = row.deltaUs > 0 ? `+${magnitude}` : row.deltaUs < 0 ? `−${magnitude}` : magnitude;
    if (row.change === 'only before')
      return `${time}, ${row.calledAs ? notCalledText(say.after(row.calledAs), after) : 'gone (fused away or replaced)'}`;
    if (row.change === 'only after') return `${time}, new`;
    const total = row.before!.totalUs;
    return total > 0 ? `${time} (${formatChange(row.deltaUs / total)})` : time;
  };
  return [
    { title: 'name', key: 'name', value: (r) => r.name, text: name, numeric: false },
    {
      title: `${before} count`,
      key: 'beforeCount',
      value: (r) => side(r.before, 'count'),
      text: (r) => countText(r.before),
      numeric: true,
    },
    {
      title: `${before} total`,
      key: 'beforeTotal',
      value: (r) => side(r.before, 'totalUs'),
      text: (r) => (r.before ? formatUsLike(r.before.totalUs, rowLargest(r)) : '—'),
      numeric: true,
    },
    {
      title: `${after} count`,
      key: 'afterCount',
      value: (r) => side(r.after, 'count'),
      text: (r) => countText(r.after),
      numeric: true,
    },
    {
      title: `${after} total`,
      key: 'afterTotal',
      value: (r) => side(r.after, 'totalUs'),
      text: (r) => (r.after ? formatUsLike(r.after.totalUs, rowLargest(r)) : '—'),
      numeric: true,
    },
    { title: 'change', key: 'delta', value: (r) => r.deltaUs, text: changeText, numeric: true },
  ];
}

/** A compared pair's ranges side by side: what fused away, what is new, what got slower. */
export function renderRangePair(
  before: { label: string; summary: RangeSummary; steps: StepsCovered; say: Say },
  after: { label: string; summary: RangeSummary; steps: StepsCovered; say: Say },
): HTMLElement {
  const section = el('section', 'range-pair');
  const pair = compareRanges(before.summary, after.summary);
  const length = (s: RangeSummary): number => s.toUs - s.fromUs;
  section.append(
    el(
      'h3',
      undefined,
      rangePairTitle(
        { label: before.label, steps: before.steps, us: length(before.summary) },
        { label: after.label, steps: after.steps, us: length(after.summary) },
      ),
    ),
  );
  const columns = pairColumns(before.label, after.label, { before: before.say, after: after.say });
  const initial = { key: 'delta', direction: 'descending' as const };
  // the compare's words: CPU ops where both sides ran on the CPU alone (its device: GPU where either has one)
  const counted = rangeTableNames.counted(before.summary.kernelsOnCpu && after.summary.kernelsOnCpu);
  section.append(sortableTable('pair-kernels', counted, pair.kernels, columns, initial));
  section.append(sortableTable('pair-cpu', rangeTableNames.everyLevel, pair.cpuOps, columns, initial));
  return section;
}
