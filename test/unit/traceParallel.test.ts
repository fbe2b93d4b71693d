// Plain traces from PARALLEL_MIN_BYTES (160 MB) on are read in two halves at once (a worker thread takes the first half, merges
// the second into it and builds the model there): the model must equal a one-pass read exactly, warnings and their byte positions included.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { generateTrace } from '../../bench/gen-trace.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { previewOfModel, TraceReading } from '../../extension/node/trace/traceReading.ts';
import { partsOf, postedPieces, type PostedPiece } from '../../extension/node/trace/postedPieces.ts';
import { sliceWindow, viewWindow } from '../../extension/shared/trace/window.ts';
import { readTraceFile, scanTraceFile, traceScanInternals } from '../../extension/node/trace/scanner.ts';
import { inflateKernelArgs, inflateRows } from '../../webview/reviveModel.ts';

const FIXTURES = join(__dirname, '..', 'fixtures', 'traces');
const dir = mkdtempSync(join(tmpdir(), 'compile-lens-parallel-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Both reads of `path`; asserts the two-half read was used (or not) and gave the one-pass model. */
async function assertSameModel(path: string, expectParallel = true): Promise<void> {
  const onePass = await traceScanInternals.scanOnePass(path);
  const { model, parallel } = await traceScanInternals.scanParallel(path);
  assert.equal(parallel, expectParallel, `two-half read ${expectParallel ? 'not ' : ''}used for ${path}`);
  assert.deepStrictEqual(model, onePass);
}

test('every plain fixture read in two halves equals the one-pass read', async () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 5);
  for (const file of files) await assertSameModel(join(FIXTURES, file));
});

test('a tiled trace over the threshold goes parallel in scanTraceFile and equals the one-pass read', async () => {
  // the product's threshold (PARALLEL_MIN_BYTES, 160 MB) lowered to 4 MB: the same reads of a fortieth of the bytes
  const threshold = 4 * 1024 * 1024;
  const path = join(dir, 'tiled-over-threshold.trace.json');
  generateTrace(path, threshold + 256 * 1024);
  assert.ok(statSync(path).size >= threshold && statSync(path).size < traceScanInternals.PARALLEL_MIN_BYTES);
  assert.ok((await readTraceFile(path)) instanceof TraceReading, 'under the default threshold: one pass');
  const onePass = await traceScanInternals.scanOnePass(path);
  assert.deepStrictEqual(await scanTraceFile(path, threshold), onePass);
  const { parallel } = await traceScanInternals.scanParallel(path);
  assert.ok(parallel);
  assert.ok(onePass.count > 15_000, `${onePass.count} events`);
  // the preview of the first view, cut by the worker from the merged halves, is that view of the full model
  const reading = await readTraceFile(path, threshold);
  assert.ok(!(reading instanceof TraceReading), 'over the threshold given: read in two halves');
  assert.equal(reading.events, onePass.count);
  const preview = await reading.preview(null);
  assert.ok(preview && preview.count > 0 && preview.count < 1000);
  const expected = sliceWindow(onePass, ...viewWindow(onePass.steps, null)!);
  const withoutDepths = (m: TraceModel): unknown => ({
    ...m,
    tracks: m.tracks.map(({ maxDepth: _d, ...rest }) => rest),
  });
  assert.deepStrictEqual(withoutDepths(preview), withoutDepths(expected));
  // the model is built off this thread: work queued here after asking for it runs before it comes
  let ranMeanwhile = false;
  const building = reading.model();
  setImmediate(() => {
    ranMeanwhile = true;
  });
  const model = await building;
  assert.ok(ranMeanwhile, 'this thread ran while the model was built');
  assert.deepStrictEqual(model, onePass);
  assert.equal(await reading.model(), model, 'built once');
  // once the model is here (and the worker gone), a preview is cut from it
  assert.deepStrictEqual(await reading.preview(null), sliceWindow(model, ...viewWindow(model.steps, null)!));
  rmSync(path);
});

