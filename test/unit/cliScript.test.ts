// `profile --script` and `check --script` as users script them (and a target's `profile --json`), with a stub in place
// of the interpreter that answers with a fixture report (test/fixtures/stub-runner/python): what the CLI passes and
// prints. cliRunner.test.ts runs the real runner.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../extension/cli/main.ts';
import { optionsFromSettings, profileArgs } from '../../extension/shared/runnerProtocol.ts';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
const STUB = path.join(FIXTURES, 'stub-runner', 'python');
// real runs' report folders (test/fixtures/recorded/README.md), named as run() names a reports/ fixture
const TRAIN_SMALL = '../recorded/train_small-cpu';
const EXPLORE = '../recorded/explore-cpu';
let dir: string;
let script: string;
const saved = { report: process.env['COMPILE_LENS_STUB_REPORT'], args: process.env['COMPILE_LENS_STUB_ARGS'] };

before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cl-cli-script-'));
  script = path.join(dir, 'train_small.py');
  writeFileSync(script, 'import torch\n\nmodel = torch.compile(TinyTransformer())\n');
  process.env['COMPILE_LENS_STUB_ARGS'] = path.join(dir, 'args.jsonl');
});
after(() => {
  process.env['COMPILE_LENS_STUB_REPORT'] = saved.report;
  process.env['COMPILE_LENS_STUB_ARGS'] = saved.args;
  if (saved.report === undefined) delete process.env['COMPILE_LENS_STUB_REPORT'];
  if (saved.args === undefined) delete process.env['COMPILE_LENS_STUB_ARGS'];
});

async function run(
  fixture: string,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string; launched: string[] }> {
  process.env['COMPILE_LENS_STUB_REPORT'] = path.join(FIXTURES, 'reports', fixture, 'report.json');
  writeFileSync(process.env['COMPILE_LENS_STUB_ARGS']!, '');
  let out = '';
  let err = '';
  const [command, ...rest] = argv;
  const code = await main([command!, '--python', STUB, '--out', path.join(dir, 'run'), ...rest], {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
  });
  const launched = readFileSync(process.env['COMPILE_LENS_STUB_ARGS']!, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as string[]);
  return { code, out, err, launched: launched[0] ?? [] };
}

test('profile --script prints one block per region with real numbers, no placeholder dashes, and passes --calls', async () => {
  // a real run of train_small.py; its TinyTransformer line is line 3 of the script here (the stub moves it there)
  const { code, out, err, launched } = await run(
    TRAIN_SMALL,
    'profile',
    '--script',
    script,
    '--calls',
    '40',
    '--',
    '--epochs',
    '1',
  );
  assert.equal(code, 0, err);
  assert.deepEqual(launched.slice(0, 2), ['profile', '--script']);
  assert.equal(launched[launched.indexOf('--calls') + 1], '40');
  assert.deepEqual(launched.slice(launched.indexOf('--') + 1), ['--epochs', '1']);
  assert.doesNotMatch(out, /—\/call|\(±—\)|: — /, 'no placeholder numbers');
  assert.doesNotMatch(out, /eager: /, 'no target-style eager row');
  assert.match(
    out,
    /^ {2}TinyTransformer — train_small\.py:3 \(torch\.compile\(module\), torch\.compile's defaults\): 12 calls, 2 graphs, 1 recompile, [\d.]+ m?s compiling in the script's own calls$/m,
  );
  assert.match(
    out,
    /^ {4}replay \(speedup\): torch\.compile's defaults \(as written\) on the most frequent inputs float32\[8, 256, 64\] under torch\.inference_mode\(\) \(6 calls\): [\d.]+× per call replayed \(.*\), host busy, not trusted, [\d.]+ ms\/call vs eager [\d.]+ ms, fastest rounds of \d+ interleaved pairs, CPU ops\/call 5 → 5$/m,
  );
  // each region's answer first, then its sentence as the runner wrote it (why there is no number where there is none)
  assert.match(
    out,
    /^ {2}Counter .*: 4 calls, 5 compiles \(1 graph[^)]*\), 4 graph breaks \(in compiles that made no graph\), 3 recompiles, [\d.]+ m?s compiling in the script's own calls\n {4}no verdict: not replayable: it changes the Python attribute self\.calls /m,
  );
  assert.match(out, /^ {4}recommendation: No verdict\. Not measured: called 2 times: at least 3 calls are needed/m);
  // every region's sentence, and the script's: the deciding region's first
  assert.equal(out.match(/recommendation:/g)?.length, 5);
  assert.match(
    out,
    /^ {2}recommendation: step \(line 40\): .*; TinyTransformer \(line \d+\): no verdict: [\d.]+× per call replayed \(.*\), host busy, not trusted/m,
  );
  assert.match(out, /report: .*report\.json$/m);
});

