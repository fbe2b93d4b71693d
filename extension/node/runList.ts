// The runs a workspace folder holds: every .compile-lens/runs/*/report.json that reads as a report (a folder being
// written, or from an older schema, is left out rather than failing the list).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { runListEntry, sortRuns, type RunListEntry } from '../present/runList.ts';
import { loadReport } from './reportFile.ts';

export const RUNS_FOLDER = path.join('.compile-lens', 'runs');

/** The runs under `folder`/.compile-lens/runs, newest first, at most `limit`. */
export async function listRuns(folder: string, limit = 50): Promise<RunListEntry[]> {
  const runs = path.join(folder, RUNS_FOLDER);
  let names: string[];
  try {
    names = (await readdir(runs, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names.map(async (name) => {
      const reportPath = path.join(runs, name, 'report.json');
      try {
        return runListEntry((await loadReport(reportPath)).report, reportPath);
      } catch {
        return null;
      }
    }),
  );
  return sortRuns(entries.filter((e): e is RunListEntry => e !== null)).slice(0, limit);
}
