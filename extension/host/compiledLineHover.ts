// What a compiled user line ended up in, for the hover under the line's findings: which generated kernels its ops
// were fused into, what else each fused, its time per step, and a link that opens the kernel in the generated code.
// Reads the newest report shown that compiled this file (a run of another file does not hide it).
import * as vscode from 'vscode';
import { compiledLineHover, compiledLineIndex, type LineUse } from '../present/kernelLinks.ts';
import type { Report } from '../shared/report.ts';
import { OPEN_GENERATED_CODE_COMMAND, type GeneratedCode, type OpenGeneratedCodeArgs } from './generatedCode.ts';

export class CompiledLineHover {
  private readonly indexes = new WeakMap<Report, ReturnType<typeof compiledLineIndex>>();

  constructor(private readonly generated: GeneratedCode) {}

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
