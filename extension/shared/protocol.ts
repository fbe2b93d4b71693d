// Every message between the extension host and the timeline webview: one discriminated union per direction.
import type { TextChange } from './movedLines.ts';
import type { Report } from './report.ts';
import type { DeflatedRows, PackedRows } from './trace/rowsWire.ts';
import type { TimelineTarget } from './trace/timelineMarks.ts';
import type { TraceHead } from './trace/traceHead.ts';
import type { PostedTrace } from './trace/traceWire.ts';
import type { FirstView } from './trace/window.ts';

export interface TimelinePane {
  /** e.g. "eager", "default", "r0 Model default", or a file name */
  label: string;
  trace: PostedTrace;
  /** index of the pane this one is compared with (a region's eager side); null: not compared; absent: pane 0 */
  compareTo?: number | null;
  /** set when the pane is one rank of a distributed job (every pane then is: the panes are a rank set, in rank order) */
  rank?: TraceHead;
}

/** What a panel shows, kept in the webview's state so the host can reopen it after a restart. */
export type TimelineSource =
  | { kind: 'report'; reportPath: string }
  | { kind: 'traces'; tracePaths: string[] }
  /** a distributed job's per-rank traces, in rank order, drawn on one time axis */
  | { kind: 'ranks'; tracePaths: string[] };

/** Two runs of one file compared (present/runCompare.ts builds it, the compare panel draws it): every string as the
 *  runner wrote it, or as present/ says its numbers; the webview composes none. */
export interface RunComparison {
  /** what ran, as the Runs view names it: "b_item.py" */
  name: string;
  /** the older run, then the newer */
  runs: [ComparedRun, ComparedRun];
  /** one per region of a script, named by its function and line, or per mode of a target */
  blocks: ComparedBlock[];
  /** the graph breaks and recompiles the newer run no longer has, and those it added, each with where and what */
  gone: string[];
  added: string[];
  /** where both runs' graph breaks and recompiles are the same sites: "The same 4 sites in both runs." */
  sameSites: string | null;
}

export interface ComparedRun {
  /** when it was made, as its Runs view row says it ("00:52:10"; "Nov 29 00:52:10" when not today) */
  when: string;
  /** a target's run: the runner's headline (a script's verdicts are its regions'); null for a script */
  headline: string | null;
}

export interface ComparedBlock {
  /** "scale (line 12)", "cell 3, line 7", a target's mode */
  title: string;
  /** each run's verdict and the number it rests on, in the runner's words ("not in this run" where it has none) */
  answer: [string, string];
  /** where each run's speedup lies inside the other's range, that the change is not measured: "no measurable change:
   *  1.04× → 1.05× per call replayed, each inside the other's range"; null otherwise */
  change: string | null;
  /** the quantities compared, each run's value: per call, kernels per step, compile, graphs, breaks, recompiles */
  rows: { measure: string; values: [string, string] }[];
  /** the runner's facts of the region that differ between the runs ([] where they are the same) */
  changed: [string[], string[]];
}

/**
 * A report's panel gets its 'report' first, read once and drawn while the traces are still being read. Then each
 * pane's trace comes in a 'trace' of its own, in pane order, as soon as its file is read: a big trace first as a
 * preview (the slices around the view it opens at), whose full trace comes in a later 'trace' of the same pane,
 * once every pane has been sent, its columns in parts (rowParts.ts).
 */
export type HostToWebview =
  /** `traces`: how many panes follow, each in its 'trace' */
  | { type: 'report'; title: string; source: TimelineSource; report: Report; traces: number }
  /**
   * pane `index` of `panes`; `events`: the whole trace file's events (its slices, and the compile phases' inner
   * twins: node/trace/phaseTwins.ts); `preview`: only those around the first view;
   * `from` > 0: its columns hold rows [from, count) only, the rows before came in its 'rows' messages
   */
  | {
      type: 'trace';
      title: string;
      source: TimelineSource;
      index: number;
      panes: number;
      pane: TimelinePane;
      events: number;
      preview: boolean;
      from: number;
    }
  /** rows [from, from + length) of pane `index`'s full trace of `count` rows: a big trace's columns in parts, before its 'trace' */
  | { type: 'rows'; index: number; from: number; count: number; rows: PackedRows | DeflatedRows }
  /** "Show in timeline" of a graph break or recompile: zoom to where it happened (applied once the full load is in) */
  | { type: 'focus'; target: TimelineTarget }
  /** the user's edits of a file (a notebook's `cell`) since the panel opened that moved lines: every one so far, in
   * order (movedLines.ts); the panel's links to its lines follow them */
  | { type: 'edited'; file: string; cell: number | null; changes: TextChange[] }
  /** the user edited a file the report speaks for since its run: the panel's banner says `note` (BEFORE_EDIT) */
  | { type: 'beforeEdit'; note: string }
  /** the compare panel's one message: two runs side by side (the Runs view's "Compare with…") */
  | { type: 'compare'; comparison: RunComparison }
  | { type: 'error'; message: string };

export type WebviewToHost =
  /** `view`: where the webview will open (its saved view), so a preview covers it; null opens at the first step after the warm-up where the trace has one (openingStep) */
  | { type: 'ready'; view: FirstView | null }
  /** `cell`: notebooks, the cell's index (`line` is then within the cell) */
  | { type: 'reveal'; file: string; line: number; cell?: number | null }
  /** a generated kernel's code (its compile's output code, at the kernel's line) of the report a panel shows */
  | { type: 'openGeneratedCode'; mode: string; compileId: string | null; codeLine: number | null }
  | { type: 'error'; message: string }
  /** a preview's first frame is drawn: the host reads the full traces now, not while that frame is being drawn */
  | { type: 'drawn' };

/**
 * The default branch of a message handler: a type error where a message type of the union has no branch of its own;
 * at run time a message of another version's union is ignored.
 */
export function ignoreUnknown(message: never): void {
  void message;
}
