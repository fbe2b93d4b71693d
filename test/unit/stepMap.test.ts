// Matching two traces' times by step (webview/analysis/stepMap.ts): a range over eager's long cold step 1 covers
// compiled's step 1, not its three shorter steps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameStepTime, stepsOverlapped } from '../../webview/analysis/stepMap.ts';

// eager: a 39 ms step 1, then 2 ms steps; compiled: an 8 ms step 1, then 1 ms steps (the review's traces, rounded)
const eager = [
  { start: 3000, end: 42000 },
  { start: 43000, end: 45000 },
  { start: 45000, end: 47000 },
];
const compiled = [
  { start: 9000, end: 17000 },
  { start: 18000, end: 19000 },
  { start: 19000, end: 20000 },
];

test('the same share of the same step on the other side', () => {
  assert.equal(sameStepTime(eager, compiled, 3000), 9000);
  assert.equal(sameStepTime(eager, compiled, 42000), 17000);
  // halfway through eager's step 1 is halfway through compiled's
  assert.equal(sameStepTime(eager, compiled, 22500), 13000);
  // a range over eager's step 1 covers compiled's step 1 only, not its three steps
  const [from, to] = [sameStepTime(eager, compiled, 3500), sameStepTime(eager, compiled, 41000)];
  assert.deepEqual(stepsOverlapped(compiled, from, to), { first: 1, last: 1 });
  assert.deepEqual(stepsOverlapped(eager, 3500, 41000), { first: 1, last: 1 });
});

test('between steps at the same share of the gap; before the first and after the last as far from it', () => {
  assert.equal(sameStepTime(eager, compiled, 42500), 17500);
  assert.equal(sameStepTime(eager, compiled, 2000), 8000);
  assert.equal(sameStepTime(eager, compiled, 47500), 20500);
  // a step the other side lacks: its last step's end
  assert.equal(sameStepTime([...eager, { start: 48000, end: 50000 }], compiled, 49000), 20000);
  assert.equal(stepsOverlapped(eager, 0, 2000), null);
});