test('profile --target --json prints the documented digest with the report path', async () => {
  const { code, out, err, launched } = await run(
    'fused-cpu',
    'profile',
    '--target',
    `${script}:compile_target`,
    '--json',
  );
  assert.equal(code, 0, err);
  assert.equal(launched[launched.indexOf('--target') + 1], `${script}:compile_target`);
  const digest = JSON.parse(out) as Record<string, unknown> & { modes: { mode: string; speedup: number }[] };
  for (const key of [
    'reportPath',
    'target',
    'device',
    'status',
    'eagerKernelsPerStep',
    'modes',
    'recommendation',
    'findings',
  ])
    assert.ok(key in digest, key);
  assert.equal(digest['reportPath'], path.join(dir, 'run', 'report.json'));
  assert.equal(digest.modes[0]!.mode, 'default');
  assert.ok(digest.modes[0]!.speedup > 0);
});

test('profile --script --json lists the regions with the documented fields', async () => {
  const { code, out } = await run(TRAIN_SMALL, 'profile', '--script', script, '--json');
  assert.equal(code, 0);
  const json = JSON.parse(out) as { target: string; regions: Record<string, unknown>[] };
  assert.equal(json.target, 'train_small');
  assert.deepEqual(
    json.regions.map((r) => r['id']),
    ['r0', 'r1', 'r2', 'r3'],
  );
  const documented = [
    'id',
    'name',
    'kind',
    'file',
    'line',
    'cell',
    'mode',
    'modeText',
    'label',
    'calls',
    'compiles',
    'recompiles',
    'graphs',
    'graphBreaks',
    'eagerCalls',
    'compileSeconds',
    'facts',
    'steadyFromCall',
    'steadyMs',
    'notMeasured',
    'notReplayed',
    'number',
    'numberCompiled',
    'replayLeftOut',
    'measurements',
    'recommendation',
    'verdict',
    'story',
    'inSitu',
    'headline',
    'noCompiledCode',
    'cudaGraphs',
    'measureShapeFix',
  ];
  assert.deepEqual(Object.keys(json.regions[0]!).sort(), [...documented].sort());
  const [r0, , r2] = json.regions as {
    file: string;
    line: number;
    headline: string;
    notMeasured: string | null;
    recommendation: unknown;
    measurements: { speedup: number; signature: string; why: string }[];
  }[];
  assert.equal(r0!.file, script);
  assert.equal(r0!.line, 3);
  // the runner's headline, as the recording carries it
  const recorded = JSON.parse(readFileSync(path.join(FIXTURES, TRAIN_SMALL.slice(3), 'report.json'), 'utf8')) as {
    regions: { headline: string; measurements: { speedup: number }[] }[];
  };
  assert.equal(r0!.headline, recorded.regions[0]!.headline);
  assert.deepEqual(
    r0!.measurements.map((m) => [m.speedup, m.signature, m.why]),
    [[recorded.regions[0]!.measurements[0]!.speedup, 'float32[8, 256, 64]; inference', 'most-frequent']],
  );
  assert.match(r2!.notMeasured!, /^Not replayed: it changes the Python attribute self\.calls /);
  // no verdict, and why, in the runner's words
  const { mode, verdict, reason } = r2!.recommendation as { mode: null; verdict: string; reason: string };
  assert.deepEqual([mode, verdict], [null, 'none']);
  assert.ok(reason.startsWith(`No verdict. ${r2!.notMeasured} Not measured in situ: `), reason);
});

