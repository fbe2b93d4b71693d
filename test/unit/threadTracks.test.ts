// A thread's tracks named by what they hold (extension/node/trace/threadTracks.ts): on every fixture trace, and on
// constructed tracks for the cases no fixture has (Kineto's thread 0 with ops of its own).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { nameThreadTracks, tracksHoldingRows } from '../../extension/node/trace/threadTracks.ts';
import type { TrackInfo } from '../../extension/shared/trace/model.ts';

// every trace of the fixtures: test/fixtures/traces/ and the reports'
const FIXTURES = join(__dirname, '..', 'fixtures');
const TRACES = join(FIXTURES, 'traces');
const traceFiles = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.trace\.json(\.gz)?$/.test(name))
  .sort();

describe("a thread's tracks", () => {
  test('the fixture traces are found', () => {
    assert.ok(traceFiles.length >= 60, traceFiles.join(', '));
    assert.ok(traceFiles.includes(join('traces', 'mlp-default.trace.json')));
  });

  for (const file of traceFiles) {
    test(`${file}: a thread drawn in two tracks says which holds its ops and which its Python stack`, async () => {
      const model = await scanTraceFile(join(FIXTURES, file));
      const holds = tracksHoldingRows(model.track, model.count, model.tracks.length);
      const shown = model.tracks.filter((_, k) => holds[k]);
      const thread = (t: TrackInfo): string => `${t.pid}/${t.tid}`;
      const stacked = new Set(shown.filter((t) => t.stack).map(thread));
      for (const t of shown) {
        if (t.gpu) assert.match(t.name, /stream/, t.name);
        else if (t.stack)
          // a thread Kineto has no id for is named by its role, which names no thread of the trace's
          assert.ok(t.name.startsWith('Python stack · ') || !/thread \d/.test(t.name), t.name);
        else if (stacked.has(thread(t))) assert.ok(t.name.startsWith('ops · '), t.name);
        else assert.ok(!t.name.startsWith('ops · '), `${t.name}: its thread has no Python stack drawn`);
      }
      const names = shown.map((t) => t.name);
      assert.equal(new Set(names).size, names.length, names.join(', '));
    });
  }

  test('gpu-mlp: the thread by its ops and its Python stack; the tracks of no stack by their plain names', async () => {
    const model = await scanTraceFile(join(TRACES, 'mlp-default.trace.json'));
    const holds = tracksHoldingRows(model.track, model.count, model.tracks.length);
    assert.deepEqual(
      model.tracks.filter((_, k) => holds[k]).map((t) => t.name),
      [
        'profiler overhead',
        'ops · thread 1661 (python3)',
        'profiled window',
        'GPU 0 · stream 7',
        "tqdm's monitor",
        "Inductor's compile workers",
        'Python stack · thread 1661',
      ],
    );
    const cpu = await scanTraceFile(join(TRACES, 'cpu-graphbreak-eager.trace.json'));
    assert.ok(cpu.tracks.some((t) => !t.stack && t.name === 'thread 17339 (python3)'));
  });
});

describe('nameThreadTracks', () => {
  const track = (pid: string, tid: string, name: string, more: Partial<TrackInfo> = {}): TrackInfo => ({
    pid,
    tid,
    name,
    gpu: false,
    maxDepth: 0,
    ...more,
  });

  test("Kineto's thread 0 with ops and frames: both say what they hold; a role's stack keeps its name", () => {
    const tracks = [
      track('7', '0', 'other Python threads'),
      track('7', '0', "tqdm's monitor", { stack: true }),
      track('7', '0', 'other Python threads', { stack: true }),
    ];
    nameThreadTracks(tracks, Uint8Array.of(1, 1, 1));
    assert.deepEqual(
      tracks.map((t) => t.name),
      ['ops · other Python threads', "tqdm's monitor", 'Python stack · other Python threads'],
    );
  });

  test('a thread whose stack holds no frame, or whose ops are not drawn, and a GPU stream keep their names', () => {
    const tracks = [
      track('7', '7', 'thread 7 (python3)'),
      track('7', '8', 'thread 8 (python3)'),
      track('0', '7', 'GPU 0 · stream 7', { gpu: true }),
      track('7', '7', 'Python stack · thread 7', { stack: true }),
      track('7', '8', 'Python stack · thread 8', { stack: true }),
    ];
    nameThreadTracks(tracks, Uint8Array.of(1, 0, 1, 0, 1));
    assert.deepEqual(
      tracks.map((t) => t.name),
      [
        'thread 7 (python3)',
        'thread 8 (python3)',
        'GPU 0 · stream 7',
        'Python stack · thread 7',
        'Python stack · thread 8',
      ],
    );
  });

  test('the tracks holding rows: those some row is on', () => {
    assert.deepEqual([...tracksHoldingRows(Uint32Array.of(2, 0, 2, 9), 3, 4)], [1, 0, 1, 0]);
  });
});
