// What the timeline draws over a pane's slices: the compiler's marks in their lane under the axis (compiles,
// recompiles, graph breaks, CUDA-graph replays), a finding's places, the range selection, and launch → kernel
// arrows. Canvas only; every string is drawn as text.
import type { FlowArrow } from '../extension/shared/trace/flowLinks.ts';
import { SliceKind, type TrackInfo } from '../extension/shared/trace/model.ts';
import type { MarkKind, TimelineMark } from '../extension/shared/trace/timelineMarks.ts';
import type { Box, LineSegment, Paint, TextBox } from './frameLayout.ts';
import { boundaryColour, rgbaOf, visibleAlpha } from './ink.ts';
import type { Theme } from './theme.ts';
import { placeText, type Measure } from './timelineText.ts';
import { ROW_HEIGHT } from './timelineRows.ts';
import { leastLabel, shortestFit } from './markLabelForms.ts';

/** Height of the marks' lane under the axis (only a pane with marks has it). */
export const MARK_LANE = 20;
/** a band's alpha where that shows it (ink.visibleAlpha raises it where the page is too like it) */
const BAND_ALPHA = 0.12;

function markColour(kind: MarkKind, theme: Theme): string {
  switch (kind) {
    case 'compile':
    case 'recompile':
      return theme.kind[SliceKind.Compile]!; // readTheme has a colour per kind
    case 'graph-break':
      return theme.warning;
    case 'cudagraph-replay':
      return theme.kind[SliceKind.GraphReplay]!;
  }
}

/** A compile's or a break's faint band down the pane, over the slices; `edge`: its edges' colour. */
export interface MarkBand {
  x0: number;
  x1: number;
  paint: Paint;
  edge: string;
}

/** The rows a band leaves clear, canvas y from–to: the profiled window's (Kineto's span, pid "Spans":
 *  buildModel.trackName), whose one bar runs the pane's width and read as covered by the band (review 8B B7).
 *  `trackTop`: each track's first row's y, -1 where it is not laid out. */
export function clearOfBands(tracks: readonly TrackInfo[], trackTop: readonly number[]): [number, number][] {
  return tracks.flatMap((t, k): [number, number][] =>
    t.pid === 'Spans' && trackTop[k]! >= 0 ? [[trackTop[k]!, trackTop[k]! + (t.maxDepth + 1) * ROW_HEIGHT]] : [],
  );
}

/** The stretches of [from, to) outside the `clear` ones, top down; none shorter than a row (the gap under the last
 *  track holds none: a stub of band there read as a stray mark). */
function bandRuns(from: number, to: number, clear: readonly [number, number][]): [number, number][] {
  const runs: [number, number][] = [];
  let y = from;
  for (const [a, b] of [...clear].sort((p, q) => p[0] - q[0])) {
    if (a > y) runs.push([y, Math.min(a, to)]);
    y = Math.max(y, b);
  }
  if (y < to) runs.push([y, to]);
  return runs.filter(([a, b]) => b - a >= ROW_HEIGHT);
}

/** Each mark in view with its span in canvas x (at least 3 px, so a short one shows); none that ended before the
 *  view (its 3 px at the left edge drew a band there, and its label at the lane's left named a break off-screen
 *  over the step's first ops: review 10G C10, the first of three "graph break" labels). A thread's breaks of one
 *  label (one call's) less than a label's gap apart are one band, from the first's start to the last's end: two
 *  bands 1 px apart under one "break 1" read as a break named and another not (review 16 Y6/Z7). */
