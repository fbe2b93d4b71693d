// An attached job that torchrun restarted: the earlier attempts in the runner's sentence (report/rank_text.restarts,
// test_rank_text.py), printed by `inspect` before the notes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLogNotes, restartsText } from '../../extension/present/logsDigest.ts';
import type { EarlierAttempt, Report } from '../../extension/shared/report.ts';

const failed = (attempt: number, rank: number | null, line: number | null): EarlierAttempt => ({
  attempt,
  folder: attempt ? `../job/attempt${attempt}` : '../job',
  status: 'partial',
  failedRank: rank,
  failedAt: line === null ? null : { file: '/cluster/proj/train.py', line },
  message: `Rank ${rank} failed`,
});

test("an attached job's restarts: the runner's sentence (schema 1.27) as carried; before it, each attempt's fields", () => {
  const said =
    "restarted once: attempt 0 failed on rank 1 at train.py:88 (this report is attempt 1's; the earlier attempts' folders are kept)";
  const files: NonNullable<Report['logs']>['files'] = [];
  assert.equal(restartsText({ files, warnings: [], attempts: [failed(0, 1, 88)], restartsText: said }), said);
  assert.equal(
    restartsText({ files, warnings: [], attempts: [failed(0, 1, 88), failed(1, null, null)] }),
    'restarts: attempt 0 · status partial · failed rank 1 · at train.py:88; attempt 1 · status partial',
  );
});

test('no restart: nothing said, and the notes start with what could not be placed', () => {
  assert.equal(restartsText(undefined), null);
  assert.equal(restartsText({ files: [], warnings: [], attempts: [] }), null);
  assert.deepEqual(formatLogNotes({ jobRestarts: null, unmapped: [], warnings: ['x.log: empty, skipped'] }), [
    '  warnings:',
    '    x.log: empty, skipped',
  ]);
  assert.deepEqual(formatLogNotes({ jobRestarts: 'restarted once: attempt 0 failed', unmapped: [], warnings: [] }), [
    '  restarted once: attempt 0 failed',
  ]);
});
