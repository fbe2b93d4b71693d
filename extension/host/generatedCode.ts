// What the compiler made, opened in the editor: a report's generated code, guards and FX graphs (files of the report
// directory) as read-only documents of their own scheme, a CodeLens per kernel linking back to the user's lines,
// the failed guard of a recompile highlighted, and the fused lines highlighted where a lens lands.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { compileOf, kernelLenses } from '../present/kernelLinks.ts';
import type { KernelProvenance, SourceLocation } from '../shared/report.ts';
import { loadReport, type LoadedReport } from '../node/reportFile.ts';
import { PathRefused, reportFilePath, sourceFilePath } from '../node/reportPaths.ts';
import { revealLocation, workspaceFolderPaths } from './notebooks.ts';

export const ARTIFACT_SCHEME = 'compile-lens-artifact';
export const OPEN_GENERATED_CODE_COMMAND = 'compileLens.openGeneratedCode';
export const OPEN_ARTIFACT_COMMAND = 'compileLens.openCompilerArtifact';
export const REVEAL_LINES_COMMAND = 'compileLens.revealKernelLines';

/** A file of a report directory to open read-only, at a 1-based line; `highlight` marks that line as a failed guard. */
export interface OpenArtifactArgs {
  file: string;
  line?: number | null;
  highlight?: string;
}

/** A kernel's (or a compile's) generated code, found in a report; the hover links and the timeline send this. */
export interface OpenGeneratedCodeArgs {
  reportPath: string;
  mode: string;
  compileId: string | null;
  codeLine?: number | null;
}

const showError = (error: Error): void => void vscode.window.showErrorMessage(error.message);

export const artifactUri = (file: string): vscode.Uri => vscode.Uri.from({ scheme: ARTIFACT_SCHEME, path: file });

