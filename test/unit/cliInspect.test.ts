// `compile-lens inspect` and `check --logs` on logs made elsewhere: a plain TORCH_TRACE run of a script in another
// folder (real torch.compile on CPU, no Compile Lens in it) read from the workspace, whose copy of the script gets the
// findings; tlparse's messy rank folder; a recorded compile Dynamo restarted; bad --source-map rules. The real runner
// runs `inspect` (no torch needed). The script compiles with Dynamo's eager backend: what is asserted of its logs (the
// breaks, recompiles and their lines) is Dynamo's; Inductor's kernels are asserted on a recorded log below.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../extension/cli/main.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { buildCompilerTree, type CompilerTreeNode } from '../../extension/present/compilerTree.ts';
import { kernelLenses } from '../../extension/present/kernelLinks.ts';
import { formatLogsDigest } from '../../extension/present/logsDigest.ts';

const PYTHON = process.env['COMPILE_LENS_PYTHON'] ?? 'python3';
const TLPARSE = path.resolve(__dirname, '..', 'fixtures', 'tlparse');
const LOGS = path.resolve(__dirname, '..', 'fixtures', 'logs');
const SCRIPT = `import torch


@torch.compile(dynamic=False, backend="eager")  # MARK: decorator
def step(x):
    y = x * 2
    print("halfway")  # MARK: break
    return y.relu()


for n in (4, 4, 6):
    step(torch.ones(n))  # MARK: call
`;
let dir: string;
let logs: string;
let workspace: string;
const cwd = process.cwd();

const lineOf = (text: string, mark: string) => text.split('\n').findIndex((l) => l.includes(mark)) + 1;

before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cl-inspect-'));
  // the run: the script where the cluster has it, its log where TORCH_TRACE says
  const elsewhere = path.join(dir, 'cluster', 'home', 'u', 'proj');
  mkdirSync(elsewhere, { recursive: true });
  writeFileSync(path.join(elsewhere, 'train.py'), SCRIPT);
  logs = path.join(dir, 'cluster', 'trace');
  execFileSync(PYTHON, [path.join(elsewhere, 'train.py')], {
    env: { ...process.env, TORCH_TRACE: logs },
    stdio: 'pipe',
    timeout: 300_000,
  });
  // the workspace: a checkout of the same code, and an unrelated train.py that matches only by name
  workspace = path.join(dir, 'ws');
  mkdirSync(path.join(workspace, 'code', 'proj'), { recursive: true });
  mkdirSync(path.join(workspace, 'old'), { recursive: true });
  cpSync(path.join(elsewhere, 'train.py'), path.join(workspace, 'code', 'proj', 'train.py'));
  writeFileSync(path.join(workspace, 'old', 'train.py'), '# another script\n');
  process.chdir(workspace); // the CLI's workspace is its working directory
});
after(() => process.chdir(cwd));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main([...argv, '--python', PYTHON], {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
  });
  return { code, out, err };
}

test("inspect puts a plain TORCH_TRACE run's findings on the workspace copy of the script, at their lines", async () => {
  const { code, out, err } = await cli('inspect', logs, '--json', '--out', path.join(dir, 'report'));
  assert.equal(code, 0, err);
  const result = JSON.parse(out) as {
    reportPath: string;
    counts: Record<string, number>;
    findings: { kind: string; file: string; line: number; count: number }[];
    unmapped: string[];
  };
  const copy = path.join(workspace, 'code', 'proj', 'train.py');
  const found = result.findings.map((f) => [f.kind, f.file, f.line]);
  // the new shape recompiles the function (named at its first line) and the part after the break (at the break)
  const [decorator, print] = [lineOf(SCRIPT, 'MARK: decorator'), lineOf(SCRIPT, 'MARK: break')];
  assert.deepEqual(found, [
    ['recompile', copy, decorator],
    ['graph-break', copy, print],
    ['recompile', copy, print],
  ]);
  assert.equal(result.findings[1]!.count, 2, 'the break, once per compile of the function');
  assert.deepEqual(
    [result.counts['graphBreaks'], result.counts['graphBreakSites'], result.counts['recompiles']],
    [2, 1, 2],
  );
  assert.deepEqual(result.unmapped, []);
  // the saved report has the workspace's paths too (the report panel and the editor read it) and says how they were mapped
  const saved = JSON.parse(readFileSync(result.reportPath, 'utf8')) as {
    logs: { sourceMap: { status: string; to: string }[] };
  };
  assert.deepEqual(
    saved.logs.sourceMap.map((m) => [m.status, m.to]),
    [['suffix', copy]],
  );
});

