// Generated from native-runner/compile_lens_runner/report/report.schema.json by scripts/reportTypes.ts: edit the
// schema, then run `npm run report-types` (test/unit/reportTypes.test.ts fails until then).

export type ErrorKind =
  | 'torch-missing'
  | 'torch-too-old'
  | 'triton-missing'
  | 'bad-target'
  | 'user-code'
  | 'compile'
  | 'out-of-memory'
  | 'timeout'
  | 'cancelled'
  | 'mismatch'
  | 'internal';
/**
 * path relative to the report directory
 */
export type RelPath = string | null;
/**
 * CUDA: share of time (%) the GPU sat idle between a profiled step's first kernel start and its last kernel end, over the profiled steps; null when the profiler saw no kernels. Absent on CPU
 */
export type GpuIdlePct = number | null;
/**
 * which ranks of a torchrun job it happened on (absent for one process)
 */
export type RankList = number[];
export type GradMode = 'inference' | 'no_grad' | 'grad';
/**
 * one replayed measurement of a region: `mode` is 'as-written' (the script's own compiled callable) or a what-if mode from --modes compiled afresh; fields as for a mode, plus these
 */
export type RegionMeasurement = ModeResult & {
  /**
   * the captured inputs' signature this was measured on
   */
  signature?: string;
  /**
   * why this signature was chosen
   */
  why?: 'most-frequent' | 'last';
  /**
   * schema 1.40: its number's role in words, as the CLI's line ('replay (evidence, not the answer): …') and the panel's cell say it: 'speedup' (the number the region's answer rests on) or 'evidence, not the answer' (report/roles.py). Absent: it failed (no number), or an older report
   */
  roleText?: string;
  /**
   * schema 1.43: the replay's inputs and grad mode in the runner's words (formats.inputs): 'float32[4, 8] with grad' for the signature 'float32[4, 8]; grad'. Absent: no signature, or a report before it
   */
  signatureText?: string;
  /**
   * which of the script's inputs the replay ran, among how many, in the runner's words (report/mode_line.py inputs_text): 'the most frequent of 2 input shapes, 6 calls', 'one of 10 input shapes, each called once'. Absent: no signature, or a report before it
   */
  inputsText?: string;
  /**
   * schema 1.14: what the replay timed, e.g. a training region's forward alone (no backward, no optimizer step); region.inSitu times the script's own steps
   */
  measures?: string;
  eagerTrace?: RelPath;
  eagerKernelsPerStep?: number | null;
  /**
   * CUDA: the share of the eager profile's span the GPU sat idle; at 30 % or more eager is launch-bound and the interval takes the launch-bound floor, as a target's does
   */
  eagerGpuIdlePct?: number | null;
  [k: string]: unknown;
};
/**
 * schema 1.35: one side's steps left out as interruptions (null: none of this side's)
 */
export type InterruptedSide = null | {
  steps: number;
  /**
   * the shortest of them, ms
   */
  lowMs: number;
  /**
   * the longest of them, ms
   */
  highMs: number;
  /**
   * the median of the side's steady steps they stood far above (before they were left out); null where they were at several signatures, each above its own
   */
  medianMs: number | null;
};
/**
 * one call: [ms, stepMs, compiles in the step]; interleaved (schema 1.16) with its call index after
 *
 * @minItems 3
 * @maxItems 4
 */
export type InSituPoint = [number | null, number | null, number] | [number | null, number | null, number, number];
/**
 * the script's own calls a rank profiled (the same on every rank): from call `fromCall` of region `region`, each later call of it beginning a ProfilerStep
 */
export type ProfileWindow = {
  /**
   * the region whose calls mark the steps
   */
  region?: string | null;
  /**
   * the call that opened the window (the profiler's warmup step)
   */
  fromCall?: number | null;
  /**
   * steps in the trace
   */
  steps?: number;
  /**
   * why there is no trace
   */
  skipped?: string | null;
} | null;
export type SourceMapping =
  | {
      status: 'same' | 'rule' | 'suffix';
      from: string;
      to: string;
    }
  | {
      status: 'ambiguous';
      from: string;
      to: null;
      candidates: string[];
    }
  | {
      status: 'missing';
      from: string;
      to: null;
      rule?: string;
    };

/**
 * The contract between the native runner (writes report.json) and the extension/CLI (reads it). Bump schemaVersion's minor for additive changes, its major for breaking ones.
 */
export interface Report {
  schemaVersion: string;
  runner: {
    version: string;
  };
  /**
   * ISO 8601 time the run finished
   */
  createdAt: string;
  /**
   * partial: at least one mode failed, others finished
   */
  status: 'ok' | 'partial' | 'error';
  error: null | RunError;
  environment: {
    python: string;
    torch: string | null;
    triton?: string | null;
    /**
     * schema 1.20, CUDA runs: the CUDA toolkit torch was built with (torch.version.cuda)
     */
    cudaVersion?: string | null;
    device: 'cpu' | 'cuda';
    deviceName: string;
    platform: string;
    [k: string]: unknown;
  };
  target: {
    /**
     * logs: read from compiler logs by `inspect` (schema 1.14): nothing was run or timed
     */
    kind: 'sample' | 'function' | 'script' | 'logs';
    name: string;
    /**
     * absolute path of the target's source file
     */
    file?: string | null;
    function?: string | null;
    /**
     * 1-based line of the target function's def
     */
    line?: number | null;
  };
  /**
   * the options the run was made with (modes, dynamic, fullgraph, backend, warmup, rounds, ...)
   */
  settings: {
    [k: string]: unknown;
  };
  eager: {
    timing: null | Timing;
    trace: RelPath;
    /**
     * CUDA: device kernels (and memcpy/memset) per profiled step. CPU: outermost compute ops per step - ATen ops not nested in another ATen op (eager ops, Inductor's extern kernels such as aten::addmm) plus Inductor's generated C++ kernels (cpp_fused_*)
     */
    kernelsPerStep: number | null;
    /**
     * CUDA: torch.cuda.max_memory_allocated over the profiled steps. CPU: highest 'Total Allocated' the profiler's memory events saw
     */
    peakMemoryBytes?: number | null;
    gpuIdlePct?: GpuIdlePct;
    /**
     * CUDA: eager left the GPU idle >= 30 % of the time between its kernels (gpuIdlePct): it is limited by the host CPU issuing kernels, so its speed, and the speedup, depend on this host's CPU. Absent on CPU
     */
    launchBound?: boolean | null;
    /**
     * schema 1.24: where eager is launch-bound, why the speedup belongs to this host, in the runner's words (report/notes.py)
     */
    launchBoundText?: string;
    [k: string]: unknown;
  };
  modes: ModeResult[];
  recommendation: Recommendation;
  /**
   * schema 1.18: the run in one line, its verdict first ("compile it: 3.31× per call with default (2.77–3.79×) · 1 graph · 0 breaks · compile 9.5 s"; a script: the headline of the region that decides it, which region, how many more), written by the runner each time it writes the report (1.21: answer.headline): the Runs view, --json and a target's CodeLens show it as it is. Absent: older reports
   */
  headline?: string;
  /**
   * a target's modes table legend (report/mode_line.speedup_note): what its speedup and range are, in plain words ('Speedup: eager's time ÷ compiled time, each side's fastest of 12 runs, the two taking turns …'); absent where no mode has paired runs and a range, and in an older report
   */
  speedupNote?: string;
  /**
   * what the report is about, as the user wrote it (report/sentences.title_text): 'compile_target in fused.py', 'ddp_train, rank 1 of 4' (a rank's own report says which rank it is); the panel's heading, its tab and headerText start with it. Absent: an older report (a surface says the target's name)
   */
  titleText?: string;
  /**
   * schema 1.29: which run, on which device, how it ended (report/sentences.header_text): 'fused.py on cpu (Intel Xeon …): ok', the CLI's first line after 'Compile Lens — ', written each time the report is written. Absent: a report before 1.29 (the CLI says it from the fields)
   */
  headerText?: string;
  /**
   * schema 1.33: what the report's traces are, beside each timeline pane (report/sentences.profiler_note): its note 'under the profiler (slower than timed)', its tooltip. Absent: a report read from logs (no trace), older reports
   */
  profilerNote?: {
    /**
     * 'slower than timed'
     */
    label: string;
    /**
     * 'This trace ran under the profiler: its overhead is in every time here. The answer's numbers come from runs without it.'
     */
    text: string;
  };
  answer?: Answer;
  /**
   * script mode: every callable that torch.compile (or nn.Module.compile) returned while the script ran, in the order they were created
   */
  regions?: Region[];
  inSitu?: ReportInSitu;
  /**
   * a torchrun job (--nproc-per-node): one entry per rank, in rank order; the timeline opens their traces on one time axis. The rest of the report is rank 0's, except that the script entry's and the regions' graph breaks and recompiles are those of every rank, each with its `ranks`.
   */
  ranks?: RankEntry[];
  /**
   * a torchrun job: where its ranks ran differently, each in one sentence (empty: they did not)
   */
  divergence?: Divergence[];
  logs?: LogsRead;
  /**
   * only in a rank's own report (ranks/rank<k>/report.json, and rank 0's before the merge): who it was; the merged report has `ranks` instead
   */
  rank?: {
    rank: number;
    localRank?: number;
    worldSize: number;
    /**
     * path relative to the report directory
     */
    trace?: string | null;
    window?: ProfileWindow;
    /**
     * an attached rank (schema 1.14): the host it ran on
     */
    host?: string | null;
    /**
     * an attached rank: its launcher's node rank (GROUP_RANK, SLURM_NODEID)
     */
    nodeRank?: number | null;
  };
}
export interface RunError {
  kind: ErrorKind;
  location?: SourceLocation;
  message: string;
  fix: string;
  traceback?: string | null;
}
export interface SourceLocation {
  /**
   * absolute path
   */
  file: string;
  line: number;
  function?: string | null;
  /**
   * the source line, stripped
   */
  code?: string | null;
  /**
   * notebooks: index of the cell (in the notebook's cell list) whose code this is; `line` is then 1-based within that cell
   */
  cell?: number | null;
}
export interface Timing {
  /**
   * per-call time, median over rounds
   */
  medianMs: number;
  /**
   * the per-call time the speedup uses: the fastest round (host noise only adds time)
   */
  estimateMs?: number;
  /**
   * why no more pairs were added: planned (eager alone: fixed rounds), converged (each side's fastest round seen 3 times within 3 %), pair-cap or time-cap (the limits were reached first)
   */
  stopReason?: 'planned' | 'converged' | 'pair-cap' | 'time-cap';
  minMs: number;
  maxMs: number;
  /**
   * (max - min) / median * 100 over rounds
   */
  spreadPct: number;
  /**
   * per-call ms of each round; on CUDA from schema 1.12 the round's first call overlaps the GPU work of the untimed calls before it (1.11 and earlier: it started on an idle GPU, and one-call rounds read its host work as GPU time)
   */
  rounds: number[];
  callsPerRound: number;
  method: string;
  /**
   * the CPU probe (fixed pure-Python work, ms) taken just before each round: the host CPU's speed at that moment (eager rounds since schema 1.8, compiled rounds too since 1.10); rounds stop once each side has rounds within 10 % of the run's fastest probe
   */
  cpuProbeMs?: number[];
  /**
   * pairs added beyond the planned rounds, until each side's fastest round was confirmed (stopReason)
   */
  extraRounds?: number;
  /**
   * false when a compile ran inside the timed region (the numbers include compilation), or when Dynamo ran the timed compiled calls eagerly (see the mode's fallback)
   */
  valid?: boolean;
  invalidReason?: string;
  /**
   * only in discardedTimings: the speedup the invalid measurement showed
   */
  speedup?: number | null;
  /**
   * schema 1.19, CPU runs: the host's load over this measurement (a paired measurement's compiled `timing`, eager alone's timing), sampled at each pair's (round's) start and after the last
   */
  hostLoad?: HostLoad;
  [k: string]: unknown;
}
/**
 * schema 1.19, CPU runs: the host's load over one measurement. contended: at least half the samples found fewer CPUs free than torch's threads (one thread: none free): multi-threaded ops then wait on descheduled threads, a single thread is time-sliced through every round, and the ratio measures the host; such a measurement supports no verdict, and reason and fix say why and what to run instead
 */
