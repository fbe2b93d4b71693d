// A big trace's first frame is drawn from a preview: the slices around the view it opens at, cut from the raw
// columns before the full model is built. It must show exactly what the full model shows there.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { reportMessage, sendTraces } from '../../extension/node/timelineContent.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';
import {
  firstIsWarmUp,
  openingStep,
  overlapsWindow,
  sameSlice,
  sliceWindow,
  viewWindow,
  type FirstView,
} from '../../extension/shared/trace/window.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { readTraceFile, scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { sentMessages, sentTraces } from '../sentTraces.ts';
import { receiveRows, wholeTrace, withPackedRows, type Assembly } from '../../webview/opening.ts';
import { reviveModel } from '../../webview/reviveModel.ts';

const FIXTURES = join(__dirname, '..', 'fixtures', 'traces');
const TRACES = readdirSync(FIXTURES).filter((f) => /\.json(\.gz)?$/.test(f));
const VIEWS: (FirstView | null)[] = [
  null,
  { step: 1, domain: null },
  { step: 2, domain: [20, 90] },
  { step: 99, domain: null },
];

/** The model without its tracks' depths (a preview counts only its own slices' nesting). */
function withoutDepths(model: TraceModel): unknown {
  return { ...model, tracks: model.tracks.map(({ maxDepth: _depth, ...rest }) => rest) };
}

describe('preview of a trace', () => {
  for (const file of TRACES) {
    test(`${file}: the raw preview equals the full model's window, for several views`, async () => {
      const full = await scanTraceFile(join(FIXTURES, file));
      assert.ok(full.steps.length >= 3, 'fixture has steps (ProfilerStep or repeated kernels)');
      for (const view of VIEWS) {
        const preview = await (await readTraceFile(join(FIXTURES, file))).preview(view);
        assert.ok(preview, `preview for ${JSON.stringify(view)}`);
        const window = viewWindow(full.steps, view)!;
        const expected = sliceWindow(full, ...window);
        assert.ok(
          preview.count > 0 && (view?.domain ? preview.count < full.count : preview.count <= full.count),
          `a part: ${preview.count} of ${full.count}`,
        );
        assert.deepStrictEqual(withoutDepths(preview), withoutDepths(expected));
        preview.tracks.forEach((t, i) => assert.ok(t.maxDepth <= full.tracks[i]!.maxDepth));
      }
    });
  }

  test('after model() the preview is cut from the built model and keeps its track depths', async () => {
    const reading = await readTraceFile(join(FIXTURES, 'graphbreak-eager.trace.json'));
    const raw = (await reading.preview(null))!;
    const full = await reading.model();
    const fromModel = (await reading.preview(null))!;
    assert.deepStrictEqual(withoutDepths(fromModel), withoutDepths(raw));
    assert.deepStrictEqual(fromModel.tracks, full.tracks);
    assert.equal(reading.events, full.count);
  });

  test('sliceWindow keeps exactly the slices overlapping the window, with their kernel args', async () => {
    const full = await scanTraceFile(join(FIXTURES, 'mlp-reduce-overhead.trace.json'));
    const [from, to] = viewWindow(full.steps, { step: 1, domain: null })!;
    const part = sliceWindow(full, from, to);
    let overlapping = 0;
    for (let i = 0; i < full.count; i++) if (overlapsWindow(full.start[i]!, full.dur[i]!, from, to)) overlapping++;
    assert.equal(part.count, overlapping);
    for (let i = 0; i < part.count; i++) assert.ok(overlapsWindow(part.start[i]!, part.dur[i]!, from, to));
    assert.ok(part.kernelArgs.slice.length > 0);
    const fields = full.kernelArgs.values.length / full.kernelArgs.slice.length;
    part.kernelArgs.slice.forEach((slice, r) => {
      const inFull = full.kernelArgs.slice.indexOf(sameSlice(part, slice, full));
      assert.ok(inFull >= 0);
      assert.deepStrictEqual(
        part.kernelArgs.values.subarray(r * fields, (r + 1) * fields),
        full.kernelArgs.values.subarray(inFull * fields, (inFull + 1) * fields),
      );
    });
    assert.deepStrictEqual(part.warnings, []);
  });

  test('sameSlice finds every window slice in the full model, and -1 for a slice it does not have', async () => {
    const full = await scanTraceFile(join(FIXTURES, 'gpt_small-reduce-overhead.trace.json'));
    const part = sliceWindow(full, ...viewWindow(full.steps, { step: 2, domain: null })!);
    for (let i = 0; i < part.count; i++) {
      const k = sameSlice(part, i, full);
      assert.ok(k >= 0);
      assert.deepStrictEqual(
        [full.names[full.name[k]!], full.start[k], full.dur[k], full.track[k], full.depth[k]],
        [part.names[part.name[i]!], part.start[i], part.dur[i], part.track[i], part.depth[i]],
      );
    }
    const moved = { ...part, start: part.start.map((s) => s + 0.5) };
    assert.equal(sameSlice(moved, 0, full), -1);
  });

  test('viewWindow: the step (clamped) or the domain from its start, one width of margin each side; null without steps', () => {
    const steps = [
      { start: 0, end: 100, label: 'a' },
      { start: 200, end: 260, label: 'b' },
    ];
    // no saved view: the step after the warm-up (review 31 B2), not the first; a trace of one step, its only one
    assert.deepStrictEqual(viewWindow(steps, null), [140, 320]);
    assert.deepStrictEqual(viewWindow(steps.slice(0, 1), null), [-100, 200]);
    assert.deepStrictEqual(viewWindow(steps, { step: 5, domain: null }), [140, 320]);
    assert.deepStrictEqual(viewWindow(steps, { step: 1, domain: [10, 20] }), [200, 230]);
    assert.equal(viewWindow([], null), null);
  });
});

