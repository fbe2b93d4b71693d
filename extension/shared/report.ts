// TypeScript view of report.json. The JSON Schema in native-runner/ is the contract; these types mirror it
// and validateReport() checks a parsed file against the schema itself, so the two cannot drift silently.
import Ajv2020 from 'ajv/dist/2020.js';
import schema from '../../native-runner/compile_lens_runner/report/report.schema.json';

export type ErrorKind =
  | 'torch-missing' | 'torch-too-old' | 'triton-missing' | 'bad-target' | 'user-code' | 'compile'
  | 'out-of-memory' | 'timeout' | 'cancelled' | 'mismatch' | 'internal';

export interface RunError {
  kind: ErrorKind;
  message: string;
  fix: string;
  traceback?: string | null;
}

export interface SourceLocation {
  file: string;
  line: number;
  function?: string | null;
  code?: string | null;
  /** notebooks: index of the cell whose code this is; `line` is then 1-based within that cell */
  cell?: number | null;
}

export interface Timing {
  medianMs: number;
  /** the per-call time the speedup uses: the fastest round (schema 1.4) */
  estimateMs?: number;
  /** why no more pairs were added (schema 1.4) */
  stopReason?: 'planned' | 'converged' | 'pair-cap' | 'time-cap';
  /** eager rounds: the CPU probe (ms of fixed pure-Python work) taken just before each round */
  cpuProbeMs?: number[];
  minMs: number;
  maxMs: number;
  spreadPct: number;
  rounds: number[];
  callsPerRound: number;
  method: string;
  extraRounds?: number;
  /** false when a compile ran inside the timed region, or when Dynamo ran the timed compiled calls eagerly */
  valid?: boolean;
  invalidReason?: string;
  /** only in discardedTimings */
  speedup?: number | null;
}

export interface PrecisionSettings {
  cudaMatmulAllowTf32?: boolean | null;
  cudnnAllowTf32?: boolean | null;
  float32MatmulPrecision?: string | null;
}

export interface Correctness {
  ok: boolean;
  /** largest |compiled - eager| */
  maxAbsError: number | null;
  dtype?: string | null;
  atol?: number | null;
  rtol?: number | null;
  message?: string | null;
  /** what both sides were compared with when they differed beyond tolerance (schema 1.4) */
  reference?: 'none' | 'fp64' | 'eager-tf32-off' | 'unavailable';
  referenceNote?: string | null;
  eagerRmse?: number | null;
  compiledRmse?: number | null;
  multiplier?: number | null;
  precision?: PrecisionSettings;
}

/** schema 1.17 (a kind's name in 1.16): a mechanical edit of the user's file the editor offers as a Quick Fix. Its
 * texts are the runner's (compiler/quick_fixes.py); editor/quickFixes.ts applies it. */
export interface QuickFix {
  kind: 'fastpath-off' | 'move-print' | 'compile-dynamic' | 'static-address' | 'warmup-shape';
  title: string;
  /** settings: the statement inserted after the file's imports, and the comment that says why */
  statement?: string;
  comment?: string;
  /** edits the runner worked out from the source: replace `expect` at 1-based `line`, 0-based columns, with `text` */
  edits?: { line: number; column: number; endColumn: number; expect: string; text: string }[];
}

/** A guard failure in the user's terms (schema 1.4). */
export interface Explanation {
  what: string;
  fix: string;
  /** schema 1.16: a mechanical edit the editor offers as a Quick Fix (compile-dynamic; warmup-shape, 1.17) */
  quickFix?: QuickFix | null;
}

export interface KernelProvenance {
  name: string;
  compileId?: string | null;
  atenOps: string[];
  sourceLines: SourceLocation[];
  /** 1-based line in its compile's outputCode: the definition, or an extern kernel's call (schema 1.5) */
  codeLine?: number | null;
  /** µs per profiled step in this mode's profile; null when unknown or ambiguous (schema 1.5) */
  usPerStep?: number | null;
}

/** A guard of an earlier compile that failed, which made Dynamo compile again (schema 1.5). */
export interface FailedGuard {
  /** the compile whose guard failed */
  compileId: string | null;
  reason: string;
  /** that compile's guard file */
  guards: string | null;
  /** 1-based line of the guard in that file; null when not found there */
  line: number | null;
  guard: string | null;
}

