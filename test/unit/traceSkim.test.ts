// A big plain trace's first frame comes from a skim (node/trace/skim.ts) and the events of the view's window,
// parsed from their byte ranges (skimRead.ts): it must show exactly what the full model shows there, on real
// torch.profiler files (not in time order: CPU ops, then Python functions, then kernels), and files written in
// another key order must be read whole instead.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { generateTrace } from '../../bench/gen-trace.ts';
import { sendTraces, type TimelineContent } from '../../extension/node/timelineContent.ts';
import type { HostToWebview } from '../../extension/shared/protocol.ts';
import { readTraceFile, scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { windowRanges } from '../../extension/node/trace/skimParts.ts';
import { openTraceFile, skimFile as skimOf } from '../../extension/node/trace/skimRead.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import { TraceReading } from '../../extension/node/trace/traceReading.ts';
import { sliceWindow, viewWindow, type FirstView } from '../../extension/shared/trace/window.ts';
import { revived, type TraceMessage } from '../sentTraces.ts';

const FIXTURES = join(__dirname, '..', 'fixtures', 'traces');
const PLAIN = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
const VIEWS: (FirstView | null)[] = [
  null,
  { step: 1, domain: null },
  { step: 2, domain: [20, 90] },
  { step: 99, domain: null },
];
const dir = mkdtempSync(join(tmpdir(), 'compile-lens-skim-'));
/** A file's skim in one pass. */
const skimFile = (path: string) => skimOf(path, statSync(path).size, Infinity);
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What the timeline draws of a model: its slices with their names as text (a window parse holds only the names
 * of what it parsed, in another order), tracks without depths (a preview counts only its own slices' nesting).
 */
function drawn(model: TraceModel): unknown {
  return {
    ...model,
    names: null,
    name: Array.from(model.name, (id) => model.names[id]),
    tracks: model.tracks.map(({ maxDepth: _depth, ...rest }) => rest),
  };
}

/** A fixture's events written again, each with its keys in `order` (the others after them). */
function rewritten(file: string, order: string[], name: string): string {
  const trace = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { traceEvents: Record<string, unknown>[] };
  const events = trace.traceEvents.map((event) => {
    const out: Record<string, unknown> = {};
    for (const key of order) if (key in event) out[key] = event[key];
    return Object.assign(out, event);
  });
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ ...trace, traceEvents: events }));
  return path;
}

