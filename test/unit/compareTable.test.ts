// The compare table's times: one unit in a table, its longest time's (review 8 A15: "0.225 ms", "0.0639 ms" and
// "161 µs" in one column, each row said in the unit of its own longer side).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tableTime, type ComparisonRow } from '../../webview/analysis/compare.ts';

const row = (metric: string, before: number, after: number, unit: ComparisonRow['unit'] = 'us'): ComparisonRow => ({
  metric,
  unit,
  before,
  after,
});

test("a compare table says every time in the unit of its longest, whatever each row's own longer side is", () => {
  const time = tableTime([
    row('step', 225, 3320),
    row('inside kernels', 63.9, 2900),
    row('outside kernels', 161, 420),
    row('kernels', 40000, 12, 'count'), // a count is no time: it sets no unit
  ]);
  assert.deepEqual([225, 3320, 63.9, 161, 420].map(time), ['0.225 ms', '3.32 ms', '0.0639 ms', '0.161 ms', '0.420 ms']);
  // a table of short times only: µs throughout
  const short = tableTime([row('step', 70.5, 381), row('outside kernels', 36.5, 327)]);
  assert.deepEqual([70.5, 381, 36.5].map(short), ['70.5 µs', '381 µs', '36.5 µs']);
});
