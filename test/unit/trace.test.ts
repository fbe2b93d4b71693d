// Scanner and summary on real H100 torch.profiler traces (test/fixtures/traces/README.md); the compare is
// traceCompare.test.ts's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { buildModelInParts } from '../../extension/node/trace/buildModel.ts';
import { withoutPhaseTwins } from '../../extension/node/trace/phaseTwins.ts';
import { scanTraceBytes, TraceScanner } from '../../extension/node/trace/byteScanner.ts';
import { KERNEL_ARG_FIELDS, SliceKind, type TraceModel } from '../../extension/shared/trace/model.ts';
import { packRows, type PackedRows } from '../../extension/shared/trace/rowsWire.ts';
import { summarizeTrace } from '../../extension/shared/trace/summary.ts';
import { compilePhaseWords } from '../../extension/shared/trace/compilePhaseWords.ts';
import { formatTraceSummary } from '../../extension/present/traceSummaryText.ts';
import { previewOfModel, TraceReading } from '../../extension/node/trace/traceReading.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

const FIXTURES = join(__dirname, '..', 'fixtures', 'traces');
const fixture = (name: string): string => join(FIXTURES, name);
const fixtureBytes = (name: string): Uint8Array => {
  const raw = readFileSync(fixture(name));
  return name.endsWith('.gz') ? gunzipSync(raw) : raw;
};

interface ChromeEvent {
  ph?: string;
  cat?: string;
  name?: string;
  dur?: number;
  args?: Record<string, unknown>;
}
const parsedEvents = (name: string): ChromeEvent[] =>
  (JSON.parse(new TextDecoder().decode(fixtureBytes(name))) as { traceEvents: ChromeEvent[] }).traceEvents;

// kernels/iter from ../shared/fixtures/h100/README.md (torch.profiler's CUDA-device event count)
const KNOWN = [
  { file: 'mlp-eager.trace.json', gpuEventsPerStep: 7, kernelsPerStep: 7 },
  { file: 'mlp-default.trace.json', gpuEventsPerStep: 8, kernelsPerStep: 7 },
  { file: 'mlp-reduce-overhead.trace.json', gpuEventsPerStep: 9, kernelsPerStep: 8 },
  { file: 'graphbreak-eager.trace.json', gpuEventsPerStep: 22, kernelsPerStep: 22 },
  { file: 'graphbreak-default.trace.json.gz', gpuEventsPerStep: 26, kernelsPerStep: 22 },
  { file: 'gpt_small-reduce-overhead.trace.json', gpuEventsPerStep: 94, kernelsPerStep: 93 },
  { file: 'recompile_batch-default-recompile-in-region.trimmed.trace.json', gpuEventsPerStep: 8, kernelsPerStep: 7 },
];

