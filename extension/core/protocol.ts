// Every message between the extension host and the timeline webview: one discriminated union per direction.
import type { Report } from './report.ts';
import type { TraceModel } from './trace/model.ts';

export interface TimelinePane {
  /** e.g. "eager", "default", or a file name */
  label: string;
  trace: TraceModel;
}

export type HostToWebview =
  | { type: 'load'; title: string; report: Report | null; panes: TimelinePane[] }
  | { type: 'error'; message: string };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'reveal'; file: string; line: number }
  | { type: 'error'; message: string };
