// Opening the same trace twice, or five at once, must give each panel its own complete model.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { summarizeTrace } from '../../extension/shared/trace/summary.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

const TRACES = path.resolve(__dirname, '../fixtures/traces');
const FILES = [
  'mlp-eager.trace.json',
  'mlp-default.trace.json',
  'mlp-reduce-overhead.trace.json',
  'graphbreak-eager.trace.json',
  'graphbreak-default.trace.json.gz',
];

test('five traces scanned at once equal the same traces scanned one by one; the same file twice gives two equal models', async () => {
  const sequential = [];
  for (const file of FILES) sequential.push(summarizeTrace(await scanTraceFile(path.join(TRACES, file))));
  const concurrent = await Promise.all(
    [...FILES, FILES[0]!].map(async (file) => summarizeTrace(await scanTraceFile(path.join(TRACES, file)))),
  );
  assert.deepEqual(concurrent.slice(0, FILES.length), sequential);
  assert.deepEqual(concurrent[FILES.length], sequential[0]);
  assert.ok(sequential.every((s) => s.kernels > 0));
});
