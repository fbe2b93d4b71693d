// One pane's canvas: tracks (CPU threads, GPU streams) with nested slices, drawn with level of detail (the slices'
// rects: sliceRects.ts), and over them their labels, the axis (what its ruler marks: stepRuler.ts), the compiler's
// marks, the track names and the selection; its hit tests and hovers.
import type { FlowArrow } from '../extension/shared/trace/flowLinks.ts';
import type { TraceModel } from '../extension/shared/trace/model.ts';
import { mayHaveMarks } from '../extension/shared/trace/timelineMarks.ts';
import type { LinesNow } from '../extension/shared/movedLines.ts';
import { collectiveSpans, mostOverlapping } from './analysis/communication.ts';
import { insideProfilerWork } from './analysis/profilerWork.ts';
import { collectiveThreads } from './analysis/threadRoles.ts';
import type { FrameLayout, Paint, TextBox } from './frameLayout.ts';
import { composite, readableInk } from './ink.ts';
import {
  bandEdges,
  clearLabelsOfBands,
  clearOfBands,
  drawArrows,
  drawFocus,
  drawMarks,
  drawRange,
  MARK_LANE,
  markHovers,
  markTexts,
} from './overlays.ts';
import type { Theme } from './theme.ts';
import { drawLines, drawText } from './canvasPaint.ts';
import {
  axisLayout,
  AXIS_HEIGHT,
  canvasMeasure,
  cutLines,
  LABEL_WIDTH,
  placeText,
  sliceLabel,
  type Measure,
  type TimeScale,
  withoutNamespace,
} from './timelineText.ts';
import { fitNames, paneTrackNames } from './trackNames.ts';
import { TimelineNames } from './timelineNames.ts';
import { lowerBoundStart, ROW_HEIGHT, TrackRows, type Row } from './timelineRows.ts';
import { sliceTexts, type SliceWords } from './sliceTexts.ts';
import { stepCutTexts } from './stepCuts.ts';
import { firstRecordedUs, rulerTicks, shownStepEnd, stepEdges, tailAfterSteps } from './stepRuler.ts';
import { stepLineSplits } from './stepLineSplits.ts';
import { unseenRowTexts } from './unseenRows.ts';
import { pickFoldedLabels, SliceRects, type FoldedLabel, type LaidOutRects } from './sliceRects.ts';
import {
  collectiveWords,
  GAP_INSET,
  longestUnrecorded,
  unrecordedHover,
  unrecordedLabels,
  type Unrecorded,
} from './timelineGaps.ts';
import { idleTracksNote, idleTracksTooltip } from './timelineWords.ts';

/** a track name's inset in the label column */
const NAME_INSET = 4;

export interface DrawStats {
  rects: number;
  slices: number;
  rows: number;
  labels: number;
}