/** What the compiler made for one compile id, as files in the report directory (schema 1.5). */
export interface CompileArtifacts {
  compileId: string;
  outputCode: string | null;
  guards: string | null;
  guardCount?: number | null;
  fxGraph: string | null;
  failedGuards: FailedGuard[];
}

/** A compile phase (or, with `cache`, a cache lookup) of one compile id, ms from the mode's first (schema 1.5). */
export interface CompilePhase {
  compileId: string;
  name: string;
  startMs: number;
  durMs: number;
  depth: number;
  cache?: 'hit' | 'miss' | 'bypass';
  cacheHit?: boolean;
}

export interface CompiledFrame {
  compileId: string | null;
  function?: string | null;
  location?: SourceLocation | null;
  seconds: number;
}

export interface CudaGraphStatus {
  compileId: string | null;
  /** unknown (schema 1.16): set up for CUDA graphs, and the log (made elsewhere) cannot say what happened; reason says why */
  status: 'captured' | 'skipped' | 'not-captured' | 'unknown';
  reason?: string | null;
  /** schema 1.16: a skip in the user's terms */
  explanation?: CudaGraphSkip;
  /** schema 1.16: PyTorch's other CUDA-graph warnings about this graph (many-sizes), in the same form */
  hints?: CudaGraphSkip[];
}

/** Why PyTorch skipped CUDA graphs for a graph, in the user's terms (schema 1.16; the runner's compiler/cudagraphs.py). */
export interface CudaGraphSkip {
  kind: string;
  what: string;
  fix?: string | null;
  cost: string;
  /** the line PyTorch names: the mutating op, the CPU tensor's use */
  location?: SourceLocation | null;
  tensors?: string[];
  /** schema 1.17: static-address (mutated inputs), where the source says which statements made the tensors */
  quickFix?: QuickFix | null;
}

/** One of PyTorch's performance hints, at the user's line where Inductor was lowering one of its ops (schema 1.16). */
export interface PerfHint {
  kind: string;
  op?: string | null;
  what: string;
  fix?: string | null;
  message: string;
  compileIds?: (string | null)[];
  location: SourceLocation | null;
}

/** A graph break in the user's terms (schema 1.16; the runner's pattern table, docs/GRAPH-BREAKS.md). */
export interface BreakExplanation {
  pattern: string;
  title?: string;
  what: string;
  /** the operator, function or method that broke */
  broke?: string | null;
  fix: string;
  /** a mechanical edit the editor offers as a Quick Fix: fastpath-off, move-print */
  quickFix?: QuickFix | null;
}

/** schema 1.16: a region called whose frames held no graph: every call ran eagerly */
export interface NoCompiledCode {
  headline: string;
  cause: string;
  location?: SourceLocation | null;
  fix?: string | null;
  gbId?: string | null;
  pattern?: string | null;
}

export interface GraphBreak {
  reason: string;
  hint?: string | null;
  gbId?: string | null;
  docUrl?: string | null;
  location: SourceLocation | null;
  userStack: SourceLocation[];
  compileId?: string | null;
  /** a torchrun job (schema 1.9): the ranks it happened on */
  ranks?: number[];
  /** graph-break records at this site with this reason (schema 1.14) */
  count?: number;
  /** schema 1.16: the frame Dynamo stopped in, a library's too */
  brokeAt?: (SourceLocation & { library?: boolean }) | null;
  /** schema 1.16 */
  explanation?: BreakExplanation | null;
}

export interface Recompile {
  reason: string;
  compileId?: string | null;
  location: SourceLocation | null;
  trigger?: string | null;
  inTimedRegion?: boolean;
  allReasons?: string[];
  /** the reason with compared numbers abstracted: self.calls == N (schema 1.4) */
  pattern?: string;
  /** PyTorch's own hint from the guard failure text */
  hint?: string | null;
  explanation?: Explanation | null;
  /** a torchrun job (schema 1.9): the ranks it happened on */
  ranks?: number[];
}

