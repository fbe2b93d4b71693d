// Packed rows deflated for a webview across a network link (rowsWire.ts DeflatedRows), in the worker that makes
// them (scanner.ts): VS Code's path to a browser's webview costs some 20–50 ms a MB (docs/BENCHMARKS.md), and a
// real trace's rows deflate to about two thirds. Level 1: most of what deflate finds in them, at its fastest.
import { deflateRawSync } from 'node:zlib';
import { bytesOfRows, type DeflatedRows, type PackedRows } from '../../shared/trace/rowsWire.ts';

export function deflateRows(rows: PackedRows): DeflatedRows {
  const { bytes, ...layout } = bytesOfRows(rows);
  // copied out of zlib's Buffer, which may be a view of a shared pool: a message carries a view's whole buffer
  return { ...layout, deflated: new Uint8Array(deflateRawSync(bytes, { level: 1 })) };
}