describe('scanner on real H100 traces', () => {
  for (const known of KNOWN) {
    test(`${known.file}: per-step counts match the profiler's`, async () => {
      const model = await scanTraceFile(fixture(known.file));
      const summary = summarizeTrace(model);
      assert.equal(summary.steps, 3);
      assert.equal(summary.stepSource, 'repetition');
      assert.equal(summary.gpuEventsPerStep, known.gpuEventsPerStep);
      assert.equal(summary.kernelsPerStep, known.kernelsPerStep);
      assert.deepEqual(model.warnings, []);
    });

    test(`${known.file}: every complete event becomes a slice, durations intact`, async () => {
      const model = await scanTraceFile(fixture(known.file));
      // but a compile phase's inner twin, said alike inside it (phaseTwins.ts): each phase one row
      const phase = (name: string): boolean => compilePhaseWords(name) !== null;
      const complete = parsedEvents(known.file).filter((e) => e.ph === 'X');
      const rows = [...Array(model.count).keys()].filter((i) => !phase(model.names[model.name[i]!]!));
      const events = complete.filter((e) => !phase(e.name ?? ''));
      assert.equal(rows.length, events.length);
      assert.ok(model.count <= complete.length);
      const sum = (values: Iterable<number>): number => {
        let s = 0;
        for (const v of values) s += v;
        return s;
      };
      assert.ok(Math.abs(sum(rows.map((i) => model.dur[i]!)) - sum(events.map((e) => e.dur ?? 0))) < 1e-3);
    });
  }

  test('rows are ordered by track, depth, start and nest inside their parent', async () => {
    const model = await scanTraceFile(fixture('mlp-default.trace.json'));
    for (let i = 1; i < model.count; i++) {
      const key = (j: number): [number, number, number] => [model.track[j]!, model.depth[j]!, model.start[j]!];
      const [t0, d0, s0] = key(i - 1);
      const [t1, d1, s1] = key(i);
      assert.ok(t0 < t1 || (t0 === t1 && (d0 < d1 || (d0 === d1 && s0 <= s1))), `row ${i} out of order`);
    }
    for (let i = 0; i < model.count; i++) {
      if (model.depth[i] === 0) continue;
      let parentFound = false;
      for (let j = 0; j < model.count && !parentFound; j++) {
        parentFound =
          model.track[j] === model.track[i] &&
          model.depth[j] === model.depth[i]! - 1 &&
          model.start[j]! <= model.start[i]! &&
          model.start[j]! + model.dur[j]! >= model.start[i]!;
      }
      assert.ok(parentFound, `slice ${i} (${model.names[model.name[i]!]}) has no parent`);
      assert.ok(model.depth[i]! <= model.tracks[model.track[i]!]!.maxDepth);
    }
  });

  test("a repeated compiled call is the call: from its guard check's start (before its compiled call) to its last kernel", async () => {
    // report4A F10: call 1 began at its first launch, 3.2 ms into its "compiled forward", and "Fit to step" cut it;
    // review 5A G6: its guard check ("TorchDynamo Cache Lookup", just before the compiled call) was left of its line
    for (const file of ['mlp-default.trace.json', 'mlp-reduce-overhead.trace.json']) {
      const model = await scanTraceFile(fixture(file));
      assert.equal(model.stepSource, 'repetition');
      const named = (prefix: string): number[] =>
        [...Array(model.count).keys()]
          .filter((i) => model.depth[i] === 0 && model.names[model.name[i]!]!.startsWith(prefix))
          .sort((a, b) => model.start[a]! - model.start[b]!);
      const regions = named('Torch-Compiled Region');
      const lookups = named('TorchDynamo Cache Lookup');
      assert.equal(regions.length, model.steps.length, file);
      assert.equal(lookups.length, model.steps.length, file);
      // numbered from 0, as the runner numbers a script's calls ("Call 0 compiled"; review 5A G2)
      assert.deepEqual(
        model.steps.map((s) => s.label),
        model.steps.map((_, k) => `call ${k}`),
      );
      regions.forEach((i, j) => {
        const step = model.steps[j]!;
        const guard = lookups[j]!;
        assert.ok(model.start[guard]! + model.dur[guard]! <= model.start[i]!, `${file} ${step.label}: guards first`);
        assert.equal(step.start, model.start[guard], `${file} ${step.label} starts with its guard check`);
        const to = model.start[i]! + model.dur[i]!;
        assert.ok(step.end >= to, `${file} ${step.label} ends at ${step.end}, its compiled call at ${to}`);
      });
    }
  });

  test('tracks: one CPU thread per tid, GPU streams named from metadata', async () => {
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const gpu = model.tracks.filter((t) => t.gpu);
    assert.deepEqual(
      gpu.map((t) => t.name),
      ['GPU 0 · stream 7'],
    );
    assert.ok(model.tracks.some((t) => !t.gpu && t.name === 'ops · thread 1661 (python3)'));
    assert.ok(model.tracks.findIndex((t) => t.gpu) > model.tracks.findIndex((t) => !t.gpu), 'CPU threads first');
  });

  test("a thread's Python frames on a stack track of their own, after the kernels; its ops nest among themselves", async () => {
    const model = await scanTraceFile(fixture('mlp-default.trace.json'));
    const framesOn = (t: number): string[] => {
      const names: string[] = [];
      for (let i = 0; i < model.count; i++) if (model.track[i] === t) names.push(model.names[model.name[i]!]!);
      return names;
    };
    const main = model.tracks.findIndex((t) => t.name === 'ops · thread 1661 (python3)');
    const stack = model.tracks.findIndex((t) => t.name === 'Python stack · thread 1661');
    assert.ok(main >= 0 && stack >= 0, model.tracks.map((t) => t.name).join(', '));
    assert.equal(model.tracks[stack]!.stack, true);
    const pythonFrame = /\(\d+\): |^<built-in /;
    assert.ok(framesOn(stack).includes('anchors.py(18): forward'));
    assert.deepEqual(
      framesOn(main).filter((n) => pythonFrame.test(n)),
      [],
    );
    assert.ok(framesOn(main).includes('aten::addmm'));
    // the ATen ops under the module's call were 25 frames deep; among the ops alone, a few levels
    assert.ok(model.tracks[main]!.maxDepth < 8, `ops ${model.tracks[main]!.maxDepth} levels deep`);
    assert.ok(model.tracks[stack]!.maxDepth > 15);
    const firstStack = model.tracks.findIndex((t) => t.stack);
    assert.ok(model.tracks.findIndex((t) => t.gpu) < firstStack, 'GPU streams before the Python stacks');
    assert.ok(model.tracks.slice(firstStack).every((t) => t.stack));
  });

  test('kernel kinds: eager library + ATen, compiled generated (triton_), memset as memory', async () => {
    const kinds = (model: TraceModel): Map<string, SliceKind> => {
      const out = new Map<string, SliceKind>();
      for (let i = 0; i < model.count; i++)
        if (model.tracks[model.track[i]!]!.gpu) out.set(model.names[model.name[i]!]!, model.kind[i]!);
      return out;
    };
    const eager = kinds(await scanTraceFile(fixture('mlp-eager.trace.json')));
    const compiled = kinds(await scanTraceFile(fixture('mlp-default.trace.json')));
    assert.equal(compiled.get('triton_poi_fused_addmm_relu_0'), SliceKind.KernelGenerated);
    assert.equal(eager.get('Memset (Device)'), SliceKind.Memory);
    const aten = [...eager].filter(([name]) => name.includes('at::native::'));
    assert.ok(aten.length > 0 && aten.every(([, kind]) => kind === SliceKind.KernelAten));
    const cublas = [...eager].filter(([name]) => /cublasLt|sgemm|cutlass/.test(name));
    assert.ok(cublas.length > 0 && cublas.every(([, kind]) => kind === SliceKind.KernelExtern));
  });

  test('CUDA-graph replay: kernels correlated to one cudaGraphLaunch each, many per launch', async () => {
    const model = await scanTraceFile(fixture('gpt_small-reduce-overhead.trace.json'));
    const graphLaunches = new Map<number, number>();
    for (let i = 0; i < model.count; i++) {
      if (model.names[model.name[i]!] === 'cudaGraphLaunch') {
        assert.equal(model.kind[i], SliceKind.RuntimeLaunch);
        graphLaunches.set(model.correlation[i]!, 0);
      }
    }
    assert.equal(graphLaunches.size, 3);
    let replays = 0;
    for (let i = 0; i < model.count; i++) {
      if (model.kind[i] !== SliceKind.GraphReplay) continue;
      replays++;
      const c = model.correlation[i]!;
      assert.ok(graphLaunches.has(c), 'replay kernel correlates to a cudaGraphLaunch');
      graphLaunches.set(c, (graphLaunches.get(c) ?? 0) + 1);
    }
    assert.equal(replays, 258);
    assert.deepEqual([...graphLaunches.values()], [86, 86, 86]);
    assert.equal(summarizeTrace(model).kernelsByFamily['graph-replay'], 258);
  });

  test('kernel args: grid, block, registers, shared memory, occupancy, correlation', async () => {
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const events = parsedEvents('mlp-eager.trace.json').filter((e) => e.cat === 'kernel');
    const { slice, values } = model.kernelArgs;
    assert.equal(slice.length, events.length + 3, 'kernels + memsets have args');
    for (let r = 1; r < slice.length; r++) assert.ok(slice[r - 1]! < slice[r]!, 'rows ascending by slice');
    const field = (name: (typeof KERNEL_ARG_FIELDS)[number]): number => KERNEL_ARG_FIELDS.indexOf(name);
    for (const event of events) {
      const args = event.args as {
        grid: number[];
        block: number[];
        correlation: number;
        'registers per thread': number;
        'shared memory': number;
        'est. achieved occupancy %': number;
      };
      let row = -1;
      for (let r = 0; r < slice.length && row < 0; r++)
        if (model.correlation[slice[r]!] === args.correlation && model.names[model.name[slice[r]!]!] === event.name)
          row = r;
      assert.ok(row >= 0, `args row for correlation ${args.correlation}`);
      const at = (f: number): number => values[row * KERNEL_ARG_FIELDS.length + f]!;
      assert.deepEqual([at(field('grid x')), at(field('grid y')), at(field('grid z'))], args.grid);
      assert.deepEqual([at(field('block x')), at(field('block y')), at(field('block z'))], args.block);
      assert.equal(at(field('registers per thread')), args['registers per thread']);
      assert.equal(at(field('shared memory')), args['shared memory']);
      assert.equal(at(field('est. achieved occupancy %')), args['est. achieved occupancy %']);
    }
  });

  test('built in parts: each part comes with its rows final, and the model is the one built at once', () => {
    const rowsPerPart = 97;
    for (const { file } of KNOWN) {
      const bytes = fixtureBytes(file);
      const whole = scanTraceBytes(bytes);
      const scanner = new TraceScanner();
      scanner.push(bytes);
      // folded where it is read (TraceReading), not in the build
      const building = buildModelInParts(withoutPhaseTwins(scanner.end()), rowsPerPart);
      const parts: PackedRows[] = [];
      let step = building.next();
      for (; !step.done; step = building.next()) {
        const { columns, from, to } = step.value;
        assert.deepEqual([from, to], [parts.length * rowsPerPart, (parts.length + 1) * rowsPerPart], file);
        parts.push(packRows(columns, from, to)); // as posted then, before the rest is built
      }
      assert.deepStrictEqual(step.value, whole, file);
      assert.equal(parts.length, Math.ceil(whole.count / rowsPerPart) - 1, file);
      parts.forEach((part, i) =>
        assert.deepStrictEqual(part, packRows(whole, i * rowsPerPart, (i + 1) * rowsPerPart), `${file} part ${i}`),
      );
    }
  });

  test('a posting built in parts and stopped early still leaves the whole model', () => {
    const bytes = fixtureBytes('gpt_small-reduce-overhead.trace.json');
    const scanner = new TraceScanner();
    scanner.push(bytes);
    const reading = new TraceReading(scanner.end(), true);
    for (const piece of reading.posted(50)) {
      assert.ok('rows' in piece);
      break;
    }
    assert.deepStrictEqual(reading.model(), scanTraceBytes(bytes));
  });

  test('a reading on this thread answers a preview between two pieces of its posting (a webview shown again meanwhile)', () => {
    const bytes = fixtureBytes('gpt_small-reduce-overhead.trace.json');
    const whole = scanTraceBytes(bytes);
    const scanner = new TraceScanner();
    scanner.push(bytes);
    const reading = new TraceReading(scanner.end());
    const pieces = reading.posted(50)[Symbol.iterator]();
    assert.ok(!pieces.next().done);
    assert.deepStrictEqual(reading.preview(null), previewOfModel(whole, null));
    let rest = 0;
    while (!pieces.next().done) rest++;
    assert.equal(rest, Math.ceil(whole.count / 50) - 1);
  });

  test('a gzipped trace reads the same as its decompressed bytes', async () => {
    const fromFile = await scanTraceFile(fixture('graphbreak-default.trace.json.gz'));
    const fromBytes = scanTraceBytes(fixtureBytes('graphbreak-default.trace.json.gz'));
    assert.deepEqual(fromFile, fromBytes);
  });

  test('chunk boundaries anywhere give the same model', () => {
    const bytes = fixtureBytes('mlp-eager.trace.json');
    const whole = scanTraceBytes(bytes);
    for (const chunkSize of [1, 7, 64, 4093]) {
      const scanner = new TraceScanner();
      for (let i = 0; i < bytes.length; i += chunkSize) scanner.push(bytes.subarray(i, i + chunkSize));
      assert.deepEqual(scanner.finish(), whole, `chunk size ${chunkSize}`);
    }
  });

  test('names that a sampled hash cannot tell apart stay distinct; escaped quotes and backslashes end names right', () => {
    // 300 names of one length differing only in one middle byte (the name hash samples 32 of 200 bytes)
    const names = Array.from(
      { length: 300 },
      (_, i) => `k${'x'.repeat(100)}${String(i).padStart(3, '0')}${'y'.repeat(96)}`,
    );
    const tricky = ['ends with \\', 'quote " inside', '\\', 'plain']; // in the JSON: "ends with \\", "quote \" inside", "\\"
    const events = [...names, ...tricky, ...names].map((name, i) => ({
      ph: 'X',
      name,
      pid: 1,
      tid: 1,
      ts: i * 10,
      dur: 5,
    }));
    const model = scanTraceBytes(new TextEncoder().encode(JSON.stringify({ traceEvents: events })));
    assert.deepEqual(model.names, [...names, ...tricky]);
    assert.deepEqual(
      Array.from(model.name),
      events.map((e) => model.names.indexOf(e.name)),
    );
  });

  test('flow events alone link a launch to its kernel when the file names the GPU stream before the CPU thread', () => {
    // the model orders CPU threads before GPU streams; flows must be resolved in the model's track order
    const events = [
      { ph: 'X', cat: 'kernel', name: 'triton_poi_fused_0', pid: 0, tid: 7, ts: 120, dur: 3 },
      { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 110, dur: 5 },
      { ph: 'f', bp: 'e', cat: 'ac2g', name: 'ac2g', id: 42, pid: 0, tid: 7, ts: 120 },
      { ph: 's', cat: 'ac2g', name: 'ac2g', id: 42, pid: 1, tid: 1, ts: 110 },
    ];
    const model = scanTraceBytes(new TextEncoder().encode(JSON.stringify({ traceEvents: events })));
    const byName = (name: string): number => model.names.indexOf(name);
    const launch = Array.from(model.name).indexOf(byName('cudaLaunchKernel'));
    const kernel = Array.from(model.name).indexOf(byName('triton_poi_fused_0'));
    assert.equal(model.tracks[model.track[launch]!]!.gpu, false);
    assert.equal(model.correlation[launch], 42);
    assert.equal(model.correlation[kernel], 42);
    assert.deepEqual(model.warnings, []);
  });

  test('ProfilerStep# spans are the steps when present', () => {
    const events = [
      { ph: 'X', cat: 'user_annotation', name: 'ProfilerStep#4', pid: 1, tid: 1, ts: 100, dur: 50 },
      { ph: 'X', cat: 'user_annotation', name: 'ProfilerStep#5', pid: 1, tid: 1, ts: 150, dur: 40 },
      {
        ph: 'X',
        cat: 'cuda_runtime',
        name: 'cudaLaunchKernel',
        pid: 1,
        tid: 1,
        ts: 110,
        dur: 5,
        args: { correlation: 9 },
      },
      { ph: 'X', cat: 'kernel', name: 'triton_poi_fused_0', pid: 0, tid: 7, ts: 120, dur: 3, args: { correlation: 9 } },
    ];
    const model = scanTraceBytes(new TextEncoder().encode(JSON.stringify({ traceEvents: events })));
    assert.equal(model.stepSource, 'profiler');
    assert.deepEqual(model.steps, [
      { start: 0, end: 50, label: 'ProfilerStep#4' },
      { start: 50, end: 90, label: 'ProfilerStep#5' },
    ]);
    const summary = summarizeTrace(model);
    assert.equal(summary.kernelsPerStep, 0.5);
    assert.equal(summary.launchesPerStep, 0.5);
  });
});

