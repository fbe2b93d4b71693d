// What each surface says of a report, as text, for the surface tests (surfaceNumbers, surfaceAnswers, surfaceValues,
// surfaceWords): every fixture report said by each surface's real function — the CLI's text and --json, the report
// panel's cells and lines, the CodeLens title and tooltip, the hover, Problems, the Runs view, the Compiler view, the
// compare.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { reportJson, reportText } from '../../extension/cli/main.ts';
import { buildCompilerTree, type CompilerTreeNode } from '../../extension/present/compilerTree.ts';
import { collectFindings, findingHover, findingMessage } from '../../extension/present/findings.ts';
import { runHeadline } from '../../extension/present/headline.ts';
import { lensTitle } from '../../extension/present/lensLine.ts';
import { digestRegion, measurementCells, regionLine, runSummary } from '../../extension/present/regionDigest.ts';
import { digestReport, modeCells } from '../../extension/present/reportDigest.ts';
import { runListEntry } from '../../extension/present/runList.ts';
import { compareRuns } from '../../extension/present/runCompare.ts';
import type { Report } from '../../extension/shared/report.ts';

export const FIXTURES = path.resolve(__dirname, '../fixtures');

function reportFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const at = path.join(dir, name);
    return statSync(at).isDirectory() ? reportFiles(at) : name === 'report.json' ? [at] : [];
  });
}

// the fixtures, and the reports a run of the Python tests left where COMPILE_LENS_TEST_REPORTS points (a folder)
const EXTRA = process.env['COMPILE_LENS_TEST_REPORTS'];
export const FILES = [
  ...reportFiles(FIXTURES),
  ...(EXTRA && statSync(EXTRA, { throwIfNoEntry: false }) ? reportFiles(EXTRA) : []),
];

/** Every string the runner wrote into the report: its sentences carry its own numbers (formats.py, held to the same
 *  table by numbers.test.ts), and are displayed as they are. */
export function runnerStrings(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string' && value.length > 3) into.add(value);
  else if (Array.isArray(value)) value.forEach((v) => runnerStrings(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => runnerStrings(v, into));
  return into;
}

const treeText = (nodes: CompilerTreeNode[]): string[] =>
  nodes.flatMap((n) => [n.label, n.description ?? '', ...treeText(n.children)]);

/** Each fixture report, read once: its name under test/fixtures and the report (not to be changed: `fixture` gives a copy). */
export const FIXTURE_REPORTS = FILES.map((file) => ({
  name: path.relative(FIXTURES, file),
  report: JSON.parse(readFileSync(file, 'utf8')) as Report,
}));

/** A fresh copy of test/fixtures/reports/`dir`'s report, or of `file` under test/fixtures, to change in a test. */
export const fixture = (dir: string, file = path.join('reports', dir, 'report.json')): Report =>
  JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as Report;

/** What each surface says of a report, as text. */
export function surfaces(report: Report): Record<string, string> {
  const digest = digestReport(report);
  const regions = (report.regions ?? []).map(digestRegion);
  const findings = collectFindings(report);
  const run = runListEntry(report, '/ws/.compile-lens/runs/x/report.json');
  const lens =
    report.target.kind === 'script'
      ? regions.map((r) => lensTitle(r.headline, r.number))
      : [lensTitle(runHeadline(report), report.answer?.number?.text)];
  const lensTooltip = report.target.kind === 'script' ? regions.map(regionLine) : [runHeadline(report)];
  const panel =
    report.target.kind === 'script'
      ? regions.flatMap((r) => [
          r.headline,
          r.recommendation?.reason ?? '',
          r.facts.join(' · '),
          r.story ?? '',
          ...(r.inSitu?.lines ?? []),
          ...r.measurements.map((m) => Object.values(measurementCells(m)).join(' | ')),
        ])
      : [
          Object.values(modeCells(null, digest)).join(' | '),
          ...digest.modes.map((m) => Object.values(modeCells(m, digest)).join(' | ')),
          digest.launchBoundNote ?? '',
        ];
  return {
    cli: reportText(report),
    json: JSON.stringify(reportJson(report)),
    panel: panel.join('\n'),
    lensTitle: lens.join('\n'),
    lensTooltip: lensTooltip.join('\n'),
    hover: findings.map(findingHover).join('\n'),
    problems: findings.map(findingMessage).join('\n'),
    runs: `${run.description}\n${run.tooltip}`,
    log: runSummary(report),
    compilerView: treeText(buildCompilerTree(report)).join('\n'),
    compare: compareText(report),
  };
}

export const number = (text: string): number => Number(text.replace(/,/g, ''));

/** The compare of a run with itself, as its panel's text reads (webview/runCompare.ts): a block per region or mode
 *  ("### title", a line per run's answer, "measure: before | after"), then the sites. */
export function compareText(report: Report): string {
  const c = compareRuns(report, report);
  return [
    `# Compare ${c.name}`,
    ...c.runs.map((r, k) => `${k ? 'after' : 'before'} ${r.when}${r.headline ? `: ${r.headline}` : ''}`),
    ...c.blocks.flatMap((b) => [
      `### ${b.title}`,
      ...b.answer.map((a, k) => `${k ? 'after' : 'before'}: ${a}`),
      ...(b.change === null ? [] : [b.change]),
      ...b.rows.map((r) => `${r.measure}: ${r.values.join(' | ')}`),
      ...b.changed.map((facts, k) => (facts.length ? `${k ? 'after' : 'before'} changed: ${facts.join(' · ')}` : '')),
    ]),
    ...c.gone,
    ...c.added,
  ].join('\n');
}
