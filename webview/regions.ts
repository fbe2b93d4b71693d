// A script report's regions in the report panel: per compiled callable, where it was compiled, what the script
// did with it, its first-call story and chart, and its replayed measurements (speedup and where the next run may land,
// per mode and inputs).
// Report strings go in as text only (el()).
import {
  digestRegion,
  measurementCells,
  type RegionDigest,
  type RegionMeasurementDigest,
} from '../extension/present/regionDigest.ts';
import type { Region, RegionCall, Report } from '../extension/shared/report.ts';
import { placeLabel } from '../extension/shared/sourcePlace.ts';
import { explanation } from '../extension/present/glossary.ts';
import { plural } from '../extension/present/numbers.ts';
import { el, saidEl, speedupCell, termEl } from './panels.ts';
import { renderInSituChart } from './inSituChart.ts';
import { renderRegionChart } from './regionChart.ts';
import { sourceLink, type Reveal } from './sourceLinks.ts';
import { perCallCountTitle } from './compareWords.ts';

/** The file (or notebook cell) whose bare "line 9" a region's sentences name; null: none. */
type Said = Parameters<typeof saidEl>[3];

/** The table's columns, by the cell each fills. */
const COLUMNS = [
  ['speedup', 'speedup'],
  ['nextRun', 'next run'],
  ['compiled', 'compiled'],
  ['eager', 'eager'],
  ['kernels', 'kernels / call'],
  ['compile', "the replay's own compile"],
  ['breakEven', 'break-even'],
] as const;

type Cells = ReturnType<typeof measurementCells>;

/** A row's cells: the speedup in the runner's words where its answer has them ("1.19× per call replayed
 *  (1.12–1.26×)": the row says how it was measured, beside the in-situ numbers above it, and its range with it). */
function rowCells(m: RegionMeasurementDigest): Cells {
  const cells = measurementCells(m);
  return m.numberText ? { ...cells, speedup: m.numberText, nextRun: null } : cells;
}

/** answer: the region's sentence above the table; a failure it already says is not said again in the row (review 4B
 *  P3: "Measuring default failed: no compiled code ran …" in the paragraph, then again in the red row). */
function measurementTable(digest: RegionDigest, region: Region): HTMLTableElement {
  const table = el('table', 'region-measurements stacks');
  const answer = answerSentence(region, digest);
  const rows = digest.measurements.map((m, k) => {
    const failure = region.measurements[k]?.error?.message;
    // the runner's notes beside the number (a replay far from the script's own calls, review 4B P6), less those the
    // answer above says (a contended host)
    const notes = m.notes.filter((n) => !answer.includes(n));
    const inputs = region.measurements[k]?.inputsText ?? null;
    return {
      m,
      cells: m.status === 'error' ? null : rowCells(m),
      said: !!failure && answer.includes(failure),
      notes,
      inputs,
    };
  });
  // a column no row has a value for says nothing: left out
  const columns = COLUMNS.filter(([key]) => rows.some((r) => r.cells?.[key]));
  // the number column is "speedup" only over the answer's own numbers; a row of evidence beside them says so, in
  // the header where every row is one, on its stacked cell always, in the runner's words, the CLI's line's (review
  // H4: "speedup 0.90× per call replayed" under a headline's "1.03× per step in situ"); a report before rolesText:
  // "speedup" over every row, evidence too, as such a report said it (its fixtures are re-derived with the words)
  const numberTitle = region.rolesText ?? 'speedup';
  // every row failed: no value column, so the failure gets one of its own, headed (review 6B R: a lone "failed" at
  // the row's far end under no heading)
  const titles = [
    'inputs',
    'mode',
    ...(columns.length
      ? columns.map(([key, title]) =>
          key === 'speedup' ? numberTitle : key === 'kernels' ? perCallCountTitle(region.device) : title,
        )
      : ['result']),
  ];
  const head = el('tr');
  for (const title of titles) head.append(el('th', undefined, title));
  table.append(head);
  for (const { m, cells, said, notes, inputs: which } of rows) {
    const row = el('tr');
    // the inputs in the runner's words (schema 1.43: "float32[4, 8] with grad"); an older report's as recorded
    const inputs = el('td', 'inputs', m.inputs ?? '');
    // which of the script's inputs, among how many: the runner's words (review 6B S: "most frequent, 1 call" was
    // composed here, of ten shapes called once each)
    if (which) inputs.append(el('span', 'hint', ` (${which})`));
    row.append(inputs, el('td', undefined, m.label));
    if (cells === null) {
      const error = el('td', 'error', said ? 'failed' : `failed: ${m.error ?? 'unknown error'}`);
      error.colSpan = titles.length - 2;
      row.append(error);
    } else {
      // an unmeasured cell stays empty: no placeholder number
      for (const [key] of columns) {
        if (key !== 'speedup') {
          row.append(el('td', undefined, cells[key] ?? ''));
          continue;
        }
        const speedup = speedupCell(cells.speedup ?? '', cells);
        if (m.numberText) speedup.classList.add('said-number');
        speedup.dataset['label'] = m.role ?? numberTitle;
        row.append(speedup);
      }
    }
    // each cell names its column: a narrow panel stacks the rows (styles.ts) instead of scrolling sideways
    row.querySelectorAll('td').forEach((td, k) => {
      if (td.colSpan === 1 && !td.classList.contains('error') && titles[k]) td.dataset['label'] ??= titles[k];
    });
    table.append(row);
    for (const note of [m.mismatch, m.remeasured, ...notes]) {
      if (!note) continue;
      const noteRow = el('tr');
      const text = termEl('td', 'note', note);
      text.colSpan = titles.length;
      noteRow.append(text);
      table.append(noteRow);
    }
  }
  return table;
}

