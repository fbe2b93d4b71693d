// The webview's own words: what the timeline's state is (what is loading, what the user selected or searched, where
// a finding was placed), written here and nowhere else in the webview. Words about the report's data are the
// runner's (native-runner/compile_lens_runner/report/), shown as carried; these are only the timeline's state, from
// its panes, times and counts.
import { formatUs, formatWhole, plural } from '../extension/present/numbers.ts';
import { stepNumber, stepUnit, type StepsCompared } from './analysis/stepMap.ts';
import { LAST_TO_ARRIVE, type WaitCause } from './analysis/rankWaits.ts';

/** While the traces are read: "Reading the trace…", "Reading 2 more traces…". */
export const readingTraces = (count: number, more = false): string =>
  more ? `Reading ${plural(count, 'more trace')}…` : `Reading the trace${count === 1 ? '' : 's'}…`;

export const comparisonPending = 'The comparison of the traces appears when they have fully loaded.';

/**
 * A pane's title: "eager — 70 events, 3 steps", its steps counted by what its markers call them ("3 calls" where
 * they were found as repeated calls), and the threads it does not show: "· 2 threads with no events not shown".
 */
export const paneTitle = (
  pane: string,
  events: number,
  steps: { label: string }[],
  hiddenThreads: number,
  loading: boolean,
): string => {
  const unit = stepUnit(steps);
  const hidden = hiddenThreads ? ` · ${plural(hiddenThreads, 'thread')} with no events not shown` : '';
  return `${pane} — ${formatWhole(events)} ${events === 1 ? 'event' : 'events'}, ${plural(steps.length, unit)}${hidden}${loading ? ' — loading all slices…' : ''}`;
};

/**
 * The row, in their place among a pane's tracks, of the ones next to each other with no event in view, not drawn
 * empty, in the forms it may take, longest first: one by its name as the label column draws it (`drawn`: "thread
 * 28229 (python3): nothing here": "1 thread" did not say which, review 8B B12), or by its id, else counted,
 * "2 threads: nothing here" ("2 tracks" where a GPU stream or the profiler's own tracks are among them); its
 * tooltip names them (idleTracksTooltip). Not "… idle here": "profiler overhead idle here" read as the overhead idle
 * (review 15W W7).
 */
export function idleTracksNote(
  idle: readonly { gpu: boolean; pid: string; tid: string }[],
  drawn: readonly string[],
): string[] {
  // Kineto's own tracks (pid -1, "Spans") are no thread of the user's
  const threads = idle.every((t) => !t.gpu && /^\d+$/.test(t.pid) && /^\d+$/.test(t.tid));
  const none = ': nothing here';
  const counted = `${plural(idle.length, threads ? 'thread' : 'track')}${none}`;
  // without the OS's name for it where that does not fit ("thread 28229: nothing here"): its id tells it apart
  const byId = drawn[0]?.replace(/^(thread \d+) \(.*\)$/, '$1');
  return idle.length === 1 ? [...new Set([`${drawn[0]}${none}`, `${byId}${none}`]), counted] : [counted];
}

/** That row's tooltip, the idle tracks by their whole names. */
export const idleTracksTooltip = (names: readonly string[]): string =>
  `No event in view on ${names.join(', ')}: not drawn until the view reaches one of theirs.`;

/**
 * The line under a pane's title, one short line: which of its steps are in view, by the numbers its markers say
 * (the title counts them all), and that they ran under the profiler: "steps 2–3 in view (of steps 2–4) · under the
 * profiler (slower than timed)"; where its compiled calls are named by their place (`callsByPlace`: no report and
 * no Python stacks name their code), a word of it; its warm-up step (`warmUp`, its number) where in view, as such.
 * `tooltip` says why. `profiled`: the report's words for its traces
 * (schema 1.33's profilerNote, the runner's: they were not timed, the answer's numbers were); a trace opened without
 * a report (or one before 1.33) is said here, where the timeline's own words are.
 */
