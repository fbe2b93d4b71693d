import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseProtocolLine, profileArgs, targetModes } from '../../extension/shared/runnerProtocol.ts';
import { runRunner } from '../../extension/node/runner.ts';

/** A stand-in runner package: real python, scripted behaviour, so process handling is tested for real. */
function fakeRunner(body: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-fake-runner-'));
  mkdirSync(path.join(dir, 'compile_lens_runner'));
  writeFileSync(path.join(dir, 'compile_lens_runner', '__init__.py'), '');
  writeFileSync(
    path.join(dir, 'compile_lens_runner', '__main__.py'),
    `import json, os, sys, time, subprocess\n${body}\n`,
  );
  return dir;
}

/** Running, not a zombie waiting for a reaper (this sandbox's init may never reap). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

test('profileArgs puts script arguments after --', () => {
  assert.deepEqual(
    profileArgs({
      target: { kind: 'script', file: '/w/train.py', args: ['--epochs', '1'] },
      device: 'cpu',
      modes: ['default', 'reduce-overhead'],
      quick: true,
    }),
    [
      'profile',
      '--script',
      '/w/train.py',
      '--device',
      'cpu',
      '--modes',
      'default,reduce-overhead',
      '--quick',
      '--stop-when-stdin-closes',
      '--',
      '--epochs',
      '1',
    ],
  );
  assert.deepEqual(profileArgs({ target: { kind: 'function', file: '/w/m.py', fn: 'compile_target' } }), [
    'profile',
    '--target',
    '/w/m.py:compile_target',
    '--stop-when-stdin-closes',
  ]);
  assert.deepEqual(
    profileArgs({ target: { kind: 'sample', name: 'mlp' }, backend: 'aot_eager', train: true, rounds: 5 }),
    ['profile', '--sample', 'mlp', '--backend', 'aot_eager', '--train', '--rounds', '5', '--stop-when-stdin-closes'],
  );
});

test('parseProtocolLine accepts only runner protocol objects', () => {
  assert.deepEqual(parseProtocolLine('{"type":"progress","phase":"compile","fraction":1.7,"message":"x"}'), {
    type: 'progress',
    phase: 'compile',
    fraction: 1,
    message: 'x',
  });
  assert.deepEqual(parseProtocolLine('{"type":"result","status":"partial","report":"/r/report.json"}'), {
    type: 'result',
    status: 'partial',
    report: '/r/report.json',
  });
  assert.equal(parseProtocolLine('{"type":"result","status":"weird"}'), null);
  assert.equal(parseProtocolLine('hello from user code'), null);
  assert.equal(parseProtocolLine('{not json'), null);
});

test('progress, logs and the result line are separated', async () => {
  const dir = fakeRunner(
    [
      'print(json.dumps({"type":"progress","phase":"warmup","fraction":0.5,"message":"half"}), flush=True)',
      'print("stray line", flush=True)',
      'print("to stderr", file=sys.stderr, flush=True)',
      'print("STAGE:2026-01-01 USDT probe fired: profiler_start", file=sys.stderr, flush=True)',
      'print("USDT profiler_stop: 0 events", file=sys.stderr, flush=True)',
      'print(json.dumps({"type":"result","status":"ok","report":"/tmp/r/report.json"}), flush=True)',
    ].join('\n'),
  );
  const progress: string[] = [];
  const logs: string[] = [];
  const outcome = await runRunner({
    python: 'python3',
    runnerDir: dir,
    cwd: dir,
    args: [],
    onProgress: (p) => progress.push(p.message),
    onLog: (l) => logs.push(l),
  });
  assert.deepEqual(outcome, { status: 'ok', reportPath: '/tmp/r/report.json', exitCode: 0, message: null });
  assert.deepEqual(progress, ['half']);
  assert.deepEqual(logs.sort(), ['stray line', 'to stderr'], "the profiler's USDT notices are not the tool's log");
});

test('a runner that dies without a report is a crash with its last stderr lines', async () => {
  const dir = fakeRunner('print("Traceback: boom", file=sys.stderr); sys.exit(3)');
  const outcome = await runRunner({ python: 'python3', runnerDir: dir, cwd: dir, args: [] });
  assert.equal(outcome.status, 'crashed');
  assert.equal(outcome.exitCode, 3);
  assert.match(outcome.message ?? '', /exited with code 3[\s\S]*Traceback: boom/);
});

test('a runner killed by a signal is reported as such, not as a silent failure', async () => {
  const dir = fakeRunner('import signal; os.kill(os.getpid(), signal.SIGKILL)');
  const outcome = await runRunner({ python: 'python3', runnerDir: dir, cwd: dir, args: [] });
  assert.equal(outcome.status, 'crashed');
  assert.match(outcome.message ?? '', /was killed by SIGKILL before writing a report/);
});

test('a missing interpreter is named with the fix', async () => {
  const outcome = await runRunner({ python: '/nonexistent/python9', runnerDir: '/tmp', cwd: '/tmp', args: [] });
  assert.equal(outcome.status, 'crashed');
  assert.match(outcome.message ?? '', /not found.*pythonPath/);
});

test('cancel ends the runner and the workers it started (whole process group)', async () => {
  const pidFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-pids-')), 'pids');
  const dir = fakeRunner(
    [
      // a worker that ignores SIGTERM, like a busy compile worker: only the group SIGKILL ends it
      `w = subprocess.Popen([sys.executable, "-c", "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"])`,
      `open(${JSON.stringify(pidFile)}, "w").write(f"{os.getpid()} {w.pid}")`,
      'print(json.dumps({"type":"progress","phase":"timing","fraction":0.1,"message":"started"}), flush=True)',
      'time.sleep(60)',
    ].join('\n'),
  );
  const controller = new AbortController();
  const outcome = await runRunner({
    python: 'python3',
    runnerDir: dir,
    cwd: dir,
    args: [],
    signal: controller.signal,
    onProgress: () => controller.abort(),
  });
  assert.equal(outcome.status, 'cancelled');
  const [runnerPid, workerPid] = readFileSync(pidFile, 'utf8').split(' ').map(Number);
  // a killed process leaves the table when the kernel has torn it down, which a loaded host may delay: poll
  for (let i = 0; i < 100 && (alive(runnerPid!) || alive(workerPid!)); i++)
    await new Promise((r) => setTimeout(r, 100));
  assert.equal(alive(runnerPid!), false, 'runner still alive');
  assert.equal(alive(workerPid!), false, 'worker still alive');
});

test('a hung runner is stopped at the backstop timeout', async () => {
  const dir = fakeRunner('time.sleep(60)');
  const outcome = await runRunner({ python: 'python3', runnerDir: dir, cwd: dir, args: [], killAfterMs: 500 });
  // stopped, not waited for: a runner let sleep its 60 s would have ended without this error
  assert.equal(outcome.status, 'error');
  assert.match(outcome.message ?? '', /did not finish within/);
});

test('if the launching process dies, the runner sees its stdin close (VS Code closing mid-run)', async () => {
  const marker = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-eof-')), 'saw-eof');
  const dir = fakeRunner(
    [
      'print(json.dumps({"type":"progress","phase":"timing","fraction":0.1,"message":"started"}), flush=True)',
      'import stat; m = os.fstat(0).st_mode; held = stat.S_ISFIFO(m) or stat.S_ISSOCK(m)  # /dev/null would give EOF at once, proving nothing',
      'sys.stdin.read()',
      // written whole, then renamed into place: the test polls for the name and must never read a half-written file
      `open(${JSON.stringify(marker + '.part')}, "w").write("eof" if held else "stdin was not a pipe"); os.replace(${JSON.stringify(marker + '.part')}, ${JSON.stringify(marker)})`,
    ].join('\n'),
  );
  const launcher = path.join(dir, 'launcher.ts');
  writeFileSync(
    launcher,
    [
      `import { runRunner } from ${JSON.stringify(path.resolve(__dirname, '../../extension/node/runner.ts'))};`,
      `void runRunner({ python: 'python3', runnerDir: ${JSON.stringify(dir)}, cwd: ${JSON.stringify(dir)}, args: [], onProgress: () => process.kill(process.pid, 'SIGKILL') });`,
    ].join('\n'),
  );
  const { spawnSync } = await import('node:child_process');
  const launched = spawnSync(process.execPath, ['--import', 'tsx', launcher], {
    cwd: path.resolve(__dirname, '../..'),
    timeout: 30_000,
  });
  assert.equal(launched.signal, 'SIGKILL');
  for (let i = 0; i < 300 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(readFileSync(marker, 'utf8'), 'eof');
});

test('on CPU the default modes leave out reduce-overhead (CUDA graphs do nothing there) and say why; modes the user set run as set', () => {
  const defaults = ['default', 'reduce-overhead'];
  const cpu = targetModes(undefined, defaults, 'cpu', false);
  assert.deepEqual(cpu.modes, ['default']);
  assert.match(
    cpu.note ?? '',
    /^reduce-overhead not run on CPU: .*CUDA graphs, which do nothing there\. Set compileLens\.modes/,
  );
  assert.deepEqual(targetModes(undefined, defaults, 'auto', false).modes, ['default'], 'auto without CUDA runs on CPU');
  assert.deepEqual(targetModes(undefined, defaults, 'auto', true), { modes: defaults, note: null });
  assert.deepEqual(
    targetModes(['default', 'reduce-overhead'], defaults, 'cpu', false),
    { modes: defaults, note: null },
    'asked: run',
  );
});
