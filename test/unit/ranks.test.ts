// A distributed job's rank traces: reading which rank a file is, communication by name, interval arithmetic,
// per-step communication / overlap / slowest rank (synthetic traces with known answers, and real 2-rank gloo DDP
// traces with a straggler), and how the ranks' clocks are aligned.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { communicationNames, isCommunicationName } from '../../webview/analysis/communication.ts';
import { intersectionOf, lengthWithin, unionOf } from '../../webview/analysis/intervals.ts';
import { orderByRank, paneOffsets, rankAlignment, rankLabel } from '../../extension/shared/trace/ranks.ts';
import { EVEN_SHARE, rankStepStats, rankStepTable } from '../../webview/analysis/rankSteps.ts';
import { parseTraceHead, rankFromFileName, type TraceHead } from '../../extension/shared/trace/traceHead.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { sentTraces } from '../sentTraces.ts';
import { formatUs } from '../../extension/present/numbers.ts';
import { unrecordedLabels } from '../../webview/timelineGaps.ts';
import { TrackRows } from '../../webview/timelineRows.ts';
import { LABEL_WIDTH, type Measure } from '../../webview/timelineText.ts';
import { cpuOp as cpu, scanEvents as scan, type TraceEvent } from './traceEvents.ts';
import { readTraceHead } from '../../extension/node/trace/readTraceHead.ts';

const RANKS = path.resolve(__dirname, '../fixtures/traces/ranks');
const NCCL_KERNEL = 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)';

const kernel = (name: string, ts: number, dur: number, tid = 7): TraceEvent => ({
  ph: 'X',
  cat: 'kernel',
  name,
  pid: 0,
  tid,
  ts,
  dur,
});
const step = (n: number, ts: number, dur: number): TraceEvent => ({
  ph: 'X',
  cat: 'user_annotation',
  name: `ProfilerStep#${n}`,
  pid: 1,
  tid: 1,
  ts,
  dur,
});

const head = (overrides: Partial<TraceHead>): TraceHead => ({
  rank: 0,
  rankFrom: 'distributedInfo',
  worldSize: 2,
  backend: 'nccl',
  hostName: 'node-a',
  baseTimeNs: '1790857026000000000',
  looksLikeTrace: true,
  ...overrides,
});

describe('trace head', () => {
  test("kineto's header: rank, world size, backend, host, time base (past 2^53, kept exact)", () => {
    const text = readFileSync(path.join(RANKS, 'straggler/rank1.trace.json'), 'utf8');
    assert.deepEqual(parseTraceHead(text, 'whatever.json'), {
      rank: 1,
      rankFrom: 'distributedInfo',
      worldSize: 2,
      backend: 'gloo',
      hostName: 'vm',
      baseTimeNs: '1790857026000000000',
      looksLikeTrace: true,
    });
  });

  test("a gzip trace's head is read without decompressing the rest", async () => {
    const read = await readTraceHead(path.join(RANKS, 'unscheduled/rank1.trace.json.gz'));
    assert.equal(read.rank, 1);
    assert.equal(read.backend, 'gloo');
  });

  test('the file name is the fallback; keys inside events do not count; braces inside strings are skipped', () => {
    const events =
      '"traceEvents": [{"ph": "X", "name": "x", "args": {"distributedInfo": {"rank": 7}, "host_name": "no"}}]}';
    assert.deepEqual(parseTraceHead(`{${events}`, '/runs/trace_rank_3.pt.trace.json'), {
      rank: 3,
      rankFrom: 'file name',
      worldSize: null,
      backend: null,
      hostName: null,
      baseTimeNs: null,
      looksLikeTrace: true,
    });
    const tricky = `{"distributedInfo": {"backend": "a}b{", "rank": 2, "world_size": 4}, "host_name": "h\\"q", ${events}`;
    const parsed = parseTraceHead(tricky, 'rank9.json');
    assert.deepEqual(
      [parsed.rank, parsed.rankFrom, parsed.worldSize, parsed.backend, parsed.hostName],
      [2, 'distributedInfo', 4, 'a}b{', 'h"q'],
    );
    assert.equal(parseTraceHead('{"name": "report"}', 'report.json').looksLikeTrace, false);
    assert.equal(parseTraceHead(' [{"ph": "X"}]', 'rank0.json').looksLikeTrace, true);
    assert.deepEqual(
      [rankFromFileName('a/rank12.json'), rankFromFileName('rank-2.json.gz'), rankFromFileName('ranking.json')],
      [12, 2, null],
    );
  });
});

