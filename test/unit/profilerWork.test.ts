// The profiler's own work inside the user's code (review 31 B3): a recorded H100 run's call 0 holds a 2.56 ms CUPTI
// buffer request, and its Python stack set_device → _cuda_setDevice over the same 2.6 ms. Those frames are inside
// it; the frames around them hold it too, some of their time; the request itself, the GPU and the profiler's spans
// none; a trace without the profiler's work, nothing.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceBytes } from '../../extension/node/trace/byteScanner.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { insideProfilerWork, ProfilerWork } from '../../webview/analysis/profilerWork.ts';
import { profilerWorkLine } from '../../webview/timelineInput.ts';
import { TimelineNames } from '../../webview/timelineNames.ts';

const TRACES = path.resolve(__dirname, '../fixtures/traces');
/** An op of thread `tid` of process `pid`. */
const op = (name: string, pid: number, ts: number, dur: number, tid = 1): object => ({
  ph: 'X',
  cat: 'cpu_op',
  name,
  pid,
  tid,
  ts,
  dur,
});
/** The model of a trace of these events. */
const built = (events: object[]): TraceModel =>
  scanTraceBytes(new TextEncoder().encode(JSON.stringify({ traceEvents: events })));
const LINES_AS_SAID = { line: (_place: unknown, line: number): number => line, named: (): null => null };
const named = (model: TraceModel, name: string): number[] =>
  Array.from({ length: model.count }, (_, i) => i).filter((i) => model.names[model.name[i]!] === name);

test('the frames a CUPTI buffer request ran inside, those around them, and what holds none of it', async () => {
  const model = await scanTraceFile(path.join(TRACES, 'mlp-default.trace.json'));
  const { during } = new ProfilerWork(model);
  const inside = (i: number): boolean => insideProfilerWork(during[i]!, model.dur[i]!);
  const [request] = named(model, 'Activity Buffer Request');
  const [setDevice] = named(model, 'torch/cuda/__init__.py(626): set_device');
  const [cudaSetDevice] = named(model, '<built-in function _cuda_setDevice>');
  assert.ok(request !== undefined && setDevice !== undefined && cudaSetDevice !== undefined);
  assert.equal(during[request], 0, 'the request is not during itself');
  for (const frame of [setDevice, cudaSetDevice]) {
    assert.ok(inside(frame), `${model.names[model.name[frame]!]}: ${during[frame]} µs of ${model.dur[frame]}`);
    assert.equal(Math.round(during[frame]!), Math.round(model.dur[request]!), 'the whole request is in it');
  }
  // Inductor's generated code around it: 2.56 ms of its 3.4 ms, not inside
  const [generated] = named(model, 'torch/_inductor/output_code.py(628): __call__');
  assert.ok(during[generated!]! > 2500 && !inside(generated!), `${during[generated!]} of ${model.dur[generated!]}`);
  for (let i = 0; i < model.count; i++) {
    const track = model.tracks[model.track[i]!]!;
    if (track.gpu || !/^\d+$/.test(track.pid))
      assert.equal(during[i], 0, `${track.name}: ${model.names[model.name[i]!]}`);
  }
  // the request names the deepest frame it ran inside, on its track: _cuda_setDevice, not set_device too
  const work = new ProfilerWork(model);
  assert.deepEqual(work.framesInside(request), [cudaSetDevice]);
  assert.deepEqual(work.framesInside(setDevice), [], "only the profiler's own work names frames inside it");
});

test("a trace without the profiler's own work: no slice during it", async () => {
  const model = await scanTraceFile(path.join(TRACES, 'cpu-graphbreak-eager.trace.json'));
  assert.ok(!model.tracks.some((t) => Number(t.pid) === -1));
  assert.ok(new ProfilerWork(model).during.every((us) => us === 0));
});

test("the profiler's own work labelled with the frame it ran inside: the buffer request's 2.6 ms over CUDA set-up linked (review 10 B3)", async () => {
  const model = await scanTraceFile(path.join(TRACES, 'mlp-default.trace.json'));
  const [request] = named(model, 'Activity Buffer Request');
  const [cudaSetDevice] = named(model, '<built-in function _cuda_setDevice>');
  assert.deepEqual([...new ProfilerWork(model).labelFrames], [[model.name[request!]!, [cudaSetDevice]]]);
  const names = new TimelineNames(model, LINES_AS_SAID);
  assert.equal(
    names.sayName('Activity Buffer Request'),
    "inside CUDA set-up, the profiler's own work: a buffer for the GPU's activity records",
  );
  // the frame keeps its own name: set_device runs in calls 1 and 2 too, not inside the profiler's work there
  assert.equal(names.sayName('<built-in function _cuda_setDevice>'), 'CUDA set-up');
  // a request that ran inside no op of the user's, beside one inside aten::mm: its name alone, true of each slice
  const requests = (...more: object[]): ReadonlyMap<number, readonly number[]> =>
    new ProfilerWork(built([op('aten::mm', 1, 0, 100), op('Activity Buffer Request', -1, 2, 97), ...more])).labelFrames;
  assert.equal(requests().size, 1);
  assert.deepEqual([...requests(op('Activity Buffer Request', -1, 200, 50))], []);
});

test("a buffer request over two threads' ops: its label names the frame its hover names first (review 35's code read, item 5)", () => {
  // the label and the hover read one list of the frames each request ran inside (ProfilerWork.framesInside)
  const model = built([
    op('aten::mm', 1, 0, 100, 1),
    op('aten::copy_', 1, 0, 100, 2),
    op('Activity Buffer Request', -1, 2, 97),
  ]);
  const names = new TimelineNames(model, LINES_AS_SAID);
  const [request] = named(model, 'Activity Buffer Request');
  const hover = profilerWorkLine(
    {
      model,
      profilerWork: names.profilerWork,
      sliceName: (id) => names.sliceName(id),
      trackNames: model.tracks.map((t) => t.name),
    },
    request!,
  );
  assert.equal(
    hover,
    "\nIt ran inside aten::mm (process 1 · thread 1), aten::copy_ (process 1 · thread 2): their time is this work's, dimmed there.",
  );
  // (the frame said as a table says it, without its namespace: review 13 P5, "inside aten::_foreach_copy_")
  assert.equal(
    names.sayName('Activity Buffer Request'),
    "inside mm, the profiler's own work: a buffer for the GPU's activity records",
  );
});
