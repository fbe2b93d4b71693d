// The timeline's input, on whichever panes are shown: the d3 zoom (wheel, drag to pan), Shift+drag to select a range,
// the hover tooltip, a click to select a slice, the keys that zoom and pan, and the fits (a step, all time, a span).
import { select, zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3';
import { traceEnd } from '../extension/shared/trace/model.ts';
import { formatUs } from '../extension/present/numbers.ts';
import { insideProfilerWork } from './analysis/profilerWork.ts';
import { allWindow, paneRegions, paneScale, regionStretches, stepWindowEnd } from './paneFit.ts';
import type { RangeSelection } from './rangeSelection.ts';
import { LABEL_WIDTH, type TimeScale } from './timelineText.ts';
import { state } from './viewState.ts';
import type { TimelineCanvas } from './timeline.ts';
import { profilerWorkInside, profilerWorkWords } from './timelineWords.ts';

/** What the input needs of the webview. */
export interface InputHost {
  ranges(): RangeSelection;
  redraw(): void;
  /** the view changed: saved, so that a reopened panel opens there */
  save(): void;
  select(pane: number, slice: number, details: HTMLElement): void;
  /** each pane's time 0 at the start of its step `state.step` again */
  align(): void;
}

const panesBox = (): HTMLDivElement | null => document.querySelector<HTMLDivElement>('.panes');

export class TimelineInput {
  private readonly zoom: ZoomBehavior<HTMLDivElement, unknown>;
  private readonly resized: ResizeObserver;

  constructor(private readonly host: InputHost) {
    this.zoom = d3zoom<HTMLDivElement, unknown>()
      .scaleExtent([0.5, 1e9])
      .on('zoom', (event: D3ZoomEvent<HTMLDivElement, unknown>) => {
        state.current = event.transform.rescaleX(state.base);
        host.redraw();
        host.save();
      });
    this.resized = new ResizeObserver(() => host.redraw());
    // registered once: every load replaces the panes
    document.addEventListener('keydown', (event) => this.onKey(event));
  }

  /** The base domain's whole width on screen: after a fit, the view is the base. */
  private reset(box: HTMLDivElement): void {
    this.zoom.transform(select(box), zoomIdentity);
  }

  /** Shows [from, to] (pane time) across the panes' width. */
  zoomTo(from: number, to: number): void {
    const box = panesBox();
    if (!box) return;
    state.base.domain([from, to]);
    this.reset(box);
  }

  /** The view a saved state had: [from, to] as the base, unzoomed, each region's panes on their own fit (after Fit
   *  all, on one clock). */
  restore(box: HTMLDivElement, domain: [number, number]): void {
    if (state.stepBeforeAll === null) this.fitRegions();
    else for (const pane of state.panes) pane.timeline.stretch = 1;
    state.base.domain(domain);
    this.reset(box);
  }

  /** The longest pane's current step across the width, its end line a margin from the edge (paneFit.ts
   *  stepWindowEnd), each region's panes their own (paneFit.ts): after Fit all, the step the view was on before it. */
  fitStep(box: HTMLDivElement): void {
    if (state.stepBeforeAll !== null) {
      state.step = state.stepBeforeAll;
      state.stepBeforeAll = null;
      this.host.align();
    }
    state.base.domain([0, stepWindowEnd(this.fitRegions(), box.clientWidth - LABEL_WIDTH)]);
    this.reset(box);
  }

  /** Each region's panes stretched so that its longest current step is the longest of all's (paneFit.ts); that
   *  longest, µs. */
  private fitRegions(): number {
    const lengths = state.panes.map(({ timeline: { model, offset, shownStep } }) => {
      // (a pane without the view's step draws none: it asks for no room)
      if (shownStep === -1) return 0;
      const step = shownStep === null ? undefined : model.steps[shownStep];
      return step ? step.end - offset : traceEnd(model);
    });
    const regions = paneRegions(
      state.report,
      state.panes.map((pane) => pane.label),
    );
    const stretches = regionStretches(lengths, regions);
    state.panes.forEach((pane, p) => (pane.timeline.stretch = stretches[p]!));
    return Math.max(0, ...lengths);
  }

  /** Every pane's whole trace across the width, each from its first step (aligned on a later one, the time before it,
   *  the warm-up's 40 ms, would read on no tick: the axis has none before 0), a margin past its end (allWindow). */
  fitAllTime(box: HTMLDivElement): void {
    if (state.stepBeforeAll === null) {
      state.stepBeforeAll = state.step;
      state.step = 0;
      this.host.align();
    }
    let lo = 0;
    let hi = 1;
    // every pane on one clock: whole traces side by side, not each region's step
    for (const pane of state.panes) pane.timeline.stretch = 1;
    for (const pane of state.panes) {
      lo = Math.min(lo, -pane.timeline.offset);
      hi = Math.max(hi, traceEnd(pane.timeline.model) - pane.timeline.offset);
    }
    state.base.domain(allWindow(lo, hi));
    this.reset(box);
  }

  /** The mouse on the panes just shown: zoom and pan, Shift+drag a range, hover, click to select. */
  wire(box: HTMLDivElement, details: HTMLElement, tooltip: HTMLElement): void {
    const ranges = this.host.ranges();
    // Shift+drag selects a range (the zoom leaves it alone); a plain drag pans, as before
    this.zoom.filter(
      (event: MouseEvent | WheelEvent) =>
        !event.shiftKey && (!event.ctrlKey || event.type === 'wheel') && !event.button,
    );
    select(box).call(this.zoom).on('dblclick.zoom', null);
    let dragging: { pane: number; from: number } | null = null;
    let dragged = false;
    state.panes.forEach((pane, p) => {
      const canvas = pane.timeline.canvas;
      const timeAt = (x: number): number =>
        (paneScale(state.current, pane.timeline.stretch) as TimeScale).invert(Math.max(LABEL_WIDTH, x));
      canvas.addEventListener('mousedown', (event) => {
        if (!event.shiftKey || event.button !== 0) return;
        dragging = { pane: p, from: timeAt(event.offsetX) };
        dragged = false;
        event.preventDefault();
      });
      canvas.addEventListener('mousemove', (event) => {
        if (dragging?.pane === p && event.buttons & 1) {
          dragged = true;
          ranges.set(p, dragging.from, timeAt(event.offsetX), false);
          return;
        }
        // the label column: the track's whole name (the column cuts long ones); a stretch with no op recorded, or a
        // mark's band in the marks' lane: what its label may leave out
        const i =
          event.offsetX < LABEL_WIDTH
            ? -1
            : pane.timeline.hitTest(event.offsetX, event.offsetY, paneScale(state.current, pane.timeline.stretch));
        const model = pane.timeline.model;
        const text =
          i >= 0
            ? `${pane.timeline.sliceTitle(model.name[i]!)}\n${formatUs(model.dur[i]!)} · ${pane.timeline.trackNames[model.track[i]!]}${profilerWorkLine(pane.timeline, i)}`
            : event.offsetX < LABEL_WIDTH
              ? pane.timeline.trackNameAt(event.offsetY)
              : (pane.timeline.unrecordedAt(event.offsetX, event.offsetY) ??
                pane.timeline.markAt(event.offsetX, event.offsetY));
        if (!text) {
          tooltip.hidden = true;
          return;
        }
        tooltip.textContent = text;
        tooltip.hidden = false;
        placeTooltip(tooltip, event.clientX, event.clientY);
      });
      canvas.addEventListener('mouseup', (event) => {
        if (dragging?.pane !== p) return;
        if (dragged) ranges.set(p, dragging.from, timeAt(event.offsetX), true);
        dragging = null;
      });
      canvas.addEventListener('mouseleave', () => {
        tooltip.hidden = true;
      });
      canvas.addEventListener('click', (event) => {
        if (dragged) {
          dragged = false;
          return;
        }
        if (event.shiftKey) return;
        // a click on a track's name: a Python stack's lands on its fold button (timelineStacks.ts)
        if (event.offsetX < LABEL_WIDTH) return;
        const i = pane.timeline.hitTest(event.offsetX, event.offsetY, paneScale(state.current, pane.timeline.stretch));
        this.host.select(p, i, details);
      });
    });
    this.resized.disconnect();
    this.resized.observe(box);
  }

  /** Keyboard zoom and pan, and the range's keys. */
  private onKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'VSCODE-TEXTFIELD' || target.closest('.range-box')))
      return;
    const box = panesBox();
    if (!box) return;
    const ranges = this.host.ranges();
    if (event.shiftKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      ranges.extend(event.key === 'ArrowRight' ? 1 : -1);
      event.preventDefault();
      return;
    }
    if (event.key === 'Escape' && ranges.range) {
      ranges.clear();
      event.preventDefault();
      return;
    }
    const view = select(box);
    const width = box.clientWidth - LABEL_WIDTH;
    const k = (box as HTMLDivElement & { __zoom?: { k: number } }).__zoom?.k ?? 1;
    switch (event.key) {
      case 'w':
      case 'W':
      case '+':
      case '=':
        this.zoom.scaleBy(view, 1.5);
        break;
      case 's':
      case 'S':
      case '-':
        this.zoom.scaleBy(view, 1 / 1.5);
        break;
      case 'a':
      case 'A':
      case 'ArrowLeft':
        this.zoom.translateBy(view, (width * 0.2) / k, 0);
        break;
      case 'd':
      case 'D':
      case 'ArrowRight':
        this.zoom.translateBy(view, (-width * 0.2) / k, 0);
        break;
      case 'f':
      case 'F':
        this.fitStep(box);
        break;
      case '0':
        this.fitAllTime(box);
        break;
      default:
        return;
    }
    event.preventDefault();
  }
}

