// The stretches of a profiler step where its thread recorded no op: drawn blank, they read as nothing happening, or
// go unseen (review 5A: rank 1's 40 ms before its all_reduce, explained only in the rank table's "no op recorded").
// Found in the row under the step's slice, in O(stretches × log n): a run of ops is jumped by binary search; said
// by labels that fit them. A stretch where another thread of its process ran a collective is its thread waiting for
// it: said so (review 9 D4: rank 0's 2 s while rank 1 recompiled, an empty box with no word).
import { formatUs } from '../extension/present/numbers.ts';
import { SliceKind, type TraceModel } from '../extension/shared/trace/model.ts';
import { withoutNamespace, type Measure } from './timelineText.ts';
import { firstVisible, lowerBoundStart, type Row } from './timelineRows.ts';
import { LAST_TO_ARRIVE } from './analysis/rankWaits.ts';
import type { SliceWords } from './sliceTexts.ts';
import {
  lastToArriveForms,
  noOpRecordedForms,
  noOpRecordedHover,
  waitingInForms,
  waitingInHover,
  waitWordsOf,
} from './timelineWords.ts';

/** a stretch is said where it is at least this wide, or this share of the view where that is less: a narrow pane's
 *  (review 8B B8: rank 1's 40 ms, the straggler, unlabelled at 560 px in a 90 px stretch), never a wide one's few ms
 *  between ops */
const UNRECORDED_PX = 120;
const UNRECORDED_SHARE = 0.1;
/** a stretch's label's room inside it, each side */
export const GAP_INSET = 3;

/** A stretch of a step on its thread with no op recorded: the row it lies in, its µs of the model's time; where
 *  another thread of its process ran a collective all that time, that collective's slice (the thread waited for
 *  it), else -1; and the thread's whole stretch with no op it lies in (`idleFromUs`, `idleToUs`: the collective's
 *  wait is part of it; the stretch itself where none), where its label is set. */
export interface Unrecorded {
  row: Row;
  fromUs: number;
  toUs: number;
  collective: number;
  idleFromUs: number;
  idleToUs: number;
}

/** A stretch said: its label (null: no room for it); where its thread waited in a collective, that op's name
 *  ("all_reduce") and what it waited for ("rank 1, recompiling"; null: not known), each worked out once for the label
 *  and the hover alike (unrecordedHover), and how long it waited for that rank. */
export interface UnrecordedLabel {
  stretch: Unrecorded;
  text: string | null;
  op: string | null;
  cause: string | null;
  /** of its time in the collective, the part before the rank it waited for reached it (µs; null: not known) */
  waitUs: number | null;
  /** where its label begins (µs of the model's time): the gap's start, or the wait's (its collective's) where the
   *  label says the wait's time alone (waitAloneAt); the view's left edge where that lies left of it */
  atUs: number;
  /** where the stretch runs past the view's edges, the µs of it in view (its hover says so); null: all of it */
  inViewUs: number | null;
}

/**
 * The stretches of [tMin, tMax] wide enough to be said, each with the longest of its label's forms that fits in it
 * (noOpRecordedForms, waitingInForms): at every width its time first and words that mean the same, fewer of them,
 * each form whole words (never "no op · 40.2 ms": review 10 F8, nor words without the time: review 11 I7, nor a cut
 * on "in": review 13 Q4, nor "38.6 ms, no op", a no-op: review 15 W6), the stretches with no op in one word
 * ("38.6 ms unrecorded": review 17 X5; at 560 px rank 1's stretches, the straggler's, unlabelled: review 19 X1/Y1/Z1); a stretch with room for none, unlabelled (null: its hover says it).
 */
