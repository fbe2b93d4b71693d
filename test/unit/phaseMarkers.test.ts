// Which lane a cache lookup's diamond is drawn in (webview/phaseMarkers.ts): on or against a bar, never apart from
// every bar of its lane (review 18Z Z6: the FX graph cache miss 15 px left of the lowering bar, lined up with nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markerGoesUp } from '../../webview/phaseMarkers.ts';

// timeline.png at 2400 px: Inductor over 1166-1943 px, its cache miss at 1166, the lowering bar 15 px on, then codegen
const INDUCTOR: [number, number][] = [[1166, 1943]];
const LOWERING_LANE: [number, number][] = [
  [1181, 1188],
  [1188, 1940],
];

test("the FX graph cache's miss apart from the lowering bar goes up onto the Inductor bar it was made in", () => {
  assert.equal(markerGoesUp(1166, LOWERING_LANE, INDUCTOR), true);
});

test('a diamond against a bar of its lane stays there: the AOT Autograd bar it begins, the load from cache it ends', () => {
  // AOT Autograd's miss 0.3 px before its bar; a hit's diamond just past its 1-px load from cache
  assert.equal(markerGoesUp(470.7, [[471, 1940]], [[440, 1945]]), false);
  assert.equal(markerGoesUp(801.2, [[800, 801]], [[700, 900]]), false);
  // at a narrower track the miss touches the lowering bar: its lane is its own there
  assert.equal(markerGoesUp(583, [[588, 592]], [[583, 970]]), false);
});

test('a diamond with no bar over it stays in its lane', () => {
  assert.equal(markerGoesUp(100, [[200, 300]], [[150, 400]]), false);
});
