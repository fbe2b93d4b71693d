// `inspect`: the runner reads compiler logs made elsewhere into a report (node/runner.ts starts it), then each user
// file the logs name is mapped onto the workspace (sourceMap.ts) and the report is saved with the workspace's
// paths, so every reader of it (Problems, hovers, CodeLens, the report panel, the CLI) sees the same places.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mapReport, reportFiles, SourceMapper, type SourceMapRule } from './sourceMap.ts';
import { loadReport, type LoadedReport } from './reportFile.ts';
import { runRunner, type RunnerLaunch } from './runner.ts';
import { workspaceFilesNamed } from './workspaceFiles.ts';

export interface InspectLaunch extends Omit<RunnerLaunch, 'args'> {
  /** logs, folders of them, or folders written by `attach` */
  paths: string[];
  /** report directory (default: the runner's, under <cwd>/.compile-lens/runs) */
  out?: string;
  /** the workspace the logs' files are mapped onto */
  workspace: string;
  rules: SourceMapRule[];
}

export type InspectOutcome =
  { loaded: LoadedReport; reportPath: string } | { loaded: null; message: string; cancelled: boolean };

export function inspectArgs(paths: string[], out?: string): string[] {
  return ['inspect', ...paths.map((p) => path.resolve(p)), ...(out ? ['--out', path.resolve(out)] : [])];
}

/** The runner's report with the workspace's paths; it is rewritten in place (the runner just wrote it). */
export async function mapOntoWorkspace(
  reportPath: string,
  workspace: string,
  rules: SourceMapRule[],
): Promise<LoadedReport> {
  const loaded = await loadReport(reportPath);
  const files = reportFiles(loaded.report);
  const mapper = new SourceMapper(await workspaceFilesNamed(workspace, files), rules);
  const { report, mappings } = mapReport(loaded.report, mapper);
  if (report.logs) report.logs.sourceMap = mappings;
  await writeFile(reportPath, JSON.stringify(report, null, 1));
  return { report, dir: loaded.dir };
}

export async function inspectLogs(launch: InspectLaunch): Promise<InspectOutcome> {
  const { paths, out, workspace, rules, ...runner } = launch;
  const outcome = await runRunner({ ...runner, args: inspectArgs(paths, out) });
  if (!outcome.reportPath) {
    return {
      loaded: null,
      message: outcome.message ?? 'The runner wrote no report.',
      cancelled: outcome.status === 'cancelled',
    };
  }
  return { loaded: await mapOntoWorkspace(outcome.reportPath, workspace, rules), reportPath: outcome.reportPath };
}