export class TimelineCanvas extends TimelineNames {
  readonly canvas = document.createElement('canvas');
  /** the tracks' rows: which are shown and in view, and where */
  private readonly tracks: TrackRows;
  /** called after the rows moved (a track came into view or went idle): what is laid over them follows */
  onLayout: () => void = () => {};
  /** per name id: 1 when it matches the search (all 1 without a search) */
  private nameMatches: Uint8Array;
  private searching = false;
  /** time of the aligned step's start, µs since the trace origin */
  offset = 0;
  /** how much the panes' shared scale stretches this pane's times: its region's fit (paneFit.ts), 1 as is */
  stretch = 1;
  /**
   * The index of the step a step view shows: only its slices are drawn, so that beside another pane's longer step
   * this one's next is not in view (review 10 B10: eager "step 2 in view" over default "steps 2–3"); -1: the trace
   * has no such step, none is drawn; null: the whole trace (Fit all).
   */
  shownStep: number | null = null;
  /** the warm-up step's ruler label may say so ("warm-up step 1"): false where another pane has no room to
   *  (paneSteps.drawAlike) */
  namesWarmUp = true;
  /** whether the last frame's ruler said the warm-up step as such; null: it had no warm-up step in view */
  saidWarmUp: boolean | null = null;
  selected = -1;
  linked: number[] = [];
  /** launch → kernel arrows of the selection */
  arrows: FlowArrow[] = [];
  /** where the trace's last event ends: a mark's label stops there, not over the empty axis after it (review 7A K2) */
  private dataEndUs = -Infinity;
  /** the range selection, µs of the model's time */
  range: [number, number] | null = null;
  /** a finding's places ("Show in timeline"), µs of the model's time */
  focused: { startUs: number; durUs: number }[] = [];
  /** where the tracks begin: under the axis, and under the marks' lane when there may be marks */
  private readonly top: number;
  /** the slices as this frame fills them (sliceRects.ts) */
  private readonly rects: SliceRects;
  /** what the last frame drew: its texts and lines (for tests) */
  layout: FrameLayout = { width: 0, height: 0, left: LABEL_WIDTH, texts: [], lines: [], outlines: [] };
  /** each track's name, told apart from the others', with its role (the label column's tooltip, a slice's hover) */
  readonly trackNames: readonly string[];
  /** each track's name as the label column draws it: a role's thread by its role and id (roleTrackNames) */
  private readonly drawnNames: readonly string[];
  /** the names as the label column draws them in a font */
  private fittedNames: { font: string; names: string[] } | null = null;
  /** what this rank's collective waited for in [fromUs, toUs] of its model's time, where the view shows it ("rank 1,
   *  recompiling": main.ts, a job's ranks on one clock); null: not known here */
  waitedFor: (fromUs: number, toUs: number) => string | null = () => null;
  /** when the rank it waited for in [fromUs, toUs] reached that collective, in its model's time (main.ts); null: not
   *  known here (one trace, or ranks whose clocks are not comparable: no wait for a rank is said then) */
  waitedUntil: (fromUs: number, toUs: number) => number | null = () => null;
  /** the stretches with no op recorded that the last frame found wide enough to say (canvas px), for their hover */
  private unrecorded: { x0: number; x1: number; y: number; hover: string }[] = [];
  /** the marks' bands the last frame drew (canvas px), the narrowest first, for their hover in the marks' lane */
  private markBands: { x0: number; x1: number; hover: string }[] = [];
  /** its collectives' spans (inCollective), found on the first ask */
  private collectives: { startUs: number; endUs: number }[] | null = null;
  /** every level of its tracks, whatever is in view (unrecordedUs), made on the first ask */
  private everyRow: readonly Row[] | null = null;

  /** `communication`: per name id, 1 for a collective (communication.ts); drawn in the communication colour */
  constructor(
    model: TraceModel,
    private readonly communication: Uint8Array = new Uint8Array(model.names.length),
    /** where the lines the names cite are now (the user's edits since the report; sourceLinks.ts) */
    linesNow: LinesNow = { line: (_place, line) => line, named: () => null },
  ) {
    super(model, linesNow);
    this.nameMatches = new Uint8Array(model.names.length).fill(1);
    this.top = AXIS_HEIGHT + (mayHaveMarks(model) ? MARK_LANE : 0);
    this.tracks = new TrackRows(model, this.top);
    const names = paneTrackNames(model.tracks, this.tracks.shown, collectiveThreads(model));
    this.trackNames = names.whole;
    this.drawnNames = names.drawn;
    for (let i = 0; i < model.count; i++) this.dataEndUs = Math.max(this.dataEndUs, model.start[i]! + model.dur[i]!);
    this.rects = new SliceRects(model, communication, (i) => this.dimmed(i));
  }

  /** The longest stretch of [fromUs, toUs] of at least leastUs where a step's thread recorded no op, nor waited in a
   *  collective (timelineGaps.ts longestUnrecorded), over every level of its tracks, not the rows in its view: what
   *  this rank did while another waited for it may be out of it (analysis/rankWaits.ts). */
  unrecordedUs(fromUs: number, toUs: number, leastUs: number): number {
    this.everyRow ??= new TrackRows(this.model, 0).rows;
    return longestUnrecorded(this.model, this.everyRow, fromUs, toUs, leastUs, this.communication);
  }

