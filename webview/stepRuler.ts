// What a pane's ruler marks of its time and steps in view, for axisLayout (timelineText.ts) to place: the ticks from
// time 0 on, a line per step boundary (one per pixel column), the shown step's end line and the whole trace's tail
// after its last step. The canvas (timeline.ts) draws them.
import type { TraceModel } from '../extension/shared/trace/model.ts';
import { stepWords } from './analysis/sliceNames.ts';
import type { LineSegment } from './frameLayout.ts';
import { axisTicks, AXIS_ROW, LABEL_WIDTH, type StepEdge, type Tick, type TimeScale } from './timelineText.ts';
import { warmUpLabel } from './timelineWords.ts';

type Steps = TraceModel['steps'];

/** As many ticks as labels fit the drawn width (a narrow panel gets fewer), each in view from time 0 on. */
export function rulerTicks(scale: TimeScale, width: number): Tick[] {
  const { ticks, say } = axisTicks(scale, width);
  // none before the aligned step's start: a time there would read negative ("−5 ms"); the step ruler says what
  // lies there ("before step 1")
  return ticks
    .map((t) => ({ t, x: scale(t), label: say(t) }))
    .filter(({ t, x }) => t >= 0 && x >= LABEL_WIDTH && x <= width);
}

/** Where a trace's recorded time begins: its first slice's start (the profiler's own span, where it has one), µs of
 *  its model's time; Infinity where it has none. Worked out once per model. */
const recordedFrom = new WeakMap<TraceModel, number>();
export function firstRecordedUs(model: TraceModel): number {
  let first = recordedFrom.get(model);
  if (first === undefined) {
    first = Infinity;
    for (let i = 0; i < model.count; i++) first = Math.min(first, model.start[i]!);
    recordedFrom.set(model, first);
  }
  return first;
}

/**
 * The step boundaries in view, one per pixel column: thousands of steps in a long profile draw a line per
 * column, not one each; the steps that began in a column after its first, named by its line's label (`through`).
 * `shownStep`: the step a step view shows (timeline.ts), null for the whole trace; `namesWarmUp`: whether the first
 * step's label says it is the warm-up ("warm-up step 1"); `recordedFromUs`: where the trace's recorded time begins
 * (firstRecordedUs): the time before the first step is named ("before step 1") only where the pane draws some of it.
 */
export function stepEdges(
  steps: Steps,
  shownStep: number | null,
  namesWarmUp: boolean,
  xOf: (t: number) => number,
  width: number,
  recordedFromUs: number,
): StepEdge[] {
  const edges: StepEdge[] = [];
  let lastLineX = -Infinity;
  const shown = shownStep === null ? steps : steps.slice(Math.max(0, shownStep), shownStep + 1);
  // the recorded time the pane draws begins there: a step view draws its step alone (review 20Y Y4: in the DDP step
  // view rank 1's ruler read "before step 1" over a blank stretch, the shared axis begun at rank 0's step start)
  const drawnFromUs = shownStep === null ? recordedFromUs : Math.max(recordedFromUs, steps[shownStep]?.start ?? 0);
  for (const step of shown) {
    const x = xOf(step.start);
    // the step the view begins inside: the pane's note counts it in view, so the ruler names it at the left
    const begun = x < LABEL_WIDTH && xOf(step.end) > LABEL_WIDTH;
    if ((x < LABEL_WIDTH && !begun) || x > width) continue;
    const label = stepWords(step.label);
    const short = /(\d+)$/.exec(label)?.[1] ?? null;
    if (x - lastLineX < 1) {
      edges[edges.length - 1]!.through = { label, short };
      continue;
    }
    const first = step === steps[0];
    const warmUp = first && namesWarmUp ? { warmUp: warmUpLabel(label) } : {};
    if (begun) edges.push({ x: LABEL_WIDTH, label, short, before: null, begun, ...warmUp });
    else
      edges.push({
        x,
        label,
        short,
        ...(first && drawnFromUs < step.start
          ? { before: `before ${label}`, beforeFromX: xOf(drawnFromUs) }
          : { before: null }),
        ...warmUp,
      });
    lastLineX = Math.max(x, LABEL_WIDTH);
  }
  return edges;
}

/** The line where the shown step ends, where a step view shows one (the pane draws nothing past it); in the whole
 *  trace's, where its last step ends (review 13 Q8: no line closed it, its pane's edge or its trace's end?). */
export function shownStepEnd(
  steps: Steps,
  shownStep: number | null,
  xOf: (t: number) => number,
  width: number,
  height: number,
): LineSegment[] {
  const step = shownStep === null ? steps.at(-1) : steps[shownStep];
  const x = step ? Math.round(xOf(step.end)) : NaN;
  return x > LABEL_WIDTH && x < width ? [{ role: 'step', x, w: 1, y0: AXIS_ROW, y1: height }] : [];
}

/** In the whole trace's view, where its last step ends with time after it in view: that line and the tail's name
 *  ("after call 2", as the lead-in is "before call 0": review 15W W9); else null. */
export function tailAfterSteps(
  steps: Steps,
  shownStep: number | null,
  xOf: (t: number) => number,
  width: number,
): { x: number; label: string } | null {
  const last = steps.at(-1);
  const x = last && shownStep === null ? Math.round(xOf(last.end)) : NaN;
  return x > LABEL_WIDTH && x < width ? { x, label: `after ${stepWords(last!.label)}` } : null;
}
