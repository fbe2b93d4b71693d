// The findings where the code is, kept per file across runs (editor/findingStore.ts): Problems entries, hovers
// (the finding first, then what the line was compiled into), and CodeLens above compile targets and torch.compile
// lines (a script's regions), in Python files and in notebook cells.
import * as vscode from 'vscode';
import { findCompileSites, findCompileSitesInCells } from '../editor/compileSites.ts';
import { FindingStore } from '../editor/findingStore.ts';
import { regionAfterEdit } from '../editor/followEdits.ts';
import { BEFORE_EDIT, BEFORE_EDIT_LENS, findingHover, findingMessage, type Finding } from '../present/findings.ts';
import { digestRegion, regionLine, type RegionDigest } from '../present/regionDigest.ts';
import { runHeadline } from '../present/headline.ts';
import { cellLineLabel, placeOf, samePlace, type SourcePlace } from '../shared/sourcePlace.ts';
import { findTargetFunctions } from '../editor/targets.ts';
import { LENS_CHARACTERS, lensTitle, shortLine, targetLenses } from '../present/lensLine.ts';
import type { LoadedReport } from '../node/reportFile.ts';
import { cellLocation, notebookCellTexts, placeOfDocument } from './notebooks.ts';

export const PROFILE_TARGET_COMMAND = 'compileLens.profileTarget';
export const PROFILE_SCRIPT_COMMAND = 'compileLens.profileScript';
export const OPEN_REPORT_COMMAND = 'compileLens.openReport';
export const CLEAR_FINDINGS_COMMAND = 'compileLens.clearFindings';
/** Profiles a script again with its shape fixes measured (--shape-fix on), where the budget left them out. */
export const MEASURE_SHAPE_FIX_COMMAND = 'compileLens.measureShapeFix';

/** What a hover adds under the findings of a line (the kernels it was compiled into). */
export type LineHoverPart = (
  document: vscode.TextDocument,
  position: vscode.Position,
) => vscode.MarkdownString | undefined;

function toDiagnostic(finding: Finding, line: number): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
    // a notebook cell's document shows as the notebook in Problems: the message names the cell
    finding.cell === null
      ? findingMessage(finding)
      : `${findingMessage(finding)} (${cellLineLabel({ cell: finding.cell, line: finding.line })})`,
    finding.kind === 'recompile' || finding.kind === 'perf-hint'
      ? vscode.DiagnosticSeverity.Information
      : vscode.DiagnosticSeverity.Warning,
  );
  // no code: Problems showed ours bare ("Compile Lens(GB0124)", "(recompile)"); the hover links PyTorch's, labelled
  diagnostic.source = 'Compile Lens';
  return diagnostic;
}

interface RegionResult {
  region: RegionDigest;
  place: SourcePlace;
  reportPath: string;
  script: string;
  /** the user edited the script or the region's file since its run (BEFORE_EDIT) */
  beforeEdit: boolean;
}