export function paneStepsNote(
  inView: StepsCompared | null,
  steps: { label: string }[],
  profiled: { label: string; text: string } | null,
  callsByPlace = false,
  warmUp: number | null = null,
): { text: string; tooltip: string } {
  const unit = stepUnit(steps);
  const all = steps.length
    ? stepsText(
        { first: stepNumber(steps[0]!.label, 1), last: stepNumber(steps[steps.length - 1]!.label, steps.length) },
        unit,
      )
    : '';
  // a trace of one step: that it is the only one, plainly (review 13P P8: "call 4 in view (all 1)")
  const inViewText = (seen: StepsCompared): string =>
    steps.length === 1
      ? `${all}, the only one profiled`
      : `${stepsText(seen, unit)} in view${stepsText(seen, unit) === all ? ` (all ${steps.length})` : ` (of ${all})`}`;
  const shown = !steps.length
    ? ''
    : inView
      ? `${inViewText(inView)} · `
      : `none of its ${plural(steps.length, unit)} in view · `;
  const { label, text } = profiled ?? {
    label: 'its overhead included',
    text: 'This trace ran under the profiler: its overhead is in every time here.',
  };
  // the warm-up said where it is in view: its time is no steady step's (review 31 B2)
  const warm =
    inView && warmUp !== null && inView.first <= warmUp && warmUp <= inView.last ? `${unit} ${warmUp}` : null;
  return {
    text: `${shown}${warm ? `${warm} is the warm-up · ` : ''}under the profiler (${label})${callsByPlace ? ' · calls named by order' : ''}`,
    tooltip: [text, ...(warm ? [warmUpWhy(warm)] : []), ...(callsByPlace ? [CALLS_BY_PLACE] : [])].join(' '),
  };
}

/** A trace's first step where later ones follow it, on the ruler: "warm-up step 1", "warm-up call 0". */
export const warmUpLabel = (label: string): string => `warm-up ${label}`;

/** Why a pane's first step is its warm-up, in its note's tooltip. */
const warmUpWhy = (step: string): string =>
  `${step[0]!.toUpperCase()}${step.slice(1)} is the warm-up: the profiler's start-up and the first call's one-time work are in it; later ones compare like with like.`;

/** Why a trace's compiled calls are named "2nd compiled call in the step (sum_view)": said in its pane's tooltip. */
const CALLS_BY_PLACE =
  'Its compiled calls are named by their order and ops ("2nd compiled call in the step"): the trace has no Python stacks to name their code; opened with its report, they are named by your functions.';

/** A name said in words, PyTorch's name for it in a tooltip: 'the trace's "TorchDynamo Cache Lookup"'. */
export const traceNamed = (raw: string): string => `the trace's "${raw}"`;

/**
 * A compile phase's hover: what the compiler's log names inside it, and the time it names no step of ("Inside it
 * the log names 10 × C++ compile: 11.8 s of 54.6 s; it names no step of the other 42.8 s (…)"). `inductor`: a phase
 * of Inductor's, whose unnamed time is work the log does not time step by step.
 */
export function phaseInsideWords(
  steps: { step: string; count: number }[],
  named: string,
  whole: string,
  rest: string,
  inductor: boolean,
): string {
  const why = inductor
    ? " (work the log does not time step by step, e.g. generating code in Python or waiting on Inductor's compile workers)"
    : '';
  if (!steps.length) return `The log names no step inside its ${whole}${why}.`;
  const listed = steps.map(({ step, count }) => (count > 1 ? `${count} × ${step}` : step)).join(', ');
  return `Inside it the log names ${listed}: ${named} of ${whole}; it names no step of the other ${rest}${why}.`;
}

/** A compile row's hover, after what it says: its phases too narrow to label at the chart's width. */
export const phasesUnlabelled = (phases: string[]): string => `Too narrow to label here: ${phases.join('; ')}`;

/**
 * A compile phase's bar label in the forms it may take, longest first: its names as the runner tells them apart from
 * its compile's others (schema 1.40 `labels`: "Inductor: codegen (backward)", "codegen (backward)"; an older report:
 * its name) with its time. Never its time alone (review 10H H2: a bare "25.6 ms" beside a named bar read as a second
 * part of that name): where no form fits, no label, and its row's hover names it.
 */
