// Where a report's line is after the user edited the file: until the next profile, a finding, a region's lens, a
// compiled line's hover and the report panel's links follow the edit that moved their line (a Quick Fix that inserts
// a line above them, typing), and so do the lines the runner's sentences name ("the warm-up at batch 1 (line 9)"). Pure, on the shape of VS Code's TextDocumentContentChangeEvent, so the rule is tested
// without VS Code; shared: the host keeps a panel's edits, the webview moves its links with them.
import { baseName } from './fileName.ts';
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

/** Where the lines a sentence names are now. */
export interface LinesNow {
  /** the 1-based `line` of `place` after the edits */
  line(place: SourcePlace, line: number): number;
  /** the edited file whose base name is `name` ("train.py" in "train.py:41"); null where none or several are */
  named(name: string): string | null;
}

/**
 * A user's line as the runner's sentences name it (formats.place, report/reason_text.place): "explore.ipynb cell 3,
 * line 2", "train.py:41" (also at the end of a path PyTorch quoted), "cell 3, line 2", "line 9" and a kernel's "lines
 * 12, 13" (report/compile_names.lines_text) of the sentence's own file; not a traceback's `File "…", line 9`, whose
 * file is the quoted path.
 */
const SAID_LINE =
  /(?<![\w.-])([\w.-]+\.(?:py|ipynb))(?: cell (\d+), line |:)(\d+)(?!\d)|(?<!", )\b(?:cell (\d+), )?(?:line (\d+)|lines (\d+(?:, \d+)+))(?!\d)/g;

/**
 * `text`, one of the runner's sentences about `own` (the file or cell its bare "line 9" is in; null: none), with each
 * line it names on the line that line is on now: only the numbers change, the words stay the runner's.
 */
export function saidAfterEdits(text: string, own: SourcePlace | null, now: LinesNow): string {
  return text.replace(
    SAID_LINE,
    (
      said: string,
      name?: string,
      namedCell?: string,
      namedLine?: string,
      cell?: string,
      line?: string,
      lines?: string,
    ) => {
      const file = name !== undefined ? now.named(name) : (own?.file ?? null);
      if (file === null) return said;
      const cellSaid = name !== undefined ? namedCell : cell;
      const place = {
        file,
        cell: cellSaid !== undefined ? Number(cellSaid) - 1 : name !== undefined ? null : own!.cell,
      };
      const was = name !== undefined ? namedLine! : (line ?? lines!);
      const to = was.replace(/\d+/g, (n) => String(now.line(place, Number(n))));
      return to === was ? said : `${said.slice(0, said.length - was.length)}${to}`;
    },
  );
}

/** Whether `change` adds or removes lines: one that does not (typing within lines) moves no line. */
export const movesLines = (change: TextChange): boolean =>
  newlines(change.text) !== change.range.end.line - change.range.start.line;

const placeKey = (place: SourcePlace): string => JSON.stringify([place.file, place.cell]);

/** The edits that moved lines, per file or notebook cell, since a report was drawn: its panel's lines follow them. */
export class EditedLines implements LinesNow {
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

  named(name: string): string | null {
    const files = new Set([...this.byPlace.values()].map((e) => e.place.file).filter((f) => baseName(f) === name));
    return files.size === 1 ? [...files][0]! : null;
  }

  /** Each edited place with its edits, to replay into a panel drawn again. */
  places(): { place: SourcePlace; changes: TextChange[] }[] {
    return [...this.byPlace.values()];
  }
}