/** Holds the reports shown this session and serves their compiler artifacts to the editor. */
export class GeneratedCode implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly reports = new Map<string, LoadedReport & { reportPath: string }>();
  /** failed-guard line (0-based) and reason per artifact URI */
  private readonly highlights = new Map<string, { line: number; message: string }>();
  private readonly failedGuard = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('inputValidation.errorBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorError.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private readonly fusedLines = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  });
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  show(loaded: LoadedReport, reportPath: string): void {
    const key = path.resolve(reportPath);
    this.reports.delete(key); // re-inserted: the map's order is the order shown
    this.reports.set(key, { ...loaded, reportPath });
    this.lensesChanged.fire();
  }

  /** The reports shown this session, the newest first (the hovers describe the newest that compiled a file). */
  newestFirst(): (LoadedReport & { reportPath: string })[] {
    return [...this.reports.values()].reverse();
  }

  register(): vscode.Disposable {
    this.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(ARTIFACT_SCHEME, this),
      vscode.languages.registerCodeLensProvider({ scheme: ARTIFACT_SCHEME }, this),
      vscode.commands.registerCommand(OPEN_ARTIFACT_COMMAND, (args: OpenArtifactArgs) =>
        this.open(args).catch(showError),
      ),
      vscode.commands.registerCommand(OPEN_GENERATED_CODE_COMMAND, (args: OpenGeneratedCodeArgs) =>
        this.openGeneratedCode(args).catch(showError),
      ),
      vscode.commands.registerCommand(REVEAL_LINES_COMMAND, (lines: SourceLocation[]) =>
        this.revealLines(lines).catch(showError),
      ),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.decorate(e))),
    );
    return this;
  }

  /** The real path of `file` when it is a file of a report shown this session (reportPaths.ts); else PathRefused. */
  private async artifactFile(file: string): Promise<string> {
    const dir = [...this.reports.values()].map((r) => r.dir).find((d) => !path.relative(d, file).startsWith('..'));
    if (dir === undefined)
      throw new PathRefused(`Compile Lens opens only files of the reports it shows: ${file} is not in one.`);
    return reportFilePath(dir, path.relative(dir, file), 'compiler artifact');
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    try {
      return await readFile(await this.artifactFile(uri.fsPath), 'utf8');
    } catch (error) {
      if (error instanceof PathRefused) return error.message;
      return `Compile Lens could not read ${uri.fsPath}: ${(error as Error).message}\nThe report directory may have been moved or deleted; profile again.`;
    }
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const found = this.compileOfFile(document.uri.fsPath);
    if (!found) return [];
    return kernelLenses(found.kernels, found.compileId).map(({ line, title, kernel }) => {
      const range = new vscode.Range(line - 1, 0, line - 1, 0);
      return new vscode.CodeLens(
        range,
        kernel.sourceLines.length
          ? {
              title,
              command: REVEAL_LINES_COMMAND,
              arguments: [kernel.sourceLines],
              tooltip: kernel.sourceLines.map((l) => `${l.file}:${l.line}  ${l.code ?? ''}`).join('\n'),
            }
          : { title, command: '' },
      );
    });
  }

  /** The mode and compile whose output code is `file`, with that mode's kernels. */
  private compileOfFile(file: string): { compileId: string; kernels: KernelProvenance[] } | null {
    for (const { report, dir } of this.reports.values()) {
      for (const mode of report.modes) {
        const compile = mode.compiler?.compiles?.find((c) => c.outputCode && path.resolve(dir, c.outputCode) === file);
        if (compile) return { compileId: compile.compileId, kernels: mode.compiler?.kernels ?? [] };
      }
    }
    return null;
  }

  async open(args: OpenArtifactArgs): Promise<vscode.TextEditor> {
    await this.artifactFile(args.file); // refused before an editor opens
    const uri = artifactUri(args.file);
    const document = await vscode.workspace.openTextDocument(uri);
    const line = Math.min(Math.max(0, (args.line ?? 1) - 1), Math.max(0, document.lineCount - 1));
    if (args.highlight) this.highlights.set(uri.toString(), { line, message: args.highlight });
    const position = new vscode.Position(line, 0);
    const editor = await vscode.window.showTextDocument(document, {
      selection: new vscode.Range(position, position),
      viewColumn: vscode.ViewColumn.One,
      preview: false,
    });
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.AtTop);
    this.decorate(editor);
    return editor;
  }

  async openGeneratedCode(args: OpenGeneratedCodeArgs): Promise<void> {
    const key = path.resolve(args.reportPath);
    const loaded = this.reports.get(key) ?? { ...(await loadReport(args.reportPath)), reportPath: args.reportPath };
    this.reports.set(key, loaded);
    const compile = compileOf(loaded.report, args.mode, args.compileId);
    if (!compile?.outputCode) {
      void vscode.window.showInformationMessage(
        `No generated code was saved for compile ${args.compileId ?? '?'} of mode ${args.mode} (the compile failed, or the report was written before schema 1.5).`,
      );
      return;
    }
    await this.open({ file: path.resolve(loaded.dir, compile.outputCode), line: args.codeLine ?? 1 });
  }

  /** Opens the first file of a kernel's lines at its first line, the kernel's other lines there highlighted. */
  private async revealLines(lines: SourceLocation[]): Promise<void> {
    const files = [...new Set(lines.map((l) => l.file))];
    const file =
      files.length > 1
        ? (
            await vscode.window.showQuickPick(
              files.map((f) => ({ label: path.basename(f), description: f })),
              { placeHolder: 'The kernel fuses lines of several files: open which?' },
            )
          )?.description
        : files[0];
    if (!file) return;
    const inCell = lines.find((l) => l.file === file && l.cell !== null && l.cell !== undefined);
    if (inCell) return revealLocation(inCell.file, inCell.line, inCell.cell ?? null); // a notebook: its cell, not the .ipynb text
    await sourceFilePath(file, workspaceFolderPaths());
    const here = lines.filter((l) => l.file === file).map((l) => l.line - 1);
    const position = new vscode.Position(Math.max(0, Math.min(...here)), 0);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(document, {
      selection: new vscode.Range(position, position),
      viewColumn: vscode.ViewColumn.One,
    });
    editor.setDecorations(
      this.fusedLines,
      here.map((l) => new vscode.Range(l, 0, l, 0)),
    );
    const clear = vscode.window.onDidChangeTextEditorSelection((event) => {
      if (
        event.textEditor !== editor ||
        event.kind === undefined ||
        event.kind === vscode.TextEditorSelectionChangeKind.Command
      )
        return;
      editor.setDecorations(this.fusedLines, []);
      clear.dispose();
    });
  }

  private decorate(editor: vscode.TextEditor): void {
    const highlight = this.highlights.get(editor.document.uri.toString());
    if (!highlight) return;
    const hover = new vscode.MarkdownString().appendText(`This guard failed: ${highlight.message}`);
    editor.setDecorations(this.failedGuard, [
      {
        range: new vscode.Range(highlight.line, 0, highlight.line, 0),
        hoverMessage: hover,
        renderOptions: {
          after: {
            contentText: `   ← failed: ${highlight.message}`,
            color: new vscode.ThemeColor('editorError.foreground'),
          },
        },
      },
    ]);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.failedGuard.dispose();
    this.fusedLines.dispose();
    this.lensesChanged.dispose();
  }
}
