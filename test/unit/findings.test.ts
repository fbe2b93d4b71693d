import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectFindings, findingHover, suggestFix } from '../../extension/core/findings.ts';
import { checkReport, type ModeResult, type Report } from '../../extension/core/report.ts';
import { digestReport, formatDigest, headline } from '../../extension/core/reportDigest.ts';
import { findTargetFunctions } from '../../extension/core/targets.ts';
import { buildCompilerTree } from '../../extension/core/compilerTree.ts';

const MODEL = '/ws/model.py';

function mode(name: string, overrides: Partial<ModeResult> = {}): ModeResult {
  return {
    mode: name, status: 'ok', error: null, compileSeconds: 9.5, speedup: 3.31, breakEvenCalls: 120, trace: `${name}.trace.json`, kernelsPerStep: 32,
    timing: { medianMs: 4.49, minMs: 4.4, maxMs: 4.6, spreadPct: 4.5, rounds: [4.4, 4.49, 4.6], callsPerRound: 8, method: 'perf_counter' },
    compiler: {
      graphCount: 3,
      graphBreaks: [
        { reason: 'Unsupported builtin print', gbId: 'GB0059', docUrl: 'https://example.invalid/gb0059', hint: null, location: { file: MODEL, line: 12, function: 'forward' }, userStack: [] },
        { reason: 'Tensor.item() call with capture_scalar_outputs=False', location: null, userStack: [{ file: MODEL, line: 14, function: 'forward' }] },
      ],
      recompiles: [{ reason: "tensor 'x' size mismatch at index 0. expected 32, actual 64", location: { file: MODEL, line: 30, function: 'compile_target' }, trigger: 'batch 64 after warmup at 32, dynamic=False' }],
    },
    ...overrides,
  };
}

const report: Report = {
  schemaVersion: '1.0', runner: { version: '0.1.0' }, createdAt: '2026-11-22T12:00:00Z', status: 'partial', error: null,
  environment: { python: '3.11.7', torch: '2.13.0', triton: null, device: 'cpu', deviceName: 'x86_64', platform: 'linux' },
  target: { kind: 'function', name: 'model.py:compile_target', file: MODEL, function: 'compile_target', line: 20 },
  settings: {},
  eager: { timing: { medianMs: 14.87, minMs: 14, maxMs: 15, spreadPct: 6, rounds: [14, 14.87, 15], callsPerRound: 4, method: 'perf_counter' }, trace: 'eager.trace.json', kernelsPerStep: 59 },
  modes: [
    mode('default', { outsideGraphsMsPerStep: 0.242, eagerTiming: { medianMs: 14.86, minMs: 14, maxMs: 15, spreadPct: 5, rounds: [14.86], callsPerRound: 4, method: 'perf_counter' } }),
    mode('max-autotune', { status: 'error', speedup: null, timing: null, compiler: null, trace: null, error: { kind: 'compile', message: 'Inductor failed', fix: 'report it' } }),
    mode('reduce-overhead', {
      speedup: 2.0,
      correctness: { ok: false, maxAbsError: 0.5, dtype: 'float32', message: 'max abs error 0.5 > atol 1e-4' },
      discardedTimings: [{ medianMs: 9, minMs: 9, maxMs: 9, spreadPct: 0, rounds: [9], callsPerRound: 1, method: 'perf_counter', valid: false, invalidReason: 'a recompile ran inside the timed region' }],
    }),
  ],
  recommendation: { mode: 'default', reason: 'fastest with a low spread' },
};

test('the hand-built report used here is valid against the schema', () => {
  const checked = checkReport(report);
  assert.ok(checked.ok, JSON.stringify(checked));
});

test('schema rejects a missing field and an unsupported major version, naming them', () => {
  const { recommendation: _dropped, ...missing } = report;
  const bad = checkReport(missing);
  assert.ok(!bad.ok && bad.problems.some((p) => p.includes("'recommendation'")));
  const future = checkReport({ ...report, schemaVersion: '2.0' });
  assert.ok(!future.ok && /not supported.*update Compile Lens/.test(future.problems[0]!));
});