test('profile --script --json carries the in-situ numbers per region and the runs; --no-in-situ and --shape-fix reach the runner', async () => {
  const { code, out, launched } = await run(
    'script-in-situ-cpu',
    'profile',
    '--script',
    script,
    '--json',
    '--no-in-situ',
    '--shape-fix',
    'on',
  );
  assert.equal(code, 0);
  assert.ok(launched.includes('--no-in-situ'));
  assert.equal(launched[launched.indexOf('--shape-fix') + 1], 'on');
  const json = JSON.parse(out) as {
    inSitu: { pairs: number; wallSeconds: { compiled: number[] } };
    regions: {
      inSitu: {
        pairs: number;
        step: { speedup: number; low: number; high: number };
        breakEvenSteps: number;
        stepsMade: number;
      };
    }[];
  };
  assert.equal(json.inSitu.pairs, 2);
  assert.equal(json.inSitu.wallSeconds.compiled.length, 2);
  const [r0] = json.regions;
  assert.deepEqual([r0!.inSitu.step.speedup, r0!.inSitu.step.low, r0!.inSitu.step.high], [1.2242, 0.8728, 1.4078]);
  assert.deepEqual([r0!.inSitu.breakEvenSteps, r0!.inSitu.stepsMade], [19467, 40]);
});

test("check --script counts the script's graph breaks and recompiles at its lines", async () => {
  // a real run of train_small.py (test/fixtures/recorded/README.md): one print break, 11 recompiles at three lines
  const over = await run(TRAIN_SMALL, 'check', '--script', script, '--max-graph-breaks', '0', '--max-recompiles', '10');
  assert.equal(over.code, 1);
  assert.ok(over.launched.includes('--quick'), 'check runs quick');
  // the break in the runner's words, not PyTorch's message
  assert.match(over.out, /train_small\.py:29 {2}Graph break ×4: A print\(\) call needs the real values/m);
  assert.match(over.out, /train_small\.py:40 {2}Recompile ×7: Input 'x' changed size in dimension 1: /m);
  assert.match(over.out, /^check failed: 1 graph breaks \(allowed 0\), 11 recompiles \(allowed 10\)$/m);
  const within = await run(
    TRAIN_SMALL,
    'check',
    '--script',
    script,
    '--max-graph-breaks',
    '1',
    '--max-recompiles',
    '11',
    '--json',
  );
  assert.equal(within.code, 0);
  assert.deepEqual((JSON.parse(within.out) as { passed: unknown }).passed, true);
});

test("a notebook's findings name their cell (counted from 1) in text, and its index in --json", async () => {
  // a real run of test/e2e/workspace/explore.ipynb: its .item() break in the notebook's third cell
  const notebook = path.join(dir, 'explore.ipynb');
  writeFileSync(notebook, '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}');
  const text = await run(EXPLORE, 'check', '--script', notebook, '--max-graph-breaks', '0');
  assert.match(
    text.out,
    /explore\.ipynb cell 3, line 7 {2}Graph break: Tensor\.item\(\) turns a tensor into a Python number/,
  );
  const json = await run(EXPLORE, 'check', '--script', notebook, '--max-graph-breaks', '0', '--json');
  assert.deepEqual(
    (JSON.parse(json.out) as { findings: { cell: number; line: number }[] }).findings.map((f) => [f.cell, f.line]),
    [[2, 7]],
  );
});

test('--calls is for scripts only, and at least 1', async () => {
  for (const [argv, message] of [
    [['profile', '--sample', 'mlp', '--calls', '3'], /--calls applies to --script only/],
    [['profile', '--script', 'a.py', '--calls', '0'], /--calls must be at least 1/],
  ] as const) {
    let err = '';
    const code = await main([...argv], { out: () => undefined, err: (t) => (err += t) });
    assert.equal(code, 2);
    assert.match(err, message);
  }
});

