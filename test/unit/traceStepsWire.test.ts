// A trace's steps are posted to the webview packed (shared/trace/stepsWire.ts) and unpacked by its reviveModel: the
// model the webview draws must be the one the host read, for steps from ProfilerStep spans and from repetition.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { packSteps } from '../../extension/shared/trace/stepsWire.ts';
import { postedTrace } from '../../extension/node/trace/postedPieces.ts';
import { reviveModel } from '../../webview/reviveModel.ts';

const FIXTURES = join(__dirname, '..', 'fixtures', 'traces');

test('steps packed for the webview come back as the host read them: ProfilerStep labels kept, `call N` not sent', async () => {
  for (const [file, source, labels] of [
    ['cpu-graphbreak-eager.trace.json', 'profiler', true],
    ['mlp-default.trace.json', 'repetition', false],
  ] as const) {
    const model = await scanTraceFile(join(FIXTURES, file));
    assert.equal(model.stepSource, source);
    assert.ok(model.steps.length > 1, file);
    const packed = packSteps(model.steps);
    assert.equal(packed.labels !== null, labels, file);
    // postMessage's structured clone, then the webview's revival
    assert.deepStrictEqual(reviveModel(structuredClone(postedTrace(model))), model, file);
  }
});

test('packed steps whose columns postMessage delivered as plain objects, and steps posted unpacked, are revived too', async () => {
  const model = await scanTraceFile(join(FIXTURES, 'mlp-default.trace.json'));
  const { start, end, labels } = packSteps(model.steps);
  const plain = {
    ...model,
    steps: { start: { ...Array.from(start) }, end: { ...Array.from(end) }, labels },
  } as unknown as TraceModel;
  assert.deepStrictEqual(reviveModel(plain).steps, model.steps);
  assert.deepStrictEqual(reviveModel(model).steps, model.steps);
});
