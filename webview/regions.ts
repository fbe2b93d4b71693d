// A script report's regions in the report panel: per compiled callable, where it was compiled, what the script
// did with it, its first-call story and chart, and its replayed measurements (speedup and where the next run may land,
// per mode and inputs).
// Report strings go in as text only (el()).
import {
  digestRegion,
  measurementCells,
  recommendationLine,
  regionFacts,
  type RegionDigest,
} from '../extension/present/regionDigest.ts';
import type { RegionCall, Report } from '../extension/shared/report.ts';
import { placeLabel } from '../extension/shared/sourcePlace.ts';
import { explanation } from '../extension/present/glossary.ts';
import { plural } from '../extension/present/numbers.ts';
import { el, saidEl, speedupCell, termEl } from './panels.ts';
import { renderInSituChart } from './inSituChart.ts';
import { renderRegionChart } from './regionChart.ts';
import { sourceLink, type Reveal } from './sourceLinks.ts';

const COLUMNS = [
  'inputs',
  'mode',
  'speedup',
  'next run',
  'compiled',
  'eager',
  'kernels / call',
  "the replay's own compile",
  'break-even',
];

function measurementTable(digest: RegionDigest): HTMLTableElement {
  const table = el('table', 'region-measurements stacks');
  const head = el('tr');
  for (const title of COLUMNS) head.append(el('th', undefined, title));
  table.append(head);
  for (const m of digest.measurements) {
    const row = el('tr');
    const inputs = el('td', 'inputs', m.signature ?? '');
    if (m.why)
      inputs.append(
        el(
          'span',
          'hint',
          ` (${m.why === 'last' ? 'last' : 'most frequent'}${m.signatureCalls !== null ? `, ${plural(m.signatureCalls, 'call')}` : ''})`,
        ),
      );
    row.append(inputs, el('td', undefined, m.label));
    if (m.status === 'error') {
      const error = el('td', 'error', `failed: ${m.error ?? 'unknown error'}`);
      error.colSpan = COLUMNS.length - 2;
      row.append(error);
    } else {
      // an unmeasured cell stays empty: no placeholder number
      const cell = (text: string | null) => el('td', undefined, text ?? '');
      const c = measurementCells(m);
      row.append(
        speedupCell(c.speedup ?? '', c),
        cell(c.nextRun),
        cell(c.compiled),
        cell(c.eager),
        cell(c.kernels),
        cell(c.compile),
        cell(c.breakEven),
      );
    }
    // each cell names its column: a narrow panel stacks the rows (styles.ts) instead of scrolling sideways
    row.querySelectorAll('td').forEach((td, k) => {
      if (td.colSpan === 1) td.dataset['label'] = COLUMNS[k]!;
    });
    table.append(row);
    for (const note of [
      m.mismatch && `numeric mismatch vs eager: ${m.mismatch}`,
      m.remeasured && `re-measured: ${m.remeasured}`,
    ]) {
      if (!note) continue;
      const noteRow = el('tr');
      const text = termEl('td', 'note', note);
      text.colSpan = COLUMNS.length;
      noteRow.append(text);
      table.append(noteRow);
    }
  }
  return table;
}

/** The regions section of a script report; null for other reports. */
export function renderRegions(report: Report, reveal: Reveal): HTMLElement | null {
  if (report.target.kind !== 'script' || !report.regions) return null;
  const section = el('section', 'regions');
  const count = report.regions.length;
  section.append(el('h2', undefined, `${plural(count, 'compiled region')} in ${report.target.name}`));
  if (!count) section.append(el('p', 'hint', 'torch.compile returned no callable while the script ran.'));
  for (const region of report.regions) {
    const digest = digestRegion(region);
    const box = el('section', 'region');
    box.dataset['region'] = region.id;
    const title = el('h3', undefined, `${region.id} ${region.name}`);
    const at = region.location;
    if (at)
      title.append(
        ' — ',
        sourceLink(at, (line) => placeLabel({ ...at, line }), reveal),
      );
    box.append(title);
    // the runner's answer first: the verdict and the number it rests on, as the CodeLens says it
    box.append(saidEl('p', 'headline', digest.headline, at ?? null));
    box.append(termEl('p', 'region-facts', `${regionFacts(digest).join(' · ')} · compiled with mode ${digest.mode}`));
    if (digest.noCompiledCode) box.append(saidEl('p', 'no-compiled-code', digest.noCompiledCode, at ?? null));
    if (digest.story) box.append(saidEl('p', 'story', digest.story, at ?? null));
    const guards = region.calls.filter((c) => c.event === 'recompiled' && c.recompileReason);
    if (guards.length) box.append(failedGuards(guards));
    if (digest.cudaGraphs.length) box.append(saidEl('p', 'cuda-graphs', digest.cudaGraphs.join('\n'), at ?? null));
    // a region that ran no compiled code has no speedup to show: its timings compare eager code with itself
    if (digest.noCompiledCode) {
      if (digest.recommendation)
        box.append(saidEl('p', 'recommendation', recommendationLine(digest.recommendation), at ?? null));
      section.append(box);
      continue;
    }
    if (digest.inSitu) {
      // the script's own steps both ways first; the observed run's calls and the replay below
      box.append(saidEl('p', 'in-situ-lines', digest.inSitu.lines.join('\n'), at ?? null));
      const overlay = renderInSituChart(region);
      if (overlay) box.append(overlay);
    }
    box.append(renderRegionChart(region));
    if (digest.replayLeftOut)
      box.append(
        saidEl('p', 'not-measured', `${digest.inSitu ? 'replay ' : ''}left out: ${digest.replayLeftOut}`, at ?? null),
      );
    if (digest.measurements.length) {
      // the table's times are the replay's, not the script's own calls (the story and the chart): said, so that two
      // numbers for one region's call read as the two quantities they are (the glossary's words)
      box.append(el('p', 'hint', explanation('replayed')));
      // a narrow panel scrolls the table sideways rather than breaking its numbers over lines
      const scroller = el('div', 'table-scroll');
      scroller.append(measurementTable(digest));
      box.append(scroller);
    }
    if (digest.recommendation)
      box.append(saidEl('p', 'recommendation', recommendationLine(digest.recommendation), at ?? null));
    section.append(box);
  }
  return section;
}

/** The failed guards as PyTorch wrote them, behind a toggle: the story and the chart say each as a sentence. */
function failedGuards(calls: readonly RegionCall[]): HTMLElement {
  const toggle = el('details', 'failed-guards');
  toggle.append(termEl('summary', undefined, 'Failed guards, as PyTorch wrote them'));
  for (const call of calls) toggle.append(el('pre', undefined, `call ${call.index}: ${call.recompileReason}`));
  return toggle;
}
