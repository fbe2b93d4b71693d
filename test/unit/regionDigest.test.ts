// Script-mode regions in words: the first-call story, the one-line result on the torch.compile line, the CLI
// block, and where notebook locations land. On real runs' reports (test/fixtures/recorded/README.md and the others' READMEs).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { BEFORE_EDIT_LENS, collectFindings } from '../../extension/present/findings.ts';
import {
  digestRegion,
  formatRegion,
  formatScriptDigest,
  measurementCells,
  runSummary,
} from '../../extension/present/regionDigest.ts';
import { regionStory } from '../../extension/present/regionStory.ts';
import { regionHeadline, runHeadline } from '../../extension/present/headline.ts';
import { formatSpeedup } from '../../extension/present/numbers.ts';
import { lensTitle, shortLine, targetLenses } from '../../extension/present/lensLine.ts';
import type { Region, Report } from '../../extension/shared/report.ts';
import { cellPosition, placeLabel } from '../../extension/shared/sourcePlace.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { headerWords } from '../../extension/present/reportDigest.ts';
import { reportText } from '../../extension/cli/main.ts';
import { FIXTURE_REPORTS } from './surfaces.ts';

const fixture = async (name: string): Promise<Report> =>
  (
    await loadReport(
      path.resolve(__dirname, '../fixtures', name.includes('/') ? name : `reports/${name}`, 'report.json'),
    )
  ).report;
// train_small.py's four regions; a warm-up at batch 1 before calls at batch 4; the e2e workspace's notebook
const TRAIN_SMALL = 'recorded/train_small-cpu';
const WARMUP = 'recorded/warmup_step-cpu';
const NOTEBOOK = 'recorded/explore-cpu';
const region = async (name: string, id: string): Promise<Region> =>
  (await fixture(name)).regions!.find((r) => r.id === id)!;

test("a region's facts are the runner's (schema 1.32: sentences.region_facts); no recompile's trigger text is read for its call", async () => {
  const ddp = (await fixture('ddp-ranks-cpu')).regions![0]!;
  const recompiles = ddp.compiler!.recompiles.map(({ trigger: _, ...r }) => r);
  const d = digestRegion({ ...ddp, compiler: { ...ddp.compiler!, recompiles } });
  assert.deepEqual(d.facts, ddp.facts);
  assert.match(
    formatRegion(d)[0]!,
    /: 6 calls, 1 graph and 3 graph breaks \(in compiles that made no graph\) on rank 0, 2 graphs and 4 graph breaks \(in compiles that made no graph\) on rank 1, recompiled at call 3 on rank 1, /,
  );
  // a report before 1.32: its counts, with no words of the runner's to show
  const { facts: _, ...older } = ddp;
  assert.deepEqual(digestRegion(older).facts.slice(0, 3), ['6 calls', '1 graph', '2 graph breaks']);
});

/** A region without its answer: read as a report made before answers. */
const unanswered = ({ answer: _, ...region }: Region): Region => region;

test("a region's first-call story is the runner's as written (report/story.py: test_story.py); a report before schema 1.23 lists the calls' events", async () => {
  const r0 = await region(TRAIN_SMALL, 'r0');
  // the compile times are the recording host's
  assert.equal(regionStory(r0), r0.story);
  assert.match(
    regionStory(r0)!,
    /^Call 0 compiled \([\d.]+ m?s\); call 6 recompiled for float32\[8, 256, 64\] \([\d.]+ m?s; input 'x' changed size in dimension 1 from 128 to 256\)\.$/,
  );
  assert.equal(digestRegion(r0).story, r0.story);
  // an older report: no sentence made up, the compiles and eager calls listed
  const { story: _, ...older } = await region(TRAIN_SMALL, 'r1');
  assert.equal(
    regionStory(older),
    'call 0: compiled · call 1: recompiled · call 2: recompiled · call 3: recompiled · call 4: recompiled · call 5: recompiled · call 6: recompiled · call 7: recompiled · call 8: ran eagerly · call 9: ran eagerly',
  );
  assert.equal(regionStory({ ...older, calls: [] }), null);
});

