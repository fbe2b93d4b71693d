// Launch → kernel arrows (shared/trace/flowLinks.ts) on real H100 traces (test/fixtures/traces): checked against
// the traces' own flow events and correlation ids, read here straight from the JSON.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { flowLinks, linkedSlices } from '../../extension/shared/trace/flowLinks.ts';
import { SliceKind, type TraceModel } from '../../extension/shared/trace/model.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

const fixture = (name: string): string => join(__dirname, '..', 'fixtures', 'traces', name);
const nameOf = (model: TraceModel, i: number): string => model.names[model.name[i]!]!;
const gpu = (model: TraceModel, i: number): boolean => model.tracks[model.track[i]!]!.gpu;
const slicesNamed = (model: TraceModel, name: string): number[] => {
  const out: number[] = [];
  for (let i = 0; i < model.count; i++) if (nameOf(model, i) === name) out.push(i);
  return out.sort((a, b) => model.start[a]! - model.start[b]!);
};

interface FlowEvent {
  ph: string;
  id: number;
  pid: number | string;
  ts: number;
}

describe('flow links on real traces', () => {
  test("graphbreak-eager: each kernel's arrow starts at the launch its flow event (ac2g) starts at", async () => {
    const model = await scanTraceFile(fixture('graphbreak-eager.trace.json'));
    const events = (
      JSON.parse(readFileSync(fixture('graphbreak-eager.trace.json'), 'utf8')) as { traceEvents: FlowEvent[] }
    ).traceEvents;
    const startTs = new Map(events.filter((e) => e.ph === 's').map((e) => [e.id, e.ts]));
    const kernelEnds = events.filter((e) => e.ph === 'f' && String(e.pid) === '0' && startTs.has(e.id));
    assert.ok(kernelEnds.length > 20, `${kernelEnds.length} flows end on the GPU`);
    for (const end of kernelEnds) {
      const kernel = [...Array(model.count).keys()].find(
        (i) => gpu(model, i) && Math.abs(model.start[i]! + model.originUs - end.ts) < 1e-3,
      )!;
      assert.ok(kernel !== undefined, `a kernel at ${end.ts}`);
      const links = flowLinks(model, kernel);
      assert.equal(links.arrows.length, 1, `${nameOf(model, kernel)}: one launch`);
      const { from, to } = links.arrows[0]!;
      assert.equal(to, kernel);
      assert.ok(
        !gpu(model, from) && model.kind[from] === SliceKind.RuntimeLaunch,
        `${nameOf(model, from)} is a CPU launch`,
      );
      assert.ok(
        Math.abs(model.start[from]! + model.originUs - startTs.get(end.id)!) < 1e-3,
        'the launch is where the flow starts',
      );
      // and back: the launch's arrows reach this kernel
      assert.ok(flowLinks(model, from).arrows.some((a) => a.from === from && a.to === kernel));
    }
  });

  test('mlp-reduce-overhead: a cudaGraphLaunch fans out to every device slice of its replay', async () => {
    const model = await scanTraceFile(fixture('mlp-reduce-overhead.trace.json'));
    const launch = slicesNamed(model, 'cudaGraphLaunch')[1]!;
    const links = flowLinks(model, launch);
    const expected: number[] = [];
    for (let j = 0; j < model.count; j++)
      if (gpu(model, j) && model.correlation[j] === model.correlation[launch]) expected.push(j);
    assert.deepEqual(
      links.arrows.map((a) => a.to).sort((a, b) => a - b),
      expected,
    );
    assert.ok(links.arrows.every((a) => a.from === launch));
    assert.ok(
      links.arrows.some((a) => model.kind[a.to] === SliceKind.GraphReplay),
      'replayed kernels',
    );
    assert.deepEqual(linkedSlices(links, launch), expected);
  });

  test('mlp-eager: a CPU op (aten::addmm) links through the launches nested in it to their kernels', async () => {
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const op = slicesNamed(model, 'aten::addmm')[2]!;
    const links = flowLinks(model, op);
    const end = model.start[op]! + model.dur[op]!;
    const launches = new Set<number>();
    for (let j = 0; j < model.count; j++) {
      if (
        model.track[j] === model.track[op] &&
        model.depth[j]! > model.depth[op]! &&
        model.start[j]! >= model.start[op]! &&
        model.start[j]! <= end &&
        model.kind[j] === SliceKind.RuntimeLaunch &&
        model.correlation[j]! >= 0
      )
        launches.add(j);
    }
    assert.ok(launches.size >= 1, 'addmm launches a GEMM');
    const expected: string[] = [];
    for (const l of launches)
      for (let k = 0; k < model.count; k++)
        if (gpu(model, k) && model.correlation[k] === model.correlation[l]) expected.push(`${l}->${k}`);
    assert.deepEqual(links.arrows.map((a) => `${a.from}->${a.to}`).sort(), expected.sort());
    assert.equal(links.more, 0);
    // a profiler step's op launches every kernel of the step: the arrows stop at the limit and say how many more
    const step = slicesNamed(model, 'ProfilerStep#1')[0] ?? -1;
    const outer = step >= 0 ? step : slicesNamed(model, 'aten::linear')[0]!;
    const all = flowLinks(model, outer);
    const capped = flowLinks(model, outer, 1);
    assert.equal(capped.arrows.length, Math.min(1, all.arrows.length));
    assert.equal(capped.more, all.arrows.length - capped.arrows.length);
  });

  test('a slice with no correlation and no launch in it has no arrows', async () => {
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const lone = [...Array(model.count).keys()].find(
      (i) =>
        !gpu(model, i) && model.correlation[i]! < 0 && model.dur[i]! < 1 && model.kind[i] !== SliceKind.RuntimeLaunch,
    )!;
    assert.deepEqual(flowLinks(model, lone), { arrows: [], more: 0 });
  });
});
