// The range selection's table (webview/analysis/rangeSummary.ts) on real H100 and CPU traces (test/fixtures/traces),
// against a brute-force reading of the same slices.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SliceKind, type TraceModel } from '../../extension/shared/trace/model.ts';
import { compareRanges, sortRangeRows, summarizeRange, type RangeRow } from '../../webview/analysis/rangeSummary.ts';
import { kernelIndices, kernelStats } from '../../extension/shared/trace/summary.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { cpuOp, scanEvents } from './traceEvents.ts';

const fixture = (name: string): string => join(__dirname, '..', 'fixtures', 'traces', name);
const close = (a: number, b: number, what: string): void =>
  assert.ok(Math.abs(a - b) < 1e-6 * Math.max(1, Math.abs(b)), `${what}: ${a} != ${b}`);

/** Every slice's inside time and self time by scanning all slices: the definition, slowly. */
function bruteForce(
  model: TraceModel,
  from: number,
  to: number,
): { kernels: Map<string, RangeRow>; cpuOps: Map<string, RangeRow> } {
  const inside = (i: number): number =>
    Math.max(0, Math.min(to, model.start[i]! + model.dur[i]!) - Math.max(from, model.start[i]!));
  const overlaps = (i: number): boolean => model.start[i]! <= to && model.start[i]! + model.dur[i]! >= from;
  const kernels = new Set(kernelIndices(model));
  const out = { kernels: new Map<string, RangeRow>(), cpuOps: new Map<string, RangeRow>() };
  for (let i = 0; i < model.count; i++) {
    if (!overlaps(i)) continue;
    let children = 0;
    for (let j = 0; j < model.count; j++) {
      if (model.track[j] !== model.track[i] || model.depth[j] !== model.depth[i]! + 1 || !overlaps(j)) continue;
      if (model.start[j]! >= model.start[i]! && model.start[j]! <= model.start[i]! + model.dur[i]!)
        children += inside(j);
    }
    // the slices on its track above it holding its start, nearest first: inside one of its own name, its time is
    // that one's, and its own time self unless a slice of another name lies between (it is that one's then); inside
    // a kernel of its own name, it is in that kernel's row
    const above: number[] = [];
    for (let k = 0; k < model.count; k++)
      if (
        model.track[k] === model.track[i] &&
        model.depth[k]! < model.depth[i]! &&
        model.start[k]! <= model.start[i]! &&
        model.start[i]! <= model.start[k]! + model.dur[k]!
      )
        above.push(k);
    above.sort((a, b) => model.depth[b]! - model.depth[a]!);
    const same = above.filter((k) => model.name[k] === model.name[i]);
    const nested = same.length > 0;
    const outermost = same[same.length - 1];
    const selfTold =
      !nested || above.every((k) => model.depth[k]! < model.depth[outermost!]! || model.name[k] === model.name[i]);
    const inKernel = same.some((k) => kernels.has(k));
    const add = (rows: Map<string, RangeRow>): void => {
      const name = model.names[model.name[i]!]!;
      const row = rows.get(name) ?? { name, count: 0, nested: 0, totalUs: 0, selfUs: 0, avgUs: 0 };
      row.count++;
      row.nested += nested ? 1 : 0;
      row.totalUs += nested ? 0 : inside(i);
      row.selfUs += selfTold ? Math.max(0, inside(i) - children) : 0;
      rows.set(name, row);
    };
    if (kernels.has(i) || inKernel) add(out.kernels);
    // the profiler's steps and its session span hold the ops: no op of their own
    const held = model.kind[i] === SliceKind.Step || model.kind[i] === SliceKind.Other;
    if (!model.tracks[model.track[i]!]!.gpu && !held) add(out.cpuOps);
  }
  return out;
}

function assertSame(rows: RangeRow[], expected: Map<string, RangeRow>, what: string): void {
  assert.deepEqual(rows.map((r) => r.name).sort(), [...expected.keys()].sort(), `${what}: names`);
  for (const row of rows) {
    const want = expected.get(row.name)!;
    assert.equal(row.count, want.count, `${what} ${row.name}: count`);
    assert.equal(row.nested, want.nested, `${what} ${row.name}: nested`);
    close(row.totalUs, want.totalUs, `${what} ${row.name}: total`);
    close(row.selfUs, want.selfUs, `${what} ${row.name}: self`);
    close(row.avgUs, want.totalUs / (want.count - want.nested), `${what} ${row.name}: average`);
  }
}

