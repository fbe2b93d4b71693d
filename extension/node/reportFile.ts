// Reading report.json from disk with messages that say what is wrong and what to do.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkReport, type Report } from '../shared/report.ts';
import { reportFilePath } from './reportPaths.ts';

export class ReportError extends Error {}

export interface LoadedReport {
  report: Report;
  /** folder holding report.json; trace paths in the report are relative to it */
  dir: string;
}

export async function loadReport(reportPath: string): Promise<LoadedReport> {
  let text: string;
  try {
    text = await readFile(reportPath, 'utf8');
  } catch (error) {
    throw new ReportError(`Cannot read report ${reportPath}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ReportError(`Report ${reportPath} is not valid JSON (${(error as Error).message}). Re-run the profile.`);
  }
  const checked = checkReport(value);
  if (!checked.ok) {
    throw new ReportError(
      `Report ${reportPath} does not match the report schema:\n  ${checked.problems.slice(0, 10).join('\n  ')}`,
    );
  }
  return { report: checked.report, dir: path.dirname(reportPath) };
}

/** The path of a report-relative artifact (trace, log), or null when the report has none; a path that leads out of
 * the report's folder is refused (PathRefused, reportPaths.ts). */
export async function artifactPath(
  loaded: LoadedReport,
  relative: string | null | undefined,
  what: string,
): Promise<string | null> {
  return relative ? reportFilePath(loaded.dir, relative, what) : null;
}
