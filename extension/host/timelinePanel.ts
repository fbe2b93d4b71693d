// Hosts the timeline webview: as a panel (reports, "Open Trace Timeline"), as the custom editor for trace
// files, and restored after a restart. Scanning happens here; the webview only draws.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import * as vscode from 'vscode';
import { ignoreUnknown, type HostToWebview, type TimelineSource, type WebviewToHost } from '../shared/protocol.ts';
import { isTimelineSource, reportMessage, sendTraces, type TimelineContent } from '../node/timelineContent.ts';
import { renderWebviewHtml } from '../editor/webviewHtml.ts';
import { MAX_COMPARE_PANES, MAX_RANK_PANES, resolveTimelineSelection } from '../node/timelineSelection.ts';
import { loadReport, type LoadedReport } from '../node/reportFile.ts';
import { runTabTitle } from '../present/runList.ts';
import { BEFORE_EDIT, collectFindings } from '../present/findings.ts';
import { coveredFiles } from '../editor/findingStore.ts';
import { commonFolder, readTimelineSource } from '../node/timelineSource.ts';
import { OPEN_GENERATED_CODE_COMMAND, type OpenGeneratedCodeArgs } from './generatedCode.ts';
import { EditedLines } from '../shared/movedLines.ts';
import { placeOfDocument, revealLocation } from './notebooks.ts';

export const TIMELINE_VIEW_TYPE = 'compileLens.timeline';
export const TRACE_EDITOR_VIEW_TYPE = 'compileLens.traceViewer';
/** The same viewer for any .json via "Open With…" (not the default there: most JSON files are not traces). */
export const ANY_JSON_EDITOR_VIEW_TYPE = 'compileLens.traceViewerAnyJson';

/** What a panel opens with besides its source: the report when the caller read it already, a message to send last. */
export interface Opening {
  /** a report source's report (read once: the webview gets it first, the traces are read from it) */
  report?: Promise<LoadedReport>;
  /** sent once the traces are in (e.g. "Show in timeline": a finding to show) */
  then?: HostToWebview;
}

/** A report source's report: the caller's, or read now (once for the panel); null for trace files. */
function reportOf(source: TimelineSource, opening: Opening): Promise<LoadedReport> | null {
  if (source.kind !== 'report') return null;
  const report = opening.report ?? loadReport(source.reportPath);
  report.catch(() => {}); // reported when the webview asks for it
  return report;
}

/**
 * Wires one webview to a source: sets the HTML, sends the source when the webview says it is ready, answers its
 * requests. The report and traces are read at once, while the webview starts, and kept while it lives: a webview
 * that is hidden and shown again (it is rebuilt then) gets them without a second read. A report is sent before the
 * traces, so its panel draws while they are read, and each trace as soon as it is read.
 */
function attach(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  source: TimelineSource,
  title: string,
  log: vscode.OutputChannel,
  opening: Opening = {},
): vscode.Disposable {
  const report = reportOf(source, opening);
  const content: Promise<TimelineContent> = readTimelineSource(source, report ?? undefined);
  content.catch(() => {}); // reported when the webview asks for it
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  webview.options = { enableScripts: true, localResourceRoots: [dist] };
  webview.html = renderWebviewHtml({
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
    cspSource: webview.cspSource,
    nonce: randomBytes(16).toString('base64'),
    title,
  });
  let drawn = firstFrame();
  // the user's edits since the panel opened: its links to the lines they moved follow them, as Problems does
  const edited = new EditedLines();
  // an edit of a file the report speaks for: the panel says it is from the run before the edit (reportC N8)
  const beforeEdit: HostToWebview = { type: 'beforeEdit', note: BEFORE_EDIT };
  let reportEdited = false;
  const covered = report?.then(({ report: r }) => coveredFiles(r, collectFindings(r)));
  covered?.catch(() => {}); // reported when the webview asks for the report
  const editing = vscode.workspace.onDidChangeTextDocument((event) => {
    const place = placeOfDocument(event.document);
    const changes = place && edited.add(place, event.contentChanges);
    if (place && changes) void webview.postMessage({ type: 'edited', ...place, changes } satisfies HostToWebview);
    if (place && event.contentChanges.length && !reportEdited)
      void covered?.then((files) => {
        if (reportEdited || !files.has(place.file)) return;
        reportEdited = true;
        void webview.postMessage(beforeEdit);
      });
  });
  const messages = webview.onDidReceiveMessage(async (message: WebviewToHost) => {
    switch (message.type) {
      case 'ready':
        try {
          drawn = firstFrame();
          const read = await content;
          const first = reportMessage(read);
          if (first) await webview.postMessage(first);
          // a panel drawn again (hidden and shown) starts from the report: the edits since, again
          for (const { place, changes } of edited.places())
            await webview.postMessage({ type: 'edited', ...place, changes } satisfies HostToWebview);
          if (reportEdited) await webview.postMessage(beforeEdit);
          // each trace as it is read; each post awaited: a preview is on its way before the full models are built (a small or gzip trace on this thread)
          const frame = drawn;
          await sendTraces(
            read,
            message.view,
            (trace) => webview.postMessage(trace),
            undefined,
            undefined,
            frame.wait,
            webviewAcrossNetwork(),
          );
          // e.g. "Show in timeline": after the models, which it looks in
          if (opening.then) await webview.postMessage(opening.then);
        } catch (error) {
          const text = error instanceof Error ? error.message : String(error);
          log.appendLine(`Timeline: ${text}`);
          await webview.postMessage({ type: 'error', message: text } satisfies HostToWebview);
        }
        break;
      case 'reveal':
        // the location comes from a trace or a report: outside the workspace it is refused, with the reason
        await revealLocation(message.file, message.line, message.cell ?? null).catch(
          (error: Error) => void vscode.window.showErrorMessage(error.message),
        );
        break;
      case 'openGeneratedCode':
        if (source.kind === 'report') {
          const args: OpenGeneratedCodeArgs = {
            reportPath: source.reportPath,
            mode: message.mode,
            compileId: message.compileId,
            codeLine: message.codeLine,
          };
          await vscode.commands.executeCommand(OPEN_GENERATED_CODE_COMMAND, args);
        }
        break;
      case 'error':
        log.appendLine(`Timeline webview: ${message.message}`);
        break;
      case 'drawn':
        drawn.say();
        break;
      default:
        ignoreUnknown(message);
    }
  });
  return vscode.Disposable.from(messages, editing);
}