describe('range summary on real traces', () => {
  for (const file of [
    'mlp-eager.trace.json',
    'graphbreak-default.trace.json.gz',
    'cpu-graphbreak-default.trace.json',
    'mlp-reduce-overhead.trace.json',
  ]) {
    test(`${file}: a step, a cut through the middle and the whole trace match a brute-force reading`, async () => {
      const model = await scanTraceFile(fixture(file));
      const step = model.steps[1]!;
      let end = 0;
      for (let i = 0; i < model.count; i++) end = Math.max(end, model.start[i]! + model.dur[i]!);
      // the middle third of step 1: edges cut through slices
      const third = (step.end - step.start) / 3;
      for (const [from, to] of [
        [step.start, step.end],
        [step.start + third, step.end - third],
        [0, end],
      ] as const) {
        const summary = summarizeRange(model, to, from); // either drag direction
        assert.equal(summary.fromUs, from);
        const expected = bruteForce(model, from, to);
        assertSame(summary.kernels, expected.kernels, `${file} kernels [${from}, ${to}]`);
        assertSame(summary.cpuOps, expected.cpuOps, `${file} CPU ops [${from}, ${to}]`);
        for (const row of [...summary.kernels, ...summary.cpuOps])
          assert.ok(row.totalUs <= (row.count - row.nested) * (to - from) + 1e-6 && row.selfUs <= row.totalUs + 1e-9);
      }
    });
  }

  test("the whole trace: kernel counts and times are the trace summary's (one way of counting kernels)", async () => {
    const model = await scanTraceFile(fixture('graphbreak-default.trace.json.gz'));
    const summary = summarizeRange(model, -1, 1e12);
    const stats = kernelStats(model);
    assert.deepEqual(summary.kernels.map((r) => [r.name, r.count]).sort(), stats.map((k) => [k.name, k.count]).sort());
    for (const row of summary.kernels) close(row.totalUs, stats.find((k) => k.name === row.name)!.totalUs, row.name);
    // largest total first
    for (let r = 1; r < summary.kernels.length; r++)
      assert.ok(summary.kernels[r - 1]!.totalUs >= summary.kernels[r]!.totalUs);
  });

  test("CPU ops: the profiler's step spans and its session span are not listed as ops (they hold the ops)", async () => {
    const model = await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json'));
    const names = summarizeRange(model, -1, 1e12).cpuOps.map((r) => r.name);
    assert.ok(names.includes('aten::conv2d'), 'the ops are');
    assert.deepEqual(
      names.filter((n) => /^ProfilerStep#|^PyTorch Profiler/.test(n)),
      [],
    );
  });

  test("an op inside another of its name: both counted, its time once, as the CPU kernels' outermost op (review 4A F5)", async () => {
    // cpu-graphbreak-eager's aten::sum runs an aten::sum inside it: 'aten::sum 1 27.9 µs' under CPU kernels read
    // beside 'aten::sum 2 52.4 µs' under CPU ops, the inner call's time counted twice
    const model = await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json'));
    const summary = summarizeRange(model, -1, 1e12);
    const op = (rows: RangeRow[]): RangeRow => rows.find((r) => r.name === 'aten::sum')!;
    const [kernel, cpu] = [op(summary.kernels), op(summary.cpuOps)];
    assert.ok(cpu.nested > 0, JSON.stringify(cpu));
    close(cpu.totalUs, kernel.totalUs, 'aten::sum: one total in both tables');
    close(cpu.avgUs, kernel.avgUs, 'aten::sum: one average per call in both tables');
    // the nested call folded alike in both (review 16 Y2: self 3.32 µs under CPU kernels, 24.3 µs under CPU ops)
    assert.deepEqual([kernel.count, kernel.nested], [cpu.count, cpu.nested]);
    close(cpu.selfUs, kernel.selfUs, 'aten::sum: one self time in both tables');
    assert.ok(kernel.selfUs > kernel.totalUs / 2, "the nested call's own time is its self");
  });

  test('self: a call nested in one of its name is its own time, one nested under another name is not', () => {
    // sum [0, 100] > sum [10, 50] > mul [20, 30]; sum [0, 100] > foo [60, 90] > sum [70, 80]
    const model = scanEvents([
      cpuOp('aten::sum', 0, 100),
      cpuOp('aten::sum', 10, 40),
      cpuOp('aten::mul', 20, 10),
      cpuOp('aten::foo', 60, 30),
      cpuOp('aten::sum', 70, 10),
    ]);
    const summary = summarizeRange(model, -1, 1e6);
    const want = { name: 'aten::sum', count: 3, nested: 2, totalUs: 100, selfUs: 100 - 10 - 30, avgUs: 100 };
    assert.deepEqual(
      summary.cpuOps.find((r) => r.name === 'aten::sum'),
      want,
    );
    // the outermost sum is the kernel: its row the same
    assert.deepEqual(summary.kernels, [want]);
  });

  test('a range with nothing in it has empty tables', async () => {
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const summary = summarizeRange(model, -1000, -500);
    assert.deepEqual([summary.kernels, summary.cpuOps], [[], []]);
    assert.equal(summary.kernelsOnCpu, false);
    assert.equal(
      summarizeRange(await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json')), 0, 1).kernelsOnCpu,
      true,
    );
  });

  test('sorting: by each column, both directions, ties by name', async () => {
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const rows = summarizeRange(model, model.steps[0]!.start, model.steps[0]!.end).cpuOps;
    for (const key of ['count', 'totalUs', 'selfUs', 'avgUs'] as const) {
      const up = sortRangeRows(rows, key, 'ascending');
      for (let r = 1; r < up.length; r++)
        assert.ok(
          up[r - 1]![key] < up[r]![key] ||
            (up[r - 1]![key] === up[r]![key] && up[r - 1]!.name.localeCompare(up[r]!.name) <= 0),
        );
      assert.deepEqual(
        sortRangeRows(rows, key, 'descending').map((r) => r[key]),
        up.map((r) => r[key]).reverse(),
      );
    }
    const names = sortRangeRows(rows, 'name', 'ascending').map((r) => r.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
  });

  test('eager vs compiled, step 1 of each: the eager kernels fused away, the generated ones new, totals carried', async () => {
    const eager = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const compiled = await scanTraceFile(fixture('mlp-default.trace.json'));
    const before = summarizeRange(eager, eager.steps[1]!.start, eager.steps[1]!.end);
    const after = summarizeRange(compiled, compiled.steps[1]!.start, compiled.steps[1]!.end);
    const pair = compareRanges(before, after);
    const beforeNames = new Set(before.kernels.map((r) => r.name));
    const afterNames = new Set(after.kernels.map((r) => r.name));
    assert.deepEqual(
      pair.kernels
        .filter((r) => r.change === 'only before')
        .map((r) => r.name)
        .sort(),
      [...beforeNames].filter((n) => !afterNames.has(n)).sort(),
    );
    const only = pair.kernels.filter((r) => r.change === 'only after');
    assert.deepEqual(only.map((r) => r.name).sort(), [...afterNames].filter((n) => !beforeNames.has(n)).sort());
    // what Inductor generated is new in the compiled step
    assert.ok(
      only.some((r) => r.name.startsWith('triton_')),
      'a generated kernel only in the compiled step',
    );
    assert.ok(
      pair.kernels.some((r) => r.change === 'only before'),
      'an eager kernel fused away',
    );
    for (const row of pair.kernels)
      close(row.deltaUs, (row.after?.totalUs ?? 0) - (row.before?.totalUs ?? 0), row.name);
    for (let r = 1; r < pair.kernels.length; r++)
      assert.ok(Math.abs(pair.kernels[r - 1]!.deltaUs) >= Math.abs(pair.kernels[r]!.deltaUs));
  });

  test('an op compiled code calls by its inner name (conv2d as convolution, linear as addmm) is one compared row, not gone and new', async () => {
    const eager = await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json'));
    const compiled = await scanTraceFile(fixture('cpu-graphbreak-default.trace.json'));
    const pair = compareRanges(
      summarizeRange(eager, eager.steps[0]!.start, eager.steps[0]!.end),
      summarizeRange(compiled, compiled.steps[0]!.start, compiled.steps[0]!.end),
    );
    const kernel = (name: string) => pair.kernels.find((r) => r.name === name);
    for (const [outer, inner] of [
      ['aten::conv2d', 'aten::convolution'],
      ['aten::linear', 'aten::addmm'],
    ] as const) {
      const row = kernel(outer)!;
      assert.equal(row.change, 'called as', outer);
      assert.equal(row.calledAs, inner);
      assert.equal(row.before!.count, row.after!.count, `${outer}: as many calls on each side`);
      assert.equal(kernel(inner), undefined, `${inner} is not also new`);
      // in the CPU ops, where both sides ran the inner op, the outer one says what it is called as
      const op = pair.cpuOps.find((r) => r.name === outer)!;
      assert.deepEqual([op.change, op.calledAs], ['only before', inner]);
    }
    // a fused op has no such inner kernel: still gone
    assert.deepEqual([kernel('aten::gelu')!.change, kernel('aten::gelu')!.calledAs], ['only before', null]);
    assert.equal(pair.cpuOps.find((r) => r.name === 'aten::batch_norm')!.calledAs, null);
  });
});

test("a range's count says its calls nested in one of its name in the one range's table and the pair's alike (review 17 Y3)", async () => {
  const { nestedCount } = await import('../../webview/rangeTable.ts');
  const row = (count: number, nested: number): RangeRow => ({
    name: 'aten::sum',
    count,
    nested,
    totalUs: 1,
    selfUs: 1,
    avgUs: 1,
  });
  assert.equal(nestedCount(row(2, 1)), '2 (1 nested)');
  assert.equal(nestedCount(row(3, 0)), '3');
});
