// A kernel Inductor generated, said by its graph and its place in it ("fused kernel 1 of forward (lines 12, 13)", on a
// CPU "fused C++ function 1 of forward (lines 12, 13)") instead of the name the profile gives it ("graph_1_cpp_fused_add_mul_relu_0" on a CPU,
// "triton_poi_fused_addmm_relu_0" on a GPU): the timeline's labels, tooltips, slice details and kernel lists. The
// profile's name stays beside it (a tooltip, the details' raw fields).
import { baseName } from '../shared/fileName.ts';
import { placeLabel } from '../shared/sourcePlace.ts';
import type { KernelProvenance, SourceLocation } from '../shared/report.ts';

/** A kernel's ops as every surface lists them: the runner's words, "erf, mul, add" (schema 1.32:
 *  report/compile_names.ops_text); a report before them, as Inductor recorded them ("aten.erf, aten.mul.Tensor"). */
export const kernelOps = (kernel: Pick<KernelProvenance, 'atenOps' | 'opsText'>): string =>
  kernel.opsText ?? kernel.atenOps.join(', ');

export interface GeneratedKernelName {
  /** Inductor's count of the graphs it compiled in the process (its C++ kernels' prefix in a profile), 0 the first */
  graph: number | null;
  /** what the name's prefix says the kernel is: Inductor's C++ for a CPU (cpp_fused_*), else Triton's for a GPU */
  kind: 'cpp' | 'fused' | 'reduction' | 'template';
  /** its place among its graph's kernels (the name's last number), 0 the first */
  index: number;
}

const CPP = /^(?:graph_(\d+)_)?cpp_fused_(?:\w+_)?(\d+)$/;
const TRITON = /^triton_(poi|red|per|tem|for)_(?:\w+_)?(\d+)$/;
const TRITON_KIND: Record<string, GeneratedKernelName['kind']> = {
  poi: 'fused',
  for: 'fused',
  red: 'reduction',
  per: 'reduction',
  tem: 'template',
};
/** The runner's words (report/compile_names.py _KIND_WORDS): a C++ function generated for a CPU is no kernel, as the
 *  compare counts it ("generated C++ functions"; review 18Y Y4: "fused kernel 1 of scale" listed under that row). */
const KIND_WORDS: Record<GeneratedKernelName['kind'], string> = {
  cpp: 'fused C++ function',
  fused: 'fused kernel',
  reduction: 'fused reduction kernel',
  template: 'generated matmul/convolution kernel',
};

/** The parts of a generated kernel's profile name; null for any other name. */
export function readGeneratedName(name: string): GeneratedKernelName | null {
  const cpp = CPP.exec(name);
  if (cpp) return { graph: cpp[1] === undefined ? null : Number(cpp[1]), kind: 'cpp', index: Number(cpp[2]) };
  const triton = TRITON.exec(name);
  return triton ? { graph: null, kind: TRITON_KIND[triton[1]!]!, index: Number(triton[2]) } : null;
}

/**
 * A generated kernel in words, or null for a name Inductor did not generate. `compile`: the compile it ran in, by
 * its function (compileNames.ts), null where no compiled call encloses it (Inductor's own graph count stands in,
 * where the name has it); `lines`: the user's lines the report says it fused.
 */
export function generatedKernelWords(
  name: string,
  compile: string | null,
  lines: readonly SourceLocation[] | null,
): string | null {
  const kernel = readGeneratedName(name);
  if (!kernel) return null;
  const graph = compile ?? (kernel.graph === null ? null : `Inductor graph ${kernel.graph + 1}`);
  const words = `${KIND_WORDS[kernel.kind]} ${kernel.index + 1}${graph ? ` of ${graph}` : ''}`;
  return lines?.length ? `${words} (${linesText(lines)})` : words;
}

/** The user lines of a kernel, said briefly: "lines 12, 13" in one file, "fused.py:12, model.py:3" across files; in a
 *  notebook "cell 3, lines 7, 8" in one cell, "cell 2, line 4; cell 3, line 7" across cells (report/compile_names.py
 *  lines_text's). */
export function linesText(lines: readonly SourceLocation[]): string {
  if (!lines.length) return 'no user line known';
  const files = new Set(lines.map((l) => l.file));
  const cells = new Set(lines.map((l) => l.cell ?? null));
  if (files.size === 1 && cells.size === 1) {
    const said = `line${lines.length === 1 ? '' : 's'} ${lines.map((l) => l.line).join(', ')}`;
    const cell = lines[0]!.cell;
    return cell == null ? said : `cell ${cell + 1}, ${said}`;
  }
  if (cells.size > 1 || !cells.has(null)) return lines.map((l) => placeLabel(l)).join('; ');
  return lines.map((l) => `${baseName(l.file)}:${l.line}`).join(', ');
}
