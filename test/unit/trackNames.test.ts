// Track names in the timeline's label column: told apart where a trace names tracks alike, and cut to the column
// so that what tells them apart still shows. Widths here are one px a character.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { collectiveThreads } from '../../webview/analysis/threadRoles.ts';
import { TrackRows } from '../../webview/timelineRows.ts';
import { idleTracksNote } from '../../webview/timelineWords.ts';
import { fitEnd, fitMiddle, type Measure } from '../../webview/timelineText.ts';
import { distinctTrackNames, fitNames, paneTrackNames } from '../../webview/trackNames.ts';
import { cpuOp, scanEvents, type TraceEvent } from './traceEvents.ts';

const chars: Measure = { width: (text) => text.length, ascent: 6, descent: 6 };
const track = (name: string, pid: string, tid: string, gpu = false) => ({ name, pid, tid, gpu });

test('tracks named alike say their thread id, their process id where that differs, else a number', () => {
  assert.deepEqual(
    distinctTrackNames([
      track('CPU · python3', '7', '7'),
      track('CPU · python3', '7', '9'),
      track('GPU 0 · stream 7', '0', '7', true),
      track('worker', '1', '3'),
      track('worker', '2', '4'),
      track('twin', '5', '5'),
      track('twin', '5', '5', true),
    ]),
    [
      'CPU · python3 (tid 7)',
      'CPU · python3 (tid 9)',
      'GPU 0 · stream 7',
      'worker (pid 1, tid 3)',
      'worker (pid 2, tid 4)',
      'twin #1',
      'twin #2',
    ],
  );
});

test('a long name loses its middle, between words, keeping more of its end', () => {
  assert.equal(fitMiddle('CPU · thread 28230 (pt_gloo_runloop)', 100, chars), 'CPU · thread 28230 (pt_gloo_runloop)');
  assert.equal(fitMiddle('process Spans · thread PyTorch Profiler', 32, chars), 'process … PyTorch Profiler');
  assert.equal(fitMiddle('CPU · thread 28230 (pt_gloo_runloop)', 32, chars), 'CPU · thread … (pt_gloo_runloop)');
  assert.ok(fitMiddle('abcdefghijklmnopqrstuvwxyz', 10, chars).length <= 10);
});

test('names that a cut would make alike keep where they differ', () => {
  const names = ['CPU · thread 28230 (pt_gloo_runloop)', 'CPU · thread 28231 (pt_gloo_runloop)'];
  const fitted = fitNames(names, 26, chars);
  assert.equal(new Set(fitted).size, 2, fitted.join(' | '));
  assert.deepEqual(fitted, ['…28230 (pt_gloo_runloop)', '…28231 (pt_gloo_runloop)']);
  for (const name of fitted) assert.ok(name.length <= 26, name);
});

test('a label cut at its end, or left out when too little would show', () => {
  assert.equal(fitEnd('ProfilerStep#2', 20, chars), 'ProfilerStep#2');
  assert.equal(fitEnd('ProfilerStep#2', 6, chars), 'Profi…');
  assert.equal(fitEnd('ProfilerStep#2', 2, chars), null);
});

test("the threads that run a backend's collectives by that role, alike on every rank; the loop's thread, which calls them, by its own name (review 8A A16)", async () => {
  const ranks = await Promise.all(
    ['rank0', 'rank1'].map((r) =>
      scanTraceFile(path.join(__dirname, '..', 'fixtures', 'traces', 'ranks', 'straggler', `${r}.trace.json`)),
    ),
  );
  const drawn = ranks.map((model) => {
    const roles = collectiveThreads(model);
    const shown = model.tracks.flatMap((t, k) => (t.stack ? [] : [k]));
    const names = paneTrackNames(model.tracks, shown, roles);
    return shown.map((k) => [names.drawn[k], names.whole[k]]);
  });
  // rank 0's OS named its gloo threads "python3" and "pt_gloo_runloop", rank 1's both "pt_gloo_runloop"
  assert.deepEqual(drawn, [
    [
      ['thread 28223 (python3)', 'thread 28223 (python3)'],
      ['gloo thread 28228', 'gloo thread 28228 (pt_gloo_runloop)'],
      ['gloo thread 28229', 'gloo thread 28229 (python3)'],
      ['profiled window', 'profiled window'],
    ],
    [
      ['thread 28224 (python3)', 'thread 28224 (python3)'],
      ['gloo thread 28230', 'gloo thread 28230 (pt_gloo_runloop)'],
      ['gloo thread 28231', 'gloo thread 28231 (pt_gloo_runloop)'],
      ['profiled window', 'profiled window'],
    ],
  ]);
});

