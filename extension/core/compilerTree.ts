// The "Compiler" tree: per mode, what Dynamo and Inductor did — graphs, breaks, recompiles, guards, compile
// time — with each site linked to its source line. Pure data; the host turns it into TreeItems.
import path from 'node:path';
import type { Report, SourceLocation } from './report.ts';

export interface CompilerTreeNode {
  label: string;
  description?: string;
  tooltip?: string;
  location?: SourceLocation;
  children: CompilerTreeNode[];
}

const where = (location: SourceLocation | null): string => (location ? `${path.basename(location.file)}:${location.line}` : 'unknown line');

export function buildCompilerTree(report: Report): CompilerTreeNode[] {
  return report.modes.map((mode) => {
    if (mode.status === 'error' || !mode.compiler) {
      return { label: mode.mode, description: 'failed', tooltip: mode.error ? `${mode.error.message}\n${mode.error.fix}` : undefined, children: [] };
    }
    const c = mode.compiler;
    const children: CompilerTreeNode[] = [];
    children.push({
      label: `Graph breaks (${c.graphBreaks.length})`,
      children: c.graphBreaks.map((b) => ({
        label: where(b.location ?? b.userStack[b.userStack.length - 1] ?? null),
        description: b.reason,
        tooltip: [b.reason, b.hint].filter(Boolean).join('\n'),
        ...(b.location ?? b.userStack[b.userStack.length - 1] ? { location: (b.location ?? b.userStack[b.userStack.length - 1])! } : {}),
        children: [],
      })),
    });
    children.push({
      label: `Recompiles (${c.recompiles.length})`,
      children: c.recompiles.map((r) => ({
        label: where(r.location),
        description: r.reason,
        tooltip: [r.reason, r.trigger, r.inTimedRegion ? 'happened inside the timed region' : null].filter(Boolean).join('\n'),
        ...(r.location ? { location: r.location } : {}),
        children: [],
      })),
    });
    if (c.guardCount !== null && c.guardCount !== undefined) children.push({ label: `Guards: ${c.guardCount}`, children: [] });
    const phases = Object.entries(c.compileSeconds ?? {});
    if (phases.length) {
      children.push({
        label: 'Compile time',
        description: mode.compileSeconds !== null ? `${mode.compileSeconds.toFixed(1)} s first call` : undefined,
        children: phases.sort((a, b) => b[1] - a[1]).map(([phase, seconds]) => ({ label: phase, description: `${seconds.toFixed(2)} s`, children: [] })),
      });
    }
    const summary = `${c.graphCount} graph${c.graphCount === 1 ? '' : 's'}, ${c.graphBreaks.length} breaks, ${c.recompiles.length} recompiles`;
    return { label: mode.mode, description: summary, children };
  });
}