export function unrecordedLabels(
  model: TraceModel,
  rows: readonly Row[],
  tMin: number,
  tMax: number,
  xOf: (t: number) => number,
  m: Measure,
  /** per name id, 1 for a collective (analysis/communication.ts) */
  collectives: Uint8Array = new Uint8Array(model.names.length),
  /** what a stretch's thread waited for in its collective, where the view shows it: the rank ("rank 1"), with what
   *  it did meanwhile where its trace says ("rank 1, recompiling", "rank 1, which recorded no op then") */
  waitedFor: (stretch: Unrecorded) => string | null = () => null,
  /** when the rank it waited for reached that collective (the model's time), where the ranks' clocks compare; null:
   *  not known, and no wait for a rank said */
  waitedUntil: (stretch: Unrecorded) => number | null = () => null,
): UnrecordedLabel[] {
  const viewPx = Math.max(1, xOf(tMax) - xOf(tMin));
  const minUs = (Math.min(UNRECORDED_PX, UNRECORDED_SHARE * viewPx) * (tMax - tMin)) / viewPx;
  const stretches = unrecordedInSteps(model, rows, tMin, tMax, minUs, collectives, 'whole');
  // (in the part of it in view, its arrows included)
  const fits = (form: string, { stretch, waitUs }: { stretch: Unrecorded; waitUs: number | null }): boolean =>
    m.width(pastView(form, stretch, tMin, tMax)) <=
    xOf(Math.min(tMax, stretch.idleToUs)) - xOf(Math.max(tMin, waitAloneAt(form, stretch, waitUs))) - 2 * GAP_INSET;
  const said = stretches.map((stretch) => {
    const us = stretch.toUs - stretch.fromUs;
    if (stretch.collective >= 0) {
      const op = withoutNamespace(model.names[model.name[stretch.collective]!]!);
      const cause = waitedFor(stretch);
      const idleUs = stretch.idleToUs - stretch.idleFromUs;
      const until = cause === null || cause === LAST_TO_ARRIVE ? null : waitedUntil(stretch);
      // (the part of its time in the collective before that rank reached it: the rest is the collective's own work)
      const waitUs = until === null ? null : Math.min(stretch.toUs, Math.max(stretch.fromUs, until)) - stretch.fromUs;
      const forms = waitingInForms(op, us, cause, idleUs, waitUs);
      return { stretch, forms, text: forms.find((f) => fits(f, { stretch, waitUs })) ?? null, op, cause, waitUs };
    }
    const text = noOpRecordedForms(us)[0]!;
    const fit = fits(text, { stretch, waitUs: null });
    return { stretch, forms: [], text: fit ? text : null, op: null, cause: null, waitUs: null };
  });
  // a wait-only label ends by the other rank's arrival where it can: one from the wait's start that would run past it
  // starts as much earlier, never before the gap (review 21Z Z2: "494 µs wait" at 560 px ran 12 px past rank 1's
  // arrival and read as a 0.58 ms wait)
  const usPerPx = (tMax - tMin) / viewPx;
  const startOf = (text: string, stretch: Unrecorded, waitUs: number | null): number => {
    const at = waitAloneAt(text, stretch, waitUs);
    if (waitUs === null || at !== stretch.fromUs || stretch.idleFromUs >= stretch.fromUs) return at;
    const over = xOf(at) + m.width(text) + 2 * GAP_INSET - xOf(stretch.fromUs + waitUs);
    return over > 0 ? Math.max(stretch.idleFromUs, at - over * usPerPx) : at;
  };
  return oneWaitWords(said, fits).map(({ stretch, text, op, cause, waitUs }) => ({
    stretch,
    text: text === null ? null : pastView(text, stretch, tMin, tMax),
    op,
    cause,
    waitUs,
    atUs: Math.max(tMin, text === null ? stretch.idleFromUs : startOf(text, stretch, waitUs)),
    inViewUs: inView(stretch, tMin, tMax),
  }));
}

/** Of a stretch that runs past the view [tMin, tMax], the µs in view; null: all of it in view. */
function inView({ idleFromUs, idleToUs }: Unrecorded, tMin: number, tMax: number): number | null {
  return idleFromUs < tMin || idleToUs > tMax ? Math.min(tMax, idleToUs) - Math.max(tMin, idleFromUs) : null;
}

/** A stretch's label with an arrow at each edge of the view it runs past, as a pane's note points to its ops off the
 *  view (offViewOps.ts: "they begin at 119 µs →"): its whole time said, the arrow saying the rest is out there (review
 *  20Y Y1: the part in view said as its length, "16.1 µs unrecorded" of a 119 µs stretch). */
function pastView(form: string, { idleFromUs, idleToUs }: Unrecorded, tMin: number, tMax: number): string {
  return `${idleFromUs < tMin ? '← ' : ''}${form}${idleToUs > tMax ? ' →' : ''}`;
}

/** Where a stretch's label in form `form` begins: a form that says the wait's time alone ("36.8 ms wait for rank 1")
 *  at the wait's start, its collective's, where that is later than the gap's (review 19Z Z2: "494 µs wait for rank
 *  1" set at the head of a 914 µs gap, 110 µs before the wait began, read as the gap's length); the gap's time, or
 *  one inside it, at the gap's start. */
function waitAloneAt(form: string, stretch: Unrecorded, waitUs: number | null): number {
  const waitAlone = waitUs !== null && waitUs > 0 && form.startsWith(`${formatUs(waitUs)} wait`);
  return waitAlone ? stretch.fromUs : stretch.idleFromUs;
}

