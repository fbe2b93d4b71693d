// VS Code entry point: commands, settings and wiring. Logic lives in core/ (pure) and the two views.
import path from 'node:path';
import * as vscode from 'vscode';
import { CompiledLineHover } from './compiledLineHover.ts';
import { CompilerTreeView } from './compilerTreeView.ts';
import { EditorFindings, OPEN_REPORT_COMMAND, PROFILE_TARGET_COMMAND } from './editorFindings.ts';
import { GeneratedCode } from './generatedCode.ts';
import { interpreterProblem, probeInterpreter } from './core/interpreter.ts';
import { loadReport } from './core/reportFile.ts';
import { digestReport, headline } from './core/reportDigest.ts';
import { RunSlot } from './core/runSlot.ts';
import { profileArgs, runRunner, type ProfileOptions, type RunTarget } from './core/runner.ts';
import { findTargetFunctions } from './core/targets.ts';
import { openTimelinePanel, registerTimeline } from './timelinePanel.ts';

interface PythonExtensionApi {
  environments?: { getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } };
}

const SAMPLES = ['mlp', 'localopt', 'graphbreak', 'recompile'];

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

async function pickTarget(): Promise<RunTarget | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId === 'python' && editor.document.uri.scheme === 'file') {
    const file = editor.document.uri.fsPath;
    const targets = findTargetFunctions(editor.document.getText());
    if (targets.length === 1) return { kind: 'function', file, fn: targets[0]!.name };
    if (targets.length > 1) {
      const choice = await vscode.window.showQuickPick(targets.map((t) => ({ label: t.name, description: `line ${t.line + 1}` })), { placeHolder: 'Which target should Compile Lens profile?' });
      return choice ? { kind: 'function', file, fn: choice.label } : undefined;
    }
  }
  const sample = vscode.workspace.getConfiguration('compileLens').get<string>('defaultSample') ?? 'mlp';
  return { kind: 'sample', name: SAMPLES.includes(sample) ? sample : 'mlp' };
}

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Compile Lens');
  const findings = new EditorFindings();
  const compilerTree = new CompilerTreeView();
  const generatedCode = new GeneratedCode();
  const runSlot = new RunSlot();
  const activeRuns = new Set<AbortController>();

  const showReport = async (reportPath: string) => {
    const loaded = await loadReport(reportPath);
    findings.show(loaded, reportPath);
    compilerTree.show(loaded);
    generatedCode.show(loaded, reportPath);
    openTimelinePanel(context.extensionUri, { kind: 'report', reportPath }, log);
    return loaded;
  };

  const profile = async (target: RunTarget | undefined) => {
    if (!target) return;
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Compile Lens runs your model code, so it only profiles in a trusted workspace. Trace files still open. Use "Manage Workspace Trust" to trust this folder.');
      return;
    }
    const slot = runSlot.take(target.kind === 'sample' ? target.name : `${path.basename(target.file)}${target.kind === 'function' ? `:${target.fn}` : ''}`);
    if (!slot.ok) {
      void vscode.window.showWarningMessage(slot.message);
      return;
    }
    try {
      const resource = target.kind === 'sample' ? vscode.workspace.workspaceFolders?.[0]?.uri : vscode.Uri.file(target.file);
      const config = vscode.workspace.getConfiguration('compileLens', resource);
      const python = await choosePython(resource);
      const problem = interpreterProblem(await probeInterpreter(python));
      if (problem) {
        log.appendLine(problem);
        void vscode.window.showErrorMessage(problem);
        return;
      }
      // reports go under <cwd>/.compile-lens: the workspace, else (no folder open) the extension's own storage
      const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? (target.kind === 'sample' ? context.globalStorageUri.fsPath : path.dirname(target.file));
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(cwd));
      const timeoutSeconds = config.get<number>('timeoutSeconds') ?? 900;
      const options: ProfileOptions = {
        target,
        device: config.get<'auto' | 'cpu' | 'cuda'>('device') ?? 'auto',
        modes: config.get<string[]>('modes') ?? ['default'],
        dynamic: config.get<'auto' | 'true' | 'false'>('dynamic') ?? 'auto',
        fullgraph: config.get<boolean>('fullgraph') ?? false,
        timeoutSeconds,
        quick: config.get<boolean>('quick') ?? false,
      };
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
      if (!outcome.reportPath) {
        if (outcome.status !== 'cancelled') void vscode.window.showErrorMessage(outcome.message ?? 'The Compile Lens runner failed.', 'Show Output').then((a) => a && log.show());
        else void vscode.window.showInformationMessage(outcome.message ?? 'Cancelled.');
        return;
      }
      const loaded = await showReport(outcome.reportPath);
      log.appendLine(`Report: ${outcome.reportPath}\n${headline(digestReport(loaded.report))}`);
      if (loaded.report.error) void vscode.window.showErrorMessage(`${loaded.report.error.message} ${loaded.report.error.fix}`, 'Show Output').then((a) => a && log.show());
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      log.appendLine(text);
      void vscode.window.showErrorMessage(text);
    } finally {
      slot.release();
    }
  };

  const openTraces = async (uri?: vscode.Uri, uris?: vscode.Uri[]) => {
    let chosen = uris?.length ? uris : uri ? [uri] : undefined;
    chosen ??= await vscode.window.showOpenDialog({ canSelectMany: true, openLabel: 'Open Timeline (pick two to compare)', filters: { 'Chrome traces': ['json', 'gz'] } });
    if (!chosen?.length) return;
    openTimelinePanel(context.extensionUri, { kind: 'traces', tracePaths: chosen.slice(0, 4).map((u) => u.fsPath) }, log);
  };

  registerTimeline(context, log);
  context.subscriptions.push(
    log,
    findings,
    vscode.window.registerTreeDataProvider('compileLens.compiler', compilerTree),
    vscode.languages.registerHoverProvider({ language: 'python' }, findings),
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, findings),
    generatedCode.register(),
    vscode.languages.registerHoverProvider({ language: 'python', scheme: 'file' }, new CompiledLineHover(generatedCode)),
    vscode.commands.registerCommand('compileLens.profile', async () => profile(await pickTarget())),
    vscode.commands.registerCommand(PROFILE_TARGET_COMMAND, (file: string, fn: string) => profile({ kind: 'function', file, fn })),
    vscode.commands.registerCommand('compileLens.profileScript', (uri?: vscode.Uri) => {
      const file = uri?.fsPath ?? vscode.window.activeTextEditor?.document.uri.fsPath;
      return file ? profile({ kind: 'script', file, args: [] }) : undefined;
    }),
    vscode.commands.registerCommand('compileLens.openTrace', openTraces),
    vscode.commands.registerCommand(OPEN_REPORT_COMMAND, async (reportPath?: string) => {
      const chosen = reportPath ?? (await vscode.window.showOpenDialog({ filters: { 'Compile Lens report': ['json'] } }))?.[0]?.fsPath;
      if (chosen) await showReport(chosen).catch((e: Error) => vscode.window.showErrorMessage(e.message));
    }),
    { dispose: () => activeRuns.forEach((c) => c.abort()) },
  );
}

