// A GPU kernel's launch arguments in the slice details: rounded, with units, on a recorded H100 trace.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { kernelArg } from '../../extension/present/kernelArgs.ts';
import { formatBytes } from '../../extension/present/numbers.ts';
import { KERNEL_ARG_FIELDS } from '../../extension/shared/trace/model.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';

test("a recorded GEMM's arguments read rounded and with units: blocks per SM to two digits, shared memory in KiB", async () => {
  // mlp-default (an H100 trace): the profiler wrote blocks per SM 0.969697, shared memory 6912, occupancy 3
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/mlp-default.trace.json'));
  const gemm = model.names.findIndex((n) => n.startsWith('sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize32x32x8'));
  const slice = model.name.findIndex((id) => id === gemm);
  const row = [...model.kernelArgs.slice].indexOf(slice);
  assert.ok(row >= 0, 'the GEMM has launch arguments');
  const shown = Object.fromEntries(
    KERNEL_ARG_FIELDS.slice(6).flatMap((field, k) => {
      const value = model.kernelArgs.values[row * KERNEL_ARG_FIELDS.length + 6 + k]!;
      return Number.isNaN(value) ? [] : [kernelArg(field, value)];
    }),
  );
  // in words where the number alone says nothing to most users: a grid smaller than the GPU, a share of warp slots
  assert.equal(shown['blocks per SM'], '0.97 (fewer blocks than SMs: about 97% of the SMs busy)');
  assert.equal(shown['warps per SM'], '1.9 (a warp: 32 threads run together; an SM holds 48–64 warps, by GPU)');
  assert.equal(shown['shared memory per block'], '6.8 KiB');
  assert.equal(shown['estimated occupancy'], "3% of an SM's warp slots (the profiler's estimate)");
  assert.equal(shown['registers per thread'], '80');
  assert.deepEqual([512, 20480, 1.5 * 1024 * 1024].map(formatBytes), ['512 B', '20 KiB', '1.5 MiB']);
  assert.deepEqual(kernelArg('blocks per SM', 0.363636), [
    'blocks per SM',
    '0.36 (fewer blocks than SMs: about 36% of the SMs busy)',
  ]);
  assert.deepEqual(kernelArg('blocks per SM', 4), ['blocks per SM', '4.0']);
});
