import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RunSlot } from '../../extension/editor/runSlot.ts';

test('a second run is refused with the name of the first; the slot frees on release, once', () => {
  const slot = new RunSlot();
  const first = slot.take('mlp');
  assert.ok(first.ok);
  const second = slot.take('gpt');
  assert.ok(!second.ok && second.message.includes('(mlp) is already in progress'));
  first.release();
  const third = slot.take('gpt');
  assert.ok(third.ok);
  first.release(); // a stale release must not free the slot held by the third run
  assert.equal(slot.take('x').ok, false);
});