export const phaseLabelForms = (labels: readonly string[], time: string): string[] =>
  labels.map((label) => `${label} ${time}`);

/** A step's stretch on its thread where the profiler recorded no op, its label in the forms it may take: "40.1 ms
 *  unrecorded", else "40.1 ms idle", the word a rank's wait in a longer gap says of its thread's time with no op
 *  (waitingInForms; at 560 px the straggler's stretches, with no room for "unrecorded", went unlabelled). Its time
 *  first (review 11 I7: "no op recorded…" at 700 px dropped the straggler's time), one word for one thing in a pane
 *  (timelineGaps.unrecordedLabels; review 17 X5: "36.3 µs unrecorded", "45.3 µs, no op recorded" and "44.6 µs gap"
 *  side by side for one lead-in read as three kinds of time; 15 W6: a cut "40.1 ms, no op" read as a no-op), never
 *  other words (review 10 F8: "no op · 40.2 ms" at 700 px), never its time alone: where it does not fit, no label
 *  (the hover says it: noOpRecordedHover); a bare "13.0 µs" right after a slice read as that slice's time, and a bare
 *  "40.2 ms" beside rank 0's "40.2 ms wait" as a wait (review 16 X3/Z4). A rank's wait is said apart, in its own
 *  words (waitingInForms). */
// (no shorter "idle": written for the straggler's stretches at 560 px, it said a single process's Python time between
// its ops was idle, beside the compare counting it as compiling's cost: review 19X X1, 19Y Y1, 19Z Z1)
export const noOpRecordedForms = (us: number): string[] => [`${formatUs(us)} unrecorded`];

/**
 * A step's stretch on its thread with no op recorded while another thread of its process ran a collective: its label
 * in the forms it may take, longest first, each whole words (review 13 Q4: a cut "765 µs, waiting in…" said neither
 * the op nor the rank). Its time in the collective said as such, "41.7 ms in all_reduce" (the rank table's
 * communication, one number), and of it the part before the rank it waited for reached it (`waitUs`) as the wait for
 * that rank: "41.7 ms in all_reduce, 36.8 ms of it waiting for rank 1, which recorded no op for 33.6 ms of the wait" (`cause`:
 * waitedFor); the rest is the collective's own work, which every rank spends (review 18Z Z1: the whole 41.7 ms said as
 * waiting for rank 1, which reached it 36.8 ms after rank 0 did). `idleUs`: the thread's whole stretch with no op that
 * it lies in; where it says another time, the label says that first, the rest as part of it, each number inside the
 * one before ("of it", "of that": review 18Z Z5, "31.7 ms idle, 31.6 ms waiting" read as two stretches), a number in a
 * gap read as the gap's length (review 17Z Z3). Narrower, the op cut first, "44.5 ms idle, 36.8 ms of it waiting for
 * rank 1", then the wait for the rank alone, "36.8 ms waiting for rank 1" (review 18Z Z2: "44.5 ms idle, for rank 1"
 * said the gap's time as the wait's), "36.8 ms wait for rank 1", "36.8 ms wait" (review 18Z Z2: at 700 px "44.5 ms
 * idle" said no wait), then the gap's time alone, never a bare time (review 16 Z4).
 * No wait for a rank where when it came is not known (`waitUs` null: one trace, or ranks whose clocks do not compare):
 * the collective's time alone, "765 µs in all_reduce".
 */
