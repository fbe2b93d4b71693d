// The steps in situ left out of its steady state, counted in words (no recorded fixture has an interleaved run's
// counts yet: these are the runner's keys, measure/interleaved.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepsLeftOut } from '../../extension/present/stepsLeftOut.ts';

test('a count and why, in words: one reason alone needs no second count; none left out says nothing', () => {
  assert.equal(
    stepsLeftOut({ 'warm-up': 0, switch: 0, 'first on its signature': 1, compiled: 0, observer: 0, 'ran eagerly': 0 }),
    '1 step left out: the first on its input shape (each side compiles or warms up there)',
  );
  assert.equal(
    stepsLeftOut({ switch: 9, observer: 1 }),
    "10 steps left out: 9 running across a switch between eager and compiled, 1 carrying Compile Lens's own bookkeeping",
  );
  assert.equal(stepsLeftOut({ switch: 0 }), null);
});
