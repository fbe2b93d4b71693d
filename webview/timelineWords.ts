// The webview's own words: what the timeline's state is (what is loading, what the user selected or searched, where
// a finding was placed), written here and nowhere else in the webview. Words about the report's data are the
// runner's (native-runner/compile_lens_runner/report/), shown as carried; these are only the timeline's state, from
// its panes, times and counts.
import { formatWhole, plural } from '../extension/present/numbers.ts';
import { formatMicros } from '../extension/shared/trace/summary.ts';

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
  const unit = steps[0]?.label.startsWith('call ') ? 'call' : 'step';
  const hidden = hiddenThreads ? ` · ${plural(hiddenThreads, 'thread')} with no events not shown` : '';
  return `${pane} — ${formatWhole(events)} ${events === 1 ? 'event' : 'events'}, ${plural(steps.length, unit)}${hidden}${loading ? ' — loading all slices…' : ''}`;
};

/** The search box's count: "12 matching slices". */
export const matchingSlices = (count: number): string => `${count} matching slices`;

/** A selected range of a pane: "default: 1.2 ms – 3.4 ms on its axis (2.2 ms)" (times on the pane's axis, said
 *  as its ticks are). */
export const rangeTitle = (pane: string, from: string, to: string, length: string): string =>
  `${pane}: ${from} – ${to} on its axis (${length})`;

/** The same range of two panes compared: "eager → default, the same range of each: 2.2 ms". */
export const rangePairTitle = (before: string, after: string, durUs: number): string =>
  `${before} → ${after}, the same range of each: ${formatMicros(durUs)}`;

/** A finding "Show in timeline" placed: where, when on the pane's axis (in the axis's unit: `at`), and how many
 *  places are outlined. */
export const focusFound = (label: string, pane: string, at: string, places: number): string =>
  `${label} — in ${pane} at ${at}${places > 1 ? ` (the first of ${places} places, all outlined)` : ''}.`;

/** A finding not placed: its compiles are not in these traces, or the report names none for it. */
export const focusNotFound = (label: string, compiles: boolean): string =>
  compiles
    ? `${label} — not in these traces: the profiled calls never ran the compiled code it happened in.`
    : `${label} — the report does not say which compile it happened in, so it cannot be placed on the timeline.`;