export function waitingInForms(
  op: string,
  us: number,
  cause: string | null,
  idleUs = us,
  waitUs: number | null = null,
): string[] {
  const time = formatUs(us);
  const idle = formatUs(idleUs);
  const inGap = idle !== time;
  // the rank last to reach it waited for none: its time is the collective's own (review 14 S3: "273 µs, waiting"),
  // and its gap no idle time but work the profiler recorded no op for, as on every other pane (review 20Z Z1: "477 µs
  // idle" on the rank that came last, beside rank 0's wait for it)
  const gapWord = cause === LAST_TO_ARRIVE ? 'unrecorded' : 'idle';
  // its time in the collective, said as the gap's part where the gap is longer
  const inOp = inGap ? `${idle} ${gapWord}, ${time} of it in ${op}` : `${time} in ${op}`;
  const idleAlone = inGap ? [`${idle} ${gapWord}`] : [];
  if (cause === LAST_TO_ARRIVE) return [`${inOp}, ${LAST_TO_ARRIVE}`, inOp, ...idleAlone];
  const rank = cause?.split(', ')[0] ?? null;
  if (rank === null || waitUs === null || waitUs <= 0) return [inOp, ...idleAlone];
  const wait = formatUs(waitUs);
  // all of it a wait (the rank came as it ended): said once
  const whole = wait === time;
  const waitingFor = (who: string): string =>
    whole
      ? `${inGap ? `${idle} idle, ${time} of it` : `${time},`} waiting in ${op} for ${who}`
      : `${inOp}, ${wait} of ${inGap ? 'that' : 'it'} waiting for ${who}`;
  return [
    ...new Set([
      waitingFor(cause!),
      waitingFor(rank),
      ...(inGap ? [`${idle} idle, ${wait} of it waiting for ${rank}`] : []),
      `${wait} waiting for ${rank}`,
      `${wait} wait for ${rank}`,
      ...(inGap || whole ? [] : [inOp]),
      // narrowest, the wait's time as such, which says more than the gap's (review 18Z Z2: at 560/700 px rank 0's
      // "44.5 ms idle" said no wait)
      `${wait} wait`,
      ...idleAlone,
    ]),
  ];
}
/** How a form of waitingInForms says its wait, by the words it takes: 0 "waiting for rank 1" (or "waiting in
 *  all_reduce for rank 1"), 1 "wait for rank 1", 2 "wait" (whom in the hover alone); null: no wait said ("41.7 ms in
 *  all_reduce", "44.5 ms idle", last to arrive). A pane says its waits in one of these (timelineGaps.unrecordedLabels). */
export function waitWordsOf(form: string): 0 | 1 | 2 | null {
  // (its time then "wait": "…for 33.6 ms of the wait" is the cause's words, not this)
  if (/\d \S*s wait$/.test(form)) return 2;
  if (form.includes(' wait for ')) return 1;
  return form.includes(' waiting ') ? 0 : null;
}
/** A collective's own bar on the rank that reached it last (its step thread's stretch: waitingInForms' last to
 *  arrive), its label in the forms it may take, longest first, whole words chosen by its width: "all_reduce, last to
 *  arrive", "all_reduce, came last", "came last", "last" (review 15 W1: blank at 560/700 px where "all_reduce" had no
 *  room, the one bar that says why rank 0 read "765 µs, waiting"; V5: at 1400 px its thread's bare "273 µs" said
 *  neither the op nor who came last; 16 X1: the op alone, which rank 0's label already names, dropped the fact; Z2:
 *  "last in" read as a cut sentence). */
export const lastToArriveForms = (op: string): string[] => [
  `${op}, ${LAST_TO_ARRIVE}`,
  `${op}, came last`,
  'came last',
  'last',
];
/** What the rank waited for did meanwhile, said after its rank (waitedFor). */
const DOING: Record<NonNullable<WaitCause>, string> = {
  unrecorded: 'which recorded no op then',
  recompile: 'recompiling',
  compile: 'compiling',
};
/** The rank a collective waited for and what it did all the while: "rank 1, recompiling", "rank 1, which recorded no
 *  op then" (its thread's stretch with none, said as the other rank's: review 13 P1, "…for rank 1, no op recorded
 *  there" on rank 0's row read as rank 0's own, beside the table's 3.72 ms for it), or for part of the while
 *  (`unrecordedUs`, of the wait until it reached the collective): "rank 1, which recorded no op for 33.6 ms of the
 *  wait" (review 19Z Z3: a last "of it" after "of it" and "of that" had three referents); doing what the trace does not say (`cause`
 *  null): "rank 1". */