test('the model as posted comes from the worker part by part, as a one-pass build posts it, and stays there for what is asked next', async () => {
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))) {
    const path = join(FIXTURES, file);
    const onePass = await traceScanInternals.scanOnePass(path);
    const rowsPerPart = Math.ceil(onePass.count / 4);
    const expected = [...postedPieces(partsOf(onePass, rowsPerPart), onePass.count)];
    assert.ok(expected.length >= 4, file);
    const reading = (await traceScanInternals.readInHalves(path))!;
    const posted = async (): Promise<PostedPiece[]> => {
      const pieces: PostedPiece[] = [];
      for await (const piece of reading.posted(rowsPerPart)) pieces.push(piece);
      return pieces;
    };
    assert.deepStrictEqual(await posted(), expected, file);
    // a webview across a network link: the worker deflates the rows and the kernel args, which inflate to the same pieces
    const deflated: PostedPiece[] = [];
    for await (const piece of reading.posted(rowsPerPart, true)) deflated.push(piece);
    assert.ok(
      deflated.slice(0, -1).every((p) => 'rows' in p && 'deflated' in p.rows),
      file,
    );
    const last = deflated.at(-1)!;
    assert.ok('trace' in last && 'deflated' in last.trace.kernelArgs, file);
    const inflated = async (p: PostedPiece): Promise<PostedPiece> => {
      if ('rows' in p) return 'deflated' in p.rows ? { ...p, rows: await inflateRows(p.rows) } : p;
      return 'deflated' in p.trace.kernelArgs
        ? { ...p, trace: { ...p.trace, kernelArgs: await inflateKernelArgs(p.trace.kernelArgs) } }
        : p;
    };
    assert.deepStrictEqual(await Promise.all(deflated.map(inflated)), expected, file);
    // a webview shown again: the pieces and a preview come from the model the worker kept
    assert.deepStrictEqual(await posted(), expected, `${file}, posted again`);
    assert.deepStrictEqual(await reading.preview(null), previewOfModel(onePass, null), file);
    assert.deepStrictEqual(await reading.model(), onePass, file);
  }
});

test('a posting stopped after its first part leaves the worker answering in turn', async () => {
  const path = join(FIXTURES, 'gpt_small-reduce-overhead.trace.json');
  const onePass = await traceScanInternals.scanOnePass(path);
  const reading = (await traceScanInternals.readInHalves(path))!;
  let first: PostedPiece | null = null;
  for await (const piece of reading.posted(100)) {
    first = piece;
    break;
  }
  assert.ok(first && 'rows' in first && first.rows.count === 100);
  const preview = await reading.preview(null);
  assert.ok(preview && preview.count > 0);
  assert.deepStrictEqual(preview, previewOfModel(onePass, null));
  assert.deepStrictEqual(await reading.model(), onePass);
});

/** A trace of one event per line, so the split lands between events. */
const lines = (events: unknown[]): string =>
  `{"traceEvents":[\n${events.map((e) => JSON.stringify(e)).join(',\n')}\n], "displayTimeUnit": "ms"}\n`;
const slice = (i: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ph: 'X',
  cat: i % 3 === 0 ? 'kernel' : 'cpu_op',
  name: `op_${i % 17}`,
  pid: i % 3 === 0 ? 0 : 1,
  tid: i % 3 === 0 ? 7 : 1,
  ts: 1000 + i * 10,
  dur: 5,
  args: { correlation: i },
  ...extra,
});