/** A webview hidden while it opens may never draw: past this, the full traces are read without its first frame. */
const FIRST_FRAME_WAIT_MS = 3000;

/**
 * Whether the webview runs on another machine or in a browser (code-server, a remote window): its messages then
 * cross a network link, slow per byte, and a big trace's rows go deflated.
 */
function webviewAcrossNetwork(): boolean {
  return vscode.env.uiKind === vscode.UIKind.Web || vscode.env.remoteName !== undefined;
}

/** The webview's 'drawn' (say()); wait() resolves once it has come, or FIRST_FRAME_WAIT_MS after it was called. */
function firstFrame(): { wait: () => Promise<void>; say: () => void } {
  let said = false;
  let wake = (): void => {};
  return {
    say: () => {
      said = true;
      wake();
    },
    wait: () =>
      said
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, FIRST_FRAME_WAIT_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
  };
}

/** attach() for a panel's lifetime, or until the panel is attached to another source (`detach`). */
function attachPanel(
  panel: vscode.WebviewPanel,
  extensionUri: vscode.Uri,
  source: TimelineSource,
  log: vscode.OutputChannel,
  opening: Opening = {},
): vscode.Disposable {
  const report = reportOf(source, opening);
  const listener = attach(panel.webview, extensionUri, source, titleOf(source), log, {
    ...opening,
    ...(report ? { report } : {}),
  });
  // a report's tab is named as the Runs view names the run, once its report is read
  let attached = true;
  void report?.then(
    (loaded) => attached && (panel.title = runTabTitle(loaded.report)),
    () => {},
  );
  const disposed = panel.onDidDispose(() => {
    attached = false;
    listener.dispose();
  });
  return {
    dispose: () => {
      attached = false;
      listener.dispose();
      disposed.dispose();
    },
  };
}

function titleOf(source: TimelineSource): string {
  switch (source.kind) {
    case 'report':
      return `Compile Lens: ${path.basename(path.dirname(source.reportPath))}`;
    case 'traces':
      return `Timeline: ${source.tracePaths.map((p) => path.basename(p)).join(' vs ')}`;
    case 'ranks':
      return `Timeline: ${source.tracePaths.length} ranks — ${path.basename(commonFolder(source.tracePaths))}`;
  }
}

function createPanel(
  extensionUri: vscode.Uri,
  source: TimelineSource,
  log: vscode.OutputChannel,
  opening: Opening = {},
): { panel: vscode.WebviewPanel; attached: vscode.Disposable } {
  // preserveFocus: the editor keeps focus, so its CodeLens refresh (cancelled when it blurs) goes through
  const panel = vscode.window.createWebviewPanel(
    TIMELINE_VIEW_TYPE,
    titleOf(source),
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    { enableScripts: true, retainContextWhenHidden: false },
  );
  return { panel, attached: attachPanel(panel, extensionUri, source, log, opening) };
}

export function openTimelinePanel(
  extensionUri: vscode.Uri,
  source: TimelineSource,
  log: vscode.OutputChannel,
): vscode.WebviewPanel {
  return createPanel(extensionUri, source, log).panel;
}

interface ReportTab {
  panel: vscode.WebviewPanel;
  report: Promise<LoadedReport>;
  attached: vscode.Disposable;
}

/**
 * Report tabs, one per target or script (`key`): a new run of it shows in its tab, which keeps its place; the
 * report of the tab that becomes active is told to `onActive` (the Compiler view follows it), as the tab read it.
 */