test("region headline: the runner's line as it wrote it; a report before schema 1.18 shows the runner's verdict sentence", async () => {
  const report = await fixture(TRAIN_SMALL);
  assert.deepEqual(
    report.regions!.map((r) => digestRegion(r).headline),
    report.regions!.map((r) => r.headline),
  );
  assert.match(
    report.regions![2]!.headline!,
    /^no verdict: not replayable: it changes the Python attribute self\.calls/,
  );
  const { headline: _, ...older } = report.regions![0]!;
  assert.equal(digestRegion(older).headline, older.recommendation!.reason);
  const { headline: __, recommendation: ___, ...unjudged } = report.regions![2]!;
  assert.equal(
    digestRegion(unjudged).headline,
    "it changes the Python attribute self.calls (0 → 1), so running it again would change the script's state",
  );
});

test("a region's verdict, its sentence and its number are the runner's answer as written (schema 1.21), never decided here", async () => {
  const r0 = await region(TRAIN_SMALL, 'r0');
  const digest = digestRegion(r0);
  assert.equal(digest.verdict, r0.answer!.verdict);
  assert.deepEqual(digest.recommendation, r0.recommendation);
  assert.equal(digest.number, r0.answer!.number!.text);
  assert.equal(digest.measurements[0]!.numberText, r0.answer!.number!.text, 'the replay it rests on: the same words');
  // a report made before answers: its own verdict and reason as recorded, no number said for it here
  const older = digestRegion(unanswered(r0));
  assert.equal(older.number, null);
  assert.deepEqual(older.recommendation, r0.recommendation);
});

test('CLI block: what-if modes by name, a failed measurement in words, numbers omitted when unknown (no dashes)', async () => {
  const r0 = await region(TRAIN_SMALL, 'r0');
  // the as-written replay's fields, without its line and its role (the runner's, schema 1.28 and 1.40: of that
  // measurement, not these)
  const { measuredText: _said, roleText: _role, ...asWritten } = r0.measurements[0]!;
  const whatIf = {
    ...asWritten,
    mode: 'max-autotune',
    modeText: "mode='max-autotune'", // as the runner writes it (schema 1.33)
    speedupIqrPct: null,
    speedupSpreadPct: null,
    // a what-if's own number and compile, not the recording's
    speedup: 2.6439,
    speedupInterval: { low: 0.5215, high: 3.3018, floorPct: 15.0, noisySides: ['eager' as const, 'compiled' as const] },
    compileSeconds: 1.9617,
    timing: null,
    eagerTiming: null,
    kernelsPerStep: null,
    breakEvenCalls: null,
  };
  const failed = {
    ...asWritten,
    mode: 'reduce-overhead',
    modeText: "mode='reduce-overhead'",
    status: 'error' as const,
    error: { kind: 'compile' as const, message: 'CUDA graphs need a GPU', fix: 'Run on CUDA.' },
  };
  // measurements other than those its answer is about: read as a report made before answers
  const lines = formatRegion(digestRegion({ ...unanswered(r0), measurements: [whatIf, failed] }));
  assert.equal(lines[1], `    ${r0.headline}`);
  const replays = lines.filter((l) => l.startsWith('    replay'));
  assert.deepEqual(replays, [
    "    replay: mode='max-autotune' on the most frequent inputs float32[8, 256, 64] under torch.inference_mode() (6 calls): 2.64× (0.52–3.30×), the replay compiled these inputs with mode='max-autotune' in 1.96 s",
    "    replay: mode='reduce-overhead' on the most frequent inputs float32[8, 256, 64] under torch.inference_mode() (6 calls): failed — CUDA graphs need a GPU — Run on CUDA.",
  ]);
  for (const line of lines) assert.doesNotMatch(line, /—\/|±—|: —$|null|undefined|NaN/);
});

test('CLI block: a failed replay the recommendation explains says "failed" once, not its error again (4B P3)', async () => {
  const step = await region(TRAIN_SMALL, 'r1');
  // step's replay as the 2026-11-29 recording failed it (on inputs past the recompile limit), its recommendation saying why
  const error =
    "no compiled code ran in the replay: torch.compile ran the region's code uncompiled, 916 times, so both sides timed the same eager code";
  // failed, it has no number, and no role (the runner's roleText, schema 1.40)
  const { roleText: _role, ...replayed } = step.measurements[0]!;
  const r1 = {
    ...step,
    measurements: [
      {
        ...replayed,
        status: 'error' as const,
        speedup: null,
        error: {
          kind: 'compile' as const,
          message: error,
          fix: "The region's story says which calls ran eagerly and why.",
        },
      },
    ],
    recommendation: {
      ...step.recommendation!,
      reason: `${step.recommendation!.reason} Measuring default failed: ${error}.`,
    },
  };
  const lines = formatRegion(digestRegion(r1));
  assert.ok(
    lines.some((l) => /^ {4}replay: .*: failed$/.test(l)),
    lines.join('\n'),
  );
  assert.equal(lines.filter((l) => l.includes(error)).length, 1);
  assert.match(
    lines.find((l) => l.includes(error))!,
    /^ {4}recommendation: /,
  );
});

