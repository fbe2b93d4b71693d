// The traces of the timeline being opened, as the host sends them: one 'trace' per pane, in pane order, a big
// trace's preview replaced later by its full trace.
import type { HostToWebview, TimelinePane, TimelineSource } from '../extension/shared/protocol.ts';

export type TraceMessage = Extract<HostToWebview, { type: 'trace' }>;

/** A pane as the host sent it last: `events` slices in the whole trace, `preview`: only those around the first view. */
export interface OpenedPane { pane: TimelinePane; events: number; preview: boolean }

export interface Opening {
  title: string;
  source: TimelineSource;
  /** how many panes the host sends */
  count: number;
  /** the panes received so far, in pane order */
  panes: OpenedPane[];
}

/**
 * The opening with `message` in: it replaces its pane's preview, or starts a new opening when it is of another
 * source, or is a first pane that replaces no preview (the host sends each pane once, in order, then the full
 * traces of the previewed ones). A pane ahead of those missing is ignored.
 */
export function receiveTrace(opening: Opening | null, message: TraceMessage): Opening | null {
  const same = opening !== null && JSON.stringify(opening.source) === JSON.stringify(message.source)
    && (message.index > 0 || (opening.panes[0]?.preview === true && !message.preview));
  const panes = same ? [...opening.panes] : [];
  if (message.index > panes.length) return opening;
  panes[message.index] = { pane: message.pane, events: message.events, preview: message.preview };
  return { title: message.title, source: message.source, count: message.panes, panes };
}

/** True until every pane is in, each with every slice. */
export function isPartial(opening: Opening): boolean {
  return opening.panes.length < opening.count || opening.panes.some((p) => p.preview);
}
