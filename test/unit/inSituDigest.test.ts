// In situ in words (schema 1.14): the CLI block leads with the script's own steps both ways, the CodeLens says the
// step speedup, the compile cost inside the script and the break-even against the steps this run made, and a failed
// compiled call is said at the user's line. Fixtures are real CPU runs (paths rewritten).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { digestInSitu, inSituLines, pairsNote, wallLine } from '../../extension/present/inSituDigest.ts';
import { digestRegion, formatScriptDigest } from '../../extension/present/regionDigest.ts';
import { regionStory } from '../../extension/present/regionStory.ts';
import type { InSituSpeedup, Region, Report } from '../../extension/shared/report.ts';
import { loadReport } from '../../extension/node/reportFile.ts';

/** A region without its answer: read as a report made before answers (its numbers changed here, not the runner's). */
const unanswered = ({ answer: _, ...region }: Region): Region => region;

const fixture = async (name: string): Promise<Report> =>
  (await loadReport(path.resolve(__dirname, '../fixtures/reports', name, 'report.json'))).report;

test('a 40-call script: the lens says the step speedup, its compile inside the script and that 40 steps do not pay it back', async () => {
  const report = await fixture('script-in-situ-cpu');
  const region = report.regions![0]!;
  const digest = digestRegion(region);
  // the runner's line (report/answer.py, test_answer.py), shown as it wrote it: the steps supported no verdict (not
  // clearly faster), so the replay decides, and the calls this run made do not pay it back
  assert.equal(
    digest.headline,
    'compile for longer runs: 1.19× per call replayed (1.12–1.26×) · pays back after 51,204 calls, this run made 40 · 1 graph',
  );
  assert.equal(digest.headline, region.headline);
});

test('the CLI block leads with in situ; the replay is labelled; the whole script both ways; the story uses the in-situ calls', async () => {
  const report = await fixture('script-in-situ-cpu');
  const lines = formatScriptDigest(report).split('\n');
  const first = lines.findIndex((l) =>
    l.includes(
      'in situ (2 pairs of runs: the script as written vs with compiling off): 1.22× per step in situ (0.87–1.32×), 0.86 ms → 0.70 ms per step',
    ),
  );
  const replay = lines.findIndex((l) => l.trimStart().startsWith('replay: default (as written)'));
  assert.ok(first > 0 && replay > first, lines.join('\n'));
  assert.ok(
    lines.some((l) => l.includes('compile inside the script 3.1 s; pays back after 19,467 steps; this run made 40')),
  );
  assert.ok(lines.some((l) => l.includes('6.5 s compiling in the observed run')));
  assert.equal(
    wallLine(report),
    'the whole script: 5.5 s as written, 0.69 s with compiling off (in situ, fastest of 2 runs each)',
  );
  assert.match(
    regionStory(report.regions![0]!)!,
    /From call 1 on, the script's own calls took 0\.70 ms compiled \(median, in situ\) against 0\.86 ms with compiling off\./,
  );
});

test('a compiled call that failed: at its line with the fix, in the lens, the CLI and the verdict; no other modes', async () => {
  const report = await fixture('script-in-situ-failure-cpu');
  const region = report.regions![0]!;
  const digest = digestInSitu(region)!;
  assert.equal(
    digest.failure!.text,
    "fails_at_serving.py:8: a branch on a tensor's value (`if y.sum() > 0:`): which way it goes is known only when the call runs",
  );
  assert.ok(
    digestRegion(region).headline.startsWith('compiled call 3 fails at fails_at_serving.py:8 · measured before it: '),
  );
  assert.match(
    inSituLines(digest)[0]!,
    /^in situ: compiled call 3 failed at fails_at_serving\.py:8: .* Fix: Make it branchless with torch\.where/,
  );
  assert.notEqual(report.recommendation.verdict, 'compile');
  assert.match(report.recommendation.reason, /^Fix first: compiled call 3 failed at fails_at_serving\.py:8/);
  assert.doesNotMatch(formatScriptDigest(report), /other modes|another mode/i);
});

