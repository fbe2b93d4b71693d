// What "Open Trace Timeline" opens: a folder of rank traces, several files that are distinct ranks, traces to
// compare; what is left out is said. A report's `ranks` open as a rank set; restored sources are checked.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isTimelineSource } from '../../extension/node/timelineContent.ts';
import { MAX_COMPARE_PANES, MAX_RANK_PANES, resolveTimelineSelection } from '../../extension/node/timelineSelection.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { sentTraces } from '../sentTraces.ts';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const STRAGGLER = path.join(FIXTURES, 'traces/ranks/straggler');

/** A tiny trace; `rank` goes in its header as kineto writes it. */
function writeTrace(file: string, rank: number | null, worldSize = 2): string {
  const info =
    rank === null
      ? ''
      : `"distributedInfo": {"backend": "nccl", "rank": ${rank}, "world_size": ${worldSize}}, "host_name": "h", "baseTimeNanoseconds": 1790857026000000000, `;
  writeFileSync(
    file,
    `{${info}"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 5}]}`,
  );
  return file;
}

const tempDir = (): string => mkdtempSync(path.join(os.tmpdir(), 'cl-ranks-'));

describe('Open Trace Timeline selection', () => {
  test('a folder: its rank traces (by distributedInfo or name) in rank order; other files in it are not traces of it', async () => {
    const dir = tempDir();
    writeTrace(path.join(dir, 'host_b.123.pt.trace.json'), 1);
    writeTrace(path.join(dir, 'host_a.456.pt.trace.json'), 0);
    writeTrace(path.join(dir, 'rank2.json'), null);
    writeFileSync(path.join(dir, 'report.json'), '{"schemaVersion": "1.5"}');
    writeFileSync(path.join(dir, 'rank5.json'), '{"not": "a trace"}');
    writeFileSync(path.join(dir, 'notes.txt'), 'rank0');
    mkdirSync(path.join(dir, 'rank9.json')); // a folder named like a trace
    const { source, notes } = await resolveTimelineSelection([dir]);
    assert.deepEqual(source, {
      kind: 'ranks',
      tracePaths: ['host_a.456.pt.trace.json', 'host_b.123.pt.trace.json', 'rank2.json'].map((f) => path.join(dir, f)),
    });
    assert.deepEqual(notes, []);
  });

  test('more ranks than a timeline shows: the first ones, said; a rank given twice: the first, said', async () => {
    const dir = tempDir();
    for (let r = 0; r < MAX_RANK_PANES + 4; r++)
      writeTrace(path.join(dir, `trace_${String(r).padStart(2, '0')}.json`), r, MAX_RANK_PANES + 4);
    writeTrace(path.join(dir, 'trace_zz_again.json'), 3);
    const { source, notes } = await resolveTimelineSelection([dir]);
    assert.equal(source.kind, 'ranks');
    assert.equal(source.kind === 'ranks' && source.tracePaths.length, MAX_RANK_PANES);
    assert.deepEqual(notes, [
      'trace_zz_again.json is rank 3 too (as trace_03.json): not shown.',
      `Showing ranks 0–${MAX_RANK_PANES - 1} of the ${MAX_RANK_PANES + 4} rank traces: a timeline shows at most ${MAX_RANK_PANES} ranks. To see others, select their files and open those.`,
    ]);
  });

  test('a folder without rank traces is an error naming it', async () => {
    const dir = tempDir();
    writeTrace(path.join(dir, 'model.trace.json'), null);
    await assert.rejects(resolveTimelineSelection([dir]), (error: Error) =>
      error.message.startsWith(`No rank traces in ${dir}:`),
    );
  });

  test('files: distinct ranks open as ranks (in rank order); the same rank twice, or no rank, are compared', async () => {
    const dir = tempDir();
    const r1 = writeTrace(path.join(dir, 'a.json'), 1);
    const r0 = writeTrace(path.join(dir, 'b.json'), 0);
    assert.deepEqual((await resolveTimelineSelection([r1, r0])).source, { kind: 'ranks', tracePaths: [r0, r1] });
    const again = writeTrace(path.join(dir, 'c.json'), 0);
    assert.deepEqual((await resolveTimelineSelection([r0, again])).source, { kind: 'traces', tracePaths: [r0, again] });
    assert.deepEqual((await resolveTimelineSelection([r0])).source, { kind: 'traces', tracePaths: [r0] });
    const plain = Array.from({ length: MAX_COMPARE_PANES + 1 }, (_, k) =>
      writeTrace(path.join(dir, `t${k}.json`), null),
    );
    const compared = await resolveTimelineSelection(plain);
    assert.deepEqual(compared.source, { kind: 'traces', tracePaths: plain.slice(0, MAX_COMPARE_PANES) });
    assert.deepEqual(compared.notes, [
      `Showing the first ${MAX_COMPARE_PANES} of the ${MAX_COMPARE_PANES + 1} traces chosen: a timeline compares at most ${MAX_COMPARE_PANES}.`,
    ]);
  });

  test('a folder and a file that is no rank: the ranks, and the file left out, said', async () => {
    const dir = tempDir();
    writeTrace(path.join(dir, 'x.json'), 0);
    const other = writeTrace(path.join(tempDir(), 'eager.trace.json'), null);
    const { source, notes } = await resolveTimelineSelection([dir, other]);
    assert.deepEqual(source, { kind: 'ranks', tracePaths: [path.join(dir, 'x.json')] });
    assert.match(notes[0] ?? '', /^eager\.trace\.json is not a rank trace/);
  });
});

