// The CUDA-graph outcome of a mode or region in words, for the CLI (`profile`, `inspect`) and the panel: how many
// graphs were captured, each skip with its kind, line and fix (the runner's texts), and what a log cannot say.
import type { CudaGraphStatus } from '../shared/report.ts';
import { placeLabel } from '../shared/sourcePlace.ts';
import { plural } from './numbers.ts';

/** [] where CUDA graphs were not in use (CPU, default mode): the runner then lists no statuses. */
export function cudaGraphLines(statuses: readonly CudaGraphStatus[] | null | undefined): string[] {
  if (!statuses?.length) return [];
  const captured = statuses.filter((s) => s.status === 'captured').length;
  const lines = [`CUDA graphs: ${captured} of ${plural(statuses.length, 'graph')} captured`];
  const skips = new Map<string, { status: CudaGraphStatus; count: number }>();
  for (const status of statuses.filter((s) => s.status === 'skipped')) {
    const key = status.explanation
      ? `${status.explanation.kind}\0${status.explanation.location?.file}\0${status.explanation.location?.line}`
      : (status.reason ?? '');
    const seen = skips.get(key);
    if (seen) seen.count += 1;
    else skips.set(key, { status, count: 1 });
  }
  for (const { status, count } of skips.values()) {
    const skip = status.explanation;
    const where = skip?.location ? ` at ${placeLabel(skip.location)}` : '';
    const graphs = count > 1 ? ` (${count} graphs)` : '';
    lines.push(`  skipped${graphs}${where}: ${skip?.what ?? status.reason ?? 'no reason given'}`);
    if (skip?.fix) lines.push(`    fix: ${skip.fix}`);
  }
  const unknown = statuses.filter((s) => s.status === 'unknown');
  if (unknown.length)
    lines.push(`  ${plural(unknown.length, 'graph')} unknown: ${unknown[0]!.reason ?? 'the log cannot say'}`);
  const hints = new Map<string, string[]>();
  for (const hint of statuses.flatMap((s) => s.hints ?? []))
    hints.set(hint.kind, [hint.what, ...(hint.fix ? [`    fix: ${hint.fix}`] : [])]);
  for (const [what, ...fix] of hints.values()) lines.push(`  hint: ${what}`, ...fix);
  const silent = statuses.filter((s) => s.status === 'not-captured').length;
  if (silent)
    lines.push(
      `  ${plural(silent, 'graph')} not captured, no reason recorded (never run after compiling, or captured outside the log)`,
    );
  return lines;
}
