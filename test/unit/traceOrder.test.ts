// The model's row order against a plain comparator sort of the same slices: by track, depth (from nesting), start,
// longest first, then file order. Slices are shuffled a little (the merge of ascending runs) or wholly (the radix
// sort), with equal starts, equal slices and nesting on two threads.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scanTraceBytes } from '../../extension/node/trace/byteScanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';

interface Slice {
  name: string;
  tid: number;
  ts: number;
  dur: number;
  file: number;
}

/** A deterministic stream of numbers in [0, 1) (xorshift), so a failure reproduces. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Per thread, `trees` parents of 8 µs each holding a 3 µs child at its start and a 4 µs one after; every 10th first child twice. */
function slices(trees: number): Omit<Slice, 'file'>[] {
  const out: Omit<Slice, 'file'>[] = [];
  for (const tid of [1, 2]) {
    for (let i = 0; i < trees; i++) {
      const at = 10 * i + tid;
      out.push({ name: `p${tid}.${i}`, tid, ts: at, dur: 8 }, { name: `a${tid}.${i}`, tid, ts: at, dur: 3 });
      if (i % 10 === 0) out.push({ name: `c${tid}.${i}`, tid, ts: at, dur: 3 });
      out.push({ name: `b${tid}.${i}`, tid, ts: at + 4, dur: 4 });
    }
  }
  return out;
}

/** The slices in file order: swapped at `swaps` random places (a fraction of their count), then numbered. */
function shuffled(all: Omit<Slice, 'file'>[], swaps: number, seed: number): Slice[] {
  const next = random(seed);
  const order = all.slice();
  for (let s = 0; s < swaps * order.length; s++) {
    const i = Math.floor(next() * order.length);
    const j = Math.floor(next() * order.length);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.map((slice, file) => ({ ...slice, file }));
}

function traceBytes(file: Slice[]): Uint8Array {
  const events = file.map((s) => ({ ph: 'X', cat: 'cpu_op', name: s.name, pid: 10, tid: s.tid, ts: s.ts, dur: s.dur }));
  return new TextEncoder().encode(JSON.stringify({ traceEvents: events }));
}

/** [name, depth] of each row as a comparator sort orders them, tracks in the model's order. */
function expectedRows(file: Slice[], model: TraceModel): [string, number][] {
  const trackOf = (tid: number): number => model.tracks.findIndex((t) => t.tid === String(tid));
  const byStart = file
    .slice()
    .sort((x, y) => trackOf(x.tid) - trackOf(y.tid) || x.ts - y.ts || y.dur - x.dur || x.file - y.file);
  const depth = new Map<Slice, number>();
  const open: number[] = [];
  let track = -1;
  for (const s of byStart) {
    if (trackOf(s.tid) !== track) {
      track = trackOf(s.tid);
      open.length = 0;
    }
    while (open.length > 0 && open[open.length - 1]! <= s.ts) open.pop();
    depth.set(s, open.length);
    open.push(s.ts + s.dur);
  }
  const rows = byStart
    .slice()
    .sort(
      (x, y) =>
        trackOf(x.tid) - trackOf(y.tid) ||
        depth.get(x)! - depth.get(y)! ||
        x.ts - y.ts ||
        y.dur - x.dur ||
        x.file - y.file,
    );
  return rows.map((s) => [s.name, depth.get(s)!]);
}

const modelRows = (model: TraceModel): [string, number][] =>
  Array.from({ length: model.count }, (_, i): [string, number] => [model.names[model.name[i]!]!, model.depth[i]!]);

describe('the model orders rows as a comparator sort does', () => {
  const cases = [
    { what: 'in file order', trees: 300, swaps: 0 },
    { what: 'a few swapped (ascending runs merged)', trees: 3000, swaps: 0.002 },
    { what: 'wholly shuffled, 60 000 slices a thread (radix sort)', trees: 15_000, swaps: 2 },
  ];
  for (const { what, trees, swaps } of cases) {
    test(what, () => {
      const file = shuffled(slices(trees), swaps, 7);
      const model = scanTraceBytes(traceBytes(file));
      assert.equal(model.count, file.length);
      assert.deepEqual(modelRows(model), expectedRows(file, model));
      // an equal child nests in its twin (each thread's Python stack track holds none of these ops)
      for (const t of model.tracks) assert.equal(t.maxDepth, t.stack ? 0 : 2);
    });
  }
});