describe('summary', () => {
  test('busy/idle, launches, top kernels on mlp eager', async () => {
    const model = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const summary = summarizeTrace(model);
    assert.equal(summary.kernels, 21);
    assert.equal(summary.launches, 21, 'each kernel and memset has its own launch');
    assert.equal(summary.launchesPerStep, 7);
    const kernelTime = parsedEvents('mlp-eager.trace.json')
      .filter((e) => e.cat === 'kernel' || e.cat === 'gpu_memset')
      .reduce((s, e) => s + (e.dur ?? 0), 0);
    assert.ok(Math.abs(summary.gpuBusyUs - kernelTime) < 1e-6, 'one stream, no overlap: busy = sum of durations');
    assert.ok(summary.gpuIdleUs > 0);
    assert.equal(summary.topKernels.length, 7, 'all 7 distinct kernels (fewer than the top-10 limit)');
    for (let i = 1; i < summary.topKernels.length; i++)
      assert.ok(summary.topKernels[i - 1]!.totalUs >= summary.topKernels[i]!.totalUs);
    assert.deepEqual(summary.compileSpans, []);
    const text = formatTraceSummary(summary);
    assert.match(text, /kernels \/ step {4}7 /);
    assert.match(text, /profiled steps {4}3/);
    // a library's kernel by what it does, its mangled name after (traceWords.ts)
    assert.match(text, /library +matrix multiply \(CUTLASS\): void cutlass::Kernel2</);
  });

  test("a CPU-only trace counts its CPU ops, in the panel's words: no kernel anywhere (review 18Y Y1)", async () => {
    const text = formatTraceSummary(summarizeTrace(await scanTraceFile(fixture('cpu-graphbreak-default.trace.json'))));
    assert.match(text, /^CPU ops \/ step {4}12$/m);
    assert.match(text, /^CPU ops {11}36 \(generated C\+\+ functions 18, library calls 0, ATen ops 18\)$/m);
    assert.match(text, /between the first and last CPU op$/m);
    assert.doesNotMatch(text, /kernel|GPU events/i);
  });

  test('compile spans inside the profiled region (recompile in region)', async () => {
    const summary = summarizeTrace(
      await scanTraceFile(fixture('recompile_batch-default-recompile-in-region.trimmed.trace.json')),
    );
    assert.equal(summary.compileSpans.length, 1);
    assert.equal(summary.compileSpans[0]!.name, 'dynamo');
    assert.ok(Math.abs(summary.compileSpans[0]!.durUs - 327446.301) < 1e-3);
    assert.match(formatTraceSummary(summary), /compile in region 327 ms/);
  });
});
