// Quick Fixes (code actions) for findings whose fix is a mechanical edit: on the Problems entry and in the hover of
// the finding's line, one click inserts the fix into the user's file (the edit is editor/quickFixes.ts's). The next run
// shows whether the finding is gone.
import * as vscode from 'vscode';
import type { Finding } from '../present/findings.ts';
import { quickFixEdit } from '../editor/quickFixes.ts';

/** The findings on a document's 0-based line (EditorFindings.findingsAt). */
export type FindingsAt = (document: vscode.TextDocument, line: number) => Finding[];

export class QuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly findingsAt: FindingsAt) {}

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const seen = new Set<string>();
    for (let line = range.start.line; line <= range.end.line; line++) {
      for (const quickFix of this.findingsAt(document, line).flatMap((f) => f.quickFixes)) {
        if (seen.has(quickFix.title)) continue;
        const edit = quickFixEdit(quickFix, document.getText());
        if (!edit) continue;
        seen.add(quickFix.title);
        const action = new vscode.CodeAction(edit.title, vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        for (const e of edit.edits)
          action.edit.replace(document.uri, new vscode.Range(e.line, e.column, e.endLine, e.endColumn), e.text);
        action.diagnostics = context.diagnostics.filter(
          (d) => d.source === 'Compile Lens' && d.range.start.line === line,
        );
        action.isPreferred = actions.length === 0; // the runner's first offer (dynamic=True before mark_dynamic)
        actions.push(action);
      }
    }
    return actions;
  }
}
