// A trace as the host posts it to the webview: its rows, kernel args and steps packed (rowsWire.ts, argsWire.ts,
// stepsWire.ts; node/trace/postedPieces.ts packs it); the webview's reviveModel makes it a TraceModel again. A message
// made by a test may hold them plain.
import type { DeflatedKernelArgs, PackedKernelArgs } from './argsWire.ts';
import type { TraceModel } from './model.ts';
import type { TraceColumns } from './rowParts.ts';
import type { PackedRows } from './rowsWire.ts';
import type { PackedSteps } from './stepsWire.ts';

/**
 * `rows`: rows [from, count) of the model (the rows before came in 'rows' messages), or its plain columns.
 * `kernelArgs`: deflated where a worker made them for a webview across a network link (inflated there first).
 */
export type PostedTrace = Omit<TraceModel, 'steps' | 'kernelArgs' | keyof TraceColumns> & {
  steps: TraceModel['steps'] | PackedSteps;
  kernelArgs: TraceModel['kernelArgs'] | PackedKernelArgs | DeflatedKernelArgs;
} & ({ rows: PackedRows } | TraceColumns);
