// Notebooks in the editor: which file and cell a document is, and which cell document a report location (with
// `cell`) lands on. The mapping itself is shared/sourcePlace.ts; this only asks VS Code for the open notebooks.
import * as vscode from 'vscode';
import { cellPosition, type NotebookCellInfo, type SourcePlace } from '../shared/sourcePlace.ts';
import { sourceFilePath } from '../node/reportPaths.ts';

const cellInfo = (notebook: vscode.NotebookDocument): NotebookCellInfo[] =>
  notebook.getCells().map((cell) => ({
    kind: cell.kind === vscode.NotebookCellKind.Code ? 'code' : 'markup',
    lineCount: cell.document.lineCount,
  }));

const openNotebook = (file: string): vscode.NotebookDocument | undefined =>
  vscode.workspace.notebookDocuments.find((notebook) => notebook.uri.scheme === 'file' && notebook.uri.fsPath === file);

/** The file a document is, or the notebook file and cell index of a notebook cell's document; null for others. */
export function placeOfDocument(document: vscode.TextDocument): SourcePlace | null {
  if (document.uri.scheme === 'file') return { file: document.uri.fsPath, cell: null };
  for (const notebook of vscode.workspace.notebookDocuments) {
    if (notebook.uri.scheme !== 'file') continue;
    const cell = notebook.getCells().find((c) => c.document === document);
    if (cell) return { file: notebook.uri.fsPath, cell: cell.index };
  }
  return null;
}

/** The cell document and 0-based line of a notebook location, when that notebook is open and still has the line. */
export function cellLocation(file: string, cell: number, line: number): { uri: vscode.Uri; line: number } | null {
  const notebook = openNotebook(file);
  const position = notebook ? cellPosition({ cell, line }, cellInfo(notebook)) : null;
  return notebook && position ? { uri: notebook.cellAt(position.cell).document.uri, line: position.line } : null;
}

/** The code cells' texts of a notebook, in order (markdown cells as ''), for finding its torch.compile lines. */
export const notebookCellTexts = (notebook: vscode.NotebookDocument): string[] =>
  notebook.getCells().map((cell) => (cell.kind === vscode.NotebookCellKind.Code ? cell.document.getText() : ''));

/** The workspace folders on disk: where a report's source links may lead (node/reportPaths.ts). */
export const workspaceFolderPaths = (): string[] =>
  (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);

/** The editor group that has `uri` open already, in a tab shown or not (a second editor of it would split the user's
 *  view); else the first group. */
function columnHolding(uri: vscode.Uri): vscode.ViewColumn {
  const holds = (tab: vscode.Tab): boolean =>
    (tab.input instanceof vscode.TabInputNotebook || tab.input instanceof vscode.TabInputText) &&
    tab.input.uri.toString() === uri.toString();
  return vscode.window.tabGroups.all.find((group) => group.tabs.some(holds))?.viewColumn ?? vscode.ViewColumn.One;
}

/** Opens a location: a line of a file, or (cell given) a line of a notebook cell; only inside the workspace (the
 * location comes from a report or a trace: PathRefused otherwise). */
export async function revealLocation(file: string, line: number, cell: number | null = null): Promise<void> {
  await sourceFilePath(file, workspaceFolderPaths());
  if (cell !== null) {
    const notebook = openNotebook(file) ?? (await vscode.workspace.openNotebookDocument(vscode.Uri.file(file)));
    const position = cellPosition({ cell, line }, cellInfo(notebook));
    const column = columnHolding(notebook.uri);
    await vscode.window.showNotebookDocument(notebook, {
      viewColumn: column,
      ...(position ? { selections: [new vscode.NotebookRange(position.cell, position.cell + 1)] } : {}),
    });
    if (!position) return;
    const at = new vscode.Position(position.line, 0);
    await vscode.window.showTextDocument(notebook.cellAt(position.cell).document, {
      selection: new vscode.Range(at, at),
      viewColumn: column,
    });
    return;
  }
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const at = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.window.showTextDocument(document, {
    selection: new vscode.Range(at, at),
    viewColumn:
      vscode.window.visibleTextEditors.find((e) => e.document === document)?.viewColumn ?? vscode.ViewColumn.One,
  });
}