function inView(
  marks: readonly TimelineMark[],
  left: number,
  width: number,
  xOf: (t: number) => number,
): { mark: TimelineMark; x0: number; x1: number }[] {
  const shown = marks.flatMap((mark, k) => {
    const end = xOf(mark.startUs + mark.durUs);
    const x0 = Math.max(left, xOf(mark.startUs));
    const x1 = Math.min(width, Math.max(end, x0 + 3));
    return end < left || x0 > width ? [] : [{ mark, x0, x1, k }];
  });
  const merged: { mark: TimelineMark; x0: number; x1: number; k: number }[] = [];
  for (const band of [...shown].sort((a, b) => a.x0 - b.x0)) {
    const { mark } = band;
    const into = merged.find(
      (m) =>
        mark.kind === 'graph-break' &&
        m.mark.kind === 'graph-break' &&
        m.mark.track === mark.track &&
        m.mark.label === mark.label &&
        band.x0 < m.x1 + LABEL_GAP,
    );
    if (!into) {
      merged.push({ ...band });
      continue;
    }
    const end = Math.max(into.mark.startUs + into.mark.durUs, mark.startUs + mark.durUs);
    into.mark = { ...into.mark, durUs: end - into.mark.startUs };
    into.x1 = Math.max(into.x1, band.x1);
  }
  // (in the marks' order, which is the order they are painted in)
  return merged.sort((a, b) => a.k - b.k).map(({ mark, x0, x1 }) => ({ mark, x0, x1 }));
}

/**
 * The marks' bars in their lane, and a faint band down the pane for compiles and breaks (replays are one per
 * step: bands would cover the pane), but over the rows `clear` (clearOfBands). Returns the bands: they lie under
 * the slices' labels there.
 */
export function drawMarks(
  ctx: CanvasRenderingContext2D,
  marks: readonly TimelineMark[],
  laneTop: number,
  left: number,
  width: number,
  height: number,
  xOf: (t: number) => number,
  theme: Theme,
  clear: readonly [number, number][] = [],
): MarkBand[] {
  const runs = bandRuns(laneTop + MARK_LANE, height, clear);
  const bands: MarkBand[] = [];
  for (const { mark, x0, x1 } of inView(marks, left, width, xOf)) {
    const colour = markColour(mark.kind, theme);
    ctx.fillStyle = colour;
    if (mark.kind !== 'cudagraph-replay') {
      // faint, so the slices under it read, but told from the page in every theme
      const alpha = visibleAlpha(rgbaOf(colour), rgbaOf(theme.background), BAND_ALPHA);
      ctx.globalAlpha = alpha;
      for (const [y0, y1] of runs) ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
      // its edges stand out from the page at 3:1 (the faint fill alone was 1.3:1 on high contrast's black,
      // report4A N15): high contrast's border colour there, elsewhere its own colour where it reads
      const edge = theme.border ?? boundaryColour(colour, theme.background, theme.foreground);
      bands.push({ x0, x1, paint: { colour, alpha }, edge });
    }
    ctx.globalAlpha = 1;
    ctx.fillRect(x0, laneTop + MARK_LANE - 5, x1 - x0, 4);
  }
  return bands;
}

/** Each band's left and right edge in view, 1 px, from the lane's foot down the pane but over the rows `clear`
 *  (cut around texts as the axis's lines are: timelineText.cutLines); none where the band runs on past the view's
 *  side. */
export function bandEdges(
  bands: readonly MarkBand[],
  laneTop: number,
  left: number,
  width: number,
  height: number,
  clear: readonly [number, number][] = [],
): LineSegment[] {
  const runs = bandRuns(laneTop + MARK_LANE, height, clear);
  return bands.flatMap(({ x0, x1, edge }) =>
    [Math.round(x0), Math.max(Math.round(x0), Math.round(x1) - 1)]
      .filter((x) => x > left && x < width - 1)
      .flatMap((x) => runs.map(([y0, y1]) => ({ role: 'band' as const, colour: edge, x, w: 1, y0, y1 }))),
  );
}

/** The bands a label's box [x0, x1) lies wholly in, with room: under it as drawn (clearLabelsOfBands). */
export function bandsAround(bands: readonly MarkBand[], x0: number, x1: number): MarkBand[] {
  return bands.filter((b) => b.x0 <= x0 - LABEL_PAD && b.x1 >= x1 + LABEL_PAD);
}

