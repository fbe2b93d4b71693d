// Shows buildCompilerTree() for the latest report in the explorer; a node with a source line opens it, one with a
// compiler artifact (generated code, guards, FX graph) opens that read-only. An edit moves its lines, and the lines
// its words name, as it moves the findings' (editor/followEdits.ts).
import path from 'node:path';
import * as vscode from 'vscode';
import { buildCompilerTree, type ArtifactTarget, type CompilerTreeNode } from '../present/compilerTree.ts';
import { compilerTreeAfterEdit } from '../editor/followEdits.ts';
import type { LoadedReport } from '../node/reportFile.ts';
import type { Report } from '../shared/report.ts';
import { placeOfDocument } from './notebooks.ts';
import { OPEN_ARTIFACT_COMMAND, REVEAL_LINES_COMMAND, type OpenArtifactArgs } from './generatedCode.ts';

const ARTIFACT_ICONS: Record<ArtifactTarget['kind'], string> = {
  code: 'file-code',
  guards: 'shield',
  fxGraph: 'type-hierarchy',
};

/** Reports whose trees follow edits (each a report tab the user may show again); an older one is built afresh. */
const SHOWN_TREES = 8;

export class CompilerTreeView implements vscode.TreeDataProvider<CompilerTreeNode>, vscode.Disposable {
  private roots: CompilerTreeNode[] = [];
  private dir = '';
  // the trees of the reports shown lately, each moved by every edit since it was built: a report tab shown again
  // says its lines where they are now
  private readonly trees = new Map<Report, CompilerTreeNode[]>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly edited = vscode.workspace.onDidChangeTextDocument((event) => {
    const place = placeOfDocument(event.document);
    if (!place) return;
    for (const [report, roots] of this.trees)
      this.trees.set(report, compilerTreeAfterEdit(roots, place, event.contentChanges));
    const shown = [...this.trees.values()].at(-1);
    if (!shown || shown === this.roots) return;
    this.roots = shown;
    this.changed.fire();
  });

  dispose(): void {
    this.edited.dispose();
    this.changed.dispose();
  }

  show(loaded: LoadedReport): void {
    const roots = this.trees.get(loaded.report) ?? buildCompilerTree(loaded.report);
    this.trees.delete(loaded.report); // the one shown last is last
    this.trees.set(loaded.report, roots);
    if (this.trees.size > SHOWN_TREES) this.trees.delete(this.trees.keys().next().value!);
    this.roots = roots;
    this.dir = loaded.dir;
    this.changed.fire();
  }

  getChildren(node?: CompilerTreeNode): CompilerTreeNode[] {
    return node ? node.children : this.roots;
  }

  getTreeItem(node: CompilerTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(
      node.label,
      node.children.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    if (node.description) item.description = node.description;
    if (node.tooltip) item.tooltip = node.tooltip;
    if (node.artifact) {
      const { kind, line, highlight } = node.artifact;
      const args: OpenArtifactArgs = {
        file: path.resolve(this.dir, node.artifact.path),
        line: line ?? null,
        ...(highlight ? { highlight } : {}),
      };
      item.iconPath = new vscode.ThemeIcon(highlight ? 'error' : ARTIFACT_ICONS[kind]);
      item.command = { command: OPEN_ARTIFACT_COMMAND, title: 'Open', arguments: [args] };
    } else if (node.location) {
      // through the kernel-lines command: a report's source link opens only inside the workspace (reportPaths.ts),
      // a notebook's in its cell in the notebook editor
      item.command = { command: REVEAL_LINES_COMMAND, title: 'Go to source', arguments: [[node.location]] };
    }
    return item;
  }
}
