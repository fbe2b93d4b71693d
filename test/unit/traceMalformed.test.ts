// Malformed-trace corpus (issue 6.1): every case ends in a clear message naming the problem (and byte where
// known), never a crash or hang; partly valid traces keep what was read. Plus fast-check fuzzing of the scanner.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { scanTraceBytes, TraceScanner } from '../../extension/node/trace/byteScanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { TraceError } from '../../extension/node/trace/problems.ts';
import { summarizeTrace } from '../../extension/shared/trace/summary.ts';
import { readRange, scanTraceFile } from '../../extension/node/trace/scanner.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const trace = (events: unknown[]): Uint8Array => bytes(JSON.stringify({ traceEvents: events }));
const kernel = (ts: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ph: 'X',
  cat: 'kernel',
  name: 'triton_poi_fused_0',
  pid: 0,
  tid: 7,
  ts,
  dur: 2,
  args: { correlation: ts },
  ...extra,
});
const REAL = readFileSync(join(__dirname, '..', 'fixtures', 'traces', 'mlp-eager.trace.json'));

function rejects(input: Uint8Array, message: RegExp): void {
  assert.throws(
    () => scanTraceBytes(input),
    (error: unknown) => {
      assert.ok(error instanceof TraceError, `TraceError, got ${String(error)}`);
      assert.match(error.message, message);
      return true;
    },
  );
}

function warns(input: Uint8Array, message: RegExp): TraceModel {
  const model = scanTraceBytes(input);
  assert.ok(
    model.warnings.some((w) => message.test(w)),
    `warning ${message} in ${JSON.stringify(model.warnings)}`,
  );
  return model;
}

