// What the CLI, CodeLens and hover say about numbers a user bets on: the interval, launch-bound eager, the
// correctness reference, eager timed as "compiled", recurring recompiles as one finding; never a doubled verdict,
// a verdict without a measurement, or a placeholder dash.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { collectFindings, findingHover, findingMessage } from '../../extension/present/findings.ts';
import { checkReport, type ModeResult, type Report, type Timing } from '../../extension/shared/report.ts';
import { runHeadline } from '../../extension/present/headline.ts';
import { digestReport, formatDigest } from '../../extension/present/reportDigest.ts';
import { loadReport } from '../../extension/node/reportFile.ts';

const COUNTER = path.resolve(__dirname, '../fixtures/reports/counter-cpu/report.json');

function timing(estimateMs: number, pairs: number): Timing {
  const rounds = Array.from({ length: pairs }, (_, i) => estimateMs * (1 + (i % 3) * 0.4));
  return {
    medianMs: estimateMs * 1.4,
    minMs: estimateMs,
    maxMs: estimateMs * 1.8,
    estimateMs,
    spreadPct: 80,
    rounds,
    callsPerRound: 16,
    method: 'cuda events',
    extraRounds: pairs - 7,
    stopReason: 'converged',
  };
}

function cudaReport(): Report {
  const reduceOverhead: ModeResult = {
    mode: 'reduce-overhead',
    status: 'ok',
    error: null,
    compileSeconds: 7.5,
    speedup: 2.935,
    breakEvenCalls: 5800,
    trace: 'reduce-overhead.trace.json',
    kernelsPerStep: 60,
    timing: timing(0.702, 45),
    eagerTiming: timing(2.06, 45),
    speedupEstimator: 'fastest-rounds',
    speedupInterval: { low: 2.759, high: 3.785, floorPct: 6, noisySides: ['eager'] },
    speedupMedianRatio: 5.42,
    speedupIqrPct: 19,
    ranCompiled: true,
    gpuIdlePct: 3,
    correctness: {
      ok: true,
      maxAbsError: 0.00115,
      dtype: 'float32',
      atol: 1e-4,
      rtol: 1e-3,
      message: null,
      reference: 'fp64',
      referenceNote: null,
      eagerRmse: 3.1e-4,
      compiledRmse: 2.9e-4,
      multiplier: 2,
      precision: { cudaMatmulAllowTf32: false, cudnnAllowTf32: true, float32MatmulPrecision: 'highest' },
    },
    compiler: { graphCount: 1, graphBreaks: [], recompiles: [], recompileSites: [] },
  };
  return {
    schemaVersion: '1.4',
    runner: { version: '0.1.0' },
    createdAt: '2026-11-22T12:00:00Z',
    status: 'ok',
    error: null,
    environment: {
      python: '3.12',
      torch: '2.11.0',
      triton: '3.6.0',
      device: 'cuda',
      deviceName: 'NVIDIA H100 80GB HBM3',
      platform: 'linux',
    },
    target: {
      kind: 'function',
      name: 'real_models-resnet18',
      file: '/ws/real_models.py',
      function: 'resnet18',
      line: 10,
    },
    settings: {},
    eager: {
      timing: timing(2.06, 7),
      trace: 'eager.trace.json',
      kernelsPerStep: 60,
      gpuIdlePct: 62.4,
      launchBound: true,
    },
    modes: [reduceOverhead],
    recommendation: {
      mode: 'reduce-overhead',
      verdict: 'compile',
      reason:
        'Use reduce-overhead: faster than eager (2.94x; a next run may give 2.76-3.79x), and its 7.5 s compile pays back after 5,800 calls.',
    },
  };
}

test('the hand-built CUDA report is valid against the schema', () => {
  const checked = checkReport(cudaReport());
  assert.ok(checked.ok, JSON.stringify(checked));
});

