// A trace's rows are posted to the webview packed (shared/trace/rowsWire.ts): every column must come back as the
// host read it, from any row to any row, and a value the packing cannot hold exactly must still come back.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceColumns } from '../../extension/shared/trace/rowParts.ts';
import { argsOfBytes, bytesOfArgs, packKernelArgs, unpackKernelArgs } from '../../extension/shared/trace/argsWire.ts';
import { KERNEL_ARG_FIELDS } from '../../extension/shared/trace/model.ts';
import { deflateKernelArgs, deflateRows } from '../../extension/node/trace/deflatedPieces.ts';
import {
  bytesOfRows,
  packRows,
  rowsOfBytes,
  unpackRows,
  type PackedRows,
} from '../../extension/shared/trace/rowsWire.ts';
import { MAX_MAGNITUDE, VarintReader, VarintWriter } from '../../extension/shared/trace/varints.ts';
import { inflateKernelArgs, inflateRows, unpackPosted } from '../../webview/reviveModel.ts';

const FIXTURES = join(__dirname, '..', 'fixtures', 'traces');
const traceFiles = readdirSync(FIXTURES).filter((f) => /\.trace\.json(\.gz)?$/.test(f));

const columnsOf = (c: TraceColumns, from: number, to: number): TraceColumns => ({
  start: c.start.slice(from, to),
  dur: c.dur.slice(from, to),
  track: c.track.slice(from, to),
  name: c.name.slice(from, to),
  kind: c.kind.slice(from, to),
  depth: c.depth.slice(from, to),
  correlation: c.correlation.slice(from, to),
});

const packedBytes = (rows: PackedRows): number =>
  rows.runs.byteLength +
  rows.name.byteLength +
  rows.kind.byteLength +
  [rows.start, rows.dur, rows.correlation].reduce(
    (sum, c) => sum + ('plain' in c ? c.plain.byteLength : c.varints.byteLength),
    0,
  );

test("every fixture trace's rows come back as read, whole and in parts cut mid-run, in a third of the plain bytes or less", async () => {
  assert.ok(traceFiles.length >= 8);
  let rows = 0;
  let kindAndIdBytes = 0;
  for (const file of traceFiles) {
    const model = await scanTraceFile(join(FIXTURES, file));
    const whole = packRows(model, 0, model.count);
    rows += model.count;
    kindAndIdBytes +=
      whole.kind.byteLength + ('varints' in whole.correlation ? whole.correlation.varints.byteLength : Infinity);
    assert.deepStrictEqual(unpackRows(whole), columnsOf(model, 0, model.count), file);
    // the times are whole ns, so they pack (not plain)
    for (const column of [whole.start, whole.dur, whole.correlation]) assert.ok('varints' in column, file);
    assert.ok(
      packedBytes(whole) <= (model.count * 35) / 3,
      `${file}: ${packedBytes(whole)} bytes for ${model.count} rows`,
    );
    for (const cut of [1, 7, Math.floor(model.count / 3)]) {
      for (let from = 0; from < model.count; from += cut * 50) {
        const to = Math.min(model.count, from + cut);
        assert.deepStrictEqual(
          unpackRows(packRows(model, from, to)),
          columnsOf(model, from, to),
          `${file} rows ${from}–${to}`,
        );
      }
    }
  }
  // a track's slices are mostly of one kind, a CPU thread's have no ids: both go as runs, not a byte a row each
  assert.ok(kindAndIdBytes < rows / 2, `${kindAndIdBytes} bytes of kinds and ids for ${rows} rows`);
});