/** Recompiles at one source line with one guard pattern (schema 1.4). */
export interface RecompileSite {
  pattern: string;
  reason: string;
  count: number;
  compileIds?: (string | null)[];
  values?: string[];
  location: SourceLocation | null;
  trigger?: string | null;
  inTimedRegion?: boolean;
  hint?: string | null;
  explanation?: Explanation | null;
  /** a torchrun job (schema 1.9): the ranks it happened on */
  ranks?: number[];
}

export interface CompilerInsight {
  graphCount: number;
  graphBreaks: GraphBreak[];
  recompiles: Recompile[];
  recompileSites?: RecompileSite[];
  guardCount?: number | null;
  compileSeconds?: Record<string, number>;
  torchTraceLog?: string | null;
  compiledFrames?: number;
  frames?: CompiledFrame[];
  cache?: Record<string, Record<string, number>>;
  cudaGraphs?: CudaGraphStatus[];
  /** schema 1.16: PyTorch's performance hints the runner recorded (its perf_hints channel) */
  perfHints?: PerfHint[];
  kernels?: KernelProvenance[];
  compileFailures?: Record<string, unknown>[];
  /** each time Dynamo restarted a frame's analysis (schema 1.14) */
  restarts?: { compileId?: string | null; reason: string }[];
  compiles?: CompileArtifacts[];
  phases?: CompilePhase[];
}

export interface ModeResult {
  mode: string;
  status: 'ok' | 'error';
  error: RunError | null;
  compileSeconds: number | null;
  timing: Timing | null;
  speedup: number | null;
  breakEvenCalls?: number | null;
  trace: string | null;
  kernelsPerStep: number | null;
  compiler: CompilerInsight | null;
  peakMemoryBytes?: number | null;
  eagerTiming?: Timing | null;
  /** per profiled call, CPU time outside compiled graphs (schema 1.2) */
  outsideGraphsMsPerStep?: number | null;
  speedupSpreadPct?: number | null;
  speedupIqrPct?: number | null;
  /** 'fastest-rounds' (schema 1.4) */
  speedupEstimator?: string;
  /** where the next run's speedup may land (schema 1.4) */
  speedupInterval?: {
    low: number; high: number; floorPct?: number; noisySides?: ('eager' | 'compiled')[];
    /** eager ran faster in another mode's pairs: the host stayed slower while this mode was timed */
    runEager?: { eagerMs: number; bestEagerMs: number; compiledMs?: number; basis?: 'fastest-round' | 'cpu-normalized'; cpuProbeMinMs?: number };
    /** sides that never ran at the host's fastest CPU state of the run: how much slower its probe read (schema 1.10) */
    slowHost?: { eager?: number; compiled?: number };
  };
  speedupMedianRatio?: number | null;
  /** false: Dynamo ran timed compiled calls eagerly; null: not known */
  ranCompiled?: boolean | null;
  /** the timed compiled calls ran eagerly: timing invalid, speedup null */
  fallback?: { eagerFrames?: number; frameEntries?: number; cause: string | null; fix: string | null };
  /** CUDA: share of a profiled step the GPU sat idle between kernels */
  gpuIdlePct?: number | null;
  discardedTimings?: Timing[];
  correctness?: Correctness;
  compilerError?: RunError | null;
  scriptExitCode?: number;
}

export type GradMode = 'inference' | 'no_grad' | 'grad';

/** One call of a script-mode region, as the script made it. */
export interface RegionCall {
  index: number;
  ms: number | null;
  clock?: 'cuda-events' | 'perf-counter';
  signature: string;
  gradMode?: GradMode;
  event: 'compiled' | 'recompiled' | 'cached';
  compileIds?: string[];
  compileSeconds?: number | null;
  recompileReason?: string | null;
  /** false: Dynamo fell back to eager for this call */
  ranCompiled?: boolean | null;
  fallbackReason?: string | null;
  /** a torchrun rank's call inside its profile window: the profiler's overhead is in its duration (schema 1.9) */
  profiled?: boolean;
  /** the call carried Compile Lens's state check or input capture: left out of the steady state (schema 1.14) */
  observer?: boolean;
  /** schema 1.16, interleaved in situ: the stance it ran at (eager on purpose: its ranCompiled is null) and its block (0: warm-up) */
  side?: 'compiled' | 'eager';
  block?: number;
  /** schema 1.16: from this call's start to the region's next call's start, and the compiles that started in it */
  stepMs?: number | null;
  stepCompiles?: number | null;
}

