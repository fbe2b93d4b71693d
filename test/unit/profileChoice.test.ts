import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chooseProfile, DEFAULT_SAMPLE, SAMPLES, type ProfileChoice } from '../../extension/editor/profileChoice.ts';

const python = (text: string) => ({ kind: 'python' as const, file: '/w/model.py', text });
const choose = (active: Parameters<typeof chooseProfile>[0], preferred: string = DEFAULT_SAMPLE): ProfileChoice =>
  chooseProfile(active, SAMPLES, preferred);

const TARGET = 'import torch\n\ndef compile_target():\n    return Net(), (torch.randn(2, 3),)\n';
const SCRIPT = 'import torch\nmodel = torch.compile(Net())\nmodel(torch.randn(2, 3))\n';

test('one compile target and no torch.compile: profiles the target', () => {
  assert.deepEqual(choose(python(TARGET)), {
    kind: 'run',
    target: { kind: 'function', file: '/w/model.py', fn: 'compile_target' },
  });
});

test('torch.compile and no target: runs the file as a script', () => {
  assert.deepEqual(choose(python(SCRIPT)), { kind: 'run', target: { kind: 'script', file: '/w/model.py', args: [] } });
});

test('targets and torch.compile: a QuickPick offers each target and the whole script', () => {
  const choice = choose(python(`${TARGET}\n# compile-lens: target\ndef other():\n    return Net(), ()\n\n${SCRIPT}`));
  assert.equal(choice.kind, 'pick');
  if (choice.kind !== 'pick') return;
  assert.deepEqual(
    choice.options.map((o) => [o.label, o.description]),
    [
      ['compile_target', 'compile target, line 3'],
      ['other', 'compile target, line 7'],
      ['Run the whole script', 'model.py: 1 torch.compile call'],
    ],
  );
  assert.deepEqual(choice.options[2]!.target, { kind: 'script', file: '/w/model.py', args: [] });
});

test('several targets and no torch.compile: a QuickPick of the targets only', () => {
  const choice = choose(python(`${TARGET}\ndef compile_target_big():\n    return Net(), ()\n`));
  assert.equal(choice.kind, 'pick');
  if (choice.kind === 'pick')
    assert.deepEqual(
      choice.options.map((o) => o.label),
      ['compile_target', 'compile_target_big'],
    );
});

test('neither: an explanation with an example target, each sample by name (the preferred first) and the file as a script — never a silent sample', () => {
  const choice = choose(python('import torch\n# torch.compile(model) later\nprint("hi")\n'), 'graphbreak');
  assert.equal(choice.kind, 'explain');
  if (choice.kind !== 'explain') return;
  assert.equal(choice.message, 'model.py has no compile target and no torch.compile call.');
  assert.match(
    choice.detail,
    /def compile_target\(\):\n {8}model = MyModel\(\)\.eval\(\)\n {8}return model, \(torch\.randn\(32, 512\),\)/,
  );
  assert.deepEqual(
    choice.options.map((o) => o.label),
    [
      "Profile sample 'graphbreak'",
      "Profile sample 'gatedblock'",
      "Profile sample 'mlp'",
      "Profile sample 'localopt'",
      "Profile sample 'recompile'",
      'Run model.py as a script',
    ],
  );
  assert.deepEqual(choice.options[0]!.target, { kind: 'sample', name: 'graphbreak' });
});

test('no active file: the explanation and the samples, no script option', () => {
  const choice = choose(null);
  assert.equal(choice.kind, 'explain');
  if (choice.kind === 'explain')
    assert.deepEqual(
      choice.options.map((o) => o.target),
      SAMPLES.map((name) => ({ kind: 'sample', name })),
    );
});

test('a notebook with torch.compile in a cell runs as a script; without, it is explained', () => {
  const notebook = {
    kind: 'notebook' as const,
    file: '/w/explore.ipynb',
    cells: ['# Title', 'import torch', '%time m = torch.compile(net)', 'm = torch.compile(net)'],
  };
  assert.deepEqual(choose(notebook), { kind: 'run', target: { kind: 'script', file: '/w/explore.ipynb', args: [] } });
  const magicOnly = choose({ ...notebook, cells: notebook.cells.slice(0, 3) });
  assert.equal(magicOnly.kind, 'explain', 'a torch.compile inside a magic does not run: the runner skips magics');
  if (magicOnly.kind === 'explain') assert.equal(magicOnly.message, 'explore.ipynb has no torch.compile call.');
});

test("the samples offered are the runner's, the default first, and package.json's setting names them alike", () => {
  const root = path.resolve(__dirname, '../..');
  const runner = readFileSync(path.join(root, 'native-runner/compile_lens_runner/target/samples/__init__.py'), 'utf8');
  const names = [.../^NAMES = \((.*)\)$/m.exec(runner)![1]!.matchAll(/"(\w+)"/g)].map((m) => m[1]);
  assert.deepEqual(names, [...SAMPLES]);
  assert.equal(/^DEFAULT = "(\w+)"/m.exec(runner)?.[1], DEFAULT_SAMPLE);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { enum: string[]; default: string }> } };
  };
  const setting = pkg.contributes.configuration.properties['compileLens.defaultSample']!;
  assert.deepEqual(setting.enum, [...SAMPLES]);
  assert.equal(setting.default, DEFAULT_SAMPLE);
  const script = readFileSync(path.join(root, 'scripts/sample.sh'), 'utf8');
  assert.match(script, new RegExp(`--sample "\\$\\{1:-${DEFAULT_SAMPLE}\\}"`));
});