test('CLI: interval, what was compared, correctness reference and TF32 settings; a report before the notes lists their fields', () => {
  const text = formatDigest(digestReport(cudaReport()));
  // schema < 1.25: the mode's fields listed (report/mode_line.py writes its line: test_mode_line.py)
  assert.match(
    text,
    /reduce-overhead: speedup 2\.94× \(2\.76–3\.79×\) · compiled 0\.702 ms\/call · eager 2\.06 ms\/call · kernels\/step 60 → 60/,
  );
  // schema < 1.24: no sentence made here, the fields listed (report/notes.py words them: test_notes.py)
  assert.match(text, /\n {2}eager launch-bound: GPU idle 62% between kernels\n/);
  assert.match(
    text,
    /\n {4}outputs vs eager: max abs error 0\.00115 · reference fp64 · RMSE compiled 0\.00029, eager 0\.00031\n/,
  );
  assert.match(text, /precision: TF32 matmul off, cuDNN TF32 on; float32 matmul precision highest/);
  assert.match(text, /\n {2}recommendation: Use reduce-overhead: faster than eager/);
});

test("the runner's notes (schema 1.24) are said as they are, each on its line, and eager's launch-bound note", () => {
  const report = cudaReport();
  const notes = ['outputs differ from eager by up to 0.00115, …: not a compiler error', 'the host CPU was busy …'];
  report.modes[0]!.notes = notes;
  report.eager.launchBoundText = "eager is launch-bound: … depend on this host's CPU";
  assert.ok(checkReport(report).ok);
  const digest = digestReport(report);
  assert.deepEqual(digest.modes[0]!.notes, notes);
  const text = formatDigest(digest);
  assert.ok(text.includes(notes.map((n) => `    ${n}`).join('\n')), text);
  assert.ok(text.includes("\n  eager is launch-bound: … depend on this host's CPU\n"), text);
  assert.doesNotMatch(text, /outputs vs eager|GPU idle 62%/);
});

test('a report before the notes: eager taken from the run and a slow host listed as fields, beside a number only', () => {
  const report = cudaReport();
  report.modes[0]!.speedupInterval = {
    low: 1.24,
    high: 2.42,
    floorPct: 2,
    noisySides: ['eager'],
    runEager: { eagerMs: 12.0, bestEagerMs: 6.27 },
    slowHost: { eager: 1.19, compiled: 1.26 },
  };
  assert.ok(checkReport(report).ok);
  const text = formatDigest(digestReport(report));
  assert.match(text, /2\.94× \(1\.24–2\.42×\)/);
  assert.match(text, /\n {4}eager taken from the run: 6\.27 ms per call · in these pairs 12 ms\n/);
  assert.match(text, /\n {4}host slower than its fastest: eager 1\.19× · compiled 1\.26×\n/);
  report.modes[0]!.speedupInterval = { low: 1.28, high: 1.93, slowHost: {} };
  assert.ok(!formatDigest(digestReport(report)).includes('host slower'));
});

test('CLI: what was not measured is said in words, never a placeholder dash', () => {
  const report = cudaReport();
  report.eager = { timing: null, trace: null, kernelsPerStep: null };
  const mode = report.modes[0]!;
  Object.assign(mode, { kernelsPerStep: null, compileSeconds: null, breakEvenCalls: null });
  const text = formatDigest(digestReport(report));
  assert.doesNotMatch(text, /^ {2}eager:/m, 'no eager line when nothing of eager was profiled');
  assert.ok(!/—\s*(,|\/|$)|: —|—\/|→ —|— →/m.test(text), text);
  assert.ok(!text.includes('kernels/step') && !/, compile \d/.test(text) && !text.includes('break-even'), text);
});

