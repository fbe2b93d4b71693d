// The traces of the timeline being opened, as the host sends them: one 'trace' per pane, in pane order, a big
// trace's preview replaced later by its full trace, whose columns come in parts ('rows' messages) before it.
import type { HostToWebview, TimelinePane, TimelineSource } from '../extension/shared/protocol.ts';
import { emptyColumns, putRows, type TraceColumns } from '../extension/shared/trace/rowParts.ts';
import type { PackedRows } from '../extension/shared/trace/rowsWire.ts';
import { inflateKernelArgs, inflateRows, postedColumns, unpackPosted, withColumns } from './reviveModel.ts';

export type TraceMessage = Extract<HostToWebview, { type: 'trace' }>;
type PostedRowsMessage = Extract<HostToWebview, { type: 'rows' }>;
/** A 'rows' message with its rows packed (withPackedRows). */
export type RowsMessage = PostedRowsMessage & { rows: PackedRows };

/** The 'rows' message with its rows packed: deflated ones (a webview across a network link) inflated. */
export async function withPackedRows(message: PostedRowsMessage): Promise<RowsMessage> {
  return 'deflated' in message.rows
    ? { ...message, rows: await inflateRows(message.rows) }
    : { ...message, rows: message.rows };
}

/** The 'trace' message with its kernel args packed: deflated ones (a webview across a network link) inflated. */
export async function withInflatedArgs(message: TraceMessage): Promise<TraceMessage> {
  const { trace } = message.pane;
  if (!('deflated' in trace.kernelArgs)) return message;
  return {
    ...message,
    pane: { ...message.pane, trace: { ...trace, kernelArgs: await inflateKernelArgs(trace.kernelArgs) } },
  };
}

/** A full trace's columns being put together from its 'rows' messages: rows before `next` are in. */
export interface Assembly {
  index: number;
  columns: TraceColumns;
  next: number;
}

/**
 * The assembly with a part's rows in, unpacked into its columns (a first part starts one); null when the part does
 * not follow the ones before or does not fit.
 */
export function receiveRows(assembly: Assembly | null, message: RowsMessage): Assembly | null {
  const into = message.from === 0 ? { index: message.index, columns: emptyColumns(message.count), next: 0 } : assembly;
  if (
    into?.index !== message.index ||
    into.next !== message.from ||
    message.from + message.rows.count > into.columns.start.length
  )
    return null;
  const rows = unpackPosted(message.rows, into.columns, message.from);
  return { ...into, next: message.from + rows.start.length };
}

/**
 * The 'trace' with whole, plain columns (unpacked once, here: a pane is revived again whenever another comes): its
 * own rows put after those its 'rows' messages brought (throws when some are missing).
 */
export function wholeTrace(assembly: Assembly | null, message: TraceMessage): TraceMessage {
  const { trace } = message.pane;
  const rows = postedColumns(trace);
  if (message.from === 0) return { ...message, pane: { ...message.pane, trace: withColumns(trace, rows) } };
  const complete =
    assembly !== null &&
    assembly.index === message.index &&
    assembly.next === message.from &&
    assembly.columns.start.length === trace.count &&
    message.from + rows.start.length === trace.count &&
    putRows(assembly.columns, message.from, rows);
  if (!complete) throw new Error(`${message.pane.label}: the trace came with rows missing`);
  return { ...message, from: 0, pane: { ...message.pane, trace: withColumns(trace, assembly.columns) } };
}

/** A pane as the host sent it last: `events` slices in the whole trace, `preview`: only those around the first view. */
export interface OpenedPane {
  pane: TimelinePane;
  events: number;
  preview: boolean;
}

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
  const same =
    opening !== null &&
    JSON.stringify(opening.source) === JSON.stringify(message.source) &&
    (message.index > 0 || (opening.panes[0]?.preview === true && !message.preview));
  const panes = same ? [...opening.panes] : [];
  if (message.index > panes.length) return opening;
  panes[message.index] = { pane: message.pane, events: message.events, preview: message.preview };
  return { title: message.title, source: message.source, count: message.panes, panes };
}

/** True until every pane is in, each with every slice. */
export function isPartial(opening: Opening): boolean {
  return opening.panes.length < opening.count || opening.panes.some((p) => p.preview);
}