describe('communication by name', () => {
  test('NCCL/gloo ops and kernels, c10d and functional collectives; not compute that merely sounds alike', () => {
    for (const name of [
      'nccl:all_reduce',
      'gloo:broadcast',
      'c10d::allreduce_',
      '_c10d_functional::all_gather_into_tensor',
      '_c10d_functional::wait_tensor',
      'record_param_comms',
      NCCL_KERNEL,
      'ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)',
      'ProcessGroupNCCL::allreduce',
    ]) {
      assert.ok(isCommunicationName(name), name);
    }
    for (const name of [
      'aten::all',
      'triton_red_fused_sum_0',
      'aten::mm',
      'DistributedDataParallel.forward',
      'ProfilerStep#3',
      'cudaLaunchKernel',
      'all_reduce_helper',
    ]) {
      assert.ok(!isCommunicationName(name), name);
    }
    assert.deepEqual(Array.from(communicationNames(['aten::mm', 'nccl:all_reduce'])), [0, 1]);
  });
});

describe('interval sets', () => {
  test('union, intersection and length inside a window', () => {
    const a = unionOf([5, 8, 0, 2, 1, 3, 10, 10]);
    assert.deepEqual(Array.from(a), [0, 3, 5, 8]);
    const b = unionOf([2, 6]);
    assert.deepEqual(Array.from(intersectionOf(a, b)), [2, 3, 5, 6]);
    assert.equal(lengthWithin(a, 1, 6), 3);
    assert.equal(lengthWithin(a, 8, 20), 0);
    assert.equal(lengthWithin(a, -5, 100), 6);
  });
});

