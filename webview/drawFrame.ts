// A frame of the timeline: every pane drawn at the view's scale, at most once per animation frame however often a
// change asks, each pane's note said again (and the steps a rank came last in, after its title), the frame's time kept
// (debugView.ts), the host told a preview is drawn, and the compiler's marks found after the first frame.
import { stepsOverlapped } from './analysis/stepMap.ts';
import { post } from './hostApi.ts';
import { everyLevel, opsOffView, opsOffViewNote } from './offViewOps.ts';
import { fitsStep, paneScale, scaleSetters } from './paneFit.ts';
import { cameLastTitle } from './rankCameLast.ts';
import { drawAlike } from './paneSteps.ts';
import { LABEL_WIDTH } from './timelineText.ts';
import { onScaleOf, paneStepsNote } from './timelineWords.ts';
import { state } from './viewState.ts';

/** how many frames' times are kept */
const FRAME_HISTORY = 2000;

export function scheduleDraw(): void {
  if (state.pendingFrame) return;
  state.pendingFrame = requestAnimationFrame(() => {
    state.pendingFrame = 0;
    drawAll();
  });
}

/** Each pane's steps in view and its profiler caveat (timelineWords.paneStepsNote), in a step view fitted to its step
 *  (paneFit.fitsStep) whose pane's longer step sets its scale where that is another's (paneFit.scaleSetters), and
 *  where the view holds none of its ops where they are (offViewOps.ts), said again as the view moves. */
function paneNotes(): void {
  const [t0, t1] = state.current.domain() as [number, number];
  const notes = document.querySelectorAll<HTMLElement>('.pane .pane-note');
  const lengths = state.panes.map(({ timeline: { model, offset, shownStep } }) => {
    const step = shownStep === null || shownStep < 0 ? undefined : model.steps[shownStep];
    return step ? step.end - offset : 0;
  });
  // (a job's ranks are one clock by design: their notes say the steps they came last in, not whose scale; a view
  // zoomed away from Fit to step has its scale from the zoom, not from a pane's step)
  const setters =
    state.ranks || !fitsStep([t0, t1], Math.max(0, ...lengths.map((us, p) => us * state.panes[p]!.timeline.stretch)))
      ? state.panes.map(() => null)
      : scaleSetters(
          lengths,
          state.panes.map((pane) => pane.timeline.stretch),
        );
  state.panes.forEach((pane, p) => {
    const { model, offset, stretch } = pane.timeline;
    // the steps drawn: a step view's pane draws its own step alone
    const drawn = pane.timeline.drawnIn(t0 / stretch + offset, t1 / stretch + offset);
    const steps = paneStepsNote(
      drawn && stepsOverlapped(model.steps, ...drawn),
      model.steps,
      state.report?.profilerNote ?? null,
      pane.timeline.callsNamedByPlace,
      pane.timeline.warmUpStep,
    );
    const setter = setters[p];
    const scale = setter == null ? null : onScaleOf(state.panes[setter]!.label, setter, p, pane.label);
    // where its ops are when the view holds none of them (review 18Y Y3), said first: the pane reads empty
    const span = pane.timeline.drawnIn(-Infinity, Infinity);
    const off = span && opsOffView(model, everyLevel(model), [t0 / stretch + offset, t1 / stretch + offset], span);
    const parts = [...(off ? [opsOffViewNote(off, offset)] : []), steps, ...(scale ? [scale] : [])];
    const text = {
      text: parts.map((part) => part.text).join(' · '),
      tooltip: parts.map((part) => part.tooltip).join(' '),
    };
    const note = notes[p];
    if (note && note.textContent !== text.text) note.textContent = text.text;
    if (note && note.title !== text.tooltip) note.title = text.tooltip;
  });
}

/** After each rank's pane title, the steps it came last to a collective in (rankCameLast.ts), once every pane's
 *  compiler marks are found: what a rank waited for is known then, not before. */
function paneCameLast(): void {
  if (!state.panes.every((p) => p.timeline.marksFound)) return;
  const spans = document.querySelectorAll<HTMLElement>('.pane .pane-label .pane-came-last');
  state.panes.forEach((pane, p) => {
    const words = cameLastTitle(pane.timeline);
    const span = spans[p];
    const text = words ? ` · ${words.text}` : '';
    if (span && span.textContent !== text) span.textContent = text;
    if (span && span.title !== (words?.tooltip ?? '')) span.title = words?.tooltip ?? '';
  });
}

function drawAll(): void {
  const panesBox = document.querySelector('.panes');
  if (!panesBox || !state.theme) return;
  const width = Math.max(LABEL_WIDTH + 100, panesBox.clientWidth);
  state.base.range([LABEL_WIDTH, width]);
  state.current.range([LABEL_WIDTH, width]);
  const began = performance.now();
  const theme = state.theme;
  drawAlike(state.panes, (timeline) => timeline.draw(paneScale(state.current, timeline.stretch), width, theme));
  paneNotes();
  paneCameLast();
  state.frameTimes.push(performance.now() - began);
  if (!state.timings.firstDraw) state.timings.firstDraw = performance.timeOrigin + performance.now();
  if (state.partial && !state.drawnSaid) {
    state.drawnSaid = true;
    post({ type: 'drawn' });
  }
  if (state.frameTimes.length > FRAME_HISTORY) state.frameTimes.splice(0, state.frameTimes.length - FRAME_HISTORY);
  // the compiler's marks after the first frame (they cost a pass over the slices), then a frame with them
  if (!state.findingMarks && state.panes.some((p) => !p.timeline.marksFound)) {
    state.findingMarks = true;
    setTimeout(() => {
      state.findingMarks = false;
      for (const pane of state.panes) void pane.timeline.marks;
      scheduleDraw();
    }, 0);
  }
}