export interface HostLoad {
  /**
   * CPUs this process may run on
   */
  cpus: number;
  /**
   * torch.get_num_threads() when the measurement began
   */
  threads: number;
  samples: number;
  contendedSamples: number;
  /**
   * [fewest, most] runnable threads of other processes in a sample (/proc/stat procs_running less this process's running threads); null where the host does not say
   */
  othersRunning: null | [number, number];
  /**
   * 1-minute load average at the first and last sample
   */
  loadAverage: null | {
    start: number;
    end: number;
  };
  /**
   * CPU time the hypervisor took over the measurement, % of all
   */
  stealPct: number | null;
  contended: boolean;
  /**
   * contended: why the number is not trusted
   */
  reason: string | null;
  /**
   * contended: what to run instead (OMP_NUM_THREADS)
   */
  fix: string | null;
}
export interface ModeResult {
  /**
   * default, reduce-overhead, max-autotune, max-autotune-no-cudagraphs
   */
  mode: string;
  status: 'ok' | 'error';
  /**
   * status error: why the mode failed; status ok: a non-fatal finding (kind mismatch)
   */
  error: null | RunError;
  /**
   * wall time of the first (compiling) call
   */
  compileSeconds: number | null;
  timing: null | Timing;
  /**
   * eager's fastest round / compiled's fastest round, per call (speedupEstimator); null when nothing compiled was measured (fallback)
   */
  speedup: number | null;
  /**
   * fastest-rounds (schema 1.4); older reports used the median of per-pair ratios
   */
  speedupEstimator?: string;
  /**
   * where the next run's speedup may land: resampled pairs (5th-95th percentile), the two halves of the rounds, and a floor
   */
  speedupInterval?: {
    low: number;
    high: number;
    /**
     * the least half-width, in %: 2, 6 when a side met host noise, or when eager is launch-bound 15 % of its GPU idle share, at least 5 (schema 1.12; 10 % in 1.11, 5 in 1.10)
     */
    floorPct?: number;
    /**
     * sides whose median round was more than 5 % above their fastest: the host disturbed them
     */
    noisySides?: ('eager' | 'compiled')[];
    /**
     * sides that never ran while the host CPU was at its fastest state of the run (schema 1.10): each side's third-fastest CPU probe over the run's fastest probe, where over 1.1; the interval then reaches speedup / eager's ratio and speedup x compiled's ratio (what the fastest state could give, were that side all CPU work)
     */
    slowHost?: {
      eager?: number;
      compiled?: number;
    };
    /**
     * the host CPU does not limit the compiled side (every graph a CUDA-graph replay, or its GPU idle under 15 % between kernels) and eager ran more than 3 % faster in another mode's pairs of this run (eager alone, timed before anything compiled, counts only in reports before schema 1.10) than in this mode's pairs: the speedup is bestEagerMs / compiled, and `high` keeps what this mode's own pairs gave (eagerMs / compiled): a host as slow as while they ran
     */
    runEager?: {
      eagerMs: number;
      /**
       * the eager time the speedup uses
       */
      bestEagerMs: number;
      /**
       * the compiled time the speedup uses
       */
      compiledMs?: number;
      /**
       * fastest-round: eager's fastest round in any mode's pairs of the run; cpu-normalized (schema 1.8-1.9 only, no longer written: it scaled eager rounds by the CPU probe): the median of all eager rounds of the run in units of the CPU probe taken before each, times the fastest probe
       */
      basis?: 'fastest-round' | 'cpu-normalized';
      /**
       * cpu-normalized (schema 1.8-1.9): the fastest CPU probe of the run (fixed pure-Python work)
       */
      cpuProbeMinMs?: number;
    };
  };
  /**
   * the median of per-pair ratios, for comparison: what a typical round of this host gave (on a busy host, more than the quiet-host speedup for a launch-bound eager)
   */
  speedupMedianRatio?: number | null;
  /**
   * true: compiled frames ran in the timed calls; false: Dynamo ran some of them eagerly; null: not known (torch without the guard hook)
   */
  ranCompiled?: boolean | null;
  /**
   * the timed compiled calls ran eagerly (recompile limit, skipped frame, suppressed error): the timing is invalid and the speedup null
   */
  fallback?: {
    /**
     * entries into compiled frames that ran eagerly
     */
    eagerFrames?: number;
    frameEntries?: number;
    cause: string | null;
    fix: string | null;
  };
  gpuIdlePct?: GpuIdlePct;
  /**
   * compile time / time saved per call; null when compiled is not faster
   */
  breakEvenCalls?: number | null;
  trace: RelPath;
  /**
   * CUDA: device kernels (and memcpy/memset) per profiled step. CPU: outermost compute ops per step - ATen ops not nested in another ATen op (eager ops, Inductor's extern kernels such as aten::addmm) plus Inductor's generated C++ kernels (cpp_fused_*)
   */
  kernelsPerStep: number | null;
  compiler: null | CompilerInsight;
  /**
   * CUDA: torch.cuda.max_memory_allocated over the profiled steps. CPU: highest 'Total Allocated' the profiler's memory events saw
   */
  peakMemoryBytes?: number | null;
  /**
   * eager rounds interleaved with this mode's rounds (the speedup's denominator side)
   */
  eagerTiming?: null | Timing;
  /**
   * per profiled call, CPU time outside compiled graphs (eager code between graphs after a graph break, guards, Python glue), from the profiler's ProfilerStep and Torch-Compiled Region spans
   */
  outsideGraphsMsPerStep?: number | null;
  /**
   * (max - min) / median of the per-pair ratios
   */
  speedupSpreadPct?: number | null;
  /**
   * interquartile range / median of the per-pair ratios (robust to single spikes)
   */
  speedupIqrPct?: number | null;
  /**
   * measurements thrown away because a compile ran inside them
   */
  discardedTimings?: Timing[];
  correctness?: Correctness;
  /**
   * reading the compiler log failed; the measurement stands
   */
  compilerError?: null | RunError;
  /**
   * script mode: the script's exit status
   */
  scriptExitCode?: number;
  /**
   * schema 1.25, a target's measured mode: its measurement in one line, as the CLI shows it (report/mode_line.py): the answer's words for its number, compiled per call vs the eager it rests on, kernels per step, graphs, breaks, recompiles, compile time, break-even; schema 1.28, a region's replay: which callable on which inputs, the answer's words for its number, its times and kernels, a what-if mode's own compile, the break-even where it is the answer's. Absent: a measurement without a number, or a report before 1.25 (1.28 for a replay: the CLI lists the fields)
   */
  measuredText?: string;
  /**
   * schema 1.33: why its first timing was discarded and it was timed again, in words (report/mode_line.remeasured_text): 'Timed again, its first timing discarded: a recompile ran while timing …'; every surface shows it as it is. Absent: timed once, older reports
   */
  remeasuredText?: string;
  /**
   * schema 1.33: compiled outputs that differ from eager's, in words (report/mode_line.mismatch_text): 'Compiled outputs differ from eager's: max abs error 0.5 > atol 1e-4'; every surface shows it as it is. Absent: outputs that agree or were not compared, older reports
   */
  mismatchText?: string;
  /**
   * schema 1.33: its mode as written in torch.compile (report/mode_line.mode_code): "mode='max-autotune'"; a script's own call "mode='default', backend='eager' (as written)". Absent: older reports
   */
  modeText?: string;
  /**
   * schema 1.24: the runner's sentences beside this number, as every surface shows them (report/notes.py): outputs that differ from eager no more than eager differs from the reference, eager taken from another mode's pairs, a side that never ran at the host's fast state, a contended host. Absent: a surface lists the fields
   */
  notes?: string[];
  [k: string]: unknown;
}
export interface CompilerInsight {
  graphCount: number;
  graphBreaks: GraphBreak[];
  /**
   * schema 1.25: the CUDA-graph outcome (cudaGraphs) in the runner's lines, as the CLI and the report panel show them (report/compiler_text.py): how many graphs were captured, each skip with its line and fix, the graphs a log cannot place, PyTorch's hints, the graphs with no reason recorded; the caller indents them. Absent: CUDA graphs not in use, or a report before 1.25
   */
  cudaGraphsLines?: string[];
  /**
   * schema 1.25, a report read from logs: where Dynamo compiled frames and made no graph of them, that no compiled code ran, in the runner's words (report/compiler_text.py). Absent: a graph was made, or a report before 1.25
   */
  noGraphText?: string;
  /**
   * schema 1.27, a report read from logs: what the compiler did, counted, in the runner's words (report/compiler_text.py): '5 compiles, 3 graphs, 4 graph breaks at 2 sites, 2 recompiles, 0 failed compiles, 0 restarts'. Absent: a report before 1.27, or a profile's
   */
  countsText?: string;
  /**
   * schema 1.27, a report read from logs: the compile time by phase (report/compiler_text.py): '3.4 s (dynamo 1.2 s, aot 0.50 s, inductor 1.0 s, codegen 0.30 s)'. Absent: none counted, a report before 1.27, or a profile's
   */
  compileTimeText?: string;
  /**
   * the compile phases' heading in the runner's words (report/compiler_text.py): '2 compiles, 239 ms, 1 cache hit', its total compileSeconds.total (the compile total the region's facts and a rank's row say), which the rows of phases (a compile's outermost phases each) add up to; in a job of ranks, whose phases they are ('5 compiles (1 graph) on rank 0, 55.1 s'). Absent: no phases, or an older report
   */
  phasesText?: string;
  /**
   * schema 1.47: the compile phases' rows' names, by compile id, of compiles the phases draw that no frame lists (report/compile_names.py phase_rows): 'compiled function 1, recompile 1'; a compile with only autotuning recorded under it, 'compiled function 1: only autotuned, made no graph' (not a recompile); and (schema 1.49) of every compile known to have made no graph, its name and why in the compile phases' heading's words: 'forward, recompiled for self.calls == 1, captured nothing, made no graph', 'DistributedDataParallel at ddp_train.py:71, made no graph' (the log does not say why). Absent: every compile drawn is a frame's and made a graph (or which made none is not known), or an older report
   */
  phaseRowTexts?: {
    [k: string]: string;
  };
  /**
   * schema 1.38, a torchrun job's script: each rank's compile phases, ranks whose phases are alike (the same compiles, named alike, each with the same phases in order) one group, the lowest rank's record drawn; the compile phases are drawn one section per group (a rank's recompile has its row: this record's own phases are the lowest rank's alone, review 10H H3). Absent: one process, or an older report
   */
  rankPhases?: RankPhases[];
  /**
   * schema 1.36: why a cache hit has a C++ compile under it, in the runner's words (report/compiler_text.py): loading a cached graph builds its C++ where this machine has not built it yet. The compile phases' legend and that bar's hover say it. Absent: no cache hit's load built C++, or an older report
   */
  cacheBuildText?: string;
  /**
   * schema 1.27, a report read from logs: the caches' lookups (report/compiler_text.py): 'FX graph 2 hits, 1 miss; AOT autograd 1 hit'. Absent: none recorded, a report before 1.27, or a profile's
   */
  cacheText?: string;
  /**
   * schema 1.24: what its graph breaks cost, in the runner's words, as the hover says it (report/notes.py): the graphs the code is split into, the time outside them. Absent: no break, or a report before 1.24
   */
  breakCost?: string;
  /**
   * one entry per recompile, in order
   */
  recompiles: Recompile[];
  recompileSites?: RecompileSite[];
  /**
   * s28: the graph breaks as every surface lists them (report/compiler_text.break_sites, each time the report is written): one per line and fix, its count the breaks it stands for, its explanation naming each call that broke (DDP's two bookkeeping calls at one line: one site, one fix). Absent: no break, or an older report (graphBreaks then)
   */
  breakSites?: GraphBreak[];
  guardCount?: number | null;
  /**
   * breakdown by phase, each phase's own share: total, dynamo, aot, inductor, codegen (from compilation_metrics), autotune (compile-log spans, part of codegen)
   */
  compileSeconds?: {
    [k: string]: number;
  };
  torchTraceLog?: RelPath;
  compiledFrames?: number;
  /**
   * one entry per frame compile (Dynamo compile id), with its wall time
   */
  frames?: CompiledFrame[];
  cache?: Cache;
  /**
   * schema 1.16: PyTorch's performance hints (perf_hints channel) the runner recorded, one per hint and user line
   */
  perfHints?: PerfHint[];
  /**
   * CUDA-graph outcome per compiled graph; empty on CPU and for modes without CUDA graphs
   */
  cudaGraphs?: CudaGraphStatus[];
  /**
   * generated kernels (first 200), from INDUCTOR_PROVENANCE
   */
  kernels?: KernelProvenance[];
  /**
   * schema 1.43: the profiled steps each kernel's usPerStep is the mean of, by their markers' numbers: the steps compared (measure/compared_steps.py, the rule of the webview's trace compare too): of the marked steps every one but the first where there are two or more, and of those the longest run in which no compile ran, the first of equal runs (all of them where each compiled); a runner before this said every one but the first, a step that compiled too. Absent: every profiled step (a report before it, or a trace with no step marked)
   */
  kernelSteps?: {
    first: number;
    last: number;
    /**
     * schema 1.45: the steps said, 'step 2', 'steps 2–3' (the kernel list and a kernel's time say them by it)
     */
    text?: string;
  };
  /**
   * each failed compile: compileId, failType, reason (PyTorch's words); schema 1.32: recompileLimitHit true where it was the recompile limit (no graph made: its frame is named 'step: hit the recompile limit, made no graph')
   */
  compileFailures?: {
    [k: string]: unknown;
  }[];
  /**
   * schema 1.14: {compileId, reason} each time Dynamo restarted the analysis of a frame (compilation_metrics restart_reasons: a graph break found mid-trace)
   */
  restarts?: {
    [k: string]: unknown;
  }[];
  /**
   * per Dynamo compile id, in order: the files the compiler made for it, saved in the report directory (schema 1.5)
   */
  compiles?: CompileArtifacts[];
  /**
   * compile phases of every graph from the log's chromium_event spans (Dynamo, AOT, Inductor, codegen, kernel compile, autotune) and cache lookups, in log order (schema 1.5)
   */
  phases?: CompilePhase[];
  [k: string]: unknown;
}
export interface GraphBreak {
  reason: string;
  /**
   * schema 1.25, count > 1: the count said as the hover's title says it ("3 graph breaks at this line", report/compiler_text.py); 1.35, a torchrun job's (rankCounts), whatever its count, with whose it is: "3 graph breaks at this line on ranks 0 and 2, 4 on ranks 1 and 3", "2 graph breaks at this line on each rank"
   */
  countText?: string;
  hint?: string | null;
  /**
   * PyTorch graph-break registry id, e.g. GB0059
   */
  gbId?: string | null;
  docUrl?: string | null;
  location: null | SourceLocation;
  userStack: SourceLocation[];
  compileId?: string | null;
  /**
   * schema 1.14: graph-break records at this site with this reason (one per compile that hit it)
   */
  count?: number;
  ranks?: RankList;
  /**
   * schema 1.35, a torchrun job: its count on each rank that had it, by rank (ranks/merge.py; a site's summed over its breaks: compiler_text.break_sites); `count` is the headline rank's, and `countText` says each rank's. Absent: one process, or an older report
   */
  rankCounts?: {
    [k: string]: number;
  };
  /**
   * schema 1.16: the frame Dynamo stopped in, a library's as well as the user's (e.g. torch/nn/modules/transformer.py:921)
   */
  brokeAt?: null | {
    file: string;
    line: number;
    function?: string | null;
    code?: string | null;
    cell?: number | null;
    /**
     * the frame is a library's (torch, an installed package), not the user's
     */
    library?: boolean;
  };
  /**
   * schema 1.16: the break in the user's terms, from the runner's pattern table (compiler/break_patterns.py, docs/GRAPH-BREAKS.md); null for breaks outside the table
   */
  explanation?: null | BreakExplanation;
  [k: string]: unknown;
}
export interface BreakExplanation {
  /**
   * the table's id, e.g. item, print, transformer-fast-path
   */
  pattern: string;
  title?: string;
  /**
   * what broke and why, with the consequence, in the user's terms
   */
  what: string;
  /**
   * the operator, function or method that broke, as PyTorch's text names it
   */
  broke?: string | null;
  fix: string;
  /**
   * a mechanical edit the editor offers as a Quick Fix (fastpath-off, move-print); null where the fix needs judgement
   */
  quickFix?: null | QuickFix;
}
/**
 * schema 1.17 (a kind's name before): a mechanical edit of the user's file, offered as a Quick Fix; the runner owns every text of it (compiler/quick_fixes.py), the editor applies it
 */