describe('per-step communication', () => {
  test('GPU: collective kernels against the other kernels; memcpy is not computation', () => {
    const model = scan([
      step(1, 0, 100),
      kernel('triton_poi_fused_0', 10, 30),
      kernel('triton_poi_fused_1', 60, 10),
      kernel(NCCL_KERNEL, 30, 50, 20),
      { ph: 'X', cat: 'gpu_memcpy', name: 'Memcpy DtoD (Device -> Device)', pid: 0, tid: 8, ts: 70, dur: 10 },
      cpu('nccl:all_reduce', 0, 95), // the CPU side is not what is measured when the GPU has collective kernels
    ]);
    const { side, steps } = rankStepStats(model, model.steps);
    assert.equal(side, 'gpu');
    // comm [30, 80) = 50; computing meanwhile: [30, 40) and [60, 70) = 20
    // an op recorded all but [95, 100): the host's nccl:all_reduce spans [0, 95)
    assert.deepEqual(steps, [{ stepUs: 100, commUs: 50, overlappedUs: 20, workUs: 70, unrecordedUs: 5 }]);
  });

  test("CPU (gloo): the collective's run on its own thread, not the call that hands it over; ATen ops inside a collective are part of it", () => {
    const events = [
      step(1, 0, 100),
      cpu('aten::mm', 0, 30),
      cpu('c10d::allreduce_', 30, 5),
      cpu('aten::empty', 31, 1),
      cpu('aten::add', 50, 10),
    ];
    const model = scan([...events, cpu('gloo:all_reduce', 32, 23, 2)]);
    const { side, steps } = rankStepStats(model, model.steps);
    assert.equal(side, 'cpu');
    // comm: gloo's run [32, 55) = 23, the step thread's c10d::allreduce_ [30, 35) its hand-off (review 17Y Y5: counted,
    // "41.8 ms" beside the timeline's "41.7 ms of it waiting in all_reduce"); compute [0, 30) and [50, 60): overlap
    // [50, 55) = 5 (aten::empty, inside the hand-off, would add 1); no op recorded in [60, 100)
    assert.deepEqual(steps, [{ stepUs: 100, commUs: 23, overlappedUs: 5, workUs: 82, unrecordedUs: 40 }]);
    // no thread of the collective's own: the call on the step's thread is all there is of it
    const alone = scan(events);
    assert.deepEqual(rankStepStats(alone, alone.steps).steps, [
      { stepUs: 100, commUs: 5, overlappedUs: 0, workUs: 95, unrecordedUs: 55 },
    ]);
  });

  test('the straggler is the rank with the most work: the others wait for it in the collective', () => {
    const rank0 = scan([
      step(1, 0, 100),
      kernel('triton_poi_fused_0', 0, 40),
      kernel(NCCL_KERNEL, 40, 60, 20),
      step(2, 100, 50),
      kernel('triton_poi_fused_0', 100, 45),
      kernel(NCCL_KERNEL, 145, 5, 20),
    ]);
    const rank1 = scan([
      step(1, 0, 100),
      kernel('triton_poi_fused_0', 0, 90),
      kernel(NCCL_KERNEL, 90, 10, 20),
      step(2, 100, 50),
      kernel('triton_poi_fused_0', 100, 44),
      kernel(NCCL_KERNEL, 144, 6, 20),
    ]);
    const table = rankStepTable([rank0, rank1]);
    assert.deepEqual(
      table.rows.map((r) => r.label),
      ['ProfilerStep#1', 'ProfilerStep#2'],
    );
    assert.deepEqual(
      table.rows[0]!.ranks.map((s) => s?.workUs),
      [40, 90],
    );
    assert.deepEqual(table.rows[0]!.slowest, { pane: 1, fastest: 0, leadUs: 50, unrecordedLeadUs: 0, even: false });
    // 45 vs 44 of work in a 50 µs step: within EVEN_SHARE, no straggler named
    assert.ok(1 < EVEN_SHARE * 50);
    assert.deepEqual(table.rows[1]!.slowest, { pane: 0, fastest: 1, leadUs: 1, unrecordedLeadUs: 0, even: true });
  });

  test('steps matched by index; a rank without that step shows none; no rank with steps: one whole-trace row', () => {
    const long = scan([step(1, 0, 10), step(2, 10, 10), cpu('aten::mm', 0, 5)]);
    const short = scan([step(1, 0, 12), cpu('aten::mm', 0, 5)]);
    const table = rankStepTable([long, short]);
    assert.equal(table.rows.length, 2);
    assert.equal(table.rows[1]!.ranks[1], null);
    assert.equal(table.rows[1]!.slowest, null);
    const whole = rankStepTable([
      scan([cpu('aten::mm', 5, 20)]),
      scan([cpu('gloo:all_reduce', 0, 10), cpu('aten::mm', 10, 30)]),
    ]);
    assert.equal(whole.wholeTrace, true);
    assert.deepEqual(
      whole.rows.map((r) => [r.label, r.ranks.map((s) => s && [s.stepUs, s.commUs]), r.slowest]),
      [
        [
          'whole trace',
          [
            [20, 0],
            [40, 10],
          ],
          null,
        ],
      ],
    );
  });
});