test('CLI block: what a replay made as the script let go of the region left out is said, after its measurements', async () => {
  const r0 = await region(TRAIN_SMALL, 'r0');
  const leftOut =
    "measured when the script let go of it, on a torch without torch.compile(isolate_recompiles=...) (2.13+): the what-if mode reduce-overhead would have compiled into the script's own recompile limit, so they were left out";
  const lines = formatRegion(digestRegion({ ...r0, replay: { ...r0.replay, leftOut } }));
  const at = lines.indexOf(`    replay: left out: ${leftOut}`);
  assert.ok(
    at > lines.findIndex((line) => line.includes('(as written) on the most frequent inputs')),
    lines.join('\n'),
  );
  assert.equal(
    formatRegion(digestRegion(r0)).some((line) => line.includes('replay: left out')),
    false,
  );
});

test('script digest: error and the regions seen before it; no script-level verdict unless measured', async () => {
  const report = await fixture(TRAIN_SMALL);
  const failed: Report = {
    ...report,
    status: 'error',
    error: { kind: 'user-code', message: 'ValueError: bad batch (train_small.py:70)', fix: 'Fix the script.' },
    regions: report.regions!.slice(0, 1),
    headerText: report.headerText!.replace(/: ok$/, ': error'), // as the runner says the run's end each time it writes
  };
  const text = formatScriptDigest(failed);
  assert.match(
    text,
    /^Compile Lens — train_small on cpu \(.*\): error\n {2}error: ValueError: bad batch \(train_small\.py:70\) — Fix the script\.\n {2}TinyTransformer — /,
  );
  assert.doesNotMatch(text, /no region/);
  const none = formatScriptDigest({ ...report, regions: [], modes: [] });
  assert.match(none, /no region: torch\.compile returned no callable while the script ran/);
  assert.doesNotMatch(none, /recommendation/);
  const verdict = formatScriptDigest({
    ...report,
    recommendation: {
      mode: 'default',
      reason: 'TinyTransformer (line 37): compile (default, 1.84x).',
      verdict: 'compile',
    },
  });
  // the runner's reason says the verdict; it is printed once, not after a second verdict of our own
  assert.match(verdict, /^ {2}recommendation: TinyTransformer \(line 37\): compile \(default, 1\.84x\)\.$/m);
});

test("findings: the regions' compiler findings merge with the script entry's at the same site; notebook findings keep their cell", async () => {
  const report = await fixture(TRAIN_SMALL);
  const findings = collectFindings(report);
  const printBreak = findings.filter((f) => f.kind === 'graph-break');
  assert.equal(printBreak.length, 1);
  assert.deepEqual(printBreak[0]!.modes, ['script', 'Counter']);
  const fromRegionsOnly = collectFindings({ ...report, modes: [] });
  assert.deepEqual(
    fromRegionsOnly.map((f) => `${f.kind}:${f.line}`),
    findings.map((f) => `${f.kind}:${f.line}`),
  );
  const [notebookBreak] = collectFindings(await fixture(NOTEBOOK));
  assert.deepEqual([notebookBreak!.cell, notebookBreak!.line], [2, 7]);
});

test('notebook places: labels count cells from 1; a location lands on its cell unless the notebook changed under it', () => {
  assert.equal(placeLabel({ file: '/p/explore.ipynb', line: 2, cell: 3 }), 'explore.ipynb cell 4, line 2');
  assert.equal(placeLabel({ file: '/p/train.py', line: 24 }), 'train.py:24');
  assert.equal(placeLabel({ file: '/p/train.py', line: 24, cell: null }, true), '/p/train.py:24');
  const cells = [
    { kind: 'markup' as const, lineCount: 3 },
    { kind: 'code' as const, lineCount: 4 },
    { kind: 'code' as const, lineCount: 8 },
  ];
  assert.deepEqual(cellPosition({ line: 6, cell: 2 }, cells), { cell: 2, line: 5 });
  assert.equal(cellPosition({ line: 9, cell: 2 }, cells), null, 'the cell is shorter now');
  assert.equal(cellPosition({ line: 1, cell: 0 }, cells), null, 'a markdown cell holds no code');
  assert.equal(cellPosition({ line: 1, cell: 5 }, cells), null, 'the cell is gone');
  assert.equal(cellPosition({ line: 1, cell: null }, cells), null, 'not a notebook location');
});

