// "Compile Lens: Runs": the recent runs of each workspace folder (.compile-lens/runs/*/report.json), the newest
// first, each with its headline; clicking one opens its report. Refreshed when a run ends or a report changes.
// "Compare with…" on a run (or on two selected runs) shows two runs of the same target side by side, in a panel of
// the webview bundle (webview/runCompare.ts).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import * as vscode from 'vscode';
import { renderWebviewHtml } from '../editor/webviewHtml.ts';
import type { HostToWebview, WebviewToHost } from '../shared/protocol.ts';
import { runKey } from '../editor/findingStore.ts';
import { compareRuns, compareTitle } from '../present/runCompare.ts';
import type { RunListEntry } from '../present/runList.ts';
import { loadReport } from '../node/reportFile.ts';
import { listRuns, RUNS_FOLDER } from '../node/runList.ts';
import { OPEN_REPORT_COMMAND } from './editorFindings.ts';

export const COMPARE_RUNS_COMMAND = 'compileLens.compareRuns';
/** The compare's panel (report4B M13: a markdown preview's table wrapped a word a line in a narrow column). */
const COMPARE_VIEW_TYPE = 'compileLens.compare';

export type RunsNode = { kind: 'folder'; folder: vscode.WorkspaceFolder } | { kind: 'run'; run: RunListEntry };

export class RunsView implements vscode.TreeDataProvider<RunsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly watcher = vscode.workspace.createFileSystemWatcher('**/.compile-lens/runs/*/report.json');
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly extensionUri: vscode.Uri) {
    const refresh = () => this.refresh();
    this.subscriptions = [
      this.watcher.onDidCreate(refresh),
      this.watcher.onDidChange(refresh),
      this.watcher.onDidDelete(refresh),
      vscode.workspace.onDidChangeWorkspaceFolders(refresh),
    ];
  }

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(node?: RunsNode): Promise<RunsNode[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (!node && folders.length > 1) return folders.map((folder) => ({ kind: 'folder', folder }));
    const folder = node?.kind === 'folder' ? node.folder : folders[0];
    if (folder?.uri.scheme !== 'file') return [];
    return (await listRuns(folder.uri.fsPath)).map((run) => ({ kind: 'run', run }));
  }

  getTreeItem(node: RunsNode): vscode.TreeItem {
    if (node.kind === 'folder') return new vscode.TreeItem(node.folder.name, vscode.TreeItemCollapsibleState.Expanded);
    const item = new vscode.TreeItem(node.run.label, vscode.TreeItemCollapsibleState.None);
    item.description = node.run.description;
    item.tooltip = node.run.tooltip;
    item.iconPath = new vscode.ThemeIcon('pulse');
    item.contextValue = 'run';
    item.command = { command: OPEN_REPORT_COMMAND, title: 'Open Report', arguments: [node.run.reportPath] };
    return item;
  }

  /** `node` compared with the other selected run, else with a run of the same target the user picks; the older
   *  run first, in a panel of its own. */
  async compare(node: RunsNode | undefined, selected: readonly RunsNode[] | undefined): Promise<void> {
    if (node?.kind !== 'run') return;
    const other = (selected ?? []).find(
      (s): s is Extract<RunsNode, { kind: 'run' }> => s.kind === 'run' && s.run.reportPath !== node.run.reportPath,
    );
    let pair: RunListEntry | undefined = other?.run;
    if (!pair) {
      // reportPath is <folder>/.compile-lens/runs/<run>/report.json
      const folder = path.resolve(
        path.dirname(node.run.reportPath),
        '..',
        ...RUNS_FOLDER.split(path.sep).map(() => '..'),
      );
      const same = (await listRuns(folder)).filter(
        (r) => r.reportPath !== node.run.reportPath && runKey(r.target) === runKey(node.run.target),
      );
      if (!same.length) {
        void vscode.window.showInformationMessage(`No other run of ${node.run.name} to compare with.`);
        return;
      }
      pair = (
        await vscode.window.showQuickPick(
          same.map((run) => ({ label: run.label, description: run.description, detail: run.reportPath, run })),
          { placeHolder: `Compare ${node.run.label} (${node.run.description}) with…`, matchOnDetail: true },
        )
      )?.run;
      if (!pair) return;
    }
    const [older, newer] = [node.run, pair].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const [before, after] = await Promise.all([loadReport(older!.reportPath), loadReport(newer!.reportPath)]);
    this.show(compareTitle(before.report, after.report), {
      type: 'compare',
      comparison: compareRuns(before.report, after.report),
    });
  }

  /** A panel of the webview bundle showing `message`, sent each time the webview (re)starts and says it is ready. */
  private show(title: string, message: HostToWebview): void {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist],
    });
    const webview = panel.webview;
    webview.html = renderWebviewHtml({
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      cspSource: webview.cspSource,
      nonce: randomBytes(16).toString('base64'),
      title,
    });
    const messages = webview.onDidReceiveMessage((reply: WebviewToHost) => {
      if (reply.type === 'ready') void webview.postMessage(message);
    });
    panel.onDidDispose(() => {
      messages.dispose();
    });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.watcher.dispose();
    this.changed.dispose();
  }
}