/**
 * A pane's waits in one set of words (waitWordsOf), as its stretches with no op are in one word: the narrowest any of
 * them needs, each in its widest form of those words that fits. At 700 px rank 0's three read "36.8 ms wait for rank
 * 1", "37.9 ms wait for rank 1", "30.6 ms wait" (waits engineer's note): one wait for rank 1 and two of other kinds
 * to a reader; each "… wait" now, whom in the hover (a job of two ranks has one other), rather than the ones that fit
 * keeping "for rank 1" and the third unlabelled, a blank bar where rank 0 waited (review 9 D4). A wait said with no
 * wait form (its op's time, "41.7 ms in all_reduce", where "wait for rank 1" has no room) needs the next one down;
 * one with room for none leaves the others as they are.
 */
function oneWaitWords<L extends { stretch: Unrecorded; forms: string[]; text: string | null }>(
  said: L[],
  fits: (form: string, label: L) => boolean,
): L[] {
  // the words of the first wait form at or after its own: the ones it has room for
  const needs = (forms: readonly string[], text: string | null): number => {
    const at = text === null ? -1 : forms.indexOf(text);
    return at < 0
      ? -1
      : (forms
          .slice(at)
          .map(waitWordsOf)
          .find((w) => w !== null) ?? -1);
  };
  const words = Math.max(-1, ...said.map(({ forms, text }) => needs(forms, text)));
  return said.map((label) => {
    const from = label.forms.findIndex((f) => (waitWordsOf(f) ?? -1) >= words);
    if (words <= 0 || from < 0 || needs(label.forms, label.text) === -1) return label;
    return { ...label, text: label.forms.slice(from).find((f) => fits(f, label)) ?? null };
  });
}

/** A slice's label words (`said`), and where it is a collective (`collectives`) that its rank reached last, every
 *  other rank already in it (`waitedFor` of its time: analysis/rankWaits.ts), the whole shorter forms that say so in
 *  the room its bar has (lastToArriveForms): the bar that says why another rank waited, never left blank where
 *  "all_reduce" has no room (review 15 W1). */
export function collectiveWords(
  model: TraceModel,
  said: SliceWords,
  collectives: Uint8Array,
  waitedFor: (fromUs: number, toUs: number) => string | null,
): SliceWords {
  const { i, words } = said;
  // (its run on the collective's own thread: the call on the step's thread that hands it over is not where it waits)
  if (collectives[model.name[i]!] !== 1 || model.depth[i] !== 0) return said;
  if (waitedFor(model.start[i]!, model.start[i]! + model.dur[i]!) !== LAST_TO_ARRIVE) return said;
  const [whole, ...shorter] = lastToArriveForms(withoutNamespace(words));
  return { i, words: whole!, shorter };
}

/** A stretch's hover, whether its label fits or not: its time, and where its thread waited in a collective, that op,
 *  the thread it ran on (`threads`: per track, its name as the label column draws it) and its label's cause. */
export function unrecordedHover(
  model: TraceModel,
  { stretch, op, cause, waitUs, inViewUs }: UnrecordedLabel,
  threads: readonly string[],
): string {
  const us = stretch.toUs - stretch.fromUs;
  const idleUs = stretch.idleToUs - stretch.idleFromUs;
  return op === null
    ? noOpRecordedHover(us, inViewUs)
    : waitingInHover(op, us, threads[model.track[stretch.collective]!]!, cause, idleUs, waitUs, inViewUs);
}

/** The longest stretch of [fromUs, toUs] where a step's thread recorded no op, nor waited in a collective, of at
 *  least `leastUs` (0: none that long), over the trace's rows (every track's levels: TrackRows of the whole trace,
 *  whatever is in view): what another rank did while one waited for it (analysis/rankWaits.ts). */
export function longestUnrecorded(
  model: TraceModel,
  rows: readonly Row[],
  fromUs: number,
  toUs: number,
  leastUs: number,
  collectives: Uint8Array,
): number {
  return unrecordedInSteps(model, rows, fromUs, toUs, Math.max(1, leastUs), collectives, 'cut')
    .filter((s) => s.collective < 0)
    .reduce((longest, s) => Math.max(longest, s.toUs - s.fromUs), 0);
}

/**
 * Each stretch of at least `minUs` inside a profiler step (a "ProfilerStep#N" slice of a thread) where nothing is
 * nested in the step (the ops the step ran are its thread's next level) and no other CPU thread of its process ran an
 * op: a rank's all_reduce on gloo's thread is its step's work (review 7A K1: "no op recorded · 44.5 ms" on rank 0's
 * thread beside the rank table's 3.72 ms). `reach` 'cut': the stretches of [tMin, tMax], cut by its ends (what
 * another rank did during a wait); 'whole': each stretch that reaches into [tMin, tMax], whole, past its ends where it
 * runs on (a zoomed view's: review 20Y Y1, "16.1 µs unrecorded", the window's width, said of a 119 µs stretch).
 */