test("the extension log's summary of a run: one line per region of a script, the headline of a target", async () => {
  const warmup = await fixture(WARMUP);
  assert.equal(runSummary(warmup), `f (warmup_step.py:8): ${warmup.regions![0]!.headline!}`);
  const script = await fixture(TRAIN_SMALL);
  assert.equal(runSummary({ ...script, regions: [] }), 'torch.compile returned no callable while the script ran.');
  assert.equal(
    runSummary({ ...script, regions: [], status: 'error' }),
    'The script failed before torch.compile returned a callable.',
  );
  assert.match(
    runSummary(await fixture('graphbreak-cpu')),
    /^compile it: \d+\.\d+× per call with default \(\d+\.\d+–\d+\.\d+×\) · /,
  );
});

test('a CodeLens line stays short (≤ 60 characters), whole parts first; the full text is for the tooltip', async () => {
  const long =
    "r0 Net: not replayable: it changes its buffer bn.running_mean in place, so running it again would change the script's state · 2 graphs · 1 recompile";
  const short = shortLine(long);
  assert.ok(short.length <= 60, short);
  assert.equal(short, 'r0 Net: not replayable · 2 graphs · 1 recompile');
  assert.equal(
    shortLine('3.31× (default, next run 2.77–3.79×) · 3 graphs · 2 breaks · 1 recompile · compile 9.5 s'),
    '3.31× (default, next run 2.77–3.79×) · 3 graphs · 2 breaks',
  );
  assert.equal(shortLine('r0 Net: 1.84× (default)'), 'r0 Net: 1.84× (default)');
  // a long first part keeps its number: the asides in parentheses go first (the tooltip keeps them)
  assert.equal(
    shortLine('no verdict: 0.32× (default, next run 0.01–5.32×), host contended · 2 graphs · 1 break · compile 2.8 s'),
    'no verdict: 0.32×, host contended · 2 graphs · 1 break',
  );
  // a number too noisy for a range on a busy host keeps its trust words whole (reportC D2: "no verdict: 10.33× per
  // call replayed, host busy, not"); the host is why it decides nothing, so they say it (review 9E E1)
  const noisy = await region(TRAIN_SMALL, 'r0');
  assert.match(
    shortLine(noisy.headline!),
    /^no verdict: [\d.]+× per call replayed, host busy, not trusted$/,
    noisy.headline,
  );
  // a number with its range keeps the range; the counts that do not fit go
  const explore = await region(NOTEBOOK, 'r0');
  assert.equal(
    shortLine(explore.headline!),
    'stay eager: 0.49× per call replayed (0.42–0.56×) · 2 graphs',
    explore.headline,
  );
  // still too long: the number and its last ','-asides that fit (whether to trust it), never the number cut away
  assert.equal(
    shortLine(
      'no verdict: 0.94× per step in situ, too noisy to say (a next run could land more than 3× away), host busy, not trusted · 1 graph',
    ),
    'no verdict: 0.94× per step in situ, host busy, not trusted',
  );
});

