// "Compare with…" in the Runs view: two reports side by side, the breaks and recompiles gone and added.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { compareRuns, compareTitle } from '../../extension/present/runCompare.ts';
import { buildCompilerTree, type CompilerTreeNode } from '../../extension/present/compilerTree.ts';
import type { Report } from '../../extension/shared/report.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { formatSpeedup } from '../../extension/present/numbers.ts';

const fixture = async (name: string): Promise<Report> =>
  (await loadReport(path.resolve(__dirname, '../fixtures', name, 'report.json'))).report;

const row = (block: { rows: { measure: string; values: [string, string] }[] }, measure: string) =>
  block.rows.find((r) => r.measure === measure)?.values;

/** The speedup a block's shown times divide to, as a speedup is shown, in each run. */
const shownRatios = (block: { rows: { measure: string; values: [string, string] }[] }): [string, string] => {
  const ms = (text: string) =>
    Number(text.split(' ')[0]) * (text.endsWith(' µs') ? 1e-3 : text.endsWith(' s') ? 1e3 : 1);
  const [eager, compiled] = [block.rows[1]!.values, block.rows[0]!.values];
  return [0, 1].map((k) => formatSpeedup(ms(eager[k]!) / ms(compiled[k]!))) as [string, string];
};

test("two target runs: each run's verdict, each mode's number, time per call and counts side by side; breaks and recompiles gone and added", async () => {
  const [graphbreak, recompile] = [await fixture('reports/graphbreak-cpu'), await fixture('reports/recompile-cpu')];
  const later = new Date(new Date(recompile.createdAt).getTime() + 3600_000);
  const compared = compareRuns(graphbreak, recompile, later);
  assert.equal(compared.name, 'mlp.py');
  // each run at the time its Runs view row says, its day said only when not today (report4B P13)
  assert.match(compared.runs[0].when, /^\d\d:21:00$/);
  assert.match(compared.runs[1].when, /^\d\d:17:26$/);
  const nextYear = compareRuns(graphbreak, recompile, new Date('2027-01-05T12:00:00Z'));
  assert.match(nextYear.runs[0].when, /^Nov 2\d 2026 \d\d:21:00$/);
  assert.match(nextYear.runs[1].when, /^\d\d:17:26$/);
  // a target's run says its verdict in the runner's headline (report/sentences.py), as the Runs view does
  assert.equal(compared.runs[0].headline, graphbreak.headline);
  assert.match(compared.runs[1].headline!, /^stay eager: 0\.78× per call with default \(0\.66–0\.90×\)/);
  // the tab says what it compares, named as the runs' tabs name them (targetWords), at the times they say (report4B
  // M13: "Preview Compile Lens: compare …"); the day once, where both runs are of one day but not today
  assert.match(compareTitle(graphbreak, recompile, later), /^Compare recompile \d\d:21:00 → \d\d:17:26$/);
  assert.match(
    compareTitle(graphbreak, recompile, new Date('2027-01-05T12:00:00Z')),
    /^Compare recompile Nov 2\d 2026 \d\d:21:00 → \d\d:17:26$/,
  );
  // the runner's words for each mode's number (report/sentences.py), and the quantities compared
  const [mode] = compared.blocks;
  assert.equal(mode!.title, 'default');
  assert.deepEqual(mode!.answer, [
    '1.30× per call with default (1.05–1.49×)',
    '0.78× per call with default (0.66–0.90×)',
  ]);
  // a CPU run's count is of its CPU ops, as the panel's compare names it (review 18Y Y1: "kernels / step 5 → 2")
  assert.deepEqual(row(mode!, 'CPU ops / step'), ['15 → 12', '3 → 3']);
  assert.deepEqual(row(mode!, 'graph breaks'), ['3', '0']);
  assert.deepEqual(row(mode!, 'recompiles'), ['2', '1']);
  assert.deepEqual(
    mode!.rows.map((r) => r.measure),
    ['compiled per call', 'eager per call', 'CPU ops / step', 'compile', 'graphs', 'graph breaks', 'recompiles'],
  );
  // review G10: both sides of each ratio, so that it can be traced (eager over compiled is the mode's number)
  assert.deepEqual(shownRatios(mode!), ['1.30×', '0.78×'], mode!.rows.map((r) => r.values).join('; '));
  // the ranges lie apart: the change is measured, and no sentence says otherwise
  assert.equal(mode!.change, null);
  assert.equal(compared.gone.filter((s) => s.startsWith('graph break at graphbreak.py:')).length, 3);
  // line 24's random head index, recompiled on twice (once guarded at PyTorch's ModuleList indexing): one site
  assert.equal(compared.gone.filter((s) => s.startsWith('recompile at graphbreak.py:24')).length, 1);
  assert.deepEqual(compared.added, [
    "recompile at mlp.py:13: Input 'x' changed size in dimension 0 from 32 to 64; the compiled code had been specialised to 32, so it was recompiled for 64.",
  ]);
  assert.equal(compared.sameSites, null);
});