describe('alignment', () => {
  const a = scan([step(1, 1000, 100), cpu('aten::mm', 1000, 50)]);
  const b = scan([step(1, 1030, 100), cpu('aten::mm', 1010, 80)]);

  test('ranks of one host: one axis from their origins; the offsets put the earliest step start at 0', () => {
    const alignment = rankAlignment([
      { trace: a, rank: head({ rank: 0 }) },
      { trace: b, rank: head({ rank: 1 }) },
    ]);
    assert.deepEqual(alignment, { mode: 'absolute', shiftUs: [0, 10], note: null });
    // a's step starts at 0 of a (common 0), b's at 20 of b (common 30): time 0 is common 0
    assert.deepEqual(paneOffsets([a, b], alignment, 0), [0, -10]);
    assert.deepEqual(paneOffsets([a, b], null, 0), [0, 20]);
  });

  test('different time bases are accounted for (kineto ts are µs after baseTimeNanoseconds)', () => {
    const alignment = rankAlignment([
      { trace: a, rank: head({ baseTimeNs: '1790857026000000000' }) },
      { trace: b, rank: head({ baseTimeNs: '1790857025999995000' }) },
    ]);
    // b's events are 5 µs earlier than their ts says relative to a's: 1010 − 5 after a's base
    assert.deepEqual(alignment, { mode: 'absolute', shiftUs: [0, 5], note: null });
  });

  test('other hosts, a missing time base, or traces that never overlap: each rank at its own step, and why', () => {
    const hosts = rankAlignment([
      { trace: a, rank: head({ hostName: 'node-a' }) },
      { trace: b, rank: head({ hostName: 'node-b' }) },
    ]);
    assert.equal(hosts.mode, 'per-step');
    if (hosts.mode === 'per-step') assert.match(hosts.reason, /2 hosts \(node-a, node-b\)/);
    const base = rankAlignment([
      { trace: a, rank: head({}) },
      { trace: b, rank: head({ baseTimeNs: null }) },
    ]);
    assert.equal(base.mode, 'per-step');
    const later = scan([step(1, 9_000_000, 100), cpu('aten::mm', 9_000_000, 50)]);
    const apart = rankAlignment([
      { trace: a, rank: head({}) },
      { trace: later, rank: head({}) },
    ]);
    assert.equal(apart.mode, 'per-step');
    if (apart.mode === 'per-step') assert.match(apart.reason, /do not overlap in time/);
    assert.deepEqual(paneOffsets([a, b], hosts, 0), [0, 20]);
    const nameless = rankAlignment([
      { trace: a, rank: head({ hostName: null }) },
      { trace: b, rank: head({ hostName: null }) },
    ]);
    assert.equal(nameless.mode === 'absolute' && nameless.note !== null, true);
  });

  test('rank order and labels', () => {
    assert.deepEqual(
      orderByRank(['r2', 'x', 'r0', 'r1'], (s) => (s === 'x' ? null : Number(s[1]))),
      ['r0', 'r1', 'r2', 'x'],
    );
    assert.equal(rankLabel(head({ rank: 3 }), 'f.json', false), 'rank 3');
    assert.equal(rankLabel(head({ rank: 3 }), 'f.json', true), 'rank 3 · node-a');
    assert.equal(rankLabel(head({ rank: null }), 'f.json', false), 'f.json');
  });
});

