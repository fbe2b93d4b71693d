// Where the timeline's texts go, and the lines around them: the axis (tick labels in its first row, step labels in
// its second), texts cut with "…" to the room they have, and the vertical lines (ticks, step boundaries) cut where
// a text lies, so no line runs through a text and no text runs past the canvas or over another.
import { timeOnTicks } from '../extension/present/numbers.ts';
import type { LineSegment, Paint, TextBox, TextRole } from './frameLayout.ts';

/** The track-name column's width, left of every pane's time axis. */
export const LABEL_WIDTH = 190;

/** A text's width and the font's box above and below the middle (textBaseline 'middle'). */
export interface Measure {
  width(text: string): number;
  ascent: number;
  descent: number;
}

/** Height of each of the axis's two rows: the 11 px font's box fits in one. */
export const AXIS_ROW = 15;
export const AXIS_HEIGHT = 2 * AXIS_ROW;
/** space between a line and the text beside it, and around a text that cuts a line */
const PAD = 3;
/** a line cut shorter than this is left out */
const MIN_LINE = 2;
/** The least gap between a step's line and its label ending at the pane's edge: a px of air, the line not cut by it
 *  (cutLines) */
const EDGE_PAD = 1;
const ELLIPSIS = '…';
/** the tail after the last step's line beside that step's label, where its name has no room ("call 2 │ after it") */
const AFTER_IT = 'after it';

const widthsByFont = new Map<string, Map<string, number>>();
/** Trace names repeat in every frame: widths are kept per font, up to this many each. */
const MAX_KEPT_WIDTHS = 20_000;

/** The canvas's measure of its current font, widths kept across frames. */
export function canvasMeasure(ctx: CanvasRenderingContext2D): Measure {
  let widths = widthsByFont.get(ctx.font);
  if (!widths) widthsByFont.set(ctx.font, (widths = new Map<string, number>()));
  else if (widths.size > MAX_KEPT_WIDTHS) widths.clear();
  const font = ctx.measureText(ELLIPSIS);
  return {
    width(text) {
      let w = widths.get(text);
      if (w === undefined) widths.set(text, (w = ctx.measureText(text).width));
      return w;
    },
    ascent: font.fontBoundingBoxAscent,
    descent: font.fontBoundingBoxDescent,
  };
}

export function placeText(
  m: Measure,
  role: TextRole,
  text: string,
  x: number,
  middle: number,
  ink: Paint,
  under: Paint[],
): TextBox {
  return { role, text, x, y: middle - m.ascent, w: m.width(text), h: m.ascent + m.descent, middle, ink, under };
}