test("two script runs: regions by function and line, each run's answer in the runner's words, the facts that changed", async () => {
  // a real run of train_small.py (test/fixtures/recorded/README.md), and the same run without its step region and
  // with one call fewer of normalize
  const before = await fixture('recorded/train_small-cpu');
  const normalize = before.regions!.find((r) => r.name === 'normalize')!;
  const after: Report = {
    ...before,
    createdAt: '2026-11-29T11:00:00+00:00',
    regions: before
      .regions!.filter((r) => r.name !== 'step' && r !== normalize)
      .concat({
        ...normalize,
        facts: normalize.facts!.map((f) => f.replace('2 calls', '1 call')),
      }),
  };
  const compared = compareRuns(before, after, new Date('2026-11-29T12:00:00+00:00'));
  // a script's run headline is one region's (" — TinyTransformer", report4B P13): its regions' blocks say each
  assert.deepEqual(
    compared.runs.map((r) => r.headline),
    [null, null],
  );
  const titles = compared.blocks.map((b) => b.title);
  assert.deepEqual(titles, ['TinyTransformer (line 37)', 'step (line 40)', 'Counter (line 45)', 'normalize (line 46)']);
  const [model, step, , norm] = compared.blocks;
  // each run's answer: the region's headline, verdict first, as the runner wrote it
  const headline = (name: string) => before.regions!.find((r) => r.name === name)!.headline!;
  assert.deepEqual(model!.answer, [headline('TinyTransformer'), headline('TinyTransformer')]);
  assert.match(model!.answer[0], /^no verdict: [\d.]+× per call replayed \(.*\), host busy, not trusted/);
  assert.deepEqual(model!.changed, [[], []]);
  // a region in one run only: its answer says so, its cells are empty, nothing "changed" is listed
  assert.deepEqual(step!.answer, [headline('step'), 'not in this run']);
  assert.deepEqual(row(step!, 'recompiles'), ['7', '']);
  assert.deepEqual(step!.changed, [[], []]);
  // the runner's facts that differ, each run's own
  assert.deepEqual(norm!.changed, [['2 calls'], ['1 call']]);
  assert.deepEqual([compared.gone, compared.added, compared.sameSites], [[], [], 'The same 4 sites in both runs.']);
});

