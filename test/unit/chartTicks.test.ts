// The region and in-situ charts' y-axis ticks: one format on an axis (reportB D25: "10.0 ms / 1.00 ms / 0.10 ms").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { durationScale, durationTickLabels, durationTicks } from '../../webview/regionChart.ts';

test("a chart's duration ticks read in one format: a log axis's decades as short as they go, a linear axis's in one unit and precision", () => {
  assert.deepEqual(durationTickLabels([0.1, 1, 10], true), ['0.1 ms', '1 ms', '10 ms']);
  assert.deepEqual(durationTickLabels([10, 100, 1000, 10000], true), ['10 ms', '100 ms', '1 s', '10 s']);
  assert.deepEqual(durationTickLabels([0, 0.5, 1, 1.5], false), ['0.0 ms', '0.5 ms', '1.0 ms', '1.5 ms']);
  assert.deepEqual(durationTickLabels([0, 500, 1000, 1500], false), ['0.0 s', '0.5 s', '1.0 s', '1.5 s']);
  assert.deepEqual(durationTickLabels([0, 20, 40], false), ['0 ms', '20 ms', '40 ms']);
  // under 0.1 ms in µs, as every time is said (review 8 A15)
  assert.deepEqual(durationTickLabels([0.001, 0.01, 0.1, 1], true), ['1 µs', '10 µs', '0.1 ms', '1 ms']);
  assert.deepEqual(durationTickLabels([0, 0.02, 0.04, 0.06], false), ['0 µs', '20 µs', '40 µs', '60 µs']);
});

test("every duration on a log axis lies between two of its ticks (review 8 A17: a 0.5 ms call drawn under the lowest tick, '1 ms')", () => {
  for (const values of [
    [96.4, 0.5, 0.52, 0.61],
    [3640, 0.45, 180, 0.38],
    [1, 30, 2],
    [0.009, 0.2],
  ]) {
    const { y, logScale } = durationScale(values, [100, 0]);
    assert.ok(logScale, `${values.join(', ')}: a log scale`);
    const ticks = durationTicks(y, logScale);
    const [from, to] = y.domain() as [number, number];
    for (const v of values) {
      assert.ok(from < v && v < to, `${v} ms inside the axis [${from}, ${to}]`);
      assert.ok(Math.min(...ticks) <= v && v <= Math.max(...ticks), `${v} ms between the ticks ${ticks.join(', ')}`);
    }
  }
});