/**
 * Each slice label that a band's edge would cross drawn clear of that band: what lies under the label (`under`: the
 * page, its slice's fill, the bands around it) painted again over the band there, so no band's edge or tint runs
 * through its words (review 10G D10: the gold edges through "2nd compiled call in the step (s…"; the edge lines are
 * cut around it: timelineText.cutLines). A label's box is in its slice's row: that row's inside, clear of its border.
 * So too a row's "too short to see here" (unseenRows.ts), in its row's lane (review 18Z Z3: a graph break's narrow
 * band ran through its "too").
 */
export function clearLabelsOfBands(
  ctx: CanvasRenderingContext2D,
  texts: readonly TextBox[],
  bands: readonly MarkBand[],
): void {
  for (const text of texts) {
    if (text.role !== 'slice' && text.role !== 'unseen') continue;
    const around = bandsAround(bands, text.x, text.x + text.w);
    const rowTop = text.middle - ROW_HEIGHT / 2;
    for (const band of bands) {
      // whole pixels: a fractional edge painted twice, page then fill, left a pale seam through the label
      const x0 = Math.floor(Math.max(band.x0, text.x - LABEL_PAD));
      const x1 = Math.ceil(Math.min(band.x1, text.x + text.w + LABEL_PAD));
      if (x1 <= x0 || around.includes(band)) continue;
      for (const paint of text.under) {
        ctx.globalAlpha = paint.alpha;
        ctx.fillStyle = paint.colour;
        ctx.fillRect(x0, rowTop + 1, x1 - x0, ROW_HEIGHT - 3);
      }
    }
  }
  ctx.globalAlpha = 1;
}

/** the slice's fill cleared of a band this far either side of its label (the edge lines are cut as near) */
const LABEL_PAD = 2;

/** The marks' labels in their lane, above the bars, none over another. Each mark takes a place for its least label
 *  ("break 2", "recompile") in this order: a finding's marks (those that begin in a `focused` span: the break the
 *  user asked to see keeps its label), then the marks that begin in view, then those that begin left of it (their
 *  label at the edge names a band mostly off-screen); in each, the compiles first, the longest first, then the
 *  breaks and replays from the left. Then each label is as long as fits before the next label, the next line or the
 *  edge: whole, else shortened (shortestFit). Each label inside the call or step its mark begins in, between the step
 *  lines (`stepXs`) around it: one that runs across the next call's line reads as that call's (review 5A G5). Each
 *  label begins at its mark (review 9 D5/E3); where even its least label has no room, a break's says which break it
 *  is alone ("1", "line 22") where that fits inside its band (review 12 I6), else none (the hover says it).
 *  Labels on either side of a step line need no more room between them than the line's. A break's label ends before
 *  a collective that another thread runs (`busy`): that time is a wait, not the eager code its band names; a break
 *  a compile spans is the compile's (compiledOver). */