export interface RegionSignature {
  signature: string;
  calls: number;
  firstCall?: number;
  lastCall?: number;
  measured?: boolean;
}

/** A replayed measurement of a region: 'as-written' (the script's compiled callable) or a what-if mode. */
export interface RegionMeasurement extends ModeResult {
  signature?: string;
  why?: 'most-frequent' | 'last';
  eagerTrace?: string | null;
  eagerKernelsPerStep?: number | null;
}

export interface Recommendation {
  /** null means: don't compile (verdict stay-eager) or no verdict (verdict none) */
  mode: string | null;
  reason: string;
  /** compile-for-longer-runs (schema 1.16): faster per step, but the compile pays back only after more steps than this run made */
  verdict?: 'compile' | 'compile-for-longer-runs' | 'stay-eager' | 'none';
}

/** Script mode: a callable torch.compile (or nn.Module.compile) returned while the script ran. */
/** schema 1.14: a speedup from the script's own steps or calls in the in-situ runs (README: in situ) */
export interface InSituSpeedup {
  eagerMs: number;
  compiledMs: number;
  speedup: number;
  low: number;
  high: number;
  floorPct?: number;
  noisy?: boolean;
  samples?: number;
  perRun?: { eagerMs: number; compiledMs: number; speedup: number; steps: number; pair?: number }[];
  /** per pair: its runs' steady steps at the host CPU's fast state */
  fastStateSteps?: { eager: number; compiled: number }[];
  /** sides whose steps ran slower than the host's fast state (their probe over its probe): the interval was widened */
  slowHost?: { eager?: number; compiled?: number };
  /** schema 1.15: the pairs (from 1) whose two runs both met the host's fast state: only they count ([]: none did, all count) */
  pairsUsed?: number[];
  /** schema 1.15: the other pairs, why, and their own speedup over all their steps */
  pairsNotUsed?: { pair: number; why: string; speedup: number | null }[];
  /** schema 1.15: the CPU probe (ms) of the host's fast state, and probes that read it faster still */
  fastStateProbeMs?: number;
  fasterProbesMs?: number[];
  /** schema 1.16, interleaved: pairs of adjacent eager/compiled blocks the interval rests on, and each pair's ratio */
  pairs?: number;
  pairRatios?: number[];
  /** schema 1.16: one signature, per signature over the script's mix, or pooled (the signature changed every call) */
  comparedBy?: 'signature' | 'matched-mix' | 'pooled';
  signatures?: { signature: string; eagerMs: number; compiledMs: number; speedup: number; steps: { eager: number; compiled: number }; calls: number }[];
  notCompared?: string[];
}

/** schema 1.14: a compiled call that failed, at the user's line */
export interface CompileFailure {
  what: string;
  fix: string;
  location: SourceLocation | null;
  message?: string;
  index?: number;
}

/** [ms, stepMs, compiles in the step] per call; interleaved (schema 1.16): [ms, stepMs, compiles in the step, call index] */
export type InSituPoint = [number | null, number | null, number] | [number | null, number | null, number, number];

/** schema 1.14: a region's calls and steps in the in-situ runs, compiled against eager */
export interface StepWorkSide {
  device: 'cuda' | 'cpu';
  steps: number;
  workMsPerStep: number;
  kernelsPerStep: number;
  busyPct: number | null;
  launchBound: boolean;
}

export interface RegionInSitu {
  pairs: number;
  /** schema 1.16: interleaved (the observed run itself) or separate-runs (torch < 2.6) */
  method?: 'interleaved' | 'separate-runs';
  /** schema 1.16, interleaved: steady steps each way, and the steps left out by why */
  steadySteps?: { eager: number; compiled: number };
  dropped?: Record<string, number>;
  compiledCalls?: number;
  eagerCalls?: number;
  matchedCalls?: number;
  unmatched?: string | null;
  steadyFromCall?: number | null;
  warmupCalls?: number;
  step?: InSituSpeedup | null;
  call?: InSituSpeedup | null;
  lateCompiles?: number;
  lateCompileMs?: number;
  laterFirstCompiles?: number;
  compileSeconds?: number | null;
  compileSecondsPerRun?: (number | null)[];
  breakEvenSteps?: number | null;
  stepsMade?: number;
  paysBack?: boolean | null;
  regionSeconds?: { compiled: number; eager: number } | null;
  stepsPerSecond?: { compiled: number; eager: number } | null;
  reason?: string | null;
  series?: { compiled: InSituPoint[]; eager: InSituPoint[] };
  /** schema 1.17, interleaved: why, per step — the device's work both ways from each side's profiled window; `text` is
   * the runner's line */
  work?: { text: string; eager: StepWorkSide; compiled: StepWorkSide } | null;
  failure?: CompileFailure | null;
  whatIf?: { mode: string; step: InSituSpeedup | null; compileSeconds: number | null; breakEvenSteps: number | null; reason: string | null; failure: CompileFailure | null }[];
}