test('a column with a time that is not whole ns, or an id that is not one, goes plain and comes back exact', () => {
  const columns: TraceColumns = {
    start: Float64Array.from([0, 1 / 3, 2.5, 1e9]),
    dur: Float64Array.from([0.001, 2, 3, 4]),
    track: Uint32Array.from([0, 0, 1, 1]),
    name: Uint32Array.from([0, 300, 70_000, 2 ** 32 - 1]),
    kind: Uint8Array.from([0, 1, 2, 9]),
    depth: Uint16Array.from([0, 0, 65_535, 65_535]),
    correlation: Float64Array.from([-1, 5, 3, 2 ** 40]),
  };
  const packed = packRows(columns, 0, 4);
  assert.ok('plain' in packed.start && 'varints' in packed.dur && 'varints' in packed.correlation);
  assert.deepStrictEqual(unpackRows(packed), columns);
  // a start is packed as the ns since the run's previous row ended: a duration past what a step holds (only the
  // run's last may be one) sends durations plain, not starts; a row starting before that end, a negative step
  const odd = {
    ...columns,
    start: Float64Array.from([0, 0.5, 2, 3]),
    dur: Float64Array.from([1, -2, 0, 2 ** 60]),
    correlation: Float64Array.from([-1, 0.5, 1, 2]),
  };
  const oddPacked = packRows(odd, 0, 4);
  assert.ok('varints' in oddPacked.start && 'plain' in oddPacked.dur && 'plain' in oddPacked.correlation);
  assert.deepStrictEqual(unpackRows(oddPacked), odd);
  const farEnd = { ...odd, dur: Float64Array.from([1, -2, 2 ** 60, 0]) };
  const farEndPacked = packRows(farEnd, 0, 4);
  assert.ok('plain' in farEndPacked.start && 'plain' in farEndPacked.dur);
  assert.deepStrictEqual(unpackRows(farEndPacked), farEnd);
  // a varint has no sign: -0 goes plain
  const negativeZero = {
    ...odd,
    start: Float64Array.from([-0, 1, 2, 3]),
    correlation: Float64Array.from([-1, -0, 1, 2]),
  };
  const negativeZeroPacked = packRows(negativeZero, 0, 4);
  assert.ok('plain' in negativeZeroPacked.start && 'plain' in negativeZeroPacked.correlation);
  assert.deepStrictEqual(unpackRows(negativeZeroPacked), negativeZero);
  assert.deepStrictEqual(unpackRows(packRows(columns, 2, 2)), columnsOf(columns, 2, 2));
});

test('packed rows that postMessage delivered as index-keyed objects are unpacked by the webview; cut ones are refused', async () => {
  const model = await scanTraceFile(join(FIXTURES, 'mlp-default.trace.json'));
  const packed = packRows(model, 10, 200);
  const plain = (a: ArrayLike<number>): Record<string, number> =>
    Object.fromEntries(Array.from(a, (v, i) => [String(i), v]));
  const column = (c: PackedRows['start']) => ('plain' in c ? { plain: plain(c.plain) } : { varints: plain(c.varints) });
  const delivered = {
    count: packed.count,
    runs: plain(packed.runs),
    start: column(packed.start),
    dur: column(packed.dur),
    name: plain(packed.name),
    kind: plain(packed.kind),
    correlation: column(packed.correlation),
  } as unknown as PackedRows;
  assert.deepStrictEqual(unpackPosted(delivered), columnsOf(model, 10, 200));
  const cut = { ...packed, name: packed.name.slice(0, packed.name.length - 1) };
  assert.throws(() => unpackRows(cut), /end early/);
  const overrun = { ...packed, kind: Uint8Array.from([0, 200, 1]) }; // a run of 200 kinds in 190 rows
  assert.throws(() => unpackRows(overrun), /overruns/);
});

test('kernel args come back as read: whole-number fields as steps, repeating ones as a table, the rest plain', async () => {
  let tables = 0;
  for (const file of traceFiles) {
    const { kernelArgs } = await scanTraceFile(join(FIXTURES, file));
    const packed = packKernelArgs(kernelArgs);
    assert.deepStrictEqual(unpackKernelArgs(packed), kernelArgs, file);
    assert.deepStrictEqual(unpackKernelArgs(structuredClone(packed)), kernelArgs, file);
    tables += packed.fields.filter((f) => 'table' in f).length;
  }
  assert.ok(tables > 0, 'some fixture has a field of repeating fractions (blocks or warps per SM)');
  const fields = KERNEL_ARG_FIELDS.length;
  const values = new Float64Array(3 * fields).fill(NaN);
  values.set([1, 2, 3], 0);
  values[fields] = -0;
  values[fields + 1] = 0.5;
  values[2 * fields + 1] = 2 ** 60;
  for (let k = 0; k < 300; k++) values[(k % 3) * fields + 2] = k / 7; // only the last row's stays
  values[2] = 1 / 7;
  const odd = { slice: Uint32Array.from([3, 9, 4]), values };
  const packed = packKernelArgs(odd);
  assert.deepStrictEqual(unpackKernelArgs(packed), odd);
  assert.ok(
    'table' in packed.fields[0]! && 'table' in packed.fields[1]! && 'table' in packed.fields[2]!,
    'a -0, a 2^60 and fractions: a table',
  );
  const many = {
    slice: Uint32Array.from({ length: 400 }, (_, r) => r),
    values: Float64Array.from({ length: 400 * fields }, (_, i) => (i + 0.5) / 3),
  };
  const manyPacked = packKernelArgs(many);
  assert.ok(manyPacked.fields.every((f) => 'plain' in f));
  assert.deepStrictEqual(unpackKernelArgs(manyPacked), many);
});