// review 18Y Y1: the Runs view's compare of two CPU runs read "kernels / step 5 → 2" where the panel says "CPU ops"
test("a CPU run's counts are its CPU ops, a GPU run's its kernels, and runs on unlike devices say each its own", async () => {
  const [cpu, h100] = [await fixture('reports/graphbreak-cpu'), await fixture('reports/h100-mlp')];
  // h100-mlp's record has no counts: its eager's and mode's as its trace's (test/unit/trace.test.ts KNOWN)
  const gpu: Report = {
    ...h100,
    eager: { ...h100.eager, kernelsPerStep: 7 },
    modes: [{ ...h100.modes[0]!, kernelsPerStep: 7 }],
  };
  const script = await fixture('recorded/serve_script-cpu');
  for (const [before, after] of [
    [cpu, cpu],
    [script, script],
  ])
    for (const block of compareRuns(before!, after!).blocks)
      assert.ok(!block.rows.some((r) => (r.measure + r.values.join()).includes('kernel')), block.title);
  const [onGpu] = compareRuns(gpu, gpu).blocks;
  assert.deepEqual(row(onGpu!, 'kernels / step'), ['7 → 7', '7 → 7']);
  const [both] = compareRuns(cpu, gpu).blocks;
  assert.deepEqual(row(both!, "kernels or CPU ops / step, as each run's device counts"), [
    '15 → 12 CPU ops',
    '7 → 7 kernels',
  ]);
});

// review s29: a region's number per step in situ in one run and per call replayed in the next, 10× apart, compared in
// one row "compiled per call"
test('a region timed per step in situ in one run and per call replayed in the other is not compared as one quantity', async () => {
  const before = await fixture('recorded/serve_script-cpu');
  const region = before.regions![0]!;
  const number = region.answer!.number!;
  assert.equal(number.kind, 'in-situ-step');
  const replayed: Report = {
    ...before,
    regions: [
      {
        ...region,
        answer: { ...region.answer!, number: { ...number, kind: 'replay-call', unit: 'call', compiledMs: 0.0137 } },
      },
    ],
  };
  const [same] = compareRuns(before, before).blocks;
  assert.deepEqual(same!.rows[0], { measure: 'compiled per step in situ', values: ['0.471 ms', '0.471 ms'] });
  // the eager side of the ratio beside it (review G10: "compiled per call replayed 16.3 µs → 16.8 µs" alone)
  assert.deepEqual(same!.rows[1], { measure: 'eager per step in situ', values: ['0.602 ms', '0.602 ms'] });
  const [block] = compareRuns(before, replayed).blocks;
  assert.deepEqual(block!.rows[0], {
    measure: 'compiled time, not the same quantity in both runs',
    values: ['0.471 ms per step in situ', '13.7 µs per call replayed'],
  });
  assert.deepEqual(block!.rows[1]!.measure, 'eager time, not the same quantity in both runs');
  // the other rows are of one quantity in both runs, as before
  assert.deepEqual(
    block!.rows.slice(2).map((r) => r.measure),
    // a region's replay counts per call, as the panel's replay column does ("CPU ops / call")
    ['CPU ops / call', "compiling in the script's own calls", 'graphs', 'graph breaks', 'recompiles'],
  );
});

