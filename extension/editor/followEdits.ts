// What the editor shows of a report after the user edited a file, until the next profile: a finding and a region's
// lens on the line their line moved to, and the lines the runner's words name ("the warm-up at batch 1 (line 9)",
// "broke the graph at encoder_fastpath.py:13") said where those lines are now (shared/movedLines.ts): Problems, the
// hover, Quick Fix titles, the CodeLens and the Compiler view never name a line an edit moved. Pure, so the rule is tested without VS Code.
import type { CompilerTreeNode } from '../present/compilerTree.ts';
import type { Finding } from '../present/findings.ts';
import type { RegionDigest } from '../present/regionDigest.ts';
import { EditedLines, movedLineAfter, movesLines, saidAfterEdits, type TextChange } from '../shared/movedLines.ts';
import { placeOf, samePlace, type SourcePlace } from '../shared/sourcePlace.ts';

/** Where lines are after one edit of `place`. */
function afterEdit(place: SourcePlace, changes: readonly TextChange[]): EditedLines {
  const now = new EditedLines();
  now.set(place, changes);
  return now;
}

/** `finding` after an edit of `place`: on the line its line moved to, the runner's words naming lines where they are
 *  now (PyTorch's own words, its quote and hint, stay as PyTorch wrote them); the same object where nothing moved. */
export function findingAfterEdit(finding: Finding, place: SourcePlace, changes: readonly TextChange[]): Finding {
  if (!changes.some(movesLines)) return finding; // typing within lines: nothing to say again
  const now = afterEdit(place, changes);
  const own = placeOf(finding);
  const say = (text: string): string => saidAfterEdits(text, own, now);
  const sayOrNull = (text: string | null): string | null => (text === null ? null : say(text));
  const moved: Finding = {
    ...finding,
    line: samePlace(own, place) ? movedLineAfter(finding.line - 1, changes) + 1 : finding.line,
    reason: finding.quote === null ? say(finding.reason) : finding.reason,
    what: sayOrNull(finding.what),
    fix: sayOrNull(finding.fix),
    trigger: sayOrNull(finding.trigger),
    cost: sayOrNull(finding.cost),
    countText: sayOrNull(finding.countText),
    quickFixes: finding.quickFixes.map((fix) => ({ ...fix, title: say(fix.title) })),
  };
  return JSON.stringify(moved) === JSON.stringify(finding) ? finding : moved;
}

/** Every string of `value` (a region's digest: its headline, sentences, lines) with the lines it names where they are
 *  now; numbers (the region's own line) are left to the caller. */
function saidNow<T>(value: T, own: SourcePlace, now: EditedLines): T {
  if (typeof value === 'string') return saidAfterEdits(value, own, now) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => saidNow(v, own, now)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, saidNow(v, own, now)])) as T;
  return value;
}

/** A script region's lens after an edit of `place`: on the line its torch.compile line moved to (`at`: the place
 *  that line is in), its words naming lines where they are now; the same object where nothing moved. */
export function regionAfterEdit(
  region: RegionDigest,
  at: SourcePlace,
  place: SourcePlace,
  changes: readonly TextChange[],
): RegionDigest {
  if (!changes.some(movesLines)) return region;
  const moved = saidNow(region, at, afterEdit(place, changes));
  if (samePlace(at, place) && region.line !== null) moved.line = movedLineAfter(region.line - 1, changes) + 1;
  return JSON.stringify(moved) === JSON.stringify(region) ? region : moved;
}

/** The Compiler view after an edit of `place`: each node's source line where it is now, and the lines its words name
 *  (a kernel's "fused kernel 1 of forward (lines 12, 13)", a compile's "model.py:12") said there; a node showing a
 *  user's line of code keeps that code as written. The same nodes where nothing moved. */
export function compilerTreeAfterEdit(
  nodes: CompilerTreeNode[],
  place: SourcePlace,
  changes: readonly TextChange[],
): CompilerTreeNode[] {
  if (!changes.some(movesLines)) return nodes;
  const now = afterEdit(place, changes);
  const moved = (node: CompilerTreeNode): CompilerTreeNode => {
    const own = node.location ? placeOf(node.location) : null;
    const say = (text: string): string => saidAfterEdits(text, own, now);
    return {
      ...node,
      label: say(node.label),
      ...(node.description !== undefined && node.description !== node.location?.code
        ? { description: say(node.description) }
        : {}),
      ...(node.tooltip !== undefined ? { tooltip: say(node.tooltip) } : {}),
      ...(node.location && own && samePlace(own, place)
        ? { location: { ...node.location, line: movedLineAfter(node.location.line - 1, changes) + 1 } }
        : {}),
      children: node.children.map(moved),
    };
  };
  return nodes.map(moved);
}