describe('rank sources', () => {
  test('restored state: ranks and traces need a list of paths; anything else is not reopened', () => {
    assert.ok(isTimelineSource({ kind: 'ranks', tracePaths: ['/a/rank0.json', '/a/rank1.json'] }));
    assert.ok(isTimelineSource({ kind: 'traces', tracePaths: ['/a.json'] }));
    assert.ok(isTimelineSource({ kind: 'report', reportPath: '/r/report.json' }));
    for (const bad of [
      null,
      {},
      { kind: 'ranks', tracePaths: [] },
      { kind: 'ranks', tracePaths: [1] },
      { kind: 'ranks' },
      { kind: 'folder', tracePaths: ['/a'] },
    ]) {
      assert.ok(!isTimelineSource(bad), JSON.stringify(bad));
    }
  });

  test("a report with ranks (the runner's torchrun report) opens its rank traces as a rank set, in rank order", async () => {
    const dir = tempDir();
    const report = JSON.parse(
      readFileSync(path.join(FIXTURES, 'reports/graphbreak-cpu/report.json'), 'utf8'),
    ) as Record<string, unknown>;
    copyFileSync(path.join(STRAGGLER, 'rank0.trace.json'), path.join(dir, 'r0.json'));
    copyFileSync(path.join(STRAGGLER, 'rank1.trace.json'), path.join(dir, 'r1.json'));
    writeTrace(path.join(dir, 'plain.json'), null);
    // extra per-rank fields are the runner's; the rank list, not the trace, says which rank a trace without a header is
    report['ranks'] = [
      { rank: 1, trace: 'r1.json', graphs: 2 },
      { rank: 0, trace: 'r0.json' },
      { rank: 2, trace: 'plain.json' },
      { rank: 3, trace: null },
    ];
    report['schemaVersion'] = '1.5';
    const reportPath = path.join(dir, 'report.json');
    writeFileSync(reportPath, JSON.stringify(report));
    const content = await readTimelineSource({ kind: 'report', reportPath });
    assert.deepEqual(
      content.panes.map((p) => [p.label, p.rank?.rank, p.rank?.rankFrom, p.compareTo]),
      [
        ['rank 0', 0, 'distributedInfo', null],
        ['rank 1', 1, 'distributedInfo', null],
        ['rank 2', 2, 'report', null],
      ],
    );
    assert.match(content.title, /3 ranks$/);
    assert.ok((await sentTraces(content)).every((m) => m.pane.rank !== undefined && m.pane.compareTo === null));
  });

  test('the schema refuses a rank entry without a rank', async () => {
    const dir = tempDir();
    const report = JSON.parse(
      readFileSync(path.join(FIXTURES, 'reports/graphbreak-cpu/report.json'), 'utf8'),
    ) as Record<string, unknown>;
    report['ranks'] = [{ trace: 'r0.json' }];
    const reportPath = path.join(dir, 'report.json');
    writeFileSync(reportPath, JSON.stringify(report));
    await assert.rejects(readTimelineSource({ kind: 'report', reportPath }), /ranks\/0/);
  });
});
