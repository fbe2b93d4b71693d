// Where a report location is in the editor: a line of a file, or (notebooks: `location.cell`) a line of one cell.
// Pure (and free of Node modules: the webview uses it too), so the host's notebook lookup, CodeLens and Problems
// share one mapping with the tests.
import { baseName } from './fileName.ts';
import type { SourceLocation } from './report.ts';

/** A file, or one cell of a notebook file (cell: index in the notebook's cell list). */
export interface SourcePlace {
  file: string;
  cell: number | null;
}

export const placeOf = (location: Pick<SourceLocation, 'file' | 'cell'>): SourcePlace => ({
  file: location.file,
  cell: location.cell ?? null,
});

export const samePlace = (a: SourcePlace, b: SourcePlace): boolean => a.file === b.file && a.cell === b.cell;

/**
 * "train.py:24"; in a notebook "explore.ipynb cell 4, line 2" (cells counted from 1, as VS Code shows them).
 * fullPath: the file as given (CLI lines that editors and CI logs link), else its base name.
 */
export function placeLabel(location: Pick<SourceLocation, 'file' | 'line' | 'cell'>, fullPath = false): string {
  const name = fullPath ? location.file : baseName(location.file);
  return location.cell == null
    ? `${name}:${location.line}`
    : `${name} ${cellLineLabel({ cell: location.cell, line: location.line })}`;
}

/** "cell 4, line 2" (cells counted from 1, as VS Code shows them). */
export const cellLineLabel = (location: { cell: number; line: number }): string =>
  `cell ${location.cell + 1}, line ${location.line}`;

export interface NotebookCellInfo {
  kind: 'code' | 'markup';
  lineCount: number;
}

/**
 * The cell and 0-based line a notebook location points at, or null when the notebook no longer has a code cell
 * with that line there (edited since the run): a finding is then better left out than put on the wrong line.
 */
export function cellPosition(
  location: Pick<SourceLocation, 'line' | 'cell'>,
  cells: NotebookCellInfo[],
): { cell: number; line: number } | null {
  if (location.cell == null) return null;
  const cell = cells[location.cell];
  if (cell?.kind !== 'code' || location.line < 1 || location.line > cell.lineCount) return null;
  return { cell: location.cell, line: location.line - 1 };
}
