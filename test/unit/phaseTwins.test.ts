// Each compile phase in one row of a rank's timeline (extension/node/trace/phaseTwins.ts): PyTorch's `dynamo_timed`
// records a phase twice, the one inside the other, and both are said alike (review 9E E4's rest: rank 1's 2 s
// recompile drew "Dynamo: whole frame", "backend compile", "Inductor: load module", … each in two stacked rows).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { TraceScanner } from '../../extension/node/trace/byteScanner.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { TraceReading } from '../../extension/node/trace/traceReading.ts';
import { compilePhaseWords } from '../../extension/shared/trace/compilePhaseWords.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';

const ROOT = path.join(__dirname, '..', '..');
const RANK1 = path.join(ROOT, 'test/fixtures/reports/ddp-ranks-cpu/ranks/rank1/rank1.trace.json.gz');

/** Each compile phase's words with its row and span, on track 0, by row then start. */
function phaseRows(model: TraceModel): { words: string; depth: number; start: number; end: number }[] {
  const rows: { words: string; depth: number; start: number; end: number }[] = [];
  for (let i = 0; i < model.count; i++) {
    const words = compilePhaseWords(model.names[model.name[i]!]!);
    if (words && model.track[i] === 0)
      rows.push({ words, depth: model.depth[i]!, start: model.start[i]!, end: model.start[i]! + model.dur[i]! });
  }
  return rows.sort((a, b) => a.depth - b.depth || a.start - b.start);
}

/** The phases directly around another said alike: a row that repeats the one above it. */
const repeated = (rows: ReturnType<typeof phaseRows>): string[] =>
  rows
    .filter((r) =>
      rows.some((o) => o.depth === r.depth - 1 && o.words === r.words && o.start <= r.start && r.end <= o.end),
    )
    .map((r) => `${r.words} at row ${r.depth}`);

test("rank 1's recompile: each phase in one row, the forward's and the backward's both kept", async () => {
  const rows = phaseRows(await scanTraceFile(RANK1));
  assert.deepEqual(repeated(rows), []);
  // the 2 s recompile's rows, its twins gone: one "Dynamo: whole frame" and its forward and backward Inductor
  const recompile = rows.filter((r) => r.start > 60_000 && r.end - r.start > 100_000);
  assert.equal(recompile.filter((r) => r.words === 'Dynamo: whole frame').length, 1);
  assert.equal(recompile.filter((r) => r.words === 'Inductor').length, 2);
  assert.equal(recompile.find((r) => r.words === 'Inductor: load module')!.depth, 13);
});

test('a phase said alike twice inside one is two phases, both kept; a twin inside each is left out', async () => {
  // compile_fx's "Inductor" around the forward's and the backward's inductor_compile, each with its twin
  const X = (name: string, ts: number, dur: number): object => ({
    ph: 'X',
    cat: 'cpu_op',
    name,
    pid: 1,
    tid: 1,
    ts,
    dur,
  });
  const events = [
    X('compile_fx', 0, 1000),
    X('inductor_compile', 10, 400),
    X('compile_fx_inner (dynamo_timed)', 12, 396),
    X('code_gen', 20, 300),
    X('inductor_compile', 500, 400),
    X('compile_fx_inner (dynamo_timed)', 502, 396),
  ];
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'twins-')), 'trace.json');
  writeFileSync(file, JSON.stringify({ traceEvents: events }));
  const rows = phaseRows(await scanTraceFile(file));
  assert.deepEqual(
    rows.map((r) => `${r.words} ${r.depth} ${r.start}`),
    ['Inductor 0 0', 'Inductor 1 10', 'Inductor 1 500', 'Inductor: codegen 2 20'],
  );
});

test("a trace posted in parts: each part's count is the model's, the pane's events the file's", () => {
  // the rows messages size the webview's columns: the count of rows before the twins were left out overran them
  const bytes = gunzipSync(readFileSync(RANK1));
  const scanner = new TraceScanner();
  scanner.push(bytes);
  const raw = scanner.end();
  const events = raw.count;
  const reading = new TraceReading(raw, true);
  const counts = new Set<number>();
  for (const piece of reading.posted(500)) counts.add('rows' in piece ? piece.count : piece.trace.count);
  assert.deepEqual([...counts], [reading.model().count]);
  assert.ok(reading.model().count < events);
  assert.equal(reading.events, events);
});