test('counter model (real runner report): eager timed as "compiled" is no measurement, with the cause and the fix', async () => {
  const { report } = await loadReport(COUNTER);
  const digest = digestReport(report);
  const [mode] = digest.modes;
  assert.equal(mode!.speedup, null);
  assert.match(
    mode!.notMeasured ?? '',
    /forward hit the recompile limit \(8\) after recompiling on every call: guard self\.calls == N/,
  );
  const text = formatDigest(digest);
  // the runner's sentence (report/sentences.py), its fix with it
  assert.match(
    text,
    /default: not measured\. The compiled calls of default ran eagerly, so nothing compiled was measured/,
  );
  assert.match(text, /Fix: set torch\._dynamo\.config\.allow_unspec_int_on_nn_module = True/);
  assert.match(
    text,
    /recompile ×8: The integer attribute self\.calls of the module changes between calls; .* In order: 16 → 17/,
  );
  assert.equal(runHeadline(report), "no verdict: default's compiled calls ran eagerly");
  // no verdict without a measurement, and the verdict is said once
  assert.ok(!/don't compile/i.test(text), text);
  const recommendation = text.split('\n').find((l) => l.includes('recommendation:'))!;
  assert.match(recommendation, /^ {2}recommendation: No verdict\. The compiled calls of default ran eagerly/);
});

test("counter model: eight recompiles at one line are one finding with a count, PyTorch's hint and the fix", async () => {
  const { report } = await loadReport(COUNTER);
  const recompiles = collectFindings(report).filter((f) => f.kind === 'recompile');
  assert.equal(recompiles.length, 1);
  const [site] = recompiles;
  assert.equal(site!.count, 8);
  assert.match(
    findingMessage(site!),
    /^Recompile ×8: The integer attribute self\.calls of the module changes between calls; .* In order: 16 → 17 → 18 → 19 → … → 23\.$/,
  );
  const hover = findingHover(site!);
  assert.match(hover, /8 recompiles at this line/);
  assert.doesNotMatch(hover, /The integer attribute self\.calls/, 'said once, by the Problems message above the hover');
  assert.match(hover, /> \*\*PyTorch's words:\*\* self\.calls == 16 \\\(guard from: self\.calls \\\+= 1\\\)/);
  assert.match(
    hover,
    /\*\*PyTorch's hint:\*\* torch\.compile considers integer attributes of the nn\.Module to be static/,
  );
  assert.match(hover, /\*\*Fix:\*\* set torch\.\\_dynamo\.config\.allow\\_unspec\\_int\\_on\\_nn\\_module = True/);
});

test('no verdict where nothing was measured: a script-mode recommendation is printed as the runner wrote it', () => {
  const report = cudaReport();
  report.modes = [];
  report.recommendation = {
    mode: null,
    verdict: 'none',
    reason:
      'Script mode reports what torch.compile did in the script as written; it does not time eager against compiled.',
  };
  const text = formatDigest(digestReport(report));
  assert.match(text, /recommendation: Script mode reports what torch\.compile did/);
  assert.ok(!/don't compile/i.test(text));
});

test("CLI: a number timed on a contended CPU host is said as such, with the runner's why and fix, beside no verdict", () => {
  const report = cudaReport();
  const hostLoad = {
    cpus: 2,
    threads: 2,
    samples: 6,
    contendedSamples: 6,
    othersRunning: [2, 3] as [number, number],
    loadAverage: { start: 3.1, end: 3.4 },
    stealPct: 0.5,
    contended: true,
    reason: 'the host was contended while timing: other processes had 2 threads ready to run on its 2 CPUs',
    fix: 'run with OMP_NUM_THREADS=1',
  };
  report.schemaVersion = '1.19';
  report.modes[0]!.timing = { ...report.modes[0]!.timing!, hostLoad };
  report.recommendation = {
    mode: null,
    verdict: 'none',
    reason: 'No verdict: reduce-overhead measured 704.50×, but the host was contended while timing.',
  };
  const checked = checkReport(report);
  assert.ok(checked.ok, JSON.stringify(checked));
  const digest = digestReport(report);
  assert.ok(digest.modes[0]!.notes.includes(`host contended: ${hostLoad.reason} · fix: ${hostLoad.fix}`));
  assert.match(
    formatDigest(digest),
    /\n {4}host contended: the host was contended while timing: .* · fix: run with OMP_NUM_THREADS=1\n/,
  );
  assert.ok(digestReport(cudaReport()).modes[0]!.notes.every((n) => !n.startsWith('host contended')));
});
