// What the native runner is told (its command line, from ProfileOptions) and what it says back (the JSON lines of
// its stdout). Pure: the CLI, the host's run and the tests share it; node/runner.ts starts the process.

export type RunTarget =
  | { kind: 'sample'; name: string }
  | { kind: 'function'; file: string; fn: string }
  | { kind: 'script'; file: string; args: string[] };

export interface ProfileOptions {
  target: RunTarget;
  device?: 'auto' | 'cpu' | 'cuda';
  out?: string;
  modes?: string[];
  dynamic?: 'auto' | 'true' | 'false';
  fullgraph?: boolean;
  backend?: string;
  /** time a training step (forward, backward, optimizer) instead of inference */
  train?: boolean;
  rounds?: number;
  timeoutSeconds?: number;
  quick?: boolean;
  /** script mode: stop the script after a region's Nth call, then measure */
  calls?: number;
  /** script mode: false skips the in-situ measurement (the observed run switching compiling off and on; torch < 2.6: separate runs) */
  inSitu?: boolean;
  /** script mode: measure a shape finding's fixes (the script once more per fix: mark_dynamic, dynamic=True, buckets,
   * a warm-up at the real shape): 'on' every fix, 'off' none; absent: the first, when the profile stays within 2.5×
   * the script's own time */
  shapeFix?: 'on' | 'off';
  /** script mode: run the script under torchrun with this many processes (> 1) */
  nprocPerNode?: number;
}

/** Options that choose how the runner compiles a target: a script compiles its own regions (its torch.compile calls
 * choose mode, dynamic, fullgraph and backend; its own code decides training), so they do not apply to it. */
export const NOT_FOR_SCRIPTS = ['backend', 'dynamic', 'fullgraph', 'train'] as const;

/** The --flags of `options` that do not apply to its target (a script): the CLI refuses them, the runner too. */
export function inapplicableFlags(options: ProfileOptions): string[] {
  if (options.target.kind !== 'script') return [];
  return NOT_FOR_SCRIPTS.filter((name) => options[name] !== undefined && options[name] !== false).map(
    (name) => `--${name}`,
  );
}

/** The editor's settings as profile options: compileLens.dynamic and .fullgraph go to targets and samples only. */
export interface ProfileSettings {
  device: 'auto' | 'cpu' | 'cuda';
  /** compileLens.modes; for a script only when the user set it (each what-if mode is another compile of every region) */
  modes: string[] | undefined;
  dynamic: 'auto' | 'true' | 'false';
  fullgraph: boolean;
  timeoutSeconds: number;
  quick: boolean;
  scriptCalls: number;
  nprocPerNode: number;
}

export function optionsFromSettings(target: RunTarget, settings: ProfileSettings): ProfileOptions {
  const options: ProfileOptions = {
    target,
    device: settings.device,
    timeoutSeconds: settings.timeoutSeconds,
    quick: settings.quick,
  };
  if (settings.modes) options.modes = settings.modes;
  if (target.kind !== 'script') {
    options.dynamic = settings.dynamic;
    options.fullgraph = settings.fullgraph;
    return options;
  }
  if (settings.scriptCalls > 0) options.calls = settings.scriptCalls;
  if (settings.nprocPerNode > 1) options.nprocPerNode = Math.floor(settings.nprocPerNode);
  return options;
}

export function profileArgs(options: ProfileOptions): string[] {
  const args = ['profile'];
  const target = options.target;
  if (target.kind === 'sample') args.push('--sample', target.name);
  else if (target.kind === 'function') args.push('--target', `${target.file}:${target.fn}`);
  else args.push('--script', target.file);
  if (options.device) args.push('--device', options.device);
  if (options.out) args.push('--out', options.out);
  if (options.modes?.length) args.push('--modes', options.modes.join(','));
  if (options.dynamic) args.push('--dynamic', options.dynamic);
  if (options.fullgraph) args.push('--fullgraph');
  if (options.backend) args.push('--backend', options.backend);
  if (options.train) args.push('--train');
  if (options.rounds) args.push('--rounds', String(options.rounds));
  if (options.timeoutSeconds) args.push('--timeout', String(options.timeoutSeconds));
  if (options.quick) args.push('--quick');
  if (options.calls) args.push('--calls', String(options.calls));
  if (options.inSitu === false) args.push('--no-in-situ');
  if (options.shapeFix) args.push('--shape-fix', options.shapeFix);
  if (options.nprocPerNode && options.nprocPerNode > 1) args.push('--nproc-per-node', String(options.nprocPerNode));
  // runRunner holds the runner's stdin open: if this process dies (VS Code closes), the run cancels itself
  args.push('--stop-when-stdin-closes');
  if (target.kind === 'script' && target.args.length) args.push('--', ...target.args);
  return args;
}

export type ProtocolLine =
  | { type: 'progress'; phase: string; fraction: number; message: string }
  | { type: 'result'; status: 'ok' | 'partial' | 'error'; report: string | null };

export function parseProtocolLine(line: string): ProtocolLine | null {
  if (!line.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Partial<Record<'type' | 'phase' | 'fraction' | 'message' | 'status' | 'report', unknown>>;
  if (record.type === 'progress') {
    return {
      type: 'progress',
      phase: typeof record.phase === 'string' ? record.phase : '',
      fraction: typeof record.fraction === 'number' ? Math.min(1, Math.max(0, record.fraction)) : 0,
      message: typeof record.message === 'string' ? record.message : '',
    };
  }
  if (
    record.type === 'result' &&
    (record.status === 'ok' || record.status === 'partial' || record.status === 'error')
  ) {
    return { type: 'result', status: record.status, report: typeof record.report === 'string' ? record.report : null };
  }
  return null;
}

/**
 * A line the profiler's native side prints on its own (USDT probe notices around profiler_start / profiler_stop):
 * not the tool's log nor the user's output, so the log leaves it out.
 */
export const isProfilerNoise = (line: string): boolean =>
  /\bUSDT\b/.test(line) && /\bprofiler_(start|stop)\b/.test(line);

/** torch.compile modes whose only difference from default is CUDA graphs: nothing on CPU (max-autotune still tunes). */
export const CUDA_GRAPH_ONLY_MODES: readonly string[] = ['reduce-overhead'];

/**
 * The modes a target run compares: those the user set (asked: run as set); else the defaults, less the modes that
 * only add CUDA graphs when the run is on CPU (`compileLens.device` cpu, or auto without CUDA), with a note saying why.
 */
export function targetModes(
  explicit: string[] | undefined,
  defaults: string[],
  device: 'auto' | 'cpu' | 'cuda',
  cudaAvailable: boolean,
): { modes: string[]; note: string | null } {
  const onCpu = device === 'cpu' || (device === 'auto' && !cudaAvailable);
  const left = explicit || !onCpu ? [] : defaults.filter((m) => CUDA_GRAPH_ONLY_MODES.includes(m));
  if (explicit || !left.length) return { modes: explicit ?? defaults, note: null };
  const modes = defaults.filter((m) => !left.includes(m));
  return {
    modes: modes.length ? modes : ['default'],
    note: `${left.join(', ')} not run on CPU: its only difference from default is CUDA graphs, which do nothing there. Set compileLens.modes to run it anyway.`,
  };
}