describe('malformed traces', () => {
  test('empty file and whitespace only', () => {
    rejects(bytes(''), /empty file/);
    rejects(bytes(' \n\t '), /empty file/);
  });

  test('not JSON', () => {
    rejects(bytes('hello world'), /not a Chrome trace: expected '\{' or '\[' at byte 0, found 'h'/);
    rejects(bytes('\u0000\u0001binary'), /at byte 0, found byte 0x00/);
  });

  test('JSON that is not a trace', () => {
    rejects(bytes('{"hello": [1, 2, 3], "nested": {"a": "b"}}'), /not a Chrome trace: no traceEvents array/);
    rejects(bytes('"just a string"'), /not a Chrome trace/);
    rejects(bytes('[1, 2, 3]'), /no usable events: 3 events: entry of traceEvents is not an object/);
  });

  test('traceEvents missing or not an array', () => {
    rejects(bytes('{"displayTimeUnit": "ms"}'), /no traceEvents array/);
    rejects(bytes('{"traceEvents": {"ph": "X"}}'), /traceEvents is not an array \(found '\{' at byte 16\)/);
    rejects(bytes('{"traceEvents": null}'), /traceEvents is not an array/);
  });

  test('truncated JSON keeps the events before the cut, with the byte position', () => {
    const cut = REAL.subarray(0, Math.floor(REAL.length * 0.6));
    const model = warns(cut, /truncated JSON at byte \d+ — \d+ events read before it/);
    assert.ok(model.count > 50);
    rejects(bytes('{"traceEvents": [{"ph": "X", "na'), /truncated JSON at byte 32 — 0 events read before it/);
  });

  test('a 0-event trace is valid and says so', () => {
    const model = warns(bytes('{"traceEvents": []}'), /no events/);
    assert.equal(model.count, 0);
    assert.equal(summarizeTrace(model).kernels, 0);
  });

  test('events with missing or wrong-typed fields are skipped with a count and first byte', () => {
    const model = scanTraceBytes(
      trace([
        kernel(10),
        { ph: 'X', name: 'no ts', pid: 0, tid: 7, dur: 1 },
        { ph: 'X', name: 'string ts', pid: 0, tid: 7, ts: '12', dur: 1 },
        { ph: 'X', name: 'no dur', pid: 0, tid: 7, ts: 13 },
        { ph: 'X', name: 'bad dur', pid: 0, tid: 7, ts: 14, dur: [1] },
        { ph: 'X', pid: 0, tid: 7, ts: 15, dur: 1 },
        { ph: 'X', name: 42, pid: 0, tid: 7, ts: 16, dur: 1 },
        { name: 'no phase', ts: 1 },
        { ph: 'X', name: 'no pid', ts: 17, dur: 1 },
      ]),
    );
    const w = model.warnings.join('\n');
    assert.match(w, /2 events: 'ts' missing or not a number, skipped \(first at byte \d+\)/);
    assert.match(w, /complete event without 'dur', drawn as 0 µs/);
    assert.match(w, /'dur' not a finite number, skipped/);
    assert.match(w, /2 events: 'name' missing or not a string, shown as '\(unnamed\)'/);
    assert.match(w, /event has no 'ph'/);
    assert.match(w, /'pid' or 'tid' missing/);
    assert.equal(model.count, 5, 'kept: kernel, no dur, unnamed, name 42, no pid');
  });

  test('negative, huge and overflowing timestamps and durations', () => {
    const model = scanTraceBytes(
      bytes(`{"traceEvents": [
      {"ph": "X", "name": "neg ts", "pid": 1, "tid": 1, "ts": -50, "dur": 10},
      {"ph": "X", "name": "neg dur", "pid": 1, "tid": 1, "ts": 10, "dur": -5},
      {"ph": "X", "name": "huge ts", "pid": 1, "tid": 1, "ts": 1e300, "dur": 1},
      {"ph": "X", "name": "inf ts", "pid": 1, "tid": 1, "ts": 1e999, "dur": 1},
      {"ph": "X", "name": "huge dur", "pid": 1, "tid": 1, "ts": 20, "dur": 1e308},
      {"ph": "X", "name": "ok", "pid": 1, "tid": 1, "ts": 30, "dur": 1}
    ]}`),
    );
    const w = model.warnings.join('\n');
    assert.match(w, /negative 'dur', drawn as 0 µs/);
    assert.match(w, /'ts' beyond ±1e17 µs, skipped/);
    assert.match(w, /'ts' missing or not a number/);
    assert.match(w, /'dur' not a finite number/);
    assert.deepEqual(model.names.filter((_, id) => [...model.name].includes(id)).sort(), ['neg dur', 'neg ts', 'ok']);
    assert.equal(model.originUs, -50);
  });

  test('duplicate and unmatched flows', () => {
    const model = scanTraceBytes(
      trace([
        { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 10, dur: 5 },
        { ph: 'X', cat: 'kernel', name: 'k', pid: 0, tid: 7, ts: 20, dur: 2 },
        { ph: 'X', cat: 'kernel', name: 'orphan', pid: 0, tid: 7, ts: 30, dur: 2 },
        { ph: 's', cat: 'ac2g', id: 5, pid: 1, tid: 1, ts: 11 },
        { ph: 's', cat: 'ac2g', id: 5, pid: 1, tid: 1, ts: 12 },
        { ph: 'f', cat: 'ac2g', id: 5, pid: 0, tid: 7, ts: 20, bp: 'e' },
        { ph: 'f', cat: 'ac2g', id: 9, pid: 0, tid: 7, ts: 30, bp: 'e' },
      ]),
    );
    const w = model.warnings.join('\n');
    assert.match(w, /duplicate flow start id, later one ignored/);
    assert.match(w, /flow end without a start: kernel not linked to a launch/);
    const linked = [...model.correlation].filter((c) => c === 5).length;
    assert.equal(linked, 2, 'the flow linked the launch and its kernel');
  });

  test('unknown phases are named and skipped', () => {
    const model = warns(
      trace([
        kernel(1),
        { ph: 'B', name: 'b', pid: 1, tid: 1, ts: 1 },
        { ph: 'Q', name: 'q', ts: 1 },
        { ph: 'XX', ts: 1 },
      ]),
      /phase 'B' is not shown/,
    );
    assert.ok(model.warnings.some((w) => w.includes("phase 'Q' is not shown")));
    assert.ok(model.warnings.some((w) => w.includes('unknown phase, skipped')));
    assert.equal(model.count, 1);
  });

  test('deeply nested args (100 000 levels) do not overflow the stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const model = scanTraceBytes(
      bytes(
        `{"traceEvents": [{"ph": "X", "name": "deep", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"x": ${deep}}}]}`,
      ),
    );
    assert.equal(model.count, 1);
  });

  test('non-UTF-8 bytes in names become U+FFFD with a warning', () => {
    const head = bytes('{"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "name": "bad');
    const tail = bytes('"}]}');
    const input = new Uint8Array([...head, 0xff, 0xfe, 0xc3, ...tail]);
    const model = warns(input, /not valid UTF-8, shown with U\+FFFD \(first at byte \d+\)/);
    assert.match(model.names[model.name[0]!]!, /^bad\uFFFD/);
  });

  test('10^6 identical names intern to one string', () => {
    const event = '{"ph":"X","cat":"kernel","name":"triton_same","pid":0,"tid":7,"ts":1,"dur":1},';
    const body = event.repeat(1_000_000);
    const model = scanTraceBytes(bytes(`{"traceEvents":[${body.slice(0, -1)}]}`));
    assert.equal(model.count, 1_000_000);
    assert.deepEqual(model.names, ['triton_same']);
  });

  test("names with HTML/script are kept verbatim (rendering is the webview's job)", () => {
    const name = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const model = scanTraceBytes(trace([kernel(1, { name })]));
    assert.equal(model.names[0], name);
  });

  test('JSON escapes in names decode; invalid escapes are shown raw with a warning', () => {
    assert.equal(
      scanTraceBytes(bytes('{"traceEvents":[{"ph":"X","name":"a\\u0041\\"q","pid":1,"tid":1,"ts":1,"dur":1}]}'))
        .names[0],
      'aA"q',
    );
    const model = warns(
      bytes('{"traceEvents":[{"ph":"X","name":"bad\\x","pid":1,"tid":1,"ts":1,"dur":1}]}'),
      /invalid escape/,
    );
    assert.equal(model.names[0], 'bad\\x');
  });

  test('syntax error mid-file: events before it are kept, the byte is named', () => {
    const model = warns(
      bytes('{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}, {"ph": X}]}'),
      /unexpected 'X' at byte 77 — 1 events read before it/,
    );
    assert.equal(model.count, 1);
  });

  test('data after the document is ignored with a warning', () => {
    warns(
      bytes('{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]} trailing'),
      /data after the end of the JSON document at byte 71/,
    );
  });

  test('gzip: valid, corrupt, truncated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-trace-'));
    const good = gzipSync(REAL);
    writeFileSync(join(dir, 'good.json.gz'), good);
    assert.equal((await scanTraceFile(join(dir, 'good.json.gz'))).count, scanTraceBytes(REAL).count);
    const corrupt = Buffer.from(good);
    corrupt.fill(0x55, 20, 60);
    writeFileSync(join(dir, 'corrupt.json.gz'), corrupt);
    await assert.rejects(
      scanTraceFile(join(dir, 'corrupt.json.gz')),
      (e: unknown) => e instanceof TraceError && /corrupt gzip after \d+ decompressed bytes/.test(e.message),
    );
    writeFileSync(join(dir, 'truncated.json.gz'), good.subarray(0, Math.floor(good.length * 0.7)));
    const partial = await scanTraceFile(join(dir, 'truncated.json.gz'));
    assert.ok(partial.count > 0);
    assert.ok(
      partial.warnings.some((w) =>
        /corrupt gzip after \d+ decompressed bytes: unexpected end of file — showing the \d+ events read before it/.test(
          w,
        ),
      ),
      partial.warnings.join('\n'),
    );
    await assert.rejects(
      scanTraceFile(join(dir, 'missing.json')),
      (e: unknown) => e instanceof TraceError && /cannot read .*missing\.json/.test(e.message),
    );
    // opened but not readable (a folder): the read's error, as a TraceError
    await assert.rejects(
      readRange(dir, new TraceScanner(), 0, Infinity),
      (e: unknown) => e instanceof TraceError && /cannot read .*EISDIR/.test(e.message),
    );
  });
});

