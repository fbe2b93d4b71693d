// The compare panel: two runs of one file side by side, readable in a narrow column (report4B M13: a markdown table
// wrapped "0.62× per / call / replayed / (0.40– / 1.23×)"). Each region's verdict is a line per run, the runner's words
// as they are; the short quantities sit in a small table; a number with its unit, and a range, never break inside.
import type { ComparedBlock, RunComparison } from '../extension/shared/protocol.ts';
import { el } from './panels.ts';

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?`;
/** "0.62×", "(0.40–1.23×)", "0.0137 ms", "0.70 ms/step", "2.0 s", "+16%": kept on one line each */
const WHOLE = new RegExp(
  String.raw`\(?${NUMBER}(?:–${NUMBER})?(?:×|\s?(?:ms|µs|s)\b|%)?(?:\/(?:step|call|token))?\)?`,
  'g',
);

/** The runner's text as nodes: `code` (a finding quotes the user's source so) as code, each number with its unit, and
 *  each range, in a span that does not wrap. */
function saidNodes(text: string): Node[] {
  return text.split(/`([^`]+)`/).flatMap((part, k) => (k % 2 ? [el('code', undefined, part)] : wholeNumbers(part)));
}

function wholeNumbers(text: string): Node[] {
  const nodes: Node[] = [];
  let at = 0;
  for (const match of text.matchAll(WHOLE)) {
    if (match.index > at) nodes.push(document.createTextNode(text.slice(at, match.index)));
    nodes.push(el('span', 'whole', match[0]));
    at = match.index + match[0].length;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

const said = (className: string, text: string): HTMLElement => {
  const node = el('span', className);
  node.append(...saidNodes(text));
  return node;
};

/** A line per run: "before" or "after", then what that run says. */
function sideLines(values: readonly string[]): HTMLElement {
  const lines = el('div', 'compare-sides');
  ['before', 'after'].forEach((side, k) => {
    if (!values[k]) return;
    lines.append(el('span', 'compare-side', side), said('compare-said', values[k]));
  });
  return lines;
}

function renderBlock(block: ComparedBlock): HTMLElement {
  const section = el('section', 'compare-block');
  section.append(el('h2', undefined, block.title), sideLines(block.answer));
  if (block.change !== null) section.append(said('compare-change', block.change));
  const table = el('table', 'compare-rows');
  const head = el('tr');
  head.append(el('th'), el('th', undefined, 'before'), el('th', undefined, 'after'));
  table.append(head);
  for (const row of block.rows) {
    // a value that changed stands out, where the region is in both runs
    const changed = row.values.every(Boolean) && row.values[0] !== row.values[1];
    const tr = el('tr', changed ? 'compare-changed' : undefined);
    tr.append(el('th', undefined, row.measure));
    for (const value of row.values) {
      const td = el('td');
      td.append(...wholeNumbers(value));
      tr.append(td);
    }
    table.append(tr);
  }
  section.append(table);
  if (block.changed.some((facts) => facts.length)) {
    section.append(el('h3', undefined, 'What changed'), sideLines(block.changed.map((facts) => facts.join(' · '))));
  }
  return section;
}

function siteList(title: string, sites: readonly string[]): HTMLElement[] {
  if (!sites.length) return [];
  const list = el('ul');
  for (const site of sites) {
    const item = el('li');
    item.append(...saidNodes(site));
    list.append(item);
  }
  return [el('h3', undefined, `${title} (${sites.length})`), list];
}

/** The whole compare, in place of what `app` held. */
export function renderRunComparison(app: HTMLElement, comparison: RunComparison): void {
  const when = el('div', 'compare-sides compare-when');
  comparison.runs.forEach((run, k) => {
    when.append(
      el('span', 'compare-side', k === 0 ? 'before' : 'after'),
      said('compare-said', run.headline ? `${run.when}: ${run.headline}` : run.when),
    );
  });
  app.replaceChildren(el('h1', undefined, `Compare ${comparison.name}`), when);
  app.append(...comparison.blocks.map(renderBlock));
  const sites = el('section', 'compare-block');
  sites.append(el('h2', undefined, 'Graph breaks and recompiles'));
  if (comparison.sameSites !== null) sites.append(el('p', undefined, comparison.sameSites));
  sites.append(...siteList('Gone', comparison.gone), ...siteList('Added', comparison.added));
  app.append(sites);
}