test("a role's thread named alike with another: told apart as any, its whole name drawn", () => {
  const tracks = [track('thread 5 (w)', '1', '5'), track('thread 5 (w)', '2', '5')];
  assert.deepEqual(paneTrackNames(tracks, [0, 1], ['gloo', null]), {
    whole: ['gloo thread 5 (w)', 'thread 5 (w)'],
    drawn: ['gloo thread 5', 'thread 5 (w)'],
  });
  const twins = [track('thread 5 (w)', '1', '5'), track('thread 5 (w)', '2', '5')];
  assert.deepEqual(paneTrackNames(twins, [0, 1], ['gloo', 'gloo']).drawn, [
    'gloo thread 5 (w) (pid 1)',
    'gloo thread 5 (w) (pid 2)',
  ]);
});

test("a thread with other ops than a backend's collectives has no role: NCCL's record on the loop's thread, with no profiler step", () => {
  const op = (tid: number, name: string, ts: number): TraceEvent => cpuOp(name, ts, 5, tid);
  const model = scanEvents([
    op(1, 'aten::add', 0),
    op(1, 'nccl:all_reduce', 10),
    op(2, 'gloo:all_reduce', 0),
    op(2, 'gloo:broadcast', 10),
    op(3, 'gloo:all_reduce', 0),
    op(3, 'nccl:all_reduce', 10),
  ]);
  const roles = collectiveThreads(model);
  assert.deepEqual(
    model.tracks.flatMap((t, k) => (t.stack ? [] : [[t.tid, roles[k]]])),
    [
      ['1', null],
      ['2', 'gloo'],
      ['3', null],
    ],
  );
});

test('the row of the tracks idle in the view: one by its name, or its id, before a count that says not which (review 8B B12), said plainly (review 15W W7)', () => {
  const thread = { gpu: false, pid: '1', tid: '28229' };
  assert.deepEqual(idleTracksNote([thread], ['thread 28229 (python3)']), [
    'thread 28229 (python3): nothing here',
    'thread 28229: nothing here',
    '1 thread: nothing here',
  ]);
  assert.deepEqual(idleTracksNote([thread], ['gloo thread 28229']), [
    'gloo thread 28229: nothing here',
    '1 thread: nothing here',
  ]);
  // "profiler overhead idle here" read as the overhead idle
  assert.deepEqual(idleTracksNote([{ gpu: false, pid: '-1', tid: '0' }], ['profiler overhead']), [
    'profiler overhead: nothing here',
    '1 track: nothing here',
  ]);
  assert.deepEqual(idleTracksNote([thread, thread], ['a', 'b']), ['2 threads: nothing here']);
});

test('the tracks idle in a view keep their place: each run of them in one row where they are (review 15W W7)', () => {
  // threads 1 and 4 busy in [0, 10], threads 2 and 3 only later
  const model = scanEvents([
    cpuOp('aten::a', 0, 10, 1),
    cpuOp('aten::b', 20, 10, 2),
    cpuOp('aten::c', 20, 10, 3),
    cpuOp('aten::d', 0, 10, 4),
  ]);
  const rows = new TrackRows(model, 0);
  const tid = (t: number): string => model.tracks[t]!.tid;
  const order = (): string[] =>
    [
      ...rows.inView.map((t) => ({ y: rows.trackTop[t]!, said: tid(t) })),
      ...rows.idleRows.map((r) => ({ y: r.y, said: `idle ${r.tracks.map(tid).join(' ')}` })),
    ]
      .sort((a, b) => a.y - b.y)
      .map((r) => r.said);
  assert.deepEqual(order(), ['1', '2', '3', '4']);
  rows.showSlicesIn(0, 10, [0, 10]);
  assert.deepEqual(order(), ['1', 'idle 2 3', '4']);
  const idleRow = rows.idleRows[0]!;
  assert.deepEqual(rows.idleAt(idleRow.y + 1), rows.idleRows[0]!.tracks);
  assert.equal(rows.trackAt(idleRow.y + 1), -1, 'an idle row is no track of its own');
  rows.showSlicesIn(20, 30, [20, 30]);
  assert.deepEqual(order(), ['idle 1', '2', '3', 'idle 4']);
});
