// A torchrun job's report (test/fixtures/reports/ddp-ranks-cpu: bench/scripts/ddp_train.py --diverge-step 3, 2 ranks,
// gloo): findings that name their ranks, the divergence at the user's line, and the ranks block of the CLI.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import {
  collectFindings,
  escapeMarkdown,
  findingHover,
  findingMessage,
  rankText,
} from '../../extension/present/findings.ts';
import { digestRank, failingDivergence, formatRanks } from '../../extension/present/rankDigest.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';

const FIXTURE = path.resolve(__dirname, '../fixtures/reports/ddp-ranks-cpu/report.json');

test("the runner's torchrun report validates, with every rank's facts", async () => {
  const { report } = await loadReport(FIXTURE);
  assert.deepEqual(
    report.ranks?.map((r) => [r.rank, r.status, r.recompiles]),
    [
      [0, 'ok', 0],
      [1, 'ok', 2],
    ],
  );
  const [rank0, rank1] = report.ranks.map(digestRank);
  assert.deepEqual(
    rank0!.regions.map((r) => [r.id, r.calls]),
    [['r0', 6]],
  );
  assert.equal(rank1!.graphs, 2);
  assert.equal(rank0!.collectives, rank1!.collectives);
});

test('graph breaks on every rank say which ranks they happened on; a recompile on one rank is the divergence, once', async () => {
  const { report } = await loadReport(FIXTURE);
  const findings = collectFindings(report);
  const breaks = findings.filter((f) => f.kind === 'graph-break');
  assert.ok(breaks.length >= 1 && breaks.every((f) => rankText(f) === 'on ranks 0, 1'));
  // each rank's count beside the kind, with whose it is (s29: "×3 (on ranks 0, 1)" read as both ranks' 3, rank 1's
  // row said 4), before the sentence: no ". (" after its full stop (review 5C)
  assert.match(
    findingMessage(breaks[0]!),
    /^Graph break \(3 graph breaks at this line on rank 0, 4 on rank 1\): The compiled code calls .*\.$/,
  );
  assert.match(
    findingHover(breaks[0]!),
    /^\*\*Compile Lens — 3 graph breaks at this line on rank 0, 4 on rank 1\*\*( \(torch\.compile.*\))?$/m,
  );
  assert.ok(!findingHover(breaks[0]!).includes('on ranks 0, 1'), 'the count says whose: no second rank tag');
  // rank 1's batch change is one finding (review 5C D6: it was also a "Recompile" at the model's forward): the
  // divergence, at the line that made the call, with the recompile's Quick Fix
  assert.deepEqual(
    findings.filter((f) => f.kind === 'recompile' || f.kind === 'divergence').map((f) => f.kind),
    ['divergence'],
  );
  const [divergence] = findings.filter((f) => f.kind === 'divergence');
  assert.deepEqual(
    divergence!.quickFixes.map((q) => q.kind),
    ['compile-dynamic'],
  );
});

test('the divergence is a finding at the line that made the call, in one sentence', async () => {
  const { report } = await loadReport(FIXTURE);
  const [divergence] = collectFindings(report).filter((f) => f.kind === 'divergence');
  assert.equal(path.basename(divergence!.file), 'ddp_train.py');
  assert.equal(divergence!.line, report.divergence![0]!.location!.line);
  assert.deepEqual(divergence!.ranks, [1]);
  assert.match(
    findingMessage(divergence!),
    /^Ranks diverged: rank 1 recompiled DistributedDataParallel at call 3 — input 'x' changed size in dimension 0 from 16 to 8 — rank 0 did not: the ranks ran different graphs$/,
  );
  const hover = findingHover(divergence!);
  assert.match(hover, /^\*\*Compile Lens — Ranks diverged\*\*$/m);
  // the runner's fix for the size that changed (this report's details.fix), as it wrote it
  const fix = report.divergence![0]!.details!['fix'];
  assert.match(String(fix), /dynamic=True/);
  assert.ok(hover.includes(`**Fix:** ${escapeMarkdown(String(fix))}`), hover);
  assert.equal(failingDivergence(report).length, 1);
});

test("the CLI's ranks block: one line per rank, then the divergence", async () => {
  const { report } = await loadReport(FIXTURE);
  const lines = formatRanks(report);
  assert.equal(lines[0], '  ranks (torchrun, 2 processes):');
  // each rank's calls from where they settled: rank 0's call 1 still warming up (its region's steady state), rank 1's
  // after its recompile at call 3
  assert.match(
    lines[1]!,
    /^ {4}rank 0: ok · 1 graph, 3 graph breaks, 0 recompiles, [\d.]+ s compiling, .*\d+ collectives in the profiled steps · DistributedDataParallel: 6 calls, [\d.]+ ms per call \(median, steady from call 2\)$/,
  );
  assert.equal(report.regions![0]!.steadyState!.fromCall, 2);
  assert.match(
    lines[2]!,
    /^ {4}rank 1: ok · 2 graphs, 4 graph breaks, recompiled at call 3 \(2 compiles\), .* steady from call 4\)$/,
  );
  assert.equal(lines[3], '  divergence:');
  assert.match(lines[4]!, /^ {4}ddp_train\.py:\d+ {2}rank 1 recompiled DistributedDataParallel at call 3 — /);
  // the recompile's fix under it, as its finding was the one place that said it (review 5C D6)
  assert.match(lines[5]!, /^ {6}fix: if that dimension varies in use, mark it dynamic .*dynamic=True/);
  const agreeing = formatRanks({ ...report, divergence: [] });
  assert.equal(agreeing.at(-1), '  divergence: none: the ranks compiled and ran the same graphs');
  // ranks stopped before they compiled anything (a job cancelled in its start-up) agreed on nothing
  const stopped = formatRanks({
    ...report,
    divergence: [],
    ranks: report.ranks!.map((r) => ({ ...r, graphCount: 0 })),
  });
  assert.equal(stopped.at(-1), '  divergence: none found: no rank compiled a graph, so there was nothing to compare');
});

test("a report's rank traces open as one rank set on the timeline", async () => {
  const content = await readTimelineSource({ kind: 'report', reportPath: FIXTURE });
  assert.equal(content.title, 'Compile Lens — ddp_train — 2 ranks');
  assert.deepEqual(
    content.panes.map((p) => p.label),
    ['rank 0', 'rank 1'],
  );
});

test('many ranks stay one line: ranges of consecutive ranks, every rank said as such', () => {
  assert.equal(rankText({ ranks: [3, 17, 41], worldSize: 64 }), 'on ranks 3, 17, 41');
  assert.equal(rankText({ ranks: [0, 1, 2, 4, 6, 7, 8, 9], worldSize: 64 }), 'on ranks 0-2, 4, 6-9');
  assert.equal(rankText({ ranks: Array.from({ length: 64 }, (_, k) => 63 - k), worldSize: 64 }), 'on all 64 ranks');
  assert.equal(rankText({ ranks: [1, 0], worldSize: 2 }), 'on ranks 0, 1');
});
