// Track names a user reads: no "process -1" for the profiler's own work (a recorded H100 trace has it).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

test("Kineto's own work (pid -1, no process name) is named for what it is", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/mlp-default.trace.json'));
  const names = model.tracks.map((t) => t.name);
  assert.ok(names.includes("the profiler's own work · thread 0"), names.join(' | '));
  assert.ok(
    names.every((name) => !name.includes('process -1')),
    names.join(' | '),
  );
});
