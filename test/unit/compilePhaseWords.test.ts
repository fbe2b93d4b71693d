// Compile phases on the timeline (extension/shared/trace/compilePhaseWords.ts), review 9E E4/E5 and 9C C6: on the
// recorded DDP job's rank 1, which recompiled in step 2, PyTorch's `dynamo_timed` records each phase twice, by its key
// and with " (dynamo_timed)"; both twins are compile slices (the plain one read as a blue "CPU op" before) and
// both are said in words, never as PyTorch's function; the words are the compile-phases chart's, as the runner
// labels its spans.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { compilePhaseWords } from '../../extension/shared/trace/compilePhaseWords.ts';
import { SliceKind } from '../../extension/shared/trace/model.ts';
import { traceNameWords } from '../../extension/shared/trace/traceWords.ts';

const ROOT = path.join(__dirname, '..', '..');
const RANK1 = path.join(ROOT, 'test/fixtures/reports/ddp-ranks-cpu/ranks/rank1/rank1.trace.json.gz');
const TIMED = ' (dynamo_timed)';

test("rank 1's compile phases: each twin a compile slice, said in words", async () => {
  const model = await scanTraceFile(RANK1);
  const names = new Set(model.names);
  const twins = [...names].filter((n) => n.endsWith(TIMED)).map((n) => n.slice(0, -TIMED.length));
  assert.ok(twins.filter((n) => names.has(n)).length >= 30, 'the recording holds the plain twins');
  const kinds = new Map<string, Set<SliceKind>>();
  for (let i = 0; i < model.count; i++) {
    const name = model.names[model.name[i]!]!;
    if (!kinds.has(name)) kinds.set(name, new Set());
    kinds.get(name)!.add(model.kind[i]!);
  }
  const wrong: string[] = [];
  for (const key of twins)
    for (const name of [key, key + TIMED]) {
      if (!kinds.has(name)) continue;
      if ([...kinds.get(name)!].some((k) => k !== SliceKind.Compile)) wrong.push(`${name}: not compile`);
      const words = traceNameWords(name);
      // PyTorch's function ("GraphLowering.compile_to_fn", "compile_fx.<locals>.fw_compiler_base") is no word
      if (!words || /dynamo_timed|<locals>|\w\.\w|^_/.test(words)) wrong.push(`${name} → ${words}`);
    }
  assert.deepEqual(wrong, []);
  // the screenshots' rows, each twin alike
  const rows: [string, string][] = [
    ['_compile.compile_inner', 'Dynamo: whole frame'],
    // what the span is, not "Dynamo: attempt 1" (review E5): Dynamo's trace of the frame and its compile, a restart
    // the next attempt, in the chart's words for its traces, "(given up, restarted)", "(again)" (review 19Y Y5)
    ['compile_attempt_0', 'Dynamo: trace and compile'],
    ['compile_attempt_1', 'Dynamo: trace and compile again (attempt 2: the one before given up, restarted)'],
    ['compile_fx.<locals>.fw_compiler_base', 'forward compile'],
    ['GraphLowering.compile_to_fn', 'Inductor: codegen and load'],
    ['PyCodeCache.load_by_key_path', 'Inductor: load module'],
    ['async_compile.wait', 'Inductor: waiting for kernel compiles'],
    ['pass.post_grad_passes.remove_noop_ops', 'Inductor: post-grad pass remove_noop_ops'],
  ];
  for (const [name, said] of rows) {
    assert.equal(compilePhaseWords(name), said);
    assert.equal(compilePhaseWords(name + TIMED), said);
  }
});

test("a phase the compile-phases chart labels is said in the runner's label, one name for one phase", () => {
  // the one table both read (compiler/phase_labels.json); no later entry of the timeline's own words renames one
  const { labels } = JSON.parse(
    readFileSync(path.join(ROOT, 'native-runner/compile_lens_runner/compiler/phase_labels.json'), 'utf8'),
  ) as { labels: Record<string, string> };
  assert.ok(Object.keys(labels).length >= 10, `${Object.keys(labels).length} labels read`);
  for (const [span, label] of Object.entries(labels)) assert.equal(compilePhaseWords(span), label, span);
  // review 10 D12/C12: a cache hit's load was "cache hit: load" in one report and "load from cache" in another
  assert.equal(compilePhaseWords('AOTAutogradCache.inductor_load (dynamo_timed)'), 'load from cache');
});

test('a name that is no compile phase is none', () => {
  for (const name of [
    'aten::addmm',
    'gloo:all_reduce',
    'ProfilerStep#2',
    'my_annotation',
    'DistributedDataParallel.forward',
  ])
    assert.equal(compilePhaseWords(name), null, name);
  // a dynamo_timed key not in the table: by its key, without the suffix
  assert.equal(compilePhaseWords('FxGraphCache.lookup (dynamo_timed)'), 'compile phase FxGraphCache.lookup');
});
