// A torchrun job in the report panel: a table of the ranks (how each ended, what it compiled, its steady call time;
// slowest first, the ranks that diverged marked) and where the ranks diverged, each sentence linked to its line.
// The same digest as the CLI's ranks block. Text only (el()).
import { digestDivergence, noDivergenceText, type RankDigest } from '../extension/present/rankDigest.ts';
import { rankTable, type RankTableRow } from '../extension/present/rankTable.ts';
import type { Report } from '../extension/shared/report.ts';
import { placeLabel } from '../extension/shared/sourcePlace.ts';
import { formatMs, formatPct, formatSeconds, plural } from '../extension/present/numbers.ts';
import { el, termEl } from './panels.ts';
import { sourceLink, type Reveal } from './sourceLinks.ts';

/** The ranks section of a torchrun job's report; null for one process. */
export function renderRankReport(report: Report, reveal: Reveal): HTMLElement | null {
  if (!report.ranks?.length) return null;
  const section = el('section', 'rank-report');
  section.append(el('h2', undefined, `${report.ranks.length} ranks (torchrun)`));
  section.append(renderRankTable(report));
  const divergence = (report.divergence ?? []).map(digestDivergence);
  if (!divergence.length) {
    section.append(el('p', 'region-facts', `Divergence: ${noDivergenceText(report)}.`));
    return section;
  }
  section.append(el('h3', undefined, `Divergence between ranks (${divergence.length})`));
  const list = el('ul', 'divergence');
  for (const d of divergence) {
    const item = termEl('li', d.severity === 'warning' ? 'warning' : 'error', d.message);
    if (d.file !== null && d.line !== null) {
      const { file, line, cell } = d;
      item.append(
        ' ',
        sourceLink({ file, line, cell }, (now) => placeLabel({ file, line: now, cell }), reveal),
      );
    }
    list.append(item);
  }
  section.append(list);
  return section;
}

const COLUMNS = [
  'rank',
  'host',
  'status',
  'graphs',
  'graph breaks',
  'recompiles',
  'compiling',
  // a call of the compiled regions, not the training step around it (review 11 K3: "steady step 0.612 ms" under a
  // chart of 3 ms steps)
  'compiled call (median, steady)',
  'slower than the fastest',
  'notes',
];

/** One row per rank; number cells carry data-value; in a narrow panel the rows stack (table.stacks). */
function renderRankTable(report: Report): HTMLElement {
  const { rows, bySteps } = rankTable(report);
  const box = el('div', 'rank-table-box table-scroll');
  const diverged = rows.filter((r) => r.diverged).length;
  const order = bySteps
    ? "Slowest first, by the compiled call (its regions' median time per call in their steady state, summed: the " +
      'call alone, not the whole training step around it).'
    : 'In rank order (no steady call time measured on every rank).';
  box.append(el('p', 'hint', `${order}${diverged ? ` ${plural(diverged, 'rank')} that diverged marked.` : ''}`));
  const table = el('table', 'rank-table stacks');
  const head = el('tr');
  for (const title of COLUMNS) head.append(el('th', undefined, title));
  table.append(head);
  for (const row of rows) table.append(rankRow(row));
  box.append(table);
  return box;
}

function rankRow({ digest: d, stepMs, overFastest, diverged }: RankTableRow): HTMLElement {
  const failed = d.status !== 'ok' && d.status !== 'unknown';
  const tr = el('tr', [diverged ? 'diverged' : '', failed ? 'error' : ''].filter(Boolean).join(' ') || undefined);
  tr.dataset['rank'] = String(d.rank);
  const count = (n: number | null): HTMLElement => number(n, n === null ? '' : String(n));
  const where = [d.host, d.nodeRank !== null ? `node ${d.nodeRank}` : null].filter((w) => w !== null).join(', ');
  tr.append(
    el('td', 'rank', `rank ${d.rank}`),
    el('td', undefined, where),
    el('td', undefined, d.status === 'unknown' ? '' : d.status),
    count(d.graphs),
    count(d.graphBreaks),
    // where and how many compiles, "at call 3 (2 compiles)"; the sentence, "recompiled at call 3 (2 compiles)", in the row's notes (review
    // 11 I10/J6: a sentence in a column of counts)
    number(d.recompiles, d.recompilesCell ?? (d.recompiles === null ? '' : String(d.recompiles))),
    number(d.compileSeconds, d.compileSeconds === null ? '' : formatSeconds(d.compileSeconds)),
    number(stepMs, stepMs === null ? '' : formatMs(stepMs)),
    // "slower than the fastest: 16%", the fastest "0%" (its header and a word in its cell read "vs fastest fastest")
    number(overFastest, overFastest === null ? '' : formatPct(overFastest * 100)),
    el('td', 'inputs', notes(d, diverged)),
  );
  tr.querySelectorAll('td').forEach((td, k) => {
    td.dataset['label'] = COLUMNS[k]!;
  });
  return tr;
}

function number(value: number | null, text: string): HTMLElement {
  const td = el('td', 'num', text);
  if (value !== null) td.dataset['value'] = String(value);
  return td;
}

/** That it diverged, the rank's error or where it waited, its recompiles as the event they were, its regions' calls
 *  (the runner's words). */
function notes(d: RankDigest, diverged: boolean): string {
  const parts: string[] = [];
  if (diverged) parts.push('diverged (see below)');
  if (d.error) parts.push(d.error);
  if (d.waiting) parts.push(d.waiting);
  if (d.recompilesText) parts.push(d.recompilesText);
  parts.push(...d.regionLines);
  return parts.join(' · ');
}
