// The report panel's rank table rows: slowest first by steady step when every rank has one, else rank order;
// the ranks an error divergence names marked (a cache warning does not).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rankTable } from '../../extension/present/rankTable.ts';
import type { RankEntry, Report } from '../../extension/shared/report.ts';

const region = (id: string, medianMs: number | null) => ({
  id,
  name: id,
  callCount: 6,
  steadyState: medianMs === null ? null : { fromCall: 4, medianMs },
});
const report = (ranks: RankEntry[], divergence: Report['divergence'] = []): Report =>
  ({ ranks, divergence }) as unknown as Report;

test("slowest first by the sum of its regions' steady calls, with its lead over the fastest", () => {
  const table = rankTable(
    report(
      [
        { rank: 0, regions: [region('r0', 1), region('r1', 1)] },
        { rank: 1, regions: [region('r1', 1.5), region('r0', 1)] },
        { rank: 2, regions: [region('r0', 1), region('r1', 1)] },
      ],
      [
        { kind: 'recompile', severity: 'error', message: 'rank 1 recompiled', ranks: [1] },
        { kind: 'cache', severity: 'warning', message: 'cache', ranks: [2] },
      ],
    ),
  );
  assert.equal(table.bySteps, true);
  assert.deepEqual(
    table.rows.map((r) => [r.digest.rank, r.stepMs, r.overFastest, r.diverged]),
    [
      [1, 2.5, 0.25, true],
      [0, 2, 0, false],
      [2, 2, 0, false],
    ],
  );
});

test('rank order without a steady step on every rank, or with different regions', () => {
  for (const ranks of [
    [
      { rank: 1, regions: [region('r0', 3)] },
      { rank: 0, regions: [region('r0', null)] },
    ],
    [
      { rank: 1, regions: [region('r0', 3)] },
      { rank: 0, regions: [region('r1', 1)] },
    ],
  ]) {
    const table = rankTable(report(ranks));
    assert.equal(table.bySteps, false);
    assert.deepEqual(
      table.rows.map((r) => [r.digest.rank, r.stepMs, r.overFastest]),
      [
        [0, null, null],
        [1, null, null],
      ],
    );
  }
});