/** schema 1.14: how the script was measured in situ (1.16: interleaved in the observed run, or separate runs) */
export interface ReportInSitu {
  pairs: number;
  /** schema 1.16 */
  method?: 'interleaved' | 'separate-runs';
  schedule?: { startCall: number | null; blockCalls: number; order: string; fixedForRanks: boolean; topLevelCalls: number; stoppedBecause: string | null };
  order: string[];
  repeatedBecause?: string | null;
  runs: { file?: string | null; side: 'compiled' | 'eager'; pair: number; mode?: string | null; status: string; wallSeconds?: number | null; error?: RunError | null; switch?: string | null }[];
  wallSeconds: { compiled: number[]; eager: number[] } | null;
  skipped: string | null;
}

export interface Region {
  id: string;
  name: string;
  kind: 'module' | 'function' | 'module-compile';
  /** the user line that called torch.compile */
  location: SourceLocation | null;
  options?: Record<string, unknown>;
  /** where its first call ran: 'cpu', 'cuda', ... (schema 1.5) */
  device?: string | null;
  callCount: number;
  calls: RegionCall[];
  callsTruncated?: boolean;
  signatures?: RegionSignature[];
  compiler?: CompilerInsight | null;
  steadyState?: { fromCall: number; medianMs: number; spreadPct?: number | null } | null;
  /** leftOut (1.15): what a replay made when the script let go of the region left out, and why */
  replay: { replayable: boolean; reason: string | null; leftOut?: string | null };
  measurements: RegionMeasurement[];
  recommendation?: Recommendation | null;
  stoppedAfterCalls?: number | null;
  /** schema 1.16 */
  noCompiledCode?: NoCompiledCode | null;
  /** schema 1.14 */
  inSitu?: RegionInSitu | null;
}

export interface Report {
  schemaVersion: string;
  runner: { version: string };
  createdAt: string;
  status: 'ok' | 'partial' | 'error';
  error: RunError | null;
  environment: { python: string; torch: string | null; triton?: string | null; device: 'cpu' | 'cuda'; deviceName: string; platform: string };
  /** logs: read from compiler logs by `inspect` (schema 1.14): nothing was run or timed */
  target: { kind: 'sample' | 'function' | 'script' | 'logs'; name: string; file?: string | null; function?: string | null; line?: number | null };
  settings: Record<string, unknown>;
  eager: {
    timing: Timing | null; trace: string | null; kernelsPerStep: number | null; peakMemoryBytes?: number | null;
    /** CUDA (schema 1.4): share of a profiled step the GPU sat idle between kernels, and whether that makes eager launch-bound */
    gpuIdlePct?: number | null; launchBound?: boolean | null;
  };
  modes: ModeResult[];
  /** script mode (schema 1.3) */
  regions?: Region[];
  /** script mode (schema 1.14): the in-situ runs */
  inSitu?: ReportInSitu;
  /** a torchrun job (schema 1.5): one entry per rank; the runner adds it, the timeline shows `trace`s as a rank set */
  ranks?: RankEntry[];
  /** a torchrun job (schema 1.9): where its ranks ran differently (empty: they did not) */
  divergence?: Divergence[];
  recommendation: Recommendation;
  /** a report `inspect` read from compiler logs (schema 1.14) */
  logs?: LogsRead;
}

