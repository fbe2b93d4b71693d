// One compile total (review 4A F2, 4B P1/M11): the compile phases' heading is the runner's sentence, its total the
// compile total the runner says elsewhere (a region's facts), and the rows under it, as printed, add up to it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMs, formatSeconds } from '../../extension/present/numbers.ts';
import { compileRowsMs, phasesHeading } from '../../webview/compilePhases.ts';
import { FIXTURE_REPORTS } from './surfaces.ts';

/** "6.04 s" → [6.04, 0.01]; "525 ms" → [0.525, 0.001]: seconds, and the unit of the last digit printed */
function printed(time: string): [number, number] {
  const [digits, unit] = time.split(' ') as [string, string];
  const scale = unit === 's' ? 1 : unit === 'ms' ? 1e-3 : 1e-6;
  const decimals = digits.split('.')[1]?.length ?? 0;
  return [Number(digits.replace(/,/g, '')) * scale, 10 ** -decimals * scale];
}

const modes = FIXTURE_REPORTS.flatMap(({ name, report }) =>
  report.modes.filter((m) => m.compiler?.phases?.length).map((mode) => ({ name, report, mode })),
);
// and each group of a torchrun job's ranks alike (schema 1.37 rankPhases): its heading, its own rows' total
const records = modes.flatMap(({ name, mode }) => [
  { name, mode, compiler: mode.compiler! },
  ...(mode.compiler!.rankPhases ?? []).map((g) => ({
    name: `${name} ranks ${g.ranks.join(',')}`,
    mode,
    compiler: g.compiler,
  })),
]);

/** The heading's total: "64.3 s" of "2 compiles, 64.3 s (a cold compile cache: …), 1 cache hit" (and of "17 compiles
 *  (12 graphs; 5 made no graph: 4 captured nothing in function forward, 1 hit the recompile limit), 9.65 s …"). */
const timeOf = (heading: string): string => /, (\d[\d,]*(?:\.\d+)? m?s)\b/.exec(heading)![1]!;

test('every fixture with compile phases: the heading is the runner total, and the rows as printed add up to it', () => {
  assert.ok(modes.length >= 10, 'the fixtures hold compile phases');
  assert.ok(records.length >= modes.length + 2, "a torchrun job's ranks' phases");
  for (const { name, mode, compiler } of records) {
    const rows = compileRowsMs(compiler.phases!);
    assert.ok(compiler.phasesText, `${name}: the runner wrote the heading`);
    const title = phasesHeading(mode.modeText ?? mode.mode, compiler, rows);
    assert.equal(title, `Compile phases — ${mode.modeText ?? mode.mode}: ${compiler.phasesText}`);
    const said = timeOf(compiler.phasesText); // its cold-cache note after it
    const total = compiler.compileSeconds?.['total'];
    if (total) assert.equal(said, formatSeconds(total), `${name}: the compile total as the runner says it`);
    const [heading, unit] = printed(said);
    const sum = [...rows.values()].reduce((s, ms) => s + printed(formatMs(ms))[0], 0);
    assert.ok(Math.abs(sum - heading) <= unit + 1e-9, `${name}: rows as printed add to ${sum}, under "${said}"`);
  }
});

test("a script's one region says the compile time its compile phases' heading says (warmup_step: 240 ms vs 239 ms)", () => {
  let checked = 0;
  for (const { name, report, mode } of modes) {
    if (report.regions?.length !== 1) continue;
    // a notebook's says "the notebook's own calls" (review 19X X4)
    const fact = report.regions[0]!.facts?.find((f) => /in the (script|notebook)'s own calls/.test(f));
    if (!fact) continue;
    assert.equal(fact.split(' ').slice(0, 2).join(' '), timeOf(mode.compiler!.phasesText!), name);
    checked++;
  }
  assert.ok(checked >= 5, `${checked} one-region scripts`);
});