describe('messages of a timeline', () => {
  test("small traces are sent whole, one message each; past the threshold each pane's preview, then the full traces", async () => {
    const source = {
      kind: 'traces' as const,
      tracePaths: [join(FIXTURES, 'mlp-eager.trace.json'), join(FIXTURES, 'mlp-default.trace.json')],
    };
    const content = await readTimelineSource(source);
    const whole = await sentTraces(content);
    assert.deepStrictEqual(
      whole.map((m) => [m.index, m.panes, m.preview, m.events === m.pane.trace.count]),
      [
        [0, 2, false, true],
        [1, 2, false, true],
      ],
    );
    assert.equal(whole[0]!.title, 'mlp-eager.trace.json vs mlp-default.trace.json');
    // opened at the last call: the first call of mlp-default (its compile-time set-up) is most of the trace
    const sent = await sentTraces(content, { step: 2, domain: null }, 0);
    assert.deepStrictEqual(
      sent.map((m) => [m.index, m.preview]),
      [
        [0, true],
        [1, true],
        [0, false],
        [1, false],
      ],
    );
    for (const preview of sent.slice(0, 2)) {
      assert.equal(preview.events, whole[preview.index]!.pane.trace.count);
      assert.ok(preview.pane.trace.count < preview.events);
    }
    assert.deepStrictEqual(
      sent.slice(2).map((m) => m.pane.trace),
      whole.map((m) => m.pane.trace),
    );
  });

  test('a big trace beside a small one: the small one is sent whole, and only once', async () => {
    const source = {
      kind: 'traces' as const,
      tracePaths: [join(FIXTURES, 'mlp-eager.trace.json'), join(FIXTURES, 'graphbreak-eager.trace.json')],
    };
    const content = await readTimelineSource(source);
    const threshold = (await content.panes[1]!.reading).events;
    assert.ok((await content.panes[0]!.reading).events < threshold);
    const sent = await sentTraces(content, null, threshold);
    assert.deepStrictEqual(
      sent.map((m) => [m.index, m.preview]),
      [
        [0, false],
        [1, true],
        [1, false],
      ],
    );
    assert.ok(sent[1]!.pane.trace.count < sent[1]!.events);
    assert.equal(sent[2]!.pane.trace.count, sent[2]!.events);
  });

  test("a full trace in parts: its rows in 'rows' messages, the last ones in its 'trace'; put together, the model", async () => {
    const path = join(FIXTURES, 'mlp-default.trace.json');
    const model = await scanTraceFile(path);
    const sent = await sentMessages(await readTimelineSource({ kind: 'traces', tracePaths: [path] }), null, 0, 300);
    assert.deepStrictEqual(
      sent.map((m) => (m.type === 'rows' ? `rows ${m.from}` : `${m.preview ? 'preview' : 'trace'} from ${m.from}`)),
      [
        'preview from 0',
        ...Array.from({ length: Math.ceil(model.count / 300) - 1 }, (_, k) => `rows ${k * 300}`),
        `trace from ${Math.floor((model.count - 1) / 300) * 300}`,
      ],
    );
    // put together as the webview does: each part unpacked into the whole columns, the last one's with the trace
    let assembly: Assembly | null = null;
    for (const m of sent.slice(1, -1)) {
      assert.ok(m.type === 'rows' && m.count === model.count);
      assembly = receiveRows(assembly, await withPackedRows(m));
      assert.equal(assembly?.next, m.from + 300);
    }
    const last = sent.at(-1)!;
    assert.ok(last.type === 'trace' && !last.preview);
    assert.deepStrictEqual(reviveModel(wholeTrace(assembly, last).pane.trace), model);
    // a part out of turn is refused, and the trace then says rows are missing
    const [first, second] = await Promise.all(
      [sent[1]!, sent[2]!].map((m) => withPackedRows(m as Extract<typeof m, { type: 'rows' }>)),
    );
    assert.ok(first && second);
    const skipped = receiveRows(receiveRows(null, first), { ...second, from: second.from + 300 });
    assert.equal(skipped, null);
    assert.throws(() => wholeTrace(skipped, last), /rows missing/);
  });

  test('each trace is sent as soon as it is read: the first before the second is read', async () => {
    const source = {
      kind: 'traces' as const,
      tracePaths: [join(FIXTURES, 'mlp-eager.trace.json'), join(FIXTURES, 'mlp-default.trace.json')],
    };
    const content = await readTimelineSource(source);
    const order: string[] = [];
    content.panes.forEach((pane, p) => void pane.reading.then(() => order.push(`read ${p}`)));
    await sendTraces(content, null, (m) => {
      if (m.type === 'trace') order.push(`sent ${m.index}`);
      return Promise.resolve();
    });
    assert.deepStrictEqual(order, ['read 0', 'sent 0', 'read 1', 'sent 1']);
  });

  test('a trace that cannot be read: the panes before it are sent, then the error', async () => {
    const source = {
      kind: 'traces' as const,
      tracePaths: [
        join(FIXTURES, 'mlp-eager.trace.json'),
        join(FIXTURES, 'no-such.trace.json'),
        join(FIXTURES, 'mlp-default.trace.json'),
      ],
    };
    const content = await readTimelineSource(source);
    const sent: number[] = [];
    await assert.rejects(
      sendTraces(content, null, (m) => {
        if (m.type === 'trace') sent.push(m.index);
        return Promise.resolve();
      }),
      /no-such/,
    );
    assert.deepStrictEqual(sent, [0]);
  });

  test('a report: its eager and compiled traces, previewed and sent whole in the same order', async () => {
    // the report with the CPU traces it was written with (kept in fixtures/traces) beside it
    const dir = mkdtempSync(join(tmpdir(), 'compile-lens-window-'));
    copyFileSync(
      join(__dirname, '..', 'fixtures', 'reports', 'graphbreak-cpu', 'report.json'),
      join(dir, 'report.json'),
    );
    for (const mode of ['eager', 'default'])
      copyFileSync(join(FIXTURES, `cpu-graphbreak-${mode}.trace.json`), join(dir, `${mode}.trace.json`));
    const content = await readTimelineSource({ kind: 'report', reportPath: join(dir, 'report.json') });
    const sent = await sentTraces(content, { step: 1, domain: null }, 0);
    rmSync(dir, { recursive: true });
    assert.deepStrictEqual(
      sent.map((m) => [m.pane.label, m.preview]),
      [
        ['eager', true],
        ['default', true],
        ['eager', false],
        ['default', false],
      ],
    );
    assert.ok(content.report);
    assert.deepStrictEqual(reportMessage(content), {
      type: 'report',
      title: content.title,
      source: content.source,
      report: content.report,
      traces: 2,
    });
  });
});

test('a first step is the warm-up only where it is clearly longer than the later ones (review 9 D6)', () => {
  const steps = (...lengths: number[]): { start: number; end: number }[] =>
    lengths.map((len, k) => ({ start: k * 100_000, end: k * 100_000 + len }));
  // eager's 40 ms step 1 beside its 2 ms steps (review 31 B2): the view opens past it
  assert.equal(firstIsWarmUp(steps(40_000, 2_000, 2_100)), true);
  assert.equal(openingStep(steps(40_000, 2_000, 2_100)), 1);
  // a rank's trace begun at its step 2, its steps all ≈40 ms: no warm-up, the view opens on its first
  assert.equal(firstIsWarmUp(steps(40_200, 38_600, 40_800)), false);
  assert.equal(openingStep(steps(40_200, 38_600, 40_800)), 0);
  // one step: none
  assert.equal(firstIsWarmUp(steps(40_000)), false);
});