/** The runner's lines as it wrote them, each naming the user's lines where they are now; a line it indents (two
 *  spaces a level: "  why: …" under the in-situ number) is an item of a list under the line above it, not a line
 *  drawn with a stray indent. */
function saidLines(className: string, lines: readonly string[], own: Said): HTMLElement {
  const box = el('div', `${className} said-lines`);
  // the last line said at each depth, and the list under it that deeper lines go in
  const items: HTMLElement[] = [];
  const lists: (HTMLElement | null)[] = [];
  for (const line of lines) {
    const text = line.trimStart();
    const depth = Math.min(Math.floor((line.length - text.length) / 2), items.length);
    const item = el(depth === 0 ? 'div' : 'li');
    // the words in a span of their own: following an edit says them again without the list under them
    item.append(saidEl('span', undefined, text, own));
    if (depth === 0) box.append(item);
    else {
      let list = lists[depth - 1];
      if (!list) {
        list = el('ul');
        items[depth - 1]!.append(list);
        lists[depth - 1] = list;
      }
      list.append(item);
    }
    items.length = depth;
    lists.length = depth;
    items.push(item);
    lists.push(null);
  }
  return box;
}

/** The region's answer in full, the runner's: its verdict, number and reasons with their fixes (answer.sentence); a
 *  report before answers: its recommendation's reason, else its headline. */
const answerSentence = (region: Region, digest: RegionDigest): string =>
  region.answer?.sentence ?? region.recommendation?.reason ?? digest.headline;

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
    const title = el('h3', undefined, digest.label);
    const at = region.location;
    if (at)
      title.append(
        ' — ',
        sourceLink(at, (line) => placeLabel({ ...at, line }), reveal),
      );
    box.append(title);
    // the runner's answer first, once (the CodeLens says its one line): a region that ran no compiled code leads with
    // that sentence, all its answer says; any other with its verdict, number and reasons in full
    box.append(
      digest.noCompiledCode
        ? saidEl('p', 'no-compiled-code', digest.noCompiledCode, at ?? null)
        : saidEl('p', 'answer', answerSentence(region, digest), at ?? null),
    );
    const mode = digest.modeText ? [`compiled with ${digest.modeText}`] : [];
    box.append(termEl('p', 'region-facts', [...digest.facts, ...mode].join(' · ')));
    if (digest.story) box.append(saidEl('p', 'story', digest.story, at ?? null));
    const guards = region.calls.filter((c) => c.event === 'recompiled' && c.recompileReason);
    if (guards.length) box.append(failedGuards(guards));
    if (digest.cudaGraphs.length) box.append(saidLines('cuda-graphs', digest.cudaGraphs, at ?? null));
    // a region that ran no compiled code has no speedup to show: its timings compare eager code with itself
    if (digest.noCompiledCode) {
      section.append(box);
      continue;
    }
    if (digest.inSitu) {
      // the script's own steps both ways first; the observed run's calls and the replay below
      box.append(saidLines('in-situ-lines', digest.inSitu.lines, at ?? null));
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
      scroller.append(measurementTable(digest, region));
      box.append(scroller);
    }
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