/** The longest n in [0, max] for which fits(n), given fits(0); fits is monotone. */
function longest(max: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** `text`, or its start and "…", in `room` px; null when fewer than `least` characters would show. */
export function fitEnd(text: string, room: number, m: Measure, least = 2): string | null {
  if (m.width(text) <= room) return text;
  const n = longest(text.length - 1, (k) => m.width(text.slice(0, k) + ELLIPSIS) <= room);
  return n >= least ? text.slice(0, n) + ELLIPSIS : null;
}

/**
 * `text` in `room` px, its middle left out where it must be ("CPU · thread … (pt_gloo_runloop)"): the start says
 * what it is, the end what tells it apart (a thread's id and name come last), so the end keeps the larger share;
 * the cut falls between words where that leaves at least half of each side.
 */
export function fitMiddle(text: string, room: number, m: Measure): string {
  if (m.width(text) <= room) return text;
  const split = (k: number): [string, string] => {
    const head = Math.floor(k * 0.4);
    return [text.slice(0, head), text.slice(text.length - (k - head))];
  };
  const [head, tail] = split(longest(text.length - 1, (k) => m.width(split(k).join(ELLIPSIS)) <= room));
  const headEnd = head.lastIndexOf(' ');
  const tailStart = tail.indexOf(' ');
  const words = `${headEnd >= head.length / 2 ? head.slice(0, headEnd) : head} ${ELLIPSIS} ${
    tailStart >= 0 && tailStart < tail.length / 2 ? tail.slice(tailStart + 1) : tail
  }`;
  return m.width(words) <= room ? words : head + ELLIPSIS + tail;
}

/**
 * `text` in `room` px keeping its character `at` and as much after it, then before it, as fits; starting at a
 * word where one begins between the cut and `at`.
 */
export function fitAround(text: string, at: number, room: number, m: Measure): string {
  const show = (from: number, to: number): string =>
    (from > 0 ? ELLIPSIS : '') + text.slice(from, to) + (to < text.length ? ELLIPSIS : '');
  const to = at + 1 + longest(text.length - at - 1, (k) => m.width(show(at, at + 1 + k)) <= room);
  const from = at - longest(at, (k) => m.width(show(at - k, to)) <= room);
  const word = text.indexOf(' ', from);
  return show(from > 0 && word >= from && word < at ? word + 1 : from, to);
}

export interface Tick {
  x: number;
  label: string;
}

/** A step boundary in view (one per pixel column): its line's x, its label ("step 2", "call 2") and its number
 *  ("2"), which a run's label says ("steps 2–3"): never alone (review 17Y Y8). */
export interface StepEdge {
  x: number;
  label: string;
  short: string | null;
  /** the trace's first step: what the stretch before its line is ("before step 1"); null for the others */
  before: string | null;
  /** where that stretch's recorded time begins: its label lies over it, never over blank axis left of it (review
   *  21Y Y3: graphbreak's "before step 1" began 11 px before its profiled window) */
  beforeFromX?: number;
  /** the step the view begins inside: labelled at the view's left edge, its line off-screen */
  begun?: boolean;
  /** the last of the steps that began in this line's pixel column after it (a step of 3 ms in a view of 2 s): its
   *  label says them all ("steps 1–2"), none left unsaid (review s29: "step 1 … 3", step 2 in no label) */
  through?: { label: string; short: string | null };
  /** the trace's warm-up step (its first, where later ones follow): its whole label saying so, tried first
   *  ("warm-up step 1") */
  warmUp?: string;
}

/**
 * The label of steps `from`–`to` (one step where they are the same) in the forms it may take, each saying what its
 * numbers count ("step 2", "steps 2–3"): never a bare "2–3", which beside a time axis reads as times, nor one lane's
 * "2–3" under another's "steps 2–3" (review 17Y Y8); none for a group of steps without numbers.
 */
function stepForms(from: StepEdge, to: StepEdge): string[] {
  const last = to.through ?? to;
  if (from === last || (from === to && last.short === null))
    return [from.warmUp ?? null, from.label].filter((t) => t !== null);
  if (from.short === null || last.short === null) return [];
  const unit = from.label.slice(0, from.label.length - from.short.length).trim();
  return [`${unit}s ${from.short}–${last.short}`];
}

/**
 * The axis over [left, width]: each tick label right of its tick in the first row (left out where it would touch the
 * one before; where it would run past the right edge, its tick too: one turned to the tick's left reads as the tick
 * before's), each step label right of its line in the second row, ending before the next step's line; every step in
 * view labelled, each label saying what it counts (stepForms): steps too close for a label each, one label for the run
 * of them ("step 1 │ steps 2–3", never a bare number, a label cut mid-word or a step left unsaid); the last ones, where
 * no room is left right of their line before the pane's edge, ending at the edge where it still begins right of their
 * line, else joined to the label before ("steps 1–3" from step 1's line), never begun over the step before's bar
 * (review 18Y Y6); none where even that has no room (a step's number alone read as a time: review 17Y Y8). Tick lines
 * in the first row, step lines from the second row down. `tail`: the line where the trace's last step ends with time
 * after it, its stretch named right of it ("after call 2", beside that step's own label "after it" where that has no
 * room), as the lead-in is left of the first line, never cut (review 15W W9, 18Y Y10: the lead-in named, the tail
 * not).
 */
export function axisLayout(
  ticks: readonly Tick[],
  steps: readonly StepEdge[],
  frame: { left: number; width: number; height: number },
  m: Measure,
  ink: Paint,
  under: Paint[],
  tail: { x: number; label: string } | null = null,
): { texts: TextBox[]; lines: LineSegment[] } {
  const { left, width, height } = frame;
  const texts: TextBox[] = [];
  const lines: LineSegment[] = [];
  let free = left;
  for (const { x, label } of ticks) {
    const w = m.width(label);
    const at = x + 1 + PAD;
    // a tick at the right edge with no room for its label: not drawn, a tick with no number says nothing (review 12
    // M10: "1.5 s │ … │" at 700 px)
    if (at + w > width) continue;
    lines.push({ role: 'tick', x, w: 1, y0: 0, y1: AXIS_ROW });
    if (at < free) continue;
    texts.push(placeText(m, 'tick', label, at, AXIS_ROW / 2, ink, under));
    free = at + w + 2 * PAD;
  }
  for (const { x, begun } of steps) if (!begun) lines.push({ role: 'step', x, w: 1, y0: AXIS_ROW, y1: height });
  const middle = AXIS_ROW + AXIS_ROW / 2;
  // the trace's first step in view: the stretch before it named, where the axis has no time (its ticks start at 0);
  // whole or not at all: a bare "before │ step 1" read as a stray word (review 8B B12)
  const before = steps[0]?.before;
  const leadFrom = Math.max(left, steps[0]?.beforeFromX ?? left);
  const lead = before && steps[0]!.x - PAD - m.width(before) >= leadFrom + PAD ? before : null;
  /** where the last step label ended */
  let stepFree = left;
  if (lead) {
    texts.push(placeText(m, 'step', lead, steps[0]!.x - PAD - m.width(lead), middle, ink, under));
    stepFree = steps[0]!.x;
  }
  /** the step labels placed: each one's first step and where it begins */
  const runs: { first: number; x: number; text: number }[] = [];
  const place = (text: string, x: number, first: number): void => {
    runs.push({ first, x, text: texts.length });
    texts.push(placeText(m, 'step', text, x, middle, ink, under));
    stepFree = x + m.width(text) + PAD;
  };
  let k = 0;
  while (k < steps.length) {
    const at = steps[k]!.x + 1 + PAD;
    let placed = false;
    // step k's label alone, or with the steps after it too close for a label of their own
    for (let j = k; j < steps.length && !placed; j++) {
      // a label past its step's end into the gap before the next one's line, where it still reads as its line's
      const room = Math.min(steps[j + 1]?.x ?? Infinity, width) - PAD - at;
      const forms = stepForms(steps[k]!, steps[j]!);
      const text = forms.find((t) => m.width(t) <= room);
      if (text) {
        place(text, at, k);
        k = j + 1;
        placed = true;
      }
    }
    if (placed) continue;
    // the steps from k on, with no room right of k's line before the pane's edge: their label ends at the edge, its
    // pad there given up, never begun left of k's line, where it stood over the step before's bar (review 18Y Y6:
    // "steps 2–3" 13 px into step 1 at 700 px)
    const from = Math.max(stepFree, steps[k]!.x + 1 + EDGE_PAD);
    const text = stepForms(steps[k]!, steps[steps.length - 1]!).find((t) => width - m.width(t) >= from) ?? null;
    if (text) {
      place(text, width - m.width(text), k);
      break;
    }
    // else they join the label before, from its line ("steps 1–3"), every step in view said; none where that has no
    // room either
    const before = runs.at(-1);
    const joined =
      before && stepForms(steps[before.first]!, steps[steps.length - 1]!).find((t) => before.x + m.width(t) <= width);
    if (before && joined) {
      texts[before.text] = placeText(m, 'step', joined, before.x, middle, ink, under);
      stepFree = before.x + m.width(joined) + PAD;
    }
    break;
  }
  // the tail: its name whole, else beside the last step's own label "after it" ("call 2 │ after it"), either ending
  // at the pane's edge, its pad there given up as the steps' is: ≈57 px of launches after call 2 unnamed, though the
  // lead-in was (review 18Y Y10)
  const after = tail ? tail.x + 1 + PAD : Infinity;
  const last = runs.at(-1);
  const besideItsStep = last?.first === steps.length - 1 && texts[last.text]!.text === steps.at(-1)!.label;
  const tailText = tail && after >= stepFree ? [tail.label, ...(besideItsStep ? [AFTER_IT] : [])] : [];
  const said = tailText.find((t) => after + m.width(t) <= width);
  if (said) texts.push(placeText(m, 'step', said, after, middle, ink, under));
  return { texts, lines };
}

/** The lines less where they would cross a text (and a little around it); pieces too short to see left out. */
export function cutLines(lines: readonly LineSegment[], texts: readonly TextBox[]): LineSegment[] {
  const boxes = [...texts].sort((a, b) => a.x - b.x);
  const order = lines.map((_, i) => i).sort((a, b) => lines[a]!.x - lines[b]!.x);
  const out: LineSegment[] = [];
  // a sweep in x: `active` holds the boxes begun left of the line that may still reach it
  let next = 0;
  let active: TextBox[] = [];
  for (const i of order) {
    const line = lines[i]!;
    while (next < boxes.length && boxes[next]!.x - 1 < line.x + line.w) active.push(boxes[next++]!);
    active = active.filter((b) => b.x + b.w + 1 > line.x);
    const gaps = active
      .filter((b) => b.y - 1 < line.y1 && b.y + b.h + 1 > line.y0)
      .map((b) => [b.y - 1, b.y + b.h + 1] as const)
      .sort((a, b) => a[0] - b[0]);
    let y = line.y0;
    for (const [top, bottom] of gaps) {
      if (top - y >= MIN_LINE) out.push({ ...line, y0: y, y1: top });
      y = Math.max(y, bottom);
    }
    if (line.y1 - y >= MIN_LINE) out.push({ ...line, y0: y });
  }
  return out;
}

/** Maps pane time (µs since the aligned step's start) to canvas x and back. */
export interface TimeScale {
  (t: number): number;
  invert(x: number): number;
  ticks(count: number): number[];
}

/** How many ticks the axis asks its scale for at this width: as many as their labels fit. */
const tickCount = (width: number): number => Math.max(2, Math.min(8, Math.floor((width - LABEL_WIDTH) / 90)));

/**
 * The axis's ticks at this width (µs of pane time) and how it says a time: in the unit of the time the view spans,
 * whatever the width ("0.5 ms" ticks at 1400 px beside "1 ms" ones at 560 px, never "500 µs": review 8B B6), with
 * the digits their spacing needs.
 */
export function axisTicks(scale: TimeScale, width: number): { ticks: number[]; say: (us: number) => string } {
  const ticks = scale.ticks(tickCount(width));
  return { ticks, say: timeOnTicks(ticks, scale.invert(width) - scale.invert(LABEL_WIDTH)) };
}

/** A time on the panes' axis in the axis's unit and digits ("7,870 µs" beside ticks "7,800 µs", never "7.87 ms"). */
export function axisTime(us: number, scale: TimeScale, width: number): string {
  return axisTicks(scale, width).say(us);
}

/**
 * A slice's label in `room` px: its name less its namespace ("all_reduce" of "gloo:all_reduce", "addmm" of
 * "aten::addmm"), else its first whole words and "…" ("checking the compiled…"); null where no whole word fits, the
 * hover names it. Left out at every width, in every view: one op said one way across views of one trace
 * ("all_reduce" at 1400 px beside "gloo:all_reduce" at 700 px read as two collectives, review 10 G7). Never part of
 * a word: "add…" of addmm read as the fused-away add, "chec…" said nothing (review 14 R3, S8).
 */
export function sliceLabel(name: string, room: number, m: Measure): string | null {
  const text = withoutNamespace(name);
  if (m.width(text) <= room) return text;
  // a name's part ("Inductor" of "Inductor: codegen and load") is no cut of it: "Inductor…" read as the "Inductor"
  // bar above it (review 17Y Y7). Its own name whole ("codegen and load", one form in both compiles' columns, never
  // "Inductor: codegen…" over its child "Inductor: codegen"), else its own name cut: never the part kept and the name
  // cut away ("Inductor: lower…" over "codegen and load" read as two choices one row apart: review 19Y Y4)
  const own = text.slice(partOf(text).length);
  return m.width(own) <= room ? own : wholeWordsIn(own, room, m);
}

/** A slice's label as sliceLabel cuts it, where it is drawn: its name, its row's y. */
export interface RowLabel {
  name: string;
  row: number;
  text: string | null;
}

/**
 * A row's labels of one name said alike as to its part: where one leaves the part off ("load module", no room for
 * "Inductor: load module"), so do the others of its name in its row, their own name whole (the forward's
 * "load module" beside the backward's "Inductor: load module" read as two phases, or one cut two ways: review 18Y,
 * 17Z Z9). Each label's text, in `labels`' order.
 */
export function partsSaidAlike(labels: readonly RowLabel[]): (string | null)[] {
  const partOfLabel = (l: RowLabel): string => partOf(withoutNamespace(l.name));
  const saysPart = (l: RowLabel): boolean => l.text?.startsWith(partOfLabel(l)) ?? false;
  const leftOff = new Set(
    labels.filter((l) => partOfLabel(l) !== '' && l.text !== null && !saysPart(l)).map((l) => `${l.row}\n${l.name}`),
  );
  // (one that says its part says its name whole: its own name, shorter, fits its room)
  return labels.map((l) =>
    saysPart(l) && leftOff.has(`${l.row}\n${l.name}`) ? withoutNamespace(l.name).slice(partOfLabel(l).length) : l.text,
  );
}

/** `text`'s first whole words and "…", in `room` px; null where none fit. */
function wholeWordsIn(text: string, room: number, m: Measure): string | null {
  for (let end = text.lastIndexOf(' '); end > 0; end = text.lastIndexOf(' ', end - 1)) {
    const words = text.slice(0, end).replace(/[\s,;:(–-]+$/, '');
    if (saysSomething(words) && m.width(words + ELLIPSIS) <= room) return words + ELLIPSIS;
  }
  return null;
}

/** a compiler part before a phase's own name: "Inductor: " of "Inductor: codegen and load"; a part is a name of a
 *  word or two, never a phrase ("inside CUDA set-up, the profiler's own work: a buffer …" keeps its words) */
const PART = /^[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)?: (?=\S)/;
export const partOf = (text: string): string => PART.exec(text)?.[0] ?? '';

/** words that leave what they name unsaid: "Inductor's…", "code of…", "compiled forward, after its…" */
const DANGLING =
  /(?:['’]s?|\b(?:of|in|inside|at|on|to|for|from|by|with|into|after|before|than|the|a|an|and|or|nor|its|their|his|her))$/i;

/** Whether a label's first words, cut before the rest, say what the slice is: not ending in a word that leads to
 *  the rest, nor inside brackets left open. */
function saysSomething(words: string): boolean {
  return words.length > 0 && !DANGLING.test(words) && words.split('(').length === words.split(')').length;
}

// every namespace: "autograd::engine::evaluate_function: …" keeps "evaluate_f…", not "engine::e…"
const NAMESPACE = /^(?:[A-Za-z_][\w.]*::?(?=\S))+/;
export const withoutNamespace = (name: string): string => name.slice(NAMESPACE.exec(name)?.[0].length ?? 0);