/** A slice's hover's line tying it to the profiler's own work (analysis/profilerWork.ts): how much of a host slice
 *  ran during it, or the frames that work ran inside; '' where neither. */
export function profilerWorkLine(
  timeline: Pick<TimelineCanvas, 'model' | 'profilerWork' | 'sliceName' | 'trackNames'>,
  i: number,
): string {
  const { model, profilerWork } = timeline;
  const during = profilerWork.during[i]!;
  if (during > 0) return `\n${profilerWorkWords(during, model.dur[i]!, insideProfilerWork(during, model.dur[i]!))}`;
  const inside = profilerWork.framesInside(i);
  if (!inside.length) return '';
  const frames = inside.map((k) => ({
    name: timeline.sliceName(model.name[k]!),
    track: timeline.trackNames[model.track[k]!]!,
  }));
  return `\n${profilerWorkInside(frames)}`;
}

/** The tooltip below right of the pointer, or left of it (above it) where it would run past the window's edge: at
 *  the right edge it is moved, not squeezed into wrapping a word ("thread 16 / 61"). */
function placeTooltip(tooltip: HTMLElement, x: number, y: number): void {
  const GAP = 12;
  // measured at the window's left edge: a fixed box's width shrinks to the room right of where it was last
  tooltip.style.left = '0px';
  tooltip.style.top = '0px';
  const { width, height } = tooltip.getBoundingClientRect();
  const left = x + GAP + width <= window.innerWidth ? x + GAP : Math.max(0, x - GAP - width);
  const top = y + GAP + height <= window.innerHeight ? y + GAP : Math.max(0, y - GAP - height);
  tooltip.style.left = `${left}px`;
  tooltip.style.top = `${top}px`;
}
