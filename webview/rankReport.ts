// A torchrun job in the report panel: one line per rank (how it ended, what it compiled, its calls) and where the
// ranks diverged, each sentence linked to its line. The same digest as the CLI's ranks block. Text only (el()).
import { digestDivergence, digestRank, rankLine } from '../extension/core/rankDigest.ts';
import type { Report } from '../extension/core/report.ts';
import { placeLabel } from '../extension/core/sourcePlace.ts';
import { el } from './panels.ts';
import type { Reveal } from './regions.ts';

/** The ranks section of a torchrun job's report; null for one process. */
export function renderRankReport(report: Report, reveal: Reveal): HTMLElement | null {
  if (!report.ranks?.length) return null;
  const section = el('section', 'rank-report');
  section.append(el('h2', undefined, `${report.ranks.length} ranks (torchrun)`));
  const ranks = el('ul');
  for (const entry of report.ranks) ranks.append(el('li', entry.status === 'ok' || entry.status === undefined ? undefined : 'error', rankLine(digestRank(entry))));
  section.append(ranks);
  const divergence = (report.divergence ?? []).map(digestDivergence);
  if (!divergence.length) {
    section.append(el('p', 'region-facts', 'No divergence: the ranks compiled and ran the same graphs.'));
    return section;
  }
  section.append(el('h3', undefined, `Divergence between ranks (${divergence.length})`));
  const list = el('ul', 'divergence');
  for (const d of divergence) {
    const item = el('li', d.severity === 'warning' ? 'warning' : 'error', d.message);
    if (d.file !== null && d.line !== null) {
      const { file, line, cell } = d;
      const link = el('button', 'link', placeLabel({ file, line, cell }));
      link.type = 'button';
      link.addEventListener('click', () => reveal(file, line, cell));
      item.append(' ', link);
    }
    list.append(item);
  }
  section.append(list);
  return section;
}