export function waitedFor(rank: number, cause: WaitCause, unrecordedUs: number | null = null): string {
  if (cause === null) return `rank ${rank}`;
  // its stretch with none through part of the wait only: how much (review 14 T4, "which recorded no op then" over
  // rank 1's last 8 ms of backward and all_reduce)
  if (cause === 'unrecorded' && unrecordedUs !== null)
    return `rank ${rank}, which recorded no op for ${formatUs(unrecordedUs)} of the wait`;
  return `rank ${rank}, ${DOING[cause]}`;
}

/** That stretch's hover: what the time is, on which thread the collective ran, and what it waited for: how long for
 *  the rank it names, the rest the collective's own (waitingInForms). */
export function waitingInHover(
  op: string,
  us: number,
  thread: string,
  cause: string | null,
  idleUs = us,
  waitUs: number | null = null,
  inViewUs: number | null = null,
): string {
  // the gap's own time first where the wait is part of it (waitingInForms)
  const during =
    formatUs(idleUs) === formatUs(us)
      ? `No op recorded on this thread for ${formatUs(us)} of its step${ofItInView(inViewUs)}, while ${op} ran on ${thread}`
      : `No op recorded on this thread for ${formatUs(idleUs)} of its step${ofItInView(inViewUs)}, ${op} running on ${thread} for ${formatUs(us)} of it`;
  if (cause === LAST_TO_ARRIVE)
    return `${during}: this rank reached it last, every other rank already in it, so this is the collective's own time, not a wait for a slower rank.`;
  const rank = cause?.split(', ')[0] ?? null;
  if (rank === null || waitUs === null)
    return `${during}: a collective waits for every rank to reach it (${cause ? `here ${cause}` : 'a slower rank, or one compiling'}); when ${rank ?? 'that rank'} reached it is not known here, so no part of this time is said as a wait for it.`;
  const own =
    formatUs(waitUs) === formatUs(us)
      ? ''
      : `; the other ${formatUs(us - waitUs)} is the collective's own work, which every rank spends`;
  return `${during}: a collective waits for every rank to reach it, and ${rank} reached it ${formatUs(waitUs)} after this rank did, the wait for it (here ${cause})${own}.`;
}

/** Where a stretch runs past a zoomed view's edge, how much of it is in view (`inViewUs`), after its whole time in its
 *  hover (its label's arrows say it runs on: review 20Y Y1); nothing where all of it is (null). */
const ofItInView = (inViewUs: number | null): string =>
  inViewUs === null ? '' : ` (${formatUs(inViewUs)} of it in view)`;

/** Such a stretch's hover, whichever form labels it: what its time is (the rank table's words), and where it runs
 *  past the view, how much of it is in view. */
export const noOpRecordedHover = (us: number, inViewUs: number | null = null): string =>
  `No op recorded on this thread for ${formatUs(us)} of its step${ofItInView(inViewUs)}: Python between ops, a sleep, I/O, waiting for data (the profiler records ops, not these).`;

/**
 * A slice's hover where the profiler's own work ran during it (analysis/profilerWork.ts), on the line after its name
 * and time: inside it (nearly all of it), "Inside the profiler's own work (the profiler overhead row): 2.56 ms of
 * its 2.58 ms is the profiler's time, not this code's" (review 31 B3: set_device read as 2.6 ms of Inductor's
 * code); some of it, how much.
 */
export function profilerWorkWords(during: number, dur: number, inside: boolean): string {
  const share = `${formatUs(during)} of its ${formatUs(dur)}`;
  return inside
    ? `Inside the profiler's own work (the ${PROFILER_ROW} row): ${share} is the profiler's time, not this code's.`
    : `${share} ran during the profiler's own work (the ${PROFILER_ROW} row).`;
}

/** The profiler's own work's hover, naming the frames it ran inside (each nearly all it), dimmed where they are drawn:
 *  "It ran inside CUDA set-up (Python stack · thread 1661): their time is this work's, dimmed there." */
export function profilerWorkInside(frames: readonly { name: string; track: string }[]): string {
  const named = frames.map(({ name, track }) => `${name} (${track})`).join(', ');
  return `It ran inside ${named}: ${frames.length === 1 ? 'its' : 'their'} time is this work's, dimmed there.`;
}

