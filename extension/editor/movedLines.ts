// Where a report's line is after the user edited the file: until the next profile, a finding, a region's lens and a
// compiled line's hover follow the edit that moved their line (a Quick Fix that inserts a line above them, typing).
// Pure, on the shape of VS Code's TextDocumentContentChangeEvent, so the rule is tested without VS Code.

/** One edit of a document, as VS Code reports it: a range of the text before it (0-based) and the text put there. */
export interface TextChange {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  text: string;
}

const newlines = (text: string): number => text.split('\n').length - 1;

/**
 * The 0-based line `line` is on after `change`. The line is held at its start: an edit that ends at or before it
 * (above it, or inserting at its first column) moves it by the lines that edit added or removed; an edit that starts
 * at or after it (within it or below) leaves it; an edit that replaced its start keeps it where it was, within the
 * text put there (a deleted line's finding lands where the deletion was).
 */
export function movedLine(line: number, change: TextChange): number {
  const { start, end } = change.range;
  const added = newlines(change.text);
  if (end.line < line || (end.line === line && end.character === 0)) return line + added - (end.line - start.line);
  if (start.line >= line) return line;
  return Math.min(line, start.line + added);
}

/** The 0-based line after every change of one edit event, applied in order (each range is in the text its predecessor left). */
export const movedLineAfter = (line: number, changes: readonly TextChange[]): number => changes.reduce(movedLine, line);

/** A per-line table (1-based line → entries) after an edit: each line's entries on the line it moved to (lines an
 * edit merged keep all their entries). */
export function movedLineKeys<T>(
  byLine: ReadonlyMap<number, readonly T[]>,
  changes: readonly TextChange[],
): Map<number, T[]> {
  const moved = new Map<number, T[]>();
  for (const [line, entries] of byLine) {
    const to = movedLineAfter(line - 1, changes) + 1;
    moved.set(to, [...(moved.get(to) ?? []), ...entries]);
  }
  return moved;
}