export interface QuickFix {
  kind: 'fastpath-off' | 'move-print' | 'compile-dynamic' | 'warmup-shape' | 'mark-dynamic';
  /**
   * the code action's title
   */
  title: string;
  /**
   * settings (fastpath-off, move-print): the statement inserted after the file's imports
   */
  statement?: string;
  /**
   * settings: the comment put after it (why)
   */
  comment?: string;
  /**
   * warmup-shape, mark-dynamic (1.22): replacements the runner worked out from the source, applied only while each range still holds `expect`
   */
  edits?: {
    line: number;
    column: number;
    endColumn: number;
    expect: string;
    text: string;
  }[];
}
/**
 * schema 1.38: the compile phases of ranks whose phases are alike (ranks/merge.rank_phases); compiler: the lowest rank's record, as its phases' rows and heading read it (its graphs, breaks, recompiles, frames, phases, compile seconds, caches and failed compiles), its phasesText the group's heading ('5 compiles (1 graph; 3 captured nothing) on ranks 0 and 2, 5.78 s; rank 0's drawn (rank 2's alike, 5.28 s)': report/compiler_text.py)
 */
export interface RankPhases {
  ranks: RankList;
  compiler: CompilerInsight;
  /**
   * the region (its name) whose code each of its compiles (by compile id, the rank's own numbering) compiled
   */
  regions?: {
    [k: string]: string;
  };
}
export interface Recompile {
  /**
   * guard failure, e.g. tensor 'x' size mismatch at index 0. expected 32, actual 64
   */
  reason: string;
  compileId?: string | null;
  location: null | SourceLocation;
  /**
   * the call that triggered it, in words
   */
  trigger?: string | null;
  inTimedRegion?: boolean;
  /**
   * one guard failure per cached entry that was tried
   */
  allReasons?: string[];
  /**
   * the reason with compared numbers abstracted (self.calls == N)
   */
  pattern?: string;
  /**
   * PyTorch's own hint from the guard failure text, if any
   */
  hint?: string | null;
  explanation?: null | Explanation;
  ranks?: RankList;
  [k: string]: unknown;
}
export interface Explanation {
  /**
   * what the user's code or calls did, in their terms
   */
  what: string;
  fix: string;
  /**
   * schema 1.16: a mechanical edit the editor offers (compile-dynamic; warmup-shape, schema 1.17)
   */
  quickFix?: null | QuickFix;
  /**
   * schema 1.22: further edits offered beside quickFix (mark-dynamic: a torch._dynamo.mark_dynamic line before the call, script/mark_dynamic_edit.py)
   */
  quickFixes?: QuickFix[];
  /**
   * schema 1.34: what the recompile was made for, the user's input as the failed guard says it (compiler/made_for.py): "x's size 16 in dimension 0", "x's size 48 in dimension 1", "x as float16", "the 1st argument's batch 8" (a wrapper's input Dynamo names no argument for), "x's stride 8 in dimension 0", "x with requires_grad", "calls under torch.inference_mode()", "the other grad mode"; for a Python value guarded by value, the value the compile's own guard holds, from a later recompile's record (compiler/made_for.py): "self.calls == 17", "np.random.randint(…) == 0 at line 24" (a number Dynamo names ___stack1, by the call its line indexes with, else "line 24's number == 0"), where none says it the values the frame's earlier compiles were made for, which it was not, "self.calls not in (0, 1, 2)", "self.step != 3" (none known: "a new value of self.calls"); the compile is named by it (report/compile_names.py: "forward, recompiled for x's size 16 in dimension 0"). Absent: another guard, or an older report
   */
  madeFor?: string;
  /**
   * schema 1.42: what the explanation is where it was said from more than the guard: warmup-shape, a warm-up at another shape than the real calls (script/warmup_shape.py), said from the script's source; 1.47: grad-switch, a loop whose calls switch grad mode and back (an evaluation pass under torch.no_grad() between training steps), said from the region's calls (script/grad_switch.py). Absent: said from the guard alone, or an older report
   */
  kind?: 'warmup-shape' | 'grad-switch';
}
/**
 * recompiles at one source line with one guard pattern, grouped: one finding with a count
 */
export interface RecompileSite {
  pattern: string;
  /**
   * the first recompile's reason
   */
  reason: string;
  count: number;
  /**
   * schema 1.25, count > 1: the count said as the hover's title says it ("7 recompiles at this line", report/compiler_text.py)
   */
  countText?: string;
  compileIds?: (string | null)[];
  /**
   * the values a value guard saw, or the sizes a size guard saw (the one compiled first, then each that recompiled), in order (empty unless it recurred with several)
   */
  values?: string[];
  location: null | SourceLocation;
  trigger?: string | null;
  inTimedRegion?: boolean;
  hint?: string | null;
  explanation?: null | Explanation;
  ranks?: RankList;
  /**
   * s28, a torchrun job: the ranks' divergence (report.divergence, a recompile on these ranks) says this recompile, at the line that made the call, with its Quick Fixes: one finding, not two (report/rank_text.py). Absent: said as its own finding
   */
  inDivergence?: boolean;
}
export interface CompiledFrame {
  compileId: string | null;
  function?: string | null;
  location?: null | SourceLocation;
  /**
   * schema 1.31: a frame outside the user's files (location null), where it is, in words: "PyTorch's _dynamo/external_utils.py", "Python's contextlib.py", "transformers/models/llama/modeling_llama.py" (the path below site-packages). Absent: a user frame, older reports
   */
  library?: string;
  /**
   * schema 1.35: a frame outside the user's files, the user's line whose call led there (the innermost user frame of the stack its compile started from, compiler/insight.py); the compile is named by it, the library's frame as detail (report/compile_names.py: 'the call at ddp_train.py:78 (__init__ in Python's contextlib.py)'). Absent: a user frame, no user frame on that stack, older reports
   */
  calledFrom?: SourceLocation;
  seconds: number;
  /**
   * schema 1.36: the tensor ops in the graph this compile made (Dynamo's graph_op_count); 0: it made no graph, Dynamo having captured nothing (the frame broke or returned before its first op was captured: not that it does no tensor work); the count of compiles says so (report/compiler_text.py compiles_made). Absent: not recorded (a failed compile, older reports)
   */
  graphOps?: number;
  /**
   * schema 1.28: the compile by its function and which compile of it it was, in the runner's words (report/compile_names.py): 'forward', 'forward, recompile 1', 'forward after line 24'; every surface names the compile so. Absent: a report before 1.28
   */
  nameText?: string;
}
/**
 * cache lookups by cache (fxGraph, aotAutograd) and outcome (hit, miss, bypass)
 */
export interface Cache {
  [k: string]: {
    [k: string]: number;
  };
}
export interface PerfHint {
  /**
   * fallback-kernel (an op Inductor calls ATen for instead of generating code) or other
   */
  kind: string;
  op?: string | null;
  what: string;
  fix?: string | null;
  /**
   * PyTorch's text
   */
  message: string;
  compileIds?: (string | null)[];
  /**
   * the user's line of the op, when Inductor was lowering one
   */
  location: null | SourceLocation;
}
export interface CudaGraphStatus {
  compileId: string | null;
  /**
   * unknown (schema 1.16): set up for CUDA graphs, and the log (made without Compile Lens) holds no record of a capture or a skip; reason says so
   */
  status: 'captured' | 'skipped' | 'not-captured' | 'unknown';
  /**
   * PyTorch's skip message (skipped), or why the log cannot say (unknown)
   */
  reason?: string | null;
  explanation?: CudaGraphSkip;
  /**
   * schema 1.16: PyTorch's other CUDA-graph warnings about this graph (e.g. many-sizes: one graph recorded per input size), in the explanation's form
   */
  hints?: CudaGraphSkip[];
}
/**
 * schema 1.16: why PyTorch skipped CUDA graphs for a graph (a CUDA graph status's explanation, or one of its hints), in the user's terms
 */
export interface CudaGraphSkip {
  /**
   * mutated-inputs, cpu-device, dynamic-shapes, incompatible-op, rerecord-limit, ... or other
   */
  kind: string;
  what: string;
  fix?: string | null;
  cost: string;
  /**
   * the line PyTorch names (the mutating op, the CPU tensor's use)
   */
  location?: null | SourceLocation;
  /**
   * tensors the named line writes into, as the code names them
   */
  tensors?: string[];
}
export interface KernelProvenance {
  name: string;
  /**
   * schema 1.28: a kernel Inductor generated, in the runner's words (report/compile_names.py): 'fused kernel 1 of forward (lines 12, 13)'. Absent: a library call, or a report before 1.28
   */
  nameText?: string;
  /**
   * schema 1.28: the CodeLens over it in the generated code (report/compile_names.py): 'fuses lines 12, 13 (add, relu)', 'library call for line 11 (addmm)' (before 1.32: 'aten.add, aten.relu'). Absent: a report before 1.28
   */
  lensText?: string;
  /**
   * schema 1.32: its ops (atenOps) as PyTorch users know them, each once, for every surface that lists them (report/compile_names.ops_text): 'erf, mul, add' for aten.erf, aten.mul.Tensor, aten.add. Absent: no ops recorded, or a report before 1.32
   */
  opsText?: string;
  /**
   * schema 1.29: a kernel several compiles of this record made alike (the same name and lines), said once with the compiles that made it (report/compile_names.py), as the hover on a compiled line lists it: 'fused kernel 1 (lines 12, 13), made by 2 compiles: forward; forward, recompile 1'. Absent: a kernel one compile made, or a report before 1.29
   */
  sharedText?: string;
  kernelSteps?: KernelSteps;
  compileId?: string | null;
  /**
   * post-grad ATen ops fused into this kernel
   */
  atenOps: string[];
  /**
   * user source lines those ops came from
   */
  sourceLines: SourceLocation[];
  /**
   * 1-based line in its compile's outputCode: the kernel's definition, or for an extern kernel its call (schema 1.5)
   */
  codeLine?: number | null;
  /**
   * the kernel's time per profiled step (µs, summed over its launches) in this mode's profile; null when not profiled, or its name is shared by kernels of several graphs (schema 1.5)
   */
  usPerStep?: number | null;
}
/**
 * schema 1.49, a script's kernel timed from its region's as-written profile (script/kernel_times.py): the steps its usPerStep is the mean of, its own region's (the record's kernelSteps is said only where every region's are alike). Absent: timed from its own record's profile (the record's kernelSteps), untimed, or an older report
 */
