// A big trace's columns cut into parts by rows, so the host sends them one part at a time (packed: rowsWire.ts):
// VS Code copies a message several times on its way to the webview, and one message with every row of a 5 GB
// trace (~830 MB plain) took the extension host past 5.7 GB (docs/BENCHMARKS.md). The webview puts the parts back
// into whole columns.
import type { TraceModel } from './model.ts';

/** The per-slice columns of a model. */
export type TraceColumns = Pick<TraceModel, 'start' | 'dur' | 'track' | 'name' | 'kind' | 'depth' | 'correlation'>;

const COLUMNS = ['start', 'dur', 'track', 'name', 'kind', 'depth', 'correlation'] as const;

/** Rows per part: ~35 MB as plain columns (35 bytes a row), 6–8 MB packed (rowsWire.ts). */
export const ROWS_PER_PART = 1 << 20;

/** Whole columns of `count` rows, filled part by part. */
export function emptyColumns(count: number): TraceColumns {
  return {
    start: new Float64Array(count),
    dur: new Float64Array(count),
    track: new Uint32Array(count),
    name: new Uint32Array(count),
    kind: new Uint8Array(count),
    depth: new Uint16Array(count),
    correlation: new Float64Array(count),
  };
}

/** Copies a part's rows into whole columns at row `from`; false when they do not fit. */
export function putRows(into: TraceColumns, from: number, rows: TraceColumns): boolean {
  const length = rows.start.length;
  if (from < 0 || from + length > into.start.length || COLUMNS.some((c) => rows[c].length !== length)) return false;
  for (const c of COLUMNS) (into[c] as { set(values: ArrayLike<number>, at: number): void }).set(rows[c], from);
  return true;
}
