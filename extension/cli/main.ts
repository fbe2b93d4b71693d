// `compile-lens`: the command-line face of the extension. Same shared, present and node modules, same runner, same
// report.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs as parseArgsOf, type ParseArgsConfig } from 'node:util';
import { collectFindings, findingMessage } from '../present/findings.ts';
import { digestDivergence, digestRank, divergenceLine, failingDivergence } from '../present/rankDigest.ts';
import { digestRegion, formatScriptDigest } from '../present/regionDigest.ts';
import { digestLogs, formatLogNotes, formatLogsDigest } from '../present/logsDigest.ts';
import { digestFinding, digestReport, formatDigest } from '../present/reportDigest.ts';
import { runHeadline } from '../present/headline.ts';
import type { Report } from '../shared/report.ts';
import { inapplicableFlags, profileArgs, type ProfileOptions, type RunTarget } from '../shared/runnerProtocol.ts';
import { parseSourceMapRule, type SourceMapRule } from '../node/sourceMap.ts';
import { placeLabel } from '../shared/sourcePlace.ts';
import { summarizeTrace } from '../shared/trace/summary.ts';
import { formatTraceSummary } from '../present/traceSummaryText.ts';
import { inspectLogs } from '../node/inspectLogs.ts';
import { loadReport, ReportError, type LoadedReport } from '../node/reportFile.ts';
import { runRunner } from '../node/runner.ts';
import { scanTraceFile } from '../node/trace/scanner.ts';

const USAGE = `Usage:
  compile-lens profile (--sample NAME | --target FILE:FN | --script FILE [--nproc-per-node N] [-- ARGS...]) [options] [--json]
  compile-lens check   (--sample NAME | --target FILE:FN | --script FILE [--nproc-per-node N] [-- ARGS...]) --max-graph-breaks N --max-recompiles M [options] [--json]
  compile-lens check   --logs PATH... --max-graph-breaks N --max-recompiles M [--source-map FROM=TO]... [--json]
  compile-lens inspect PATH... [--source-map FROM=TO]... [--out DIR] [--json]
  compile-lens summarize (TRACE.json[.gz] | REPORT_DIR | report.json) [--json]

inspect reads compiler logs made anywhere (TORCH_TRACE=DIR python train.py, any launcher, any host): a log
(.log, .log.gz), the folder TORCH_TRACE wrote (one log per rank), or a folder written by
\`python -m compile_lens_runner attach --out DIR SCRIPT\`. Nothing is run; torch is not needed. Each file the logs
name is mapped onto the working directory's copy by the longest matching path suffix, or by --source-map
FROM=TO (a path prefix on the machine that wrote the log = where it is here); a file with no copy or two equally
good ones is said, never guessed. check --logs applies check's limits to such logs (CI on existing jobs).

Options for profile and check:
  --device auto|cpu|cuda     where to run (default auto: cuda when available)
  --out DIR                  report directory (default .compile-lens/runs/<target>-<time>)
  --modes LIST               comma-separated: default,reduce-overhead,max-autotune,max-autotune-no-cudagraphs
  --dynamic auto|true|false  torch.compile's dynamic= (default auto; not with --script)
  --fullgraph                compile with fullgraph=True (not with --script)
  --backend NAME             torch.compile backend (default inductor; not with --script)
  --train                    time a training step (forward, backward, optimizer) instead of inference (not with --script)
  --rounds N                 timing rounds per side (default 7; --quick 3)
  --timeout SECONDS          stop the run after this long
  --quick                    fewer timing rounds (tests, CI)
  --calls N                  --script: stop the script after a region's Nth call, then measure (servers, long loops)
  --no-in-situ               --script: no in-situ measurement (the script's own calls run in blocks, alternately compiled and eager)
  --shape-fix auto|on|off    --script: measure a shape finding's fixes (mark_dynamic, dynamic=True, buckets, a warm-up
                             at the real shape), the script once more per fix (auto: the first, within 2.5x the
                             script's own time; on: every fix)
  --nproc-per-node N         --script: run it under torchrun with N processes (DDP, FSDP): every rank's compiles,
                             breaks and recompiles, their traces, and where the ranks diverged (check fails on it)
  --python PATH              interpreter with torch (default $COMPILE_LENS_PYTHON or python3; inspect needs no torch)
  --verbose                  also print the model's and the compiler's own output (stderr)

Exit codes: 0 success; 1 run failed (profile) or limits exceeded (check); 2 usage error;
            3 run failed (check); 130 cancelled.`;