export interface KernelSteps {
  first: number;
  last: number;
  /**
   * schema 1.45: the steps said, 'step 2', 'steps 2–3' (the kernel list and a kernel's time say them by it)
   */
  text?: string;
}
export interface CompileArtifacts {
  /**
   * Dynamo compile id, frame/attempt (0/1: frame 0's first recompile)
   */
  compileId: string;
  /**
   * path relative to the report directory
   */
  outputCode: string | null;
  /**
   * path relative to the report directory
   */
  guards: string | null;
  guardCount?: number | null;
  /**
   * path relative to the report directory
   */
  fxGraph: string | null;
  /**
   * for a recompile: per cached compile that was tried, the guard of it that failed
   */
  failedGuards: FailedGuard[];
}
export interface FailedGuard {
  /**
   * the compile whose guard failed
   */
  compileId: string | null;
  /**
   * Dynamo's recompile reason
   */
  reason: string;
  /**
   * path relative to the report directory
   */
  guards: string | null;
  /**
   * 1-based line of the failed guard in that file; null when the reason names no guard found there
   */
  line: number | null;
  /**
   * the failed guard's text (KIND: check)
   */
  guard: string | null;
  /**
   * schema 1.36: where the guarded value is in the user's code, said beside PyTorch's guard (report/guard_text.py): "In your code, L['x'] is x, forward's argument (fused.py:10)"; the guard's trailing comment is where Dynamo first used it, often PyTorch's own code. Absent: the guard names no local of a frame in the user's files, older reports
   */
  sourceText?: string;
}
export interface CompilePhase {
  compileId: string;
  /**
   * e.g. 'Dynamo: trace bytecode', 'AOT Autograd', 'Inductor: codegen', 'autotune', 'FX graph cache'
   */
  name: string;
  /**
   * ms after the mode's first compile-phase event
   */
  startMs: number;
  /**
   * 0 for a cache lookup
   */
  durMs: number;
  /**
   * nesting among the phases shown: 0 is outermost
   */
  depth: number;
  /**
   * a cache lookup (FX graph or AOT autograd cache) and its outcome
   */
  cache?: 'hit' | 'miss' | 'bypass';
  cacheHit?: boolean;
  /**
   * schema 1.38 to 1.43 only (1.44: the last of its labels, not written apart): the short name its bar is labelled by where its name has no room, with its time: 'guards 209 ms'; the chart labels a 1.38 or 1.39 report's bar (no labels) by its name, then this
   */
  shortName?: string;
  /**
   * schema 1.40: the names its bar is labelled by, longest first (the bar says the longest that fits, with its time; its hover the first), each told apart from its compile's other phases of its name: 'Inductor (backward)', 'C++ compile (backward, 1 of 2)', 'Dynamo: trace bytecode (1 of 2)'; a shorter name another of its record's phases is also said by left out ('codegen'), so every bar of a phase has the same names; 1.44: Dynamo's traces of one frame by its restart, 'Dynamo: trace bytecode (first attempt)', '(restart)' (compiler/phase_names.py). Absent: a cache lookup, an older report
   *
   * @minItems 1
   */
  labels?: [string, ...string[]];
  /**
   * schema 1.44: where its labels count it among its compile's phases of its name and part ('C++ compile (backward, 1 of 2)'), the same names without the count ('C++ compile (backward)'): the chart's label where one of those phases has no label (review 13 P6); 1.47: a restarted frame's traces' names without their attempt ('Dynamo: trace bytecode' for '… (first attempt)'), likewise (review 14R R4). Absent: a phase its labels do not count
   *
   * @minItems 1
   */
  uncountedLabels?: [string, ...string[]];
  /**
   * schema 1.51: where its labels count it among its compile's phases of its name and part (not a trace's restarts), their count and time in all: '13 × C++ compile, 18.5 s in all', '2 × C++ compile (backward), 1.2 s in all'; the compile's row's hover says it where some of them have no label (review 17X X4: 13 C++ builds, one labelled, their total said nowhere). Absent: a phase its labels do not count, or a report before 1.51
   */
  countedText?: string;
}
/**
 * compiled vs eager outputs on the timed inputs (same seeds), judged as torch._dynamo.utils.same does: within atol + rtol*|eager| passes; otherwise compiled fails only if its RMSE against a higher-precision reference exceeds multiplier x eager's + atol/10
 */
export interface Correctness {
  ok: boolean;
  /**
   * largest |compiled - eager|
   */
  maxAbsError: number | null;
  dtype?: string | null;
  atol?: number | null;
  rtol?: number | null;
  /**
   * what is wrong, when ok is false
   */
  message?: string | null;
  /**
   * none: compiled was within atol + rtol*|eager| of eager, no reference needed; fp64: an fp64 copy of the model; eager-tf32-off: eager with TF32 off and float32 matmul precision 'highest'; unavailable: neither could run
   */
  reference?: 'none' | 'fp64' | 'eager-tf32-off' | 'unavailable';
  /**
   * why the fp64 reference was not used
   */
  referenceNote?: string | null;
  /**
   * eager's RMSE against the reference
   */
  eagerRmse?: number | null;
  /**
   * compiled's RMSE against the reference
   */
  compiledRmse?: number | null;
  /**
   * compiled may be this many times eager's error (+ atol/10)
   */
  multiplier?: number | null;
  precision?: PrecisionSettings;
}
/**
 * float32 precision settings in force when outputs were compared
 */
export interface PrecisionSettings {
  cudaMatmulAllowTf32?: boolean | null;
  cudnnAllowTf32?: boolean | null;
  float32MatmulPrecision?: string | null;
}
export interface Recommendation {
  /**
   * null means: don't compile this
   */
  mode: string | null;
  reason: string;
  /**
   * compile: use `mode`; compile-for-longer-runs (schema 1.16): steps are faster compiled (the interval clears 1.05x) but the compile inside the script pays back only after more steps than this run made (`mode`: the mode to use in longer runs; the reason says how many steps); stay-eager: measured, and compiled steps are not faster (their interval does not clear 1.05x); none: nothing was measured that could support a verdict
   */
  verdict?: 'compile' | 'compile-for-longer-runs' | 'stay-eager' | 'none';
}
/**
 * schema 1.21: a region's or the run's answer, decided once (report/answer.py; absent: older reports). A script's run answer is the answer of the region that decides it (region). An error's location (1.21) is the user's line it happened at.
 */
export interface Answer {
  verdict: 'compile' | 'compile-for-longer-runs' | 'stay-eager' | 'none';
  /**
   * the mode to use (compile, compile-for-longer-runs)
   */
  mode: string | null;
  /**
   * THE number the verdict rests on; null: nothing measured could support one
   */
  number: null | AnswerNumber;
  /**
   * why, the leading ones (a failure, the shape story) first
   */
  reasons: Reason[];
  /**
   * the one line every surface shows
   */
  headline: string;
  /**
   * the verdict and its reasons in full
   */
  sentence: string;
  /**
   * every other measurement, labelled by how it was made
   */
  evidence?: AnswerNumber[];
  /**
   * why each measurement without a number has none (index)
   */
  unmeasured?: Reason[];
  /**
   * a script's run answer: the id of the region it is
   */
  region?: string;
}
export interface AnswerNumber {
  /**
   * how it was made: the script's own steps (or calls) in situ, its calls replayed, a target's paired rounds
   */
  kind: 'in-situ-step' | 'in-situ-call' | 'replay-call' | 'target-rounds';
  /**
   * token: a decode loop's step (a size that grew by one a call: script/shape_facts.py)
   */
  unit: 'step' | 'call' | 'token';
  /**
   * steady steps (in situ: the smaller side's) or paired rounds the value rests on
   */
  n: number;
  /**
   * the speedup: eager time over compiled time
   */
  value: number;
  /**
   * where a next run may land (measure/ranges.py: never zero-width); absent with tooNoisy, and where the measurement had no range
   */
  low?: number;
  high?: number;
  /**
   * no range is said: it reached more than 3x either way from the value (range-too-wide, factor: how far), or it rests on fewer than 2 pairs of blocks (too-few-pairs)
   */
  tooNoisy?: {
    why: 'range-too-wide' | 'too-few-pairs';
    factor?: number;
    /**
     * schema 1.36, range-too-wide: where the range not said lay: wholly below 1x (compiled slower in every reading: a region or mode then stays eager, its size never said), wholly above it, or on either side (no direction). Absent: too-few-pairs, and a report before 1.36
     */
    side?: 'slower' | 'faster' | 'either';
    /**
     * schema 1.37, range-too-wide: the range too wide to say where a next run lands, kept for the record (--json); no surface says it (issue 44: 'next run 1.01–128.11×' is no range; its number's text says 'a next run could land more than 3× away'). Absent: too-few-pairs, and a report before 1.37
     */
    low?: number;
    high?: number;
  };
  /**
   * the compile mode measured (replay, target)
   */
  mode?: string;
  eagerMs?: number;
  compiledMs?: number;
  /**
   * in situ: pairs of adjacent eager/compiled blocks
   */
  pairs?: number;
  /**
   * a replay: the captured inputs it ran on
   */
  signature?: string;
  /**
   * the target's modes[] or the region's measurements[] index it is
   */
  index?: number;
  /**
   * the number in words (report/sentences.py): its value, how it was made, its range or why none is said
   */
  text?: string;
  /**
   * schema 1.26: which way it may be said to point (report/verdict.directed): faster or slower only where it could support a verdict; too-noisy (tooNoisy, or a range wider than 2x high over low) and host-busy (timed on a contended host) point nowhere: no surface gives it a direction word, a colour or a pay-back. Absent: a report before 1.26
   */
  direction?: 'faster' | 'slower' | 'too-noisy' | 'host-busy';
  /**
   * schema 1.26: the word shown beside the number, by its direction (report/sentences.py): faster, slower, too noisy to say, host busy, not trusted
   */
  directionText?: string;
}
/**
 * one reason as a code and its parameters; report/reason_text.py says each code in words (SENTENCES) and which lead the headline (LEADING: a failure, the shape story)
 */
