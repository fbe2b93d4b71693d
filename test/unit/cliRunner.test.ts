// The CLI against the real runner and real torch.compile (CPU): what users script in CI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const REPO = path.resolve(__dirname, '..', '..');
const TARGET = `${path.join(REPO, 'test/e2e/workspace/model_with_break.py')}:compile_target`;

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-cli-')), 'run');
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO, 'extension/cli/main.ts'),
      ...args,
      '--device',
      'cpu',
      '--modes',
      'default',
      '--quick',
      // what these tests assert (a graph break's line, the digest's shape) is Dynamo's and the CLI's: no Inductor compile
      '--backend',
      'eager',
      '--out',
      out,
    ],
    { encoding: 'utf8', cwd: REPO },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// One run of the real runner: the limits are check's own arithmetic on the report, the same for a run and for logs
// (cliInspect.test.ts: check --logs fails past its limits and passes, in --json, within them), and `profile --json`'s
// digest is the CLI's over the report the runner wrote (cliScript.test.ts asserts it on a recorded target run).
test('check fails with one file:line line per graph break when over the limit', { timeout: 300_000 }, () => {
  const over = cli('check', '--target', TARGET, '--max-graph-breaks', '0', '--max-recompiles', '5');
  assert.equal(over.code, 1, over.stderr.slice(-2000));
  assert.match(over.stdout, /model_with_break\.py:13 {2}Graph break: .*print/);
  assert.match(over.stdout, /^check failed: 1 graph breaks \(allowed 0\)$/m);
});