export function markTexts(
  marks: readonly TimelineMark[],
  laneTop: number,
  left: number,
  width: number,
  xOf: (t: number) => number,
  m: Measure,
  ink: Paint,
  under: Paint[],
  focused: readonly { startUs: number; durUs: number }[] = [],
  stepXs: readonly number[] = [],
  busy: readonly OtherThreadOp[] = [],
): TextBox[] {
  const taken: [number, number][] = [];
  const lineBetween = (a: number, b: number): boolean => stepXs.some((x) => a <= x && x <= b);
  const gap = (a: number, b: number): number => (lineBetween(a, b) ? LINE_ROOM : LABEL_GAP);
  const clear = (a: number, b: number): boolean => taken.every(([p, q]) => b + gap(b, p) <= p || a >= q + gap(q, a));
  const rank = (mark: TimelineMark): number =>
    focused.some((f) => f.startUs <= mark.startUs && mark.startUs <= f.startUs + f.durUs)
      ? 0
      : xOf(mark.startUs) >= left
        ? 1
        : 2;
  // within each, compiles before breaks and replays, the longest first: where they compete for one place the
  // compile that stalled the step keeps its label (review 10H H1: over rank 1's 2 s recompile at 560 and 700 px, the
  // label of a 64 µs break 64 ms before it, "graph break …: eager code between graphs", a few px to its left)
  const compiling = (mark: TimelineMark): number => (mark.kind === 'compile' || mark.kind === 'recompile' ? 0 : 1);
  const order = inView(marks, left, width, xOf).sort(
    (a, b) =>
      rank(a.mark) - rank(b.mark) ||
      compiling(a.mark) - compiling(b.mark) ||
      (compiling(a.mark) ? 0 : b.mark.durUs - a.mark.durUs) ||
      a.x0 - b.x0,
  );
  // first each mark its place with its least label, in that order; then each label as long as fits before the next
  // label or line: a first label said whole ran over the next two breaks' bands and took their places (review 10G
  // C10: of three breaks in one step, the middle one unlabelled)
  const placed: { mark: TimelineMark; at: number; to: number; alone?: string }[] = [];
  // the breaks' bands as the lane shows them: ones that abut (less than a label's gap apart) read as one
  const breaksInView = order.flatMap(({ mark, x0, x1 }) =>
    // (a break a compile spans is the compile's: its label names the band)
    compiledOver(mark, marks)?.kind === 'graph-break' ? [{ x0, x1, before: xOf(mark.startUs) < left }] : [],
  );
  const breakBands = visualBands(breaksInView, LABEL_GAP);
  const bandOf = (x: number): { x0: number; x1: number } | undefined => breakBands.find((b) => b.x0 <= x && x <= b.x1);
  /** the room of the call the mark begins at x0 in: from the line at or before it to the next line, within the lane */
  const roomAt = (x0: number, mark: TimelineMark): { at: number; to: number } => {
    const from = Math.max(left, ...stepXs.filter((x) => x <= x0).map((x) => x + LINE_ROOM));
    const line = Math.min(width - 3, ...stepXs.filter((x) => x > x0).map((x) => x - LINE_ROOM));
    // a break's label ends where another thread of its process runs a collective: its band's time there is that
    // wait, not eager code (review 9 D4: "eager code between graphs" over rank 0's 2 s gloo:all_reduce); the
    // collective's own row says it
    // nor over the next break's band (the lane draws every thread's; abutting ones read as one): "break 1" over
    // band 2 left band 2 unnamed (review 14 S7)
    const to =
      mark.kind === 'graph-break'
        ? Math.min(
            line,
            ...busy
              .filter((b) => b.track !== mark.track && b.x1 > x0 + 1)
              .map((b) => Math.max(b.x0, x0 + 1) - LABEL_GAP),
            ...breakBands.filter((b) => b.x0 > x0 + 1 && b !== bandOf(x0)).map((b) => b.x0 - 1),
          )
        : line;
    // at its mark, never moved left of it: a label's x is read as its place (review 9 D5/E3: labels pushed left to
    // end at the next step line stood 300–800 µs before their stripes, over ordinary ops)
    return { at: Math.max(from, x0 + 1), to };
  };
  const unplaced: { mark: TimelineMark; x0: number; x1: number }[] = [];
  for (const { mark: drawn, x0, x1 } of order) {
    const mark = compiledOver(drawn, marks);
    if (!mark) continue;
    const { at, to } = roomAt(x0, mark);
    // at its mark, else just right of a label already there (NEAR px at most: next to its mark still)
    const least = m.width(leastLabel(mark.label, mark.kind));
    const free = [at, ...taken.map(([, q]) => q + gap(q, at))]
      .filter((x) => x >= at && x <= at + NEAR && x + least <= to && clear(x, x + least))
      .sort((a, b) => a - b)[0];
    if (free === undefined) {
      unplaced.push({ mark, x0, x1 });
      continue;
    }
    placed.push({ mark, at: free, to });
    taken.push([free, free + least]);
  }
  // a break with no room for its least label, which break it is alone where that fits inside its band, in the same
  // order (the widest first): review 12 I6, the widest band of cpu-graphbreak's whole trace at 560 px (36 px inside
  // its step) unlabelled, "break 1" needing 42; the hover says it whole
  for (const { mark, x0, x1 } of unplaced) {
    const alone = whichBreak(mark.label, mark.kind);
    if (alone === null) continue;
    const { at, to } = roomAt(x0, mark);
    const end = at + m.width(alone);
    if (end > Math.min(to, x1 - 1) || !clear(at, end)) continue;
    placed.push({ mark, at, to: end, alone });
    taken.push([at, end]);
  }
  const texts = placed.map(({ mark, at, to, alone }) => {
    const next = Math.min(to, ...taken.map(([p]) => p - gap(at, p)).filter((p) => p > at));
    return alone ?? (m.width(mark.label) <= next - at ? mark.label : shortestFit(mark.label, mark.kind, next - at, m)!);
  });
  // a break's label run over the bands of other breaks abutting its own (no room for a label each) counts them,
  // "2 graph breaks", "2 breaks", else none: "break 1" over two bands 1 px apart read as one break named and one not
  // (review 16 Y6/Z7; one call's abutting breaks are one band: inView)
  const touching = visualBands(breaksInView, 0.5);
  const counted = placed.map(({ mark, at, to, alone }, k) => {
    if (mark.kind !== 'graph-break' || alone !== undefined) return null;
    const group = bandOf(Math.max(left, xOf(mark.startUs)));
    const inGroup = touching.filter((b) => group && group.x0 <= b.x0 && b.x1 <= group.x1);
    const end = at + m.width(texts[k]!);
    if (inGroup.filter((b) => b.x0 < end && at < b.x1).length < 2) return null;
    const next = Math.min(to, ...taken.map(([p]) => p - gap(at, p)).filter((p) => p > at));
    texts[k] = breaksCounted(inGroup.length).find((form) => m.width(form) <= next - at) ?? '';
    return texts[k] ? group! : null;
  });
  // the breaks' bands in one step named every one or none (the hover says each): a user counts the labels, and a
  // band left blank beside named ones reads as something else (review 14 S7), in every view (review 15 V2: "break 1"
  // over warm-up step 1's wide band, 3 and 8 px left of two thin ones with none, read as the step's one break). A
  // band (those that touch read as one) is named by its own break's label, or counted by the one label over those
  // that abut it; one begun before the view is no part of it (its label was the view's before)
  const stepOf = (x: number): number => stepXs.filter((line) => line <= x).length;
  const breaksNamed = placed.flatMap(({ mark }, k) =>
    mark.kind === 'graph-break' && texts[k] ? [Math.max(left, xOf(mark.startUs))] : [],
  );
  const named = (band: { x0: number; x1: number }): boolean =>
    breaksNamed.some((x) => band.x0 <= x && x <= band.x1) ||
    counted.some((group) => group !== null && group.x0 <= band.x0 && band.x1 <= group.x1);
  const unnamedSteps = new Set(touching.flatMap((band) => (band.before || named(band) ? [] : [stepOf(band.x0)])));
  for (let k = placed.length - 1; k >= 0; k--) {
    const { mark } = placed[k]!;
    if (mark.kind === 'graph-break' && (!texts[k] || unnamedSteps.has(stepOf(xOf(mark.startUs))))) {
      placed.splice(k, 1);
      taken.splice(k, 1);
      texts.splice(k, 1);
      counted.splice(k, 1);
    }
  }
  // a thread's breaks in one scheme: where one is said "break 2", its neighbours too, never "break 1", "break 2",
  // "graph break in 3rd…" in a row (review 13 P4); a "break N" is no wider than a longer form that fitted
  const shortTracks = new Set(
    placed
      .filter(({ mark, alone }, i) => alone !== undefined || texts[i] === leastLabel(mark.label, mark.kind))
      .filter(({ mark }) => mark.kind === 'graph-break')
      .map(({ mark }) => mark.track),
  );
  return placed.map(({ mark, at, alone }, i) => {
    const least = leastLabel(mark.label, mark.kind);
    const text =
      mark.kind === 'graph-break' &&
      alone === undefined &&
      counted[i] === null &&
      shortTracks.has(mark.track) &&
      /^break \d+$/.test(least)
        ? least
        : texts[i]!;
    // its middle 8 px into the lane: its box (11 px font) clear of the axis above and the bars below
    return placeText(m, 'mark', text, at, laneTop + 8, ink, under);
  });
}