export interface Reason {
  code: string;
  file?: string | null;
  line?: number | null;
  cell?: number | null;
  call?: number | null;
  /**
   * what happened, in words (an error's message, a cause, PyTorch's own words quoted); shape-fix: the fix (not measured: the fixes as what to change, one of them to make)
   */
  what?: string;
  fix?: string | null;
  /**
   * what kind, by code: a failure's (failed), why not in situ (no-in-situ), the backend (backend-no-kernels), why a shape fix was not measured (shape-fix not measured: its fixes' whyCode, budget | timeout | failed | refused | no-call); replay-beside: the verdict the replay alone would give. Never a verdict a next run may give: that is near-the-bar's mayGive (schema 1.48; its kind in 1.46-1.47)
   */
  kind?: string;
  mode?: string;
  /**
   * steps or calls until a compile pays back
   */
  steps?: number;
  /**
   * steps or calls this run made; shape-fix not measured: the region's shape fixes in all, measured or not, where those not measured are said as what to change (absent: buckets refused, or a warm-up's fix its finding says)
   */
  made?: number;
  unit?: 'step' | 'call' | 'token';
  seconds?: number;
  /**
   * schema 1.26, pays-back-after in situ: seconds are the compiled warm-up's time beyond eager steps, not the compiler's own count
   */
  warmUp?: boolean;
  /**
   * pays-back-after: the compile it pays back missed every FX graph cache lookup (a cold cache: later runs load it, so they pay back sooner)
   */
  coldCache?: boolean;
  /**
   * another measurement's speedup; the bar (not-faster, may-be-no-faster, not-clearly-faster, near-the-bar)
   */
  value?: number;
  /**
   * a range's low end (near-the-bar: the answer's number's, the one that decides compile against no verdict)
   */
  low?: number;
  high?: number;
  /**
   * in-situ-too-few, in-situ-few-pairs (2026-12-01): the pairs of blocks the number rests on; in-situ-few-pairs says, beside a range from fewer than ranges.FEW_BLOCK_PAIRS pairs whose end a pair's own ratio sets, that it was widened to cover them, with low and high: the pairs' smallest and largest ratio
   */
  pairs?: number;
  samples?: number;
  torch?: string | null;
  /**
   * schema 1.23, cuda-graphs-per-size: the device memory the region's CUDA graphs hold (regionShapes.cudaGraphBytes)
   */
  bytes?: number;
  /**
   * in-situ-own-cost: Compile Lens's own work on an eager call, at most (inSitu.ownCost.ms)
   */
  ownMs?: number;
  /**
   * in-situ-own-cost: eager's time per step or call in situ (inSitu.ownCost.eagerMs); slower (schema 1.50): the number's eagerMs
   */
  eagerMs?: number;
  /**
   * schema 1.50, slower: the number's compiledMs; the slowdown ('compiled takes 1.42× as long') is said from both times as shown (formats.times_of_ratio), not as 1 / the printed speedup. Absent: a number without its times, or an older report
   */
  compiledMs?: number;
  /**
   * schema 1.23, launch-bound-range: eager's host time over its GPU time in situ, in % (inSitu.hostShare.eagerPct)
   */
  hostPct?: number;
  /**
   * schema 1.23, launch-bound-range: the least half-width of the in-situ range, in % (inSitu.hostShare.floorPct); cpu-host-range: of a range measured on a CPU (measure/estimator.cpu_floor_pct)
   */
  floorPct?: number;
  /**
   * schema 1.52, backend-no-kernels: the number was timed on a CPU, where Inductor generates C++ functions, not kernels (its sentence says so). Absent: a GPU's, or a report before 1.52
   */
  device?: 'cpu';
  /**
   * schema 1.36, cpu-host-range: the CPUs the timing process could run on (hostLoad.cpus), where the run recorded them: a many-core host's caveat is said from 8
   */
  cpus?: number;
  /**
   * schema 1.46, near-the-bar: the answer's number's range's low end lies within this many % of the bar (report/verdict.py MIN_USEFUL_SPEEDUP), as two profiles of one model agree, so a next run may give the verdict mayGive
   */
  nearPct?: number;
  /**
   * schema 1.48, near-the-bar: the verdict a next run may give, said only beside the verdict as final: none (not clearly faster) beside a compile, compile beside a no verdict its range gave (not-clearly-faster), never beside one a failure gave (report/verdict.near_the_bar)
   */
  mayGive?: 'compile' | 'none';
  /**
   * unmeasured: the modes[] or measurements[] index it is about
   */
  index?: number;
  /**
   * the reason's sentence (report/reason_text.py)
   */
  text?: string;
  /**
   * the shape codes (issue 43): the input whose dimension changed
   */
  input?: string;
  /**
   * that dimension
   */
  dim?: number;
  /**
   * how many distinct sizes of it the script called with
   */
  sizes?: number;
  /**
   * those sizes grew call after call (lengths: a decode loop)
   */
  growing?: boolean;
  /**
   * torch.compile's dynamic= as the script wrote it
   */
  dynamic?: boolean | null;
  /**
   * graphs made (shape-fix: with the fix)
   */
  graphs?: number | null;
  /**
   * shape-fix: graphs made as written
   */
  wasGraphs?: number | null;
  /**
   * shape-fix: the compile as written (seconds: with the fix)
   */
  wasSeconds?: number | null;
  /**
   * schema 1.24, shape-fix: compile cache hits in the fix run's compiles (it starts from an empty cache of its own)
   */
  cacheHits?: number;
  /**
   * schema 1.24, shape-fix: compile cache hits in the script's run's compiles (a warm cache: its seconds are not a cold compile's)
   */
  wasCacheHits?: number;
  /**
   * the recompile limit
   */
  limit?: number | null;
  /**
   * calls: run eagerly (recompile-limit, eager-fallback), served without compiling (automatic-dynamic), real (warmup-other-shape), sizes recorded (cuda-graphs-per-size), still eager (shape-fix measured), fixes left unmeasured (shape-fix not measured), steps or calls left out (in-situ-left-out, in its unit), sequences (decode-loop)
   */
  count?: number;
  /**
   * schema 1.30, in-situ-left-out: the steps (a per-call number: calls) the number leaves out, by why (inSitu.dropped's codes); count is their sum, unit the number's
   */
  dropped?: {
    [k: string]: number;
  };
  /**
   * warmup-other-shape: the warm-up's size
   */
  size?: number;
  /**
   * warmup-other-shape: the real calls' size (their first, where realSizes is given)
   */
  realSize?: number;
  /**
   * schema 1.41, warmup-other-shape: the sizes the real calls passed, ascending, where they vary (traffic); absent: one size
   */
  realSizes?: number[];
  /**
   * shape-fix: the first real call with a warm-up fix; warmup-other-shape: that call as written; decode-loop: a sequence compiled
   */
  ms?: number | null;
  /**
   * shape-fix: that call as written; decode-loop: a sequence eager
   */
  wasMs?: number | null;
  /**
   * shape-fix: measured (else why); recompile-limit: the answer has a number (which compares the calls compiled code served)
   */
  measured?: boolean;
  /**
   * shape-fix: why it was not measured
   */
  why?: string;
}
export interface Region {
  /**
   * schema 1.40: the title over its replays' numbers: their role where they share one ('speedup', 'evidence, not the answer'), else 'speedup or evidence' (it assumes neither, nor what each measured) (report/roles.py). Absent: no replay with a number, or an older report
   */
  rolesText?: string;
  /**
   * stable within the report, e.g. 'r0'
   */
  id: string;
  /**
   * what was compiled: the module's class or the function's name
   */
  name: string;
  /**
   * torch.compile(module), torch.compile(function) or decorator, nn.Module.compile()
   */
  kind: 'module' | 'function' | 'module-compile';
  /**
   * the user line that called torch.compile (or .compile())
   */
  location: null | SourceLocation;
  /**
   * the script's own torch.compile arguments: mode, backend, dynamic, fullgraph
   */
  options?: {
    [k: string]: unknown;
  };
  /**
   * schema 1.5: where the region's first call ran (the device type of its first input tensor, else of its module's parameters: 'cpu', 'cuda', ...); the script decides, not --device
   */
  device?: string | null;
  callCount: number;
  /**
   * the calls in order (the first 2000)
   */
  calls: RegionCall[];
  callsTruncated?: boolean;
  signatures?: RegionSignature[];
  /**
   * what the compiler did for this region's calls (its compile ids only)
   */
  compiler?: null | CompilerInsight;
  /**
   * the script's own calls after the last compile: from which call, the median duration of its most frequent signature's calls (before schema 1.31: of every signature's)
   */
  steadyState?: null | {
    fromCall: number;
    medianMs: number;
    spreadPct?: number | null;
    /**
     * schema 1.31: the input signature whose calls the median is of, the most frequent among the steady calls (a median pooled over signatures mixes their times). Absent: older reports (pooled), calls without a signature
     */
    signature?: string;
    /**
     * schema 1.31: how many input signatures the steady calls had
     */
    signatures?: number;
    /**
     * schema 1.31: how many calls the median is of
     */
    calls?: number;
    /**
     * schema 1.25: the first-call chart's tooltip for it, in the runner's words (report/chart_text.py)
     */
    said?: string;
    /**
     * schema 1.25: its label on the first-call chart (report/chart_text.py)
     */
    label?: string;
    /**
     * s27: the in-situ number's steady state, as the story says it: from inSitu.steadyFromCall, the median of the compiled calls it counted (inSitu.call.compiledMs); one steady state per region (report/chart_text.py)
     */
    inSitu?: boolean;
    [k: string]: unknown;
  };
  replay: {
    /**
     * its calls can be run again without changing the script's state (false: `reason` says what a call changes or why its inputs cannot be reused)
     */
    replayable: boolean;
    /**
     * why it was not replayed (mutates state, inputs not reusable, too few calls, ...)
     */
    reason: string | null;
    /**
     * schema 1.15: what a replay made when the script let go of the region left out, and why (on a torch without isolate_recompiles its own compiles would count against the script's recompile limit)
     */
    leftOut?: string | null;
  };
  measurements: RegionMeasurement[];
  recommendation?: null | Recommendation;
  /**
   * --calls N: the script was stopped after this region's Nth call
   */
  stoppedAfterCalls?: number | null;
  /**
   * schema 1.32: what the script did with the region, counted, in the runner's words (report/sentences.region_facts): '6 calls', '5 compiles (1 graph)', '2 graph breaks', '3.5 s compiling in the script's own calls'; in a torchrun job (1.35) the graphs and breaks as each rank counted them, with whose they are: '1 graph and 3 graph breaks on ranks 0 and 2', '2 graphs and 4 graph breaks on ranks 1 and 3', 'recompiled at call 3 on ranks 1 and 3' (report/rank_text.region_counts); the CLI's region line and the report panel show them as they are. Absent: older reports
   */
  facts?: string[];
  /**
   * schema 1.33: the region as its headings and timeline panes say it (report/sentences.region_labels): its name, 'TinyTransformer'; its id after it only where another region has the same name, 'forward (r1)'. Absent: older reports
   */
  label?: string;
  /**
   * schema 1.33: the mode the script compiled it with, as written in torch.compile (report/mode_line.script_mode): "mode='default'", "mode='default', backend='eager'". Absent: older reports
   */
  modeText?: string;
  /**
   * schema 1.18: the region in one line, its verdict first ("compile it: 1.84× per call replayed with default (1.70–1.95×) · 2 graphs · 1 recompile", "no verdict: not replayable: mutates self.calls"), written by the runner (1.21: answer.headline): the CodeLens on its torch.compile line shows it as it is. Absent: older reports
   */
  headline?: string;
  /**
   * schema 1.25: what the report panel's first-call chart leaves out, in words, as its legend says it (report/chart_text.py): calls without a recorded duration, calls past the recorded ones; 1.37: the script's last call in situ where it stands far above its side's median, why no number counts it (report/in_situ_text.py last_call_line). Absent: a report before 1.25
   */
  chartNotes?: string[];
  /**
   * schema 1.23: the region's first-call story in words (report/story.py): which call compiled, which recompiled and why, from which call on it ran at its steady speed, which calls ran eagerly; null: no calls to tell it from. Absent: older reports (the surfaces then list the calls' events)
   */
  story?: string | null;
  answer?: Answer;
  /**
   * schema 1.16: the region was called and Dynamo made no graph of it: every call ran eagerly (no speedup is shown for it)
   */
  noCompiledCode?: null | NoCompiledCode;
  /**
   * schema 1.14: the script's own calls and steps, compiled against eager: interleaved in the observed run (1.16), or from separate runs (torch < 2.6; null: the compiled run made no call of it)
   */
  inSitu?: null | RegionInSitu;
  /**
   * schema 1.21: the region's shape story as facts (null or absent: its inputs kept one shape)
   */
  shapes?: null | RegionShapes;
  [k: string]: unknown;
}
/**
 * one call of a region, as the script made it
 */
