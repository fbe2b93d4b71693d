// A model packed for the webview (shared/trace/traceWire.ts): whole, or in pieces as the build makes its rows.
import { packKernelArgs } from '../../shared/trace/argsWire.ts';
import type { BuiltRows } from './buildModel.ts';
import type { TraceModel } from '../../shared/trace/model.ts';
import { packRows, type DeflatedRows, type PackedRows } from '../../shared/trace/rowsWire.ts';
import { packSteps } from '../../shared/trace/stepsWire.ts';
import type { PostedTrace } from '../../shared/trace/traceWire.ts';

/** The model as posted, with its rows from `from` on. */
export function postedTrace(model: TraceModel, from = 0): PostedTrace {
  const { count, names, tracks, originUs, stepSource, warnings } = model;
  return {
    count,
    names,
    tracks,
    originUs,
    stepSource,
    warnings,
    kernelArgs: packKernelArgs(model.kernelArgs),
    steps: packSteps(model.steps),
    rows: packRows(model, from, count),
  };
}

/**
 * A full trace on its way to the webview, in pieces: rows [from, from + rows.count) of its `count` (a 'rows'
 * message), then, last, the trace with its rows from `from`.
 */
export type PackedPiece = { from: number; count: number; rows: PackedRows } | { from: number; trace: PostedTrace };
/** A piece as sent: its rows (or, the last, its kernel args) deflated where a worker made them for a webview across a network link. */
export type PostedPiece = PackedPiece | { from: number; count: number; rows: DeflatedRows };

/**
 * The pieces of a model being built (buildModel.ts buildModelInParts), each part packed as soon as its rows are
 * final; returns the model. Stopped early, it leaves `building` as it was, to be finished (finishBuild).
 */
export function* postedPieces(
  building: Iterator<BuiltRows, TraceModel>,
  count: number,
): Generator<PackedPiece, TraceModel> {
  let from = 0;
  for (let step = building.next(); ; step = building.next()) {
    if (step.done) {
      yield { from, trace: postedTrace(step.value, from) };
      return step.value;
    }
    const part = step.value;
    yield { from: part.from, count, rows: packRows(part.columns, part.from, part.to) };
    from = part.to;
  }
}

/** A built model's parts as buildModelInParts yields them: every `rowsPerPart` rows but the last. */
export function* partsOf(model: TraceModel, rowsPerPart: number): Generator<BuiltRows, TraceModel> {
  for (let from = 0; from + rowsPerPart < model.count; from += rowsPerPart)
    yield { columns: model, from, to: from + rowsPerPart };
  return model;
}
