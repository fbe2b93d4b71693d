// What a timeline shows (a report's traces, or trace files) and the messages that send it to the webview.
// Pure (node/timelineSource.ts reads the files), so the order of the messages is tested without VS Code.
import type { HostToWebview, TimelineSource } from '../shared/protocol.ts';
import type { Report } from '../shared/report.ts';
import { ROWS_PER_PART } from '../shared/trace/rowParts.ts';
import { postedTrace } from './trace/postedPieces.ts';
import type { PostedTrace } from '../shared/trace/traceWire.ts';
import type { TraceHead } from '../shared/trace/traceHead.ts';
import type { TraceReader } from './trace/traceReading.ts';
import type { FirstView } from '../shared/trace/window.ts';

/** Traces from this many slices are previewed: below it, building and sending the whole model is quick. */
export const PREVIEW_MIN_EVENTS = 200_000;

export interface TimelineContent {
  title: string;
  source: TimelineSource;
  report: Report | null;
  panes: ContentPane[];
}

/** A pane and its trace, read in turn with the others (node/timelineSource.ts): it resolves when its file is read. */
export interface ContentPane {
  label: string;
  reading: Promise<TraceReader>;
  compareTo?: number | null;
  rank?: TraceHead;
}

type TraceMessage = Extract<HostToWebview, { type: 'trace' }>;

/** Whether a webview's saved state holds a source to reopen after a restart (state is data from disk). */
export function isTimelineSource(value: unknown): value is TimelineSource {
  const candidate = value as Partial<{ kind: unknown; reportPath: unknown; tracePaths: unknown }> | null;
  return (
    (candidate?.kind === 'report' && typeof candidate.reportPath === 'string') ||
    ((candidate?.kind === 'traces' || candidate?.kind === 'ranks') &&
      Array.isArray(candidate.tracePaths) &&
      candidate.tracePaths.length > 0 &&
      candidate.tracePaths.every((p) => typeof p === 'string'))
  );
}

/** The 'report' a report's panel gets before its traces (null for trace files). */
export function reportMessage(content: TimelineContent): HostToWebview | null {
  return content.report
    ? {
        type: 'report',
        title: content.title,
        source: content.source,
        report: content.report,
        traces: content.panes.length,
      }
    : null;
}

/**
 * Sends the traces, each pane in turn as soon as its file is read (a big one skimmed): a big trace as its preview
 * (the slices around `view`), a small one (or a big one without steps: nothing says where its view opens) whole;
 * then the big ones' full traces, read whole (a skimmed one only now) and built, once `drawn` has resolved (the
 * webview drew a preview: a whole read on both cores would slow that frame down). A full trace goes in parts
 * (TraceReader.posted): a big one's are made by a worker while the part before is on its way, their rows and
 * kernel args deflated where `deflate` (the webview is across a network link). Each `send` is awaited before the
 * next, so one message at a time is on VS Code's path.
 */
export async function sendTraces(
  content: TimelineContent,
  view: FirstView | null,
  send: (message: HostToWebview) => PromiseLike<unknown>,
  minEvents = PREVIEW_MIN_EVENTS,
  rowsPerPart = ROWS_PER_PART,
  drawn: () => PromiseLike<unknown> = async () => {},
  deflate = false,
): Promise<void> {
  const previewed: { index: number; reading: TraceReader }[] = [];
  for (const [index, pane] of content.panes.entries()) {
    const reading = await pane.reading;
    const preview = reading.events >= minEvents ? await reading.preview(view) : null;
    if (preview) {
      previewed.push({ index, reading });
      await send(traceMessage(content, index, postedTrace(preview), reading.events, true));
    } else {
      await sendInParts(content, index, reading, send, rowsPerPart, deflate);
    }
  }
  if (previewed.length > 0) await drawn();
  for (const { index, reading } of previewed) await sendInParts(content, index, reading, send, rowsPerPart, deflate);
}

/** A full trace: its rows in parts, each in a 'rows' message but the last, which goes in the 'trace' (a small trace: one part). */
async function sendInParts(
  content: TimelineContent,
  index: number,
  reading: TraceReader,
  send: (message: HostToWebview) => PromiseLike<unknown>,
  rowsPerPart: number,
  deflate: boolean,
): Promise<void> {
  for await (const piece of reading.posted(rowsPerPart, deflate)) {
    await send(
      'rows' in piece
        ? { type: 'rows', index, ...piece }
        : traceMessage(content, index, piece.trace, reading.events, false, piece.from),
    );
  }
}

/**
 * Pane `index`'s trace: a preview (`trace` holds the slices around the first view of `events`) or every slice
 * (its rows from row `from`: the rows before were sent in 'rows' messages).
 */
function traceMessage(
  content: TimelineContent,
  index: number,
  trace: PostedTrace,
  events: number,
  preview: boolean,
  from = 0,
): TraceMessage {
  const contentPane = content.panes[index];
  if (contentPane === undefined) throw new RangeError(`no pane ${index}: the timeline has ${content.panes.length}`);
  const { label, compareTo, rank } = contentPane;
  const pane = { label, trace, ...paneExtras(compareTo, rank) };
  return {
    type: 'trace',
    title: content.title,
    source: content.source,
    index,
    panes: content.panes.length,
    pane,
    events,
    preview,
    from,
  };
}

/** The optional pane fields, only where set (absent and null mean different things for compareTo). */
function paneExtras(
  compareTo: number | null | undefined,
  rank: TraceHead | undefined,
): { compareTo?: number | null; rank?: TraceHead } {
  return { ...(compareTo !== undefined ? { compareTo } : {}), ...(rank ? { rank } : {}) };
}
