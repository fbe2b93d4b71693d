// The compiler's words explained once (glossary.ts): found in report text, each explained where it appears (the
// panel, the Compiler view, the hover).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { buildCompilerTree, type CompilerTreeNode } from '../../extension/present/compilerTree.ts';
import { collectFindings, escapeMarkdown, findingHover } from '../../extension/present/findings.ts';
import { TERMS, explanation, explanationsOf, splitTerms } from '../../extension/present/glossary.ts';
import { loadReport } from '../../extension/node/reportFile.ts';

test('report text is cut into plain runs and terms, each term once, the text unchanged', () => {
  const text =
    "recompiled because: guard failure: 0/0: TENSOR_MATCH: check_tensor(L['x'], ...) after the recompile_limit (8); a graph break in situ";
  const parts = splitTerms(text);
  assert.equal(parts.map((p) => p.text).join(''), text);
  assert.deepEqual(
    parts.filter((p) => p.term).map((p) => [p.text, p.term!.name]),
    [
      ['guard', 'guard'],
      ['0/0', 'compile id'],
      ['TENSOR_MATCH', 'TENSOR_MATCH'],
      ["L['x']", 'local name'],
      ['recompile_limit', 'recompile limit'],
      ['graph break', 'graph break'],
      ['in situ', 'in situ'],
    ],
  );
  assert.deepEqual(splitTerms('1.22× per step, 0.70 ms'), [{ text: '1.22× per step, 0.70 ms' }]);
  // the runner's and the method's "the host's fastest state" is explained where it appears, as "fast state" is
  assert.deepEqual(explanationsOf("rounds at the host's fastest state of the run"), [explanation('fast state')]);
});

test("each explanation starts with the words it explains, as they appear, then a colon (review 6C: a line of a failed guard's glossary read without its TENSOR_MATCH)", () => {
  for (const term of TERMS) {
    const said = term.explanation.slice(0, term.explanation.indexOf(':'));
    assert.ok(said.includes(term.name) || term.pattern.test(said), `${term.name}: "${term.explanation}"`);
  }
});

test("the Compiler view's failed guard says what TENSOR_MATCH, L['x'], its compile id, its dispatch keys and its trailing comment are, and where x is in the user's code", async () => {
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/reports/fused-cpu/report.json'));
  const all = (nodes: CompilerTreeNode[]): CompilerTreeNode[] => nodes.flatMap((n) => [n, ...all(n.children)]);
  const failed = all(buildCompilerTree(report)).find((n) => n.label === "raw guard (PyTorch's words)");
  assert.ok(failed?.tooltip);
  for (const name of ['TENSOR_MATCH', 'local name', 'compile id', 'DispatchKeySet', 'guard comment'])
    assert.ok(failed.tooltip.includes(explanation(name)), name);
  // review 8 A13: PyTorch's comment names its own linear.py:134, the hover's only "where"; the user's line beside it
  assert.match(failed.tooltip, /# nn\/modules\/linear\.py:134 in forward\n/);
  assert.ok(failed.tooltip.includes("\nIn your code, L['x'] is x, forward's argument (fused.py:10)\n"));
  assert.deepEqual(explanationsOf(failed.tooltip).length, new Set(explanationsOf(failed.tooltip)).size);
});

test("a finding's hover explains the compiler's words it uses, once each", async () => {
  const { report } = await loadReport(path.resolve(__dirname, '../fixtures/reports/graphbreak-cpu/report.json'));
  const found = collectFindings(report);
  const graphBreak = findingHover(found.find((f) => f.kind === 'graph-break')!);
  assert.equal(graphBreak.split(escapeMarkdown(explanation('graph break'))).length, 2);
  const recompile = findingHover(found.find((f) => f.kind === 'recompile' && f.reason.includes('guard'))!);
  assert.ok(recompile.includes(`- *${escapeMarkdown(explanation('guard'))}*`));
});

test("how the numbers were made is said once, in the glossary: the panel's notes beside them, and a tooltip where the words appear", () => {
  assert.deepEqual(explanationsOf('stay eager: 0.71× per call replayed (0.69–0.72×)'), [explanation('replayed')]);
  assert.deepEqual(
    explanationsOf('the observer saves inputs to replay; a CUDA-graph replay'),
    [],
    "another kind of replay is not the region's",
  );
  assert.match(
    explanation('replayed'),
    /^replayed: the region's calls made again, back to back, on inputs saved from the script's own calls/,
  );
  assert.deepEqual(explanationsOf('next run'), [explanation('next run')]);
  // review 4A F11: plain words, not the code's ("fastest round … over interleaved pairs")
  assert.match(explanation('next run'), /speedup: eager's time ÷ compiled time, each side's fastest of its runs/);
  assert.throws(() => explanation('no such term'));
});
