// Compiles named by the user's function, never by Dynamo's compile id: the Compiler view, the kernel hover and
// details, the compile-time rows and the timeline's marks say "forward, recompile 2", on recorded reports and traces.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import {
  attemptName,
  compileName,
  compiledCallName,
  functionName,
  markLabel,
} from '../../extension/present/compileNames.ts';
import { generatedKernelWords, linesText } from '../../extension/present/kernelNames.ts';
import { kernelLensTitle } from '../../extension/present/kernelLinks.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { timelineMarks } from '../../extension/shared/trace/timelineMarks.ts';
import { markSaid } from '../../webview/analysis/sliceNames.ts';
import { FIXTURE_REPORTS } from './surfaces.ts';

const FIXTURES = path.resolve(__dirname, '../fixtures');

/** "the call at train.py:84 (forward in transformers/…, after its graph break at modeling_llama.py:105)" */
const CALL_AT = /^the call at \S+ \((\S+) in (.+?)(, after its graph break at \S+)?\)$/;
/** "the call at ddp_train.py:84 (starting a with statement's context manager, contextlib, after a graph break in it)" */
const CALL_IN_MODULE = /^the call at \S+ \((.+?), (\w+)(, after a graph break in it)?\)$/;

test("a compile is its function and which compile of it: a graph break's resume function reads as the line after it", async () => {
  // graphbreak-cpu (a real run): forward broke at lines 20, 22 and 24; the part after line 24 recompiled twice, for
  // the number line 24 draws (the runner's name: what each recompile was made for)
  const { report } = await loadReport(path.join(FIXTURES, 'reports/graphbreak-cpu/report.json'));
  const frames = report.modes[0]!.compiler!.frames;
  assert.deepEqual(
    ['0/0', '1/0', '3/0', '3/1'].map((id) => compileName(frames, id)),
    [
      'forward',
      'forward after line 20',
      'forward after line 24',
      // whose number (review 10 C8: "the value 0 at line 24"): the call line 24 indexes self.heads with
      'forward after line 24, recompiled for np.random.randint(…) == 0 at line 24',
    ],
  );
  assert.equal(functionName('torch_dynamo_resume_in_step_at_41'), 'step after line 41');
  // a notebook (review 8 A1): the name's line 10 is the exported script's; the frame's location is the break's cell line
  const notebook = { file: '/n/explore.ipynb', line: 7, function: 'torch_dynamo_resume_in_forward_at_10', cell: 2 };
  assert.equal(functionName(notebook.function, notebook), 'forward after cell 3, line 7');
  assert.equal(
    compileName([{ compileId: '1/0', function: notebook.function, location: notebook, seconds: 1 }], '1/0'),
    'forward after cell 3, line 7',
  );
  assert.equal(
    linesText([
      { ...notebook, line: 8 },
      { ...notebook, line: 9 },
    ]),
    'cell 3, lines 8, 9',
  );
  // no frames recorded (a trace opened alone): Dynamo's frames counted from 1, still no id
  assert.equal(compileName(null, '1/1'), 'compiled function 2, recompile 1');
  assert.equal(compileName(frames, null), 'an unknown compile');
  assert.deepEqual(['0/0', '0/3'].map(attemptName), ['first compile', 'recompile 3']);
  // a timeline's "Torch-Compiled Region: 3/2" slice: the compiled code's call by its function; without the runner's
  // names (a report before them), by which recompile it is: no guard says what it was made for
  assert.deepEqual(
    ['0/0', '3/2'].map((id) => compiledCallName(frames, id)),
    [
      'compiled forward',
      'compiled forward after line 24, recompiled for np.random.randint(…) not in (2, 0) at line 24',
    ],
  );
  const unnamed = (frames ?? []).map(({ nameText: _said, ...frame }) => frame);
  assert.equal(compiledCallName(unnamed, '3/2'), 'compiled forward after line 24, recompile 2');
  assert.equal(compiledCallName(null, '1/0'), 'compiled function 2');
});

