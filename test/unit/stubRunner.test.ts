// The stub runner of the e2e tests answers with a recorded run of the very file it is given (test/fixtures/recorded/):
// the folder whole, the recorded script's path replaced by the given one; a file edited at a cited line goes to the
// real runner.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const STUB = path.join(FIXTURES, 'stub-runner', 'python');
const RECORDED = path.join(FIXTURES, 'recorded', 'serve_script-cpu');

function profile(
  script: string,
  env: Record<string, string> = {},
  flags: string[] = [],
): { status: number | null; stdout: string; stderr: string; out: string } {
  const out = path.join(path.dirname(script), 'run');
  const run = spawnSync(
    'python3',
    [STUB, '-m', 'compile_lens_runner', 'profile', '--script', script, '--out', out, ...flags],
    {
      encoding: 'utf8',
      env: { ...process.env, COMPILE_LENS_STUB_REPORT: RECORDED, ...env },
    },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, out };
}

test('a recorded run answers for its own file: the folder whole, its paths the given script', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-stub-'));
  const script = path.join(dir, 'serve_script.py');
  copyFileSync(path.resolve(__dirname, '../e2e/workspace/serve_script.py'), script);
  const { status, stdout, out } = profile(script);
  assert.equal(status, 0);
  assert.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1)!), {
    type: 'result',
    status: 'ok',
    report: path.join(out, 'report.json'),
  });
  const files = (folder: string): string[] =>
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(folder, path.join(e.parentPath, e.name)))
      .sort();
  assert.deepEqual(files(out), files(RECORDED), 'every file of the recording, traces included');
  const report = readFileSync(path.join(out, 'report.json'), 'utf8');
  const recorded = (
    JSON.parse(readFileSync(path.join(RECORDED, 'report.json'), 'utf8')) as { target: { file: string } }
  ).target.file;
  assert.ok(!report.includes(recorded) && report.includes(script), 'the recorded path is the given script');
  assert.ok(
    existsSync(
      path.join(
        out,
        (JSON.parse(report) as { regions: { measurements: { trace: string }[] }[] }).regions[0]!.measurements[0]!.trace,
      ),
    ),
  );
});

test('a file edited at a line the recording cites is profiled by the real runner, not answered with lines it lacks', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-stub-'));
  const script = path.join(dir, 'serve_script.py');
  writeFileSync(
    script,
    `import os\n${readFileSync(path.resolve(__dirname, '../e2e/workspace/serve_script.py'), 'utf8')}`,
  );
  // the "real interpreter" echoes what it was asked to run
  const { status, stdout, stderr, out } = profile(script, { COMPILE_LENS_STUB_PYTHON: '/bin/echo' });
  assert.equal(status, 0);
  assert.match(stderr, /serve_script\.py no longer has line \d+ as recorded: the real runner profiles it/);
  assert.equal(stdout.trim(), `-m compile_lens_runner profile --script ${script} --out ${out}`);
  assert.equal(existsSync(out), false, 'no recorded run copied');
});

test('a run made with --shape-fix is answered by the recording keyed with it, a run without by the plain name', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-stub-'));
  const script = path.join(dir, 'serve_script.py');
  copyFileSync(path.resolve(__dirname, '../e2e/workspace/serve_script.py'), script);
  const env = {
    COMPILE_LENS_STUB_REPORT: JSON.stringify({
      'serve_script.py': path.join(dir, 'no-such-recording'),
      'serve_script.py --shape-fix on': RECORDED,
    }),
  };
  const measured = profile(script, env, ['--shape-fix', 'on']);
  assert.equal(measured.status, 0, measured.stderr);
  assert.ok(existsSync(path.join(measured.out, 'report.json')));
  const plain = profile(script, env);
  assert.notEqual(plain.status, 0);
  assert.match(plain.stderr, /no-such-recording/);
});
