// A trace as the host posts it to the webview: its rows, kernel args and steps packed (rowsWire.ts, argsWire.ts,
// stepsWire.ts); the webview's reviveModel makes it a TraceModel again. A message made by a test may hold them plain.
import { packKernelArgs, type PackedKernelArgs } from './argsWire.ts';
import type { TraceModel } from './model.ts';
import type { TraceColumns } from './rowParts.ts';
import { packRows, type PackedRows } from './rowsWire.ts';
import { packSteps, type PackedSteps } from './stepsWire.ts';

/** `rows`: rows [from, count) of the model (the rows before came in 'rows' messages), or its plain columns. */
export type PostedTrace = Omit<TraceModel, 'steps' | 'kernelArgs' | keyof TraceColumns>
  & { steps: TraceModel['steps'] | PackedSteps; kernelArgs: TraceModel['kernelArgs'] | PackedKernelArgs }
  & ({ rows: PackedRows } | TraceColumns);

/** The model as posted, with its rows from `from` on. */
export function postedTrace(model: TraceModel, from = 0): PostedTrace {
  const { count, names, tracks, originUs, stepSource, warnings } = model;
  return { count, names, tracks, originUs, stepSource, warnings, kernelArgs: packKernelArgs(model.kernelArgs), steps: packSteps(model.steps), rows: packRows(model, from, count) };
}
