// Compiles, recompiles, graph breaks and CUDA-graph replays on the timeline (shared/trace/timelineMarks.ts), and a
// report's finding matched to them (editor/timelineTargets.ts), on real traces and the report they came with.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { collectFindings, findingMessage } from '../../extension/present/findings.ts';
import type { Report } from '../../extension/shared/report.ts';
import { timelineTarget } from '../../extension/editor/timelineTargets.ts';
import { regionTraces } from '../../extension/present/regionTraces.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { mayHaveMarks, targetSpans, timelineMarks } from '../../extension/shared/trace/timelineMarks.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

const fixtures = join(__dirname, '..', 'fixtures');
const trace = (name: string): Promise<TraceModel> => scanTraceFile(join(fixtures, 'traces', name));
const named = (model: TraceModel, pattern: RegExp): number[] => {
  const out: number[] = [];
  for (let i = 0; i < model.count; i++) if (pattern.test(model.names[model.name[i]!]!)) out.push(i);
  return out.sort((a, b) => model.start[a]! - model.start[b]!);
};

describe('timeline marks on real traces', () => {
  test('graph breaks: each compiled frame entered again inside another is a break of the outer frame, between its graph and the lookup', async () => {
    for (const file of ['cpu-graphbreak-default.trace.json', 'graphbreak-default.trace.json.gz']) {
      const model = await trace(file);
      const breaks = timelineMarks(model).filter((m) => m.kind === 'graph-break');
      const regions = named(model, /^Torch-Compiled Region: /);
      // the regions with another region nested in them (the trace's own nesting, read by brute force)
      const outer = regions.filter((r) =>
        regions.some(
          (s) =>
            s !== r &&
            model.track[s] === model.track[r] &&
            model.start[s]! > model.start[r]! &&
            model.start[s]! < model.start[r]! + model.dur[r]!,
        ),
      );
      assert.equal(breaks.length, outer.length, file);
      assert.ok(breaks.length >= 3 * 3, `${file}: three breaks per call, three calls`);
      for (const mark of breaks) {
        // the innermost region holding it (a resumed frame's region is nested in the frame that broke)
        const region = outer
          .filter(
            (r) => model.start[r]! <= mark.startUs && mark.startUs + mark.durUs <= model.start[r]! + model.dur[r]!,
          )
          .sort((a, b) => model.dur[a]! - model.dur[b]!)[0]!;
        assert.ok(region !== undefined, `${file}: a break inside its region`);
        assert.equal(mark.label, `graph break in ${mark.compileId}`);
        assert.equal(model.names[model.name[region]!], `Torch-Compiled Region: ${mark.compileId}`);
        // it ends where the resumed frame is looked up
        const lookup = named(model, /^TorchDynamo Cache Lookup$/).find(
          (j) => Math.abs(model.start[j]! - (mark.startUs + mark.durUs)) < 1e-6,
        );
        assert.ok(lookup !== undefined, `${file}: a break ends at a cache lookup`);
      }
      assert.deepEqual(timelineMarks(await trace('graphbreak-eager.trace.json')), [], 'eager code has no marks');
    }
  });

  test('a recompile inside the profile: the Dynamo span of compile 0/2', async () => {
    const model = await trace('recompile_batch-default-recompile-in-region.trimmed.trace.json');
    const marks = timelineMarks(model).filter((m) => m.kind === 'compile' || m.kind === 'recompile');
    assert.equal(marks.length, 1);
    const [mark] = marks;
    assert.deepEqual([mark!.kind, mark!.compileId, mark!.label], ['recompile', '0/2', 'recompile 0/2']);
    const dynamo = named(model, /^dynamo$/)[0]!;
    assert.deepEqual([mark!.startUs, mark!.durUs], [model.start[dynamo], model.dur[dynamo]]);
  });

  test('CUDA-graph replays: each cudaGraphLaunch to the end of its last replayed kernel', async () => {
    const model = await trace('mlp-reduce-overhead.trace.json');
    const replays = timelineMarks(model).filter((m) => m.kind === 'cudagraph-replay');
    const launches = named(model, /^cudaGraphLaunch$/);
    assert.equal(replays.length, launches.length);
    for (const [n, launch] of launches.entries()) {
      let end = model.start[launch]! + model.dur[launch]!;
      for (let j = 0; j < model.count; j++)
        if (model.correlation[j] === model.correlation[launch]) end = Math.max(end, model.start[j]! + model.dur[j]!);
      assert.equal(replays[n]!.startUs, model.start[launch]);
      assert.ok(Math.abs(replays[n]!.startUs + replays[n]!.durUs - end) < 1e-6);
      assert.ok(end > model.start[launch]! + model.dur[launch]!, 'the replay outlasts its launch');
    }
  });
});

