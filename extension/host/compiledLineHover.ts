// The hover over a user line that was compiled: which generated kernels its ops ended up in, what else each fused,
// its time per step, and a link that opens the kernel in the generated code. Reads the report shown last.
import * as vscode from 'vscode';
import { compiledLineHover, compiledLineIndex, type LineUse } from '../core/kernelLinks.ts';
import type { Report } from '../core/report.ts';
import { OPEN_GENERATED_CODE_COMMAND, type GeneratedCode, type OpenGeneratedCodeArgs } from './generatedCode.ts';

export class CompiledLineHover implements vscode.HoverProvider {
  private indexed: { report: Report; index: ReturnType<typeof compiledLineIndex> } | null = null;

  constructor(private readonly generated: GeneratedCode) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const latest = this.generated.latest();
    if (!latest) return undefined;
    if (this.indexed?.report !== latest.report) this.indexed = { report: latest.report, index: compiledLineIndex(latest.report) };
    const uses = this.indexed.index.get(document.uri.fsPath)?.get(position.line + 1);
    if (!uses?.length) return undefined;
    const link = (use: LineUse): string | null => {
      if (!use.target) return null;
      const args: OpenGeneratedCodeArgs = { reportPath: latest.reportPath, mode: use.mode, compileId: use.target.compileId, codeLine: use.target.line };
      return `command:${OPEN_GENERATED_CODE_COMMAND}?${encodeURIComponent(JSON.stringify([args]))}`;
    };
    const markdown = new vscode.MarkdownString(compiledLineHover(uses, link));
    // report strings are escaped in compiledLineHover; the only command a link may run is opening generated code
    markdown.isTrusted = { enabledCommands: [OPEN_GENERATED_CODE_COMMAND] };
    return new vscode.Hover(markdown, document.lineAt(position.line).range);
  }
}