test("no steady step: the region's time both ways, never a made-up speedup", async () => {
  const region = (await fixture('script-in-situ-cpu')).regions![0]!;
  const twoCalls: Region = {
    ...unanswered(region), // in-situ numbers other than its answer's: read as a report made before answers
    inSitu: {
      pairs: 1,
      step: null,
      call: null,
      reason: "every one of the script's 2 call(s) compiled",
      regionSeconds: { compiled: 3.9, eager: 0.0016 },
      stepsMade: 2,
    },
  };
  const digest = digestInSitu(twoCalls)!;
  assert.match(inSituLines(digest)[0]!, /no steady step — every one of the script's 2 call\(s\) compiled$/);
  // compile-inclusive totals are no comparison: never said as one
  assert.doesNotMatch(inSituLines(digest).join('\n'), /compiled vs|compiles included/);
  assert.equal(digestInSitu({ ...region, inSitu: null }), null);
});

test('steady calls but no steady step (another region compiles in every step): the per-call number, and why there is no step', async () => {
  const region = (await fixture('script-in-situ-cpu')).regions![0]!;
  const callOnly: Region = {
    ...unanswered(region),
    inSitu: {
      ...region.inSitu!,
      step: null,
      reason:
        "something compiled in every step after the region's warm-up (another region's compiles): no step without compiling",
    },
  };
  const digest = digestInSitu(callOnly)!;
  assert.match(
    inSituLines(digest)[0]!,
    /: 1\.22× per call, 0\.86 ms → 0\.70 ms per call; no step speedup — something compiled in every step/,
  );
});

/** GPT-2 generate() on the H100 (docs/BENCHMARKS.md §in-situ, profile 1): 4 pairs ran, only pair 3's two runs both met
 * the host CPU's fast state. */
const H100_STEP: InSituSpeedup = {
  eagerMs: 6.8153,
  compiledMs: 4.194,
  speedup: 1.625,
  low: 1.4495,
  high: 2.3821,
  floorPct: 10,
  noisy: true,
  samples: 28,
  fastStateSteps: [
    { eager: 42, compiled: 0 },
    { eager: 0, compiled: 0 },
    { eager: 174, compiled: 28 },
    { eager: 56, compiled: 0 },
  ],
  pairsUsed: [3],
  pairsNotUsed: [
    { pair: 1, why: "compiled never ran at the host's fast state", speedup: 1.4495 },
    { pair: 2, why: "neither run ran at the host's fast state", speedup: 1.546 },
    { pair: 4, why: "compiled never ran at the host's fast state", speedup: 1.5778 },
  ],
  fastStateProbeMs: 0.9753,
  fasterProbesMs: [],
};

test('the CLI says which pairs the step speedup rests on and why the others were not used', async () => {
  const report = await fixture('script-in-situ-cpu');
  const region = report.regions![0]!;
  const h100: Region = { ...unanswered(region), inSitu: { ...region.inSitu!, pairs: 4, step: H100_STEP } };
  const lines = formatScriptDigest({ ...report, regions: [h100] }).split('\n');
  const at = lines.findIndex((l) => l.includes(': 1.63× per step, '));
  assert.ok(at > 0, lines.join('\n'));
  assert.ok(
    lines
      .slice(at)
      .some(
        (l) =>
          l.trim() ===
          "4 pairs ran, 1 used (pair 1: compiled never ran at the host's fast state, 1.45× on its own; " +
            "pair 2: neither run ran at the host's fast state, 1.55× on its own; pair 4: compiled never ran at the host's fast state, 1.58× on its own); " +
            "steps at the host's fast state per pair: eager 42/0/174/56, compiled 0/0/28/0",
      ),
    lines.join('\n'),
  );
});

test('no pair with both runs at the fast state: all count, the widened interval and a host that ran faster at a few probes are said', () => {
  const note = pairsNote(3, {
    ...H100_STEP,
    pairsUsed: [],
    pairsNotUsed: [{ pair: 1, why: "eager never ran at the host's fast state", speedup: 1.2 }],
    slowHost: { eager: 1.9 },
    fastStateSteps: [{ eager: 0, compiled: 14 }],
    fastStateProbeMs: 1.84,
    fasterProbesMs: [1.23, 1.38],
  });
  assert.equal(
    note,
    "3 pairs ran, none with both runs at the host CPU's fast state: all count (pair 1: eager never ran at the host's fast state, 1.20× on its own); " +
      "interval widened: the CPU probe beside the steps read eager 1.90× the fast state's; steps at the host's fast state per pair: eager 0, compiled 14; " +
      'the host ran faster at 2 probes (1.23 ms against 1.84 ms): the whole profile may have run slow',
  );
  const withoutProbes: InSituSpeedup = { ...H100_STEP };
  delete withoutProbes.fastStateSteps;
  assert.equal(pairsNote(1, withoutProbes), null); // runs without probes: nothing to say
});

test('interleaved in situ (schema 1.16): what the number rests on, the steps left out, per signature; the lens says the verdict', async () => {
  const report = await fixture('script-in-situ-cpu');
  const base = report.regions![0]!;
  const step = (speedup: number, low: number, high: number): InSituSpeedup => ({
    speedup,
    low,
    high,
    eagerMs: 2.0 * speedup,
    compiledMs: 2.0,
    pairs: 14,
    pairRatios: [speedup],
    comparedBy: 'matched-mix',
    signatures: [
      {
        signature: 'float32[1, 37, 512]; inference',
        eagerMs: 0.8,
        compiledMs: 0.9,
        speedup: 0.889,
        steps: { eager: 40, compiled: 38 },
        calls: 41,
      },
      {
        signature: 'float32[1, 512, 512]; inference',
        eagerMs: 1.2,
        compiledMs: 1.3,
        speedup: 0.923,
        steps: { eager: 30, compiled: 31 },
        calls: 40,
      },
    ],
  });
  const region: Region = {
    ...unanswered(base),
    inSitu: {
      pairs: 14,
      method: 'interleaved',
      step: step(0.91, 0.88, 0.96),
      call: null,
      steadySteps: { eager: 70, compiled: 69 },
      dropped: { 'warm-up': 3, switch: 29, 'first on its signature': 12, observer: 4 },
      compileSeconds: 2.0,
      breakEvenSteps: null,
      stepsMade: 240,
      paysBack: null,
      reason: null,
      failure: null,
      whatIf: [],
    },
    recommendation: { mode: null, verdict: 'stay-eager', reason: 'Stay eager: compiled steps are slower (…).' },
  };
  const d = digestInSitu(region)!;
  assert.equal(d.basis, "14 pairs of adjacent eager/compiled blocks in this run, per signature, over the script's mix");
  const lines = inSituLines(d);
  assert.ok(
    lines[0]!.startsWith(
      "in situ (14 pairs of adjacent eager/compiled blocks in this run, per signature, over the script's mix): 0.91× per step",
    ),
    lines[0],
  );
  assert.ok(
    lines.includes(
      "  steady steps: eager 70, compiled 69; left out: 3 in the compiled warm-up, 29 spanning a switch, 12 a side's first on its signature, 4 with Compile Lens's own work",
    ),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => l.includes('float32[1, 512, 512]; inference: 0.92×')),
    lines.join('\n'),
  );
  // a region no compiled code ran for: no number anywhere, and the lens says why
  const none: Region = {
    ...region,
    recommendation: { mode: null, verdict: 'none', reason: 'No verdict: …' },
    inSitu: {
      ...region.inSitu!,
      pairs: 0,
      step: null,
      call: null,
      reason:
        'no call of it ran compiled code (a graph break): every call ran eagerly, so there is nothing compiled to compare',
      regionSeconds: null,
    },
  };
  const nd = digestInSitu(none)!;
  assert.ok(
    inSituLines(nd).every((l) => !/\d×/.test(l)),
    inSituLines(nd).join('\n'),
  );
});