export interface RegionCall {
  /**
   * 0-based call number within the region
   */
  index: number;
  /**
   * duration of the call; CUDA: between CUDA events recorded on the current stream around the call (no synchronisation added), CPU: perf_counter. null when it could not be resolved
   */
  ms: number | null;
  clock?: 'cuda-events' | 'perf-counter';
  /**
   * schema 1.23, CUDA graphs (reduce-overhead, max-autotune) on a GPU, a size's first two compiled calls (the warm-up and the recording of its graph): what the private memory pools (CUDA graphs') grew by over the call, from the allocator's host-side state (no synchronisation)
   */
  cudaGraphBytes?: number;
  /**
   * schema 1.23, CUDA calls: the call's host time (perf_counter around it, no synchronisation): a launch-bound call's is close to ms, a GPU-bound one's far under it. Absent on CPU (ms is the host's)
   */
  hostMs?: number;
  /**
   * input signature, e.g. 'float32[5, 4096, 64], int64[5]; inference'
   */
  signature: string;
  gradMode?: GradMode;
  /**
   * compiled: the region's first compile ran inside this call; recompiled: a guard failed and a new graph was compiled; cached: compiled code was reused (or, see ranCompiled, skipped)
   */
  event: 'compiled' | 'recompiled' | 'cached';
  /**
   * Dynamo compile ids started inside this call
   */
  compileIds?: string[];
  /**
   * compile time spent inside this call (sum of its compiles' entire-frame time)
   */
  compileSeconds?: number | null;
  /**
   * the failed guard as PyTorch says it (recompile_reasons), kept as its words
   */
  recompileReason?: string | null;
  /**
   * schema 1.23: the failed guard as a sentence ("input 'x' changed size in dimension 0 from 8 to 16"; report/story.py, compiler/explain.guard_sentence); null: no words for it. Absent: older reports
   */
  recompileWhy?: string | null;
  /**
   * schema 1.24: what happened at this call, in words, as its mark on the region's chart says it (report/story.py call_said): compiled, recompiled and why, its compile time, ran eagerly and why; 1.37: the script's last call in situ, far above its side's median, why no number counts it (report/chart_text.py). Absent: a call that reused compiled code (but that one), or a report before 1.24
   */
  said?: string;
  /**
   * true: compiled graphs ran in this call; false: Dynamo fell back to eager (recompile limit, skipped frame, suppressed error); null: not known
   */
  ranCompiled?: boolean | null;
  /**
   * why Dynamo ran the call eagerly, in the runner's words (1.25: the recompile limit in plain words, report/sentences.recompile_limit_reached)
   */
  fallbackReason?: string | null;
  /**
   * schema 1.25: torch._dynamo.config.recompile_limit where its function reached it and that is why the call ran eagerly (script/region_entry.py)
   */
  recompileLimit?: number;
  /**
   * a torchrun rank's call inside its profile window: its duration includes the profiler's overhead (left out of steadyState)
   */
  profiled?: boolean;
  /**
   * schema 1.14: the call carried Compile Lens's state check or input capture (or enclosed a nested region's): left out of steadyState
   */
  observer?: boolean;
  /**
   * schema 1.16, interleaved in situ: the stance the call ran at (eager: torch.compiler.set_stance("force_eager"), on purpose; its ranCompiled is null). Absent: no interleaving
   */
  side?: 'compiled' | 'eager';
  /**
   * schema 1.16: the call's block of the interleaving (0: the compiled warm-up before the first switch)
   */
  block?: number;
  /**
   * schema 1.16: from this call's start to the region's next call's start (null: the last call)
   */
  stepMs?: number | null;
  /**
   * schema 1.16: compiles that started in the step (any region's)
   */
  stepCompiles?: number | null;
}
export interface RegionSignature {
  signature: string;
  calls: number;
  firstCall?: number;
  lastCall?: number;
  /**
   * inputs of this signature were captured and replayed
   */
  measured?: boolean;
}
export interface NoCompiledCode {
  /**
   * the region's first sentence: No compiled code ran: ... (1.21: the answer's sentence for it, report/sentences.py; required before 1.21)
   */
  headline?: string;
  cause: string;
  location?: null | SourceLocation;
  fix?: string | null;
  gbId?: string | null;
  pattern?: string | null;
}
export interface RegionInSitu {
  /**
   * schema 1.19, CPU runs, interleaved: the host's load over the observed run, sampled at each switch between blocks and at the end (the same for every region); contended: the steps support no verdict
   */
  hostLoad?: HostLoad;
  /**
   * separate runs: pairs of runs; interleaved: pairs of adjacent blocks the step interval rests on
   */
  pairs: number;
  /**
   * schema 1.16: how it was measured (report.inSitu.method)
   */
  method?: 'interleaved' | 'separate-runs';
  /**
   * schema 1.16, interleaved: the steady steps each way
   */
  steadySteps?: Sides;
  /**
   * schema 1.16, interleaved: steps left out, by why: warm-up, switch (the step spans a stance switch), first eager call (eager's first call of all, whatever its signature), first on its signature (eager's first call of a later signature; a compiled call's first at a size only where it records a CUDA graph; pooled: each side's first step), compiled (a compile started in it), observer (Compile Lens's own work or the profiler), ran eagerly (on the compiled side, no compiled code ran), never served compiled (1.21: eager at a signature whose compiled-side calls all ran eagerly, past the recompile limit), interrupted (1.35: a steady step far above its side's median at its signature, `interrupted`)
   */
  dropped?: {
    [k: string]: number;
  };
  /**
   * schema 1.35, interleaved: the steps otherwise steady that were left out as interruptions (measure/interruptions.py, the rule measure/ranges.far_above: at least `times` times the median of the side's steady steps at its signature and `mads` scaled median absolute deviations above it), per side; said in `lines`. Null or absent: none was (or an older report)
   */
  interrupted?: null | {
    eager: InterruptedSide;
    compiled: InterruptedSide;
    /**
     * ranges.FAR_TIMES: how many times the side's median a step at least took
     */
    times: number;
    /**
     * ranges.FAR_MADS: how many scaled median absolute deviations above the median it at least was
     */
    mads: number;
  };
  /**
   * schema 1.21, interleaved: the compiled side's calls Dynamo ran eagerly (past the recompile limit, after a failed compile) out of the compiled side's calls: never timed as compiled (dropped: ran eagerly); null: none did
   */
  eagerFallback?: null | {
    calls: number;
    of: number;
  };
  /**
   * schema 1.23, interleaved on CUDA: how much of eager the host sets (measure/interleaved.host_share); null: no steady eager call with a host time (CPU: the host sets both sides, and a host that moves between runs moves both)
   */
  hostShare?: null | HostShare;
  compiledCalls?: number;
  eagerCalls?: number;
  /**
   * calls matched by index and signature, up to the first call where the runs differ
   */
  matchedCalls?: number;
  /**
   * where the two runs' calls differ, and what is not compared
   */
  unmatched?: string | null;
  /**
   * the first call whose call and step compiled nothing (never the script's first call); interleaved: its first call after the compiled warm-up
   */
  steadyFromCall?: number | null;
  warmupCalls?: number;
  /**
   * per step: from one call of the region to its next (backward, optimizer, data, cache updates included)
   */
  step?: null | InSituSpeedup;
  /**
   * per call: the region's own calls
   */
  call?: null | InSituSpeedup;
  /**
   * steady-state steps that recompiled a signature already seen: recurring; their time over a steady step is in step.compiledMs
   */
  lateCompiles?: number;
  lateCompileMs?: number;
  /**
   * steady-state steps that compiled a new signature (a short last batch): in compileSeconds
   */
  laterFirstCompiles?: number;
  /**
   * the compile cost inside the script: its warm-up's time over eager's, plus later first-time compiles (the first pair: the compiled run that ran first)
   */
  compileSeconds?: number | null;
  /**
   * per pair (later runs may use Inductor's caches)
   */
  compileSecondsPerRun?: (number | null)[];
  /**
   * steps after which the compiled script is ahead; null: compiled steps are not faster
   */
  breakEvenSteps?: number | null;
  /**
   * the calls this run of the script made of the region
   */
  stepsMade?: number;
  paysBack?: boolean | null;
  /**
   * the matched calls with their steps, compiles included (the first pair)
   */
  regionSeconds?: null | Sides;
  /**
   * 1000 / step ms (a decode loop: tokens/s per sequence)
   */
  stepsPerSecond?: null | Sides;
  /**
   * why there is no step speedup (1.25, interleaved: noStep in the runner's words, report/in_situ_text.py)
   */
  reason?: string | null;
  /**
   * schema 1.25, interleaved: why there is no step speedup, as a code and its numbers (measure/interleaved.py; `reason` says it): eager-stance-only (called only at the eager stance: inlined in another region's compiled code), never-compiled (no call ran compiled code; fallback: why, the calls' fallback sentence), before-interleaving (calls: the region's calls, all before the interleaving began; quietCalls: the calls that compile nothing it waits for), no-steady-side (side: the side with no steady step), no-shared-signature. Null: a step speedup
   */
  noStep?: {
    code: 'eager-stance-only' | 'never-compiled' | 'before-interleaving' | 'no-steady-side' | 'no-shared-signature';
    fallback?: string | null;
    calls?: number;
    quietCalls?: number;
    side?: 'eager' | 'compiled';
  } | null;
  /**
   * interleaved: Compile Lens's own work on an eager call (the eager stance's torch.compile wrapper, the observer around the call: up to ms a call) where it is more than measure/interleaved.MAX_OWN_PCT % of eager's time per step (or call) in situ: the in-situ number then decides nothing, the replay does (reason in-situ-own-cost). Null or absent: small against it
   */
  ownCost?: {
    /**
     * at most this a call (measure/interleaved.OWN_CALL_MS)
     */
    ms: number;
    /**
     * eager's time per step or call in situ (step.eagerMs or call.eagerMs)
     */
    eagerMs: number;
    /**
     * ms over eagerMs, in %
     */
    pct: number;
    unit: 'step' | 'call';
  } | null;
  /**
   * schema 1.25, a step speedup: each side's steady median on the report panel's in-situ overlay, in the runner's words (report/chart_text.py)
   */
  medianText?: {
    compiled: string;
    eager: string;
  };
  /**
   * a step speedup with its steadyFromCall: the in-situ overlay's shaded steady state in the runner's words, its start and each side's median (report/chart_text.py). Absent: no step speedup, or a report before it
   */
  steadyText?: string;
  /**
   * schema 1.25: each step of the series that compiled, as its mark on the in-situ overlay says it (report/chart_text.py)
   */
  compileSteps?: {
    side: 'compiled' | 'eager';
    index: number;
    text: string;
  }[];
  /**
   * s27, interleaved: each step the series draws (a call with a step time), whether the step number counted it and, if not, why (leftOut: its key in `dropped`); the overlay shades the counted ones only. rank: under torchrun (slowestRank), the rank whose step time it is (the slowest), compiledOn: the ranks that compiled in it; text: the point's mark in the runner's words (report/chart_text.py)
   */
  stepPoints?: {
    index: number;
    counted: boolean;
    leftOut: string | null;
    rank?: number;
    compiledOn?: number[];
    text?: string;
  }[];
  /**
   * s27, slowestRank: whose steps the overlay draws, in the runner's words (report/chart_text.py)
   */
  ranksText?: string;
  /**
   * per call of each side: separate runs: of the first pair; interleaved (1.16): the first 2000
   */
  series?: {
    compiled: InSituPoint[];
    eager: InSituPoint[];
    [k: string]: unknown;
  };
  /**
   * schema 1.24, interleaved (1.29: separate runs too, in the same words, resting on whole runs of the script): these numbers in the runner's words, one line each, as every surface shows them (report/in_situ_text.py): the number with its times, the compile inside the script and its pay-back, why per step, what the number rests on, the steps left out, per signature; the caller indents them. Absent: a surface lists the fields
   */
  lines?: string[];
  /**
   * schema 1.17, interleaved: why, per step: the device's work in a step both ways, from each side's profiled window of this region's steps (null: this region did not mark both windows' steps, or a window recorded no step)
   */
  work?: null | StepWork;
  /**
   * a compiled call of this region failed: at the user's line, with the fix
   */
  failure?: null | CompileFailure;
  /**
   * --modes: the script run with its torch.compile calls set to each mode
   */
  whatIf?: {
    mode: string;
    step: null | InSituSpeedup;
    call: null | InSituSpeedup;
    compileSeconds: number | null;
    breakEvenSteps: number | null;
    reason: string | null;
    failure: null | CompileFailure;
    [k: string]: unknown;
  }[];
  /**
   * a torchrun job: {rank, step} per rank, each rank's own steps compared; the region's step above is the slowest rank's, call by call
   */
  ranks?: {
    [k: string]: unknown;
  }[];
  /**
   * schema 1.17, interleaved under torchrun: step, call and the rest are from the slowest rank's call and step at each call index (a synchronous job's step is its slowest rank's); work is the headline rank's window
   */
  slowestRank?: boolean;
  [k: string]: unknown;
}
/**
 * one number each way, compiled and eager
 */
