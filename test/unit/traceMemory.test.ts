// The scanner's memory-saving parts: columns in resizable buffers (memory.ts), the typed key table
// (rowsByKey.ts) and flow events in typed columns (flows.ts), each against what the code before them did.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scanTraceBytes } from '../../extension/node/trace/byteScanner.ts';
import { FlowTable } from '../../extension/node/trace/flows.ts';
import { Column, release, scratchArray } from '../../extension/node/trace/memory.ts';
import { RowsByKey } from '../../extension/node/trace/rowsByKey.ts';

describe('columns in resizable buffers', () => {
  test('a column keeps every value while it grows in place and past its reservation, then is given back', () => {
    const column = new Column(Float64Array, 4);
    const reservedBytes = column.data.buffer.maxByteLength;
    const n = 100_000; // far past 16× the first reservation: several new reservations
    for (let i = 0; i < n; i++) column.push(i, i * 0.5);
    assert.ok(column.data.buffer.maxByteLength > reservedBytes);
    assert.ok(
      column.data.length >= n && column.data.length <= Math.ceil(n * 1.25) + 1,
      `grows by a quarter, not doubling: ${column.data.length}`,
    );
    for (let i = 0; i < n; i++) assert.equal(column.data[i], i * 0.5);
    column.release();
    assert.equal(column.data.length, 0);
    assert.equal(column.data.buffer.byteLength, 0);
  });

  test('a column is a plain array up to 64 KiB, doubling as it grows, then moves into a reservation', () => {
    const column = new Column(Float64Array);
    assert.equal(column.data.buffer.resizable, false);
    const plainMax = (64 * 1024) / Float64Array.BYTES_PER_ELEMENT;
    for (let i = 0; i < plainMax; i++) column.push(i, i + 0.5);
    assert.equal(column.data.buffer.resizable, false, 'no mapping of its own while small');
    assert.equal(column.data.length, plainMax);
    column.push(plainMax, -1);
    assert.equal(column.data.buffer.resizable, true);
    for (let i = 0; i < plainMax; i++) assert.equal(column.data[i], i + 0.5);
    assert.equal(column.data[plainMax], -1);
  });

  test('reserve() makes room without changing what is held', () => {
    const column = new Column(Uint8Array);
    column.push(0, 7);
    column.reserve(50_000);
    assert.ok(column.data.length >= 50_000);
    assert.equal(column.data[0], 7);
    assert.equal(column.data[49_999], 0);
  });

  test('scratch arrays start zeroed and are empty after release; small ones and plain arrays are left to the GC', () => {
    const scratch = scratchArray(Int32Array, 100_000);
    assert.equal(scratch.length, 100_000);
    assert.ok(scratch.every((v) => v === 0));
    // up to 64 KiB a plain array: a resizable buffer's own mapping costs more than the array (memory.ts)
    const small = scratchArray(Int32Array, 1000).fill(5);
    assert.equal(small.buffer.resizable, false);
    const plain = new Uint32Array(10).fill(3);
    release(scratch, small, plain);
    assert.equal(scratch.length, 0);
    assert.deepEqual([...small], new Array(1000).fill(5));
    assert.deepEqual([...plain], new Array(10).fill(3));
  });
});

describe('RowsByKey', () => {
  test('agrees with a Map on ids of every shape, through growth and overwrites', () => {
    const table = new RowsByKey(4);
    const expected = new Map<number, number>();
    const keys = [0, 1, -1, 2 ** 31, 2 ** 32 + 5, 2 ** 53 - 1, 1.5, -7.25, 1e300, Infinity, -Infinity];
    for (let i = 0; i < 5000; i++) keys.push(i * 4096, i * 1e9 + 3);
    keys.forEach((key, row) => {
      table.set(key, row);
      expected.set(key, row);
    });
    for (let i = 0; i < keys.length; i += 3) {
      table.set(keys[i]!, i + 100_000);
      expected.set(keys[i]!, i + 100_000);
    } // last set wins
    for (const [key, row] of expected) assert.equal(table.get(key), row, `key ${key}`);
    assert.equal(table.get(-0), expected.get(0), '-0 and 0 are one key, as in a Map');
    assert.equal(table.get(123.456), -1);
    assert.equal(table.get(NaN), -1);
    table.release();
  });
});

describe('flow events in typed columns', () => {
  test('a number id and its canonical text are one flow; other texts are their own', () => {
    const flows = new FlowTable();
    assert.equal(flows.add(5, '', false, 0, 10, 100), true);
    assert.equal(flows.add(NaN, '5', false, 0, 11, 200), false, 'second start of flow 5');
    assert.equal(flows.add(NaN, '05', false, 0, 12, 300), true, "'05' is not 5's text");
    assert.equal(flows.add(NaN, 'abc', false, 0, 13, 400), true);
    assert.equal(flows.add(NaN, 'abc', false, 0, 14, 500), false);
    assert.equal(flows.add(NaN, 'abc', true, 1, 20, 600), true, 'ends are always kept');
    assert.equal(flows.count, 4);
    const inside = flows.within(11, 13);
    assert.equal(inside.count, 2);
    assert.deepEqual([...inside.columns().byte], [300, 400]);
  });

  test('a launch and kernel linked by a flow whose id is a string get its numeric correlation; unlinked ends are named at their first byte', () => {
    const text = JSON.stringify({
      traceEvents: [
        { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 10, dur: 5 },
        { ph: 'X', cat: 'kernel', name: 'k', pid: 0, tid: 7, ts: 20, dur: 2 },
        { ph: 'X', cat: 'kernel', name: 'orphan', pid: 0, tid: 7, ts: 30, dur: 2 },
        { ph: 'X', cat: 'kernel', name: 'orphan2', pid: 0, tid: 7, ts: 40, dur: 2 },
        { ph: 'f', cat: 'ac2g', id: 'x', pid: 0, tid: 7, ts: 30, bp: 'e' },
        { ph: 's', cat: 'ac2g', id: '42', pid: 1, tid: 1, ts: 11 },
        { ph: 'f', cat: 'ac2g', id: 42, pid: 0, tid: 7, ts: 20, bp: 'e' },
        { ph: 'f', cat: 'ac2g', id: 'y', pid: 0, tid: 7, ts: 40, bp: 'e' },
      ],
    });
    const model = scanTraceBytes(new TextEncoder().encode(text));
    const correlationOf = (name: string): number =>
      model.correlation[[...model.name].findIndex((id) => model.names[id] === name)]!;
    assert.equal(correlationOf('cudaLaunchKernel'), 42);
    assert.equal(correlationOf('k'), 42);
    const firstUnlinked = text.indexOf('{"ph":"f","cat":"ac2g","id":"x"');
    assert.ok(
      model.warnings.includes(
        `2 events: flow end without a start: kernel not linked to a launch (first at byte ${firstUnlinked})`,
      ),
      model.warnings.join('\n'),
    );
  });
});
