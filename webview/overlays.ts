// What the timeline draws over a pane's slices: the compiler's marks in their lane under the axis (compiles,
// recompiles, graph breaks, CUDA-graph replays), a finding's places, the range selection, and launch → kernel
// arrows. Canvas only; every string is drawn as text.
import type { FlowArrow } from '../extension/shared/trace/flowLinks.ts';
import { SliceKind, type TrackInfo } from '../extension/shared/trace/model.ts';
import type { MarkKind, TimelineMark } from '../extension/shared/trace/timelineMarks.ts';
import type { LineSegment, Paint, TextBox } from './frameLayout.ts';
import { boundaryColour, rgbaOf, visibleAlpha } from './ink.ts';
import type { Theme } from './theme.ts';
import { fitEnd, placeText, type Measure } from './timelineText.ts';
import { ROW_HEIGHT } from './timelineRows.ts';

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

/** Each mark in view with its span in canvas x (at least 3 px, so a short one shows). */
function inView(
  marks: readonly TimelineMark[],
  left: number,
  width: number,
  xOf: (t: number) => number,
): { mark: TimelineMark; x0: number; x1: number }[] {
  return marks.flatMap((mark) => {
    const x0 = Math.max(left, xOf(mark.startUs));
    const x1 = Math.min(width, Math.max(xOf(mark.startUs + mark.durUs), x0 + 3));
    return x1 < left || x0 > width ? [] : [{ mark, x0, x1 }];
  });
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

/** The marks' labels in their lane, above the bars, none over another: first a finding's marks (those that begin in
 *  a `focused` span: the break the user asked to see keeps its label), then the marks that begin in view, then those
 *  that begin left of it (their label at the edge names a band mostly off-screen); in each, the compiles first, the
 *  longest first, then the breaks and replays from the left. Each label inside the call or step
 *  its mark begins in, between the step lines (`stepXs`) around it: one that runs across the next call's line reads
 *  as that call's (review 5A G5). Each label begins at its mark (review 9 D5/E3), whole where it fits; else cut
 *  before the next label, the next line or the edge; else none (the hover says it). Labels on either side of a step
 *  line need no more room between them than the line's. A break's label ends before a collective that another thread
 *  runs (`busy`): that time is a wait, not the eager code its band names. */
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
  const texts: TextBox[] = [];
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
  for (const { mark, x0 } of order) {
    // the room of the call the mark begins in: from the line at or before it to the next line, within the lane
    const from = Math.max(left, ...stepXs.filter((x) => x <= x0).map((x) => x + LINE_ROOM));
    const line = Math.min(width - 3, ...stepXs.filter((x) => x > x0).map((x) => x - LINE_ROOM));
    // a break's label ends where another thread of its process runs a collective: its band's time there is that
    // wait, not eager code (review 9 D4: "eager code between graphs" over rank 0's 2 s gloo:all_reduce); the
    // collective's own row says it
    const to =
      mark.kind === 'graph-break'
        ? Math.min(
            line,
            ...busy
              .filter((b) => b.track !== mark.track && b.x1 > x0 + 1)
              .map((b) => Math.max(b.x0, x0 + 1) - LABEL_GAP),
          )
        : line;
    // at its mark, never moved left of it: a label's x is read as its place (review 9 D5/E3: labels pushed left to
    // end at the next step line stood 300–800 µs before their stripes, over ordinary ops)
    const at = Math.max(from, x0 + 1);
    const fits = at + m.width(mark.label) <= to && clear(at, at + m.width(mark.label));
    // else cut, from its mark or just right of a label already there (NEAR px at most: next to its mark still)
    const free = fits
      ? at
      : [at, ...taken.map(([, q]) => q + gap(q, at))]
          .filter((x) => x >= at && x <= at + NEAR && clear(x, x + 1))
          .sort((a, b) => a - b)[0];
    if (free === undefined) continue;
    const next = Math.min(to, ...taken.map(([p]) => p - gap(free, p)).filter((p) => p > free));
    const text = fits ? mark.label : shortestFit(mark.label, next - free, m);
    if (!text) continue;
    // its middle 8 px into the lane: its box (11 px font) clear of the axis above and the bars below
    const box = placeText(m, 'mark', text, free, laneTop + 8, ink, under);
    texts.push(box);
    taken.push([box.x, box.x + box.w]);
  }
  return texts;
}

/**
 * A mark's label in `room` px where it does not fit whole: its head, the mark and its place, without what follows
 * its ": " ("graph break at line 22, in forward: eager code between graphs" is "graph break at line 22, in
 * forward"), then without the compile it is in ("graph break at line 22"; "graph break in 1st compiled call …" is
 * "graph break"), the first that fits whole; else that last cut, keeping its first word ("graph br…"; a "gra…"
 * says nothing: none then). The tooltip says the whole.
 */
export function shortestFit(label: string, room: number, m: Measure): string | null {
  const head = label.split(': ')[0]!;
  const shortest = head.split(/,? in /)[0]!;
  const least = shortest.split(' ')[0]!.length;
  // a cut between words ends at the word: "graph…", not "graph …"
  return (
    [head, shortest].find((form) => m.width(form) <= room) ??
    fitEnd(shortest, room, m, least)?.replace(/ …$/, '…') ??
    null
  );
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

/** A finding's places: outlined down the whole pane, so the eye finds them after the zoom. */
export function drawFocus(
  ctx: CanvasRenderingContext2D,
  spans: readonly { startUs: number; durUs: number }[],
  top: number,
  left: number,
  width: number,
  height: number,
  xOf: (t: number) => number,
  theme: Theme,
): void {
  ctx.strokeStyle = theme.warning;
  ctx.lineWidth = 2;
  ctx.setLineDash([4, 3]);
  for (const span of spans) {
    const x0 = Math.max(left, xOf(span.startUs));
    const x1 = Math.min(width, Math.max(xOf(span.startUs + span.durUs), x0 + 2));
    if (x1 < left || x0 > width) continue;
    ctx.strokeRect(x0 - 1, top + 1, x1 - x0 + 2, height - top - 2);
  }
  ctx.setLineDash([]);
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
