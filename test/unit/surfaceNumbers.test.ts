// One quantity, one number: every fixture report is said by each surface's real function (surfaces.ts), and a number
// shown on several of them must read the same, formatted by present/numbers.ts alone; the runner's headline is said
// with its numbers on the CodeLens, the Runs view, --json, the log and the CLI.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportJson } from '../../extension/cli/main.ts';
import { lensTitle } from '../../extension/present/lensLine.ts';
import {
  formatCount,
  formatInterval,
  formatMs,
  formatPct,
  formatSeconds,
  formatSpeedup,
  formatWhole,
} from '../../extension/present/numbers.ts';
import {
  digestRegion,
  headlineMeasurement,
  measurementCells,
  regionLine,
  type RegionDigest,
} from '../../extension/present/regionDigest.ts';
import { digestReport, modeCells } from '../../extension/present/reportDigest.ts';
import { FILES, FIXTURE_REPORTS, number, runnerStrings, surfaces } from './surfaces.ts';

const RANGE = /(?<![\d.])(\d[\d,]*\.\d+)–(\d[\d,]*\.\d+)×/g;

/** A range as numbers.ts writes it: alone (its finer end's precision), or to the precision of a point the surface
 *  shows (review H6: the range cell beside its speedup cell, "0.17×" and "0.07–0.20×"). */
function rangeSaid(m: RegExpMatchArray, raw: string): string {
  const [low, high] = [number(m[1]!), number(m[2]!)];
  const points = [...raw.matchAll(/(?<![\d.–])(\d[\d,]*(?:\.\d+)?)×/g)].map((p) => number(p[1]!));
  const said = [undefined, ...points].map((point) => formatInterval(low, high, point));
  return said.includes(m[0]) ? m[0] : said[0]!;
}

/** Each number-with-unit, and that number as numbers.ts writes it: a token written any other way was formatted
 *  elsewhere. A speedup reads the same beside its range or alone (review 8 A15: "0.170×" and "0.17×"). */
const UNITS: [RegExp, (m: RegExpMatchArray, raw: string) => string][] = [
  [RANGE, rangeSaid],
  [/(?<![\d.–])(\d[\d,]*\.\d+)×/g, (m) => formatSpeedup(number(m[1]!))],
  [/(?<![\d.])(\d[\d,]*(?:\.\d+)?) ms\b/g, (m) => formatMs(number(m[1]!))],
  [/(?<![\d.])(\d[\d,]*(?:\.\d+)?) s\b/g, (m) => formatSeconds(number(m[1]!))],
  [/(?<![\d.])(\d[\d,]*(?:\.\d+)?)%/g, (m) => formatPct(number(m[1]!))],
  [/(?<![\d.])(\d[\d,]*) (steps|calls)\b/g, (m) => `${formatWhole(number(m[1]!))} ${m[2]}`],
  [
    /kernels\/(step|call) (\d+(?:\.\d+)?) → (\d+(?:\.\d+)?)/g,
    (m) => `kernels/${m[1]} ${formatCount(number(m[2]!))} → ${formatCount(number(m[3]!))}`,
  ],
];

test('every fixture report is read (test/fixtures/reports and the other report.json fixtures)', () => {
  assert.ok(FILES.length >= 16, FILES.join('\n'));
});

