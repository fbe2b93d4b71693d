// "Show in timeline" on a graph break or recompile: a code action on its Problems entry (and the light bulb on
// its line) and a link in its hover, which open the run's report timeline zoomed to where it happened
// (editor/timelineTargets.ts: the finding's compile ids; the webview finds them among the trace's marks).
import * as vscode from 'vscode';
import { runKey } from '../editor/findingStore.ts';
import { collectFindings, findingMessage } from '../present/findings.ts';
import type { HostToWebview } from '../shared/protocol.ts';
import type { Report } from '../shared/report.ts';
import { placeOf, samePlace } from '../shared/sourcePlace.ts';
import { timelineTarget } from '../editor/timelineTargets.ts';
import { shortLine } from '../present/lensLine.ts';
import type { TimelineTarget } from '../shared/trace/timelineMarks.ts';
import type { LoadedReport } from '../node/reportFile.ts';
import { placeOfDocument } from './notebooks.ts';

export const SHOW_IN_TIMELINE_COMMAND = 'compileLens.showInTimeline';

/** The command's argument (JSON in a hover's command link). */
export interface ShowInTimelineArgs {
  reportPath: string;
  key: string;
  target: TimelineTarget;
}

/** Opens the report's tab (ReportTabs.open) and, once its traces are in, sends `focus`. */
export type OpenReportAt = (key: string, reportPath: string, then: HostToWebview) => void;

/** Whether a report has traces to open (a target's modes, a script's regions). */
function hasTraces(report: Report): boolean {
  return (
    report.modes.some((m) => m.trace) ||
    (report.regions ?? []).some((r) => r.measurements.some((m) => m.status === 'ok' && m.trace))
  );
}

export class ShowInTimeline implements vscode.CodeActionProvider, vscode.HoverProvider, vscode.Disposable {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];
  /** the latest report of each run (target or script) with traces */
  private readonly reports = new Map<string, { report: Report; reportPath: string }>();
  private readonly command: vscode.Disposable;

  constructor(openReportAt: OpenReportAt) {
    this.command = vscode.commands.registerCommand(SHOW_IN_TIMELINE_COMMAND, (args: ShowInTimelineArgs) =>
      openReportAt(args.key, args.reportPath, { type: 'focus', target: args.target }),
    );
  }

  show(loaded: LoadedReport, reportPath: string): void {
    const key = runKey(loaded.report.target);
    if (hasTraces(loaded.report)) this.reports.set(key, { report: loaded.report, reportPath });
    else this.reports.delete(key);
  }

  clear(): void {
    this.reports.clear();
  }

  /** The graph breaks and recompiles on 0-based `line` of the document that a run's timeline can show. */
  private targetsAt(document: vscode.TextDocument, line: number): ShowInTimelineArgs[] {
    const place = placeOfDocument(document);
    if (!place) return [];
    const out: ShowInTimelineArgs[] = [];
    for (const [key, { report, reportPath }] of this.reports) {
      for (const finding of collectFindings(report)) {
        if (finding.line - 1 !== line || !samePlace(placeOf(finding), place)) continue;
        const target = timelineTarget(report, { ...finding, message: findingMessage(finding) });
        // without a compile id the timeline cannot place it: no link that could only say so
        if (target?.compileIds.length) out.push({ reportPath, key, target });
      }
    }
    return out;
  }

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const ours = context.diagnostics.filter((d) => d.source === 'Compile Lens');
    for (const line of new Set([range.start.line, ...ours.map((d) => d.range.start.line)])) {
      const targets = this.targetsAt(document, line);
      for (const args of targets) {
        // short, as the light bulb's menu shows it; the finding named only where the line has several
        const title = `Show this ${args.target.kind === 'graph-break' ? 'graph break' : 'recompile'} in the timeline${targets.length > 1 ? ` (${shortLine(args.target.label)})` : ''}`;
        const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        action.command = { command: SHOW_IN_TIMELINE_COMMAND, title: 'Show in timeline', arguments: [args] };
        action.diagnostics = ours.filter((d) => d.range.start.line === line);
        actions.push(action);
      }
    }
    return actions;
  }

  /** A link under the finding's hover (editorFindings.ts) that only runs this command. */
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const targets = this.targetsAt(document, position.line);
    if (!targets.length) return undefined;
    const markdown = new vscode.MarkdownString();
    markdown.isTrusted = { enabledCommands: [SHOW_IN_TIMELINE_COMMAND] };
    for (const args of targets) {
      const link = `command:${SHOW_IN_TIMELINE_COMMAND}?${encodeURIComponent(JSON.stringify([args]))}`;
      const what = args.target.kind === 'graph-break' ? 'this graph break' : 'this recompile';
      markdown.appendMarkdown(
        `[$(timeline-open) Show ${what} in the timeline](${link} "Open the run's timeline zoomed to where it happened")\n\n`,
      );
    }
    markdown.supportThemeIcons = true;
    return new vscode.Hover(markdown, document.lineAt(position.line).range);
  }

  dispose(): void {
    this.command.dispose();
  }
}
