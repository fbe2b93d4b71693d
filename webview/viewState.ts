// What the timeline webview holds between messages and frames: the source, the report, the panes, the view (its time
// scales, step, search, selection), what is still to come, and the timings of an opening. main.ts changes it
// (drawFrame.ts a frame's own: its request, its time, the marks being found); hostApi.ts keeps its view with VS Code;
// debugView.ts reads it for tests and benchmarks.
import { scaleLinear } from 'd3';
import type { TimelineSource } from '../extension/shared/protocol.ts';
import type { Report } from '../extension/shared/report.ts';
import type { TimelineTarget } from '../extension/shared/trace/timelineMarks.ts';
import { OPENING_STEP } from '../extension/shared/trace/window.ts';
import type { Assembly, Opening } from './opening.ts';
import type { RankView } from './ranks.ts';
import type { Theme } from './theme.ts';
import type { DrawStats, TimelineCanvas } from './timeline.ts';
import { LABEL_WIDTH } from './timelineText.ts';

/** `preview`: its model holds only the slices around the first view (its full one comes later) */
export interface PaneView {
  label: string;
  timeline: TimelineCanvas;
  stats: DrawStats;
  kernels: number;
  communication: boolean;
  compareTo: number | null;
  preview: boolean;
}

export const state = {
  source: null as TimelineSource | null,
  report: null as Report | null,
  /** the host's 'beforeEdit' note: the report is older than the user's edit (drawn again with the report) */
  beforeEdit: null as string | null,
  panes: [] as PaneView[],
  /** the panes are a distributed job's ranks: their alignment and per-step table */
  ranks: null as RankView | null,
  /** a large rank set: the user asked for every rank (kept for this source until another one loads) */
  showAllRanks: false,
  /** the traces received so far, drawn again as each comes and when the user asks for all ranks */
  opening: null as Opening | null,
  /** the rows of a full trace received so far, before its 'trace' */
  rows: null as Assembly | null,
  theme: null as Theme | null,
  base: scaleLinear().domain([0, 1]).range([LABEL_WIDTH, 800]),
  current: scaleLinear().domain([0, 1]).range([LABEL_WIDTH, 800]),
  /** the step index the first pane is aligned on; each pane's is that moved by its lead (paneSteps.ts) */
  step: OPENING_STEP,
  /** per pane, how many steps past the first pane's its step is: its comparison opens past its own warm-up */
  leads: [] as number[],
  /** per pane, the step index its view opens on where none was saved (main.ts's opening rule), which a finding's
   *  focus opens on too (focus.ts) */
  openingSteps: [] as number[],
  /** the step the view was on before Fit all aligned the panes on their first: Fit to step goes back to it */
  stepBeforeAll: null as number | null,
  search: '',
  selected: null as { pane: number; slice: number } | null,
  /** a finding to show ("Show in timeline"): applied once the full load is in */
  focus: null as TimelineTarget | null,
  /** what the last focus found: the pane and its places, or none */
  focusFound: null as { pane: number; places: number } | null,
  frameTimes: [] as number[],
  comparisons: [] as { before: string; after: string; rows: { metric: string; before: number; after: number }[] }[],
  pendingFrame: 0,
  /** the marks are being found (after a first frame) */
  findingMarks: false,
  /** some traces are still to come, or some panes hold only a preview (the slices around the first view) */
  partial: false,
  /** the domain the last load fitted to the step (null: it kept the user's) */
  fitted: null as number[] | null,
  /** a saved selection of a full model, kept while a preview shows (which cannot hold it) until the full load */
  carried: null as { pane: number; slice: number } | null,
  /** trace messages shown so far */
  shown: 0,
  /** the host was told a preview's first frame is drawn (once: it waits for that before reading the full traces) */
  drawnSaid: false,
  /**
   * wall-clock ms (epoch) of the opening's milestones, for the first-frame benchmark's breakdown: the first
   * trace message, when it was built, its first frame, and when the last pane's full trace was built.
   */
  timings: { scriptStart: performance.timeOrigin + performance.now(), message: 0, built: 0, firstDraw: 0, complete: 0 },
};

export type ViewState = typeof state;