test('profile --script --nproc-per-node 2 runs under torchrun and prints every rank and the divergence', async () => {
  const { code, out, err, launched } = await run(
    'ddp-ranks-cpu',
    'profile',
    '--script',
    script,
    '--nproc-per-node',
    '2',
    '--',
    '--diverge-step',
    '3',
  );
  assert.equal(code, 0, err);
  assert.equal(launched[launched.indexOf('--nproc-per-node') + 1], '2');
  assert.deepEqual(launched.slice(launched.indexOf('--') + 1), ['--diverge-step', '3']);
  assert.match(out, /^ {2}ranks \(torchrun, 2 processes\):$/m);
  assert.match(out, /^ {4}rank 1: ok · 2 graphs, 4 graph breaks, recompiled at call 3 \(2 compiles\), /m);
  // the region's graphs and breaks said with whose they are, as the rank lines count them (s29), rank 1's recompiles
  // as rank 1's, on both of its lines, and as the one event they were: call 3 recompiled two frames (DDP's forward and
  // the model's)
  assert.match(
    out,
    /DistributedDataParallel .*: 6 calls, 1 graph and 3 graph breaks \(in compiles that made no graph\) on rank 0, 2 graphs and 4 graph breaks \(in compiles that made no graph\) on rank 1, recompiled at call 3 on rank 1, /,
  );
  assert.match(
    out,
    /· 1 graph and 3 graph breaks on rank 0 · 2 graphs and 4 graph breaks on rank 1 · recompiled at call 3 on rank 1/,
  );
  assert.match(
    out,
    /^ {4}train_small\.py:\d+ {2}rank 1 recompiled DistributedDataParallel at call 3 — .* — rank 0 did not: the ranks ran different graphs$/m,
  );
  // DDP's breaks at the training line, one finding: each rank's count beside its kind (not ". (on ranks 0, 1)" after
  // its full stop; s29: not "×3 (on ranks 0, 1)" over rank 1's 4), its calls quoted as Problems quotes them
  assert.match(
    out,
    /^ {4}\S+ {2}graph-break \(3 graph breaks at this line on rank 0, 4 on rank 1\): The compiled code calls .*\('Logger\.set_runtime_stats_and_log' and 'DistributedDataParallel\._inside_ddp_forward'\).*\.$/m,
  );
  // rank 1's recompile is the divergence above, not a second finding (review 5C D6)
  assert.doesNotMatch(out, /^ {4}\S+ {2}recompile/m);
  assert.doesNotMatch(out, /divergence: rank/, 'the divergence is in the ranks block, not repeated among the findings');
  const json = JSON.parse(
    (await run('ddp-ranks-cpu', 'profile', '--script', script, '--nproc-per-node', '2', '--json')).out,
  ) as {
    ranks: { rank: number; status: string; recompiles: number; regions: { calls: number }[]; trace: string }[];
    divergence: { kind: string; severity: string; message: string; file: string; line: number; ranks: number[] }[];
    findings: { kind: string; ranks?: number[] }[];
  };
  assert.deepEqual(
    json.ranks.map((r) => [r.rank, r.status, r.recompiles, r.regions[0]!.calls]),
    [
      [0, 'ok', 0, 6],
      [1, 'ok', 2, 6],
    ],
  );
  // rank 1 recompiled on its own (both ranks' FX graph caches were cold, missed alike: no cache warning)
  assert.deepEqual(
    json.divergence.map((d) => [d.kind, d.severity, d.file, d.ranks]),
    [['recompile', 'error', script, [1]]],
  );
  assert.ok(json.findings.filter((f) => f.kind === 'recompile').every((f) => f.ranks?.join() === '1'));
});

