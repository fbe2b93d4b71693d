// Where a report's line is after the user edited the file: until the next profile, a finding, a region's lens, a
// compiled line's hover and the report panel's links follow the edit that moved their line (a Quick Fix that inserts
// a line above them, typing). Pure, on the shape of VS Code's TextDocumentContentChangeEvent, so the rule is tested
// without VS Code; shared: the host keeps a panel's edits, the webview moves its links with them.
import type { SourcePlace } from './sourcePlace.ts';

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

/** Whether `change` adds or removes lines: one that does not (typing within lines) moves no line. */
const movesLines = (change: TextChange): boolean =>
  newlines(change.text) !== change.range.end.line - change.range.start.line;

const placeKey = (place: SourcePlace): string => JSON.stringify([place.file, place.cell]);

/** The edits that moved lines, per file or notebook cell, since a report was drawn: its panel's lines follow them. */
export class EditedLines {
  private readonly byPlace = new Map<string, { place: SourcePlace; changes: TextChange[] }>();

  /** An edit of `place`: its changes that add or remove lines kept, in order; all of the place's so far, or null
   * when this edit moved no line. */
  add(place: SourcePlace, changes: readonly TextChange[]): TextChange[] | null {
    const moving = changes.filter(movesLines);
    if (!moving.length) return null;
    const entry = this.byPlace.get(placeKey(place)) ?? { place, changes: [] };
    // plain data: VS Code's Range says itself as [start, end] in JSON, and these go to the webview
    entry.changes.push(
      ...moving.map(({ range: { start, end }, text }) => ({
        range: {
          start: { line: start.line, character: start.character },
          end: { line: end.line, character: end.character },
        },
        text,
      })),
    );
    this.byPlace.set(placeKey(place), entry);
    return entry.changes;
  }

  /** Every edit of `place` so far (the host's `edited` message replaces the webview's with them). */
  set(place: SourcePlace, changes: readonly TextChange[]): void {
    this.byPlace.set(placeKey(place), { place, changes: [...changes] });
  }

  /** The 1-based `line` of `place` after the edits. */
  line(place: SourcePlace, line: number): number {
    const changes = this.byPlace.get(placeKey(place))?.changes;
    return changes ? movedLineAfter(line - 1, changes) + 1 : line;
  }

  /** Each edited place with its edits, to replay into a panel drawn again. */
  places(): { place: SourcePlace; changes: TextChange[] }[] {
    return [...this.byPlace.values()];
  }
}
