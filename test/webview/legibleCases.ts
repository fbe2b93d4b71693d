// The cases timelineLegible.test.ts draws and what each must show: a 2-rank gloo job, a 2-rank DDP job on CPU, a CPU
// graph break (eager beside default) and a GPU run, each with the track names, step and slice labels its views say.
// Apart from the test so that its file reads as the checks every case shares.
import path from 'node:path';
import type { TimelineSource } from '../../extension/shared/protocol.ts';
import type { FrameLayout, TextRole } from '../../webview/frameLayout.ts';
import { ROOT } from './harness.ts';
import type { ThemeKind } from './themes.ts';

export const GPU_MLP_TRACKS = [
  'profiler overhead',
  'ops · thread 1661 (python3)',
  'profiled window',
  'GPU 0 · stream 7',
  // the threads Kineto has no id for, each its own stack, named by its role (review 10 G4: ten rows of two threads
  // under one name, nothing saying where one ends)
  "▸ tqdm's monitor",
  "▸ Inductor's compile workers",
  '▸ Python stack · thread 1661',
];

const TRACES = path.join(ROOT, 'test', 'fixtures', 'traces');

export interface Case {
  name: string;
  source: TimelineSource;
  /** roles of the texts each view draws (in some pane) */
  roles: TextRole[];
  /** a slice label the step's view draws (ProfilerStep's: the one the e2e screenshots showed unreadable) */
  sliceLabel: RegExp;
  /** per pane, whether its note says the trace has no Python stacks to name its compiled calls' code */
  noStacks: boolean[];
  /** per view, per pane, the track names drawn (saying what each holds, never "CPU · thread 0") and the count of the
   *  idle ones: a track with no event in view is counted, not drawn as an empty row */
  inView?: Partial<Record<'step' | 'all', string[][]>>;
  /** the step every pane's note says the step view opens on, that step alone ("step 2 in view") */
  opens: string;
}

export const CASES: Case[] = [
  {
    name: 'ranks',
    source: {
      kind: 'ranks',
      tracePaths: ['rank0', 'rank1'].map((r) => path.join(TRACES, 'ranks', 'straggler', `${r}.trace.json`)),
    },
    roles: ['tick', 'step', 'slice', 'track'],
    sliceLabel: /all_reduce/,
    noStacks: [false, false],
    opens: 'step 2',
    // step 2, the first (its steps all alike, none a warm-up to pass: review 9 D6): rank 0's all_reduce on one of its two gloo threads,
    // the other idle, by its name (review 8B B12: "1 thread idle here" said not which); rank 1's on one too. The threads
    // that run the collectives by that role on both ranks, though the OS named rank 0's "python3" and rank 1's
    // "pt_gloo_runloop" (review 8A A16)
    inView: {
      step: [
        // the idle thread in its place, as the whole trace's view has it (review 15W W7)
        ['thread 28223 (python3)', 'gloo thread 28228: nothing here', 'gloo thread 28229', 'profiled window'],
        ['thread 28224 (python3)', 'gloo thread 28230', 'gloo thread 28231: nothing here', 'profiled window'],
      ],
      all: [
        ['thread 28223 (python3)', 'gloo thread 28228', 'gloo thread 28229', 'profiled window'],
        ['thread 28224 (python3)', 'gloo thread 28230', 'gloo thread 28231', 'profiled window'],
      ],
    },
  },
  {
    // a 2-rank DDP job on CPU: step 1 of 4 ms and step 2 of 2.3 s, step 3 at the pane's right edge (review s29: "step
    // 1 … 3", step 2 in no label and a lone "3" at the edge)
    name: 'ddp',
    source: {
      kind: 'ranks',
      tracePaths: ['rank0', 'rank1'].map((r) =>
        path.join(ROOT, 'test', 'fixtures', 'reports', 'ddp-ranks-cpu', 'ranks', r, `${r}.trace.json.gz`),
      ),
    },
    roles: ['tick', 'step', 'mark', 'slice', 'track'],
    sliceLabel: /all_reduce/,
    noStacks: [true, true],
    // each rank's step 1, not rank 0's step 2 begun beside rank 1's longer step 1 (review 10 B10)
    opens: 'step 1',
    // the whole trace: every track of each rank, rank 1's under its 2 s recompile's stack of 25 rows too (review 11
    // I2: its gloo threads and profiled window missing at 560 px)
    inView: {
      all: [
        ['thread 1019 (python3)', 'gloo thread 1028', 'gloo thread 1029', 'profiled window'],
        ['thread 1020 (python3)', 'gloo thread 1030', 'gloo thread 1031', 'profiled window'],
      ],
    },
  },
  {
    name: 'cpu-graphbreak',
    source: {
      kind: 'traces',
      tracePaths: ['eager', 'default'].map((m) => path.join(TRACES, `cpu-graphbreak-${m}.trace.json`)),
    },
    roles: ['tick', 'step', 'mark', 'slice', 'track'],
    // no Python stacks: a compiled call by its place and what it runs
    sliceLabel: /^1st compiled/,
    noStacks: [false, true],
    // past the warm-up, eager's step 2 alone beside default's shorter one: never default's "steps 2–3" (review 10 B10)
    opens: 'step 2',
  },
  {
    name: 'gpu-mlp',
    source: { kind: 'traces', tracePaths: [path.join(TRACES, 'mlp-default.trace.json')] },
    roles: ['tick', 'step', 'slice', 'track'],
    // call 1 fitted, the first past the warm-up (review 31 B2), is its compiled call: its ops are narrow, the call is
    // labelled
    sliceLabel: /^compiled forward$/,
    // Kineto's thread 0 holds other threads' Python stacks; its two tracks of its own: its overhead and its window
    // the Python frames last, each thread's stack folded to a row: the launches and kernels come first
    // the whole trace holds every track: the profiler's own work (a CUPTI buffer request) in call 0, the warm-up;
    // call 1 has none of it, its track said idle
    inView: {
      step: [['profiler overhead: nothing here', ...GPU_MLP_TRACKS.slice(1)]],
      all: [GPU_MLP_TRACKS],
    },
    noStacks: [false],
    opens: 'call 1',
  },
];
export const WIDTHS = [560, 700, 1400];

/** One view of a case's panes as drawn, for the checks of that case alone (legibleRanksChecks.ts,
 *  legibleCompiledChecks.ts): each pane's last frame, in which theme, view and width. */
export interface Drawn {
  frames: FrameLayout[];
  theme: ThemeKind;
  view: 'step' | 'all';
  width: number;
}