test("the timeline's marks name the compile by function, with the report, and without one", async () => {
  const model = await scanTraceFile(path.join(FIXTURES, 'traces/cpu-graphbreak-default.trace.json'));
  const { report } = await loadReport(path.join(FIXTURES, 'reports/graphbreak-cpu/report.json'));
  const marks = timelineMarks(model);
  const named = new Set(marks.map((m) => markLabel(m, report.modes[0]!.compiler!.frames)));
  assert.ok(named.has('graph break in forward'), [...named].join(' | '));
  assert.ok(
    [...named].every((label) => !/\b\d+\/\d+\b/.test(label)),
    [...named].join(' | '),
  );
  // with the report's graph breaks: each break by the line that broke, in the frame it broke (the frame alone,
  // "forward after line 20", named the line of the break before it)
  const breaks = report.modes[0]!.compiler!.graphBreaks;
  const said = marks
    .filter((m) => m.kind === 'graph-break')
    .map((m) => markSaid(m, report.modes[0]!.compiler!.frames ?? null, breaks));
  assert.deepEqual(
    [...new Set(said.map((s) => s.text))], // each step's breaks
    [
      // the print at line 20 and the random number at line 24 ran as Python alone: the profiler recorded no op
      // between those graphs (review 6A H2: step 1's 6 ms there read as the compiled call's ops run eagerly);
      // Tensor.item() at line 22 ran aten::item there
      // the break and its line first, what its band spans after them: a label cut to its lane keeps the break
      // (review 8B B1: "Python b…")
      'graph break at line 20, in forward: Python between graphs, no op recorded',
      'graph break at line 22, in forward after line 20: eager code between graphs',
      'graph break at line 24, in forward after line 22: Python between graphs, no op recorded',
    ],
  );
  assert.ok(said.every((s) => s.own?.file === breaks[0]!.location!.file));
  const recompile = await scanTraceFile(
    path.join(FIXTURES, 'traces/recompile_batch-default-recompile-in-region.trimmed.trace.json'),
  );
  const [mark] = timelineMarks(recompile).filter((m) => m.kind === 'recompile');
  assert.equal(markLabel(mark!, null), 'compiled function 1, recompile 2');
});

