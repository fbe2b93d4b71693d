// "Show in timeline" in the webview: a finding's places (shared/trace/timelineMarks.targetSpans) in the first pane
// that has them (panes of the modes it was seen in first), zoomed to the first in the step its view opens on or later
// (past the step its compare leaves out, or a job's warm-up: main.ts's one opening rule), outlined, and said in a line
// above the panes (timelineWords.ts), the other panes showing the same code; where the traces hold none, that is said.
import { formatUs } from '../extension/present/numbers.ts';
import { targetSpans, type TimelineTarget } from '../extension/shared/trace/timelineMarks.ts';
import { el } from './panels.ts';
import { withoutNamespace } from './timelineText.ts';
import type { TimelineCanvas } from './timeline.ts';
import { focusFound, focusNotFound, paneMovedToCode, type PassedWhy } from './timelineWords.ts';
import { sameCode, sameStepTime, stepNumber } from './analysis/stepMap.ts';
import { stepHolding } from './paneSteps.ts';

/** Which of a pane's places (in start order) a focus shows: the first in the step its view opens on (`opensOn`, an
 *  index) or a later one, so a focus and the opening view never show different steps (review 11 I3: the view on
 *  step 1 above a table of steps 2–3); the first of all where none is, or where the view opens on its first step (a
 *  place before any step is shown, not passed over: code read 12). */
export function shownPlace(
  spans: readonly { startUs: number }[],
  steps: readonly { start: number }[],
  opensOn: number,
): number {
  if (opensOn <= 0) return 0;
  return Math.max(
    0,
    spans.findIndex((s) => stepHolding(steps, s.startUs) >= opensOn),
  );
}

/** Where it was found: the pane and how many places; null when nowhere. `opensOn`: per pane, the step index its view
 *  opens on, and `passed` why it opens past the ones before (the note says it where a place before was passed over). `alignStep` puts the pane's time 0 at
 *  the start of its step of that index, every other's at its step alike; `zoomTo` takes pane time. The note's times are said as every time is
 *  ("7.87 ms", "19.6 ms"), not in the zoomed axis's digits ("19,643 µs": review 5A G4). */
export function showTarget(
  target: TimelineTarget,
  panes: readonly { label: string; timeline: TimelineCanvas }[],
  opensOn: readonly number[],
  passed: PassedWhy,
  alignStep: (step: number, pane: number) => void,
  zoomTo: (from: number, to: number) => void,
): { pane: number; places: number } | null {
  const rank = (p: number): number => (target.modes.some((m) => panes[p]!.label.startsWith(m)) ? 0 : 1);
  const order = panes.map((_, p) => p).sort((a, b) => rank(a) - rank(b));
  for (const view of panes) view.timeline.focused = [];
  // the panes read on one clock, as the other panes are moved to the same code (no region's own fit: paneFit.ts)
  for (const view of panes) view.timeline.stretch = 1;
  const note = document.querySelector('.focus-note') ?? el('p', 'focus-note');
  document.querySelector('.panes')?.before(note);
  for (const p of order) {
    const timeline = panes[p]!.timeline;
    const spans = targetSpans(timeline.model, timeline.marks, target);
    if (!spans.length) continue;
    timeline.focused = spans;
    const steps = timeline.model.steps;
    const opening = opensOn[p] ?? 0;
    const shown = shownPlace(spans, steps, opening);
    const first = spans[shown]!;
    // time 0 at the start of the step that holds it: aligned on a later step, the axis would read negative times,
    // which it draws no ticks for
    const step = stepHolding(steps, first.startUs);
    if (step >= 0) alignStep(step, p);
    const start = first.startUs - timeline.offset;
    const pad = Math.max(first.durUs * 1.5, 20);
    const moved = alignOthers(panes, p, first);
    zoomTo(start - pad, start + first.durUs + pad);
    note.textContent = [
      focusFound(
        target.label,
        panes[p]!.label,
        formatUs(start),
        spans.length,
        shown && opening > 0
          ? { step: stepNumber(steps[opening - 1]!.label, opening), why: passedWhy(passed, timeline) }
          : null,
      ),
      ...moved.map((m) =>
        paneMovedToCode(
          {
            pane: panes[m.pane]!.label,
            name: m.name,
            inside: m.inside,
            at: formatUs(m.atUs),
            intoStep: formatUs(m.intoStepUs),
          },
          panes[p]!.label,
          m.step,
        ),
      ),
    ].join(' ');
    timeline.canvas.scrollIntoView({ block: 'center' });
    return { pane: p, places: spans.length };
  }
  note.textContent = focusNotFound(target.label, target.compileIds.length > 0);
  return null;
}

/** Why a pane's view opened past its first step, as its note says it: a rank's own warm-up, else the job's (its panes
 *  open on one step: a rank with none of its own opened past another's, code read 12). */
const passedWhy = (passed: PassedWhy, timeline: TimelineCanvas): PassedWhy =>
  passed === 'warm-up' && timeline.warmUpStep === null ? "job's warm-up" : passed;

/**
 * The other panes moved so the view shows them at the same code (stepMap.sameCode: eager's aten::item under the
 * break's eager code), else at the same share of the same step; not at the same time of their own axis, an
 * unrelated stretch of another step's work. The next step change or fit aligns them by step start again.
 */
function alignOthers(
  panes: readonly { timeline: TimelineCanvas }[],
  found: number,
  span: { startUs: number; durUs: number },
): { pane: number; name: string; inside: string | null; atUs: number; intoStepUs: number; step: number }[] {
  const here = panes[found]!.timeline;
  const moved: { pane: number; name: string; inside: string | null; atUs: number; intoStepUs: number; step: number }[] =
    [];
  for (const [q, { timeline }] of panes.entries()) {
    if (q === found) continue;
    const code = sameCode(here.model, span, timeline.model);
    const [at, there] = code
      ? [code.here, code.there]
      : here.model.steps.length && timeline.model.steps.length
        ? [span.startUs, sameStepTime(here.model.steps, timeline.model.steps, span.startUs)]
        : [null, null];
    if (at === null || there === null) continue;
    timeline.offset = there - (at - here.offset);
    // its axis now reads the found pane's time: the note says its code at that time (and where it is on its own
    // step), and it is outlined as the found places are, so the eye finds a 3 px op
    const step = timeline.model.steps.findIndex((s) => s.start <= there && there < s.end);
    const op = code ? opAt(timeline, code.name, there) : -1;
    if (code) timeline.focused = [{ startUs: there, durUs: op < 0 ? 0 : timeline.model.dur[op]! }];
    const outer = op < 0 ? op : timeline.outermostOp(op);
    if (code && step >= 0)
      moved.push({
        pane: q,
        // as its slice and the tables say it: "view", not "aten::view" (review 13 P5)
        name: timeline.sayName(code.name),
        inside: outer === op ? null : withoutNamespace(timeline.sliceName(timeline.model.name[outer]!)),
        atUs: at - here.offset,
        intoStepUs: there - timeline.model.steps[step]!.start,
        step: stepNumber(timeline.model.steps[step]!.label, step + 1),
      });
  }
  return moved;
}

/** The op `name` that starts at `startUs`, or -1 (the outline is then its least width). */
function opAt(timeline: TimelineCanvas, name: string, startUs: number): number {
  const { model } = timeline;
  const id = model.names.indexOf(name);
  for (let i = 0; i < model.count; i++) if (model.name[i] === id && model.start[i] === startUs) return i;
  return -1;
}
