// The words on every surface: no compiler term said as our own (a guard as a sentence, a compile by its function), a
// sentence the runner words shown as the report carries it (on the CLI and the panel alike), and Problems and the
// hover counting a finding alike, on every fixture.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportJson, reportText } from '../../extension/cli/main.ts';
import { collectFindings, findingHover, findingMessage } from '../../extension/present/findings.ts';
import { digestRank } from '../../extension/present/rankDigest.ts';
import { digestRegion, formatRegion } from '../../extension/present/regionDigest.ts';
import { digestReport } from '../../extension/present/reportDigest.ts';
import type { Report } from '../../extension/shared/report.ts';
import { fixture, FIXTURE_REPORTS, runnerStrings, surfaces } from './surfaces.ts';

/** Compiler terms no surface says as its own words (issue 44 point 4): each is said plainly, or quoted as PyTorch's
 *  behind a toggle the panel draws (not a surface here). */
const JARGON: [RegExp, string][] = [
  [/TENSOR_MATCH|___check_obj_id|\bID_MATCH\b/, 'a raw guard'],
  [/size mismatch at index \d+(\. | \()expected/, "PyTorch's guard text as our sentence"],
  [/Torch-Compiled Region/, "the profiler's name for a compiled region"],
  [/\(compile \d+\/\d+\)|\bcompile \d+\/\d+\b/, 'a compile id as a name'],
  [/\bprocess -1\b/, "Kineto's pid for its own work"],
  [/first on its signature|\d+ observer\b/, "the in-situ schedule's own words for the steps it left out"],
  [/spanning a switch/, "the in-situ schedule's word for a step across a stance switch"],
  [/host's fastest state/, "the estimator's word for the host at its fastest"],
  [/in situ: no number/i, 'a verdict that is no verdict'],
  [/\d\.\d{3,} blocks per SM/, 'an unrounded count'],
  [/shared memory \d+(?! ?[KMG]?i?B)\b/, 'a size without its unit'],
  [/no steady step — no steady/, 'the same reason said twice'],
  [/too noisy to say[^·]*· too noisy to decide/, 'the same reason said twice'],
  [/host busy, not trusted[^·]*· host busy/, 'the same reason said twice'],
  [/\binterleaving\b/, "the in-situ schedule's word for switching eager and compiled"],
  [/\bcall\(s\)/, 'a count whose noun does not agree with it'],
];

/**
 * The sentences a TS surface shows that the runner words (schema 1.24: a region's in-situ lines, a mode's notes,
 * eager's launch-bound note, a graph break's cost; the story, 1.23; the headlines; 1.25: the CLI's mode line, the
 * CUDA-graph lines, the hover's count of a finding seen more than once, a rank's words; 1.27: a rank's ending), where
 * the report carries them:
 * each must be one of the report's own strings ([] when all are). A sentence composed here would not be.
 */
function shownSentences(report: Report): { where: string; text: string }[] {
  const shown: { where: string; text: string }[] = [];
  const digest = digestReport(report);
  // the CLI's line for each measured mode (schema 1.25)
  const cli = reportText(report).split('\n');
  for (const m of report.modes.filter((m) => m.measuredText !== undefined))
    shown.push({ where: `${m.mode} line`, text: cli.find((l) => l.startsWith(`  ${m.mode}: `))?.slice(2) ?? '' });
  if (report.eager.launchBoundText !== undefined) shown.push({ where: 'eager', text: digest.launchBoundNote ?? '' });
  digest.modes.forEach((m, k) => {
    if (report.modes[k]!.notes) shown.push(...m.notes.map((text) => ({ where: m.mode, text })));
  });
  for (const [k, region] of (report.regions ?? []).entries()) {
    const d = digestRegion(region);
    shown.push({ where: `${region.id} headline`, text: d.headline });
    if (region.story !== undefined) shown.push({ where: `${region.id} story`, text: d.story ?? '' });
    if (region.inSitu?.lines)
      shown.push(...(d.inSitu?.lines ?? []).map((text) => ({ where: `${region.id} in situ`, text })));
    if (region.compiler?.cudaGraphsLines)
      shown.push(...d.cudaGraphs.map((text) => ({ where: `${region.id} CUDA graphs`, text })));
    d.measurements.forEach((m, j) => {
      if (report.regions![k]!.measurements[j]!.notes)
        shown.push(...m.notes.map((text) => ({ where: `${region.id} ${m.label}`, text })));
    });
    // the CLI's line for each replay with a number (schema 1.28), after its "replay (evidence, not the answer): "
    const block = formatRegion(d).map((l) => l.trim().replace(/^replay(?: \([^)]+\))?: /, ''));
    for (const m of region.measurements.filter((x) => x.measuredText !== undefined))
      shown.push({ where: `${region.id} replay`, text: block.find((l) => l === m.measuredText) ?? '' });
  }
  // a torchrun job's ranks: the CLI's ranks block and the panel's rank table (schema 1.25)
  for (const entry of report.ranks ?? []) {
    const d = digestRank(entry);
    const where = `rank ${entry.rank}`;
    if (entry.labelText !== undefined) shown.push({ where, text: d.label });
    if (entry.factsText !== undefined) shown.push({ where, text: d.facts ?? '' });
    if (entry.regionsText !== undefined) shown.push(...d.regionLines.map((text) => ({ where, text })));
    if (entry.errorText !== undefined) shown.push({ where, text: d.error ?? '' });
    if (entry.waitingText !== undefined) shown.push({ where, text: d.waiting ?? '' });
  }
  // a finding seen more than once: the hover's title says its count (schema 1.25: countText)
  for (const f of collectFindings(report).filter((f) => f.count > 1 && f.kind !== 'divergence'))
    shown.push({
      where: `${f.file}:${f.line} hover`,
      text: /^\*\*Compile Lens — (.*?)\*\*/.exec(findingHover(f))?.[1] ?? '',
    });
  const costs = [...report.modes, ...(report.regions ?? [])].some((m) => m.compiler?.breakCost !== undefined);
  if (costs)
    for (const f of collectFindings(report).filter((f) => f.kind === 'graph-break'))
      shown.push({ where: `${f.file}:${f.line}`, text: f.cost ?? '' });
  return shown;
}

const uncarried = (report: Report, shown = shownSentences(report)): string[] => {
  const carried = runnerStrings(report);
  return shown.filter((s) => !carried.has(s.text)).map((s) => `${s.where}: "${s.text}" is not the report's`);
};

for (const { name, report } of FIXTURE_REPORTS) {
  test(`${name}: no surface says a compiler term as its own words (a guard as a sentence, a compile by its function)`, () => {
    const said = surfaces(report);
    // --json keeps each finding's guard as PyTorch wrote it, as data (`reason`), beside its words (`what`)
    const json = reportJson(report) as { findings?: { reason?: unknown }[] };
    for (const finding of json.findings ?? []) delete finding.reason;
    // each of its strings on its own: a reason said in one field and again in the next is no sentence said twice
    delete said['json'];
    JSON.stringify(json, (_key, value: unknown) => {
      if (typeof value === 'string') said[`json "${value.slice(0, 40)}"`] = value;
      return value;
    });
    // the hover closes with PyTorch's words, quoted as theirs ("> ...")
    said['hover'] = said['hover']!.replace(/^> .*$/gm, '');
    for (const [surface, text] of Object.entries(said))
      for (const [term, what] of JARGON) assert.doesNotMatch(text, term, `${surface}: ${what}`);
  });

  test(`${name}: a sentence the runner words is shown as the report carries it, on the CLI and the panel alike`, () => {
    assert.deepEqual(uncarried(report), []);
    // the CLI's region block and the report panel show the in-situ lines and the notes whole, one a line; a region
    // that ran no compiled code shows why in their place (its two sides ran the same eager code)
    const cli = reportText(report);
    const shown = (line: string) => cli.includes(`    ${line}\n`) || cli.endsWith(`    ${line}`);
    for (const region of report.regions ?? []) {
      const instead = region.noCompiledCode?.headline;
      if (instead) assert.ok(shown(instead), instead);
      else for (const line of region.inSitu?.lines ?? []) assert.ok(shown(line), line);
    }
    for (const note of report.modes.flatMap((m) => m.notes ?? [])) assert.ok(cli.includes(`    ${note}`), note);
  });

  test(`${name}: Problems and the hover count a finding alike`, () => {
    for (const finding of collectFindings(report).filter((f) => f.count > 1 && f.kind !== 'divergence')) {
      // a torchrun job's break: each rank's count, the runner's words, on both (s29)
      if (finding.countByRank) {
        assert.ok(findingMessage(finding).includes(`(${finding.countByRank})`), findingMessage(finding));
        assert.ok(findingHover(finding).includes(`**Compile Lens — ${finding.countByRank}**`), findingHover(finding));
        continue;
      }
      assert.match(findingMessage(finding), new RegExp(`×${finding.count}\\b`));
      assert.match(findingHover(finding), new RegExp(`\\b${finding.count} (recompiles|graph breaks) at this line`));
    }
  });
}

test('the carried-sentence check fails on a sentence the report does not carry', () => {
  const report = fixture('script-shapes-cpu');
  const shown = shownSentences(report);
  assert.ok(
    shown.some((s) => s.where.endsWith('in situ')),
    'the fixture carries in-situ lines',
  );
  assert.deepEqual(uncarried(report, shown), []);
  const made = [...shown, { where: 'r0 in situ', text: 'in situ (3 pairs of runs): 0.72× per step' }];
  assert.deepEqual(uncarried(report, made), [
    'r0 in situ: "in situ (3 pairs of runs): 0.72× per step" is not the report\'s',
  ]);
});
