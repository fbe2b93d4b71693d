// A script report's timeline: each measured region's eager and compiled traces, each compiled one compared with
// its own region's eager trace (never with another region's).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { regionTraces, scriptTraces } from '../../extension/present/regionTraces.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { sentTraces } from '../sentTraces.ts';

// two_regions.py, a real run (test/fixtures/reports/script-kernels-cpu/README.md): both regions replayed and profiled
const REPORT = path.resolve(__dirname, '../fixtures/reports/script-kernels-cpu/report.json');

test('each measured region gets its eager and compiled panes, compared pairwise', async () => {
  const content = await readTimelineSource({ kind: 'report', reportPath: REPORT });
  assert.deepEqual(
    content.panes.map((p) => [p.label, p.compareTo]),
    [
      // each region by its name (the runner's label: no id where no other region shares it), its mode as written
      ['normalize, eager', null],
      ["normalize, compiled with torch.compile's defaults", 0],
      ['TinyMLP, eager', null],
      ["TinyMLP, compiled with torch.compile's defaults", 2],
    ],
  );
  const sent = await sentTraces(content);
  assert.deepEqual(
    sent.map((m) => [m.index, m.pane.compareTo]),
    [
      [0, null],
      [1, 0],
      [2, null],
      [3, 2],
    ],
  );
  assert.ok(sent.every((m) => m.events > 0 && m.events === m.pane.trace.count && !m.preview));
});

test('a region traced on two signatures names the inputs; what-if modes by name; one eager pane per eager trace', async () => {
  const { report } = await loadReport(REPORT);
  const r0 = report.regions![0]!;
  // a replay on the last inputs too, its traces named apart
  const [frequent] = r0.measurements;
  const last = { ...frequent!, why: 'last' as const, signature: 'float32[2, 32]; inference' };
  const traced = {
    ...report,
    regions: [
      {
        ...r0,
        options: { mode: 'reduce-overhead' },
        modeText: "mode='reduce-overhead'", // as the runner says the options
        measurements: [
          frequent!,
          { ...last, trace: 'last-default.trace.json', eagerTrace: 'last-eager.trace.json' },
          { ...frequent!, mode: 'max-autotune', modeText: "mode='max-autotune'", trace: 'ma.trace.json' },
        ],
      },
    ],
  };
  assert.deepEqual(
    regionTraces(traced).map((t) => [t.label, t.compareWith]),
    [
      ['normalize, eager · most frequent inputs', null],
      [
        "normalize, compiled with mode='reduce-overhead' · most frequent inputs",
        'normalize, eager · most frequent inputs',
      ],
      ['normalize, eager · last inputs', null],
      ["normalize, compiled with mode='reduce-overhead' · last inputs", 'normalize, eager · last inputs'],
      [
        "normalize, compiled with mode='max-autotune' · most frequent inputs",
        'normalize, eager · most frequent inputs',
      ],
    ],
  );
});

test("a region compiled with Dynamo's eager backend is said compiled, apart from its eager pane (review 8 A12)", async () => {
  // warmup_step-cpu, a real run: f compiled with backend='eager'; "f, eager" beside "f, backend='eager'" read as one
  // thing twice
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/recorded/warmup_step-cpu/report.json'));
  assert.deepEqual(
    regionTraces(report).map((t) => t.label),
    ['f, eager', "f, compiled with backend='eager'"],
  );
});

test("the script's own steps as the observed run profiled them: a pane per side with a trace, compiled compared with eager", async () => {
  const recorded = (name: string) => path.resolve(__dirname, '../fixtures/recorded', name, 'report.json');
  // both windows recorded, after the replayed region's panes, each named by its region (review 9C C3)
  const both = await readTimelineSource({ kind: 'report', reportPath: recorded('serve_script-cpu') });
  const labels = both.panes.map((p) => p.label);
  const eager = labels.indexOf('TinyTransformer, in situ eager');
  assert.ok(eager > 0, labels.join(' | '));
  assert.deepEqual(
    both.panes.slice(eager).map((p) => [p.label, p.compareTo]),
    [
      ['TinyTransformer, in situ eager', null],
      ['TinyTransformer, in situ compiled', eager],
    ],
  );
  // a region that never ran compiled code (the fast-path break on the H200): no replay, the eager window alone
  const fastpath = await readTimelineSource({ kind: 'report', reportPath: recorded('encoder_fastpath-h200') });
  assert.deepEqual(
    fastpath.panes.map((p) => [p.label, p.compareTo]),
    [['TransformerEncoder, in situ eager', null]],
  );
  const [sent] = await sentTraces(fastpath);
  const window = fastpath.report!.inSitu!.windows!['eager']!;
  assert.ok(sent!.events > 0 && sent!.pane.trace.steps.length === window.steps, 'the steps the window recorded');
});

test("an in-situ window's pane among its own region's panes, by its region's name (review 9C C3)", async () => {
  // train_small-cpu: the window is TinyTransformer's calls; placed last, a bare "in situ eager" sat under `step`'s
  // panes and read as `step`'s eager call
  const recorded = path.resolve(__dirname, '../fixtures/recorded/train_small-cpu/report.json');
  const source = await readTimelineSource({ kind: 'report', reportPath: recorded });
  assert.deepEqual(
    source.panes.map((p) => p.label),
    [
      'TinyTransformer, eager',
      "TinyTransformer, compiled with torch.compile's defaults",
      'TinyTransformer, in situ eager',
      'step, eager',
      "step, compiled with backend='eager', dynamic=False",
    ],
  );
  // a report that names no window's region: the window after every region's panes, by its side alone
  const { report } = await loadReport(recorded);
  const unnamed = structuredClone(report);
  for (const window of Object.values(unnamed.inSitu!.windows!)) window.region = null;
  assert.deepEqual(
    scriptTraces(unnamed).map((t) => t.label),
    [...regionTraces(report).map((t) => t.label), 'in situ eager'],
  );
});