export const EXIT = { ok: 0, failed: 1, usage: 2, checkRunFailed: 3, cancelled: 130 } as const;

class UsageError extends Error {}

/** Every flag of profile, check and summarize; util.parseArgs tokenizes, parseArgs() below words the errors. */
const OPTIONS = {
  sample: { type: 'string' },
  target: { type: 'string' },
  script: { type: 'string' },
  device: { type: 'string' },
  out: { type: 'string' },
  modes: { type: 'string' },
  dynamic: { type: 'string' },
  backend: { type: 'string' },
  rounds: { type: 'string' },
  timeout: { type: 'string' },
  python: { type: 'string' },
  calls: { type: 'string' },
  'nproc-per-node': { type: 'string' },
  'max-graph-breaks': { type: 'string' },
  'max-recompiles': { type: 'string' },
  'source-map': { type: 'string', multiple: true },
  logs: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  fullgraph: { type: 'boolean' },
  train: { type: 'boolean' },
  quick: { type: 'boolean' },
  'no-in-situ': { type: 'boolean' },
  'shape-fix': { type: 'string' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type OptionName = keyof typeof OPTIONS;
type StringOption = { [K in OptionName]: (typeof OPTIONS)[K]['type'] extends 'string' ? K : never }[OptionName];
type BooleanOption = Exclude<OptionName, StringOption>;

export interface ParsedArgs {
  command: string;
  positional: string[];
  values: Partial<Record<StringOption, string>> & Partial<Record<BooleanOption, boolean>>;
  /** everything after a bare `--`: the user's script arguments */
  passthrough: string[];
  /** every value of an option that may repeat (--source-map, --logs), in order */
  repeated: Partial<Record<StringOption, string[]>>;
}

const isOption = (name: string): name is OptionName => Object.hasOwn(OPTIONS, name);

export function parseArgs(argv: string[]): ParsedArgs {
  const [first = '', ...rest] = argv;
  // `compile-lens --help` / `-h` before any command asks for the usage, as `compile-lens help` does
  const command = first === '--help' || first === '-h' ? 'help' : first;
  // strict: false so that the checks below, not parseArgs' own wording, say what is wrong (stable messages)
  const { tokens } = parseArgsOf({ args: rest, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const parsed: ParsedArgs = { command, positional: [], values: {}, passthrough: [], repeated: {} };
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      parsed.passthrough = rest.slice(token.index + 1);
      break;
    }
    if (token.kind === 'positional') {
      parsed.positional.push(token.value);
      continue;
    }
    if (!isOption(token.name)) throw new UsageError(`unknown option ${token.rawName}`);
    if (OPTIONS[token.name].type === 'string') {
      if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
      (parsed.values as Record<string, string>)[token.name] = token.value;
      const all = parsed.repeated as Record<string, string[]>;
      all[token.name] = [...(all[token.name] ?? []), token.value];
    } else {
      if (token.inlineValue) throw new UsageError(`${token.rawName} takes no value`);
      (parsed.values as Record<string, boolean>)[token.name] = true;
    }
  }
  return parsed;
}

function integerFlag(args: ParsedArgs, name: StringOption): number | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}

function oneOf<T extends string>(args: ParsedArgs, name: StringOption, allowed: readonly T[]): T | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** FILE:FN, where FILE may itself contain ':' (Windows drives): split at the last one. */
export function parseTargetSpec(spec: string): { file: string; fn: string } {
  const at = spec.lastIndexOf(':');
  if (at <= 0 || at === spec.length - 1)
    throw new UsageError(`--target must look like path/to/file.py:function_name, got "${spec}"`);
  return { file: path.resolve(spec.slice(0, at)), fn: spec.slice(at + 1) };
}

function targetFrom(args: ParsedArgs): RunTarget {
  const { sample, target, script } = args.values;
  const given = [sample, target, script].filter((v) => v !== undefined).length;
  if (given !== 1) throw new UsageError('give exactly one of --sample NAME, --target FILE:FN, --script FILE');
  if (sample !== undefined) return { kind: 'sample', name: sample };
  if (target !== undefined) return { kind: 'function', ...parseTargetSpec(target) };
  return { kind: 'script', file: path.resolve(script!), args: args.passthrough };
}

function profileOptionsFrom(args: ParsedArgs): ProfileOptions {
  const options: ProfileOptions = { target: targetFrom(args) };
  const { out, modes, backend, fullgraph, train, quick } = args.values;
  const device = oneOf(args, 'device', ['auto', 'cpu', 'cuda'] as const);
  if (device) options.device = device;
  if (out) options.out = path.resolve(out);
  if (modes)
    options.modes = modes
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
  const dynamic = oneOf(args, 'dynamic', ['auto', 'true', 'false'] as const);
  if (dynamic) options.dynamic = dynamic;
  if (fullgraph) options.fullgraph = true;
  if (backend) options.backend = backend;
  if (train) options.train = true;
  const rounds = integerFlag(args, 'rounds');
  if (rounds) options.rounds = rounds;
  const timeout = integerFlag(args, 'timeout');
  if (timeout) options.timeoutSeconds = timeout;
  if (quick) options.quick = true;
  if (args.values['no-in-situ']) {
    if (options.target.kind !== 'script') throw new UsageError('--no-in-situ applies to --script only');
    options.inSitu = false;
  }
  const shapeFix = args.values['shape-fix'];
  if (shapeFix !== undefined) {
    if (options.target.kind !== 'script') throw new UsageError('--shape-fix applies to --script only');
    if (shapeFix !== 'on' && shapeFix !== 'off' && shapeFix !== 'auto')
      throw new UsageError('--shape-fix must be auto, on or off');
    if (shapeFix !== 'auto') options.shapeFix = shapeFix;
  }
  const calls = integerFlag(args, 'calls');
  if (calls !== undefined) {
    if (options.target.kind !== 'script') throw new UsageError('--calls applies to --script only');
    if (calls < 1) throw new UsageError('--calls must be at least 1');
    options.calls = calls;
  }
  const nproc = integerFlag(args, 'nproc-per-node');
  if (nproc !== undefined) {
    if (nproc < 1) throw new UsageError('--nproc-per-node must be at least 1');
    if (nproc > 1 && options.target.kind !== 'script')
      throw new UsageError('--nproc-per-node applies to --script only');
    if (nproc > 1) options.nprocPerNode = nproc;
  }
  const inapplicable = inapplicableFlags(options);
  if (inapplicable.length) {
    throw new UsageError(
      `${inapplicable.join(', ')} ${inapplicable.length === 1 ? 'does' : 'do'} not apply to --script: the script's own torch.compile calls choose how each region is compiled (and its code whether it trains); remove ${inapplicable.length === 1 ? 'it' : 'them'}, or use --modes for what-if modes`,
    );
  }
  return options;
}

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  signal?: AbortSignal;
}

