// Shows buildCompilerTree() for the latest report in the explorer; a node with a source line opens it.
import * as vscode from 'vscode';
import { buildCompilerTree, type CompilerTreeNode } from './core/compilerTree.ts';
import type { Report } from './core/report.ts';

export class CompilerTreeView implements vscode.TreeDataProvider<CompilerTreeNode> {
  private roots: CompilerTreeNode[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  show(report: Report): void {
    this.roots = buildCompilerTree(report);
    this.changed.fire();
  }

  getChildren(node?: CompilerTreeNode): CompilerTreeNode[] {
    return node ? node.children : this.roots;
  }

  getTreeItem(node: CompilerTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, node.children.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    if (node.description) item.description = node.description;
    if (node.tooltip) item.tooltip = node.tooltip;
    if (node.location) {
      const line = Math.max(0, node.location.line - 1);
      item.command = {
        command: 'vscode.open',
        title: 'Go to source',
        arguments: [vscode.Uri.file(node.location.file), { selection: new vscode.Range(line, 0, line, 0) } satisfies vscode.TextDocumentShowOptions],
      };
    }
    return item;
  }
}
