// What the host sends for a timeline's traces (node/timelineContent.ts sendTraces), collected in order.
import type { HostToWebview, TimelinePane } from '../extension/shared/protocol.ts';
import { sendTraces, type TimelineContent } from '../extension/node/timelineContent.ts';
import type { TraceModel } from '../extension/shared/trace/model.ts';
import type { FirstView } from '../extension/shared/trace/window.ts';
import { reviveModel } from '../webview/reviveModel.ts';

type PostedTraceMessage = Extract<HostToWebview, { type: 'trace' }>;
/** A 'trace' message as the webview reads it: its trace revived (its steps unpacked). */
export type TraceMessage = Omit<PostedTraceMessage, 'pane'> & {
  pane: Omit<TimelinePane, 'trace'> & { trace: TraceModel };
};

export const revived = (m: PostedTraceMessage): TraceMessage => ({
  ...m,
  pane: { ...m.pane, trace: reviveModel(m.pane.trace) },
});

/** The 'trace' messages (rows sent whole, no 'rows' messages), their traces as the webview revives them. */
export async function sentTraces(
  content: TimelineContent,
  view: FirstView | null = null,
  minEvents?: number,
): Promise<TraceMessage[]> {
  return (await sentMessages(content, view, minEvents, Infinity))
    .filter((m): m is PostedTraceMessage => m.type === 'trace')
    .map(revived);
}

/** Every message, 'rows' included. */
export async function sentMessages(
  content: TimelineContent,
  view: FirstView | null,
  minEvents?: number,
  rowsPerPart?: number,
): Promise<Extract<HostToWebview, { type: 'trace' | 'rows' }>[]> {
  const sent: Extract<HostToWebview, { type: 'trace' | 'rows' }>[] = [];
  await sendTraces(
    content,
    view,
    (message) => {
      if (message.type === 'trace' || message.type === 'rows') sent.push(message);
      return Promise.resolve();
    },
    minEvents,
    rowsPerPart,
  );
  return sent;
}