/** The profiler's own work's label where each of its slices ran inside frames of the user's thread (`frames`, as
 *  their labels say them), those first: "inside CUDA set-up, the profiler's own work: a buffer for the GPU's activity
 *  records" (review 10 B3: over "CUDA set-up" for the same 2.6 ms with nothing linking them); cut at its end, the
 *  link stays. */
export const profilerWorkLabel = (said: string, frames: readonly string[]): string =>
  `inside ${frames.join(' and ')}, ${said}`;

/** The track of the profiler's own work, as its row is named (extension/node/trace/buildModel.ts trackName). */
const PROFILER_ROW = 'profiler overhead';

/** Numbers said as runs: "2–4", "2 and 4", "2–3 and 5". */
function numberRuns(numbers: readonly number[]): string {
  const runs: string[] = [];
  for (let k = 0; k < numbers.length;) {
    let j = k;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    runs.push(j > k ? `${numbers[k]}–${numbers[j]}` : `${numbers[k]}`);
    k = j + 1;
  }
  return runs.length > 1 ? `${runs.slice(0, -1).join(', ')} and ${runs.at(-1)}` : (runs[0] ?? '');
}

/**
 * After a rank's pane title, the steps (by their numbers, ascending) in which it reached a collective (`ops`, by their
 * names) last, every other rank already in it: "came last to all_reduce in steps 2–4", once for all of them, where a
 * bar too narrow for "last" says none (review 16Z Z3: rank 0 waited for rank 1 in every step, and only step 2's bar
 * said rank 1 came last); its tooltip says what that means.
 */
export function cameLastWords(
  ops: readonly string[],
  steps: readonly number[],
  unit: 'step' | 'call',
): { text: string; tooltip: string } {
  const op = ops.length > 1 ? `${ops.slice(0, -1).join(', ')} and ${ops.at(-1)}` : ops[0]!;
  const where = `${steps.length === 1 ? unit : `${unit}s`} ${numberRuns(steps)}`;
  return {
    text: `came last to ${op} in ${where}`,
    tooltip: `In ${where} this rank reached ${op} when every other rank was already in it: their time there was a wait for this rank, and this rank's own is the collective's.`,
  };
}

/** The search box's count: "12 matching slices". */
export const matchingSlices = (count: number): string => `${count} matching slices`;

/** Steps by their numbers: "step 2", "steps 2–4" ("calls 0–2" where they were found as repeated calls). */
export const stepsText = (s: { first: number; last: number; unit?: string }, unit = s.unit ?? 'step'): string =>
  s.first === s.last ? `${unit} ${s.first}` : `${unit}s ${s.first}–${s.last}`;

/** A finding's label as a sentence of its own: the runner's ends in a full stop, a short one ("Graph break:
 *  Tensor.item()") gets one (review 8A A11: "…after it. — in default at …"). */
const asSentence = (label: string): string => (/[.!?]$/.test(label.trim()) ? label.trim() : `${label.trim()}.`);

/** Why a view opens past its first step: the compare leaves it out, or (a job's ranks, which have no compare) it is
 *  the warm-up, the pane's own or (a rank with none, opened past it with the job) the job's. */
export type PassedWhy = 'left out' | 'warm-up' | "job's warm-up";

/** A finding "Show in timeline" placed: where, when on the pane's axis (in the axis's unit: `at`), and how many
 *  places are outlined; `passed`: the step the view opens past, and why, where the place shown is not the first of
 *  all but the first past it. */
export const focusFound = (
  label: string,
  pane: string,
  at: string,
  places: number,
  passed: { step: number; why: PassedWhy } | null = null,
): string => {
  const which =
    passed === null
      ? ''
      : // "a step …": a clause on "which" read as on the places as well as the step (review 15V V8)
        ` past step ${passed.step}, ${passed.why === 'left out' ? 'a step the compare leaves out' : `the ${passed.why}`};`;
  return `${asSentence(label)} In ${pane} at ${at}${places > 1 ? ` (the first of ${places} places${which}${which ? '' : ','} all outlined)` : ''}.`;
};