/**
 * fast-check's settings: the test command (and so CI) runs 10^5 inputs, as issue 6 asks, from a fixed seed (the same
 * inputs every run); `COMPILE_LENS_FUZZ=quick` runs a tenth of them while working on the scanner, and
 * `COMPILE_LENS_FUZZ=new` the full count from a new seed, which fast-check prints with any failure so the input can be
 * replayed here.
 */
const FUZZ = process.env['COMPILE_LENS_FUZZ'];
function fuzzRuns(numRuns: number): fc.Parameters<unknown> {
  if (FUZZ === 'new') return { numRuns: numRuns * 10 };
  return { numRuns: FUZZ === 'quick' ? numRuns : numRuns * 10, seed: 61 };
}

describe('fuzz (fast-check)', () => {
  /** The scanner's contract on any input: a model or a TraceError, never another exception. */
  function scanOrTraceError(input: Uint8Array): TraceModel | null {
    try {
      const model = scanTraceBytes(input);
      assert.equal(model.start.length, model.count);
      for (let i = 0; i < model.count; i++) {
        assert.ok(Number.isFinite(model.start[i]) && model.dur[i]! >= 0, 'finite start, non-negative dur');
        assert.ok(model.track[i]! < model.tracks.length && model.name[i]! < model.names.length);
      }
      return model;
    } catch (error) {
      if (error instanceof TraceError) return null;
      throw error;
    }
  }

  const jsonValue = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.constant(null),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 3 }),
  );
  const eventArb = fc.record(
    {
      ph: fc.oneof(fc.constantFrom('X', 'M', 's', 'f', 'i', 'B'), jsonValue),
      cat: fc.oneof(fc.constantFrom('kernel', 'cpu_op', 'cuda_runtime', 'gpu_memset', 'ac2g'), jsonValue),
      name: fc.oneof(
        fc.constantFrom('triton_x', 'cudaGraphLaunch', 'ProfilerStep#1', 'aten::mm', '<b>x</b>'),
        fc.string(),
        jsonValue,
      ),
      pid: fc.oneof(fc.nat(3), fc.string({ maxLength: 3 })),
      tid: fc.oneof(fc.nat(3), fc.string({ maxLength: 3 })),
      ts: fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), jsonValue),
      dur: fc.oneof(fc.double({ min: -10, max: 1e4, noNaN: true }), jsonValue),
      id: fc.oneof(fc.nat(5), jsonValue),
      args: fc.oneof(fc.record({ correlation: fc.nat(5), grid: fc.array(jsonValue, { maxLength: 4 }) }), jsonValue),
    },
    { requiredKeys: [] },
  );

  test('structured random traces: model or TraceError, and chunking never changes the result', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 12 }), fc.integer({ min: 1, max: 64 }), (events, chunk) => {
        const input = trace(events);
        const whole = scanOrTraceError(input);
        const scanner = new TraceScanner();
        let chunked: TraceModel | null;
        try {
          for (let i = 0; i < input.length; i += chunk) scanner.push(input.subarray(i, i + chunk));
          chunked = scanner.finish();
        } catch (error) {
          if (!(error instanceof TraceError)) throw error;
          chunked = null;
        }
        assert.deepEqual(chunked, whole);
      }),
      fuzzRuns(2_000),
    );
  });

  test('random bytes and mutated real traces: model or TraceError', () => {
    const realHead = REAL.subarray(0, 4096);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (input) => {
        scanOrTraceError(input);
      }),
      fuzzRuns(4_000),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(realHead.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.nat(realHead.length),
        (edits, cut) => {
          const input = realHead.slice(0, Math.max(1, cut));
          for (const [at, value] of edits) if (at < input.length) input[at] = value;
          scanOrTraceError(input);
        },
      ),
      fuzzRuns(2_000),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        scanOrTraceError(bytes(`{"traceEvents":[${text}]}`));
      }),
      fuzzRuns(2_500),
    );
  });
});
