// What the host sends for a timeline's traces (present/timelineContent.ts sendTraces), collected in order.
import type { HostToWebview } from '../extension/shared/protocol.ts';
import { sendTraces, type TimelineContent } from '../extension/present/timelineContent.ts';
import type { FirstView } from '../extension/shared/trace/window.ts';

export type TraceMessage = Extract<HostToWebview, { type: 'trace' }>;

/** The 'trace' messages (rows sent whole, no 'rows' messages). */
export async function sentTraces(content: TimelineContent, view: FirstView | null = null, minEvents?: number): Promise<TraceMessage[]> {
  return (await sentMessages(content, view, minEvents, Infinity)).filter((m): m is TraceMessage => m.type === 'trace');
}

/** Every message, 'rows' included. */
export async function sentMessages(content: TimelineContent, view: FirstView | null, minEvents?: number, rowsPerPart?: number): Promise<Extract<HostToWebview, { type: 'trace' | 'rows' }>[]> {
  const sent: Extract<HostToWebview, { type: 'trace' | 'rows' }>[] = [];
  await sendTraces(content, view, async (message) => { if (message.type === 'trace' || message.type === 'rows') sent.push(message); }, minEvents, rowsPerPart);
  return sent;
}