export interface Sides {
  compiled: number;
  eager: number;
  [k: string]: unknown;
}
export interface HostShare {
  /**
   * the median over eager's steady calls of their host time (hostMs) over their GPU time (ms), at most 100
   */
  eagerPct: number;
  /**
   * the steady eager calls it rests on
   */
  calls: number;
  /**
   * eagerPct at least 70: the GPU waits on the host, and eager runs at the host's speed, which moves between processes
   */
  launchBound: boolean;
  /**
   * launch-bound: the least half-width of the step and call intervals (floorPct there), the rule targets use on eager's GPU idle share (15 % of the share, at least 5 %); null: not launch-bound
   */
  floorPct: number | null;
}
export interface InSituSpeedup {
  /**
   * eager's steady duration: interleaved, the middle pair of blocks' median eager step (session 33: ranges.middle, of an even count the lower middle; over the matched mix as block_pairs weighs it), pooled or without pairs eager's median over the run; separate runs: the median pooled over pairs
   */
  eagerMs: number;
  /**
   * interleaved: the same pair of blocks' median compiled step (eagerMs / compiledMs is the speedup), pooled or without pairs compiled's median over the run; separate runs: the compiled runs' median steady duration, plus (steps) the share of recurring recompiles
   */
  compiledMs: number;
  /**
   * eagerMs / compiledMs
   */
  speedup: number;
  low: number;
  /**
   * low-high: the 5th-95th percentiles over steady steps resampled by index per pair, every eager run against every compiled run, and the floor (floorPct)
   */
  high: number;
  floorPct?: number;
  noisy?: boolean;
  /**
   * steady steps (or calls) over all pairs
   */
  samples?: number;
  /**
   * each pair's own numbers, for the pairs the estimate uses
   */
  perRun?: {
    eagerMs: number;
    compiledMs: number;
    speedup: number;
    steps: number;
    /**
     * schema 1.15: its pair number (from 1)
     */
    pair?: number;
    [k: string]: unknown;
  }[];
  /**
   * schema 1.14, per pair: its runs' steady steps whose nearest CPU probe read the host at its fast state (within 10 % of fastStateProbeMs); only those count (absent: runs without probes)
   */
  fastStateSteps?: {
    eager?: number;
    compiled?: number;
    [k: string]: unknown;
  }[];
  /**
   * schema 1.15: the pairs (from 1) whose two runs both have 8 steps (or all) at the host's fast state: only their fast-state steps count; [] when none: then every pair counts with all its steps and slowHost widens the interval
   */
  pairsUsed?: number[];
  /**
   * schema 1.15: the other pairs, why (e.g. "eager never ran at the host's fast state"), and their own speedup over all their steps (the interval reaches them while one pair is used)
   */
  pairsNotUsed?: {
    pair: number;
    why: string;
    speedup: number | null;
    [k: string]: unknown;
  }[];
  /**
   * schema 1.16, interleaved: pairs of adjacent blocks (one eager, one compiled) with values both ways: the interval rests on them
   */
  pairs?: number;
  /**
   * schema 1.16: each pair's own eager/compiled ratio
   */
  pairRatios?: number[];
  /**
   * schema 1.16: signature: one input signature; matched-mix: per signature, each weighed by the script's calls of it; pooled (1.21: chosen where fewer than half of either side's steady steps have a signature the other side has too): a growing cache's lengths, steps pooled (ABBA cancels a linear growth), the number per step (per token) over the lengths the script ran
   */
  comparedBy?: 'signature' | 'matched-mix' | 'pooled';
  /**
   * schema 1.16: per compared signature
   */
  signatures?: {
    signature: string;
    eagerMs: number;
    compiledMs: number;
    speedup: number;
    /**
     * steady steps each way
     */
    steps: Sides;
    /**
     * the script's calls of it
     */
    calls: number;
    [k: string]: unknown;
  }[];
  /**
   * schema 1.16: signatures with steady values on one side only
   */
  notCompared?: string[];
  /**
   * schema 1.15: the host's fast state: the third-fastest CPU probe (ms) of all runs of the profile
   */
  fastStateProbeMs?: number;
  /**
   * schema 1.15: probes more than 10 % faster than fastStateProbeMs: the host ran faster than any state the steps could count in (the whole profile may have run slow)
   */
  fasterProbesMs?: number[];
  /**
   * schema 1.14 (1.15: only when no pair met the fast state on both sides): per side, the median CPU probe beside its steps over fastStateProbeMs; the interval then reaches speedup / eager's ratio and speedup x compiled's ratio
   */
  slowHost?: {
    eager?: number;
    compiled?: number;
  };
  [k: string]: unknown;
}
/**
 * schema 1.17: why, per step (measure/step_work.py counts it, report/step_work_text.py says it)
 */
export interface StepWork {
  eager: StepWorkSide;
  compiled: StepWorkSide;
  /**
   * the runner's line, e.g. (ResNet-50 on an H100) "GPU work 2.54 → 1.53 ms per step, 290 → 114 kernels; GPU busy 67 % → 65 % of the wall step: both ways launch-bound: …; of the 1.44 ms saved per step, 1.01 ms is GPU work and 0.43 ms the GPU's idle time (the CPU's side)"
   */
  text: string;
}
export interface StepWorkSide {
  /**
   * cuda: the GPU's kernels, copies and fills; cpu: the step's outermost CPU ops (no separate device: ATen ops, a compiled graph's call counted as one op)
   */
  device: 'cuda' | 'cpu';
  /**
   * ProfilerStep spans in the side's trace
   */
  steps: number;
  /**
   * cuda: the GPU's busy time (union of its activities); cpu: time in the outermost ops; per step
   */
  workMsPerStep: number;
  /**
   * cuda: kernels, copies and fills; cpu: outermost ops; per step, counted in the trace
   */
  kernelsPerStep: number;
  /**
   * the profiled steps' own wall time (profiler overhead included)
   */
  profiledStepMs: number;
  /**
   * the wall step the work is set against
   */
  wallMs: number | null;
  /**
   * steady steps: inSitu.step's (a GPU's kernels); profiled steps: on a CPU, or without a steady step, the profiled steps' own (a CPU op's time under the profiler carries its overhead)
   */
  wallFrom: 'steady steps' | 'profiled steps';
  /**
   * work over the wall step, in percent (at most 100)
   */
  busyPct: number | null;
  /**
   * cuda: the GPU sat idle LAUNCH_BOUND_IDLE_PCT (30) % of the wall step or more, waiting on the CPU's launches; cpu: always false
   */
  launchBound: boolean;
}
export interface CompileFailure {
  /**
   * what in the user's code made the compiled call fail, e.g. a branch on a tensor's value
   */
  what: string;
  fix: string;
  /**
   * the user's line that caused it
   */
  location: null | SourceLocation;
  message?: string;
  /**
   * the call that failed
   */
  index?: number;
  [k: string]: unknown;
}
/**
 * schema 1.21: what the region's changing shapes did (script/shape_facts.py); its sentences: report/shape_words.py
 */
export interface RegionShapes {
  /**
   * torch.compile's dynamic= as the script wrote it (null: not given: automatic dynamic)
   */
  dynamic: boolean | null;
  /**
   * distinct input signatures of the recorded calls
   */
  signatures: number;
  /**
   * graphs the compiler made for the region
   */
  graphs: number | null;
  /**
   * each input dimension whose size changed, most sizes first: from the signatures, named by the guard that failed on it where one did, and from size guards on tensors no signature shows (a library's cache)
   */
  changed: ShapeChange[];
  /**
   * the most-changed dimension grew call after call, restarting with each sequence: a decode loop
   */
  loop: null | DecodeLoop;
  /**
   * dynamic=None: a size change recompiled once, and the size-generic graph then served new sizes
   */
  automaticDynamic: null | AutomaticDynamic;
  /**
   * Dynamo's recompile limit was hit: the frame ran eagerly for sizes it had no graph for
   */
  recompileLimit: null | RecompileLimit;
  /**
   * a warm-up at another shape: its graph served no real call, and the first real call recompiled
   */
  warmup: null | WarmupShape;
  /**
   * reduce-overhead (or max-autotune) on a GPU: the sizes compiled code ran, each recording a CUDA graph of its own (null: not CUDA graphs, or one size)
   */
  cudaGraphSizes: number | null;
  /**
   * schema 1.23, CUDA graphs on a GPU: the device memory the region's CUDA graphs took, what the graphs' memory pools grew by over the calls that warmed up and recorded a size's graph (their calls' cudaGraphBytes, summed); null: not read
   */
  cudaGraphBytes?: number | null;
  /**
   * schema 1.22: fixes the profile's budget left out are one click away; null or absent: none was
   */
  measure?: null | ShapeFixOffer;
  /**
   * schema 1.22 (1.21: one, `fix`): the shape fixes worth a run for this story, first the one a single run measures: the script run once more per fix with it applied at the torch.compile line, the compiled call's inputs or the warm-up (one fix per region per run), observed and interleaved against eager as the script's own run (script/shape_fix.py); absent: no fix for this story
   */
  fixes?: ShapeFix[];
}
export interface ShapeChange {
  /**
   * its keyword or guard name, else 'input N' (its position)
   */
  input: string;
  dim: number;
  /**
   * the distinct sizes seen, ascending (the first 64)
   */
  sizes: number[];
  /**
   * how many distinct sizes
   */
  count: number;
}
export interface DecodeLoop {
  /**
   * the size grew by this much a call (1: a token at a time: the number reads per token)
   */
  growsBy: number;
  /**
   * sequences: the size restarted this many times less one
   */
  repetitions: number;
  callsPerRepetition: number;
}
export interface AutomaticDynamic {
  /**
   * the call whose size change recompiled with the dimension symbolic
   */
  call: number;
  /**
   * that recompile
   */
  seconds: number | null;
  /**
   * later calls that graph served without compiling
   */
  servedCalls: number;
}
export interface RecompileLimit {
  limit: number | null;
  graphs: number | null;
  /**
   * distinct input signatures
   */
  sizes: number;
  /**
   * signatures past the limit: every compiled-side call of them ran eagerly
   */
  eagerSizes: number;
  /**
   * the script's calls of those signatures, at either stance of the in-situ switch: the calls that run eagerly as written
   */
  eagerCalls: number;
  calls: number;
  /**
   * the first call that ran eagerly
   */
  fromCall: number | null;
}
export interface WarmupShape {
  input: string;
  dim: number;
  warmupSize: number;
  realSize: number;
  warmupLine: number | null;
  realLine: number | null;
  /**
   * schema 1.36, a notebook: the cell of warmupLine (its index in the notebook's cells), warmupLine then the line within it. Absent: a script, older reports
   */
  warmupCell?: number;
  /**
   * schema 1.36, a notebook: the cell of realLine, as warmupCell
   */
  realCell?: number;
  /**
   * the first real call: it recompiled
   */
  realCall: number;
  recompileSeconds: number | null;
  realCalls: number;
  /**
   * schema 1.41: the sizes the real calls passed in that dimension, ascending, where they vary (batches that follow traffic; realSize is the first real call's, realCalls every later call): the fix is a warm-up at one of them with the dimension marked dynamic. Absent: one size, or an older report
   *
   * @minItems 2
   */
  realSizes?: [number, number, ...number[]];
}
export interface ShapeFixOffer {
  /**
   * the fix runs the budget left out
   */
  runs: number;
  /**
   * about how long they take
   */
  seconds: number;
  /**
   * the editor's CodeLens / Quick Fix that runs them (--shape-fix on): 'Measure the shape fix (runs the script once more, about 12 s)' (report/shape_text.py)
   */
  title: string;
}
export interface ShapeFix {
  /**
   * in the user's terms: 'dynamic=True', x's dimension 0 marked dynamic (mark_dynamic), 'a warm-up at batch 5', 'buckets of 8, 16, 32'
   */
  fix: string;
  kind: 'dynamic' | 'mark-dynamic' | 'warmup-shape' | 'buckets';
  measured: boolean;
  /**
   * not measured: why, and how to measure it (--shape-fix on)
   */
  why: string | null;
  /**
   * not measured: budget, timeout (--shape-fix on measures it), failed (the run with it), refused (buckets that changed the outputs), no-call
   */
  whyCode?: 'budget' | 'timeout' | 'failed' | 'refused' | 'no-call';
  /**
   * buckets: the sizes padded to
   */
  buckets?: number[];
  /**
   * graphs the compiler made for the region with the fix
   */
  graphs?: number | null;
  /**
   * the compiler's time for the region with the fix
   */
  compileSeconds?: number | null;
  /**
   * with the fix: the script's own steps in situ, compiled against eager
   */
  step?: null | InSituSpeedup;
  call?: null | InSituSpeedup;
  /**
   * with the fix: compiled-side calls Dynamo still ran eagerly
   */
  eagerFallback?: null | {
    calls: number;
    of: number;
  };
  /**
   * a warm-up fix: the first real call's own time with it (as written it recompiled)
   */
  realCallMs?: number | null;
  /**
   * the run with the fix, start to end
   */
  wallSeconds?: number | null;
  /**
   * schema 1.24: the caches each side's compile seconds compiled from: Inductor's FX graph and AOT autograd cache lookups in each run's compiles of the region, and how many hit. fix: the fix run, which compiles into an empty cache of its own (hits only from its own compiles); script: the script's run, in the user's caches (a hit: a warm cache)
   */
  compileCache?: {
    fix: CacheUse;
    script: CacheUse;
  };
}
export interface CacheUse {
  hits: number;
  lookups: number;
}
/**
 * schema 1.14, script mode: how the script was measured in situ, compiled against eager (per region: regions[].inSitu)
 */
