// The last run's findings where the code is: Problems entries, hovers, and CodeLens above compile targets.
import * as vscode from 'vscode';
import { collectFindings, findingHover, findingMessage, type Finding } from './core/findings.ts';
import type { LoadedReport } from './core/reportFile.ts';
import { digestReport, headline } from './core/reportDigest.ts';
import { findTargetFunctions } from './core/targets.ts';

export const PROFILE_TARGET_COMMAND = 'compileLens.profileTarget';
export const OPEN_REPORT_COMMAND = 'compileLens.openReport';

function toDiagnostic(finding: Finding): vscode.Diagnostic {
  const line = Math.max(0, finding.line - 1);
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
    findingMessage(finding),
    finding.kind === 'graph-break' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information,
  );
  diagnostic.source = 'Compile Lens';
  diagnostic.code = finding.docUrl ? { value: finding.code, target: vscode.Uri.parse(finding.docUrl) } : finding.code;
  return diagnostic;
}

/** Holds the findings of the latest report per target and shows them in every editor surface. */
export class EditorFindings implements vscode.HoverProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('compile-lens');
  private findings: Finding[] = [];
  /** latest report per target function, keyed "file\0function" */
  private readonly reportsByTarget = new Map<string, LoadedReport & { reportPath: string }>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  show(loaded: LoadedReport, reportPath: string): void {
    const target = loaded.report.target;
    if (target.file && target.function) this.reportsByTarget.set(`${target.file}\0${target.function}`, { ...loaded, reportPath });
    this.findings = collectFindings(loaded.report);
    this.diagnostics.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const finding of this.findings) {
      const list = byFile.get(finding.file) ?? [];
      list.push(toDiagnostic(finding));
      byFile.set(finding.file, list);
    }
    for (const [file, list] of byFile) this.diagnostics.set(vscode.Uri.file(file), list);
    this.lensesChanged.fire();
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const here = this.findings.filter((f) => f.file === document.uri.fsPath && f.line - 1 === position.line);
    if (!here.length) return undefined;
    const markdown = new vscode.MarkdownString(here.map(findingHover).join('\n\n---\n\n'));
    markdown.isTrusted = false; // report text is data: no command links
    return new vscode.Hover(markdown, document.lineAt(position.line).range);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    for (const target of findTargetFunctions(document.getText())) {
      const range = new vscode.Range(target.line, 0, target.line, 0);
      lenses.push(new vscode.CodeLens(range, { title: '▶ Compile & Profile', command: PROFILE_TARGET_COMMAND, arguments: [document.uri.fsPath, target.name] }));
      const last = this.reportsByTarget.get(`${document.uri.fsPath}\0${target.name}`);
      if (last) {
        lenses.push(new vscode.CodeLens(range, { title: headline(digestReport(last.report)), command: OPEN_REPORT_COMMAND, arguments: [last.reportPath] }));
      }
    }
    return lenses;
  }

  dispose(): void {
    this.diagnostics.dispose();
    this.lensesChanged.dispose();
  }
}