export class ReportTabs implements vscode.Disposable {
  private readonly tabs = new Map<string, ReportTab>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.OutputChannel,
    private readonly onActive: (loaded: LoadedReport) => void,
  ) {}

  /**
   * Shows the report in the tab of `key` (made when there is none), without taking the focus from the editor:
   * `opening.report` when the caller read it already (else it is read here, once), `opening.then` sent once the
   * traces are in (a finding to show).
   */
  open(key: string, reportPath: string, opening: Opening = {}): vscode.WebviewPanel {
    const source: TimelineSource = { kind: 'report', reportPath };
    const report = reportOf(source, opening)!;
    const tab = this.tabs.get(key);
    if (!tab) {
      const { panel, attached } = createPanel(this.extensionUri, source, this.log, { ...opening, report });
      this.track(key, panel, report, attached);
      return panel;
    }
    tab.attached.dispose();
    tab.attached = attachPanel(tab.panel, this.extensionUri, source, this.log, { ...opening, report });
    tab.report = report;
    tab.panel.reveal(tab.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
    return tab.panel;
  }

  /** A report panel (restored after a restart, or made by open): the tab of its target from now on. */
  track(key: string, panel: vscode.WebviewPanel, report: Promise<LoadedReport>, attached: vscode.Disposable): void {
    const tab: ReportTab = { panel, report, attached };
    this.tabs.set(key, tab);
    panel.onDidChangeViewState(
      (event) =>
        event.webviewPanel.active && void tab.report.then(this.onActive, (e: Error) => this.log.appendLine(e.message)),
    );
    panel.onDidDispose(() => this.tabs.get(key) === tab && this.tabs.delete(key));
  }

  dispose(): void {
    this.tabs.clear();
  }
}

/**
 * "Open Trace Timeline": the explorer's selection (files, or a folder of rank traces), else what the user picks:
 * trace files, or a folder (the platform's dialogs cannot offer both at once on Windows and Linux).
 */
export async function openTraceTimeline(
  extensionUri: vscode.Uri,
  log: vscode.OutputChannel,
  uri?: vscode.Uri,
  uris?: vscode.Uri[],
): Promise<void> {
  let chosen = uris?.length ? uris : uri ? [uri] : undefined;
  if (!chosen) {
    const files = {
      label: '$(file) Trace files…',
      detail: `One trace, two to ${MAX_COMPARE_PANES} to compare, or a distributed job's rank traces (up to ${MAX_RANK_PANES})`,
    };
    const folder = {
      label: '$(folder) A folder of rank traces…',
      detail: "Each rank's torch.profiler trace (distributedInfo, or rank<N> in the name), on one time axis",
    };
    const pick = await vscode.window.showQuickPick([files, folder], { placeHolder: 'Open a trace timeline from' });
    if (!pick) return;
    chosen = await vscode.window.showOpenDialog(
      pick === folder
        ? { canSelectFiles: false, canSelectFolders: true, openLabel: 'Open Rank Traces' }
        : { canSelectMany: true, openLabel: 'Open Timeline', filters: { 'Chrome traces': ['json', 'gz'] } },
    );
  }
  if (!chosen?.length) return;
  try {
    const { source, notes } = await resolveTimelineSelection(chosen.map((u) => u.fsPath));
    for (const note of notes) log.appendLine(`Timeline: ${note}`);
    const [firstNote] = notes;
    if (firstNote !== undefined)
      void vscode.window.showWarningMessage(
        notes.length === 1 ? firstNote : `${firstNote} (${notes.length - 1} more in the Compile Lens output)`,
      );
    openTimelinePanel(extensionUri, source, log);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    log.appendLine(`Timeline: ${text}`);
    void vscode.window.showErrorMessage(text);
  }
}

class TraceDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {
    // nothing held: the panel owns what it reads
  }
}

/** restored: a report panel brought back after a restart (its report read once, for both), for its ReportTabs. */
export function registerTimeline(
  context: vscode.ExtensionContext,
  log: vscode.OutputChannel,
  restored: (panel: vscode.WebviewPanel, report: Promise<LoadedReport>, attached: vscode.Disposable) => void,
): void {
  const extensionUri = context.extensionUri;
  const traceEditor: vscode.CustomReadonlyEditorProvider<TraceDocument> = {
    openCustomDocument: (uri) => new TraceDocument(uri),
    resolveCustomEditor(document, panel) {
      attachPanel(panel, extensionUri, { kind: 'traces', tracePaths: [document.uri.fsPath] }, log);
    },
  };
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
      deserializeWebviewPanel(panel, state: unknown) {
        const source = (state as { source?: unknown } | null)?.source;
        if (!isTimelineSource(source)) {
          panel.dispose();
          return Promise.resolve();
        }
        const report = reportOf(source, {});
        const attached = attachPanel(panel, extensionUri, source, log, report ? { report } : {});
        if (report) restored(panel, report, attached);
        return Promise.resolve();
      },
    }),
    ...[TRACE_EDITOR_VIEW_TYPE, ANY_JSON_EDITOR_VIEW_TYPE].map((viewType) =>
      vscode.window.registerCustomEditorProvider(viewType, traceEditor, { supportsMultipleEditorsPerDocument: true }),
    ),
  );
}
