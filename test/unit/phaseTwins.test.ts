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
import { openTraceFile } from '../../extension/node/trace/skimRead.ts';
import { previewOfModel, TraceReading } from '../../extension/node/trace/traceReading.ts';
import { compilePhaseWords } from '../../extension/shared/trace/compilePhaseWords.ts';
import type { RawTrace } from '../../extension/node/trace/rawTrace.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { cpuOp as X } from './traceEvents.ts';

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

/** The raw trace of a file (gzip or plain), not yet built. */
function readTraceBytes(file: string): RawTrace {
  const bytes = readFileSync(file);
  const scanner = new TraceScanner();
  scanner.push(file.endsWith('.gz') ? gunzipSync(bytes) : bytes);
  return scanner.end();
}

test("rank 1's recompile: each phase in one row, the forward's and the backward's both kept", async () => {
  const rows = phaseRows(await scanTraceFile(RANK1));
  assert.deepEqual(repeated(rows), []);
  // the 2 s recompile's rows, its twins gone: one "Dynamo: whole frame" and its forward and backward Inductor
  const recompile = rows.filter((r) => r.start > 60_000 && r.end - r.start > 100_000);
  assert.equal(recompile.filter((r) => r.words === 'Dynamo: whole frame').length, 1);
  assert.equal(recompile.filter((r) => r.words === 'Inductor').length, 2);
  assert.equal(recompile.find((r) => r.words === 'Inductor: load module')!.depth, 13);
});

/** compile_fx's "Inductor" around the forward's and the backward's inductor_compile, each with its twin. */
const FORWARD_AND_BACKWARD = [
  X('compile_fx', 0, 1000),
  X('inductor_compile', 10, 400),
  X('compile_fx_inner (dynamo_timed)', 12, 396),
  X('code_gen', 20, 300),
  X('inductor_compile', 500, 400),
  X('compile_fx_inner (dynamo_timed)', 502, 396),
];

/** A trace file of these events. */
function traceFile(events: object[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'twins-')), 'trace.json');
  writeFileSync(file, JSON.stringify({ traceEvents: events }));
  return file;
}

test('a phase said alike twice inside one is two phases, both kept; a twin inside each is left out', async () => {
  const rows = phaseRows(await scanTraceFile(traceFile(FORWARD_AND_BACKWARD)));
  assert.deepEqual(
    rows.map((r) => `${r.words} ${r.depth} ${r.start}`),
    ['Inductor 0 0', 'Inductor 1 10', 'Inductor 1 500', 'Inductor: codegen 2 20'],
  );
});

test("a preview whose window holds only the forward's Inductor keeps it, as the model does (review 35's code read, item 2)", async () => {
  // folded again on the window's slices, compile_fx held one "Inductor" there: it and its twin were both left out
  const steps = [X('ProfilerStep#0', 0, 2000, 2), X('ProfilerStep#1', 2000, 2000, 2)];
  const file = traceFile([...FORWARD_AND_BACKWARD, ...steps]);
  const view = { step: 0, domain: [100, 200] as [number, number] }; // the window [0, 300] µs
  const model = await scanTraceFile(file);
  const expected = phaseRows(previewOfModel(model, view)!);
  assert.deepEqual(
    expected.map((r) => `${r.words} ${r.depth} ${r.start}`),
    ['Inductor 0 0', 'Inductor 1 10', 'Inductor: codegen 2 20'],
  );
  const reading = new TraceReading(readTraceBytes(file));
  assert.deepEqual(phaseRows(reading.preview(view)!), expected, 'read whole');
  const skimmed = await openTraceFile(file, 0);
  assert.deepEqual(phaseRows((await skimmed.preview(view))!), expected, 'skimmed');
});

test("a trace posted in parts: each part's count is the model's, the pane's events the file's", () => {
  // the rows messages size the webview's columns: the count of rows before the twins were left out overran them
  const raw = readTraceBytes(RANK1);
  const events = raw.count;
  const reading = new TraceReading(raw, true);
  const counts = new Set<number>();
  for (const piece of reading.posted(500)) counts.add('rows' in piece ? piece.count : piece.trace.count);
  assert.deepEqual([...counts], [reading.model().count]);
  assert.ok(reading.model().count < events);
  assert.equal(reading.events, events);
});
