// Every message between the extension host and the timeline webview: one discriminated union per direction.
import type { Report } from './report.ts';
import type { TraceModel } from './trace/model.ts';

export interface TimelinePane {
  /** e.g. "eager", "default", or a file name */
  label: string;
  trace: TraceModel;
}

/** What a panel shows, kept in the webview's state so the host can reopen it after a restart. */
export type TimelineSource =
  | { kind: 'report'; reportPath: string }
  | { kind: 'traces'; tracePaths: string[] };

export type HostToWebview =
  | { type: 'load'; title: string; source: TimelineSource; report: Report | null; panes: TimelinePane[] }
  | { type: 'error'; message: string };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'reveal'; file: string; line: number }
  | { type: 'error'; message: string };
