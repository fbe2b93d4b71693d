// VS Code entry point: commands, settings and wiring. Logic lives in shared/, present/ and editor/ (pure), node/
// (files, processes) and the views.
import path from 'node:path';
import * as vscode from 'vscode';
import { chooseProfile, DEFAULT_SAMPLE, SAMPLES, type ActiveSource } from '../editor/profileChoice.ts';
import { runKey } from '../editor/findingStore.ts';
import { runSummary } from '../present/regionDigest.ts';
import { optionsFromSettings, profileArgs, targetModes, type RunTarget } from '../shared/runnerProtocol.ts';
import { RunSlot } from '../editor/runSlot.ts';
import { interpreterProblem, probeInterpreter } from '../node/interpreter.ts';
import { loadReport } from '../node/reportFile.ts';
import { listRuns } from '../node/runList.ts';
import { runRunner } from '../node/runner.ts';
import { CompiledLineHover } from './compiledLineHover.ts';
import { OPEN_COMPILE_LOGS_COMMAND, openCompileLogs } from './compileLogs.ts';
import { CompilerTreeView } from './compilerTreeView.ts';
import { ShowInTimeline } from './showInTimeline.ts';
import { QuickFixes } from './quickFixes.ts';
import {
  CLEAR_FINDINGS_COMMAND,
  EditorFindings,
  MEASURE_SHAPE_FIX_COMMAND,
  OPEN_REPORT_COMMAND,
  PROFILE_SCRIPT_COMMAND,
  PROFILE_TARGET_COMMAND,
} from './editorFindings.ts';
import { GeneratedCode } from './generatedCode.ts';
import { notebookCellTexts } from './notebooks.ts';
import { COMPARE_RUNS_COMMAND, RunsView, type RunsNode } from './runsView.ts';
import { openTraceTimeline, registerTimeline, ReportTabs } from './timelinePanel.ts';

interface PythonExtensionApi {
  environments?: { getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } };
}

/** The Python extension's active environment, else compileLens.pythonPath, else python3. */
async function choosePython(resource: vscode.Uri | undefined): Promise<string> {
  const configured = vscode.workspace.getConfiguration('compileLens', resource).get<string>('pythonPath');
  if (configured) return configured;
  const pythonExtension = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
  if (pythonExtension) {
    try {
      const api = pythonExtension.isActive ? pythonExtension.exports : await pythonExtension.activate();
      const active = api.environments?.getActiveEnvironmentPath(resource)?.path;
      if (active) return active;
    } catch {
      // fall through to the default interpreter
    }
  }
  return 'python3';
}

/** The active Python file (saved to disk) or .ipynb notebook, as the pure chooser sees it. */
function activeSource(): ActiveSource | null {
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId === 'python' && editor.document.uri.scheme === 'file')
    return { kind: 'python', file: editor.document.uri.fsPath, text: editor.document.getText() };
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  if (notebook?.uri.scheme === 'file' && notebook.uri.fsPath.endsWith('.ipynb'))
    return { kind: 'notebook', file: notebook.uri.fsPath, cells: notebookCellTexts(notebook) };
  return null;
}

/** What "Compile & Profile Model" runs: decided by editor/profileChoice.ts, asked here when there is a choice. */
async function pickTarget(): Promise<RunTarget | undefined> {
  const preferred = vscode.workspace.getConfiguration('compileLens').get<string>('defaultSample') ?? DEFAULT_SAMPLE;
  const known = (SAMPLES as readonly string[]).includes(preferred);
  const choice = chooseProfile(activeSource(), SAMPLES, known ? preferred : DEFAULT_SAMPLE);
  switch (choice.kind) {
    case 'run':
      return choice.target;
    case 'pick':
      return (await vscode.window.showQuickPick(choice.options, { placeHolder: choice.placeHolder }))?.target;
    case 'explain': {
      const picked = await vscode.window.showInformationMessage(
        choice.message,
        { modal: true, detail: choice.detail },
        ...choice.options.map((o) => o.label),
      );
      return choice.options.find((o) => o.label === picked)?.target;
    }
  }
}

