// What the host sends for a timeline's traces (present/timelineContent.ts sendTraces), collected in order.
import type { HostToWebview } from '../extension/shared/protocol.ts';
import { sendTraces, type TimelineContent } from '../extension/present/timelineContent.ts';
import type { FirstView } from '../extension/shared/trace/window.ts';

export type TraceMessage = Extract<HostToWebview, { type: 'trace' }>;

export async function sentTraces(content: TimelineContent, view: FirstView | null = null, minEvents?: number): Promise<TraceMessage[]> {
  const sent: TraceMessage[] = [];
  await sendTraces(content, view, async (message) => { if (message.type === 'trace') sent.push(message); }, minEvents);
  return sent;
}