/** Holds the findings per file, the latest report per target and per script, and shows them in every editor surface. */
export class EditorFindings implements vscode.HoverProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('compile-lens');
  private readonly store = new FindingStore();
  private findings: Finding[] = [];
  /** latest report per target function, keyed "file\0function" */
  private readonly reportsByTarget = new Map<string, LoadedReport & { reportPath: string; beforeEdit: boolean }>();
  /** latest script run's regions, keyed by the script (a region's torch.compile line may be in another file) */
  private readonly regionsByScript = new Map<string, RegionResult[]>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  // a notebook opened after the run: its cells' findings can be placed now
  private readonly notebookOpened = vscode.workspace.onDidOpenNotebookDocument(() => {
    this.placeDiagnostics();
    this.lensesChanged.fire();
  });

  // an edit moves the lines below it: findings and region lenses follow their lines, and their words the lines they
  // name, until the next profile
  private readonly edited = vscode.workspace.onDidChangeTextDocument((event) => {
    const place = placeOfDocument(event.document);
    if (!place || !event.contentChanges.length) return;
    this.moveLines(place, event.contentChanges);
  });

  constructor(private readonly lineHover: LineHoverPart = () => undefined) {}

  private moveLines(place: SourcePlace, changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
    // every run of the edited file is from before the edit (reportC N8), whether or not a line moved
    let moved = this.store.edited(place.file);
    for (const [key, last] of this.reportsByTarget)
      if (!last.beforeEdit && last.report.target.file === place.file) {
        this.reportsByTarget.set(key, { ...last, beforeEdit: true });
        moved = true;
      }
    moved = this.store.moveLines(place, changes) || moved;
    for (const [script, results] of this.regionsByScript) {
      const edited = script === place.file || results.some((r) => r.place.file === place.file);
      this.regionsByScript.set(
        script,
        results.map((r) => {
          const region = regionAfterEdit(r.region, r.place, place, changes);
          if (region === r.region && (r.beforeEdit || !edited)) return r;
          moved = true;
          return { ...r, region, beforeEdit: r.beforeEdit || edited };
        }),
      );
    }
    if (!moved) return;
    this.findings = this.store.all();
    this.placeDiagnostics();
    this.lensesChanged.fire();
  }

  show(loaded: LoadedReport, reportPath: string): void {
    const target = loaded.report.target;
    if (target.file && target.function)
      this.reportsByTarget.set(`${target.file}\0${target.function}`, { ...loaded, reportPath, beforeEdit: false });
    if (target.kind === 'script' && target.file) {
      const regions = (loaded.report.regions ?? [])
        .filter((r) => r.location)
        .map((r) => ({
          region: digestRegion(r),
          place: placeOf(r.location!),
          reportPath,
          script: target.file!,
          beforeEdit: false,
        }));
      this.regionsByScript.set(target.file, regions);
    }
    this.store.add(loaded.report);
    this.findings = this.store.all();
    this.placeDiagnostics();
    this.lensesChanged.fire();
  }

  /** "Clear Findings": every Problems entry, hover and result lens of every run. */
  clear(): void {
    this.store.clear();
    this.findings = [];
    this.reportsByTarget.clear();
    this.regionsByScript.clear();
    this.placeDiagnostics();
    this.lensesChanged.fire();
  }

  /** Problems entries: on the file's line, or on the notebook cell's line while that notebook is open. */
  private placeDiagnostics(): void {
    this.diagnostics.clear();
    const byUri = new Map<string, { uri: vscode.Uri; list: vscode.Diagnostic[] }>();
    for (const finding of this.findings) {
      const at =
        finding.cell === null
          ? { uri: vscode.Uri.file(finding.file), line: Math.max(0, finding.line - 1) }
          : cellLocation(finding.file, finding.cell, finding.line);
      if (!at) continue;
      const entry = byUri.get(at.uri.toString()) ?? { uri: at.uri, list: [] };
      entry.list.push(toDiagnostic(finding, at.line));
      byUri.set(at.uri.toString(), entry);
    }
    for (const { uri, list } of byUri.values()) this.diagnostics.set(uri, list);
  }

  /** The findings on a document's 0-based line (a file's, or a notebook cell's). */
  findingsAt(document: vscode.TextDocument, line: number): Finding[] {
    const place = placeOfDocument(document);
    return place ? this.findings.filter((f) => samePlace(placeOf(f), place) && f.line - 1 === line) : [];
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (!placeOfDocument(document)) return undefined;
    const here = this.findingsAt(document, position.line);
    const parts: vscode.MarkdownString[] = [];
    if (here.length) {
      const markdown = new vscode.MarkdownString(here.map(findingHover).join('\n\n---\n\n'));
      markdown.isTrusted = false; // report text is data: no command links
      parts.push(markdown);
    }
    const compiled = this.lineHover(document, position);
    if (compiled) parts.push(compiled);
    return parts.length ? new vscode.Hover(parts, document.lineAt(position.line).range) : undefined;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const place = placeOfDocument(document);
    if (!place) return [];
    const lenses: vscode.CodeLens[] = [];
    if (place.cell === null) {
      for (const target of findTargetFunctions(document.getText())) {
        const range = new vscode.Range(target.line, 0, target.line, 0);
        const profile = { command: PROFILE_TARGET_COMMAND, arguments: [document.uri.fsPath, target.name] };
        const last = this.reportsByTarget.get(`${document.uri.fsPath}\0${target.name}`);
        for (const lens of targetLenses(last)) {
          if (lens === 'profile') lenses.push(new vscode.CodeLens(range, { title: '▶ Compile & Profile', ...profile }));
          else if (lens === 'before-edit')
            lenses.push(new vscode.CodeLens(range, { title: BEFORE_EDIT_LENS, tooltip: BEFORE_EDIT, ...profile }));
          else if (last) {
            const full = runHeadline(last.report);
            lenses.push(
              new vscode.CodeLens(range, {
                title: lensTitle(full, last.report.answer?.number?.text),
                tooltip: full,
                command: OPEN_REPORT_COMMAND,
                arguments: [last.reportPath],
              }),
            );
          }
        }
      }
    }
    for (const results of this.regionsByScript.values()) {
      for (const { region, place: at, reportPath, script, beforeEdit } of results) {
        const line = (region.line ?? 0) - 1;
        if (!samePlace(at, place) || line < 0 || line >= document.lineCount) continue;
        const range = new vscode.Range(line, 0, line, 0);
        // on its own torch.compile line the answer needs no region name: short, the answer first; the whole line, named, in the tooltip
        // a run older than the user's edit says so first: its answer is the run's before the edit
        if (beforeEdit)
          lenses.push(
            new vscode.CodeLens(range, {
              title: BEFORE_EDIT_LENS,
              tooltip: BEFORE_EDIT,
              command: PROFILE_SCRIPT_COMMAND,
              arguments: [vscode.Uri.file(script)],
            }),
          );
        lenses.push(
          new vscode.CodeLens(range, {
            title: lensTitle(region.headline, region.number),
            tooltip: regionLine(region),
            command: OPEN_REPORT_COMMAND,
            arguments: [reportPath],
          }),
        );
        // the shape fixes the profile's budget left out: one click measures them (the runner's title, with the cost, in
        // the tooltip where the lens's width cuts it)
        if (region.measureShapeFix)
          lenses.push(
            new vscode.CodeLens(range, {
              title: shortLine(region.measureShapeFix, LENS_CHARACTERS),
              tooltip: region.measureShapeFix,
              command: MEASURE_SHAPE_FIX_COMMAND,
              arguments: [script],
            }),
          );
      }
    }
    // after the answers on its line: an editor too narrow for the line cuts the action, which the command palette
    // (and a notebook's toolbar) also offer, not the answer (report3C L6: "▶ Compile & Profile Script | no verdict: 0.45")
    const firstSite = this.firstCompileLine(document, place);
    if (firstSite !== null) {
      const range = new vscode.Range(firstSite, 0, firstSite, 0);
      lenses.push(
        new vscode.CodeLens(range, {
          title: '▶ Compile & Profile Script',
          command: PROFILE_SCRIPT_COMMAND,
          arguments: [vscode.Uri.file(place.file)],
        }),
      );
    }
    return lenses;
  }

  /** The 0-based line of the first torch.compile of the file (or notebook: if it is in this cell), else null. */
  private firstCompileLine(document: vscode.TextDocument, place: SourcePlace): number | null {
    if (place.cell === null) return findCompileSites(document.getText())[0]?.line ?? null;
    const notebook = vscode.workspace.notebookDocuments.find((n) => n.uri.fsPath === place.file);
    const first = notebook ? findCompileSitesInCells(notebookCellTexts(notebook))[0] : undefined;
    return first?.cell === place.cell ? first.line : null;
  }

  dispose(): void {
    this.diagnostics.dispose();
    this.lensesChanged.dispose();
    this.notebookOpened.dispose();
    this.edited.dispose();
  }
}
