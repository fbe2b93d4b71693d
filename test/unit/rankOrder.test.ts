// Which ranks of a large rank set are drawn first (the slowest and the fastest), and the order of the rest.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { meanWorkUs, slowestAndFastest } from '../../webview/analysis/rankOrder.ts';
import type { RankStepTable } from '../../webview/analysis/rankSteps.ts';

describe('slowestAndFastest', () => {
  test('the slowest half then the fastest half, slowest first; the rest slowest first, untimed last', () => {
    // pane p's time: 10 ranks, pane 7 the straggler, pane 2 the fastest, pane 5 untimed
    const times = [50, 40, 10, 45, 30, null, 35, 90, 20, 60];
    const order = slowestAndFastest(times, 4);
    assert.deepEqual(order.shown, [7, 9, 8, 2]);
    assert.deepEqual(order.rest, [0, 3, 1, 6, 4, 5]);
    assert.deepEqual(
      [...order.shown, ...order.rest].sort((a, b) => a - b),
      times.map((_, p) => p),
    );
  });

  test('ties keep rank order; an odd count shows one more slow rank than fast', () => {
    const order = slowestAndFastest([5, 5, 5, 5, 5, 5], 3);
    assert.deepEqual(order.shown, [0, 1, 5]);
    assert.deepEqual(order.rest, [2, 3, 4]);
  });

  test('no more timed ranks than shown: every timed rank, then the untimed up to the count', () => {
    assert.deepEqual(slowestAndFastest([null, 3, null, 7], 3), { shown: [3, 1, 0], rest: [2] });
  });
});

test("meanWorkUs: each pane's mean work over the steps it has", () => {
  const stat = (workUs: number) => ({ stepUs: 100, commUs: 0, overlappedUs: 0, workUs, unrecordedUs: 0 });
  const table: RankStepTable = {
    sides: ['gpu', 'gpu', 'cpu'],
    wholeTrace: false,
    rows: [
      { label: 'ProfilerStep#1', ranks: [stat(40), stat(90), null], slowest: null },
      { label: 'ProfilerStep#2', ranks: [stat(60), null, null], slowest: null },
    ],
  };
  assert.deepEqual(meanWorkUs(table), [50, 90, null]);
});
