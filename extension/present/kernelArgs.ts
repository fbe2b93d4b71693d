// A GPU kernel's launch arguments as the slice details show them: rounded, with units, in words where the profiler's
// field name is a code ("est. achieved occupancy %" as a share, shared memory in KiB, blocks per SM to two digits).
import { formatAverage, formatBytes, formatPct, formatWhole } from './numbers.ts';
import type { KERNEL_ARG_FIELDS } from '../shared/trace/model.ts';

type KernelArgField = (typeof KERNEL_ARG_FIELDS)[number];

/** [label, value] of one launch argument. */
export function kernelArg(field: KernelArgField, value: number): [string, string] {
  switch (field) {
    case 'shared memory':
      return ['shared memory per block', formatBytes(value)];
    case 'bytes':
      return ['bytes', formatBytes(value)];
    case 'registers per thread':
      return [field, formatWhole(value)];
    case 'blocks per SM':
      // under one: the grid is smaller than the GPU, so some SMs got no block at all
      return [
        field,
        value < 1
          ? `${formatAverage(value)} (fewer blocks than SMs: about ${formatPct(value * 100)} of the SMs busy)`
          : formatAverage(value),
      ];
    case 'warps per SM':
      // what a warp is and how many an SM holds, so the number has a scale (reportB D23: "1.5" said nothing)
      return [field, `${formatAverage(value)} (a warp: 32 threads run together; an SM holds 48–64 warps, by GPU)`];
    case 'est. achieved occupancy %':
      return ['estimated occupancy', `${formatPct(value)} of an SM's warp slots (the profiler's estimate)`];
    default:
      return [field, String(value)];
  }
}
