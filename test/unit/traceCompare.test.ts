// The compare of two traces (webview/analysis/compare.ts) on real torch.profiler traces (test/fixtures/traces/README.md):
// per-step rows, kernels gone and new, steps not alike, a step that compiled, and the words beside them.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { compareTraces, comparedRun } from '../../webview/analysis/compare.ts';
import COMPARED_STEPS from '../../native-runner/compile_lens_runner/measure/compared_steps.json';
import {
  calledAsHeading,
  onlyInHeading,
  perCallCountTitle,
  comparisonTitle,
  kernelListHeading,
  kernelListTime,
  profiledStepChange,
  sliceKindName,
  stepGrewOutsideKernels,
  stepRowNames,
} from '../../webview/compareWords.ts';
import { kernelCountNames } from '../../extension/present/workCounts.ts';
import { kernelStats } from '../../extension/shared/trace/summary.ts';
import { SliceKind } from '../../extension/shared/trace/model.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

const fixture = (name: string): string => join(__dirname, '..', 'fixtures', 'traces', name);

describe('compare', () => {
  test('eager vs default: per-step rows, disappeared ATen kernels, new fused kernel', async () => {
    const eager = await scanTraceFile(fixture('mlp-eager.trace.json'));
    const compiled = await scanTraceFile(fixture('mlp-default.trace.json'));
    const comparison = compareTraces(eager, compiled);
    assert.equal(comparison.per, 'step');
    const row = (metric: string): [number, number] => {
      const found = comparison.rows.find((r) => r.metric === metric);
      assert.ok(found, metric);
      return [found.before, found.after];
    };
    assert.deepEqual(row('kernels'), [7, 7]);
    assert.deepEqual(row('launches'), [7, 7]);
    assert.deepEqual(row('generated kernels'), [0, 1]);
    assert.deepEqual(row('ATen kernels'), [1, 0]);
    assert.ok(comparison.disappearedKernels.some((k) => k.family === 'aten' && k.name.includes('launch_clamp_scalar')));
    assert.ok(comparison.newKernels.some((k) => k.name === 'triton_poi_fused_addmm_relu_0' && k.countPer === 1));
    // per call over calls 1 to the last (numbered from 0): call 0 carries the profiler's start-up
    assert.deepEqual(comparison.steps, {
      before: { first: 1, last: 2, coldStep: 0, unit: 'call' },
      after: { first: 1, last: 2, coldStep: 0, unit: 'call' },
    });
    assert.equal(row('time inside GPU kernels only')[0], comparison.before.gpuBusyUs / 2);
    // the step's mean length leads, its time inside and outside kernels its parts (review 4C R12: a kernel-time
    // drop read alone as the answer)
    assert.deepEqual(
      comparison.rows.slice(0, 3).map((r) => r.ofStep),
      ['step', 'inside', 'outside'],
    );
    const [step, inside, outside] = comparison.rows;
    const stepsUs = (m: typeof eager): number => m.steps.slice(1).reduce((sum, s) => sum + s.end - s.start, 0) / 2;
    assert.deepEqual([step!.before, step!.after], [stepsUs(eager), stepsUs(compiled)]);
    assert.ok(Math.abs(inside!.after + outside!.after - step!.after) < 1e-9);
    // no time per step is longer than the step (review 6C Z1: 'GPU idle between kernels 153 µs' in a 152 µs step)
    const perStepTimes = comparison.rows.filter((r) => r.unit === 'us' && !r.metric.includes('whole trace'));
    assert.ok(perStepTimes.length >= 3);
    for (const r of perStepTimes) assert.ok(r.before <= step!.before && r.after <= step!.after, r.metric);
    // a kernel's time in the lists is per step, as the rows are: its total over the compared steps, divided
    const window = { fromUs: compiled.steps[1]!.start, toUs: compiled.steps[2]!.end };
    const total = kernelStats(compiled, window).find((k) => k.name === 'triton_poi_fused_addmm_relu_0')!.totalUs;
    const fused = comparison.newKernels.find((k) => k.name === 'triton_poi_fused_addmm_relu_0')!;
    assert.ok(total < kernelStats(compiled).find((k) => k.name === 'triton_poi_fused_addmm_relu_0')!.totalUs);
    assert.equal(fused.usPer, total / 2);
  });

  test("a cold first step does not make the per-step numbers: eager's 39 ms step 1 beside 1.5–1.8 ms steps", async () => {
    const eager = await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json'));
    const comparison = compareTraces(eager, await scanTraceFile(fixture('cpu-graphbreak-default.trace.json')));
    const busy = comparison.rows.find(
      (r) =>
        r.metric ===
        "time inside CPU ops only (an ATen op's time includes its dispatch; a generated C++ function has none)",
    )!;
    // no compared step holds more kernel time than it lasts
    const longest = Math.max(...eager.steps.slice(1).map((s) => s.end - s.start));
    assert.ok(busy.before <= longest, `eager busy ${busy.before} µs per step, its steps 2–3 at most ${longest} µs`);
    assert.ok(eager.steps[0]!.end - eager.steps[0]!.start > 10 * longest, 'the fixture has the cold first step');
    // conv2d is called as aten::convolution by the compiled graph: in neither the gone nor the new list
    assert.ok(
      comparison.calledAs.some((c) => c.before.name === 'aten::conv2d' && c.after.name === 'aten::convolution'),
    );
    assert.ok(!comparison.disappearedKernels.some((k) => k.name === 'aten::conv2d'));
    assert.ok(!comparison.newKernels.some((k) => k.name === 'aten::convolution'));
    // its heading a sentence with the side's label anywhere in it (review 11 I8: "kernels default calls under …")
    assert.equal(
      calledAsHeading("TinyMLP, compiled with torch.compile's defaults", comparison.calledAs.length),
      `kernels under another name in TinyMLP, compiled with torch.compile's defaults, not fused away (${comparison.calledAs.length})`,
    );
  });

  test("a CPU compare's lists and the replay's count column say CPU ops, the rows' word, never kernels (review 17 Y2)", () => {
    assert.equal(calledAsHeading('default', 2, 'CPU'), 'CPU ops under another name in default, not fused away (2)');
    assert.equal(onlyInHeading('eager', 'CPU', true), 'CPU ops only in eager (fused away or replaced)');
    assert.equal(onlyInHeading('default', 'GPU', false), 'kernels only in default');
    assert.equal(perCallCountTitle('cpu'), 'CPU ops / call');
    assert.equal(perCallCountTitle('cuda'), 'kernels / call');
  });

  test("a CPU trace's Inductor function is a generated C++ function on its card as in the compare's count (review 17 X6)", async () => {
    const cpu = await scanTraceFile(fixture('cpu-graphbreak-default.trace.json'));
    const fused = [...Array(cpu.count).keys()].filter((i) => cpu.kind[i] === SliceKind.KernelGenerated);
    assert.ok(fused.length > 0, 'the fixture runs a cpp_fused function');
    const comparison = compareTraces(await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json')), cpu);
    const counted = kernelCountNames('CPU').generated;
    assert.ok(
      comparison.rows.some((r) => r.metric.startsWith(counted)),
      counted,
    );
    for (const i of fused) assert.equal(`${sliceKindName(cpu, i)}s`, counted);
    assert.equal(sliceKindName(cpu, fused[0]!), 'generated C++ function');
    // a GPU trace's Triton kernel stays a generated kernel; a kind outside the kernel families keeps its name
    const gpu = await scanTraceFile(fixture('mlp-default.trace.json'));
    const triton = [...Array(gpu.count).keys()].find((i) => gpu.kind[i] === SliceKind.KernelGenerated)!;
    assert.equal(sliceKindName(gpu, triton), 'generated kernel');
    const op = [...Array(cpu.count).keys()].find((i) => cpu.kind[i] === SliceKind.CpuOp)!;
    assert.equal(sliceKindName(cpu, op), 'CPU op');
  });

  test('a compare kernel list names the steps its times are the mean of, and each time is per step', async () => {
    // review 8A A6: "— 0.891 µs" in the compare beside "0.943 µs/step under the profiler" in the kernel's details,
    // the mean of steps 2–3 and of every profiled step, neither saying which
    const eager = await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json'));
    const comparison = compareTraces(eager, await scanTraceFile(fixture('cpu-graphbreak-default.trace.json')));
    const steps = comparison.steps.after!;
    assert.equal(
      kernelListHeading('kernels only in default', steps, 3),
      'kernels only in default, per step in steps 2–3 (3)',
    );
    assert.equal(kernelListTime('0.891 µs', steps), '0.891 µs/step');
    const calls = { ...steps, first: 4, last: 4, unit: 'call' as const };
    assert.equal(
      kernelListHeading('kernels only in default', calls, 1),
      'kernels only in default, per call in call 4 (1)',
    );
    assert.equal(kernelListTime('0.891 µs', calls), '0.891 µs/call');
    // a trace without steps: its times are the whole trace's
    assert.equal(
      kernelListHeading('kernels only in default', null, 1),
      'kernels only in default, in the whole trace (1)',
    );
    assert.equal(kernelListTime('0.891 µs', null), '0.891 µs');
  });

  test("why a step is longer though its kernels took less: its graph break's eager code where the report names one", () => {
    const times = (before: string, after: string) => ({ before, after });
    const words = (longer: boolean, breaks: number): string | null =>
      stepGrewOutsideKernels(
        'default',
        'step',
        'GPU',
        { ...times('0.35 ms', '0.42 ms'), longer },
        { ...times('106 µs', '7.6 µs'), fell: true },
        { ...times('0.24 ms', '0.41 ms'), grew: longer },
        breaks,
      );
    assert.equal(
      words(true, 1),
      'Under the profiler, the compiled steps (default) took longer (0.35 ms → 0.42 ms) though their time inside GPU kernels fell (106 µs → 7.6 µs): the rest of each step — dispatch, Python, the eager code of its graph break — grew 0.24 ms → 0.41 ms.',
    );
    // profiled times are not the timed verdict, which may lean the other way (review 8A A5): no win or loss said
    assert.doesNotMatch(words(true, 1)!, /\b(?:lost|lose|won|win|faster|slower)\b/);
    assert.match(words(true, 2)!, /— dispatch, Python, the eager code of its graph breaks —/);
    // a shorter step lost nothing: no sentence says why
    assert.equal(words(false, 1), null);
  });

  test('one word for one quantity: calls found as repeated kernels are calls in the heading, the rows and the sentence', async () => {
    const comparison = compareTraces(
      await scanTraceFile(fixture('mlp-eager.trace.json')),
      await scanTraceFile(fixture('mlp-default.trace.json')),
      { before: 'eager', after: 'default' },
    );
    assert.match(comparisonTitle('eager', 'default', comparison.steps), /, mean per call \(calls 1–2 of each;/);
    assert.deepEqual(
      comparison.rows.slice(0, 3).map((r) => r.metric),
      [
        'call under the profiler (slowed by it; not the timed verdict)',
        'time inside GPU kernels only',
        'rest of the call, outside GPU kernels',
      ],
    );
    const said = stepGrewOutsideKernels(
      'default',
      'call',
      'GPU',
      { before: '152 µs', after: '604 µs', longer: true },
      { before: '25.9 µs', after: '23.3 µs', fell: true },
      { before: '126 µs', after: '580 µs', grew: true },
      0,
    )!;
    assert.match(
      said,
      /^Under the profiler, the compiled calls \(default\) took longer .*: the rest of each call — dispatch, Python — grew/,
    );
    assert.doesNotMatch(said, /step/);
  });

  // review s29: "+1379%" (and "+4220%") per step, one side's mean over a step the host held up 10× and one it did not
  test("a side's compared steps 10× apart: their times are not compared, their counts are, and it says why", async () => {
    const comparison = compareTraces(
      await scanTraceFile(fixture('train_small-before-s29/r1-eager.trace.json')),
      await scanTraceFile(fixture('train_small-before-s29/r1-as-written.trace.json')),
      { before: 'step, eager', after: 'step, as written' },
    );
    assert.equal(
      comparison.unlike,
      "step, as written's steps 2–3 took 0.618 ms to 6.03 ms under the profiler, 9.8× apart: their mean is none of their times (something held one of them up: the host, the profiler), so no change is said for the times; profile more steps.",
    );
    const unlike = comparison.rows.filter((r) => r.unlike).map((r) => r.metric);
    assert.deepEqual(unlike, [
      'step under the profiler (slowed by it; not the timed verdict)',
      'time inside CPU ops only', // its window ran no generated C++ function (review 16 Y7)
      'rest of the step, outside CPU ops',
    ]);
    assert.ok(comparison.rows.some((r) => r.metric === 'CPU ops' && !r.unlike));
    // steps alike (the mlp's calls 1–2) are compared as they were
    const alike = compareTraces(
      await scanTraceFile(fixture('mlp-eager.trace.json')),
      await scanTraceFile(fixture('mlp-default.trace.json')),
    );
    assert.equal(alike.unlike, null);
    assert.ok(alike.rows.every((r) => !r.unlike));
  });

  test("calls found as repeated kernels beside the profiler's steps are not the same quantity: no row is compared", async () => {
    const comparison = compareTraces(
      await scanTraceFile(fixture('mlp-eager.trace.json')),
      await scanTraceFile(fixture('cpu-graphbreak-default.trace.json')),
      { before: 'eager', after: 'default' },
    );
    assert.match(comparison.unlike!, /^eager's calls and default's steps are not the same quantity /);
    const perStep = comparison.rows.filter((r) => !r.metric.includes('whole trace'));
    assert.ok(perStep.length > 3 && perStep.every((r) => r.unlike));
    assert.match(comparison.rows[0]!.metric, /^step under the profiler/);
  });

  test('a step in which a compile ran is left out of the per-step rows and said', async () => {
    // train_small's in-situ eager window: its step 3 holds another region's compile (564 ms of its 660 ms)
    const eager = await scanTraceFile(fixture('train_small-before-s29/in-situ-eager.trace.json'));
    const comparison = compareTraces(
      eager,
      await scanTraceFile(fixture('train_small-before-s29/r0-as-written.trace.json')),
      { before: 'in situ eager', after: 'TinyTransformer, as written' },
    );
    assert.deepEqual(comparison.steps.before, { first: 2, last: 2, coldStep: 1, unit: 'step', compiling: [3] });
    const step = comparison.rows[0]!;
    assert.equal(step.before, eager.steps[1]!.end - eager.steps[1]!.start);
    assert.match(
      comparisonTitle('in situ eager', 'TinyTransformer, as written', comparison.steps),
      /; step 1 left out: the profiler's start-up and the first call's own costs are in it; in situ eager step 3 left out: a compile ran in it\)$/,
    );
  });

  test('a recompile in step 3 of 4: step 2 compared, the steps the runner times kernels over', async () => {
    // code read 37 item 3: runs [2] and [4] without a compile, the first of equals; the runner's kernelSteps say the
    // same of this trace (test_compiler_artifacts.py, measure/compared_steps.py: one rule)
    const model = await scanTraceFile(fixture('constructed/recompile-in-step-3-of-4.trace.json'));
    const comparison = compareTraces(model, model);
    assert.deepEqual(comparison.steps.before, { first: 2, last: 2, coldStep: 1, unit: 'step', compiling: [3] });
  });

  test("the steps compared are measure/compared_steps.json's, each case as the runner's compared_run says it", () => {
    // the one rule: test_compiler_artifacts.py holds the runner's to the same cases
    for (const { compiling, compared } of COMPARED_STEPS.cases)
      assert.deepEqual(comparedRun(compiling), [compared[0]! - 1, compared[1]! - 1], JSON.stringify(compiling));
    assert.equal(comparedRun([]), null);
  });

  test('eager vs reduce-overhead: CUDA-graph replays appear, launches drop', async () => {
    const comparison = compareTraces(
      await scanTraceFile(fixture('mlp-eager.trace.json')),
      await scanTraceFile(fixture('mlp-reduce-overhead.trace.json')),
    );
    const replay = comparison.rows.find((r) => r.metric === 'CUDA-graph replay kernels');
    assert.deepEqual([replay?.before, replay?.after], [0, 6]);
    const launches = comparison.rows.find((r) => r.metric === 'launches');
    assert.ok(launches && launches.after < launches.before, `launches ${launches?.before} → ${launches?.after}`);
  });

  test('a recompile in the profiled region is reported on its side', async () => {
    const comparison = compareTraces(
      await scanTraceFile(fixture('mlp-default.trace.json')),
      await scanTraceFile(fixture('recompile_batch-default-recompile-in-region.trimmed.trace.json')),
    );
    assert.deepEqual(comparison.compileSpans.before, []);
    assert.equal(comparison.compileSpans.after.length, 1);
    const row = comparison.rows.find((r) => r.metric.startsWith('compile in profiled region'));
    assert.ok(row?.before === 0 && row.after > 300_000);
  });

  test('where neither side ran generated C++, the inside row says no caveat about it (review 16 Y7: backend=eager)', async () => {
    const eager = await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json'));
    const comparison = compareTraces(eager, eager, { before: 'eager', after: 'eager again' });
    assert.equal(comparison.device, 'CPU');
    const inside = comparison.rows.find((r) => r.ofStep === 'inside');
    assert.equal(inside?.metric, 'time inside CPU ops only');
  });

  test("a CPU trace's inside time is CPU ops in its row, the row under it and the sentence, each side's counting said, never kernels (review 15U U4, 15V V3)", async () => {
    const comparison = compareTraces(
      await scanTraceFile(fixture('cpu-graphbreak-eager.trace.json')),
      await scanTraceFile(fixture('cpu-graphbreak-default.trace.json')),
      { before: 'eager', after: 'default' },
    );
    assert.equal(comparison.device, 'CPU');
    const [, inside, outside] = comparison.rows.map((r) => r.metric);
    assert.equal(inside, stepRowNames.inside('CPU', true));
    assert.equal(
      inside,
      "time inside CPU ops only (an ATen op's time includes its dispatch; a generated C++ function has none)",
    );
    assert.equal(outside, 'rest of the step, outside CPU ops');
    const said = stepGrewOutsideKernels(
      'default',
      'step',
      'CPU',
      { before: '70.4 µs', after: '81.8 µs', longer: true },
      { before: '20.5 µs', after: '0.289 µs', fell: true },
      { before: '49.9 µs', after: '81.5 µs', grew: true },
      0,
    )!;
    assert.equal(
      said,
      "Under the profiler, the compiled steps (default) took longer (70.4 µs → 81.8 µs) though their time inside CPU ops (an ATen op's time includes its dispatch; a generated C++ function has none) fell (20.5 µs → 0.289 µs): the rest of each step — Python — grew 49.9 µs → 81.5 µs.",
    );
    for (const words of [inside, outside, said]) assert.doesNotMatch(words, /kernel/);
    // its counts by the same word (review 16 Y1: "kernels 15 → 12" under the row saying "CPU ops")
    const counted = comparison.rows.filter((r) => r.unit === 'count' && (r.before || r.after)).map((r) => r.metric);
    assert.ok(counted.includes('CPU ops') && counted.includes('ATen ops'), counted.join(', '));
    for (const metric of counted) assert.doesNotMatch(metric, /kernel/);
  });

  test("the profiled step's change is a multiple in the panel's one format, of the times as the row shows them (review 15V V4)", () => {
    // 154 µs and 331 µs divide to 2.149: "×2.2" was of the unrounded times
    assert.equal(profiledStepChange.text(331 / 154), '2.15× as long, not the verdict');
    assert.equal(profiledStepChange.text(0.93), '0.93× as long, not the verdict');
    // toPrecision(2) wrote "×1.0e+2" for 99.5–100
    assert.equal(profiledStepChange.text(99.6), '99.6× as long, not the verdict');
  });
});