/** native-runner/ beside dist/ (this file bundled as dist/cli.js), or at the repository root when run from sources. */
const RUNNER_DIR = path.resolve(__dirname, /\.[cm]?ts$/.test(__filename) ? '../..' : '..', 'native-runner');

type RunOutcome = { loaded: LoadedReport; exitCode: number } | { loaded: null; exitCode: number };

async function runProfile(args: ParsedArgs, options: ProfileOptions, io: CliIo): Promise<RunOutcome> {
  const outcome = await runRunner({
    python: args.values.python ?? process.env['COMPILE_LENS_PYTHON'] ?? 'python3',
    runnerDir: RUNNER_DIR,
    cwd: process.cwd(),
    args: profileArgs(options),
    ...(options.timeoutSeconds ? { killAfterMs: (options.timeoutSeconds + 30) * 1000 } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
    onProgress: (p) =>
      io.err(
        `[${Math.round(p.fraction * 100)
          .toString()
          .padStart(3)}%] ${p.phase}: ${p.message}`,
      ),
    // the user's and the compiler's own output; a crash's last lines reach the user through outcome.message anyway
    ...(args.values.verbose ? { onLog: (line: string) => io.err(`  ${line}`) } : {}),
  });
  if (!outcome.reportPath) {
    io.err(outcome.message ?? 'The runner wrote no report.');
    return { loaded: null, exitCode: outcome.status === 'cancelled' ? EXIT.cancelled : EXIT.failed };
  }
  const loaded = await loadReport(outcome.reportPath);
  const exitCode =
    outcome.status === 'cancelled'
      ? EXIT.cancelled
      : outcome.status === 'ok' || outcome.status === 'partial'
        ? EXIT.ok
        : EXIT.failed;
  if (outcome.message) io.err(outcome.message);
  return { loaded, exitCode };
}

async function profileCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const { loaded, exitCode } = await runProfile(args, profileOptionsFrom(args), io);
  if (!loaded) return exitCode;
  printReport(loaded, args, io);
  return exitCode;
}

