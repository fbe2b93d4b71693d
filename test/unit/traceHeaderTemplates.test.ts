// The skim and the full read read a slice header like a recent one's by comparing its bytes but for the name,
// ts and dur (node/trace/headerTemplates.ts). Any other byte that differs — a tid, a pid of another length, the
// cat, a key between them or after the args, a value of another type — must give what walking every key gives,
// and a ts or dur that is not a number must still make the skim give up; in kineto's spacing and in
// JSON.stringify's.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readRange, scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { openTraceFile, skimFile } from '../../extension/node/trace/skimRead.ts';
import { buildModel } from '../../extension/node/trace/buildModel.ts';
import { TraceScanner } from '../../extension/node/trace/byteScanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { TraceReading } from '../../extension/node/trace/traceReading.ts';
import { sliceWindow, viewWindow } from '../../extension/shared/trace/window.ts';

const dir = mkdtempSync(join(tmpdir(), 'compile-lens-skim-header-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Event = Record<string, unknown>;
const op = (name: string, ts: number, extra: Event = {}): Event => ({
  ph: 'X',
  cat: 'cpu_op',
  name,
  pid: 1661,
  tid: 1661,
  ts,
  dur: 5,
  args: { 'External id': ts },
  ...extra,
});

/** Slices that share most of their header with the one before, each differing in one place. */
function events(): Event[] {
  const out: Event[] = [
    { ph: 'X', cat: 'user_annotation', name: 'ProfilerStep#1', pid: 1661, tid: 1661, ts: 1000, dur: 500, args: {} },
    { ph: 'X', cat: 'user_annotation', name: 'ProfilerStep#2', pid: 1661, tid: 1661, ts: 1500, dur: 500, args: {} },
  ];
  for (let i = 0; i < 40; i++) {
    const ts = 1000 + i * 25;
    out.push(
      op(`aten::mm${i % 3}`, ts),
      op('aten::mm', ts + 1, { tid: 1662 }), // another thread
      op('gemm_1', ts + 1.5, { tid: 1662, cat: 'kernel' }), // a cat of the same length: a kernel there
      op('aten::mm', ts + 2, { pid: 16610 }), // a pid of another length
      op('aten::mm', ts + 3, { cat: 'python_function' }),
      op('a "quoted" name', ts + 4),
      op('aten::add', ts + 5, { pid: 'host', tid: 'main' }), // text ids
      {
        ph: 'X',
        cat: 'cuda_runtime',
        name: 'cudaLaunchKernel',
        pid: 1661,
        tid: 1661,
        ts: ts + 6,
        dur: 3,
        args: { correlation: 100 + i },
      },
      {
        ph: 'X',
        cat: 'kernel',
        name: `gemm_${i % 2}`,
        pid: 0,
        tid: 7 + (i % 2) * 6,
        ts: ts + 8,
        dur: 4,
        args: { correlation: 100 + i, stream: 7 },
      },
    );
    // a key between tid and ts: the header is walked
    out.push({ ph: 'X', cat: 'cpu_op', name: 'aten::mm', pid: 1661, tid: 1661, id: i, ts: ts + 9, dur: 1, args: {} });
  }
  return out;
}

/** Events the full read must read as walking their keys would, once headers like theirs are known. */
function unlikeTheirTemplate(): Event[] {
  return [
    op('aten::mm', 2000, { ph: 'B' }), // another phase, in a header otherwise like a known one
    op('aten::mm', 2001, { ts: '2001' }), // a ts that is text
    op('aten::mm', 2002, { dur: null }), // a dur that is not a number
    op('aten::mm', 2003, { args: [1] }), // args that are not an object
    op('aten::mm', 2004, { args: { 'External id': 'x', nested: { correlation: 9 } } }), // args hostArgs does not read whole
    op('aten::mm', 2005, { cat: 7 }), // a cat that is not a string
    op('aten::mm', 2006, { name: 12 }), // a name that is not a string
    { ...op('aten::mm', 2007), id: 3 }, // a key after the args
    {
      ph: 'X',
      cat: 'kernel',
      name: 'gemm_0',
      pid: 0,
      tid: 7,
      ts: 2008,
      dur: 4,
      args: { correlation: 140, grid: [1, 2, 3], stream: 7 },
    },
  ];
}

/** A scanner that walks every key of every event, as the reference. */
class WalkingScanner extends TraceScanner {
  protected override readHeaders = false;
}

/** The model of the file read with `scanner`. */
async function modelOf(path: string, scanner: TraceScanner): Promise<TraceModel> {
  await readRange(path, scanner, 0, Infinity);
  return buildModel(scanner.end());
}

/** A trace of `list` in kineto's key order, spaced as kineto writes it or as JSON.stringify does. */
function write(name: string, list: Event[], spaced: boolean): string {
  const text = (e: Event): string =>
    spaced
      ? `  {\n    ${Object.entries(e)
          .map(([k, v]) => `"${k}": ${JSON.stringify(v)}`)
          .join(', ')}\n  }`
      : JSON.stringify(e);
  const path = join(dir, name);
  writeFileSync(path, `{"traceEvents": [\n${list.map(text).join(',\n')}\n]}\n`);
  return path;
}

/** The model as the timeline draws it (see traceSkim.test.ts): names as text, tracks without depths. */
function drawn(model: TraceModel): unknown {
  return {
    ...model,
    names: null,
    name: Array.from(model.name, (id) => model.names[id]),
    tracks: model.tracks.map(({ maxDepth: _depth, ...rest }) => rest),
  };
}

for (const spaced of [true, false]) {
  const style = spaced ? "kineto's spacing" : "JSON.stringify's";
  test(`headers that differ from the last one in a tid, pid, cat or key read as the full read reads them (${style})`, async () => {
    const path = write(`shapes-${spaced}.json`, events(), spaced);
    const full = await scanTraceFile(path);
    const skim = (await skimFile(path, statSync(path).size, Infinity))!;
    assert.ok(skim, 'skimmed');
    assert.deepStrictEqual([skim.events, skim.origin, skim.steps], [full.count, full.originUs, full.steps]);
    assert.deepStrictEqual(
      skim.tracks.map((t) => [t.pid, t.tid, t.gpu]).sort(),
      // the trace's threads: the model's tracks less the Python stack track it gives each CPU thread
      full.tracks
        .filter((t) => !t.stack)
        .map((t) => [t.pid, t.tid, t.gpu])
        .sort(),
    );
    assert.deepStrictEqual([...skim.graphLaunches], []);
    const reader = await openTraceFile(path, 0, Infinity);
    for (const view of [null, { step: 1, domain: null }]) {
      assert.deepStrictEqual(
        drawn((await reader.preview(view))!),
        drawn(sliceWindow(full, ...viewWindow(full.steps, view)!)),
      );
    }
  });

  test(`the full read gives what walking every key gives, for headers like a known one and unlike it (${style})`, async () => {
    const list = events();
    list.splice(30, 0, ...unlikeTheirTemplate());
    const path = write(`full-${spaced}.json`, [...list, ...unlikeTheirTemplate()], spaced);
    const walked = await modelOf(path, new WalkingScanner());
    assert.ok(walked.warnings.length > 0 && walked.count > 400, 'the odd events were read and noted');
    assert.deepStrictEqual(await modelOf(path, new TraceScanner()), walked);
  });

  test(`a ts or dur that is text, in a header otherwise like the last one: the skim gives up (${style})`, async () => {
    for (const key of ['ts', 'dur']) {
      const list = events();
      list.splice(60, 0, op('aten::mm', 1600, { [key]: '7' }));
      const path = write(`text-${key}-${spaced}.json`, list, spaced);
      assert.equal(await skimFile(path, statSync(path).size, Infinity), null, key);
      assert.ok((await openTraceFile(path, 0)) instanceof TraceReading, 'read whole');
    }
  });
}

test('the full read of the fixture traces gives what walking every key gives', async () => {
  const fixtures = join(__dirname, '..', 'fixtures', 'traces');
  const files = readdirSync(fixtures).filter((f) => f.endsWith('.trace.json'));
  assert.ok(files.length >= 8, 'the H100 and CPU fixtures');
  for (const file of files) {
    const path = join(fixtures, file);
    assert.deepStrictEqual(await modelOf(path, new TraceScanner()), await modelOf(path, new WalkingScanner()), file);
  }
});