export interface ReportInSitu {
  /**
   * schema 1.16: interleaved: the observed run itself, its stance switched between blocks of its calls (torch >= 2.6); separate-runs: whole runs of the script each way (torch < 2.6: no torch.compiler.set_stance). Absent: older reports (separate runs)
   */
  method?: 'interleaved' | 'separate-runs';
  /**
   * schema 1.16, interleaved: {startCall, blockCalls, order, fixedForRanks, topLevelCalls, heldCalls (1.17), stoppedBecause}: the first top-level call of the interleaving, calls per block (ABBA, eager first), whether the schedule was fixed by call count (torchrun ranks), the script's top-level region calls, the calls inside the profiled windows (they extend their block), and why switching stopped (the script set a stance itself)
   */
  schedule?: {
    [k: string]: unknown;
  };
  /**
   * schema 1.17, interleaved: per side (eager, compiled), the profiled window of the script's own steps opened at that side's first block; null: none was taken
   */
  windows?: null | {
    [k: string]: InSituWindow;
  };
  /**
   * separate runs: pairs of runs (one compiled, one eager) that both wrote their timings (0 when interleaved)
   */
  pairs: number;
  /**
   * the runs in the order they ran, e.g. compiled-1, eager-1, eager-2, compiled-2 (a second pair runs eager first)
   */
  order: string[];
  /**
   * why a second pair ran (the first region whose step speedup could not support a verdict yet), or null
   */
  repeatedBecause?: string | null;
  runs: InSituRun[];
  /**
   * why the in-situ runs stopped early, e.g. they used their share (half) of --timeout; null: they ran to their end
   */
  stoppedBecause?: string | null;
  /**
   * the whole script's wall time per run, both ways (its imports excluded, its compiles included)
   */
  wallSeconds: null | {
    compiled: number[];
    eager: number[];
    [k: string]: unknown;
  };
  /**
   * schema 1.29, separate runs: the whole script's time both ways in the runner's words (report/in_situ_text.wall_text): 'whole script, fastest of 2 runs each: as written 5.5 s · compiling off 0.69 s'. Absent: no wall time recorded, or a report before 1.29 (the CLI says it from wallSeconds)
   */
  wallText?: string;
  /**
   * why no in-situ run was made (--no-in-situ), or null
   */
  skipped: string | null;
  [k: string]: unknown;
}
export interface InSituWindow {
  /**
   * the region whose calls mark the steps
   */
  region?: string | null;
  /**
   * its call that opened the window (the profiler's unrecorded warmup step)
   */
  fromCall?: number | null;
  /**
   * steps in the trace, each a call of the region and what ran until its next: its calls fromCall + 1 to fromCall + steps, all in the window's one block (the window ends before the first call outside it: a new signature compiling in an eager block)
   */
  steps?: number;
  /**
   * why there is no trace
   */
  skipped?: string | null;
  /**
   * the Chrome trace, relative to the report
   */
  trace?: string | null;
}
export interface InSituRun {
  /**
   * its timings (in_situ/<side>-<pair>[-<mode>].json; per call of a region: ms, stepMs, compiles, and where the host CPU was probed before it, probeMs and observer: true)
   */
  file?: null | RelPath;
  side: 'compiled' | 'eager';
  pair: number;
  /**
   * a what-if mode every torch.compile of the script was set to (--modes), or null: as written
   */
  mode?: string | null;
  status: string;
  wallSeconds?: number | null;
  error?: null | RunError;
  /**
   * eager runs: how compiling was turned off, e.g. torch.compiler.set_stance("force_eager")
   */
  switch?: string | null;
  /**
   * schema 1.20: the status the script exited with in this run (0: it ended normally; null: the run wrote no timings)
   */
  scriptExitCode?: number | null;
  [k: string]: unknown;
}
/**
 * one rank of a torchrun job: how it ended and what it compiled and ran
 */
export interface RankEntry {
  /**
   * the rank (torch.distributed.get_rank())
   */
  rank: number;
  /**
   * schema 1.27: the rank and how it ended, in the runner's words (report/rank_text.py): 'rank 1 (host-a, node 0): error — CUDA out of memory (at train.py:88)'; the CLI's rank line starts with it. Absent: a report before 1.27
   */
  labelText?: string;
  /**
   * schema 1.25: its error with the line it failed at, in the runner's words (report/rank_text.py). Absent: no error, or a report before 1.25
   */
  errorText?: string;
  /**
   * schema 1.36: the rank's recompiles as the events they were, where the count is not the calls that set them off, factsText and (1.39) the rank table row's notes alike: 'recompiled at call 3 (2 compiles)' (one call recompiled two frames; the region's heading says 'recompiled at call 3 on rank 1'), 'recompiled at calls 3, 5 and 8 (5 compiles)', 'recompiled at call 3 of Model (2 compiles)' with several regions (reports of s29 said '2 at call 3', read after the word 'recompiles'). Absent: each recompile was a call of its own, or the calls are not known (report/rank_text.py recompile_calls)
   */
  recompilesText?: string;
  /**
   * schema 1.39: the rank table's recompiles cell, the calls that set them off and the compiles they made, short: 'at call 3 (2 compiles)', 'at calls 3, 5, 8 (5 compiles)', 'at call 3 of Model (2 compiles)' with several regions (before it the cell held recompilesText, a sentence in a column of counts, review 11 I10/J6). Absent: none, or the calls are not known (the count alone; report/rank_text.py recompile_cell)
   */
  recompilesCell?: string;
  /**
   * schema 1.25: what it compiled and ran in words (graphs, breaks, recompiles, compile time, FX graph cache, collectives; report/rank_text.py). Absent: none recorded, or a report before 1.25
   */
  factsText?: string;
  /**
   * schema 1.25: each region's calls and steady time per call on this rank, in words (report/rank_text.py). Absent: a report before 1.25
   */
  regionsText?: string[];
  /**
   * schema 1.25: after a timeout, where it was: the collective it waited in and the line (report/rank_text.py). Absent: no stack, or a report before 1.25
   */
  waitingText?: string;
  /**
   * path relative to the report directory
   */
  trace?: string | null;
  /**
   * ok: finished; error: its script or the runner failed; stopped: SIGTERM (another rank failed, cancel, timeout) before its script ended, what it had is kept (also when its script then failed because the stop took its peers); killed: it wrote no report (its compiler log was read); missing (attach, schema 1.14): it wrote no folder at all. Absent for ranks read from logs alone (inspect): how they ended is not in a log
   */
  status?: 'ok' | 'error' | 'stopped' | 'killed' | 'missing';
  /**
   * attach: the host it ran on
   */
  host?: string;
  /**
   * attach: its launcher's node rank
   */
  nodeRank?: number;
  /**
   * attach: its rank on its node
   */
  localRank?: number;
  /**
   * inspect: compiles that failed
   */
  compileFailures?: number;
  /**
   * inspect: times Dynamo restarted a frame's analysis
   */
  restarts?: number;
  /**
   * its worker's exit code, when it finished
   */
  exitCode?: number | null;
  error?: null | RunError;
  /**
   * status error: the innermost user line of its traceback
   */
  failedAt?: null | SourceLocation;
  /**
   * path relative to the report directory
   */
  report?: string | null;
  window?: ProfileWindow;
  /**
   * path relative to the report directory
   */
  torchTraceLog?: string | null;
  graphCount?: number | null;
  graphBreaks?: number | null;
  recompiles?: number | null;
  /**
   * compile time in the script (Dynamo's entire-frame time)
   */
  compileSeconds?: number | null;
  cache?: null | Cache;
  /**
   * per region: calls and the steady state of the script's own calls on this rank
   */
  regions?: {
    id: string;
    name: string;
    callCount: number;
    /**
     * the script's own calls after the last compile: from which call, the median duration of its most frequent signature's calls (before schema 1.31: of every signature's)
     */
    steadyState?: null | {
      fromCall: number;
      medianMs: number;
      spreadPct?: number | null;
      /**
       * schema 1.31: the input signature whose calls the median is of, the most frequent among the steady calls (a median pooled over signatures mixes their times). Absent: older reports (pooled), calls without a signature
       */
      signature?: string;
      /**
       * schema 1.31: how many input signatures the steady calls had
       */
      signatures?: number;
      /**
       * schema 1.31: how many calls the median is of
       */
      calls?: number;
      /**
       * schema 1.25: the first-call chart's tooltip for it, in the runner's words (report/chart_text.py)
       */
      said?: string;
      /**
       * schema 1.25: its label on the first-call chart (report/chart_text.py)
       */
      label?: string;
      /**
       * s27: the in-situ number's steady state, as the story says it: from inSitu.steadyFromCall, the median of the compiled calls it counted (inSitu.call.compiledMs); one steady state per region (report/chart_text.py)
       */
      inSitu?: boolean;
      [k: string]: unknown;
    };
    /**
     * schema 1.35: the graphs the region made on this rank, as its own report counts them (the merged region's compiler holds every rank's breaks and recompiles, each with its ranks; its headline and facts say these counts by rank: report/rank_text.region_counts). Absent: the rank recorded no compiler record for it, or an older report
     */
    graphCount?: number | null;
    /**
     * schema 1.35: the region's graph breaks on this rank, each site's count summed (report/mode_line.break_count). Absent as graphCount
     */
    graphBreaks?: number | null;
    /**
     * schema 1.35: the region's recompiles on this rank. Absent as graphCount
     */
    recompiles?: number | null;
  }[];
  /**
   * the collectives of its profiled steps, in the order issued (null without a trace)
   */
  collectives?: string[] | null;
  /**
   * after a timeout: where its main thread was
   */
  stack?: {
    /**
     * the torch.distributed call it was blocked in (e.g. all_reduce), null when in none
     */
    waitingIn?: string | null;
    location?: null | SourceLocation;
  } | null;
  /**
   * path relative to the report directory
   */
  stacks?: string | null;
  [k: string]: unknown;
}
export interface Divergence {
  kind: 'recompile' | 'graph-break' | 'graph-count' | 'cache' | 'collectives';
  /**
   * warning: cache (the same graphs, compiled on one rank and loaded on another: compile time, not behaviour); `check` fails on errors
   */
  severity?: 'error' | 'warning';
  /**
   * one sentence, e.g. rank 1 recompiled forward at call 3 — size mismatch at index 0 (expected 16, actual 12) — rank 0 did not: the ranks ran different graphs
   */
  message: string;
  /**
   * the user's line, when one is known
   */
  location?: null | SourceLocation;
  /**
   * the ranks that did what the others did not
   */
  ranks: RankList;
  details?: {
    [k: string]: unknown;
  };
  /**
   * s28, a recompile on some ranks: the Quick Fixes of the recompile sites it says (each site then marked inDivergence, report/rank_text.py), offered at its line. Absent: none
   */
  quickFixes?: QuickFix[];
}
/**
 * a report `inspect` read from compiler logs (schema 1.14): the logs it read and what it could not use
 */
export interface LogsRead {
  files: {
    /**
     * absolute path of the log
     */
    path: string;
    /**
     * from its name (rank_N) or its records
     */
    rank: number | null;
    records: number;
    /**
     * lines that are no record (a cut or damaged log), skipped
     */
    unreadableLines?: number;
    /**
     * records whose JSON payload does not parse, skipped
     */
    damagedPayloads?: number;
    /**
     * written by Compile Lens (its markers split the log into modes)
     */
    marked?: boolean;
  }[];
  /**
   * files skipped, damaged lines, ranks with several logs
   */
  warnings: string[];
  /**
   * path relative to the report directory
   */
  attached?: string | null;
  /**
   * schema 1.15: the attempts of an attached job that torchrun restarted after (--max-restarts), oldest first; their folders are kept as they are, the newest attempt is the run
   */
  attempts?: EarlierAttempt[];
  /**
   * schema 1.27: the attempts torchrun restarted after, in one sentence (report/rank_text.py): 'restarted once: attempt 0 failed on rank 1 at train.py:88 (this report is attempt 1's; the earlier attempts' folders are kept)'. Absent: no restart, or a report before 1.27
   */
  restartsText?: string;
  /**
   * written by the extension or CLI after the runner: how each user file the logs name was mapped onto the workspace (same: the path itself; rule: a FROM=TO rule; suffix: the longest matching path suffix; ambiguous or missing: left at the log's path)
   */
  sourceMap?: SourceMapping[];
}
export interface EarlierAttempt {
  /**
   * 0: the first (DIR/ranks/), n: DIR/attempt<n>/ranks/
   */
  attempt: number;
  folder: RelPath;
  status: 'ok' | 'error' | 'partial';
  /**
   * the rank whose failure ended the attempt
   */
  failedRank: number | null;
  /**
   * its innermost user line
   */
  failedAt: null | SourceLocation;
  message: string | null;
}
