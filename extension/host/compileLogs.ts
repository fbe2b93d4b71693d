// "Compile Lens: Open Compile Logs…" (command palette and the explorer's menu on folders, .log and .log.gz): compiler
// logs made anywhere read by the runner's `inspect`, mapped onto the workspace (node/inspectLogs.ts), then shown as
// a profile run's report is: Problems, hovers, CodeLens, the Compiler view and the report panel.
import path from 'node:path';
import * as vscode from 'vscode';
import { formatLogNotes, digestLogs } from '../present/logsDigest.ts';
import type { SourceMapRule } from '../node/sourceMap.ts';
import { inspectArgs, inspectLogs } from '../node/inspectLogs.ts';
import type { LoadedReport } from '../node/reportFile.ts';

export const OPEN_COMPILE_LOGS_COMMAND = 'compileLens.openCompileLogs';

export interface CompileLogsHost {
  extensionUri: vscode.Uri;
  log: vscode.OutputChannel;
  choosePython: (resource: vscode.Uri | undefined) => Promise<string>;
  /** shows a report as after a profile run */
  showReport: (reportPath: string) => Promise<LoadedReport>;
}

/** compileLens.sourceMap: {"/path/on/the/cluster": "/path/here"}. */
function rulesFrom(config: vscode.WorkspaceConfiguration): SourceMapRule[] {
  const value = config.get<Record<string, unknown>>('sourceMap') ?? {};
  return Object.entries(value)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== '')
    .map(([from, to]) => ({ from, to }));
}

async function chooseLogs(
  uri: vscode.Uri | undefined,
  uris: vscode.Uri[] | undefined,
): Promise<vscode.Uri[] | undefined> {
  const given = (uris?.length ? uris : uri ? [uri] : []).filter((u) => u.scheme === 'file');
  if (given.length) return given;
  return vscode.window.showOpenDialog({
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: true,
    openLabel: 'Open Compile Logs',
    filters: { 'Compiler logs (TORCH_TRACE)': ['log', 'gz'], 'All files': ['*'] },
  });
}

export async function openCompileLogs(host: CompileLogsHost, uri?: vscode.Uri, uris?: vscode.Uri[]): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      'Compile Lens reads compile logs with its Python runner, which it only starts in a trusted workspace. Use "Manage Workspace Trust" to trust this folder.',
    );
    return;
  }
  const chosen = await chooseLogs(uri, uris);
  if (!chosen?.length) return;
  const folder = vscode.workspace.getWorkspaceFolder(chosen[0]!) ?? vscode.workspace.workspaceFolders?.[0];
  // the logs' files are mapped onto this workspace; reports go under its .compile-lens/runs
  const workspace = folder?.uri.fsPath ?? path.dirname(chosen[0]!.fsPath);
  const paths = chosen.map((u) => u.fsPath);
  const python = await host.choosePython(folder?.uri);
  host.log.appendLine(`$ ${python} -m compile_lens_runner ${inspectArgs(paths).join(' ')}`);
  try {
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Compile Lens: reading compile logs',
        cancellable: true,
      },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return inspectLogs({
          python,
          runnerDir: vscode.Uri.joinPath(host.extensionUri, 'native-runner').fsPath,
          cwd: workspace,
          workspace,
          paths,
          rules: rulesFrom(vscode.workspace.getConfiguration('compileLens', folder?.uri)),
          signal: controller.signal,
          onLog: (line) => host.log.appendLine(line),
        });
      },
    );
    if (!outcome.loaded) {
      host.log.appendLine(outcome.message);
      if (!outcome.cancelled)
        void vscode.window.showErrorMessage(outcome.message, 'Show Output').then((a) => a && host.log.show());
      return;
    }
    const loaded = await host.showReport(outcome.reportPath);
    const digest = digestLogs(loaded.report);
    host.log.appendLine(`Report: ${outcome.reportPath}`);
    for (const note of formatLogNotes(digest)) host.log.appendLine(note);
    if (loaded.report.error) {
      void vscode.window.showErrorMessage(`${loaded.report.error.message} ${loaded.report.error.fix}`);
    } else if (digest.unmapped.length || digest.warnings.length) {
      void vscode.window
        .showWarningMessage(
          'Compile Lens: some files the logs name are not in this workspace, or some lines could not be read.',
          'Show Output',
        )
        .then((a) => a && host.log.show());
    }
    if (digest.jobRestarts) void vscode.window.showInformationMessage(`Compile Lens: the job ${digest.jobRestarts}.`);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    host.log.appendLine(text);
    void vscode.window.showErrorMessage(text);
  }
}