/** `profile`'s text for a report (`summarize` prints the same for a report read again). */
export const reportText = (report: Report): string =>
  report.target.kind === 'script' ? formatScriptDigest(report) : formatDigest(digestReport(report));

/** `profile --json`: the digests, with the headline the Runs view and the CodeLens show, word for word. */
export function reportJson(report: Report): Record<string, unknown> {
  const regions =
    report.target.kind === 'script'
      ? { regions: (report.regions ?? []).map(digestRegion), inSitu: report.inSitu ?? null }
      : {};
  const ranks = report.ranks?.length
    ? { ranks: report.ranks.map(digestRank), divergence: (report.divergence ?? []).map(digestDivergence) }
    : {};
  return { headline: runHeadline(report), ...digestReport(report), ...regions, ...ranks };
}

function printReport(loaded: LoadedReport, args: ParsedArgs, io: CliIo): void {
  const reportPath = path.join(loaded.dir, 'report.json');
  if (args.values.json) io.out(JSON.stringify({ reportPath, ...reportJson(loaded.report) }, null, 2));
  else io.out(`${reportText(loaded.report)}\n  report: ${reportPath}`);
}

async function checkCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const maxBreaks = integerFlag(args, 'max-graph-breaks');
  const maxRecompiles = integerFlag(args, 'max-recompiles');
  if (maxBreaks === undefined && maxRecompiles === undefined)
    throw new UsageError('check needs --max-graph-breaks N and/or --max-recompiles M');
  let loaded: LoadedReport;
  if (args.repeated.logs) {
    // CI on jobs that already run with TORCH_TRACE: the limits apply to their logs, nothing is run
    const read = await readLogs(args, [...args.repeated.logs, ...args.positional], io);
    if (!read.loaded) return read.exitCode === EXIT.cancelled ? read.exitCode : EXIT.checkRunFailed;
    loaded = read.loaded;
  } else {
    const options = profileOptionsFrom(args);
    options.quick ??= true; // check counts breaks and recompiles; precise timing is not its job
    const run = await runProfile(args, options, io);
    if (!run.loaded) return run.exitCode === EXIT.cancelled ? run.exitCode : EXIT.checkRunFailed;
    loaded = run.loaded;
  }
  if (loaded.report.status === 'error') {
    io.err(
      `check: the ${args.repeated.logs ? 'logs could not be read' : 'run failed'}: ${loaded.report.error?.message ?? 'unknown error'}`,
    );
    return EXIT.checkRunFailed;
  }
  // divergences are listed on their own (with those that have no source line), not among the findings
  const findings = collectFindings(loaded.report).filter((f) => f.kind !== 'divergence');
  const breaks = findings.filter((f) => f.kind === 'graph-break');
  // a recompile site counts each of its recompiles (schema 1.4 groups them into one finding)
  const recompiles = findings.filter((f) => f.kind === 'recompile').reduce((n, f) => n + f.count, 0);
  const ranked = Boolean(loaded.report.ranks?.length);
  const diverged = failingDivergence(loaded.report);
  const over: string[] = [];
  if (maxBreaks !== undefined && breaks.length > maxBreaks)
    over.push(`${breaks.length} graph breaks (allowed ${maxBreaks})`);
  if (maxRecompiles !== undefined && recompiles > maxRecompiles)
    over.push(`${recompiles} recompiles (allowed ${maxRecompiles})`);
  if (diverged.length)
    over.push(`the ranks diverged (${diverged.length === 1 ? '1 divergence' : `${diverged.length} divergences`})`);
  if (args.values.json) {
    io.out(
      JSON.stringify(
        {
          passed: over.length === 0,
          graphBreaks: breaks.length,
          recompiles,
          findings: findings.map(digestFinding),
          ...(ranked ? { divergence: (loaded.report.divergence ?? []).map(digestDivergence) } : {}),
        },
        null,
        2,
      ),
    );
  } else {
    for (const f of findings) io.out(`${placeLabel(f, true)}  ${findingMessage(f)}`);
    for (const d of (loaded.report.divergence ?? []).map(digestDivergence)) io.out(divergenceLine(d, true));
    const ranks = ranked ? `, no divergence between ${loaded.report.ranks!.length} ranks` : '';
    io.out(
      over.length
        ? `check failed: ${over.join(', ')}`
        : `check passed: ${breaks.length} graph breaks, ${recompiles} recompiles${ranks}`,
    );
  }
  return over.length ? EXIT.failed : EXIT.ok;
}