/** A label over `count` abutting breaks' bands, longest first (the hover names each). */
const breaksCounted = (count: number): string[] => [`${count} graph breaks`, `${count} breaks`];

/** Bands in view (canvas x) as the lane shows them, left to right: those less than `apart` px apart merged into one
 *  (a label's gap: abutting; half a pixel: touching); `before`: one begun before the view (its `x0` is then the
 *  lane's left: inView), a merged one's its first's. */
function visualBands(
  bands: readonly { x0: number; x1: number; before: boolean }[],
  apart: number,
): {
  x0: number;
  x1: number;
  before: boolean;
}[] {
  const merged: { x0: number; x1: number; before: boolean }[] = [];
  for (const band of [...bands].sort((a, b) => a.x0 - b.x0)) {
    const last = merged.at(-1);
    if (last && band.x0 < last.x1 + apart) last.x1 = Math.max(last.x1, band.x1);
    else merged.push({ ...band });
  }
  return merged;
}

/** Which break a break's mark is, in the fewest words, from its least label: "1" of "break 1" (the 1st compiled
 *  call's), "line 22" of "break at line 22"; null for a break its label says no more of ("graph break") and for
 *  other marks. */
function whichBreak(label: string, kind: MarkKind): string | null {
  if (kind !== 'graph-break') return null;
  const which = /^break (?:at )?(.*\d)$/.exec(leastLabel(label, kind))?.[1];
  // a number alone under the ruler's "step 1" read as a step's: the band says what it is, its hover which one
  return which === undefined ? null : /^\d+$/.test(which) ? 'break' : which;
}

