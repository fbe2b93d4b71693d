// What a count of a step's work is called, by the device the work ran on, in one set of words for every surface that
// counts it (the panel's compare and modes table, the Runs view's compare, `compile-lens summarize`): a GPU's
// kernels; on a CPU its outermost ATen ops and Inductor's generated C++ functions, "CPU ops", never "kernels" (review
// 16 Y1, 17 Y2; 18Y Y1: the Runs view's "kernels / step 5 → 2" of a CPU run beside the panel's "CPU ops"). The
// runner's lines say the count the same way (report/mode_line.count_name).

/** The device a count's work ran on, in the words' terms. */
export type WorkDevice = 'GPU' | 'CPU';

/** A report's device ('cpu', 'cuda') as the words' device: 'cpu' is a CPU, any other a GPU. */
export const workDevice = (device: string | null | undefined): WorkDevice => (device === 'cpu' ? 'CPU' : 'GPU');

/** What a CPU trace's counted work is: its outermost ATen ops and Inductor's generated C++ functions. */
export const CPU_OPS = 'CPU ops';

/** One of a kernel family, by the device it ran on: on a CPU "generated C++ function", "library call", "ATen op". */
export const KERNEL_NAMES = {
  GPU: { generated: 'generated kernel', library: 'library kernel', aten: 'ATen kernel' },
  CPU: { generated: 'generated C++ function', library: 'library call', aten: 'ATen op' },
} as const;

/** The kernel counts, all and by family, in the words a row counting them says: on a CPU "CPU ops" (the outermost ATen
 *  ops and generated C++ functions), never "kernels" under a row that says ops (review 16 Y1). */
export const kernelCountNames = (device: WorkDevice): Record<'all' | 'generated' | 'library' | 'aten', string> => {
  const one = KERNEL_NAMES[device];
  return {
    all: device === 'GPU' ? 'kernels' : CPU_OPS,
    generated: `${one.generated}s`,
    library: `${one.library}s`,
    aten: `${one.aten}s`,
  };
};