test("a CodeLens title fits a half-width editor (about 40 characters): the verdict's words, then its number", async () => {
  // reportC L6: at 60 characters every lens was cut by the editor ("…host bus", "no verdict: too n…")
  for (const { name, report } of FIXTURE_REPORTS) {
    const lines = [
      [runHeadline(report), report.answer?.number],
      ...(report.regions ?? []).map((r) => [regionHeadline(r), r.answer?.number] as const),
    ] as const;
    for (const [headline, number] of lines) {
      const title = lensTitle(headline, number?.text);
      assert.ok(title.length <= 46, `${name}: ${title}`);
      if (number?.text) {
        // the speedup the verdict rests on, after the verdict's words that lead its part of the headline
        const part = headline.split(' · ').find((p) => p.includes(number.text!))!;
        const words = part.slice(0, part.indexOf(number.text));
        assert.ok(title.startsWith(words) && title.includes(formatSpeedup(number.value)), `${name}: ${title}`);
        // and whether to trust it: a number timed on a busy host is never shown bare
        if (number.direction === 'host-busy') assert.ok(title.includes(number.directionText!), `${name}: ${title}`);
      }
    }
  }
  assert.equal(
    lensTitle(
      'no verdict: too noisy to say, 1.07× per call replayed (a next run could land more than 3× away) · 1 graph',
      'too noisy to say, 1.07× per call replayed (a next run could land more than 3× away)',
    ),
    'no verdict: too noisy to say, 1.07×',
  );
  // a number of 5 digits keeps its trust words whole
  assert.equal(
    lensTitle(
      'no verdict: 111.79× per call replayed (46.79–196.65×), host busy, not trusted · 1 graph',
      '111.79× per call replayed (46.79–196.65×), host busy, not trusted',
    ),
    'no verdict: 111.79×, host busy, not trusted',
  );
  // a range too wide to say, wholly below 1×: the verdict its direction decides, the direction, then the number
  // (review 8A A4), none of them cut
  const slower =
    'slower by a noisy amount, 0.094× per call replayed (a next run could land more than 3× away, though below 1×)';
  assert.equal(lensTitle(`stay eager: ${slower} · 8 graphs`, slower), 'stay eager: slower by a noisy amount, 0.094×');
  // too noisy for a range on a busy host: the host is why there is no verdict, and the lens says it (review 9E E1)
  const busy =
    '0.35× per call replayed (a next run could land more than 3× away, though below 1×), host busy, not trusted';
  assert.equal(lensTitle(`no verdict: ${busy} · 1 graph`, busy), 'no verdict: 0.35×, host busy, not trusted');
  // a leading shape story goes to the tooltip: the lens says the verdict
  const warm = await region(`${WARMUP}-shape-fix-on`, 'r0');
  assert.ok(warm.headline!.startsWith('the warm-up at size 1 (line 9) compiled a graph '), warm.headline);
  assert.equal(lensTitle(warm.headline!, warm.answer!.number!.text), 'no verdict: 0.15×, host busy, not trusted');
});

test("an answer from before the user's edit: the note and the answer fit the line the action and the answer had", () => {
  // reportC R5: the before-edit lens "from the run before your edit: re-run to chec" pushed the verdict out of view;
  // the action ("▶ Compile & Profile Script | ") now comes after the answers
  assert.ok(`${BEFORE_EDIT_LENS} | `.length <= '▶ Compile & Profile Script | '.length, BEFORE_EDIT_LENS);
});

test("a target function's lens line: the answer first, the action last, as on a script region's line", () => {
  // review 4A F6: "▶ Compile & Profile | no verdict: 0.19×, host busy, not trusted" (a narrow editor cut the answer)
  assert.deepEqual(targetLenses({ beforeEdit: false }), ['answer', 'profile']);
  assert.deepEqual(targetLenses({ beforeEdit: true }), ['before-edit', 'answer', 'profile']);
  assert.deepEqual(targetLenses(undefined), ['profile']);
});

test('a region with an in-situ number carries no notMeasured label: a replay that could not run is said as that', async () => {
  const measured = await region('script-in-situ-cpu', 'r0');
  const why = 'Not replayed: input cache is a DynamicCache, which cannot be safely passed again.';
  const unreplayable: Region = {
    ...measured,
    measurements: [],
    replay: { replayable: false, reason: 'input cache is a DynamicCache, which cannot be safely passed again' },
    answer: {
      ...measured.answer!,
      reasons: [{ code: 'replay-not-possible', what: 'input cache is a DynamicCache', text: why }],
    },
  };
  const d = digestRegion(unreplayable);
  assert.ok(d.inSitu && unreplayable.inSitu?.step);
  assert.equal(d.notMeasured, null);
  assert.equal(d.notReplayed, why);
  // without the in-situ number it is the reason the region has no number
  const none = digestRegion({ ...unreplayable, inSitu: null });
  assert.equal(none.notMeasured, why);
  assert.equal(none.notReplayed, null);
});

test("shape fixes the budget left out: the torch.compile line's lens to measure them carries the runner's title", async () => {
  const server = (await fixture('script-shapes-cpu')).regions!.find((r) => r.name === 'Server')!;
  assert.equal(digestRegion(server).measureShapeFix, null); // its fix was measured
  const title = 'Measure the shape fix (runs the script 2 more times, about 26 s)';
  const left: Region = { ...server, shapes: { ...server.shapes!, measure: { runs: 2, seconds: 26, title } } };
  assert.equal(digestRegion(left).measureShapeFix, title);
});