  /** Whether a thread of this trace ran a collective at atUs (analysis/rankWaits.ts: which rank reached it last). */
  inCollective(atUs: number): boolean {
    this.collectives ??= collectiveSpans(this.model, this.communication, -Infinity, Infinity);
    return this.collectives.some((c) => c.startUs <= atUs && atUs < c.endUs);
  }

  /** The start of this trace's collective that overlaps [fromUs, toUs) the most (null: none): when this rank reached
   *  the one another rank ran then (analysis/rankWaits.ts arrivedAt). */
  collectiveFrom(fromUs: number, toUs: number): number | null {
    this.collectives ??= collectiveSpans(this.model, this.communication, -Infinity, Infinity);
    return mostOverlapping(this.collectives, fromUs, toUs);
  }

  /** The canvas's height: its rows' (it changes as tracks come into view or go idle, and stacks fold). */
  get height(): number {
    return this.tracks.height;
  }

  /** How many threads and streams have no slice and are not drawn. */
  get hiddenTracks(): number {
    return this.tracks.hiddenTracks;
  }

  /** The shown tracks that hold a thread's Python stack (each folds). */
  stackTracks(): number[] {
    return this.tracks.shown.filter((t) => this.model.tracks[t]!.stack);
  }

  /** Folds or unfolds a Python stack track. The canvas's height changes: the caller redraws. */
  toggleStack(track: number): void {
    this.tracks.toggle(track);
    this.fittedNames = null;
  }

  /** Where a stack track's name is drawn (canvas px; null while the track is idle in the view), whether it is
   *  folded, and its hover. */
  stackName(track: number): { top: number; height: number; folded: boolean; title: string } | null {
    const top = this.tracks.trackTop[track]!;
    if (top < 0) return null;
    return { top, height: ROW_HEIGHT, folded: this.tracks.isFolded(track), title: this.trackNameAt(top)! };
  }

  /** Slice i drawn dimmed: not matching the search, or inside the profiler's own work (its time is not its code's). */
  private dimmed(i: number): boolean {
    const model = this.model;
    return (
      (this.searching && !this.nameMatches[model.name[i]!]) ||
      insideProfilerWork(this.profilerWork.during[i]!, model.dur[i]!)
    );
  }

  /** Case-insensitive substring search over names; returns the number of matching slices' names. */
  search(query: string): number {
    const needle = query.trim().toLowerCase();
    this.searching = needle.length > 0;
    let matches = 0;
    this.model.names.forEach((name, id) => {
      const hit =
        !this.searching || name.toLowerCase().includes(needle) || this.sliceName(id).toLowerCase().includes(needle);
      this.nameMatches[id] = hit ? 1 : 0;
      if (hit && this.searching) matches++;
    });
    return matches;
  }

  /** Slices of this pane whose name matches the current search, in time order (for "next match"). */
  matchingSlices(): number[] {
    if (!this.searching) return [];
    const out: number[] = [];
    for (let i = 0; i < this.model.count; i++) if (this.nameMatches[this.model.name[i]!]) out.push(i);
    return out.sort((a, b) => this.model.start[a]! - this.model.start[b]!);
  }

  /** The span of the model's time whose slices are drawn: all of it, or the shown step's; null: none (no such step). */
  private shownSpan(): [number, number] | null {
    if (this.shownStep === null || this.model.steps.length === 0) return [-Infinity, Infinity];
    const step = this.model.steps[this.shownStep];
    return step ? [step.start, step.end] : null;
  }

  /** The part of [from, to] (µs of the model's time) whose slices are drawn; null: none of it. */
  drawnIn(from: number, to: number): [number, number] | null {
    const span = this.shownSpan();
    if (!span) return null;
    const [a, b] = [Math.max(from, span[0]), Math.min(to, span[1])];
    return a <= b ? [a, b] : null;
  }

