// The timeline webview's read-only view for tests and benchmarks (window.__timelineDebug): what each pane drew, what
// is selected, the marks, the range, frame times and the opening's timings; and where a named slice lies, for driving
// the mouse.
import type { RangeSelection } from './rangeSelection.ts';
import type { ViewState } from './viewState.ts';
import { paneScale } from './paneFit.ts';
import type { TimelineCanvas } from './timeline.ts';

/** A pane's step `k`, in its time (µs since its offset), or null (none such). */
function stepSpan({ model, offset }: TimelineCanvas, k: number | null): { start: number; end: number } | null {
  const step = k === null ? undefined : model.steps.at(k);
  return step ? { start: step.start - offset, end: step.end - offset } : null;
}

/** Read-only view for tests and benchmarks: what was drawn, what is selected, frame times. */
export function exposeDebugView(state: ViewState, ranges: RangeSelection): void {
  Object.defineProperty(window, '__timelineDebug', {
    get: () =>
      Object.freeze({
        panes: state.panes.map((p) => ({
          label: p.label,
          events: p.timeline.model.count,
          tracks: p.timeline.model.tracks.length,
          kernels: p.kernels,
          /** its region's fit: how much the shared scale stretches its times (paneFit.ts) */
          stretch: p.timeline.stretch,
          /** the step a step view shows in it, in its time (µs since its offset), or null */
          shownStep: p.timeline.shownStep === -1 ? null : stepSpan(p.timeline, p.timeline.shownStep),
          /** its last step, in its time, or null */
          lastStep: stepSpan(p.timeline, -1),
          ...p.stats,
        })),
        selected: state.selected && {
          ...state.selected,
          name: state.panes[state.selected.pane]!.timeline.model.names[
            state.panes[state.selected.pane]!.timeline.model.name[state.selected.slice]!
          ],
          linked: state.panes[state.selected.pane]!.timeline.linked.length,
          arrows: state.panes[state.selected.pane]!.timeline.arrows.length,
        },
        /** the range selection (pane time) and each pane's marks by kind */
        range: ranges.range && { ...ranges.range },
        /** null until found (after the first frame) */
        marks: state.panes.every((p) => p.timeline.marksFound)
          ? state.panes.map((p) =>
              p.timeline.marks.map((m) => ({ kind: m.kind, label: m.label, compileId: m.compileId })),
            )
          : null,
        focus: state.focusFound && { ...state.focusFound },
        domain: state.current.domain(),
        frameTimes: [...state.frameTimes],
        comparisons: state.comparisons,
        /** a rank set: how it is aligned, each pane's offset, the per-step table */
        ranks: state.ranks && {
          alignment: state.ranks.alignment.mode,
          offsets: state.panes.map((p) => p.timeline.offset),
          table: state.ranks.table,
        },
        framesDrawn: state.frameTimes.length,
        /** per pane, what its last frame drew: texts with their boxes and colours, and lines (frameLayout.ts) */
        layouts: state.panes.map((p) => p.timeline.layout),
        /** true until every trace is in with every slice (a pane is to come, or shows only the slices around the first view) */
        partial: state.partial,
        /** trace messages shown so far */
        shown: state.shown,
        timings: { ...state.timings },
        /** canvas coordinates of a slice (by pane and name: the nth of those in the current view), for driving the
         *  mouse */
        locate: (pane: number, name: string, nth = 0, onGpu?: boolean): { x: number; y: number } | null => {
          const view = state.panes[pane];
          if (!view) return null;
          const model = view.timeline.model;
          const width = view.timeline.canvas.clientWidth;
          let seen = 0;
          for (let i = 0; i < model.count; i++) {
            if (
              model.names[model.name[i]!] !== name ||
              (onGpu !== undefined && model.tracks[model.track[i]!]!.gpu !== onGpu)
            )
              continue;
            const at = view.timeline.locate(i, paneScale(state.current, view.timeline.stretch), width);
            if (at && seen++ === nth) return at;
          }
          return null;
        },
      }),
  });
}