test("a replay's CLI line is the runner's (schema 1.28), and a report before it gets the same words from its fields", async () => {
  let said = 0;
  for (const name of ['script-in-situ-cpu', TRAIN_SMALL, 'script-kernels-cpu', 'script-shapes-cpu']) {
    const report = await fixture(name);
    for (const r of report.regions!) {
      const lines = formatRegion(digestRegion(r));
      const before = formatRegion(
        digestRegion({ ...r, measurements: r.measurements.map(({ measuredText: _said, ...m }) => m) }),
      );
      assert.deepEqual(before, lines, `${name} ${r.id}`);
      for (const m of r.measurements.filter((x) => x.measuredText))
        assert.ok(lines.some((l) => l.endsWith(m.measuredText!)) && ++said, `${name} ${r.id}: ${m.measuredText!}`);
    }
  }
  assert.ok(said >= 4, `${said} replay lines`);
});

test("a region's mode is the runner's words for its torch.compile call; a report before schema 1.33 says none, not 'mode default' (6C Y2)", async () => {
  const r0 = await region(TRAIN_SMALL, 'r0'); // torch.compile(module): no argument given
  assert.match(formatRegion(digestRegion(r0))[0]!, /\(torch\.compile\(module\), torch\.compile's defaults\): /);
  const { modeText: _said, ...before } = r0;
  const line = formatRegion(digestRegion(before))[0]!;
  assert.match(line, /\(torch\.compile\(module\)\): 12 calls/);
  assert.doesNotMatch(line, /mode/);
});

test("the CLI's header is the runner's (schema 1.29: 'fused.py on cpu (…): ok'), and a report before it gets the same words from its fields", () => {
  let said = 0;
  for (const { name, report } of FIXTURE_REPORTS) {
    if (report.target.kind === 'logs' || !report.headerText) continue; // a logs report says what it read instead
    const { headerText, ...before } = report;
    assert.equal(headerWords(before), headerText, name);
    assert.equal(reportText(report).split('\n')[0], `Compile Lens — ${headerText}`, name);
    said++;
  }
  assert.ok(said > 10, `${said} headers`);
});

test("a replay row is the region's speedup only where its number is the answer's; beside an in-situ answer it is evidence", async () => {
  // review H4 / D2: serve_script's row "speedup 0.90× per call replayed" under its headline's 1.03× per step in situ;
  // explore-cpu: the replay decides (no steady in-situ steps), so its row is the answer's number. Its role in the
  // runner's words (schema 1.40 roleText), which the CLI's line says (code read 35 item 7)
  const serve = await region('recorded/serve_script-cpu', 'r0');
  const explore = await region('recorded/explore-cpu', 'r0');
  assert.deepEqual(
    [serve, explore].map((r) => digestRegion(r).measurements.map((m) => m.role)),
    [['evidence, not the answer'], ['speedup']],
  );
  assert.deepEqual(
    [serve, explore].map(
      (r) =>
        formatRegion(digestRegion(r))
          .find((l) => l.startsWith('    replay'))
          ?.split(': ')[0],
    ),
    ['    replay (evidence, not the answer)', '    replay (speedup)'],
  );
  // an older report, without the runner's words: no role said, none made here
  const older = { ...serve, measurements: serve.measurements.map(({ roleText: _, ...m }) => m) };
  assert.match(
    formatRegion(digestRegion(older)).find((l) => l.startsWith('    replay'))!,
    /^ {4}replay: /,
  );
});

test("a replay row's eager and compiled times divide to its speedup as shown, a digit more each where three would not (review 15U U1)", async () => {
  const normalize = (await fixture('script-kernels-cpu')).regions!.find((r) => r.name === 'normalize')!;
  const row = measurementCells(digestRegion(normalize).measurements[0]!);
  // 9.65 µs over 13.7 µs is 0.704: "0.70×" beside the answer's "0.71×"
  assert.match(normalize.answer?.number?.text ?? '', /^0\.71× per call replayed/);
  assert.deepEqual([row.compiled, row.eager], ['13.68 µs', '9.652 µs']);
  assert.equal(formatSpeedup(9.652 / 13.68), '0.71×');
  // a report before answers held the times: its pairs' times, as formatMs says them
  const { answer: _, ...unanswered } = normalize;
  const older = measurementCells(digestRegion(unanswered).measurements[0]!);
  assert.deepEqual([older.compiled, older.eager], ['13.7 µs', '9.65 µs']);
});
