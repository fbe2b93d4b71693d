// Kernel <-> user line links on real reports: a CPU run (C++ kernels, a recompile) and one built from an H100
// compiler log (Triton kernels): the CodeLens lines land on the kernels in the saved output code, the hover on a
// user line names its kernels, a timeline slice finds its kernel, and the Compiler view opens code, guards, graphs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { buildCompilerTree, type CompilerTreeNode } from '../../extension/present/compilerTree.ts';
import {
  formatUsPerStep,
  codeTarget,
  compiledLineHover,
  compiledLineIndex,
  movedLineIndex,
  kernelForSlice,
  kernelLenses,
  kernelLensTitle,
  kernelWords,
} from '../../extension/present/kernelLinks.ts';
import { compilerTreeAfterEdit } from '../../extension/editor/followEdits.ts';
import type { Report } from '../../extension/shared/report.ts';
import { FIXTURE_REPORTS } from './surfaces.ts';
import { linesText } from '../../extension/present/kernelNames.ts';
import { loadReport } from '../../extension/node/reportFile.ts';

const REPORTS = path.resolve(__dirname, '../fixtures/reports');
const cpu = () => loadReport(path.join(REPORTS, 'fused-cpu/report.json'));
const h100 = () => loadReport(path.join(REPORTS, 'h100-mlp/report.json'));
const find = (nodes: CompilerTreeNode[], label: RegExp): CompilerTreeNode[] =>
  nodes.flatMap((n) => [...(label.test(n.label) ? [n] : []), ...find(n.children, label)]);
const treeLabels = (nodes: CompilerTreeNode[]): string[] => nodes.flatMap((n) => [n.label, ...treeLabels(n.children)]);
const codeLine = (dir: string, relative: string, line: number): string =>
  readFileSync(path.join(dir, relative), 'utf8').split('\n')[line - 1]!;

