// One rounding rule for every number a user reads, the same in TypeScript and in the runner's sentences: the table in
// test/fixtures/numbers.json is what both sides must give (test/python/test_formats.py holds the runner to it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as numbers from '../../extension/present/numbers.ts';

const TABLE = JSON.parse(readFileSync(path.resolve(__dirname, '../fixtures/numbers.json'), 'utf8')) as Record<
  string,
  [unknown, string][]
>;

const FORMAT: Record<string, (input: never) => string> = {
  speedup: (v: number) => numbers.formatSpeedup(v),
  interval: ([low, high]: [number, number]) => numbers.formatInterval(low, high),
  speedupRange: ([speedup, low, high]: [number, number, number]) => numbers.formatSpeedupRange(speedup, low, high),
  ms: (v: number) => numbers.formatMs(v),
  seconds: (v: number) => numbers.formatSeconds(v),
  pct: (v: number) => numbers.formatPct(v),
  breakEven: ([n, unit]: [number, 'call' | 'step']) => numbers.formatBreakEven(n, unit),
  whole: (v: number) => numbers.formatWhole(v),
  count: (v: number) => numbers.formatCount(v),
  rate: (v: number) => numbers.formatRate(v),
  spread: (v: number) => numbers.formatSpread(v),
  memory: (v: number) => numbers.formatBytes(v),
  plural: ([n, word]: [number, string]) => numbers.plural(n, word),
  timesOfRatio: ([eager, compiled, speedup]: [number, number, number]) =>
    numbers.formatTimesOfRatio(eager, compiled, speedup).join(' | '),
};

test('every quantity formats as the shared table says (the runner is held to the same table)', () => {
  const quantities = Object.keys(TABLE).filter((k) => k !== 'about');
  assert.deepEqual(quantities.sort(), Object.keys(FORMAT).sort(), 'one table row set per formatting function');
  for (const quantity of quantities) {
    for (const [input, expected] of TABLE[quantity]!)
      assert.equal(FORMAT[quantity]!(input as never), expected, `${quantity}(${JSON.stringify(input)})`);
  }
});

test("a time axis's ticks read in the unit of their spacing: 40 ms, not 40,000 µs", () => {
  assert.deepEqual(numbers.formatTimeTicks([-20_000, 0, 20_000, 140_000]), ['−20 ms', '0 ms', '20 ms', '140 ms']);
  assert.deepEqual(numbers.formatTimeTicks([0, 50, 100]), ['0 µs', '50 µs', '100 µs']);
  assert.deepEqual(numbers.formatTimeTicks([0, 500, 1000]), ['0 µs', '500 µs', '1,000 µs']);
  assert.deepEqual(numbers.formatTimeTicks([0, 0.5, 1]), ['0.0 µs', '0.5 µs', '1.0 µs']);
  assert.deepEqual(numbers.formatTimeTicks([2_000_000, 2_500_000]), ['2,000 ms', '2,500 ms']);
  assert.deepEqual(numbers.formatTimeTicks([0, 1_000_000, 2_000_000]), ['0 s', '1 s', '2 s']);
});

test("an axis's ticks in the unit of the time it spans, where given: one view in one unit at every width (review 8B B6)", () => {
  const said = (ticks: number[], domainUs: number): string[] => ticks.map(numbers.timeOnTicks(ticks, domainUs));
  // a 3.6 ms view: "0.5 ms" ticks at a wide width, as "1 ms" ones at a narrow one, never "500 µs"
  assert.deepEqual(said([0, 500, 1000, 3500], 3600), ['0.0 ms', '0.5 ms', '1.0 ms', '3.5 ms']);
  assert.deepEqual(said([0, 1000, 2000, 3000], 3600), ['0 ms', '1 ms', '2 ms', '3 ms']);
  assert.deepEqual(said([0, 200, 400], 660), ['0 µs', '200 µs', '400 µs']);
  assert.deepEqual(said([0, 200_000, 400_000], 1_500_000), ['0.0 s', '0.2 s', '0.4 s']);
});

test("a trace's times in µs to three significant digits, as formatMs says every other time (review 4A F3)", () => {
  const said = (us: number): string => numbers.formatUs(us);
  // "437.6 µs → 412.1 µs" (four digits) and "1.20 ms → 0.53 ms" (two) in one panel
  assert.deepEqual([0, 0.5, 27.94, 437.6, 971.7].map(said), ['0 µs', '0.500 µs', '27.9 µs', '438 µs', '972 µs']);
  // every digit kept, a zero too: the profiler records to the nanosecond (review 12N N7: "2.4 µs" beside "6.51 µs")
  assert.deepEqual([2.4, 1.5, 6.51].map(said), ['2.40 µs', '1.50 µs', '6.51 µs']);
  // the rounded value decides the unit: "1000 µs" is four digits; its zeros are digits measured, as 1.73's are (review
  // 10G E11: "19 ms" beside "25.6 ms")
  assert.deepEqual([999.7, 1_731, 6_041_200, 1000].map(said), ['1.00 ms', '1.73 ms', '6.04 s', '1.00 ms']);
  assert.equal(said(-571.2), '−571 µs');
});

test("a range's ends in one unit, with the digits that make them add up, its length as every length; a row's times in one unit", () => {
  // the review's "1 ms – 39 ms … (37 ms)": 38 by eye
  assert.deepEqual(numbers.formatRangeEnds(1_420, 38_660, 'ms'), ['1.4 ms', '38.7 ms', '37.3 ms']);
  assert.deepEqual(numbers.formatRangeEnds(0, 420, 'µs'), ['0 µs', '420 µs', '420 µs']);
  assert.deepEqual(numbers.formatRangeEnds(7_800, 8_050, 'ms'), ['7.800 ms', '8.050 ms', '250 µs']);
  // review 4A F3: "(1,731 µs)" over the range, "1.73 ms" in its pair's title
  assert.deepEqual(numbers.formatRangeEnds(59, 1_790, 'µs'), ['59 µs', '1,790 µs', numbers.formatUs(1_731)]);
  assert.deepEqual(
    [13_000, 868.6, 0].map((us) => numbers.formatUsLike(us, 13_000)),
    ['13.0 ms', '0.869 ms', '0 ms'],
  );
  assert.equal(numbers.formatUsLike(531.4, 1_204), '0.531 ms');
  assert.equal(numbers.formatUsLike(868.6, 900), '869 µs');
  assert.equal(numbers.formatUsLike(525_000, 6_041_200), '0.525 s');
});

test('a shown time reads back as the microseconds it says, so a multiple of two is the one its reader works out', () => {
  assert.equal(numbers.shownUs('154 µs'), 154);
  assert.equal(numbers.shownUs('0.869 ms'), 869);
  assert.equal(numbers.shownUs('1.20 s'), 1.2e6);
  assert.equal(numbers.shownUs(numbers.formatUsLike(331.4, 1200)), 331);
  assert.equal(numbers.shownUs('0 µs'), 0);
});

test('a text cut into its times with their units and the rest, its text unchanged (review 16 X6)', () => {
  const text = '5 compiles (1 hit the recompile limit), 9.65 s, 2 cache hits, −1,200 µs in 3 steps and 0.5 ms';
  const parts = numbers.splitTimes(text);
  assert.equal(parts.map((p) => p.text).join(''), text);
  assert.deepEqual(
    parts.filter((p) => p.time).map((p) => p.text),
    ['9.65 s', '−1,200 µs', '0.5 ms'],
  );
  assert.deepEqual(numbers.splitTimes('2 steps'), [{ text: '2 steps', time: false }]);
});