test("why, per step (schema 1.17): the runner's line about the work per step follows the step line, said as written", async () => {
  const report = await fixture('script-in-situ-cpu');
  const base = report.regions![0]!;
  const side = (workMsPerStep: number, kernelsPerStep: number, busyPct: number, launchBound: boolean) => ({
    device: 'cuda' as const,
    steps: 3,
    workMsPerStep,
    kernelsPerStep,
    profiledStepMs: 10,
    wallMs: 9,
    wallFrom: 'steady steps' as const,
    busyPct,
    launchBound,
  });
  const text =
    'GPU work 4.00 ms → 2.10 ms per step, 290 → 114 kernels; GPU busy 45% → 80% of the wall step: eager was launch-bound: the CPU launches were the rest';
  const step: InSituSpeedup = {
    speedup: 1.8,
    low: 1.7,
    high: 1.9,
    eagerMs: 9.0,
    compiledMs: 5.0,
    pairs: 6,
    pairRatios: [1.8],
    comparedBy: 'signature',
    signatures: [],
  };
  const region: Region = {
    ...unanswered(base),
    inSitu: {
      pairs: 6,
      method: 'interleaved',
      step,
      call: null,
      steadySteps: { eager: 30, compiled: 30 },
      dropped: {},
      compileSeconds: 2.0,
      breakEvenSteps: 500,
      stepsMade: 900,
      paysBack: true,
      reason: null,
      failure: null,
      whatIf: [],
      work: { text, eager: side(4.0, 290, 45, true), compiled: side(2.1, 114, 80, false) },
    },
  };
  const lines = inSituLines(digestInSitu(region)!);
  assert.ok(lines[0]!.includes('1.80× per step'), lines[0]);
  assert.ok(lines.includes(`  why: ${text}`), lines.join('\n'));
  const without = digestInSitu({ ...region, inSitu: { ...region.inSitu!, work: null } })!;
  assert.equal(without.workLine, null);
  assert.ok(inSituLines(without).every((l) => !l.startsWith('  why:')));
});