test('CPU: a lens per kernel on its line of the saved output code, saying which user lines it fuses', async () => {
  const { report, dir } = await cpu();
  const compiler = report.modes[0]!.compiler!;
  for (const compile of compiler.compiles!) {
    const lenses = kernelLenses(compiler.kernels!, compile.compileId);
    assert.deepEqual(
      lenses.map((l) => l.title),
      ['fuses lines 12, 13 (add, mul, relu)', 'library call for line 11 (addmm)'],
    );
    assert.match(
      codeLine(dir, compile.outputCode!, lenses[0]!.line),
      /^cpp_fused_add_mul_relu_0 = async_compile\.cpp_pybinding\(/,
    );
    assert.match(codeLine(dir, compile.outputCode!, lenses[1]!.line), /^\s+extern_kernels\.addmm\(/);
    assert.deepEqual(
      lenses[0]!.kernel.sourceLines.map((l) => l.code),
      ['h = h * 2.0 + 1.0', 'return torch.relu(h)'],
    );
  }
});

test("H100: the Triton kernel's lens sits on its definition", async () => {
  const { report, dir } = await h100();
  const compiler = report.modes[0]!.compiler!;
  const [first] = compiler.compiles!;
  const triton = kernelLenses(compiler.kernels!, first!.compileId).find(
    (l) => l.kernel.name === 'triton_poi_fused_addmm_relu_0',
  )!;
  assert.equal(triton.title, 'fuses line 19 (add, relu)');
  assert.equal(
    codeLine(dir, first!.outputCode!, triton.line),
    "triton_poi_fused_addmm_relu_0 = async_compile.triton('triton_poi_fused_addmm_relu_0', '''",
  );
  assert.deepEqual(codeTarget(report, 'default', triton.kernel), {
    mode: 'default',
    compileId: '0/0',
    outputCode: first!.outputCode,
    line: triton.line,
  });
});

test("a compiled user line's hover: its kernels in the runner's words, time per step, a link to the code", async () => {
  const { report } = await cpu();
  const file = report.modes[0]!.compiler!.kernels![1]!.sourceLines[0]!.file;
  const uses = compiledLineIndex(report).get(file)!.get(12)!;
  assert.deepEqual(
    uses.map((u) => [u.kernel.name, u.kernel.compileId]),
    [
      ['cpp_fused_add_mul_relu_0', '0/0'],
      ['cpp_fused_add_mul_relu_0', '0/1'],
    ],
  );
  const hover = compiledLineHover(uses, (u) => `command:open?${u.target!.compileId}`);
  const lines = hover.split('\n');
  assert.equal(lines[0], '**Compile Lens — compiled into**');
  // one entry for the kernel both compiles made, as the runner says it (schema 1.29: the compiles by their function,
  // not by Dynamo's ids), spoken for by the recompile, the one that ran in the profile (the timed inputs recompiled
  // it); no mode prefix where the line was compiled in one mode
  assert.equal(lines.length, 3);
  assert.match(
    lines[2]!,
    /^- fused C\\\+\\\+ function 1 \\\(lines 12, 13\\\), made by 2 compiles: forward \\\(first compile and the recompile for x's size 16 in dimension 0\\\) · 0\.891 µs\/step under the profiler, mean of steps 2–3 · add, mul, relu · `cpp_fused_add_mul_relu_0` — \[Open generated code\]\(command:open\?0\/1\)$/,
  );
  // the steps the compare counts, its number (review 13O O2: "0.943 µs/step … mean of every profiled step" here,
  // "0.891 µs/step" of steps 2–3 in the compare); a report before kernelSteps says every step, as it was
  assert.equal(formatUsPerStep(0.943, null), '0.943 µs/step under the profiler, mean of every profiled step');
  assert.equal(formatUsPerStep(2.4, { first: 4, last: 4 }), '2.40 µs/step under the profiler, mean of step 4');
  // the steps as the runner says them (schema 1.45 kernelSteps.text; code read 37 item 5: words on the TS side)
  assert.equal(
    formatUsPerStep(2.4, { first: 4, last: 4, text: 'the runner’s steps' }),
    '2.40 µs/step under the profiler, mean of the runner’s steps',
  );
  // a script's kernel timed from its region's profile says that region's steps (schema 1.49), not its mode's
  const ownSteps = {
    ...uses[0]!,
    kernel: { ...uses[0]!.kernel, usPerStep: 2.4, kernelSteps: { first: 3, last: 4, text: 'steps 3–4' } },
  };
  assert.match(
    compiledLineHover([ownSteps], () => null),
    /µs\/step under the profiler, mean of steps 3–4 · /,
  );
  const twoModes = compiledLineHover([uses[0]!, { ...uses[0]!, mode: 'max-autotune' }], () => null);
  assert.match(
    twoModes,
    /^- default: fused C\\\+\\\+ function 1 .*\n- max\\-autotune: fused C\\\+\\\+ function 1 /m,
    'the mode is named where the line was compiled in several',
  );
  assert.match(
    compiledLineHover(compiledLineIndex(report).get(file)!.get(11)!, () => null),
    /^- library call for line 11 \\\(addmm\\\), made by 2 compiles: forward \\\(first compile and the recompile for x's size 16 in dimension 0\\\) · `extern_kernels\.addmm`$/m,
    "line 11 went into the addmm library call of each compile, its ops said once, in the runner's words",
  );
});

test("a line inserted above a kernel's lines: the hover and the Compiler view name the lines where they are now", async () => {
  const { report } = await cpu();
  const file = report.modes[0]!.compiler!.kernels![1]!.sourceLines[0]!.file;
  const top = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'import os\n' };
  const edited = movedLineIndex(compiledLineIndex(report), file, [top]);
  assert.equal(
    edited.get(file)!.get(12)?.[0]?.kernel.name,
    'extern_kernels.addmm',
    "line 11's library call moved onto 12",
  );
  // the runner's words, only their line numbers moved
  assert.match(
    compiledLineHover(edited.get(file)!.get(13)!, () => null),
    /^- fused C\\\+\\\+ function 1 \\\(lines 13, 14\\\), made by 2 compiles: forward \\\(first compile and the recompile for x's size 16 in dimension 0\\\) · /m,
  );
  assert.match(
    compiledLineHover(edited.get(file)!.get(12)!, () => null),
    /^- library call for line 12 /m,
  );
  const below = { range: { start: { line: 40, character: 0 }, end: { line: 40, character: 0 } }, text: '\n' };
  assert.match(
    compiledLineHover(movedLineIndex(edited, file, [below]).get(file)!.get(13)!, () => null),
    /\(lines 13, 14\\\)/,
    'an edit below moves nothing',
  );

  const tree = compilerTreeAfterEdit(buildCompilerTree(report), { file, cell: null }, [top]);
  const [kernelNode] = find(
    tree,
    /^fused C\+\+ function 1 of forward, recompiled for x's size 16 in dimension 0 \(lines 13, 14\)$/,
  );
  assert.ok(kernelNode, treeLabels(tree).join(' | '));
  assert.equal(kernelNode.location?.line, 13, 'it opens the line where it is now');
  assert.match(kernelNode.tooltip!, /^cpp_fused_add_mul_relu_0: fuses lines 13, 14 /);
  assert.deepEqual(
    kernelNode.children.slice(1).map((n) => [n.label, n.description, n.location?.line]),
    [
      ['fused.py:13', 'h = h * 2.0 + 1.0', 13],
      ['fused.py:14', 'return torch.relu(h)', 14],
    ],
    "each line where it is now, its code as written; the generated code's line stays",
  );
  assert.equal(kernelNode.children[0]!.description, 'line 34');
  assert.equal(
    compilerTreeAfterEdit(tree, { file: '/elsewhere/other.py', cell: null }, [top])
      .map((n) => treeLabels([n]).join())
      .join(),
    tree.map((n) => treeLabels([n]).join()).join(),
    'an edit of another file moves nothing',
  );
});

test("a report before the runner's kernel words (schema 1.28/1.29) gets the same words in the hover", () => {
  let said = 0;
  for (const { name, report } of FIXTURE_REPORTS) {
    // the report without the runner's names of compiles and kernels
    const bare = JSON.parse(
      JSON.stringify(report, (key, value: unknown) =>
        ['nameText', 'lensText', 'sharedText'].includes(key) ? undefined : value,
      ),
    ) as Report;
    const words = (r: Report): string[] =>
      [...compiledLineIndex(r).values()].flatMap((byLine) => [...byLine.values()].flat().map((u) => u.said));
    // nor what a recompile was made for (its failed guard's madeFor, schema 1.34): such a report says its number;
    // and PyTorch's wrapper of a script's compiled module, which the runner names by the region, by where it is
    const unsaid: (readonly [string, string])[] = [
      ...[...report.modes, ...(report.regions ?? [])]
        .flatMap((e) => e.compiler?.recompiles ?? [])
        .flatMap((r) => {
          const madeFor = r.explanation?.madeFor;
          const number = `recompile ${Number(r.compileId?.split('/')[1])}`;
          return madeFor
            ? [[`the recompile for ${madeFor}`, number] as const, [`recompiled for ${madeFor}`, number] as const]
            : [];
        }),
      ...(report.regions ?? []).flatMap((r) => {
        const wrapper = r.compiler?.frames?.find(
          (f) => (f.library?.startsWith("PyTorch's") ?? false) || f.function === 'inner',
        );
        const at = r.location;
        if (!wrapper || !at) return [];
        const where = wrapper.library ? `(in ${wrapper.library})` : '(not in your files)';
        const caller = wrapper.calledFrom; // the user's line that called it (schema 1.35)
        const alone = caller
          ? `the compiled module called at ${path.basename(caller.file)}:${caller.line}`
          : `${wrapper.function} ${where}`;
        return [[`${r.name} at ${path.basename(at.file)}:${at.line}`, alone] as const];
      }),
    ];
    const asOlder = (said: string): string => unsaid.reduce((text, [from, to]) => text.replaceAll(from, to), said);
    const runner = words(report);
    assert.deepEqual(words(bare), runner.map(asOlder), name);
    said += runner.length;
  }
  assert.ok(said > 20, `${said} kernel uses said`);
});

test('report strings in the hover are escaped: a hostile mode name or file cannot make a link', () => {
  const kernel = {
    name: 'k`](command:evil)',
    atenOps: ['aten.x](command:evil)'],
    sourceLines: [
      { file: '/a/[x](command:evil).py', line: 1 },
      { file: '/b.py', line: 2 },
    ],
  };
  const hover = compiledLineHover(
    [{ mode: 'm](command:evil)', kernel, said: kernelWords(kernel, 'forward'), target: null, steps: null }],
    () => null,
  );
  // the kernel name is a code span (no backtick can end it early); everything else is escaped
  assert.match(hover, /`k'\]\(command:evil\)`/);
  assert.doesNotMatch(hover.replace(/`[^`]*`/g, ''), /[^\\]\]\(command:evil\)/);
  assert.match(hover, /\\\[x\\\]\\\(command:evil\\\)\.py:1, b\.py:2/);
  assert.equal(
    linesText([
      { file: '/a/x.py', line: 3 },
      { file: '/b/y.py', line: 4 },
    ]),
    'x.py:3, y.py:4',
  );
  assert.equal(kernelLensTitle({ name: 'k', atenOps: [], sourceLines: [] }), 'fuses no user line known');
});

test('a timeline slice finds its kernel: C++ kernels by graph_<n>_ name and compiled region, Triton by name', async () => {
  const kernels = (await cpu()).report.modes[0]!.compiler!.kernels!;
  assert.equal(kernelForSlice('graph_3_cpp_fused_add_mul_relu_0', kernels, '0/1')?.compileId, '0/1');
  assert.equal(
    kernelForSlice('graph_3_cpp_fused_add_mul_relu_0', kernels, null),
    null,
    'two compiles have that kernel: no guess',
  );
  assert.equal(kernelForSlice('aten::addmm', kernels, '0/1'), null);
  const triton = (await h100()).report.modes[0]!.compiler!.kernels!;
  assert.equal(kernelForSlice('triton_poi_fused_addmm_relu_0', triton, '0/0')?.usPerStep, 1.131);
});

test("the Compiler view opens each compile's generated code, guards and FX graph, and the guard a recompile failed", async () => {
  const { report, dir } = await cpu();
  const tree = buildCompilerTree(report);
  // named by which compile of forward they are, not by Dynamo's compile ids 0/0 and 0/1
  const [compile0, compile1] = find(tree, /^(first compile|recompile 1)$/);
  assert.deepEqual(
    [compile0, compile1].map((n) => n!.label),
    ['first compile', 'recompile 1'],
  );
  assert.deepEqual(
    compile0!.children.slice(0, 3).map((n) => [n.label, n.artifact?.kind, n.artifact?.path]),
    [
      ['Generated code', 'code', 'compiler/default/0_0/output_code.py'],
      ['Guards (24)', 'guards', 'compiler/default/0_0/guards.txt'],
      ['FX graph', 'fxGraph', 'compiler/default/0_0/fx_graph.py'],
    ],
  );
  // the guard said as the runner's sentence, leading (reportB D10: the dump's sizes sat off-screen); PyTorch's guard
  // behind a child that opens the guards file at it
  const [failed] = find([compile1!], /^Input 'x' changed size in dimension 0 from 8 to 16; the compiled code had been/);
  assert.equal(failed!.description, 'Why forward was not reused');
  assert.equal(failed!.artifact, undefined, 'the sentence opens no dump');
  const [raw] = failed!.children;
  assert.equal(raw!.label, "raw guard (PyTorch's words)");
  assert.match(raw!.tooltip!, /PyTorch's guard that failed \(Dynamo's compile id 0\/0\): TENSOR_MATCH/);
  const { path: guards, line, highlight } = raw!.artifact!;
  assert.equal(guards, 'compiler/default/0_0/guards.txt');
  assert.match(codeLine(dir, guards, line!), /TENSOR_MATCH: check_tensor\(L\['x'\].*size=\[8, 64\]/);
  assert.equal(highlight, "tensor 'x' size mismatch at index 0. expected 8, actual 16");
  // the kernel in the runner's words (schema 1.28), as the timeline names it; Inductor's name in its tooltip
  const [kernelNode] = find(
    [compile1!],
    /^fused C\+\+ function 1 of forward, recompiled for x's size 16 in dimension 0 \(lines 12, 13\)$/,
  );
  assert.match(kernelNode!.tooltip!, /^cpp_fused_add_mul_relu_0: fuses lines 12, 13/);
  assert.deepEqual(kernelNode!.children[0]!.artifact, {
    kind: 'code',
    path: 'compiler/default/0_1/output_code.py',
    line: 34,
  });
  assert.deepEqual(
    kernelNode!.children.slice(1).map((n) => n.location?.line),
    [12, 13],
  );
});

test("a frame's compile that a call shared with another frame says the call's sum beside its own (reportB D30)", async () => {
  // print_step.py: call 0 compiled step and, after the print's graph break, its resume frame: 178 ms + 61 ms
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/recorded/print_step-cpu/report.json'));
  const story = report.regions![0]!.story!;
  const callSeconds = /^Call 0 compiled \(([\d.]+ m?s)\)/.exec(story)?.[1];
  assert.ok(callSeconds, story);
  const compiles = find(buildCompilerTree(report), /^first compile$/);
  assert.equal(compiles.length, 2);
  for (const compile of compiles)
    assert.match(compile.description!, new RegExp(`^[\\d.]+ m?s of the ${callSeconds} compiling in call 0`));
});

test("a kernel's ops are said as PyTorch users know them on every surface that lists them (the runner's opsText)", () => {
  // issue 44: 'aten.erf, aten.mul.Tensor' in the lens, the hover, the Compiler view; now 'erf, mul' everywhere
  let said = 0;
  for (const { name, report } of FIXTURE_REPORTS) {
    const kernels = [...report.modes, ...(report.regions ?? [])].flatMap((e) => e.compiler?.kernels ?? []);
    if (!kernels.some((k) => k.opsText)) continue; // a report before schema 1.32: Inductor's names, as recorded
    const hovers = [...compiledLineIndex(report).values()].flatMap((lines) =>
      [...lines.values()].map((uses) => compiledLineHover(uses, () => null)),
    );
    // the Compiler view's kernel nodes (Inductor's name in the tooltip); a graph break's node quotes PyTorch
    const names = new Set(kernels.map((k) => k.name));
    const descriptions = kernelDescriptions(buildCompilerTree(report), names);
    for (const text of [...kernels.map(kernelLensTitle), ...hovers, ...descriptions]) {
      assert.doesNotMatch(text, /\baten\./, `${name}: ${text}`);
      said++;
    }
    assert.ok(
      !descriptions.length || descriptions.some((d) => kernels.some((k) => k.opsText && d.startsWith(k.opsText))),
      `${name}: the Compiler view lists the runner's words`,
    );
  }
  assert.ok(said > 0);
});

const kernelDescriptions = (nodes: CompilerTreeNode[], names: Set<string>): string[] =>
  nodes.flatMap((n) => [
    ...(names.has((n.tooltip ?? '').split(':')[0]!) ? [n.description ?? ''] : []),
    ...kernelDescriptions(n.children, names),
  ]);