/** The logs `inspect` read and what it could not use (schema 1.14). */
export interface LogsRead {
  files: { path: string; rank: number | null; records: number; unreadableLines?: number; damagedPayloads?: number; marked?: boolean }[];
  warnings: string[];
  /** the job folder written by `attach` that was merged (restarted by torchrun: the newest attempt's) */
  attached?: string | null;
  /** schema 1.15: the attempts of an attached job that torchrun restarted after, oldest first */
  attempts?: EarlierAttempt[];
  /** how each user file was mapped onto the workspace (written after the runner, by the extension or CLI) */
  sourceMap?: SourceMapping[];
}

/** How one of the log's files was placed in the workspace (extension/shared/sourceMap.ts decides it). */
export type SourceMapping =
  | { status: 'same'; from: string; to: string }
  | { status: 'rule' | 'suffix'; from: string; to: string }
  | { status: 'ambiguous'; from: string; to: null; candidates: string[] }
  | { status: 'missing'; from: string; to: null; rule?: string };

/** An attempt of an attached job that torchrun restarted after: the rank whose failure ended it, and where. */
export interface EarlierAttempt {
  attempt: number;
  /** its job folder, relative to the report */
  folder: string;
  status: 'ok' | 'error' | 'partial';
  failedRank: number | null;
  failedAt: SourceLocation | null;
  message: string | null;
}

/** The script's own calls a rank profiled: from call `fromCall` of region `region`, one ProfilerStep per later call. */
export interface ProfileWindow {
  region: string | null;
  fromCall: number | null;
  steps: number;
  /** why there is no trace */
  skipped: string | null;
}

/** One rank of a torchrun job: how it ended, what it compiled and ran (schema 1.9; `rank` and `trace` since 1.5). */
export interface RankEntry {
  rank: number;
  /** the rank's torch.profiler trace, relative to the report directory */
  trace?: string | null;
  /** stopped: SIGTERM (another rank failed, cancel, timeout) before its script ended; killed: it wrote no report */
  status?: 'ok' | 'error' | 'stopped' | 'killed' | 'missing';
  /** attach (schema 1.14): where it ran */
  host?: string;
  nodeRank?: number;
  localRank?: number;
  /** inspect (schema 1.14): failed compiles and restarted analyses in its log */
  compileFailures?: number;
  restarts?: number;
  exitCode?: number | null;
  error?: RunError | null;
  /** status error: the innermost user line of its traceback */
  failedAt?: SourceLocation | null;
  /** the rank's own report.json */
  report?: string | null;
  window?: ProfileWindow | null;
  torchTraceLog?: string | null;
  graphCount?: number | null;
  graphBreaks?: number | null;
  recompiles?: number | null;
  compileSeconds?: number | null;
  cache?: Record<string, Record<string, number>> | null;
  regions?: { id: string; name: string; callCount: number; steadyState?: { fromCall: number; medianMs: number; spreadPct?: number | null } | null }[];
  /** the collectives of its profiled steps, in the order issued; null without a trace */
  collectives?: string[] | null;
  /** after a timeout: where its main thread was */
  stack?: { waitingIn: string | null; location: SourceLocation | null } | null;
  /** after a timeout: its Python stacks */
  stacks?: string | null;
}

/** Where the ranks of a torchrun job ran differently, in one sentence (schema 1.9). */
export interface Divergence {
  kind: 'recompile' | 'graph-break' | 'graph-count' | 'cache' | 'collectives';
  /** warning: cache (the same graphs, compiled on one rank and loaded on another); `check` fails on errors */
  severity?: 'error' | 'warning';
  message: string;
  location?: SourceLocation | null;
  /** the ranks that did what the others did not */
  ranks: number[];
  details?: Record<string, unknown>;
}

export const SUPPORTED_SCHEMA_MAJOR = 1;

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

export type ReportCheck = { ok: true; report: Report } | { ok: false; problems: string[] };

/** Checks parsed JSON against the report schema; problems name the JSON path of each violation. */
export function checkReport(value: unknown): ReportCheck {
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'string' && !version.startsWith(`${SUPPORTED_SCHEMA_MAJOR}.`)) {
    return { ok: false, problems: [`report schema ${version} is not supported by this version (expects ${SUPPORTED_SCHEMA_MAJOR}.x): update Compile Lens`] };
  }
  if (validate(value)) return { ok: true, report: value as unknown as Report };
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return { ok: false, problems };
}