test('problems, tracks, names, metadata and flows seen in both halves merge as one pass sees them', async () => {
  const events: unknown[] = [{ ph: 'M', name: 'thread_name', pid: 1, tid: 1, args: { name: 'main' } }];
  for (let i = 0; i < 400; i++) {
    if (i % 50 === 3)
      events.push(slice(i, { dur: undefined })); // no dur: drawn as 0, counted
    else if (i % 70 === 5) events.push({ ph: 'X', name: 'bad ts', pid: 1, tid: 1, ts: 'x', dur: 1 });
    else if (i === 300) events.push(slice(i, { pid: 'host', tid: 'second-half only', name: 'late name' }));
    else if (i === 310) events.push({ ph: 'M', name: 'thread_name', pid: 1, tid: 1, args: { name: 'renamed later' } });
    else if (i === 320) events.push({ ph: 'M', name: 'process_sort_index', pid: 0, args: { sort_index: -5 } });
    else if (i === 330) events.push({ ph: 'Q', name: 'odd phase', pid: 1, tid: 1, ts: 1 });
    else events.push(slice(i));
    if (i % 40 === 0) {
      events.push({ ph: 's', id: i, pid: 1, tid: 1, ts: 1000 + i * 10 + 1, cat: 'ac2g' });
      events.push({ ph: 'f', id: i, pid: 0, tid: 7, ts: 1000 + i * 10 + 1, cat: 'ac2g', bp: 'e' });
    }
    if (i === 20 || i === 380) events.push({ ph: 's', id: 9999, pid: 1, tid: 1, ts: 1000 + i * 10 + 1 }); // duplicate across halves
    if (i === 10) events.push({ ph: 's', id: 8888, pid: 1, tid: 1, ts: 1101 }); // duplicate inside the first half
    if (i === 12) events.push({ ph: 's', id: 8888, pid: 1, tid: 1, ts: 1121 });
    if (i === 390) events.push({ ph: 'f', id: 7777, pid: 0, tid: 7, ts: 1000 + i * 10 + 1 }); // end without start
  }
  const path = join(dir, 'mixed.trace.json');
  writeFileSync(path, lines(events));
  await assertSameModel(path);
  const model = await traceScanInternals.scanOnePass(path);
  assert.ok(model.warnings.some((w) => w.includes('duplicate flow start id')));
  assert.ok(model.tracks.some((t) => t.tid === 'second-half only'));
});

test('truncation and syntax errors in the second half keep their byte positions', async () => {
  const text = lines(Array.from({ length: 600 }, (_, i) => slice(i)));
  const truncated = join(dir, 'truncated.trace.json');
  writeFileSync(truncated, text.slice(0, Math.floor(text.length * 0.9)));
  await assertSameModel(truncated);
  const cutBetween = join(dir, 'cut-between.trace.json');
  writeFileSync(cutBetween, text.slice(0, text.lastIndexOf(',\n', text.length * 0.9) + 2));
  await assertSameModel(cutBetween);
  const broken = join(dir, 'broken.trace.json');
  const at = text.indexOf('"ph":', Math.floor(text.length * 0.8));
  writeFileSync(broken, `${text.slice(0, at)}"ph" "X",${text.slice(at + 9)}`);
  const model = await traceScanInternals.scanOnePass(broken);
  assert.ok(
    model.warnings.some((w) => w.includes(`at byte ${at + 5}`)),
    model.warnings.join('\n'),
  );
  await assertSameModel(broken);
  const trailing = join(dir, 'trailing.trace.json');
  writeFileSync(trailing, `${text}  {"more": 1}`);
  await assertSameModel(trailing);
});

test('where a merge could differ from one pass (cross-half duplicate flow start first, invalid UTF-8 name), the file is read in one pass', async () => {
  const events: unknown[] = Array.from({ length: 400 }, (_, i) => slice(i));
  events.splice(20, 0, { ph: 's', id: 5, pid: 1, tid: 1, ts: 1201 });
  events.splice(380, 0, { ph: 's', id: 5, pid: 1, tid: 1, ts: 4801 });
  const duplicate = join(dir, 'duplicate.trace.json');
  writeFileSync(duplicate, lines(events));
  await assertSameModel(duplicate, false);

  const text = lines(Array.from({ length: 400 }, (_, i) => slice(i)));
  const at = text.indexOf('"op_', Math.floor(text.length * 0.8)) + 1;
  const bytes = Buffer.from(text, 'latin1');
  bytes[at] = 0xff; // "\xffp_N": not UTF-8
  const invalid = join(dir, 'invalid-utf8.trace.json');
  writeFileSync(invalid, bytes);
  await assertSameModel(invalid, false);
  assert.ok((await traceScanInternals.scanOnePass(invalid)).warnings.some((w) => w.includes('not valid UTF-8')));
});

test('a file with no event start after the split point is read in one pass', async () => {
  const path = join(dir, 'one-line.trace.json');
  writeFileSync(
    path,
    readFileSync(join(FIXTURES, 'mlp-eager.trace.json'), 'utf8')
      .replace(/\n/g, ' ')
      .replace(/,\s*\{/g, ',{'),
  );
  // still parallel: ',{' is a split point too; a file of one event is not
  await assertSameModel(path);
  const single = join(dir, 'single.trace.json');
  writeFileSync(single, lines([slice(1)]));
  await assertSameModel(single, false);
});
