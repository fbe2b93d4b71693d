import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeLines, findCompileSites, findCompileSitesInCells } from '../../extension/editor/compileSites.ts';

const sites = (source: string) => findCompileSites(source).map((s) => [s.line, s.kind]);

test('torch.compile calls, with and without arguments, also spread over lines', () => {
  const source = [
    'import torch',
    'model = torch.compile(Model())',
    'fast = torch.compile(',
    '    step, mode="max-autotune",',
    ')',
    'x = torch . compile (f)',
  ].join('\n');
  assert.deepEqual(sites(source), [
    [1, 'call'],
    [2, 'call'],
    [5, 'call'],
  ]);
  assert.equal(findCompileSites(source)[0]!.column, 8);
});

test('decorators with and without arguments mark the decorator line', () => {
  const source = [
    'import torch',
    '',
    '@torch.compile',
    'def f(x):',
    '    return x',
    '',
    '    @torch.compile(dynamic=True)',
    '    def g(y): ...',
  ].join('\n');
  assert.deepEqual(findCompileSites(source), [
    { line: 2, column: 0, kind: 'decorator' },
    { line: 6, column: 4, kind: 'decorator' },
  ]);
});

test('comments, strings, docstrings and f-strings are not call sites', () => {
  const source = [
    'import torch',
    '# model = torch.compile(model)',
    'print("torch.compile(model) is slow")',
    "msg = 'use torch.compile(m)'  # torch.compile(x)",
    '"""',
    'Example:',
    '    torch.compile(model)',
    '"""',
    "s = f'{torch.compile(m)}'",
    'doc = r"\\" torch.compile(" + "x"',
    "t = '''torch.compile(a)''' ; u = torch.compile(b)",
  ].join('\n');
  assert.deepEqual(sites(source), [[10, 'call']]);
});

test('codeLines keeps columns and quotes, blanks what is inside strings and comments', () => {
  assert.deepEqual(codeLines("x = \"a#b\"  # c\ny = '''q\nr''' + 1"), ['x = "   "     ', "y = ''' ", " ''' + 1"]);
});

test('aliases: import torch as t, from torch import compile [as c]', () => {
  const source = [
    'import os, torch as t',
    'from torch import nn, compile as tc',
    'a = t.compile(m)',
    'b = tc(m)',
    '@tc',
    'def f(x): ...',
    'def tc_helper(): ...',
  ].join('\n');
  assert.deepEqual(sites(source), [
    [2, 'call'],
    [3, 'call'],
    [4, 'decorator'],
  ]);
  // without the import, a bare compile( is Python's own builtin
  assert.deepEqual(sites('import torch\ncode = compile(src, "f.py", "exec")'), []);
});

test('nn.Module.compile() counts in files that use torch; regex, Python and Keras compiles do not', () => {
  const source = [
    'import re',
    'import torch',
    'model.compile()',
    'self.encoder.compile(mode="reduce-overhead")',
    'Net().compile()',
    'pattern = re.compile(r"\\d+")',
    'keras_model.compile(optimizer="adam", loss="mse")',
    'obj.compile("some text")',
  ].join('\n');
  assert.deepEqual(sites(source), [
    [2, 'module-compile'],
    [3, 'module-compile'],
    [4, 'module-compile'],
  ]);
  assert.deepEqual(
    sites('import tensorflow as tf\nmodel.compile()'),
    [],
    "no torch in the file: another library's compile",
  );
});

test('a line with several compiles is one site; torch.compile passed as a value is not a call', () => {
  assert.deepEqual(sites('import torch\na, b = torch.compile(x), torch.compile(y)\nfns = map(torch.compile, models)'), [
    [1, 'call'],
  ]);
});

test('notebook cells: imports of an earlier cell count, magics and shell lines are skipped', () => {
  const cells = [
    '%load_ext autoreload\n!pip install torch\nimport torch as T',
    '# markdown-like comment\nm = T.compile(net)',
    '%time y = T.compile(other)',
  ];
  assert.deepEqual(
    findCompileSitesInCells(cells).map((s) => [s.cell, s.line, s.kind]),
    [[1, 1, 'call']],
  );
});
