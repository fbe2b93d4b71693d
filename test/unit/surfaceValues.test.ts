// One label, one value per region: a compiled time or a speedup (in situ — the first-call chart's median of the same
// calls included —, replayed, a what-if's) said on a region's screens — the report panel's header, sentences, in-situ lines, replay rows, both
// charts' tooltips, the CodeLens, the compare — reads the same on each, on every fixture.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lensTitle } from '../../extension/present/lensLine.ts';
import { digestRegion, measurementCells, regionLine } from '../../extension/present/regionDigest.ts';
import type { Region, Report } from '../../extension/shared/report.ts';
import { compareText, fixture, FIXTURE_REPORTS } from './surfaces.ts';

const MS = String.raw`(\d[\d,]*(?:\.\d+)? ms)`;

/** A compiled time or a speedup as a screen says it, keyed by its label: what it is, per what, and how it was
 *  measured (in situ, replayed, a what-if's, the first-call chart's own median). */
interface Said {
  where: string;
  label: string;
  value: string;
}

/** The numbers a piece of text says of a region, each with its label; `how` where the piece's place says how it was
 *  measured (a replay row, the in-situ overlay), else its own words do. A time said without how it was measured reads
 *  as the script's own calls, in situ. */
function saidIn(where: string, text: string, how = ''): Said[] {
  const out: Said[] = [];
  const add = (quantity: string, unit: string, measured: string, value: string, whatIf: string | undefined) =>
    out.push({
      where,
      label: `${quantity} per ${unit} ${measured || 'in situ'}${whatIf ? ` with ${whatIf}` : ''}`,
      value,
    });
  for (const clause of text.split(/ · |; |\. (?=[A-Z(])|\n/)) {
    const whatIf = /^\(?with ([^:]+):/i.exec(clause)?.[1];
    // (a replay row's note on the script's own calls beside the replay's says them in situ: review 20X X1's note)
    const measured =
      /\bin situ\b/i.test(clause) || /\b(?:script|notebook)'s own\b/i.test(clause)
        ? 'in situ'
        : /\breplayed\b/.test(clause)
          ? 'replayed'
          : how;
    for (const m of clause.matchAll(/(\d[\d,]*\.\d+×) per (call|step|token)\b( replayed| in situ)?/g))
      add('speedup', m[2]!, m[3]?.trim() ?? measured, m[1]!, whatIf);
    // "eager 0.45 ms → compiled 0.54 ms per call" (issue 44: each side named), or unnamed as a replay row is read
    for (const m of clause.matchAll(new RegExp(String.raw`${MS} → (?:compiled )?${MS} per (call|step|token)\b`, 'g')))
      add('compiled', m[3]!, measured, m[2]!, whatIf);
    for (const m of clause.matchAll(new RegExp(String.raw`\(compiled\): ${MS} per (call|step|token)\b`, 'g')))
      add('compiled', m[2]!, measured, m[1]!, whatIf);
    for (const m of clause.matchAll(new RegExp(String.raw`calls took ${MS}(?: compiled)? \(median`, 'g')))
      add('compiled', 'call', measured, m[1]!, whatIf);
    // the first-call chart's median is of the script's own calls: in situ, however it is labelled (issue 44: 0.66 ms
    // "median of the calls drawn" beside the in-situ 0.70 ms was one quantity with two values)
    for (const m of clause.matchAll(new RegExp(String.raw`${MS} (?:per call, )?median(?: of the calls drawn)?`, 'g')))
      add('compiled', 'call', measured, m[1]!, whatIf);
  }
  return out;
}

/** What the screens of one region say (the report panel's header, sentences, in-situ lines, replay rows and both
 *  charts' tooltips, the CodeLens, the compare), as labelled numbers. */
function regionSaid(report: Report, region: Region): Said[] {
  const d = digestRegion(region);
  const said = [d.headline, d.recommendation?.reason ?? '', d.facts.join(' · '), d.story ?? '']
    .concat(d.inSitu?.lines ?? [])
    .flatMap((text) => saidIn('panel', text));
  // the replay rows: the answer's own row is the "per call replayed" its headline says; any other by its label
  const answered = region.answer?.number?.kind.startsWith('replay') ? region.answer.number.index : undefined;
  d.measurements.forEach((m, k) => {
    const how = k === answered ? 'replayed' : `replayed ${m.label}${m.signature ? ` on ${m.signature}` : ''}`;
    const cells = measurementCells(m);
    if (cells.speedup) said.push(...saidIn('replay row', `${cells.speedup} per call`, how));
    if (cells.compiled) said.push(...saidIn('replay row', `0 ms → ${cells.compiled} per call`, how));
    said.push(...m.notes.flatMap((note) => saidIn('replay row', note, how)));
  });
  const steady = region.steadyState;
  if (steady) said.push(...saidIn('first-call chart', `${steady.said ?? ''}\n${steady.label ?? ''}`));
  const situ = region.inSitu;
  for (const text of [situ?.lines?.[0] ?? '', ...Object.values(situ?.medianText ?? {})])
    said.push(...saidIn('in-situ chart', text, 'in situ'));
  said.push(...saidIn('CodeLens', `${lensTitle(d.headline, d.number)}\n${regionLine(d)}`));
  // the compare's block: its per-call row is of the measurement its speedup row names
  const block = compareText(report)
    .split('### ')
    .find((b) =>
      b.startsWith(
        `${d.name}${d.line === null ? '' : ` (${d.cell === null ? '' : `cell ${d.cell + 1}, `}line ${d.line})`}\n`,
      ),
    );
  const cell = (measure: string) => new RegExp(String.raw`^${measure}: (.*?)(?: \||$)`, 'm').exec(block ?? '')?.[1];
  const [speedup, perCall] = [cell('before') ?? '', cell('compiled per call') ?? ''];
  if (!block || !speedup) throw new Error(`${region.id}: no compare block or answer in\n${compareText(report)}`);
  const compared = saidIn('compare', speedup);
  said.push(...compared);
  const time = /^(\d[\d,]*(?:\.\d+)? ms)(?:\/(step|token))?$/.exec(perCall);
  if (time) {
    const how = compared[0]?.label.split(' ').slice(3).join(' ') ?? '';
    said.push(...saidIn('compare', `0 ms → ${time[1]!} per ${time[2] ?? 'call'}`, how));
  }
  return said;
}

/** Labels a region's screens say with two values: "compiled per call in situ: 0.70 ms (panel), 0.66 ms (first-call
 *  chart)" ([] when each label has one value). */
function twoValues(report: Report): string[] {
  const problems: string[] = [];
  for (const region of report.regions ?? []) {
    const byLabel = new Map<string, Said[]>();
    for (const s of regionSaid(report, region)) byLabel.set(s.label, [...(byLabel.get(s.label) ?? []), s]);
    for (const [label, said] of byLabel)
      if (new Set(said.map((s) => s.value)).size > 1)
        problems.push(`${region.id} ${label}: ${[...new Set(said.map((s) => `${s.value} (${s.where})`))].join(', ')}`);
  }
  return problems;
}

for (const { name, report } of FIXTURE_REPORTS) {
  test(`${name}: a region's screens say one value per label (a compiled time, a speedup: in situ, replayed, a what-if's, the chart's own)`, () => {
    assert.deepEqual(twoValues(report), []);
  });
}

test('the one-value check fails on one label with two values', () => {
  // the first-call chart's median said as the script's calls' own (issue 44: 0.70 ms in situ, 0.66 ms on the chart)
  for (const said of [
    'steady state from call 1: 0.662 ms per call, median (calls varied 338%)',
    'steady state from call 1: 0.662 ms per call, median of the calls drawn (calls varied 338%)',
  ]) {
    const chart = fixture('script-in-situ-cpu');
    chart.regions![0]!.steadyState!.said = said;
    assert.deepEqual(twoValues(chart), [
      // the in-situ chart's title (its lines' first) says the steps alone: the per-call number is a line of its own
      'r0 compiled per call in situ: 0.701 ms (panel), 0.662 ms (first-call chart)',
    ]);
  }
});