test('check --nproc-per-node fails on a divergence between ranks, within the break and recompile limits', async () => {
  const diverged = await run(
    'ddp-ranks-cpu',
    'check',
    '--script',
    script,
    '--nproc-per-node',
    '2',
    '--max-graph-breaks',
    '10',
    '--max-recompiles',
    '10',
  );
  assert.equal(diverged.code, 1);
  assert.match(diverged.out, /^.*train_small\.py:\d+ {2}rank 1 recompiled DistributedDataParallel at call 3 — .*$/m);
  assert.match(diverged.out, /^check failed: the ranks diverged \(1 divergence\)$/m);
  const agreeing = path.join(dir, 'agreeing.json');
  const report = JSON.parse(readFileSync(path.join(FIXTURES, 'reports', 'ddp-ranks-cpu', 'report.json'), 'utf8')) as {
    divergence: unknown[];
  };
  writeFileSync(
    agreeing,
    JSON.stringify({
      ...report,
      divergence: [
        {
          kind: 'cache',
          severity: 'warning',
          message: 'forward was loaded from the FX graph cache on rank 0 and compiled afresh on rank 1 (miss)',
          location: null,
          ranks: [1],
        },
      ],
    }),
  );
  process.env['COMPILE_LENS_STUB_REPORT'] = agreeing;
  let out = '';
  const code = await main(
    [
      'check',
      '--python',
      STUB,
      '--out',
      path.join(dir, 'run'),
      '--script',
      script,
      '--nproc-per-node',
      '2',
      '--max-graph-breaks',
      '10',
      '--json',
    ],
    { out: (t) => (out += t), err: () => undefined },
  );
  assert.equal(code, 0, 'a cache warning is compile time, not a divergence of behaviour');
  const json = JSON.parse(out) as { passed: boolean; divergence: { severity: string }[] };
  assert.equal(json.passed, true);
  assert.deepEqual(
    json.divergence.map((d) => d.severity),
    ['warning'],
  );
});

test('--nproc-per-node is for scripts, and at least 1', async () => {
  for (const [argv, message] of [
    [['profile', '--sample', 'mlp', '--nproc-per-node', '2'], /--nproc-per-node applies to --script only/],
    [
      ['check', '--script', 'a.py', '--nproc-per-node', '0', '--max-graph-breaks', '0'],
      /--nproc-per-node must be at least 1/,
    ],
  ] as const) {
    let err = '';
    const code = await main([...argv], { out: () => undefined, err: (t) => (err += t) });
    assert.equal(code, 2);
    assert.match(err, message);
  }
});

test('options that choose how the runner compiles are refused with --script, each named', async () => {
  for (const [flags, message] of [
    [['--backend', 'eager'], /^compile-lens: --backend does not apply to --script/],
    [['--dynamic', 'true'], /--dynamic does not apply/],
    [['--fullgraph'], /--fullgraph does not apply/],
    [['--train'], /--train does not apply/],
    [['--fullgraph', '--train'], /--fullgraph, --train do not apply to --script.*remove them/],
  ] as const) {
    let err = '';
    const code = await main(['profile', '--script', 'a.py', ...flags], {
      out: () => undefined,
      err: (t) => (err += t),
    });
    assert.equal(code, 2, flags.join(' '));
    assert.match(err, message);
  }
});

test("the editor's dynamic and fullgraph settings reach targets, never scripts", () => {
  const settings = {
    device: 'cpu',
    modes: undefined,
    dynamic: 'true',
    fullgraph: true,
    timeoutSeconds: 60,
    quick: true,
    scriptCalls: 4,
    nprocPerNode: 2,
  } as const;
  const scriptArgs = profileArgs(optionsFromSettings({ kind: 'script', file: '/w/train.py', args: [] }, settings));
  for (const flag of ['--dynamic', '--fullgraph', '--backend', '--train']) assert.ok(!scriptArgs.includes(flag), flag);
  assert.deepEqual(scriptArgs.slice(scriptArgs.indexOf('--calls'), scriptArgs.indexOf('--calls') + 4), [
    '--calls',
    '4',
    '--nproc-per-node',
    '2',
  ]);
  const targetArgs = profileArgs(optionsFromSettings({ kind: 'function', file: '/w/m.py', fn: 'build' }, settings));
  assert.deepEqual(targetArgs.slice(targetArgs.indexOf('--dynamic'), targetArgs.indexOf('--dynamic') + 3), [
    '--dynamic',
    'true',
    '--fullgraph',
  ]);
  assert.ok(!targetArgs.includes('--calls') && !targetArgs.includes('--nproc-per-node'));
});