/** The runner's `inspect` on log paths, mapped onto the working directory (or by --source-map rules). */
async function readLogs(args: ParsedArgs, paths: string[], io: CliIo): Promise<RunOutcome> {
  if (!paths.length) throw new UsageError('give one or more compiler logs (.log, .log.gz) or folders of them');
  let rules: SourceMapRule[];
  try {
    rules = (args.repeated['source-map'] ?? []).map(parseSourceMapRule);
  } catch (error) {
    throw new UsageError(`--source-map: ${(error as Error).message}`);
  }
  const outcome = await inspectLogs({
    python: args.values.python ?? process.env['COMPILE_LENS_PYTHON'] ?? 'python3',
    runnerDir: RUNNER_DIR,
    cwd: process.cwd(),
    workspace: process.cwd(),
    paths,
    rules,
    ...(args.values.out ? { out: args.values.out } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
    ...(args.values.verbose ? { onLog: (line: string) => io.err(`  ${line}`) } : {}),
  });
  if (!outcome.loaded) {
    io.err(outcome.message);
    return { loaded: null, exitCode: outcome.cancelled ? EXIT.cancelled : EXIT.failed };
  }
  return { loaded: outcome.loaded, exitCode: outcome.loaded.report.status === 'error' ? EXIT.failed : EXIT.ok };
}

async function inspectCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const { loaded, exitCode } = await readLogs(args, args.positional, io);
  if (!loaded) return exitCode;
  const { report } = loaded;
  const reportPath = path.join(loaded.dir, 'report.json');
  const digest = digestLogs(report);
  if (args.values.json) io.out(JSON.stringify({ reportPath, ...digest }, null, 2));
  else if (report.target.kind === 'logs') io.out(`${formatLogsDigest(report)}\n  report: ${reportPath}`);
  else io.out([formatScriptDigest(report), ...formatLogNotes(digest), `  report: ${reportPath}`].join('\n')); // a job run under attach
  return exitCode;
}

/** The report.json that `summarize PATH` names: a report's folder (as `profile` prints it) or the file itself. */
async function reportPathOf(target: string): Promise<string | null> {
  const info = await stat(target).catch(() => null);
  if (info?.isDirectory()) return path.join(target, 'report.json');
  return path.basename(target) === 'report.json' ? target : null;
}

async function summarizeCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const [given] = args.positional;
  if (!given || args.positional.length > 1)
    throw new UsageError('summarize takes one trace file or one report (its folder or report.json)');
  const reportPath = await reportPathOf(path.resolve(given));
  if (reportPath) {
    printReport(await loadReport(reportPath), args, io);
    return EXIT.ok;
  }
  const summary = summarizeTrace(await scanTraceFile(path.resolve(given)));
  io.out(args.values.json ? JSON.stringify(summary, null, 2) : formatTraceSummary(summary));
  return EXIT.ok;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.values.help || args.command === 'help' || args.command === '') {
      io.out(USAGE);
      return args.command === '' ? EXIT.usage : EXIT.ok;
    }
    switch (args.command) {
      case 'profile':
        return await profileCommand(args, io);
      case 'check':
        return await checkCommand(args, io);
      case 'inspect':
        return await inspectCommand(args, io);
      case 'summarize':
        return await summarizeCommand(args, io);
      default:
        throw new UsageError(`unknown command "${args.command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`compile-lens: ${error.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (error instanceof ReportError || (error instanceof Error && error.name === 'TraceError')) {
      io.err(`compile-lens: ${error.message}`);
      return EXIT.failed;
    }
    throw error;
  }
}

if (require.main === module) {
  const controller = new AbortController();
  // First Ctrl-C cancels the run cleanly (the runner writes a partial report); the second exits at once.
  process.once('SIGINT', () => {
    controller.abort();
    process.once('SIGINT', () => process.exit(EXIT.cancelled));
  });
  process.once('SIGTERM', () => controller.abort());
  main(process.argv.slice(2), {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    signal: controller.signal,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`compile-lens: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = EXIT.failed;
    },
  );
}
