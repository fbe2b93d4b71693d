// Trace events built in a test, with known answers (a Chrome trace's complete events), and the model they scan to.
import { scanTraceBytes } from '../../extension/node/trace/byteScanner.ts';
import type { TraceModel } from '../../extension/shared/trace/model.ts';

export interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur: number;
  cat?: string;
}

export const scanEvents = (events: TraceEvent[]): TraceModel =>
  scanTraceBytes(new TextEncoder().encode(JSON.stringify({ traceEvents: events })));

/** A CPU op of process 1 on thread `tid`. */
export const cpuOp = (name: string, ts: number, dur: number, tid = 1): TraceEvent => ({
  ph: 'X',
  cat: 'cpu_op',
  name,
  pid: 1,
  tid,
  ts,
  dur,
});