/** A setting's value only where the user set one (folder, workspace or user settings), else undefined. */
function explicitSetting<T>(
  inspected: { globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined,
): T | undefined {
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
}

/** The runner reads the file from disk: unsaved edits of the profiled file or notebook are saved first. */
async function saveIfDirty(target: RunTarget): Promise<void> {
  if (target.kind === 'sample') return;
  const same = (uri: vscode.Uri) => uri.scheme === 'file' && uri.fsPath === target.file;
  await vscode.workspace.textDocuments.find((d) => same(d.uri) && d.isDirty)?.save();
  await vscode.workspace.notebookDocuments.find((n) => same(n.uri) && n.isDirty)?.save();
}

/** "Open Report": the workspace's recent runs first, then a file dialog for any report.json. */
async function chooseReport(): Promise<string | undefined> {
  const runs = (
    await Promise.all(
      (vscode.workspace.workspaceFolders ?? [])
        .filter((f) => f.uri.scheme === 'file')
        .map((f) => listRuns(f.uri.fsPath, 20)),
    )
  ).flat();
  const browse = { label: '$(folder-opened) Browse for a report.json…', reportPath: '' };
  const picked = runs.length
    ? await vscode.window.showQuickPick(
        [
          ...runs.map((r) => ({
            label: r.label,
            description: r.description,
            detail: r.reportPath,
            reportPath: r.reportPath,
          })),
          browse,
        ],
        { placeHolder: 'Open the report of a recent run', matchOnDescription: true },
      )
    : browse;
  if (!picked) return undefined;
  if (picked.reportPath) return picked.reportPath;
  return (await vscode.window.showOpenDialog({ filters: { 'Compile Lens report': ['json'] } }))?.[0]?.fsPath;
}

/** The cancel toast: what the stopped run left, in the words of its kind of run (the runner's report says it). */
async function cancelledText(reportPath: string | null): Promise<string> {
  const error = reportPath
    ? await loadReport(reportPath).then(
        (l) => l.report.error,
        () => null,
      )
    : null;
  return error?.kind === 'cancelled'
    ? `${error.message} ${error.fix}`
    : 'Cancelled: the runner and its compile workers were stopped. The findings and report of the last run stay.';
}

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Compile Lens');
  const generatedCode = new GeneratedCode();
  const compiledLines = new CompiledLineHover(generatedCode);
  const findings = new EditorFindings((document, position) => compiledLines.markdownAt(document, position));
  const compilerTree = new CompilerTreeView();
  const runsView = new RunsView(context.extensionUri);
  const runSlot = new RunSlot();
  const activeRuns = new Set<AbortController>();
  // the Compiler view follows the report tab that becomes active
  const reportTabs = new ReportTabs(context.extensionUri, log, (loaded) => compilerTree.show(loaded));
  const showInTimeline = new ShowInTimeline((key, reportPath, then) => reportTabs.open(key, reportPath, { then }));

  const showReport = async (reportPath: string) => {
    const loaded = await loadReport(reportPath);
    findings.show(loaded, reportPath);
    showInTimeline.show(loaded, reportPath);
    compilerTree.show(loaded);
    generatedCode.show(loaded, reportPath);
    reportTabs.open(runKey(loaded.report.target), reportPath, { report: Promise.resolve(loaded) });
    runsView.refresh();
    return loaded;
  };

  /** shapeFix 'on': the shape fixes measured whatever the budget ("Measure the shape fix"). */
  const profile = async (target: RunTarget | undefined, shapeFix?: 'on') => {
    if (!target) return;
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        'Compile Lens runs your model code, so it only profiles in a trusted workspace. Trace files still open. Use "Manage Workspace Trust" to trust this folder.',
      );
      return;
    }
    const slot = runSlot.take(
      target.kind === 'sample'
        ? target.name
        : `${path.basename(target.file)}${target.kind === 'function' ? `:${target.fn}` : ''}`,
    );
    if (!slot.ok) {
      void vscode.window.showWarningMessage(slot.message);
      return;
    }
    try {
      const resource =
        target.kind === 'sample' ? vscode.workspace.workspaceFolders?.[0]?.uri : vscode.Uri.file(target.file);
      const config = vscode.workspace.getConfiguration('compileLens', resource);
      const python = await choosePython(resource);
      const interpreter = await probeInterpreter(python);
      const problem = interpreterProblem(interpreter);
      if (problem) {
        log.appendLine(problem);
        void vscode.window.showErrorMessage(problem);
        return;
      }
      // reports go under <cwd>/.compile-lens: the workspace, else (no folder open) the extension's own storage
      const cwd =
        vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ??
        (target.kind === 'sample' ? context.globalStorageUri.fsPath : path.dirname(target.file));
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(cwd));
      const timeoutSeconds = config.get<number>('timeoutSeconds') ?? 900;
      const device = config.get<'auto' | 'cpu' | 'cuda'>('device') ?? 'auto';
      const modesSet = explicitSetting(config.inspect<string[]>('modes'));
      const targetRun = targetModes(modesSet, config.get<string[]>('modes') ?? ['default'], device, interpreter.cuda);
      if (target.kind !== 'script' && targetRun.note) log.appendLine(targetRun.note);
      const options = optionsFromSettings(target, {
        device,
        // a script's regions are measured in the mode the script compiles them with; compileLens.modes adds what-if
        // modes only when the user set it; a target on CPU leaves out the modes whose only difference is CUDA graphs
        modes: target.kind === 'script' ? modesSet : targetRun.modes,
        dynamic: config.get<'auto' | 'true' | 'false'>('dynamic') ?? 'auto',
        fullgraph: config.get<boolean>('fullgraph') ?? false,
        timeoutSeconds,
        quick: config.get<boolean>('quick') ?? false,
        scriptCalls: config.get<number>('scriptCalls') ?? 0,
        nprocPerNode: config.get<number>('nprocPerNode') ?? 1,
      });
      if (shapeFix) options.shapeFix = shapeFix;
      await saveIfDirty(target);
      const args = profileArgs(options);
      log.appendLine(`$ ${python} -m compile_lens_runner ${args.join(' ')}`);
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Compile Lens', cancellable: true },
        (progress, token) => {
          const controller = new AbortController();
          activeRuns.add(controller);
          token.onCancellationRequested(() => controller.abort());
          let reported = 0;
          return runRunner({
            python,
            runnerDir: vscode.Uri.joinPath(context.extensionUri, 'native-runner').fsPath,
            cwd,
            args,
            killAfterMs: (timeoutSeconds + 30) * 1000,
            signal: controller.signal,
            onProgress: (p) => {
              const percent = Math.round(p.fraction * 100);
              progress.report({ message: `${p.phase}: ${p.message}`, increment: Math.max(0, percent - reported) });
              reported = Math.max(reported, percent);
              log.appendLine(`[${percent}%] ${p.phase}: ${p.message}`);
            },
            onLog: (line) => log.appendLine(line),
          }).finally(() => activeRuns.delete(controller));
        },
      );
      if (outcome.message) log.appendLine(outcome.message);
      if (outcome.status === 'cancelled') {
        // the last good findings, Compiler view and report stay as they were; what the run left is one click away
        runsView.refresh();
        const partial = outcome.reportPath;
        const open = partial ? 'Open What Was Measured' : undefined;
        void vscode.window.showInformationMessage(await cancelledText(partial), ...(open ? [open] : [])).then((a) => {
          if (a && partial) void showReport(partial);
        });
        return;
      }
      if (!outcome.reportPath) {
        void vscode.window
          .showErrorMessage(outcome.message ?? 'The Compile Lens runner failed.', 'Show Output')
          .then((a) => a && log.show());
        return;
      }
      const loaded = await showReport(outcome.reportPath);
      log.appendLine(`Report: ${outcome.reportPath}\n${runSummary(loaded.report)}`);
      if (loaded.report.error)
        void vscode.window
          .showErrorMessage(`${loaded.report.error.message} ${loaded.report.error.fix}`, 'Show Output')
          .then((a) => a && log.show());
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      log.appendLine(text);
      void vscode.window.showErrorMessage(text);
    } finally {
      slot.release();
    }
  };

  registerTimeline(
    context,
    log,
    (panel, report, attached) =>
      void report.then(
        (loaded) => reportTabs.track(runKey(loaded.report.target), panel, report, attached),
        () => {},
      ),
  );
  context.subscriptions.push(
    log,
    findings,
    compiledLines,
    compilerTree,
    runsView,
    reportTabs,
    vscode.window.registerTreeDataProvider('compileLens.compiler', compilerTree),
    // several runs may be selected: two of them compare
    vscode.window.createTreeView('compileLens.runs', { treeDataProvider: runsView, canSelectMany: true }),
    vscode.commands.registerCommand(COMPARE_RUNS_COMMAND, (node?: RunsNode, selected?: RunsNode[]) =>
      runsView.compare(node, selected),
    ),
    vscode.commands.registerCommand(CLEAR_FINDINGS_COMMAND, () => {
      findings.clear();
      showInTimeline.clear();
    }),
    vscode.commands.registerCommand('compileLens.refreshRuns', () => runsView.refresh()),
    // one provider: a line's findings come first, then what it was compiled into
    vscode.languages.registerHoverProvider({ language: 'python' }, findings),
    showInTimeline,
    vscode.languages.registerHoverProvider({ language: 'python' }, showInTimeline),
    vscode.languages.registerCodeActionsProvider({ language: 'python' }, showInTimeline, {
      providedCodeActionKinds: ShowInTimeline.providedCodeActionKinds,
    }),
    vscode.languages.registerCodeActionsProvider(
      { language: 'python' },
      new QuickFixes((document, line) => findings.findingsAt(document, line)),
      { providedCodeActionKinds: QuickFixes.kinds },
    ),
    vscode.languages.registerCodeLensProvider(
      [
        { language: 'python', scheme: 'file' },
        { language: 'python', scheme: 'vscode-notebook-cell' },
      ],
      findings,
    ),
    generatedCode.register(),
    vscode.commands.registerCommand('compileLens.profile', async () => profile(await pickTarget())),
    vscode.commands.registerCommand(PROFILE_TARGET_COMMAND, (file: string, fn: string) =>
      profile({ kind: 'function', file, fn }),
    ),
    vscode.commands.registerCommand(PROFILE_SCRIPT_COMMAND, (uri?: vscode.Uri) => {
      const file = uri?.scheme === 'file' ? uri.fsPath : activeSource()?.file;
      if (file) return profile({ kind: 'script', file, args: [] });
      void vscode.window.showWarningMessage('Open a Python script or notebook to profile it as a script.');
      return undefined;
    }),
    vscode.commands.registerCommand(MEASURE_SHAPE_FIX_COMMAND, (file: string) =>
      profile({ kind: 'script', file, args: [] }, 'on'),
    ),
    vscode.commands.registerCommand(OPEN_COMPILE_LOGS_COMMAND, (uri?: vscode.Uri, uris?: vscode.Uri[]) =>
      openCompileLogs({ extensionUri: context.extensionUri, log, choosePython, showReport }, uri, uris),
    ),
    vscode.commands.registerCommand('compileLens.openTrace', (uri?: vscode.Uri, uris?: vscode.Uri[]) =>
      openTraceTimeline(context.extensionUri, log, uri, uris),
    ),
    vscode.commands.registerCommand(OPEN_REPORT_COMMAND, async (reportPath?: string) => {
      const chosen = reportPath ?? (await chooseReport());
      if (chosen) await showReport(chosen).catch((e: Error) => vscode.window.showErrorMessage(e.message));
    }),
    { dispose: () => activeRuns.forEach((c) => c.abort()) },
  );
}