test('findings: one per site and reason, merged across modes, innermost user frame as location', () => {
  const findings = collectFindings(report);
  assert.deepEqual(findings.map((f) => [f.kind, f.line, f.modes]), [
    ['graph-break', 12, ['default', 'reduce-overhead']],
    ['graph-break', 14, ['default', 'reduce-overhead']],
    ['recompile', 30, ['default', 'reduce-overhead']],
  ]);
  assert.equal(findings[0]!.code, 'GB0059');
  assert.equal(findings[0]!.docUrl, 'https://example.invalid/gb0059');
});

test('hover leads with the answer (reason, then fix), then cost and trigger, and escapes report text', () => {
  const [print, item, recompile] = collectFindings(report);
  assert.match(findingHover(print!), /Unsupported builtin print[\s\S]*\*\*Fix:\*\*[^\n]*logging[\s\S]*split into 3 graphs; code between them runs eagerly \(0\.242 ms per call is spent outside the graphs/);
  assert.match(findingHover(item!), /capture\\_scalar\\_outputs/);
  assert.match(findingHover(recompile!), /\*\*Fix:\*\*[^\n]*mark_dynamic[\s\S]*Triggered by:\*\* batch 64 after warmup at 32/);
  const hostile = findingHover({ ...print!, reason: '<img src=x onerror=alert(1)> [link](javascript:alert(1))' });
  assert.ok(!/(?<!\\)<img/.test(hostile) && !/(?<!\\)\]\(javascript/.test(hostile), hostile);
});

test('suggestFix covers the seed write-ups\' causes and stays silent on unknown ones', () => {
  assert.match(suggestFix('generic_jump TensorVariable()') ?? '', /torch\.where|torch\.cond/);
  assert.match(suggestFix('call to np.random.randint') ?? '', /torch\.randint/);
  assert.equal(suggestFix('something entirely new'), null);
  // the dimension that changed, never a generic index 0
  assert.match(suggestFix("tensor 'x' size mismatch at index 2. expected 7, actual 8") ?? '', /mark_dynamic\(x, 2\)/);
  assert.doesNotMatch(suggestFix("tensor 'x' size mismatch at index 1. expected 7, actual 8") ?? '', /, 0\)/);
});

test('digest and headline pick the recommended mode and list failures', () => {
  const digest = digestReport(report);
  assert.equal(headline(digest), '3.31× (default) · 3 graphs · 2 breaks · 1 recompile · compile 9.5 s');
  const text = formatDigest(digest);
  assert.match(text, /max-autotune: failed — Inductor failed — report it/);
  assert.match(text, /kernels\/step 59 → 32/);
  assert.match(text, /default: 3\.31× \(±4\.5%\), 4\.490 ms\/call vs eager 14\.860 ms in the same rounds, /);
  assert.match(text, /reduce-overhead: [\s\S]*numeric mismatch vs eager: max abs error 0\.5 > atol 1e-4\n    re-measured: a recompile ran inside the timed region/);
  assert.match(text, /\/ws\/model\.py:12  graph-break: Unsupported builtin print/);
});

test('targets: name prefix or marker comment, decorators allowed, nested defs ignored', () => {
  const source = [
    'import torch',
    'def compile_target():',
    '    def compile_target_inner(): pass',
    '    return m, (x,)',
    '# compile-lens: target',
    '@torch.no_grad()',
    'def build_gpt():',
    '    return m, (x,)',
    'def helper(): pass',
  ].join('\n');
  assert.deepEqual(findTargetFunctions(source), [{ name: 'compile_target', line: 1 }, { name: 'build_gpt', line: 6 }]);
});

test('compiler tree: per mode, breaks and recompiles linked to source, failed modes marked', () => {
  const [defaultMode, failed] = buildCompilerTree(report);
  assert.equal(defaultMode!.description, '3 graphs, 2 breaks, 1 recompiles');
  const [breaks, recompiles] = defaultMode!.children;
  assert.deepEqual(breaks!.children.map((c) => [c.label, c.location?.line]), [['model.py:12', 12], ['model.py:14', 14]]);
  assert.equal(recompiles!.children[0]!.location?.line, 30);
  assert.match(recompiles!.children[0]!.tooltip ?? '', /batch 64 after warmup at 32/);
  assert.equal(failed!.description, 'failed');
});
