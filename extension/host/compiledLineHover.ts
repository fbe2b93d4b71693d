// What a compiled user line ended up in, for the hover under the line's findings: which generated kernels its ops
// were fused into, what else each fused, its time per step, and a link that opens the kernel in the generated code.
// Reads the newest report shown that compiled this file (a run of another file does not hide it); an edit moves its
// lines as it moves the findings' (shared/movedLines.ts).
import * as vscode from 'vscode';
import { movesLines } from '../shared/movedLines.ts';
import { compiledLineHover, compiledLineIndex, movedLineIndex, type LineUse } from '../present/kernelLinks.ts';
import type { Report } from '../shared/report.ts';
import { OPEN_GENERATED_CODE_COMMAND, type GeneratedCode, type OpenGeneratedCodeArgs } from './generatedCode.ts';

export class CompiledLineHover implements vscode.Disposable {
  private readonly indexes = new WeakMap<Report, ReturnType<typeof compiledLineIndex>>();
  // every shown report's index is built at the first edit after it was shown, so it moves from the report's lines;
  // the lines its entries name besides their own ("with line 13") move alike
  private readonly edited = vscode.workspace.onDidChangeTextDocument((event) => {
    if (event.document.uri.scheme !== 'file' || !event.contentChanges.some(movesLines)) return;
    for (const shown of this.generated.newestFirst())
      this.indexes.set(
        shown.report,
        movedLineIndex(this.indexOf(shown.report), event.document.uri.fsPath, event.contentChanges),
      );
  });

  constructor(private readonly generated: GeneratedCode) {}

  dispose(): void {
    this.edited.dispose();
  }

  private indexOf(report: Report): ReturnType<typeof compiledLineIndex> {
    const known = this.indexes.get(report);
    if (known) return known;
    const index = compiledLineIndex(report);
    this.indexes.set(report, index);
    return index;
  }

  /** The hover's markdown for a line of a file, or undefined when no report compiled that line. */
  markdownAt(document: vscode.TextDocument, position: vscode.Position): vscode.MarkdownString | undefined {
    if (document.uri.scheme !== 'file') return undefined;
    for (const shown of this.generated.newestFirst()) {
      const byLine = this.indexOf(shown.report).get(document.uri.fsPath);
      if (!byLine) continue;
      const uses = byLine.get(position.line + 1);
      if (!uses?.length) return undefined;
      const link = (use: LineUse): string | null => {
        if (!use.target) return null;
        const args: OpenGeneratedCodeArgs = {
          reportPath: shown.reportPath,
          mode: use.mode,
          compileId: use.target.compileId,
          codeLine: use.target.line,
        };
        return `command:${OPEN_GENERATED_CODE_COMMAND}?${encodeURIComponent(JSON.stringify([args]))}`;
      };
      const markdown = new vscode.MarkdownString(compiledLineHover(uses, link));
      // report strings are escaped in compiledLineHover; the only command a link may run is opening generated code
      markdown.isTrusted = { enabledCommands: [OPEN_GENERATED_CODE_COMMAND] };
      return markdown;
    }
    return undefined;
  }
}