function unrecordedInSteps(
  model: TraceModel,
  rows: readonly Row[],
  tMin: number,
  tMax: number,
  minUs: number,
  collectives: Uint8Array,
  reach: 'cut' | 'whole',
): Unrecorded[] {
  const found: Unrecorded[] = [];
  const end = (i: number): number => model.start[i]! + model.dur[i]!;
  for (const [k, steps] of rows.entries()) {
    const ops = rows[k + 1];
    if (steps.depth !== 0 || steps.folded || ops?.track !== steps.track || ops.depth !== 1) continue;
    for (let s = firstVisible(model, steps, tMin); s < steps.end && model.start[s]! <= tMax; s++) {
      if (model.kind[s] !== SliceKind.Step) continue;
      let [from, to] = [Math.max(tMin, model.start[s]!), Math.min(tMax, end(s))];
      if (reach === 'whole') {
        // out to the thread's ops each side of the view (a level's slices do not overlap: their ends sorted as their
        // starts), within the step
        const before = lowerBoundStart(model, ops.first, ops.end, tMin) - 1;
        const after = lowerBoundStart(model, ops.first, ops.end, tMax);
        from = Math.max(model.start[s]!, before >= ops.first ? Math.min(tMin, end(before)) : -Infinity);
        to = Math.min(end(s), after < ops.end ? model.start[after]! : Infinity);
      }
      let i = firstVisible(model, ops, from);
      let cursor = from;
      if (i < ops.end && model.start[i]! < from) cursor = Math.max(from, end(i++));
      while (cursor < to) {
        // the ops that begin within minUs of the cursor leave no stretch that long: on to the last one's end
        const j = lowerBoundStart(model, i, ops.end, cursor + minUs);
        if (j > i) {
          cursor = Math.max(cursor, end(j - 1));
          i = j;
          continue;
        }
        const next = i < ops.end ? Math.min(model.start[i]!, to) : to;
        if (next - cursor >= minUs) found.push(...unbusy(model, rows, ops, cursor, next, minUs, collectives));
        if (i >= ops.end || model.start[i]! >= to) break;
        cursor = end(i++);
      }
    }
  }
  // (whole: the stretches past the ops each side of the view's, found out there among other threads' ops, left out)
  return reach === 'cut' ? found : found.filter((s) => s.idleToUs > tMin && s.idleFromUs < tMax);
}

/**
 * The parts of [from, to) of at least minUs where no other CPU thread of `ops`'s process had a top-level op, and
 * those where one ran a collective (`collectives`): `ops`'s thread waiting for it. Where it waited, the longest wait
 * alone, said as part of the whole of [from, to): one label in one gap, its number the gap's (review 17Z Z3: "765 µs,
 * waiting" set in a 921 µs gap).
 */
function unbusy(
  model: TraceModel,
  rows: readonly Row[],
  ops: Row,
  from: number,
  to: number,
  minUs: number,
  collectives: Uint8Array,
): Unrecorded[] {
  const own = model.tracks[ops.track]!;
  const busy: [number, number, number][] = [];
  for (const row of rows) {
    const track = model.tracks[row.track]!;
    if (row.depth !== 0 || row.track === ops.track || track.gpu || track.stack || track.pid !== own.pid) continue;
    for (let i = firstVisible(model, row, from); i < row.end && model.start[i]! < to; i++)
      busy.push([model.start[i]!, model.start[i]! + model.dur[i]!, i]);
  }
  busy.sort((a, b) => a[0] - b[0]);
  const out: Unrecorded[] = [];
  const stretch = (fromUs: number, toUs: number, collective: number): Unrecorded => ({
    row: ops,
    fromUs,
    toUs,
    collective,
    idleFromUs: fromUs,
    idleToUs: toUs,
  });
  let cursor = from;
  for (const [a, b, i] of busy) {
    if (a - cursor >= minUs) out.push(stretch(cursor, Math.min(a, to), -1));
    const [waitFrom, waitTo] = [Math.max(cursor, a), Math.min(b, to)];
    if (collectives[model.name[i]!] && waitTo - waitFrom >= minUs) out.push(stretch(waitFrom, waitTo, i));
    cursor = Math.max(cursor, b);
    if (cursor >= to) break;
  }
  if (to - cursor >= minUs) out.push(stretch(cursor, to, -1));
  const waits = out.filter((s) => s.collective >= 0);
  if (!waits.length) return out;
  const longest = waits.reduce((a, b) => (b.toUs - b.fromUs > a.toUs - a.fromUs ? b : a));
  return [{ ...longest, idleFromUs: from, idleToUs: to }];
}
