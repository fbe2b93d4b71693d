// Shows buildCompilerTree() for the latest report in the explorer; a node with a source line opens it, one with a
// compiler artifact (generated code, guards, FX graph) opens that read-only.
import path from 'node:path';
import * as vscode from 'vscode';
import { buildCompilerTree, type ArtifactTarget, type CompilerTreeNode } from '../present/compilerTree.ts';
import type { LoadedReport } from '../node/reportFile.ts';
import { OPEN_ARTIFACT_COMMAND, REVEAL_LINES_COMMAND, type OpenArtifactArgs } from './generatedCode.ts';

const ARTIFACT_ICONS: Record<ArtifactTarget['kind'], string> = {
  code: 'file-code',
  guards: 'shield',
  fxGraph: 'type-hierarchy',
};

export class CompilerTreeView implements vscode.TreeDataProvider<CompilerTreeNode> {
  private roots: CompilerTreeNode[] = [];
  private dir = '';
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  show(loaded: LoadedReport): void {
    this.roots = buildCompilerTree(loaded.report);
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
