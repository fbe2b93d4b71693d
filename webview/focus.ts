// "Show in timeline" in the webview: a finding's places (shared/trace/timelineMarks.targetSpans) in the first pane
// that has them (panes of the modes it was seen in first), zoomed to the first, outlined, and said in a line
// above the panes (timelineWords.ts); where the traces hold none, that is said.
import { targetSpans, type TimelineTarget } from '../extension/shared/trace/timelineMarks.ts';
import { el } from './panels.ts';
import type { TimelineCanvas } from './timeline.ts';
import { focusFound, focusNotFound } from './timelineWords.ts';

/** Where it was found: the pane and how many places; null when nowhere. `zoomTo` takes pane time; `axisTime` says
 *  a pane time as the zoomed axis does. */
export function showTarget(
  target: TimelineTarget,
  panes: readonly { label: string; timeline: TimelineCanvas }[],
  zoomTo: (from: number, to: number) => void,
  axisTime: (us: number) => string,
): { pane: number; places: number } | null {
  const rank = (p: number): number => (target.modes.some((m) => panes[p]!.label.startsWith(m)) ? 0 : 1);
  const order = panes.map((_, p) => p).sort((a, b) => rank(a) - rank(b));
  for (const view of panes) view.timeline.focused = [];
  const note = document.querySelector('.focus-note') ?? el('p', 'focus-note');
  document.querySelector('.panes')?.before(note);
  for (const p of order) {
    const timeline = panes[p]!.timeline;
    const spans = targetSpans(timeline.model, timeline.marks, target);
    if (!spans.length) continue;
    timeline.focused = spans;
    const first = spans[0]!;
    const start = first.startUs - timeline.offset;
    const pad = Math.max(first.durUs * 1.5, 20);
    zoomTo(start - pad, start + first.durUs + pad);
    note.textContent = focusFound(target.label, panes[p]!.label, axisTime(start), spans.length);
    timeline.canvas.scrollIntoView({ block: 'center' });
    return { pane: p, places: spans.length };
  }
  note.textContent = focusNotFound(target.label, target.compileIds.length > 0);
  return null;
}
