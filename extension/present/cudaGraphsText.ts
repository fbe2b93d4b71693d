// The CUDA-graph outcome of a mode or region, for the CLI (`profile`, `inspect`) and the panel: the runner's lines
// (schema 1.25, `compiler.cudaGraphsLines`: report/compiler_text.py); a report before them lists each status's count
// and each skip's words and fix, as recorded.
import type { CompilerInsight } from '../shared/report.ts';

/** [] where CUDA graphs were not in use (CPU, default mode): the runner then lists no statuses. */
export function cudaGraphLines(compiler: CompilerInsight | null | undefined): string[] {
  if (compiler?.cudaGraphsLines) return compiler.cudaGraphsLines;
  const statuses = compiler?.cudaGraphs ?? [];
  if (!statuses.length) return [];
  const counts = new Map<string, number>();
  for (const s of statuses) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  const lines = [`CUDA graphs: ${[...counts].map(([status, n]) => `${status} ${n}`).join(' · ')}`];
  for (const skip of statuses.flatMap((s) => (s.explanation ? [s.explanation] : [])))
    lines.push(`  ${skip.what}`, ...(skip.fix ? [`    fix: ${skip.fix}`] : []));
  return lines;
}
