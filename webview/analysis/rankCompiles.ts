// A rank's pane of a torchrun job's report: its compiles as the report's compile phases name them (schema 1.38
// rankPhases: each group of ranks alike, by that rank's compile ids). The rank's pane has no report entry of its own
// (kernelLinks.paneFrames finds a mode's or a region's), so its recompile was named by its place in the step, "4th
// compiled call in the step (addmm), recompile 1", where the report's row says "forward, recompiled for x's size 8
// in dimension 0" (review 11 I1/J1/K2).
import type { CompilerInsight, Report } from '../../extension/shared/report.ts';

/** The compiler record of the group of ranks `rank` is in, in any mode of the report; null where none has it. */
export function rankCompiler(report: Report | null, rank: number | null | undefined): CompilerInsight | null {
  if (!report || rank == null) return null;
  for (const mode of report.modes)
    for (const group of mode.compiler?.rankPhases ?? []) if (group.ranks.includes(rank)) return group.compiler;
  return null;
}
