// A script report's timeline: each measured region's eager and compiled traces, each compiled one compared with
// its own region's eager trace (never with another region's).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { loadMessage, regionTraces } from '../../extension/present/timelineContent.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';

const REPORT = path.resolve(__dirname, '../fixtures/reports/script-regions-cpu/report.json');

test('each measured region gets its eager and compiled panes, compared pairwise', async () => {
  const content = await readTimelineSource({ kind: 'report', reportPath: REPORT });
  assert.deepEqual(content.panes.map((p) => [p.label, p.compareTo]), [
    ['r0 TinyTransformer eager', null],
    ['r0 TinyTransformer default', 0],
    ['r1 step eager', null],
    ['r1 step default', 2],
  ]);
  const message = loadMessage(content);
  assert.equal(message.type, 'load');
  if (message.type === 'load') assert.deepEqual(message.panes.map((p) => p.compareTo), [null, 0, null, 2]);
  assert.ok(content.panes.every((p) => p.reading.events > 0));
});

test('a region traced on two signatures names the inputs; what-if modes by name; one eager pane per eager trace', async () => {
  const { report } = await loadReport(REPORT);
  const r0 = report.regions![0]!;
  const [frequent, last] = r0.measurements;
  const traced = { ...report, regions: [{ ...r0, options: { mode: 'reduce-overhead' }, measurements: [
    frequent!,
    { ...last!, trace: 'last-default.trace.json', eagerTrace: 'last-eager.trace.json' },
    { ...frequent!, mode: 'max-autotune', trace: 'ma.trace.json' },
  ] }] };
  assert.deepEqual(regionTraces(traced).map((t) => [t.label, t.compareWith]), [
    ['r0 TinyTransformer eager · most frequent inputs', null],
    ['r0 TinyTransformer reduce-overhead · most frequent inputs', 'r0 TinyTransformer eager · most frequent inputs'],
    ['r0 TinyTransformer eager · last inputs', null],
    ['r0 TinyTransformer reduce-overhead · last inputs', 'r0 TinyTransformer eager · last inputs'],
    ['r0 TinyTransformer max-autotune · most frequent inputs', 'r0 TinyTransformer eager · most frequent inputs'],
  ]);
});
