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
  // a hit's diamond over its load's end, the guards' bar over it starting 0.8 px on (train_small at 400 px)
  assert.equal(
    markerGoesUp(
      147.5,
      [[33, 147.5]],
      [
        [11.4, 147.5],
        [148.3, 149.3],
      ],
    ),
    false,
  );
});

test("a diamond on the start of the bar above, in front of its lane's bars, goes up onto that bar (review 19X X2)", () => {
  // h100's recompile at 560 px: the FX graph cache miss at Inductor's start, 4.7 px before a 1.3-px lowering sliver;
  // it stayed in that lane, read as "◇ codegen 205 ms"
  assert.equal(
    markerGoesUp(
      186.4,
      [
        [191.1, 192.4],
        [192.4, 205.5],
      ],
      [[186.3, 205.8]],
    ),
    true,
  );
  // h100's first compile at 400 px: 6 px before an 8-px lowering bar
  assert.equal(
    markerGoesUp(
      80.4,
      [
        [86.3, 94.5],
        [94.6, 110.3],
      ],
      [[80.4, 110.5]],
    ),
    true,
  );
  // AOT Autograd's miss 0.2 px before its own bar, 1.8 px past the backend compile's start over it: its own
  assert.equal(markerGoesUp(178.7, [[178.9, 206.3]], [[176.9, 206.3]]), false);
  assert.equal(markerGoesUp(123.7, [[123.8, 142.8]], [[123.3, 142.8]]), false);
});

test('a diamond with no bar over it stays in its lane', () => {
  assert.equal(markerGoesUp(100, [[200, 300]], [[150, 400]]), false);
});