for (const { name, report } of FIXTURE_REPORTS) {
  test(`${name}: every number on every surface is written by present/numbers.ts (one rounding, one interval form)`, () => {
    const runner = [...runnerStrings(report)].sort((a, b) => b.length - a.length);
    for (const [surface, raw] of Object.entries(surfaces(report))) {
      let text = runner.reduce((t, s) => t.split(s).join('«runner»'), raw);
      for (const [pattern, canonical] of UNITS) {
        for (const m of text.matchAll(pattern)) {
          const said = canonical(m, raw);
          // a time's trailing zeros are digits measured (numbers.ts trimmed): "4.50 s" from 4.498 s, which the number
          // read back (4.5) would say as "4.5 s"; kept to three significant digits, no more
          const zeros = /^(\d+\.\d*?)0+( m?s)$/.exec(m[0]);
          const asMeasured =
            zeros &&
            `${zeros[1]!.replace(/\.$/, '')}${zeros[2]}` === said &&
            m[0].replace(/\D/g, '').replace(/^0+/, '').length <= 3;
          if (!asMeasured) assert.equal(m[0], said, `${surface} writes "${m[0]}" where numbers.ts writes "${said}"`);
        }
        text = text.replace(pattern, '«checked»'); // a point checked with its range is not checked again alone
      }
      assert.doesNotMatch(text, /±\d/, `${surface}: one interval form (low–high×), no ±%`);
    }
  });

  test(`${name}: the CodeLens, the Runs view, --json, the log and the CLI say the runner's headline with the same numbers`, () => {
    const all = surfaces(report);
    const json = reportJson(report) as { headline: string; regions?: RegionDigest[] };
    const digest = digestReport(report);
    const regions = (report.regions ?? []).map(digestRegion);
    // the runner wrote the run's headline (schema 1.18; the fixtures carry it: test_fixture_verdicts.py): --json says it
    // word for word, and it leads the Runs view's line, where a narrow view keeps the answer
    assert.ok(report.headline, "the fixture carries the runner's headline");
    assert.equal(json.headline, report.headline);
    assert.ok(
      all['runs']!.startsWith(`${report.headline} · `) || all['runs']!.startsWith(`${report.headline}\n`),
      `${report.headline} | ${all['runs']}`,
    );
    if (report.target.kind !== 'script') {
      const lens = report.headline;
      assert.ok(
        all['lensTooltip'] === lens &&
          // the title is the headline cut to fit: its asides in parentheses may go first (lensLine.ts)
          [lens, lens.replace(/\s*\([^()]*\)/g, '')].some((l) => l.includes(all['lensTitle']!.replace(/…$/, ''))) &&
          all['log'] === lens,
        'the CodeLens, its tooltip and the log: one headline',
      );
      // the speedup the headline shows is a mode's, said the same by the CLI, the panel, the Runs view and --json
      const shown = /(\d+\.\d+)×/.exec(lens)?.[0];
      const mode = digest.modes.find((m) => m.speedup !== null && modeCells(m, digest).speedup === shown);
      assert.equal(shown === undefined, mode === undefined, `${lens}: its speedup is a measured mode's`);
      if (mode) {
        const cells = modeCells(mode, digest);
        for (const value of [cells.speedup, ...(mode.interval ? [cells.nextRun] : [])]) {
          for (const surface of ['cli', 'panel', 'runs', 'json'] as const)
            assert.ok(all[surface]!.includes(value), `${surface} shows ${value}`);
        }
        if (mode.compileSeconds !== null && lens.includes(' · compile '))
          assert.ok(
            all['cli']!.includes(`compile ${formatSeconds(mode.compileSeconds)}`) &&
              lens.includes(`compile ${formatSeconds(mode.compileSeconds)}`),
          );
      }
    }
    for (const [index, region] of regions.entries()) {
      const line = regionLine(region);
      assert.equal(
        region.headline,
        report.regions![index]!.headline,
        `${region.id}: the runner's headline, as written`,
      );
      assert.ok(
        all['lensTooltip']!.includes(line) && all['runs']!.includes(line),
        `${region.id}: the lens's and the Runs view's line are one`,
      );
      assert.ok(
        all['lensTitle']!.split('\n')[index] === lensTitle(region.headline, region.number) &&
          all['log']!.includes(`: ${region.headline}`),
        `${region.id}: the lens and the log say it`,
      );
      assert.equal(
        json.regions?.find((r) => r.id === region.id)?.headline,
        region.headline,
        `${region.id}: --json's headline is the lens's`,
      );
      // the speedup the headline shows ("1.78× per call replayed"; not another ratio it names, "past 2.5× the script's
      // own time") is the one the CLI and the panel show for the same measurement
      const shown = /(\d+\.\d+)×(?= per )/.exec(region.headline)?.[0];
      if (!shown) continue;
      const number = report.regions![index]!.answer?.number;
      const step = region.inSitu?.step ?? region.inSitu?.call;
      const source = number
        ? formatSpeedup(number.value)
        : region.inSitu && step
          ? formatSpeedup(step.speedup)
          : measurementCells(headlineMeasurement(region)!).speedup;
      assert.equal(shown, source, `${region.id}: the headline's speedup is its measurement's`);
      for (const surface of ['cli', 'panel', 'runs'] as const)
        assert.ok(all[surface]!.includes(shown), `${region.id}: ${surface} shows ${shown}`);
    }
  });
}