describe('first frame from a skim', () => {
  for (const file of PLAIN) {
    test(`${file}: the window parsed from the skim's byte ranges equals the full model's window, for several views`, async () => {
      const path = join(FIXTURES, file);
      const full = await scanTraceFile(path);
      const reader = await openTraceFile(path, 0);
      assert.ok(!(reader instanceof TraceReading), 'skimmed, not read whole');
      // the file's events, as the whole read counts them (the model leaves out compile phases' twins: phaseTwins.ts)
      assert.equal(reader.events, (await readTraceFile(path, Infinity)).events);
      for (const view of VIEWS) {
        const preview = await reader.preview(view);
        assert.ok(preview, `preview for ${JSON.stringify(view)}`);
        assert.deepStrictEqual(drawn(preview), drawn(sliceWindow(full, ...viewWindow(full.steps, view)!)));
      }
    });
  }

  test('the skim finds the steps, origin and slices the full read finds: ProfilerStep spans and repeated kernel sequences', async () => {
    for (const file of PLAIN) {
      const full = await scanTraceFile(join(FIXTURES, file));
      const skim = (await skimFile(join(FIXTURES, file)))!;
      assert.deepStrictEqual(
        [skim.steps, skim.stepSource, skim.origin, skim.events],
        [full.steps, full.stepSource, full.originUs, (await readTraceFile(join(FIXTURES, file), Infinity)).events],
        file,
      );
    }
    const sources = await Promise.all(
      ['cpu-graphbreak-eager.trace.json', 'mlp-default.trace.json'].map(
        async (f) => (await skimFile(join(FIXTURES, f)))!.stepSource,
      ),
    );
    assert.deepStrictEqual(sources, ['profiler', 'repetition']);
  });

  test('skimmed in two halves at once (a worker thread takes the second), the same steps, slices and tracks, and the same previews', async () => {
    for (const file of PLAIN) {
      const path = join(FIXTURES, file);
      const one = (await skimFile(path))!;
      const two = (await skimOf(path, statSync(path).size, 0))!;
      assert.ok(
        two.blocks.start.some((at, b) => at !== one.blocks.start[b]),
        `${file}: split (a block starts at the split)`,
      );
      assert.deepStrictEqual({ ...two, blocks: null }, { ...one, blocks: null }, file);
      const [whole, halves] = await Promise.all([openTraceFile(path, 0, Infinity), openTraceFile(path, 0, 0)]);
      for (const view of VIEWS)
        assert.deepStrictEqual(
          drawn((await halves.preview(view))!),
          drawn((await whole.preview(view))!),
          `${file} ${JSON.stringify(view)}`,
        );
    }
  });

  test("a real trace out of time order: a step's events come from byte ranges apart, not the file's head", async () => {
    const path = join(FIXTURES, 'mlp-default.trace.json');
    const text = readFileSync(path, 'utf8');
    // CPU ops first, then Python functions, then kernels: the first kernel is written after slices that start later
    assert.ok(text.indexOf('"cat": "python_function"') > text.lastIndexOf('"cat": "cpu_op"'));
    assert.ok(text.indexOf('"cat": "kernel"') > text.lastIndexOf('"cat": "python_function"'));
    const skim = (await skimFile(path))!;
    // the second call: the first (its compiled call's set-up included) is most of the trace
    const view = { step: 1, domain: null };
    const ranges = windowRanges(skim, ...viewWindow(skim.steps, view)!, statSync(path).size);
    assert.ok(ranges.length >= 2, `${ranges.length} ranges`);
    const preview = (await (await openTraceFile(path, 0)).preview(view))!;
    assert.ok(
      preview.kind.some((k, i) => preview.tracks[preview.track[i]!]!.gpu && k !== 0),
      'the window has its kernels',
    );
  });

  test('the window choice: a long trace is parsed only around the view (a small part of the file)', async () => {
    const path = join(dir, 'tiled.trace.json');
    const { bytes, tiles } = generateTrace(path, 4 * 1024 * 1024);
    const skim = (await skimFile(path))!;
    assert.equal(skim.steps.length, tiles * 3);
    const full = await scanTraceFile(path);
    assert.deepStrictEqual(skim.steps, full.steps);
    for (const view of [null, { step: 40, domain: null }, { step: 7, domain: [10, 60] as [number, number] }]) {
      const window = viewWindow(skim.steps, view)!;
      const parsed = windowRanges(skim, ...window, bytes).reduce((sum, [from, to]) => sum + to - from, 0);
      assert.ok(parsed < bytes / 20, `${parsed} of ${bytes} bytes parsed`);
      const preview = (await (await openTraceFile(path, 0)).preview(view))!;
      assert.deepStrictEqual(drawn(preview), drawn(sliceWindow(full, ...window)));
    }
  });

  test('another key order ("ph" not first, or "ts" after "args"): the skim gives up and the file is read whole', async () => {
    const sorted = rewritten(
      'mlp-default.trace.json',
      ['args', 'cat', 'dur', 'name', 'ph', 'pid', 'tid', 'ts'],
      'sorted-keys.trace.json',
    );
    const argsFirst = rewritten(
      'mlp-default.trace.json',
      ['ph', 'cat', 'name', 'pid', 'tid', 'args', 'ts', 'dur'],
      'args-before-ts.trace.json',
    );
    const kineto = rewritten(
      'mlp-default.trace.json',
      ['ph', 'cat', 'name', 'pid', 'tid', 'ts', 'dur', 'args'],
      'compact.trace.json',
    );
    const expected = await scanTraceFile(join(FIXTURES, 'mlp-default.trace.json'));
    for (const path of [sorted, argsFirst]) {
      assert.equal(await skimFile(path), null, path);
      const reader = await openTraceFile(path, 0);
      assert.ok(reader instanceof TraceReading, 'read whole');
      assert.deepStrictEqual(
        drawn(reader.preview(null)!),
        drawn(sliceWindow(expected, ...viewWindow(expected.steps, null)!)),
      );
    }
    // kineto's order without its whitespace (JSON.stringify's): skimmed
    assert.ok((await skimFile(kineto)) !== null);
  });

  test('a bare array of events (no traceEvents key), in two halves too: skimmed, the same preview', async () => {
    const trace = JSON.parse(readFileSync(join(FIXTURES, 'gpt_small-reduce-overhead.trace.json'), 'utf8')) as {
      traceEvents: unknown[];
    };
    const path = join(dir, 'bare.trace.json');
    writeFileSync(path, `[\n${trace.traceEvents.map((e) => JSON.stringify(e)).join(',\n')}\n]\n`);
    const full = await scanTraceFile(path);
    for (const parallelFrom of [Infinity, 0]) {
      const reader = await openTraceFile(path, 0, parallelFrom);
      assert.ok(!(reader instanceof TraceReading));
      const view = { step: 1, domain: null };
      assert.deepStrictEqual(
        drawn((await reader.preview(view))!),
        drawn(sliceWindow(full, ...viewWindow(full.steps, view)!)),
      );
    }
  });

  test('a truncated file: the skim gives up, the whole read shows what is there with its warning', async () => {
    const text = readFileSync(join(FIXTURES, 'mlp-default.trace.json'));
    const path = join(dir, 'cut.trace.json');
    writeFileSync(path, text.subarray(0, Math.floor(text.length * 0.6)));
    assert.equal(await skimFile(path), null);
    const model = await (await openTraceFile(path, 0)).model();
    assert.ok(model.warnings.some((w) => w.startsWith('truncated JSON')));
  });

  test('sent for a timeline: the preview first, then (once its first frame is drawn) the full trace, read whole once; a later preview is cut from it', async () => {
    const path = join(FIXTURES, 'graphbreak-eager.trace.json');
    const reading = openTraceFile(path, 0);
    const content: TimelineContent = {
      title: 't',
      source: { kind: 'traces', tracePaths: [path] },
      report: null,
      panes: [{ label: 'p', reading }],
    };
    const order: string[] = [];
    const sent: TraceMessage[] = [];
    const send = (m: HostToWebview): Promise<void> => {
      if (m.type === 'trace') {
        sent.push(revived(m));
        order.push(m.preview ? 'preview' : 'trace');
      }
      return Promise.resolve();
    };
    await sendTraces(content, { step: 1, domain: null }, send, 0, Infinity, () => {
      order.push('drawn');
      return Promise.resolve();
    });
    assert.deepStrictEqual(order, ['preview', 'drawn', 'trace'], "the whole read after the preview's first frame");
    const full = await scanTraceFile(path);
    assert.deepStrictEqual(
      sent.map((m) => [m.preview, m.events]),
      [
        [true, full.count],
        [false, full.count],
      ],
    );
    assert.deepStrictEqual(sent[1]!.pane.trace, full);
    const reader = await reading;
    assert.equal(await reader.model(), await reader.model(), 'read once');
    const again = (await reader.preview({ step: 1, domain: null }))!;
    assert.deepStrictEqual(drawn(again), drawn(sent[0]!.pane.trace));
    assert.deepStrictEqual(again.tracks, full.tracks, 'cut from the full model: its depths');
    assert.deepStrictEqual((await (await readTraceFile(path)).preview({ step: 1, domain: null }))!.steps, again.steps);
  });
});
