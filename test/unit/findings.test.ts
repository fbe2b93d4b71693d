import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import {
  collectFindings,
  escapeMarkdown,
  escapeSaid,
  findingHover,
  findingMessage,
  findingText,
  quotedLine,
} from '../../extension/present/findings.ts';
import { checkReport, type GraphBreak, type ModeResult, type Report } from '../../extension/shared/report.ts';
import { digestReport, formatDigest } from '../../extension/present/reportDigest.ts';
import { findTargetFunctions } from '../../extension/editor/targets.ts';
import { buildCompilerTree } from '../../extension/present/compilerTree.ts';
import { loadReport } from '../../extension/node/reportFile.ts';

const MODEL = '/ws/model.py';

function mode(name: string, overrides: Partial<ModeResult> = {}): ModeResult {
  return {
    mode: name,
    modeText: `mode='${name}'`, // as the runner writes it (report/mode_line.mode_code)
    status: 'ok',
    error: null,
    compileSeconds: 9.5,
    speedup: 3.31,
    breakEvenCalls: 120,
    trace: `${name}.trace.json`,
    kernelsPerStep: 32,
    timing: {
      medianMs: 4.49,
      minMs: 4.4,
      maxMs: 4.6,
      spreadPct: 4.5,
      rounds: [4.4, 4.49, 4.6],
      callsPerRound: 8,
      method: 'perf_counter',
    },
    compiler: {
      graphCount: 3,
      graphBreaks: [
        {
          reason: 'Unsupported builtin print',
          gbId: 'GB0059',
          docUrl: 'https://example.invalid/gb0059',
          hint: null,
          location: { file: MODEL, line: 12, function: 'forward' },
          userStack: [],
          explanation: {
            pattern: 'print',
            what: 'print() needs the real values while the graph is traced.',
            broke: 'print',
            fix: 'move the print out of the compiled function (print what it returns), or use logging.',
            quickFix: {
              kind: 'move-print',
              title: 'Let it print after the graph',
              statement: 'torch._dynamo.config.reorderable_logging_functions.add(print)',
            },
          },
        },
        {
          reason: 'Tensor.item() call with capture_scalar_outputs=False',
          location: null,
          userStack: [{ file: MODEL, line: 14, function: 'forward' }],
        },
      ],
      recompiles: [
        {
          reason: "tensor 'x' size mismatch at index 0. expected 32, actual 64",
          location: { file: MODEL, line: 30, function: 'compile_target' },
          trigger: 'batch 64 after warmup at 32, dynamic=False',
          explanation: {
            what: "Input 'x' changed size in dimension 0 (32 -> 64).",
            fix: 'torch._dynamo.mark_dynamic(x, 0) before the first call',
            quickFix: { kind: 'compile-dynamic', title: 'Compile Lens: Compile with dynamic=True' },
            quickFixes: [{ kind: 'mark-dynamic', title: 'Compile Lens: Mark the dimension', edits: [] }],
          },
        },
      ],
    },
    ...overrides,
  };
}

const report: Report = {
  schemaVersion: '1.0',
  runner: { version: '0.1.0' },
  createdAt: '2026-11-22T12:00:00Z',
  status: 'partial',
  error: null,
  environment: {
    python: '3.11.7',
    torch: '2.13.0',
    triton: null,
    device: 'cpu',
    deviceName: 'x86_64',
    platform: 'linux',
  },
  target: { kind: 'function', name: 'model.py:compile_target', file: MODEL, function: 'compile_target', line: 20 },
  settings: {},
  eager: {
    timing: {
      medianMs: 14.87,
      minMs: 14,
      maxMs: 15,
      spreadPct: 6,
      rounds: [14, 14.87, 15],
      callsPerRound: 4,
      method: 'perf_counter',
    },
    trace: 'eager.trace.json',
    kernelsPerStep: 59,
  },
  modes: [
    mode('default', {
      outsideGraphsMsPerStep: 0.242,
      eagerTiming: {
        medianMs: 14.86,
        minMs: 14,
        maxMs: 15,
        spreadPct: 5,
        rounds: [14.86],
        callsPerRound: 4,
        method: 'perf_counter',
      },
    }),
    mode('max-autotune', {
      status: 'error',
      speedup: null,
      timing: null,
      compiler: null,
      trace: null,
      error: { kind: 'compile', message: 'Inductor failed', fix: 'report it' },
    }),
    mode('reduce-overhead', {
      speedup: 2.0,
      correctness: { ok: false, maxAbsError: 0.5, dtype: 'float32', message: 'max abs error 0.5 > atol 1e-4' },
      discardedTimings: [
        {
          medianMs: 9,
          minMs: 9,
          maxMs: 9,
          spreadPct: 0,
          rounds: [9],
          callsPerRound: 1,
          method: 'perf_counter',
          valid: false,
          invalidReason: 'a recompile ran inside the timed region',
        },
      ],
    }),
  ],
  recommendation: { mode: 'default', reason: 'fastest with a low spread' },
};