/** Another pane moved to show the same code as the found one, its axis then reading the found pane's time: that
 *  first (a time on it is not the pane's own), then the code at that time and where it runs on its own step. The code
 *  is said as an op, with the op its slice runs inside where that is another (its label there): "eager's view op, in
 *  flatten, is at 898 µs (1.40 ms into eager's own step 2)" (review 14 S2: "eager's view is at…" read as the pane's
 *  view, beside a slice labelled flatten). */
export const paneMovedToCode = (
  moved: { pane: string; name: string; inside: string | null; at: string; intoStep: string },
  found: string,
  step: number,
): string =>
  `${moved.pane}'s axis now reads ${found}'s time. On it, ${moved.pane}'s ${moved.name} op${moved.inside ? `, in ${moved.inside},` : ''} is at ${moved.at} (${moved.intoStep} into ${moved.pane}'s own step ${step}).`;

/** A finding not placed: its compiles are not in these traces, or the report names none for it. */
export const focusNotFound = (label: string, compiles: boolean): string =>
  compiles
    ? `${asSentence(label)} Not in these traces: the profiled calls never ran the compiled code it happened in.`
    : `${asSentence(label)} The report does not say which compile it happened in, so it cannot be placed on the timeline.`;

/** After a pane's title while its pane is scrolled under it (pinnedTitles.ts): its top is not in view. */
export const PINNED_TITLE = 'its top is scrolled above: click to show it';

/** The longest name of a pane said after "the" before "pane" ("the in situ eager pane below"): a longer one, a
 *  mode's whole wording ("compiled with torch.compile's defaults"), is said by its place. */
const PANE_NAME_CHARS = 24;
const ORDINALS = ['second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'];

/** After a step view's pane note where another pane's longer step sets the scale it shares (paneFit.scaleSetters):
 *  the pane by where it is ("on the scale of the pane above"), its title's name in the tooltip: a title in the
 *  sentence read as the ordinary default scale ("on default's scale", review 18Z Z4) or as no phrase at all ("on
 *  scale, in situ eager's scale", "torch.compile's defaults's scale": 18Y Y2, 18X X6); and why, in its tooltip
 *  (review 17Z Z7: "Fit to step" read as not fitting eager's step). One not next to it by the part of its title after
 *  the region both titles name ("the eager pane above": its region's), else by how far ("the second pane below"),
 *  never by a number its title does not show (review 19Y Y2: "on the scale of pane 3"). `title`, `setter`: the
 *  setter pane's title and place; `pane`, `paneTitle`: this pane's, places from 0. */
export const onScaleOf = (
  title: string,
  setter: number,
  pane: number,
  paneTitle: string,
): { text: string; tooltip: string } => {
  const side = setter < pane ? 'above' : 'below';
  const apart = Math.abs(setter - pane);
  // (the region both titles begin with: "TinyTransformer, ")
  let common = 0;
  while (common < title.length && title[common] === paneTitle[common]) common++;
  const region = title.slice(0, common).lastIndexOf(', ');
  const name = region < 0 ? null : title.slice(region + 2);
  const where =
    apart === 1
      ? `the pane ${side}`
      : name && name.length <= PANE_NAME_CHARS
        ? `the ${name} pane ${side}`
        : `the ${ORDINALS[apart - 2] ?? `${apart}th`} pane ${side}`;
  return {
    text: `on the scale of ${where}`,
    tooltip: `Fit to step fits the longest step of the panes that share this axis, that of ${where} ("${title}"): this pane's step is drawn on that scale, so their lengths compare.`,
  };
};

/** The timeline's help line under its panes: a slice's launch → kernel arrows said only where a trace has a GPU track
 *  (`gpu`): a CPU trace has no launches and no kernels, and its user looked for arrows that never appear (review 19X
 *  X3). */
export const timelineHelp = (gpu: boolean): string =>
  `Click a slice for details${gpu ? ' and its launch → kernel arrows' : ''}. Wheel zooms, drag pans, W/S zoom, A/D pan, F fits the step, 0 fits all. Shift+drag (or Shift+←/→) selects a range: a table of what ran in it; Esc clears.`;
