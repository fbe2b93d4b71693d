// The torch probe before a run reads what is installed without importing torch: the same version torch reports, and
// a torch too old for the runner named with its fix.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { interpreterProblem, probeInterpreter } from '../../extension/node/interpreter.ts';

test('the probe reads the version torch itself reports', async () => {
  const imported = spawnSync('python3', ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8' });
  const info = await probeInterpreter('python3');
  assert.equal(info.torch, imported.stdout.trim());
  assert.equal(info.cuda, false); // the CI machine has no NVIDIA driver
  assert.equal(interpreterProblem(info), null);
});

test('a torch older than 2.4 is named with the upgrade command', async (t) => {
  const shadow = mkdtempSync(path.join(os.tmpdir(), 'cl-old-torch-'));
  mkdirSync(path.join(shadow, 'torch'));
  writeFileSync(path.join(shadow, 'torch', '__init__.py'), 'raise ImportError("the probe must not import torch")\n');
  writeFileSync(path.join(shadow, 'torch', 'version.py'), "__version__ = '2.3.1'\ngit_version = 'abc'\n");
  const before = process.env['PYTHONPATH'];
  process.env['PYTHONPATH'] = shadow;
  t.after(() => {
    if (before === undefined) delete process.env['PYTHONPATH'];
    else process.env['PYTHONPATH'] = before;
  });
  const info = await probeInterpreter('python3');
  assert.equal(info.torch, '2.3.1');
  assert.match(interpreterProblem(info) ?? '', /PyTorch 2\.3\.1 in python3 is too old: .* -m pip install -U torch/);
});
