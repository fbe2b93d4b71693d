// The Python threads Kineto files under the host process's thread 0 (extension/node/trace/pythonThreads.ts): each its
// own stack track from its root frame, named by its role, not ten rows of two threads under "other Python threads"
// with nothing saying where one ends (review 10 G4).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceBytes } from '../../extension/node/trace/byteScanner.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';

/** Per stack track of thread 0, its name and its frames as [depth, name], in the model's order. */
function threadZeroStacks(model: TraceModel): Map<string, [number, string][]> {
  const stacks = new Map<string, [number, string][]>();
  for (let i = 0; i < model.count; i++) {
    const track = model.tracks[model.track[i]!]!;
    if (!track.stack || track.tid !== '0') continue;
    stacks.set(track.name, [...(stacks.get(track.name) ?? []), [model.depth[i]!, model.names[model.name[i]!]!]]);
  }
  return stacks;
}

test("a recorded trace's two threads without an id: tqdm's monitor and Inductor's compile workers, each from its root", async () => {
  const model = await scanTraceFile(path.resolve(__dirname, '../fixtures/traces/mlp-default.trace.json'));
  const stacks = threadZeroStacks(model);
  assert.deepEqual([...stacks.keys()], ["tqdm's monitor", "Inductor's compile workers"]);
  for (const frames of stacks.values()) assert.deepEqual(frames[0], [0, 'threading.py(1030): _bootstrap']);
  assert.deepEqual(
    stacks.get("tqdm's monitor")!.map(([, name]) => name),
    [
      'threading.py(1030): _bootstrap',
      'threading.py(1073): _bootstrap_inner',
      'tqdm/_monitor.py(69): run',
      'threading.py(655): wait',
      'threading.py(359): wait',
    ],
  );
  assert.ok(stacks.get("Inductor's compile workers")!.some(([, name]) => name.includes('compile_worker/')));
});

/** A trace of thread 0's Python frames [name, ts, dur], in a process Kineto labels CPU. */
const threadZero = (frames: [string, number, number][]): TraceModel =>
  scanTraceBytes(
    new TextEncoder().encode(
      JSON.stringify({
        traceEvents: [
          { ph: 'M', name: 'process_labels', pid: 7, tid: 0, args: { labels: 'CPU' } },
          { ph: 'X', cat: 'cpu_op', name: 'aten::mm', pid: 7, tid: 7, ts: 0, dur: 5 },
          ...frames.map(([name, ts, dur]) => ({ ph: 'X', cat: 'python_function', name, pid: 7, tid: 0, ts, dur })),
        ],
      }),
    ),
  );

test("a thread of no role, and frames in no thread's root, in the track as it was; a trace of no role's frames as it was", () => {
  const root = 'threading.py(1030): _bootstrap';
  const stacks = threadZeroStacks(
    threadZero([
      ['loop.py(3): outer', 0, 100],
      [root, 10, 90],
      ['worker.py(8): work', 11, 80],
      [root, 20, 70],
      ['tqdm/_monitor.py(69): run', 21, 60],
    ]),
  );
  assert.deepEqual(
    [...stacks],
    [
      [
        "tqdm's monitor",
        [
          [0, root],
          [1, 'tqdm/_monitor.py(69): run'],
        ],
      ],
      [
        'other Python threads',
        [
          [0, 'loop.py(3): outer'],
          [1, root],
          [2, 'worker.py(8): work'],
        ],
      ],
    ],
  );
  const none = threadZeroStacks(
    threadZero([
      [root, 10, 90],
      ['worker.py(8): work', 11, 80],
      [root, 20, 70],
    ]),
  );
  assert.deepEqual([...none.keys()], ['other Python threads']);
});