test('deflated rows (a webview across a network link) inflate to the packed rows, plain columns too; bytes that do not fit are refused', async () => {
  const model = await scanTraceFile(join(FIXTURES, 'mlp-reduce-overhead.trace.json'));
  const odd: TraceColumns = {
    ...columnsOf(model, 0, model.count),
    start: model.start.map((s, i) => (i === 3 ? s + 1 / 3 : s)),
    correlation: model.correlation.map((c, i) => (i === 5 ? 0.5 : c)),
  };
  for (const columns of [model, odd]) {
    const packed = packRows(columns, 10, columns.start.length);
    const deflated = deflateRows(packed);
    assert.ok(deflated.deflated.byteLength < packedBytes(packed), 'fewer bytes');
    const inflated = await inflateRows(deflated);
    assert.deepStrictEqual(inflated, packed);
    assert.deepStrictEqual(unpackRows(inflated), columnsOf(columns, 10, columns.start.length));
  }
  assert.deepStrictEqual(deflateRows(packRows(odd, 0, odd.start.length)).plain, [true, false, true]);
  const inBytes = bytesOfRows(packRows(model, 0, 50));
  assert.throws(() => rowsOfBytes({ ...inBytes, lengths: inBytes.lengths.slice(1) }), /do not hold/);
  assert.throws(() => rowsOfBytes({ ...inBytes, bytes: inBytes.bytes.subarray(1) }), /do not hold/);
  await assert.rejects(inflateRows({ ...deflateRows(packRows(model, 0, 50)), deflated: Uint8Array.from([1, 2, 3]) }));
});

test('deflated kernel args inflate to the packed ones, each field in the form it was packed in; bytes that do not fit are refused', async () => {
  const fields = KERNEL_ARG_FIELDS.length;
  const model = await scanTraceFile(join(FIXTURES, 'gpt_small-reduce-overhead.trace.json'));
  const fractions = {
    slice: Uint32Array.from({ length: 400 }, (_, r) => r),
    values: Float64Array.from({ length: 400 * fields }, (_, i) =>
      i % fields === 0 ? (i % 3) + 0.25 : i % fields === 1 ? (i + 0.5) / 3 : i % fields === 2 ? NaN : i % 7,
    ),
  };
  for (const args of [model.kernelArgs, fractions]) {
    const packed = packKernelArgs(args);
    const inflated = await inflateKernelArgs(deflateKernelArgs(packed));
    assert.deepStrictEqual(inflated, packed);
    assert.deepStrictEqual(unpackKernelArgs(inflated), args);
  }
  assert.deepStrictEqual(bytesOfArgs(packKernelArgs(fractions)).shapes.slice(0, 3), ['table', 'plain', 'steps']);
  const inBytes = bytesOfArgs(packKernelArgs(model.kernelArgs));
  assert.throws(() => argsOfBytes({ ...inBytes, lengths: inBytes.lengths.slice(1) }), /do not hold/);
  assert.throws(() => argsOfBytes({ ...inBytes, shapes: inBytes.shapes.slice(1) }), /do not hold/);
  await assert.rejects(
    inflateKernelArgs({ ...deflateKernelArgs(packKernelArgs(fractions)), deflated: Uint8Array.from([1, 2, 3]) }),
  );
});

test('varints round-trip at each byte length and at the 32-bit boundaries the writer switches arithmetic at', () => {
  const values = [
    0,
    1,
    127,
    128,
    16_383,
    16_384,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 32 - 1,
    2 ** 32,
    2 ** 35 + 5,
    MAX_MAGNITUDE,
  ];
  const writer = new VarintWriter(values.length);
  for (const v of values) {
    writer.unsigned(v);
    writer.signed(-v);
  }
  const reader = new VarintReader(writer.bytes());
  assert.deepStrictEqual(
    values.flatMap(() => [reader.unsigned(), reader.signed()]),
    values.flatMap((v) => [v, v === 0 ? 0 : -v]),
  );
  assert.equal(new VarintWriter(1).bytes().length, 0);
});
