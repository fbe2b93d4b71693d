// The runner's real output, read by the TypeScript side: schema-valid, and the numbers the report states
// about its traces are the numbers the trace scanner finds in them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { buildCompilerTree } from '../../extension/present/compilerTree.ts';
import { collectFindings } from '../../extension/present/findings.ts';
import { compareTraces } from '../../webview/analysis/compare.ts';
import { summarizeTrace } from '../../extension/shared/trace/summary.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

const FIXTURE = path.resolve(__dirname, '../fixtures/reports/graphbreak-cpu/report.json');
const TRACES = path.resolve(__dirname, '../fixtures/traces');

test('a report written by the runner validates against the shared schema', async () => {
  const { report } = await loadReport(FIXTURE);
  assert.equal(report.target.name, 'graphbreak');
  assert.equal(report.environment.device, 'cpu');
});

test("CPU kernels per step from the scanner equal the runner's count for the same traces", async () => {
  const { report } = await loadReport(FIXTURE);
  const eager = summarizeTrace(await scanTraceFile(path.join(TRACES, 'cpu-graphbreak-eager.trace.json')));
  const compiled = summarizeTrace(await scanTraceFile(path.join(TRACES, 'cpu-graphbreak-default.trace.json')));
  assert.equal(eager.kernelsPerStep, report.eager.kernelsPerStep);
  assert.equal(compiled.kernelsPerStep, report.modes[0]!.kernelsPerStep);
  assert.ok(compiled.kernelsByFamily.generated > 0, 'Inductor cpp_fused kernels count as generated');
  const rows = compareTraces(
    await scanTraceFile(path.join(TRACES, 'cpu-graphbreak-eager.trace.json')),
    await scanTraceFile(path.join(TRACES, 'cpu-graphbreak-default.trace.json')),
  ).rows;
  assert.ok(
    rows.some(
      (r) =>
        r.metric ===
        "time inside CPU ops only (an ATen op's time includes its dispatch; a generated C++ function has none)",
    ) && !rows.some((r) => r.metric.startsWith('GPU')),
    'a CPU comparison does not speak of a GPU',
  );
});

test("the graphbreak sample's breaks map to its print, .item() and numpy lines", async () => {
  const { report } = await loadReport(FIXTURE);
  const breaks = collectFindings(report).filter((f) => f.kind === 'graph-break');
  assert.deepEqual(
    breaks.map((b) => path.basename(b.file)),
    ['graphbreak.py', 'graphbreak.py', 'graphbreak.py'],
  );
  assert.match(breaks[0]!.reason, /print/);
  assert.match(breaks[1]!.reason, /item/);
});

test('compiler tree of a real run: frame → first compile and recompile with its guard failure; kernels with fused ops', async () => {
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/reports/recompile-cpu/report.json'));
  const [mode] = buildCompilerTree(report);
  const frames = mode!.children.find((n) => n.label.startsWith('Compiled frames'))!;
  const [forward] = frames.children;
  assert.match(forward!.label, /^forward \(mlp\.py:\d+\)$/);
  const [first, second] = forward!.children;
  assert.equal(first!.label, 'first compile');
  assert.match(second!.description ?? '', /recompiled: Input 'x' changed size in dimension 0 from 32 to 64/);
  assert.ok(first!.children.length > 0, 'the first compile lists the kernels it generated');

  const { report: broken } = await loadReport(FIXTURE);
  const kernels = buildCompilerTree(broken)[0]!.children[0]!.children.flatMap((f) =>
    f.children.flatMap((c) => c.children),
  );
  // a kernel by its place in its compile, in the runner's words (Inductor's name in its tooltip)
  const fused = kernels.find(
    (k) =>
      /^fused C\+\+ function \d+ of /.test(k.label) &&
      (k.tooltip ?? '').startsWith('cpp_fused') &&
      (k.description ?? '').includes('relu'),
  );
  assert.ok(
    fused?.children.some((line) => line.location?.file.endsWith('graphbreak.py')),
    'fused C++ function traced back to the sample source',
  );
});