/** Each mark's band in view (canvas x) with its whole label, the narrowest first: the marks' lane's hover, which says
 *  what a label cut short, a break's "break" alone (review 12 I6) or no label leaves out. */
export function markHovers(
  marks: readonly TimelineMark[],
  left: number,
  width: number,
  xOf: (t: number) => number,
): { x0: number; x1: number; hover: string }[] {
  return inView(marks, left, width, xOf)
    .sort((a, b) => a.x1 - a.x0 - (b.x1 - b.x0))
    .map(({ mark, x0, x1 }) => ({ x0, x1, hover: mark.label }));
}

/**
 * A break's mark as its label may say it where a compile ran in its span (on its thread): that time is the compile's,
 * so where the compile covers the span the break has no label (the compile's names the band), and where it covers a
 * part the break's label says no "eager code between graphs" (review 10H H1). Other marks as they are.
 */
function compiledOver(mark: TimelineMark, marks: readonly TimelineMark[]): TimelineMark | null {
  if (mark.kind !== 'graph-break') return mark;
  const end = mark.startUs + mark.durUs;
  const compiles = marks.filter((c) => (c.kind === 'compile' || c.kind === 'recompile') && c.track === mark.track);
  if (compiles.some((c) => c.startUs <= mark.startUs && end <= c.startUs + c.durUs)) return null;
  return compiles.some((c) => c.startUs < end && mark.startUs < c.startUs + c.durUs)
    ? { ...mark, label: mark.label.split(': ')[0]! }
    : mark;
}

/** Where (px) a thread ran an op that a graph break's band label must not claim (markTexts `busy`). */
export interface OtherThreadOp {
  track: number;
  x0: number;
  x1: number;
}

