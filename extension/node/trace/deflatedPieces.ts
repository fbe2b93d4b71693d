// A trace's pieces deflated for a webview across a network link, in the worker that makes them (scanner.ts): the
// rows of each part (rowsWire.ts DeflatedRows) and the last piece's kernel args (argsWire.ts DeflatedKernelArgs).
// VS Code's path to a browser's webview costs some 20–50 ms a MB (docs/BENCHMARKS.md), and a real trace's rows
// deflate to about two thirds, its kernel args (launch facts that repeat) much further. Level 1: most of what
// deflate finds in them, at its fastest.
import { deflateRawSync } from 'node:zlib';
import { bytesOfArgs, type DeflatedKernelArgs, type PackedKernelArgs } from '../../shared/trace/argsWire.ts';
import { bytesOfRows, type DeflatedRows, type PackedRows } from '../../shared/trace/rowsWire.ts';
import type { PackedPiece, PostedPiece } from './postedPieces.ts';

/** The piece with its rows, or its trace's packed kernel args, deflated. */
export function deflatePiece(piece: PackedPiece): PostedPiece {
  if ('rows' in piece) return { ...piece, rows: deflateRows(piece.rows) };
  const { kernelArgs } = piece.trace;
  return 'fields' in kernelArgs
    ? { ...piece, trace: { ...piece.trace, kernelArgs: deflateKernelArgs(kernelArgs) } }
    : piece;
}

export function deflateRows(rows: PackedRows): DeflatedRows {
  const { bytes, ...layout } = bytesOfRows(rows);
  return { ...layout, deflated: deflated(bytes) };
}

export function deflateKernelArgs(args: PackedKernelArgs): DeflatedKernelArgs {
  const { bytes, ...layout } = bytesOfArgs(args);
  return { ...layout, deflated: deflated(bytes) };
}

// copied out of zlib's Buffer, which may be a view of a shared pool: a message carries a view's whole buffer
const deflated = (bytes: Uint8Array): Uint8Array => new Uint8Array(deflateRawSync(bytes, { level: 1 }));
