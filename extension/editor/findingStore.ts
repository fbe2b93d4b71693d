// The findings the editor shows, kept per file across runs: each run covers the files it profiled (its target or
// script) and the files its findings and regions are in; a file shows the findings of the latest run that covered
// it. Profiling another file never clears a file's findings; only a newer run of that file, or "Clear Findings".
// Pure, so the rule is tested without VS Code.
import { collectFindings, type Finding } from '../present/findings.ts';
import type { Report } from '../shared/report.ts';
import type { SourcePlace } from '../shared/sourcePlace.ts';
import type { TextChange } from '../shared/movedLines.ts';
import { findingAfterEdit } from './followEdits.ts';

/** What a report was a run of: a target function, a script (or notebook), or a sample. */
export function runKey(target: Report['target']): string {
  if (target.kind === 'script') return `script\0${target.file ?? target.name}`;
  if (target.kind === 'function') return `function\0${target.file ?? ''}\0${target.function ?? target.name}`;
  return `sample\0${target.name}`;
}

/** The files a report speaks for: its target's file, and every file a finding or a region of it names. */
export function coveredFiles(report: Report, findings: readonly Finding[]): Set<string> {
  const files = new Set<string>(findings.map((f) => f.file));
  if (report.target.file) files.add(report.target.file);
  for (const region of report.regions ?? []) if (region.location) files.add(region.location.file);
  return files;
}

interface StoredRun {
  findings: Finding[];
  files: Set<string>;
  /** order of arrival: the larger, the newer */
  seq: number;
  /** the user edited a file it covers since (its findings say BEFORE_EDIT) */
  beforeEdit: boolean;
}

export class FindingStore {
  private readonly runs = new Map<string, StoredRun>();
  private seq = 0;

  /** Keeps `report`'s findings; a run of the same target or script replaces its earlier one. */
  add(report: Report): void {
    const findings = collectFindings(report);
    this.runs.set(runKey(report.target), {
      findings,
      files: coveredFiles(report, findings),
      seq: ++this.seq,
      beforeEdit: false,
    });
  }

  clear(): void {
    this.runs.clear();
  }

  /** The user edited `place`: its findings follow their lines, and every finding's words the lines they name
   *  (followEdits.ts), until a newer run of it. Whether any moved. */
  moveLines(place: SourcePlace, changes: readonly TextChange[]): boolean {
    let moved = false;
    for (const run of this.runs.values()) {
      run.findings = run.findings.map((f) => {
        const after = findingAfterEdit(f, place, changes);
        if (after !== f) moved = true;
        return after;
      });
    }
    return moved;
  }

  /** The user edited `file`: every run that covers it is from before the edit, until a newer run of it. Whether one
   *  became so. */
  edited(file: string): boolean {
    let marked = false;
    for (const run of this.runs.values()) {
      if (run.beforeEdit || !run.files.has(file)) continue;
      run.beforeEdit = marked = true;
    }
    return marked;
  }

  /** Every finding shown now: per file, those of the latest run that covered the file. */
  all(): Finding[] {
    const owner = new Map<string, StoredRun>();
    for (const run of this.runs.values()) {
      for (const file of run.files) {
        const current = owner.get(file);
        if (!current || current.seq < run.seq) owner.set(file, run);
      }
    }
    return [...this.runs.values()].flatMap((run) =>
      run.findings
        .filter((f) => owner.get(f.file) === run)
        .map((f): Finding => (run.beforeEdit ? { ...f, beforeEdit: true } : f)),
    );
  }
}