test('the lane is kept wherever marks are found (from names alone), and not on eager traces', async () => {
  for (const file of readdirSync(join(fixtures, 'traces')).filter((f) => f.includes('.trace.json'))) {
    const model = await trace(file);
    const found = timelineMarks(model).length > 0;
    if (found) assert.ok(mayHaveMarks(model), file);
    if (file.includes('eager')) assert.deepEqual([found, mayHaveMarks(model)], [false, false], file);
  }
});

describe('a finding in the timeline', () => {
  test('each graph break of the CPU graphbreak report is found in the trace the same run wrote', async () => {
    const report = JSON.parse(
      readFileSync(join(fixtures, 'reports', 'graphbreak-cpu', 'report.json'), 'utf8'),
    ) as Report;
    const model = await trace('cpu-graphbreak-default.trace.json');
    const marks = timelineMarks(model);
    const breaks = collectFindings(report).filter((f) => f.kind === 'graph-break');
    assert.ok(breaks.length >= 3);
    const expectedIds = report.modes.flatMap((m) => m.compiler?.graphBreaks ?? []).map((g) => g.compileId);
    const seen: string[] = [];
    for (const finding of breaks) {
      const target = timelineTarget(report, { ...finding, message: findingMessage(finding) })!;
      assert.ok(target, finding.reason);
      assert.deepEqual(target.modes, ['default']);
      assert.equal(target.compileIds.length, 1);
      seen.push(...target.compileIds);
      const spans = targetSpans(model, marks, target);
      // once per profiled call
      assert.equal(spans.length, model.steps.length, `${finding.reason}: ${spans.length} spans`);
      for (const span of spans)
        assert.ok(
          marks.some(
            (m) => m.kind === 'graph-break' && m.compileId === target.compileIds[0] && m.startUs === span.startUs,
          ),
        );
    }
    assert.deepEqual(seen.sort(), expectedIds.sort());
    // a recompile is not a graph break, and a place the report does not hold has no target
    assert.equal(timelineTarget(report, { ...breaks[0]!, line: 99999, message: '' }), null);
  });

  test("a script's finding names the panes of its region as the timeline labels them, ranked first there", () => {
    // the target named a region "r0 step" while its panes read "step, mode='default' (as written)": no pane matched
    const report = JSON.parse(
      readFileSync(join(fixtures, 'recorded', 'print_step-cpu', 'report.json'), 'utf8'),
    ) as Report;
    const [found] = collectFindings(report).filter((f) => f.kind === 'graph-break');
    const target = timelineTarget(report, { ...found!, message: findingMessage(found!) })!;
    const panes = regionTraces(report).map((t) => t.label);
    assert.ok(panes.length > 0);
    const regions = target.modes.filter((m) => m !== 'script');
    assert.deepEqual(regions, ['step']);
    assert.ok(
      panes.every((label) => regions.some((m) => label.startsWith(`${m}, `))),
      panes.join(' | '),
    );
  });

  test("a recompile compiled before the profile: its code's first run", async () => {
    const model = await trace('recompile_batch-default-recompile-in-region.trimmed.trace.json');
    const target = { kind: 'recompile' as const, compileIds: ['0/2'], label: 'Recompile', modes: ['default'] };
    assert.deepEqual(
      targetSpans(model, timelineMarks(model), target).map((s) => s.durUs),
      [timelineMarks(model).find((m) => m.kind === 'recompile')!.durUs],
    );
    // with the compile span left out of the marks, the first "Torch-Compiled Region: 0/2" is the place
    const region = named(model, /^Torch-Compiled Region: 0\/2$/)[0]!;
    assert.deepEqual(targetSpans(model, [], target), [{ startUs: model.start[region], durUs: model.dur[region] }]);
    assert.deepEqual(targetSpans(model, [], { ...target, compileIds: ['7/1'] }), []);
  });
});