describe('real 2-rank gloo DDP traces', () => {
  test('rank 1 sleeps 40 ms a step: it is the slowest rank of every step, by about that', async () => {
    const source = {
      kind: 'ranks' as const,
      tracePaths: [path.join(RANKS, 'straggler/rank1.trace.json'), path.join(RANKS, 'straggler/rank0.trace.json')],
    };
    const content = await readTimelineSource(source);
    assert.deepEqual(
      content.panes.map((p) => [p.label, p.rank?.rank, p.compareTo]),
      [
        ['rank 0', 0, null],
        ['rank 1', 1, null],
      ],
    );
    assert.equal(content.title, '2 ranks — straggler');
    const panes = (await sentTraces(content)).map((m) => m.pane);
    const models = panes.map((p) => p.trace);
    const alignment = rankAlignment(panes.map((p) => ({ trace: p.trace, rank: p.rank! })));
    assert.equal(alignment.mode, 'absolute');
    if (alignment.mode === 'absolute')
      assert.ok(
        Math.abs(alignment.shiftUs[0]! - alignment.shiftUs[1]! - (models[0]!.originUs - models[1]!.originUs)) < 0.01,
      );
    const table = rankStepTable(models);
    assert.deepEqual(table.sides, ['cpu', 'cpu']);
    assert.deepEqual(
      table.rows.map((r) => r.label),
      ['ProfilerStep#2', 'ProfilerStep#3', 'ProfilerStep#4'],
    );
    for (const row of table.rows) {
      assert.equal(row.slowest?.pane, 1, row.label);
      assert.ok(
        row.slowest.leadUs > 25_000 && row.slowest.leadUs < 45_000,
        `${row.label}: lead ${row.slowest.leadUs} µs`,
      );
      // rank 0 spends the wait in the all-reduce
      assert.ok(row.ranks[0]!.commUs > 25_000, `${row.label}: rank 0 comm ${row.ranks[0]!.commUs}`);
      for (const stat of row.ranks) {
        assert.ok(stat && stat.overlappedUs <= stat.commUs && stat.commUs <= stat.stepUs);
        assert.ok(Math.abs(stat.workUs - (stat.stepUs - stat.commUs + stat.overlappedUs)) < 1e-6);
      }
    }
  });

  test("rank 0's wait on the timeline and its communication in the table: one number, of one all_reduce run (review 17Y Y5: 41.7 ms beside 41.8 ms)", async () => {
    const content = await readTimelineSource({
      kind: 'ranks',
      tracePaths: ['rank0', 'rank1'].map((r) => path.join(RANKS, `straggler/${r}.trace.json`)),
    });
    const models = (await sentTraces(content)).map((m) => m.pane.trace);
    const rank0 = models[0]!;
    const table = rankStepTable(models);
    const rows = new TrackRows(rank0, 0).rows;
    const said: [string, string][] = rank0.steps.map((step, k) => {
      // the step across a wide canvas: the label's longest form, "44.5 ms idle, 41.7 ms of it in all_reduce", its time
      // in the collective named as such, the table's communication (review 18Z Z1: the wait for a rank is another
      // quantity, said apart where the ranks' clocks compare)
      const xOf = (t: number): number => LABEL_WIDTH + ((t - step.start) / (step.end - step.start)) * 4000;
      const width: Measure = { width: (text) => 6 * text.length, ascent: 8, descent: 3 };
      const waits = unrecordedLabels(rank0, rows, step.start, step.end, xOf, width, communicationNames(rank0.names));
      const wait = waits.filter((label) => label.op !== null);
      assert.equal(wait.length, 1, step.label);
      const { stretch, text } = wait[0]!;
      const commUs = table.rows[k]!.ranks[0]!.commUs;
      // the same slice: the run on gloo's thread, not the 69 µs call on the step's thread that hands it over
      assert.ok(Math.abs(stretch.toUs - stretch.fromUs - commUs) < 1e-6, `${step.label}: ${text} against ${commUs} µs`);
      return [/ ([\d.]+ ms) of it in all_reduce/.exec(text ?? '')?.[1] ?? text ?? '', formatUs(commUs)];
    });
    assert.deepEqual(
      said.map(([label]) => label),
      said.map(([, cell]) => cell),
    );
    assert.equal(said[0]![1], '41.7 ms');
  });

  test('traces without ProfilerStep spans (one gzip): one whole-trace row per rank, on one axis', async () => {
    const content = await readTimelineSource({
      kind: 'ranks',
      tracePaths: [
        path.join(RANKS, 'unscheduled/rank0.trace.json'),
        path.join(RANKS, 'unscheduled/rank1.trace.json.gz'),
      ],
    });
    const panes = (await sentTraces(content)).map((m) => m.pane);
    const table = rankStepTable(panes.map((p) => p.trace));
    assert.equal(table.wholeTrace, true);
    assert.ok(table.rows[0]!.ranks.every((s) => s !== null && s.commUs > 0));
    assert.equal(rankAlignment(panes.map((p) => ({ trace: p.trace, rank: p.rank! }))).mode, 'absolute');
  });
});
