// Tiles a real torch.profiler trace (from test/fixtures/traces) into a bigger one: each copy is shifted in
// time and gets fresh correlation/flow ids, so the result looks like a long profile of the same model.
// `stretched`: each copy's times also scaled by a factor within ±2 % (nesting kept), so its rows differ from the
// last copy's in their low digits, as a real profile's steps do: byte for byte the same tiles would compress
// far better than a real trace (its packed rows deflate ~2.2× against 36×; docs/BENCHMARKS.md).
//   node --import tsx bench/gen-trace.ts OUT.json SIZE_MB [FIXTURE]
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceModel } from '../extension/shared/trace/model.ts';

export const DEFAULT_FIXTURE = join(__dirname, '..', 'test', 'fixtures', 'traces', 'mlp-default.trace.json');

interface ChromeEvent {
  ph?: string;
  ts?: number;
  dur?: number;
  id?: number;
  args?: Record<string, unknown>;
}

/** Writes `path` of about `sizeBytes` by tiling `fixture`; returns bytes written and tiles. */
export function generateTrace(
  path: string,
  sizeBytes: number,
  fixture = DEFAULT_FIXTURE,
  stretched = false,
): { bytes: number; tiles: number } {
  const source = JSON.parse(readFileSync(fixture, 'utf8')) as { traceEvents: ChromeEvent[] };
  const metadata = source.traceEvents.filter((e) => e.ph === 'M');
  const events = source.traceEvents.filter((e) => e.ph !== 'M' && typeof e.ts === 'number');
  const first = Math.min(...events.map((e) => e.ts!));
  const last = Math.max(...events.map((e) => e.ts! + (e.dur ?? 0)));
  const period = (last - first) * 1.05;
  const maxId =
    Math.max(
      0,
      ...events.map((e) =>
        Math.max(Number(e.args?.['correlation'] ?? 0), Number(e.id ?? 0), Number(e.args?.['External id'] ?? 0)),
      ),
    ) + 1;
  const fd = openSync(path, 'w');
  let bytes = writeSync(fd, `{"traceEvents":[\n${metadata.map((e) => JSON.stringify(e)).join(',\n')}`);
  let tiles = 0;
  while (bytes < sizeBytes) {
    const shift = tiles * period;
    const idShift = tiles * maxId;
    const factor = stretched ? 1 + (((tiles * 7919) % 1000) / 1000 - 0.5) * 0.04 : 1;
    const tile = events.map((e) => {
      const copy: ChromeEvent = { ...e, ts: e.ts! + shift };
      if (factor !== 1) {
        // start and end scaled and rounded to ns each, so a slice inside another stays inside it
        const start = ns((e.ts! - first) * factor);
        copy.ts = first + shift + start;
        if (typeof e.dur === 'number') copy.dur = ns(ns((e.ts! - first + e.dur) * factor) - start);
      }
      if (typeof e.id === 'number') copy.id = e.id + idShift;
      if (e.args && typeof e.args['correlation'] === 'number')
        copy.args = { ...e.args, correlation: e.args['correlation'] + idShift };
      return JSON.stringify(copy);
    });
    bytes += writeSync(fd, `,\n${tile.join(',\n')}`);
    tiles++;
  }
  bytes += writeSync(fd, '\n]}\n');
  closeSync(fd);
  return { bytes, tiles };
}

/** µs rounded to whole ns. */
const ns = (us: number): number => Math.round(us * 1000) / 1000;

/** Tiles a scanned model in memory until it has at least `minEvents` slices (for the frame-time bench). */
export function tileModel(model: TraceModel, minEvents: number): TraceModel {
  const copies = Math.max(1, Math.ceil(minEvents / model.count));
  const n = model.count * copies;
  let span = 0;
  for (let i = 0; i < model.count; i++) span = Math.max(span, model.start[i]! + model.dur[i]!);
  const period = span * 1.05;
  const out: TraceModel = {
    ...model,
    count: n,
    start: new Float64Array(n),
    dur: new Float64Array(n),
    track: new Uint32Array(n),
    name: new Uint32Array(n),
    kind: new Uint8Array(n),
    depth: new Uint16Array(n),
    correlation: new Float64Array(n),
    steps: [],
    kernelArgs: { slice: new Uint32Array(0), values: new Float64Array(0) },
    warnings: [],
  };
  // Keep the (track, depth, start) row order: for each source row, its copies follow each other in time.
  let k = 0;
  for (let i = 0; i < model.count; i++) {
    for (let c = 0; c < copies; c++, k++) {
      out.start[k] = model.start[i]! + c * period;
      out.dur[k] = model.dur[i]!;
      out.track[k] = model.track[i]!;
      out.name[k] = model.name[i]!;
      out.kind[k] = model.kind[i]!;
      out.depth[k] = model.depth[i]!;
      out.correlation[k] = model.correlation[i]! < 0 ? -1 : model.correlation[i]! + c * 1e6;
    }
  }
  for (let c = 0; c < copies; c++)
    for (const step of model.steps)
      out.steps.push({ start: step.start + c * period, end: step.end + c * period, label: `${step.label} ×${c}` });
  out.steps.sort((a, b) => a.start - b.start);
  return out;
}

if (require.main === module) {
  const [out, sizeMb, fixture] = process.argv.slice(2);
  if (!out || !sizeMb) {
    console.error('usage: gen-trace.ts OUT.json SIZE_MB [FIXTURE]');
    process.exit(2);
  }
  const started = performance.now();
  const { bytes, tiles } = generateTrace(out, Number(sizeMb) * 1024 * 1024, fixture);
  console.log(
    `${out}: ${(bytes / 1024 / 1024).toFixed(0)} MB, ${tiles} tiles, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
