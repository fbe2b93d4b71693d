// Track names a user reads: no "process -1" for the profiler's own work (a recorded H100 trace has it), no "process
// Spans · thread PyTorch Profiler" for its span of the profiled window, a host thread by its own name and id.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

test("Kineto's own work (pid -1, no process name) is named for what it is", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/mlp-default.trace.json'));
  const names = model.tracks.map((t) => t.name);
  assert.ok(names.includes('profiler overhead'), names.join(' | '));
  assert.ok(
    names.every((name) => !name.includes('process -1')),
    names.join(' | '),
  );
});

test("Kineto's span of the profiled window and the host's threads are named in the label column's room", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/mlp-default.trace.json'));
  const names = model.tracks.map((t) => t.name);
  assert.ok(names.includes('profiled window'), names.join(' | '));
  assert.ok(
    names.every((name) => !name.includes('PyTorch Profiler')),
    names.join(' | '),
  );
  assert.ok(
    names.some((name) => /^ops · thread \d+ \(python3?\)$/.test(name)),
    names.join(' | '),
  );
  assert.ok(
    names.every((name) => !/^process |^CPU · /.test(name)),
    names.join(' | '),
  );
});