test("a report's compiles and kernels are named in the runner's words (schema 1.28), and a trace without a report gets the same words", () => {
  let named = 0;
  for (const { name, report } of FIXTURE_REPORTS) {
    const records = [
      ...report.modes.map((m) => ({ compiler: m.compiler, region: null })),
      ...(report.regions ?? []).map((r) => ({ compiler: r.compiler, region: r })),
    ];
    for (const { compiler, region } of records) {
      if (!compiler) continue;
      const frames = compiler.frames ?? [];
      // the timeline's own naming (a trace opened without a report: no nameText) says what the runner says, but for
      // PyTorch's wrapper a compiled module is called through, which the runner names by its region (report/
      // compile_names.region_name; a script's own record by the frame's region): a trace alone does not know the
      // region, and says where the wrapper is; and for a recompile the runner names by what it was made for (its
      // failed guard's madeFor, schema 1.34): a trace alone has no guard, and says which recompile it is
      // (a report before schema 1.31 says no frame's file: the wrapper by its name, `inner`)
      const wrapper = frames.find((f) =>
        f.library
          ? f.library.startsWith("PyTorch's") && !f.function?.startsWith('torch_dynamo_')
          : f.location === null && f.function === 'inner',
      );
      // where the report says the user's line that called the wrapper (schema 1.35), by it
      const wrapperWords = wrapper?.calledFrom
        ? `the compiled module called at ${path.basename(wrapper.calledFrom.file)}:${wrapper.calledFrom.line}`
        : wrapper?.library
          ? `${wrapper.function} (in ${wrapper.library})`
          : `${wrapper?.function} (not in your files)`;
      const frameOf = (id: string): string => id.split('/')[0]!;
      const regionOf = (id: string) =>
        region ??
        (report.regions ?? []).find((r) =>
          r.compiler?.frames?.some((f) => f.compileId && frameOf(f.compileId) === frameOf(id)),
        );
      const alone = (said: string | undefined, id: string): string | undefined => {
        const at = regionOf(id)?.location;
        const regionWords = at ? `${regionOf(id)!.name} at ${path.basename(at.file)}:${at.line}` : null;
        const madeFor = compiler.recompiles.find((r) => r.compileId === id)?.explanation?.madeFor;
        const wrapped = wrapper && regionWords ? said?.replace(regionWords, wrapperWords) : said;
        // a library's frame the runner named by the line its call's graph breaks reached (no calledFrom recorded:
        // compile_names.reached_from, review 10 F5) is named by where it is here, the breaks not read
        const called = frames.find((f) => f.compileId === id)?.calledFrom;
        // and a compile whose backward compiled at the first backward is named for both from its phases, which a
        // trace alone does not hold (compile_names.backward_compiled_after, review 10 D8)
        const unwrapped = (
          called ? wrapped : wrapped?.replace(CALL_AT, '$1 (in $2)$3').replace(CALL_IN_MODULE, '$1 ($2)$3')
        )?.replace(' and its backward', '');
        return madeFor
          ? unwrapped?.replace(`, recompiled for ${madeFor}`, `, recompile ${Number(id.split('/')[1])}`)
          : unwrapped;
      };
      const bare = frames.map(({ nameText: _said, ...f }) => f);
      // a compile that hit the recompile limit: the runner knows it from the compile's failure (schema 1.32), which
      // neither a trace alone nor a report before 1.28 (no names) carries to the naming here
      const limited = new Set(
        (compiler.compileFailures ?? []).filter((f) => f['recompileLimitHit']).map((f) => f['compileId']),
      );
      for (const frame of frames.filter((f) => f.compileId !== null && f.nameText !== undefined)) {
        assert.equal(compileName(frames, frame.compileId), frame.nameText, `${name}: ${frame.compileId}`);
        if (limited.has(frame.compileId)) continue;
        assert.equal(
          compileName(bare, frame.compileId),
          alone(frame.nameText, frame.compileId!),
          `${name}: ${frame.compileId}, no report words`,
        );
        named++;
      }
      for (const kernel of compiler.kernels ?? []) {
        const compile = kernel.compileId ? compileName(bare, kernel.compileId) : null;
        assert.equal(
          generatedKernelWords(kernel.name, compile, kernel.sourceLines) ?? undefined,
          kernel.compileId ? alone(kernel.nameText, kernel.compileId) : kernel.nameText,
          `${name}: ${kernel.name}`,
        );
        assert.equal(
          kernelLensTitle((({ lensText: _said, ...k }) => k)(kernel)),
          kernel.lensText,
          `${name}: ${kernel.name}`,
        );
      }
    }
  }
  assert.ok(named > 10, `${named} compiles named`);
});

test("compiles the report names no function for are named apart, and not as graphs the heading counts (review 9 D7: three 'compiled graph 1' rows under '3 compiles (2 graphs)')", async () => {
  const { report } = await loadReport(path.join(FIXTURES, 'reports/h100-mlp/report.json'));
  const compiler = report.modes[0]!.compiler!;
  assert.match(compiler.phasesText ?? '', /^3 compiles \(2 graphs; 1 made no graph: only autotuned\), /);
  const ids = [...new Set((compiler.phases ?? []).map((p) => p.compileId))];
  // a report without them, named here; the runner's rows (schema 1.46) say which recompile made what, and that the
  // third only autotuned, no recompile (review 13 O6)
  assert.deepEqual(
    ids.map((id) => compileName(compiler.frames, id)),
    ['compiled function 1', 'compiled function 1, recompile 1', 'compiled function 1, recompile 2'],
  );
  const names = ids.map((id) => compiler.phaseRowTexts?.[id]);
  assert.deepEqual(names, [
    'compiled function 1',
    "compiled function 1, recompiled for x's size 64 in dimension 0",
    'compiled function 1: only autotuned, made no graph',
  ]);
  for (const name of names) assert.doesNotMatch(name ?? '', /compiled graph|recompile 2/);
});
