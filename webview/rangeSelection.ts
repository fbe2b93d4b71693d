// The range selection across a pane (Shift+drag, Shift+←/→): the overlay on the pane (and on its compared
// pair's other side, the same part of the same steps), and its tables under the panes (rangeTable.ts).
import { summarizeRange } from './analysis/rangeSummary.ts';
import { sameStepTime, stepsOverlapped } from './analysis/stepMap.ts';
import { el } from './panels.ts';
import { renderRangePair, renderRangeSummary } from './rangeTable.ts';
import type { TimelineCanvas } from './timeline.ts';

export interface RangePane {
  label: string;
  timeline: TimelineCanvas;
  compareTo: number | null;
}

/** What the selection needs of the webview's state. */
export interface RangeHost {
  panes(): readonly RangePane[];
  /** a preview shows: only the slices around the first view */
  partial(): boolean;
  /** the view, pane time (µs since the aligned step) */
  view(): [number, number];
  /** a pane time as the axis says it (its unit and digits) */
  axisTime(us: number): string;
  selected(): { pane: number; slice: number } | null;
  redraw(): void;
  /** selects a slice and brings it into view */
  reveal(pane: number, slice: number): void;
}

/** The range: the pane dragged across and [from, to] in pane time. */
export interface Range {
  pane: number;
  from: number;
  to: number;
}

export class RangeSelection {
  range: Range | null = null;

  constructor(private readonly host: RangeHost) {}

  /** Sets the range; `done` renders its tables (while dragging only the overlay moves). */
  set(pane: number, from: number, to: number, done: boolean): void {
    const range = { pane, from: Math.min(from, to), to: Math.max(from, to) };
    this.range = range;
    const pair = this.pairOf(pane);
    this.host.panes().forEach((view, p) => {
      view.timeline.range = p === pane || pair?.includes(p) ? this.rangeOn(p) : null;
    });
    this.host.redraw();
    if (done) this.render();
  }

  clear(): void {
    this.range = null;
    for (const view of this.host.panes()) view.timeline.range = null;
    document.querySelector('.range-box')?.replaceChildren();
    this.host.redraw();
  }

  /** Shift+←/→: a range from the selected slice (or the view's middle), then its end moved by a twentieth of the view. */
  extend(direction: number): void {
    const selected = this.range ? null : this.host.selected();
    // the view in the pane's own times: its region's fit stretches the shared axis (paneFit.ts)
    const stretch = this.host.panes()[this.range?.pane ?? selected?.pane ?? 0]?.timeline.stretch ?? 1;
    const [t0, t1] = this.host.view().map((t) => t / stretch) as [number, number];
    const stepUs = (t1 - t0) / 20;
    if (!this.range) {
      const timeline = selected ? this.host.panes()[selected.pane]?.timeline : undefined;
      const at = selected && timeline ? timeline.model.start[selected.slice]! - timeline.offset : (t0 + t1) / 2;
      const end = selected && timeline ? at + timeline.model.dur[selected.slice]! : at;
      this.set(selected?.pane ?? 0, at, Math.max(end, at + stepUs), true);
      return;
    }
    const { pane, from, to } = this.range;
    this.set(pane, from, Math.max(from + stepUs / 4, to + direction * stepUs), true);
  }

  /**
   * The range on pane `p`, in its model's time: on the pane dragged across as dragged; on its pair's other side the
   * same steps (sameStepTime), so a count compares a step with the same step, not eager's step 1 with three
   * shorter compiled steps; by the panes' common axis where either has no steps.
   */
  private rangeOn(p: number): [number, number] {
    const { pane, from, to } = this.range!;
    const panes = this.host.panes();
    const own = panes[pane]!.timeline;
    const other = panes[p]!.timeline;
    const [a, b] = [from + own.offset, to + own.offset];
    if (p === pane || !own.model.steps.length || !other.model.steps.length)
      return [from + other.offset, to + other.offset];
    return [sameStepTime(own.model.steps, other.model.steps, a), sameStepTime(own.model.steps, other.model.steps, b)];
  }

  /** The compared pair a pane belongs to: [eager side, compiled side], or null. */
  private pairOf(pane: number): [number, number] | null {
    const panes = this.host.panes();
    const base = panes[pane]?.compareTo;
    if (base !== null && base !== undefined) return [base, pane];
    const other = panes.findIndex((view) => view.compareTo === pane);
    return other >= 0 ? [pane, other] : null;
  }

  private render(): void {
    const box = document.querySelector('.range-box');
    if (!box || !this.range) return;
    const { pane } = this.range;
    const panes = this.host.panes();
    const summaryOf = (p: number) => {
      const view = panes[p]!;
      const [from, to] = this.rangeOn(p);
      return {
        label: view.label,
        summary: summarizeRange(view.timeline.model, from, to),
        steps: stepsOverlapped(view.timeline.model.steps, from, to),
        say: (name: string) => view.timeline.sayName(name),
      };
    };
    const own = summaryOf(pane);
    const parts = [
      renderRangeSummary(
        own.summary,
        own.label,
        panes[pane]!.timeline.offset,
        (us) => this.host.axisTime(us),
        (name) => this.revealLongest(pane, name),
        own.say,
      ),
    ];
    const pair = this.pairOf(pane);
    if (pair) parts.push(renderRangePair(summaryOf(pair[0]), summaryOf(pair[1])));
    if (this.host.partial())
      parts.unshift(
        el(
          'p',
          'hint',
          'Only the slices around the first view are loaded yet: the table is summed again over every slice when they are in.',
        ),
      );
    box.replaceChildren(...parts);
  }

  /** Selects the longest slice called `name` of the pane that overlaps the range, bringing it into view. */
  private revealLongest(pane: number, name: string): void {
    if (!this.range) return;
    const { model, offset } = this.host.panes()[pane]!.timeline;
    const id = model.names.indexOf(name);
    const from = this.range.from + offset;
    const to = this.range.to + offset;
    let best = -1;
    for (let i = 0; i < model.count; i++) {
      if (model.name[i] !== id || model.start[i]! > to || model.start[i]! + model.dur[i]! < from) continue;
      if (best < 0 || model.dur[i]! > model.dur[best]!) best = i;
    }
    if (best >= 0) this.host.reveal(pane, best);
  }
}
