// "Compile Lens: Runs": the recent runs of each workspace folder (.compile-lens/runs/*/report.json), the newest
// first, each with its headline; clicking one opens its report. Refreshed when a run ends or a report changes.
import * as vscode from 'vscode';
import type { RunListEntry } from '../present/runList.ts';
import { listRuns } from '../node/runList.ts';
import { OPEN_REPORT_COMMAND } from './editorFindings.ts';

type RunsNode = { kind: 'folder'; folder: vscode.WorkspaceFolder } | { kind: 'run'; run: RunListEntry };

export class RunsView implements vscode.TreeDataProvider<RunsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly watcher = vscode.workspace.createFileSystemWatcher('**/.compile-lens/runs/*/report.json');
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    const refresh = () => this.refresh();
    this.subscriptions = [this.watcher.onDidCreate(refresh), this.watcher.onDidChange(refresh), this.watcher.onDidDelete(refresh),
      vscode.workspace.onDidChangeWorkspaceFolders(refresh)];
  }

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(node?: RunsNode): Promise<RunsNode[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (!node && folders.length > 1) return folders.map((folder) => ({ kind: 'folder', folder }));
    const folder = node?.kind === 'folder' ? node.folder : folders[0];
    if (!folder || folder.uri.scheme !== 'file') return [];
    return (await listRuns(folder.uri.fsPath)).map((run) => ({ kind: 'run', run }));
  }

  getTreeItem(node: RunsNode): vscode.TreeItem {
    if (node.kind === 'folder') return new vscode.TreeItem(node.folder.name, vscode.TreeItemCollapsibleState.Expanded);
    const item = new vscode.TreeItem(node.run.label, vscode.TreeItemCollapsibleState.None);
    item.description = node.run.description;
    item.tooltip = node.run.tooltip;
    item.iconPath = new vscode.ThemeIcon('pulse');
    item.command = { command: OPEN_REPORT_COMMAND, title: 'Open Report', arguments: [node.run.reportPath] };
    return item;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.watcher.dispose();
    this.changed.dispose();
  }
}