test('inspect prints the findings and a --source-map rule that names no workspace file is said, not guessed', async () => {
  const rule = `${path.join(dir, 'cluster', 'home', 'u')}=${path.join(workspace, 'old')}`;
  const { code, out, err } = await cli('inspect', logs, '--source-map', rule, '--out', path.join(dir, 'report-rule'));
  assert.equal(code, 0, err);
  assert.match(out, /^Compile Lens — compiler logs trace: 1 log read, nothing timed$/m);
  assert.match(
    out,
    /^ {2}compiler: \d+ compiles, \d+ graphs, 2 graph breaks at 1 site, 2 recompiles, 0 failed compiles, \d+ restarts?$/m,
  );
  // the runner's words (schema 1.27, report/compiler_text.py), shown as the saved report carries them
  const { report } = await loadReport(path.join(dir, 'report-rule', 'report.json'));
  // the header too (schema 1.29's headerText): the CLI's fallback for a report before it says the same
  assert.equal(report.headerText, 'compiler logs trace: 1 log read, nothing timed');
  const { headerText: _said, ...before } = report;
  assert.equal(formatLogsDigest(before).split('\n')[0], `Compile Lens — ${report.headerText}`);
  const compiler = report.modes[0]!.compiler!;
  assert.ok(compiler.countsText && out.includes(`\n  compiler: ${compiler.countsText}\n`), out);
  if (compiler.compileTimeText) assert.ok(out.includes(`\n  compile time: ${compiler.compileTimeText}\n`), out);
  assert.match(out, new RegExp(`train\\.py:${lineOf(SCRIPT, 'MARK: break')}  Graph break ×2: .*print`));
  assert.match(
    out,
    /not placed in the workspace:\n {4}.*train\.py: the rule .* names a file that is not in the workspace; findings stay at the log's path/,
  );
});

test('check --logs fails a CI job past its limits and passes it within them', async () => {
  const over = await cli(
    'check',
    '--logs',
    logs,
    '--max-graph-breaks',
    '0',
    '--max-recompiles',
    '5',
    '--out',
    path.join(dir, 'c1'),
  );
  assert.equal(over.code, 1, over.err);
  assert.match(over.out, /^check failed: 1 graph breaks \(allowed 0\)$/m);
  const within = await cli(
    'check',
    '--logs',
    logs,
    '--max-graph-breaks',
    '1',
    '--max-recompiles',
    '2',
    '--json',
    '--out',
    path.join(dir, 'c2'),
  );
  assert.equal(within.code, 0, within.err);
  assert.deepEqual((JSON.parse(within.out) as { passed: unknown }).passed, true);
});

test('inspect of a messy rank folder gives the ranks, no divergence, and the files it skipped', async () => {
  const { code, out, err } = await cli(
    'inspect',
    path.join(TLPARSE, 'multi_rank_messy_input'),
    '--json',
    '--out',
    path.join(dir, 'messy'),
  );
  assert.equal(code, 0, err);
  const result = JSON.parse(out) as {
    ranks: { rank: number }[];
    divergence: unknown[];
    warnings: string[];
    reportPath: string;
  };
  const { report } = await loadReport(result.reportPath);
  assert.equal(report.headerText, 'compiler logs multi_rank_messy_input (2 ranks): 2 logs read, nothing timed');
  assert.deepEqual(
    result.ranks.map((r) => r.rank),
    [0, 1],
  );
  assert.deepEqual(result.divergence, []);
  assert.equal(result.warnings.length, 2);
});

test("a compile Dynamo restarted is one compile and one graph: the Compiler view opens its last attempt's graph and code", async () => {
  // restart_float.py (fixtures/logs/README.md): attempt 0 logged a graph taking `scale` as a symbolic float, then
  // Dynamo restarted the compile with it specialised; only attempt 1's graph was compiled and ran
  const { code, out, err } = await cli(
    'inspect',
    path.join(LOGS, 'cpu-restart-float.log'),
    '--json',
    '--out',
    path.join(dir, 'restart'),
  );
  assert.equal(code, 0, err);
  const result = JSON.parse(out) as { reportPath: string; counts: Record<string, number> };
  assert.deepEqual([result.counts['compiles'], result.counts['graphs'], result.counts['restarts']], [1, 1, 1]);
  const { report, dir: reportDir } = await loadReport(result.reportPath);
  const child = (node: CompilerTreeNode, label: string | RegExp): CompilerTreeNode =>
    node.children.find((c) => (typeof label === 'string' ? c.label === label : label.test(c.label)))!;
  const [mode] = buildCompilerTree(report);
  const [frame] = child(mode!, 'Compiled frames (1)').children;
  assert.equal(frame!.description?.split(',')[0], '1 compile');
  const compile = child(frame!, 'first compile');
  const graph = readFileSync(path.join(reportDir, child(compile, 'FX graph').artifact!.path), 'utf8');
  assert.equal(graph.match(/class GraphModule/g)?.length, 1);
  assert.doesNotMatch(graph, /L_scale_/, "the restarted attempt's graph is not shown");
  const compiler = report.modes[0]!.compiler!;
  const [lens] = kernelLenses(compiler.kernels!, '0/0');
  assert.equal(lens!.title, 'fuses lines 9, 11 (add, clamp_max, relu, sin)');
  const outputCode = child(compile, 'Generated code').artifact!.path;
  assert.match(
    readFileSync(path.join(reportDir, outputCode), 'utf8').split('\n')[lens!.line - 1]!,
    /^cpp_fused_add_clamp_relu_sin_0 = async_compile\./,
  );
});

test('a bad --source-map and a missing path are usage errors with the fix', async () => {
  const bad = await cli('inspect', logs, '--source-map', 'nowhere');
  assert.equal(bad.code, 2);
  assert.match(
    bad.err,
    /--source-map: a source map rule must look like \/path\/on\/the\/cluster=\/path\/in\/the\/workspace/,
  );
  const none = await cli('inspect');
  assert.equal(none.code, 2);
  assert.match(none.err, /give one or more compiler logs/);
});
