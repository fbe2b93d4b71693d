// An attached job that torchrun restarted: the earlier attempts in one sentence, printed by `inspect` before the notes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLogNotes, restartsText } from '../../extension/present/logsDigest.ts';
import type { EarlierAttempt } from '../../extension/shared/report.ts';

const failed = (attempt: number, rank: number | null, line: number | null): EarlierAttempt => ({
  attempt,
  folder: attempt ? `../job/attempt${attempt}` : '../job',
  status: 'partial',
  failedRank: rank,
  failedAt: line === null ? null : { file: '/cluster/proj/train.py', line },
  message: `Rank ${rank} failed`,
});

test('one restart names the attempt, the rank that failed it and the user line', () => {
  assert.equal(
    restartsText([failed(0, 1, 88)]),
    "restarted once: attempt 0 failed on rank 1 at train.py:88 (this report is attempt 1's; the earlier attempts' folders are kept)",
  );
});

test('several restarts say each attempt; an attempt with no failed rank or line says what is known', () => {
  assert.equal(
    restartsText([failed(0, 1, 88), failed(1, null, null), failed(2, 3, null)]),
    "restarted 3 times: attempt 0 failed on rank 1 at train.py:88; attempt 1 failed; attempt 2 failed on rank 3 (this report is attempt 3's; the earlier attempts' folders are kept)",
  );
  assert.match(restartsText([failed(0, 1, 88), failed(1, 0, 9)]) ?? '', /^restarted twice: /);
});

test('no restart: nothing said, and the notes start with what could not be placed', () => {
  assert.equal(restartsText(undefined), null);
  assert.equal(restartsText([]), null);
  assert.deepEqual(formatLogNotes({ jobRestarts: null, unmapped: [], warnings: ['x.log: empty, skipped'] }), [
    '  warnings:',
    '    x.log: empty, skipped',
  ]);
  assert.deepEqual(formatLogNotes({ jobRestarts: 'restarted once: attempt 0 failed', unmapped: [], warnings: [] }), [
    '  restarted once: attempt 0 failed',
  ]);
});
