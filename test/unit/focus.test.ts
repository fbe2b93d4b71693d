// Which place a finding's "Show in timeline" shows (webview/focus.ts shownPlace): the first in the step the pane's view
// opens on or later, by the one opening rule (main.ts), so a focus and the opening view never show different steps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepLeads } from '../../webview/paneSteps.ts';
import { shownPlace } from '../../webview/focus.ts';

// three steps of 100 µs; a break's places at 10 µs into each
const steps = [0, 100, 200].map((start) => ({ start, end: start + 100 }));
const places = [10, 110, 210].map((startUs) => ({ startUs, durUs: 5 }));

test('a recording whose compare leaves out step 1: the view opens on step 2, and so does a focus', () => {
  // the opening rule: a pane whose compare leaves out its first step opens on the next
  const { opening, leads } = stepLeads([true], [null]);
  const opensOn = opening + leads[0]!;
  assert.equal(opensOn, 1);
  assert.equal(shownPlace(places, steps, opensOn), 1);
});

test("a job's ranks without a warm-up open on step 1, and a focus shows step 1's place, not step 2's", () => {
  const { opening, leads } = stepLeads([false, false], ['job', 'job']);
  assert.deepEqual(
    leads.map((lead) => shownPlace(places, steps, opening + lead)),
    [0, 0],
  );
});

test('a pane whose places all lie before the step its view opens on shows the first of all', () => {
  assert.equal(shownPlace(places.slice(0, 1), steps, 1), 0);
  // a comparison opening past a warm-up it holds in another pane: its one-step pane shows its one place
  assert.equal(shownPlace(places.slice(0, 1), steps.slice(0, 1), 1), 0);
});

test('a view that opens on its first step shows the first place, one before any step too, not the second', () => {
  // code read 12: a place before the first ProfilerStep (stepHolding -1) was skipped, the note then "the first of 2
  // places" over the second
  const early = [{ startUs: -50, durUs: 5 }, ...places.slice(0, 1)];
  assert.equal(shownPlace(early, steps, 0), 0);
  // past a step the view opens after, a place before any step is passed over with it
  assert.equal(shownPlace([...early, places[1]!], steps, 1), 2);
});