test('the hand-built report used here is valid against the schema', () => {
  const checked = checkReport(report);
  assert.ok(checked.ok, JSON.stringify(checked));
});

test('schema rejects a missing field and an unsupported major version, naming them', () => {
  const { recommendation: _dropped, ...missing } = report;
  const bad = checkReport(missing);
  assert.ok(!bad.ok && bad.problems.some((p) => p.includes("'recommendation'")));
  const future = checkReport({ ...report, schemaVersion: '2.0' });
  assert.ok(!future.ok && /not supported.*update Compile Lens/.test(future.problems[0]!));
});

test('findings: one per site and reason, merged across modes, innermost user frame as location', () => {
  const findings = collectFindings(report);
  assert.deepEqual(
    findings.map((f) => [f.kind, f.line, f.modes]),
    [
      ['graph-break', 12, ['default', 'reduce-overhead']],
      ['graph-break', 14, ['default', 'reduce-overhead']],
      ['recompile', 30, ['default', 'reduce-overhead']],
    ],
  );
  assert.equal(findings[0]!.code, 'GB0059');
  assert.equal(findings[0]!.docUrl, 'https://example.invalid/gb0059');
});

test("hover adds to Problems' sentence, never says it again: the fix, then cost and trigger, PyTorch's words quoted last, PyTorch's code labelled; and escapes report text", () => {
  const [print, item, recompile] = collectFindings(report);
  // VS Code shows the diagnostic's message above the hover (reportA N4: the sentence was said twice)
  assert.match(
    findingHover(print!),
    /^\*\*Compile Lens — Graph break\*\* \(mode='default', mode='reduce\\-overhead'\)\n\n\*\*Fix:\*\*[^\n]*logging[\s\S]*\*\*Cost:\*\* graphs 3 · outside the graphs 0\.242 ms per call\n[\s\S]*> \*\*PyTorch's words:\*\* Unsupported builtin print/,
  );
  // the modes as the panel says them, the report's modeText (review 5A G9: "(mode default)" beside "mode='default'");
  // a report before it (schema 1.33) as it was shown
  const older = { ...report, modes: report.modes.map(({ modeText: _, ...m }) => m) };
  assert.match(
    findingHover(collectFindings(older)[0]!),
    /^\*\*Compile Lens — Graph break\*\* \(mode default, mode reduce/,
  );
  for (const finding of [print!, item!, recompile!])
    assert.ok(!findingHover(finding).includes(escapeMarkdown(findingText(finding))), findingHover(finding));
  assert.match(findingHover(print!), /\n\[PyTorch's graph-break code GB0059\]\(https:\/\/example\.invalid\/gb0059\)$/);
  assert.equal(findingMessage(print!), 'Graph break: print() needs the real values while the graph is traced.');
  assert.match(findingMessage(item!), /capture_scalar_outputs/);
  assert.match(
    findingHover(recompile!),
    /\*\*Fix:\*\*[^\n]*mark\\_dynamic[\s\S]*Triggered by:\*\* batch 64 after warmup at 32/,
  );
  // the runner's words for the cost (schema 1.24), where the report has them; before them, the fields listed above
  const said = structuredClone(report);
  said.modes[0]!.compiler!.breakCost = 'the compiled code is split into 3 graphs; code between them runs eagerly.';
  assert.match(
    findingHover(collectFindings(said)[0]!),
    /\n\*\*Cost:\*\* the compiled code is split into 3 graphs; code between them runs eagerly\.\n/,
  );
  const hostile = findingHover({ ...print!, reason: '<img src=x onerror=alert(1)> [link](javascript:alert(1))' });
  assert.ok(!/(?<!\\)<img/.test(hostile) && !/(?<!\\)\]\(javascript/.test(hostile), hostile);
});

test("fixes are the runner's: displayed as given, and none where the runner gave none (no advice of its own)", () => {
  const [print, item, recompile] = collectFindings(report);
  assert.equal(print!.fix, 'move the print out of the compiled function (print what it returns), or use logging.');
  assert.equal(print!.what, 'print() needs the real values while the graph is traced.');
  assert.equal(print!.quickFixes[0]?.kind, 'move-print');
  // this break has no explanation from the runner: the editor says no fix rather than guess one from the text
  assert.equal(item!.fix, null);
  assert.equal(recompile!.fix, 'torch._dynamo.mark_dynamic(x, 0) before the first call');
  // every edit the runner offers, its first Quick Fix first (schema 1.22: mark_dynamic beside dynamic=True)
  assert.deepEqual(
    recompile!.quickFixes.map((q) => q.kind),
    ['compile-dynamic', 'mark-dynamic'],
  );
  assert.doesNotMatch(findingHover(item!), /\*\*Fix:\*\*/);
  // an explained break shows the runner's fix, not PyTorch's hint into its internals; an unexplained one keeps the hint
  const hinted = { ...print!, hint: 'see https://docs.google.com/document/d/x for how to fix' };
  assert.doesNotMatch(findingHover(hinted), /PyTorch's hint/);
  assert.match(findingHover({ ...item!, hint: 'Set capture_scalar_outputs' }), /PyTorch's hint:\*\* Set capture/);
});

test("a CUDA-graph skip is a finding at the line PyTorch names, with its fix, cost and PyTorch's message", () => {
  const skipped: Report = structuredClone(report);
  skipped.modes[0]!.compiler!.cudaGraphs = [
    { compileId: '0/0', status: 'captured', reason: null },
    {
      compileId: '0/1',
      status: 'skipped',
      reason: 'skipping cudagraphs due to mutated inputs (4 instances).',
      explanation: {
        kind: 'mutated-inputs',
        what: 'The compiled graph writes in place into 4 of its inputs at decode.py:21.',
        fix: 'Make the mutated tensors buffers of the compiled module.',
        cost: 'Every call launches its kernels one by one.',
        location: { file: MODEL, line: 21, function: 'decode', code: 'kc.index_copy_(2, pos, k)' },
        tensors: ['kc'],
      },
    },
    { compileId: '0/2', status: 'unknown', reason: 'This log cannot say whether CUDA graphs ran.' },
  ];
  const found = collectFindings(skipped).filter((f) => f.kind === 'cuda-graphs');
  assert.deepEqual(
    found.map((f) => [f.line, f.code, f.fix]),
    [[21, 'cudagraphs-mutated-inputs', 'Make the mutated tensors buffers of the compiled module.']],
  );
  assert.match(
    findingMessage(found[0]!),
    /^CUDA graphs skipped: The compiled graph writes in place into 4 of its inputs/,
  );
  assert.match(
    findingHover(found[0]!),
    /\*\*Cost:\*\* Every call launches[\s\S]*PyTorch's message:\*\* skipping cudagraphs due to mutated inputs/,
  );
});

test('a region that ran no compiled code is the first finding, at the line that stopped it', () => {
  const script: Report = structuredClone(report);
  script.regions = [
    {
      id: 'r0',
      name: 'TransformerEncoder',
      kind: 'module',
      location: { file: MODEL, line: 40 },
      device: 'cuda',
      options: { mode: 'default' },
      callCount: 6,
      calls: [],
      signatures: [],
      compiler: null,
      steadyState: null,
      replay: { replayable: true, reason: null },
      measurements: [],
      noCompiledCode: {
        headline:
          'No compiled code ran: `aten._transformer_encoder_layer_fwd` broke the graph at model.py:44 before any op was compiled, so every call ran eagerly.',
        cause: '`aten._transformer_encoder_layer_fwd` broke the graph',
        location: { file: MODEL, line: 44 },
        fix: 'torch.backends.mha.set_fastpath_enabled(False)',
        gbId: 'GB0090',
        pattern: 'transformer-fast-path',
      },
    },
  ];
  const findings = collectFindings(script);
  assert.equal(findings[0]!.kind, 'no-compiled-code');
  assert.equal(findings[0]!.line, 44);
  assert.equal(findings[0]!.fix, 'torch.backends.mha.set_fastpath_enabled(False)');
  assert.match(
    findingMessage(findings[0]!),
    /^No compiled code ran: 'aten\._transformer_encoder_layer_fwd' broke the graph/,
  );
  assert.doesNotMatch(findingMessage(findings[0]!), /ran: No compiled/);
  // the break that stopped it, in the region's compiler findings too: one finding for one cause, the break's Quick
  // Fix kept in it
  const fastPathOff = { kind: 'fastpath-off' as const, title: 'Turn the transformer fast path off before compiling' };
  const region = script.regions[0]!;
  region.compiler = {
    ...report.modes[0]!.compiler!,
    graphBreaks: [
      {
        reason: 'Unsupported: aten._transformer_encoder_layer_fwd',
        location: { file: MODEL, line: 44 },
        userStack: [],
        gbId: 'GB0090',
        explanation: {
          pattern: 'transformer-fast-path',
          what: 'the fast path',
          fix: 'torch.backends.mha.set_fastpath_enabled(False)',
          quickFix: fastPathOff,
        },
      } satisfies GraphBreak,
    ],
    recompiles: [],
    recompileSites: [],
  };
  const once = collectFindings(script).filter((f) => f.line === 44);
  assert.deepEqual(
    once.map((f) => f.kind),
    ['no-compiled-code'],
  );
  assert.deepEqual(once[0]!.quickFixes, [fastPathOff]);
});

test('the digest lists each mode, its failures and mismatches, and the findings', () => {
  const digest = digestReport(report);
  const text = formatDigest(digest);
  assert.match(text, /max-autotune: failed — Inductor failed — report it/);
  // a CPU run's count is of its CPU ops, as the panel's compare says (review 18Y Y1); a GPU run's of its kernels
  assert.match(text, /CPU ops\/step 59 → 32/);
  assert.doesNotMatch(text, /kernel/);
  const onGpu = formatDigest(digestReport({ ...report, environment: { ...report.environment, device: 'cuda' } }));
  assert.match(onGpu, /eager: 59 kernels\/step/);
  // a report before the runner's mode line (schema 1.25): its fields listed, no line composed here
  assert.match(
    text,
    /\n {2}default: speedup 3\.31× · compiled 4\.49 ms\/call · eager 14\.9 ms\/call · CPU ops\/step 59 → 32 · /,
  );
  assert.match(
    text,
    /reduce-overhead: [\s\S]*Compiled outputs differ from eager's: max abs error 0\.5 > atol 1e-4\n {4}a recompile ran inside the timed region\n/,
  );
  // why it was timed again is the runner's sentence (schema 1.33; review 3C R8: a bare "re-measured:" led it here)
  const said = 'Timed again, its first timing discarded: a recompile ran inside the timed region';
  const remeasured = {
    ...report,
    modes: report.modes.map((m) => (m.discardedTimings?.length ? { ...m, remeasuredText: said } : m)),
  };
  assert.match(formatDigest(digestReport(remeasured)), new RegExp(`\n {4}${said}\n`));
  assert.match(text, /\/ws\/model\.py:12 {2}graph-break: print\(\) needs the real values/);
});

test('targets: name prefix or marker comment, decorators allowed, nested defs ignored', () => {
  const source = [
    'import torch',
    'def compile_target():',
    '    def compile_target_inner(): pass',
    '    return m, (x,)',
    '# compile-lens: target',
    '@torch.no_grad()',
    'def build_gpt():',
    '    return m, (x,)',
    'def helper(): pass',
  ].join('\n');
  assert.deepEqual(findTargetFunctions(source), [
    { name: 'compile_target', line: 1 },
    { name: 'build_gpt', line: 6 },
  ]);
});

test("compiler tree: a region's breaks counted as its facts and the panel count them (review 5C M9)", async () => {
  // rank 0 of the attach job: DDP's Logger call broke once and its _inside_ddp_forward twice, at one line
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/attach-2x2/job/ranks/rank0/report.json'));
  const [region] = buildCompilerTree(report);
  assert.match(region!.description ?? '', /, 3 breaks, /);
  assert.ok(report.regions![0]!.facts!.includes('3 graph breaks (in compiles that made no graph)'));
  assert.equal(region!.children.find((c) => c.label.startsWith('Graph breaks'))!.label, 'Graph breaks (3)');
});

test('compiler tree: per mode, breaks and recompiles linked to source, failed modes marked', () => {
  const [defaultMode, failed] = buildCompilerTree(report);
  assert.equal(defaultMode!.description, '3 graphs, 2 breaks, 1 recompile');
  const [breaks, recompiles] = defaultMode!.children;
  assert.deepEqual(
    breaks!.children.map((c) => [c.label, c.location?.line]),
    [
      ['model.py:12', 12],
      ['model.py:14', 14],
    ],
  );
  assert.equal(recompiles!.children[0]!.location?.line, 30);
  assert.match(recompiles!.children[0]!.tooltip ?? '', /batch 64 after warmup at 32/);
  assert.equal(failed!.description, 'failed');
});

test("the Compiler view heads a script's regions as the panel does, a notebook's alike, and names frames as the runner does", async () => {
  // review 5C P10/P7: the tree's root "script" (a notebook's too) over "forward (a_print.py:10)", the panel's "Net —
  // a_print.py:16"; the frames by the runner's nameText, PyTorch's wrapper by the user's module it calls
  const fixture = (name: string) => loadReport(path.resolve(__dirname, `../fixtures/${name}/report.json`));
  const { report: ddp } = await fixture('reports/ddp-ranks-cpu');
  const [region] = ddp.regions!;
  const [root, ...others] = buildCompilerTree(ddp);
  assert.equal(others.length, 0);
  assert.equal(root!.label, 'DistributedDataParallel');
  // a torchrun job's counts as the runner says them, each with whose it is (s29)
  assert.equal(root!.description, `ddp_train.py:77 · ${region!.facts!.join(', ')}`);
  assert.match(
    root!.description,
    / · 6 calls, 1 graph and 3 graph breaks \(in compiles that made no graph\) on rank 0, 2 graphs and 4 graph breaks \(in compiles that made no graph\) on rank 1, /,
  );
  const breaks = root!.children.find((n) => n.label.startsWith('Graph breaks'))!;
  assert.equal(breaks.label, 'Graph breaks, by rank');
  assert.match(breaks.children[0]!.description!, /^1 graph break at this line on rank 0, 2 on rank 1: /);
  assert.equal(root!.location?.line, 77);
  const frames = root!.children.find((n) => n.label.startsWith('Compiled frames'))!;
  assert.deepEqual(
    frames.children.map((n) => n.label),
    region!.compiler!.frames!.map((f) => (f.location ? `${f.nameText} (ddp_train.py:${f.location.line})` : f.nameText)),
  );
  assert.equal(frames.children[0]!.label, 'DistributedDataParallel at ddp_train.py:77');
  const { report: notebook } = await fixture('recorded/explore-cpu');
  const roots = buildCompilerTree(notebook);
  assert.deepEqual(
    roots.map((n) => [n.label, n.description?.split(' · ')[0]]),
    [['MLP', 'explore.ipynb cell 4, line 2']],
  );
  // a report of one function: its modes, as the panel's phases say them
  assert.deepEqual(
    buildCompilerTree(report).map((n) => n.label),
    ["mode='default'", "mode='max-autotune'", "mode='reduce-overhead'"],
  );
});

test('a performance hint with a user line is an information finding there; one without a line is not placed', () => {
  const hinted: Report = structuredClone(report);
  hinted.modes[0]!.compiler!.perfHints = [
    {
      kind: 'fallback-kernel',
      op: 'aten.sort',
      what: "Inductor calls ATen's own kernel for `aten.sort`.",
      fix: 'Nothing to do for a library kernel.',
      message: 'Using FallbackKernel: torch.ops.aten.sort.stable',
      location: { file: MODEL, line: 6 },
    },
    {
      kind: 'other',
      op: null,
      what: "PyTorch's performance hint: something",
      fix: null,
      message: 'something',
      location: null,
    },
  ];
  const found = collectFindings(hinted).filter((f) => f.kind === 'perf-hint');
  assert.deepEqual(
    found.map((f) => [f.line, f.code, f.fix]),
    [[6, 'perf-hint-fallback-kernel', 'Nothing to do for a library kernel.']],
  );
  assert.match(
    findingMessage(found[0]!),
    /^PyTorch's performance hint: Inductor calls ATen's own kernel for 'aten\.sort'/,
  );
  assert.match(findingHover(found[0]!), /PyTorch's message:\*\* Using FallbackKernel/);
});

test("recompiles recorded at one line are one Problems entry saying the sizes in order, PyTorch's words in the hover", async () => {
  // train_small.py, a real run (recorded/README.md): `step` recompiled on each of its calls 1-7 as x's dimension 1 grew by 16
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/recorded/train_small-cpu/report.json'));
  const atStep = collectFindings(report).filter((f) => f.kind === 'recompile' && f.line === 40);
  assert.equal(atStep.length, 1, atStep.map(findingMessage).join('\n'));
  const [site] = atStep;
  assert.equal(
    findingMessage(site!),
    "Recompile ×7: Input 'x' changed size in dimension 1: 16 → 32 → 48 → 64 → … → 128; the compiled code was " +
      'specialised to each size in turn, so every new one compiled again.',
  );
  const hover = findingHover(site!);
  // the count as the runner says it (schema 1.25: the site's countText); a report before it: as Problems says it
  assert.match(hover, /^\*\*Compile Lens — 7 recompiles at this line\*\*/);
  assert.match(findingHover({ ...site!, countText: null }), /^\*\*Compile Lens — Recompile ×7\*\*/);
  assert.doesNotMatch(hover, /Input 'x' changed size/, 'said once, by the Problems message above the hover');
  assert.match(hover, /\*\*Fix:\*\* if that dimension varies in use, mark it dynamic/);
  assert.match(hover, /> \*\*PyTorch's words:\*\* tensor 'x' size mismatch at index 1\. expected 16, actual 32/);
  assert.match(formatDigest(digestReport(report)), / {2}recompile ×7: Input 'x' changed size in dimension 1: 16 → 32/);
});

test("the hover quotes PyTorch's words in about one line: a long message its heading, '…' where words were left out", async () => {
  // review 4A M10: graphbreak.py's item break quoted whole ran to a second line, cut at the hover's bottom edge
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/reports/graphbreak-cpu/report.json'));
  const item = collectFindings(report).find((f) => f.kind === 'graph-break' && f.line === 22)!;
  const quote = findingHover(item)
    .split('\n')
    .find((l) => l.startsWith("> **PyTorch's words:**"));
  assert.equal(
    quote,
    "> **PyTorch's words:** Unsupported Tensor.item\\(\\) call with capture\\_scalar\\_outputs=False …",
  );
  // a short one, whole (a guard's own ": " kept)
  assert.equal(
    quotedLine('self.calls == 16 (guard from: self.calls += 1)'),
    'self.calls == 16 (guard from: self.calls += 1)',
  );
  assert.equal(quotedLine('first line\n  second line'), 'first line …');
});

test("the hover shows the runner's quoted code as code, never as backslashed backticks (review 5A G1)", () => {
  const fix = 'keep the condition a tensor (`h.mean() > 0`, without .item())';
  assert.equal(escapeSaid(fix), 'keep the condition a tensor \\(`h.mean() > 0`, without .item\\(\\)\\)');
  assert.equal(escapeSaid('no code *here*'), escapeMarkdown('no code *here*'));
});

test("a graph break's hover says its fix as the runner's every 'Fix:', lower case after it (review 22Y Y1)", async () => {
  // graphbreak.py's item branch and print: "**Fix:** Make it branchless …" beside the runner's "Fix: mark …"
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/reports/graphbreak-cpu/report.json'));
  const breaks = collectFindings(report).filter((f) => f.kind === 'graph-break' && f.fix !== null);
  assert.ok(breaks.length >= 2, `${breaks.length} graph breaks with a fix`);
  const fixes = breaks.map((f) =>
    findingHover(f)
      .split('\n')
      .find((l) => l.startsWith('**Fix:** '))!,
  );
  assert.ok(
    fixes.some((l) => l.startsWith('**Fix:** make it branchless by keeping the condition a tensor')),
    fixes.join(' | '),
  );
  for (const line of fixes) assert.match(line, /^\*\*Fix:\*\* [a-z]/);
});
