import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { afterImports, quickFixEdit, type QuickFixEdit } from '../../extension/editor/quickFixes.ts';
import type { QuickFix, Report } from '../../extension/shared/report.ts';

/** What the editor's WorkspaceEdit does with the edits (they never overlap). */
function apply(source: string, edit: QuickFixEdit): string {
  const lines = source.split('\n');
  const offset = (line: number, column: number): number =>
    lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + column;
  let out = source;
  for (const e of [...edit.edits].sort((a, b) => offset(b.line, b.column) - offset(a.line, a.column))) {
    out = out.slice(0, offset(e.line, e.column)) + e.text + out.slice(offset(e.endLine, e.endColumn));
  }
  return out;
}

const WHY = path.resolve(__dirname, '../fixtures/why');
const ENCODER = readFileSync(path.join(WHY, 'encoder_fastpath.py'), 'utf8');
// the runner's report of the script's run on the H200 (../fixtures/recorded/README.md)
const ENCODER_REPORT = JSON.parse(
  readFileSync(path.resolve(__dirname, '../fixtures/recorded/encoder_fastpath-h200/report.json'), 'utf8'),
) as Report;
const FASTPATH_OFF = ENCODER_REPORT.regions![0]!.compiler!.graphBreaks[0]!.explanation!.quickFix!;
// as the runner's compiler/quick_fixes.py writes them
const MOVE_PRINT: QuickFix = {
  kind: 'move-print',
  title: 'Compile Lens: Let torch.compile print after the graph runs (no graph break)',
  statement: 'torch._dynamo.config.reorderable_logging_functions.add(print)',
  comment: 'Compile Lens quick fix: print() is deferred to after the compiled graph instead of breaking it',
};
const COMPILE_DYNAMIC: QuickFix = {
  kind: 'compile-dynamic',
  title: 'Compile Lens: Compile with dynamic=True (one graph for every size)',
};

test('the fast-path fix goes after the imports, before the model is built and compiled', () => {
  const edit = quickFixEdit(FASTPATH_OFF, ENCODER)!;
  assert.match(edit.title, /fast path off/);
  const fixed = apply(ENCODER, edit).split('\n');
  const at = fixed.findIndex((l) => l.startsWith('torch.backends.mha.set_fastpath_enabled(False)'));
  assert.ok(at > fixed.indexOf('from torch import nn'), fixed.join('\n'));
  assert.ok(at < fixed.findIndex((l) => l.includes('torch.compile(')));
  assert.equal(fixed.filter((l) => l === 'import torch').length, 1); // torch was imported already
  // applied once: the file then has it, and no second edit is offered
  assert.equal(quickFixEdit(FASTPATH_OFF, apply(ENCODER, edit)), null);
});

test('imports: a docstring, comments, parenthesised and continued imports are kept whole', () => {
  const source = [
    '#!/usr/bin/env python',
    '"""Serve.',
    '',
    'More text."""',
    '# a comment',
    'from typing import (',
    '    Any,',
    ')',
    'import os, \\',
    '    sys',
    '',
    'x = 1',
  ].join('\n');
  assert.equal(afterImports(source.split('\n')), 10);
  assert.equal(afterImports(['"""One line."""', 'x = 1']), 1);
  assert.equal(afterImports(['x = 1', 'import torch']), 0); // code before any import: the top of the module
});

test('a file that does not import torch gets the import with the fix', () => {
  const source = ['import numpy as np', '', 'def step(x):', '    print(x)', '    return x'].join('\n');
  const fixed = apply(source, quickFixEdit(MOVE_PRINT, source)!);
  assert.deepEqual(fixed.split('\n').slice(0, 3), [
    'import numpy as np',
    'import torch',
    'torch._dynamo.config.reorderable_logging_functions.add(print)  # Compile Lens quick fix: print() is deferred to after the compiled graph instead of breaking it',
  ]);
  // `import torch as th` does not bind `torch`
  assert.match(
    apply('import torch as th\n', quickFixEdit(FASTPATH_OFF, 'import torch as th\n')!),
    /^import torch as th\nimport torch\ntorch\.backends/,
  );
});

test("warmup-shape: the runner's replacement, only where the warm-up call still says what the run read", () => {
  const source = [
    'import torch',
    '',
    'step = torch.compile(f)',
    'step(torch.ones(1, 8))  # warm-up',
    'for _ in range(6):',
    '    step(torch.ones(4, 8))',
  ].join('\n');
  const fix: QuickFix = {
    kind: 'warmup-shape',
    title: 'Compile Lens: Warm up at the shape the real calls use (line 4)',
    edits: [{ line: 4, column: 5, endColumn: 21, expect: 'torch.ones(1, 8)', text: 'torch.ones(4, 8)' }],
  };
  const edit = quickFixEdit(fix, source)!;
  assert.equal(edit.title, fix.title);
  assert.equal(apply(source, edit).split('\n')[3], 'step(torch.ones(4, 8))  # warm-up');
  assert.equal(quickFixEdit(fix, apply(source, edit)), null);
});

test("mark-dynamic: the runner's line before the call, only while the call still reads as the run read it", () => {
  const source = [
    'import torch',
    '',
    'served = torch.compile(model, dynamic=False)',
    'for n in sizes:',
    '    x = torch.randn(n, 64)',
    '    served(x)',
  ].join('\n');
  // as script/mark_dynamic_edit.py writes it (test_shapes_profiles.py asserts the runner's own)
  const fix: QuickFix = {
    kind: 'mark-dynamic',
    title: 'Compile Lens: Mark the dimension that changes dynamic before the call (line 6: mark_dynamic(x, 0))',
    edits: [
      {
        line: 6,
        column: 4,
        endColumn: 13,
        expect: 'served(x)',
        text: 'torch._dynamo.mark_dynamic(x, 0)\n    served(x)',
      },
    ],
  };
  const edited = apply(source, quickFixEdit(fix, source)!);
  assert.deepEqual(edited.split('\n').slice(4), [
    '    x = torch.randn(n, 64)',
    '    torch._dynamo.mark_dynamic(x, 0)',
    '    served(x)',
  ]);
  assert.equal(quickFixEdit(fix, edited), null); // applied once: the call moved down a line
});

test("compile-dynamic: dynamic=True added to the file's one torch.compile call, whatever its form", () => {
  const fix = (source: string): string | null => {
    const edit = quickFixEdit(COMPILE_DYNAMIC, source);
    return edit ? apply(source, edit) : null;
  };
  assert.equal(fix('model = torch.compile(Net())\n'), 'model = torch.compile(Net(), dynamic=True)\n');
  assert.equal(
    fix('model = torch.compile(\n    Net(),\n    mode="max-autotune",\n)\n'),
    'model = torch.compile(\n    Net(),\n    mode="max-autotune", dynamic=True\n)\n',
  );
  assert.equal(fix('@torch.compile\ndef step(x):\n'), '@torch.compile(dynamic=True)\ndef step(x):\n');
  assert.equal(fix('@torch.compile()\ndef step(x):\n'), '@torch.compile(dynamic=True)\ndef step(x):\n');
  assert.equal(fix('f = torch.compile(g, backend="a(b")\n'), 'f = torch.compile(g, backend="a(b", dynamic=True)\n');
  assert.equal(fix('f = torch.compile(g, dynamic=False)\n'), null); // the user chose: not overridden
  assert.equal(fix('a = torch.compile(f)\nb = torch.compile(g)\n'), null); // which one recompiled is not known here
});