  /** Where slices are drawn under `scale`: their time and canvas x; an empty span at the right edge where none is. */
  private bounds(scale: TimeScale, width: number): { tMin: number; tMax: number; left: number; right: number } {
    const drawn = this.drawnIn(scale.invert(LABEL_WIDTH) + this.offset, scale.invert(width) + this.offset);
    if (!drawn) return { tMin: Infinity, tMax: -Infinity, left: width, right: width };
    const [tMin, tMax] = drawn;
    return {
      tMin,
      tMax,
      left: Math.max(LABEL_WIDTH, scale(tMin - this.offset)),
      right: Math.min(width, scale(tMax - this.offset)),
    };
  }

  draw(scale: TimeScale, width: number, theme: Theme): DrawStats {
    const viewFrom = scale.invert(LABEL_WIDTH) + this.offset;
    const viewTo = scale.invert(width) + this.offset;
    const { tMin, tMax, left, right } = this.bounds(scale, width);
    if (this.tracks.showSlicesIn(tMin, tMax, this.shownSpan() ?? [Infinity, -Infinity])) {
      this.fittedNames = null;
      this.onLayout();
    }
    const ratio = window.devicePixelRatio || 1;
    const canvas = this.canvas;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(this.height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(this.height * ratio);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${this.height}px`;
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return { rects: 0, slices: 0, rows: 0, labels: 0 };
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, this.height);
    ctx.font = theme.font;
    ctx.textBaseline = 'middle';
    const model = this.model;
    const offset = this.offset;
    const xOf = (t: number): number => scale(t - offset);
    // The time scale is affine: x = base + t * k, without a d3 call per slice.
    const k = (width - LABEL_WIDTH) / (viewTo - viewFrom);
    const base = LABEL_WIDTH - viewFrom * k;
    const affine = Number.isFinite(k) && k > 0;
    const toX = affine ? (t: number): number => base + t * k : xOf;
    const toT = affine ? (x: number): number => (x - base) / k : (x: number): number => scale.invert(x) + offset;
    const laidOut = this.rects.layOut(this.tracks.rows, { tMin, tMax, left, right, toX, toT });
    this.rects.fill(ctx, theme);
    const m = canvasMeasure(ctx);
    const { rects, slices, rows } = laidOut;
    const labels = this.labelled(laidOut, m);
    const stats: DrawStats = { rects, slices, rows, labels: labels.length };
    const page: Paint = { colour: theme.background, alpha: 1 };
    // on the page, the theme's own text colours (high contrast's included) while they read at 4.5:1
    const onPage = (colours: string[]): Paint => ({ colour: readableInk(composite([page]), colours), alpha: 1 });
    const clear = clearOfBands(model.tracks, this.tracks.trackTop);
    const bands = this.foundMarks?.length
      ? drawMarks(ctx, this.foundMarks, AXIS_HEIGHT, left, right, this.height, xOf, theme, clear)
      : [];
    const steps = model.steps;
    const namesWarmUp = this.namesWarmUp && this.warmUpStep !== null;
    const edges = stepEdges(steps, this.shownStep, namesWarmUp, xOf, width, firstRecordedUs(model));
    const muted = onPage([theme.muted, theme.foreground]);
    const axis = axisLayout(
      rulerTicks(scale, width),
      edges,
      { left: LABEL_WIDTH, width, height: this.height },
      m,
      muted,
      [page],
      tailAfterSteps(steps, this.shownStep, xOf, width),
    );
    axis.lines.push(...shownStepEnd(steps, this.shownStep, xOf, width, this.height));
    const warmUp = edges.find((e) => e.warmUp)?.warmUp;
    this.saidWarmUp = warmUp ? axis.texts.some((t) => t.role === 'step' && t.text === warmUp) : null;
    const stepXs = axis.lines.flatMap((l) => (l.role === 'step' ? [l.x] : []));
    const texts = [
      ...axis.texts,
      ...sliceTexts(
        labels,
        { model, rects: this.rects, tracks: this.tracks },
        { xOf, left, right, stepXs },
        m,
        theme,
        bands,
      ),
      ...(tMin <= tMax ? this.unrecordedTexts(tMin, tMax, xOf, m, muted, page) : []),
      ...this.stepCuts(xOf, width, m, muted, page),
      ...unseenRowTexts(model, this.tracks.rows, { tMin, tMax, left, toX }, m, muted, page, bands),
    ];
    this.markBands = [];
    if (this.foundMarks?.length) {
      const ink = onPage([theme.foreground]);
      const laneEnd = Math.min(right, Math.max(left, xOf(this.dataEndUs)));
      this.markBands = markHovers(this.foundMarks, left, laneEnd, xOf);
      texts.push(
        ...markTexts(
          this.foundMarks,
          AXIS_HEIGHT,
          left,
          laneEnd,
          xOf,
          m,
          ink,
          [page],
          this.focused,
          stepXs,
          collectiveSpans(model, this.communication, tMin, tMax).map((c) => ({
            track: c.track,
            x0: xOf(c.startUs),
            x1: xOf(c.endUs),
          })),
        ),
      );
    }
    clearLabelsOfBands(ctx, texts, bands);
    const splits = stepLineSplits(model, this.tracks.rows, stepXs, toX, toT);
    const lines = cutLines(
      [...axis.lines, ...splits, ...bandEdges(bands, AXIS_HEIGHT, left, right, this.height, clear)],
      texts,
    );
    drawLines(ctx, lines, theme);
    for (const text of texts) drawText(ctx, text);
    const outlines = this.drawOverlays(ctx, xOf, left, right, width, theme);
    texts.push(...this.drawTrackNames(ctx, m, theme));
    this.layout = { width, height: this.height, left: LABEL_WIDTH, texts, lines, outlines };
    return stats;
  }

  /** The slices a frame labels: of unfolded rows, each wide enough (its words: labelFor); of a folded stack's row,
   *  one frame at a place (pickFoldedLabels). */
  private labelled({ labels, foldedLabels }: LaidOutRects, m: Measure): SliceWords[] {
    const model = this.model;
    const said = ({ i, x0, x1 }: FoldedLabel): { width: number | null; wholeWidth: number } => {
      const name = this.frameWords(i);
      const text = sliceLabel(name, x1 - x0 - 6, m);
      return { width: text === null ? null : m.width(text), wholeWidth: m.width(withoutNamespace(name)) };
    };
    return [
      ...labels.flatMap((i) => {
        const label = this.labelFor(i);
        return label === null ? [] : [collectiveWords(model, label, this.communication, this.waitedFor)];
      }),
      // (a folded row draws no frame around its label: its name alone)
      ...pickFoldedLabels(model, foldedLabels, said).map((i) => ({ i, words: this.frameWords(i) })),
    ];
  }

  /** Each step's stretch with no op recorded on its thread, wide enough to be said, said in it where its label fits
   *  (unrecordedLabels); each one's hover, labelled or not. */
  private unrecordedTexts(
    tMin: number,
    tMax: number,
    xOf: (t: number) => number,
    m: Measure,
    ink: Paint,
    page: Paint,
  ): TextBox[] {
    const model = this.model;
    const waitedFor = ({ fromUs, toUs }: Unrecorded): string | null => this.waitedFor(fromUs, toUs);
    const waitedUntil = ({ fromUs, toUs }: Unrecorded): number | null => this.waitedUntil(fromUs, toUs);
    const rows = this.tracks.rows;
    const found = unrecordedLabels(model, rows, tMin, tMax, xOf, m, this.communication, waitedFor, waitedUntil);
    this.unrecorded = found.map((said) => ({
      x0: xOf(said.stretch.idleFromUs),
      x1: xOf(said.stretch.idleToUs),
      y: said.stretch.row.y,
      hover: unrecordedHover(model, said, this.drawnNames),
    }));
    return found.flatMap(({ stretch: { row }, text, atUs }) =>
      text ? [placeText(m, 'gap', text, xOf(atUs) + GAP_INSET, row.y + ROW_HEIGHT / 2, ink, [page])] : [],
    );
  }

  /** The whole label of the mark whose band is at canvas point (x, y) in the marks' lane (the narrowest where bands
   *  overlap); null off the lane or any band. */
  markAt(x: number, y: number): string | null {
    if (y < AXIS_HEIGHT || y >= AXIS_HEIGHT + MARK_LANE) return null;
    return this.markBands.find((b) => x >= b.x0 && x < b.x1)?.hover ?? null;
  }

  /** The hover of the stretch with no op recorded at canvas point (x, y): what its time is, which a short label
   *  ("40.2 ms unrecorded", "40.2 ms gap") leaves out, and one with no room for a label says; null where there is none. */
  unrecordedAt(x: number, y: number): string | null {
    return this.unrecorded.find((s) => x >= s.x0 && x < s.x1 && y >= s.y && y < s.y + ROW_HEIGHT)?.hover ?? null;
  }

  /** In a step view, each row's slice cut at the step's end line marked as running on past it (stepCuts.ts). */
  private stepCuts(xOf: (t: number) => number, width: number, m: Measure, ink: Paint, page: Paint): TextBox[] {
    const step = this.shownStep === null ? undefined : this.model.steps[this.shownStep];
    return step ? stepCutTexts(this.model, this.tracks.rows, step.end, xOf, width, m, ink, [page], step.start) : [];
  }

  /** A finding's places, the selection and its linked slices (drawn in [left, right]), the range, the arrows;
   *  returns the places' outlines. */
  private drawOverlays(
    ctx: CanvasRenderingContext2D,
    xOf: (t: number) => number,
    left: number,
    right: number,
    width: number,
    theme: Theme,
  ): FrameLayout['outlines'] {
    const model = this.model;
    const clear = clearOfBands(model.tracks, this.tracks.trackTop);
    const outlines = drawFocus(ctx, this.focused, this.top, LABEL_WIDTH, width, this.height, xOf, theme, clear);
    ctx.strokeStyle = theme.selection;
    ctx.lineWidth = 2;
    for (const i of [...this.linked, this.selected]) {
      if (i < 0) continue;
      const x0 = xOf(model.start[i]!);
      const w = Math.max(2, xOf(model.start[i]! + model.dur[i]!) - x0);
      if (x0 + w < left || x0 > right) continue;
      ctx.strokeRect(Math.max(left, x0) - 1, this.tracks.sliceY(i), w + 2, ROW_HEIGHT - 1);
    }
    if (this.range) drawRange(ctx, this.range, this.top, LABEL_WIDTH, width, this.height, xOf, theme);
    if (this.arrows.length) {
      drawArrows(
        ctx,
        this.arrows,
        (i, end) => {
          const x0 = Math.max(left, xOf(model.start[i]!));
          const x1 = Math.min(right, xOf(model.start[i]! + model.dur[i]!));
          if (x1 < left || x0 > right) return null;
          return {
            x: Math.min(x0 + 2, (x0 + x1) / 2),
            y: this.tracks.sliceY(i) + (end === 'from' ? ROW_HEIGHT - 1 : 0),
          };
        },
        theme,
      );
    }
    return outlines;
  }

  /**
   * The label column cleared of what ran into it, the names of the tracks in view, each different from the others,
   * and in their places the tracks idle in the view ("gloo thread 28229: nothing here", "2 threads: nothing here"),
   * in the muted ink.
   */
  private drawTrackNames(ctx: CanvasRenderingContext2D, m: Measure, theme: Theme): TextBox[] {
    ctx.clearRect(0, AXIS_HEIGHT, LABEL_WIDTH, this.height);
    const page: Paint = { colour: theme.background, alpha: 1 };
    const ink: Paint = { colour: readableInk(composite([page]), [theme.foreground]), alpha: 1 };
    if (this.fittedNames?.font !== ctx.font) {
      // a Python stack's name says whether a click unfolds it (▸) or folds it (▾)
      const names = this.tracks.inView.map(
        (t) => `${this.model.tracks[t]!.stack ? (this.tracks.isFolded(t) ? '▸ ' : '▾ ') : ''}${this.drawnNames[t]!}`,
      );
      this.fittedNames = { font: ctx.font, names: fitNames(names, LABEL_WIDTH - 2 * NAME_INSET, m) };
    }
    const texts = this.fittedNames.names.map((name, k) =>
      placeText(m, 'track', name, NAME_INSET, this.tracks.trackTop[this.tracks.inView[k]!]! + ROW_HEIGHT / 2, ink, [
        page,
      ]),
    );
    const muted: Paint = { colour: readableInk(composite([page]), [theme.muted, theme.foreground]), alpha: 1 };
    for (const { tracks: idle, y } of this.tracks.idleRows) {
      const forms = idleTracksNote(
        idle.map((t) => this.model.tracks[t]!),
        idle.map((t) => this.drawnNames[t]!),
      );
      const said = forms.find((text) => m.width(text) <= LABEL_WIDTH - 2 * NAME_INSET) ?? forms[forms.length - 1]!;
      texts.push(placeText(m, 'idle', said, NAME_INSET, y + ROW_HEIGHT / 2, muted, [page]));
    }
    for (const text of texts) drawText(ctx, text);
    return texts;
  }

  /** The whole name of the track at canvas height y (the label column cuts long ones), the idle tracks' names on
   *  their count's row, or null. */
  trackNameAt(y: number): string | null {
    const idle = this.tracks.idleAt(y);
    if (idle) return idleTracksTooltip(idle.map((t) => this.trackNames[t]!));
    const track = this.tracks.trackAt(y);
    if (track < 0) return null;
    const stack = this.model.tracks[track]!.stack;
    const fold = `click its name, or Tab to it and press Enter, to ${this.tracks.isFolded(track) ? 'unfold' : 'fold'} it`;
    return stack ? `${this.trackNames[track]!}\n(Python frames: ${fold})` : this.trackNames[track]!;
  }

  /** Canvas point at the middle of slice i's visible part under `scale`, or null when it is off screen. */
  locate(i: number, scale: TimeScale, width: number): { x: number; y: number } | null {
    const { left, right } = this.bounds(scale, width);
    const x0 = Math.max(left, scale(this.model.start[i]! - this.offset));
    const x1 = Math.min(right, scale(this.model.start[i]! + this.model.dur[i]! - this.offset));
    if (x1 < x0) return null;
    return { x: (x0 + x1) / 2, y: this.tracks.sliceY(i) + ROW_HEIGHT / 2 };
  }

  /** The slice under canvas point (x, y), allowing 2 px of slack for tiny slices; -1 when none. */
  hitTest(x: number, y: number, scale: TimeScale): number {
    if (x < LABEL_WIDTH) return -1;
    const model = this.model;
    const t = scale.invert(x) + this.offset;
    // (a step view's pane draws only its step: nothing to hit past it)
    if (!this.drawnIn(t, t)) return -1;
    const slack = Math.abs(scale.invert(x + 2) - scale.invert(x));
    // a folded stack's levels share a row: the deepest frame there, the one drawn on top
    for (let r = this.tracks.rows.length - 1; r >= 0; r--) {
      const row = this.tracks.rows[r]!;
      if (y < row.y || y >= row.y + ROW_HEIGHT || row.first === row.end) continue;
      const i = lowerBoundStart(model, row.first, row.end, t + slack) - 1;
      if (i >= row.first && model.start[i]! + model.dur[i]! >= t - slack) return i;
      if (!row.folded) return -1;
    }
    return -1;
  }
}