// review 14S S0: "1.04× → 1.05×" with "17.3 µs" / "16.5 µs" → "16.9 µs" / "16.2 µs" beside them: the times' ratio fell
// (1.048 → 1.043) while the shown speedup rose; and both ranges held both numbers, so no change was measured at all
test("two runs' speedups within each other's range: the times shown divide to each shown speedup, and the change is said unmeasured", async () => {
  const run = await fixture('recorded/train_small-cpu');
  const region = run.regions!.find((r) => r.name === 'TinyTransformer')!;
  // its recorded number, but with a range: a range too wide to say has no ends to be inside
  const { tooNoisy: _tooNoisy, ...number } = region.answer!.number!;
  const withNumber = (value: number, eagerMs: number, compiledMs: number, at: string): Report => ({
    ...run,
    createdAt: at,
    regions: [
      {
        ...region,
        answer: {
          ...region.answer!,
          number: { ...number, value, eagerMs, compiledMs, low: 0.89, high: 1.2, direction: 'faster' },
        },
      },
    ],
  });
  const before = withNumber(1.0429, 0.01725, 0.01654, '2026-11-29T11:00:00+00:00');
  const after = withNumber(1.0451, 0.01693, 0.0162, '2026-11-29T11:01:00+00:00');
  const [block] = compareRuns(before, after, new Date('2026-11-29T12:00:00+00:00')).blocks;
  assert.deepEqual(block!.rows[0], { measure: 'compiled per call replayed', values: ['16.54 µs', '16.2 µs'] });
  assert.deepEqual(block!.rows[1], { measure: 'eager per call replayed', values: ['17.25 µs', '16.93 µs'] });
  // each run's shown times divide to its shown speedup, so they point the way the speedups do
  assert.deepEqual(shownRatios(block!), ['1.04×', '1.05×']);
  assert.equal(block!.change, "no measurable change: 1.04× → 1.05× per call replayed, each inside the other's range");
  // a number timed on a busy host says no change either way: its own "host busy, not trusted" stands
  const busy = (r: Report): Report => ({
    ...r,
    regions: r.regions!.map((g) => ({
      ...g,
      answer: { ...g.answer!, number: { ...g.answer!.number!, direction: 'host-busy' as const } },
    })),
  });
  assert.equal(compareRuns(busy(before), after).blocks[0]!.change, null);
  // times whose three digits already divide to the speedup keep three
  const [plain] = compareRuns(withNumber(1.3, 0.65, 0.5, before.createdAt), after).blocks;
  assert.deepEqual(plain!.rows[1]!.values[0], '0.65 ms');
  // a speedup outside the other's range: measured, not said unmeasured
  const [apart] = compareRuns(withNumber(1.3, 0.65, 0.5, before.createdAt), after).blocks;
  assert.equal(apart!.change, null);
});

// review 17Y Y4: the compare's "compile 2.52 s" beside the Compiler view's "scale (b_item.py:4) 1 compile, 2.51 s" and
// "first compile 2.51 s of call 0's 2.52 s" on one screen (runs-compare.png, b_item.py's run)
test("a script region's compile: the compare, the facts and the Compiler view say one quantity at one value, each by what it is", async () => {
  const report = await fixture('traces/profiled-copy-cpu');
  const region = report.regions![0]!;
  const [block] = compareRuns(report, report).blocks;
  // the compare's row named as the facts name the number: the compiling in the script's calls, every frame of them
  assert.ok(!row(block!, 'compile'), 'a bare "compile" row');
  const compared = row(block!, "compiling in the script's own calls");
  const fact = region.facts!.find((f) => f.includes("compiling in the script's own calls"))!;
  assert.deepEqual(compared, Array(2).fill(fact.split(' compiling')[0]));
  // the Compiler view: each frame its own compile, and where call 0 compiled both, the frame's share of the
  // compiling in that call, said as compiling (not the call's time), at the compare's value
  const nodes = (list: CompilerTreeNode[]): CompilerTreeNode[] => list.flatMap((n) => [n, ...nodes(n.children)]);
  const shares = nodes(buildCompilerTree(report))
    .filter((n) => n.label === 'first compile')
    .map((n) => / of the ([\d.]+ m?s) compiling in call 0$/.exec(n.description ?? '')?.[1] ?? n.description);
  assert.deepEqual(shares, [compared[0], compared[0]]);
});

// review 19X X4: a notebook's facts say "compiling in the notebook's own calls": its compare's row says it alike
test("a notebook's region's compile row names the notebook's calls, as its facts do", async () => {
  const report = await fixture('recorded/explore-cpu');
  assert.ok(report.settings['notebook']);
  const [block] = compareRuns(report, report).blocks;
  const fact = report.regions![0]!.facts!.find((f) => f.includes("compiling in the notebook's own calls"))!;
  assert.deepEqual(row(block!, "compiling in the notebook's own calls"), Array(2).fill(fact.split(' compiling')[0]));
  assert.ok(!row(block!, "compiling in the script's own calls"));
});