/** room between two marks' labels; between a label and a step line (the line cuts no label: cutLines) */
const LABEL_GAP = 8;
const LINE_ROOM = 3;
/** the most a cut label starts right of its mark, past a label already there: further, it reads as another place's */
const NEAR = 12;

/** A finding's places: outlined down the pane, so the eye finds them after the zoom, but over the rows `clear`
 *  (clearOfBands), as its band stops there: the outline ran down through the profiled window's one bar (review 10G
 *  G6). Returns the boxes outlined, canvas px. */
export function drawFocus(
  ctx: CanvasRenderingContext2D,
  spans: readonly { startUs: number; durUs: number }[],
  top: number,
  left: number,
  width: number,
  height: number,
  xOf: (t: number) => number,
  theme: Theme,
  clear: readonly [number, number][] = [],
): Box[] {
  ctx.strokeStyle = theme.warning;
  ctx.lineWidth = 2;
  ctx.setLineDash([4, 3]);
  const boxes: Box[] = [];
  for (const span of spans) {
    const x0 = Math.max(left, xOf(span.startUs));
    const x1 = Math.min(width, Math.max(xOf(span.startUs + span.durUs), x0 + 2));
    if (x1 < left || x0 > width) continue;
    for (const [y0, y1] of bandRuns(top, height, clear))
      boxes.push({ x: x0 - 1, y: y0 + 1, w: x1 - x0 + 2, h: y1 - y0 - 2 });
  }
  for (const box of boxes) ctx.strokeRect(box.x, box.y, box.w, box.h);
  ctx.setLineDash([]);
  return boxes;
}

/** The range selection: the rest of the pane dimmed, its edges drawn. */
export function drawRange(
  ctx: CanvasRenderingContext2D,
  range: readonly [number, number],
  top: number,
  left: number,
  width: number,
  height: number,
  xOf: (t: number) => number,
  theme: Theme,
): void {
  const x0 = Math.max(left, Math.min(width, xOf(Math.min(range[0], range[1]))));
  const x1 = Math.max(left, Math.min(width, xOf(Math.max(range[0], range[1]))));
  ctx.globalAlpha = 0.35;
  ctx.fillStyle = theme.background;
  ctx.fillRect(left, top, x0 - left, height - top);
  ctx.fillRect(x1, top, width - x1, height - top);
  ctx.globalAlpha = 1;
  ctx.fillStyle = theme.selection;
  ctx.fillRect(x0 - 1, top, 2, height - top);
  ctx.fillRect(x1 - 1, top, 2, height - top);
}

/** Arrows from each launch (bottom of its slice) to its kernel (top of its slice), with a head at the kernel. */
export function drawArrows(
  ctx: CanvasRenderingContext2D,
  arrows: readonly FlowArrow[],
  point: (slice: number, end: 'from' | 'to') => { x: number; y: number } | null,
  theme: Theme,
): void {
  ctx.strokeStyle = theme.selection;
  ctx.fillStyle = theme.selection;
  ctx.lineWidth = 1.5;
  for (const arrow of arrows) {
    const a = point(arrow.from, 'from');
    const b = point(arrow.to, 'to');
    if (!a || !b) continue;
    ctx.beginPath();
    ctx.moveTo(a.x, a.y);
    // a gentle curve, as Perfetto draws flows: readable where many leave one launch
    const bend = (b.y - a.y) / 2;
    ctx.bezierCurveTo(a.x, a.y + bend, b.x, b.y - bend, b.x, b.y);
    ctx.stroke();
    const angle = Math.atan2(b.y - (b.y - bend), 0);
    ctx.beginPath();
    ctx.moveTo(b.x, b.y);
    ctx.lineTo(b.x - 4 * Math.cos(angle - 0.5), b.y - 4 * Math.sin(angle - 0.5));
    ctx.lineTo(b.x - 4 * Math.cos(angle + 0.5), b.y - 4 * Math.sin(angle + 0.5));
    ctx.closePath();
    ctx.fill();
  }
}
