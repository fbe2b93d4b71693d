// Starts the native runner (Python) and follows it to the end: progress from its JSON-line stdout, its
// stderr as log lines, cancel and timeout by ending its whole process group so no compiler worker survives.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { isProfilerNoise, parseProtocolLine, type ProtocolLine } from '../shared/runnerProtocol.ts';

export interface RunnerProgress {
  phase: string;
  fraction: number;
  message: string;
}

export type RunnerStatus = 'ok' | 'partial' | 'error' | 'cancelled' | 'crashed';

export interface RunnerOutcome {
  status: RunnerStatus;
  /** report.json the runner wrote, when it wrote one */
  reportPath: string | null;
  exitCode: number | null;
  /** what went wrong, in words, when the runner could not say it in a report */
  message: string | null;
}

export interface RunnerLaunch {
  python: string;
  /** the native-runner/ folder holding the compile_lens_runner package */
  runnerDir: string;
  cwd: string;
  args: string[];
  /** the runner enforces --timeout itself; this is the backstop if it hangs past it */
  killAfterMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: RunnerProgress) => void;
  onLog?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** Seconds the runner gets to write its partial report after SIGTERM before the group is killed. */
const TERMINATE_GRACE_MS = 10_000;

/** Splits a byte stream into lines, keeping the unterminated tail for the next chunk. */
function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer): void; end(): void } {
  let tail = '';
  return {
    push(chunk) {
      const text = tail + chunk.toString('utf8');
      const lines = text.split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines) onLine(line.replace(/\r$/, ''));
    },
    end() {
      if (tail) onLine(tail);
      tail = '';
    },
  };
}

function endProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export function runRunner(launch: RunnerLaunch): Promise<RunnerOutcome> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...launch.env, PYTHONUNBUFFERED: '1' };
    env['PYTHONPATH'] = [launch.runnerDir, env['PYTHONPATH']].filter(Boolean).join(path.delimiter);
    let result: (ProtocolLine & { type: 'result' }) | null = null;
    let cancelled = false;
    let timedOut = false;
    const stderrTail: string[] = [];

    const child = spawn(launch.python, ['-m', 'compile_lens_runner', ...launch.args], {
      cwd: launch.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // own process group: cancel ends the runner and every compile worker it started
      detached: true,
    });

    const stdout = lineSplitter((line) => {
      const parsed = parseProtocolLine(line);
      if (parsed?.type === 'progress') launch.onProgress?.(parsed);
      else if (parsed?.type === 'result') result = parsed;
      else if (line.trim()) launch.onLog?.(line);
    });
    const stderr = lineSplitter((line) => {
      if (isProfilerNoise(line)) return;
      stderrTail.push(line);
      if (stderrTail.length > 40) stderrTail.shift();
      launch.onLog?.(line);
    });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let killTimer: NodeJS.Timeout | undefined;
    const terminate = () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      endProcessGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(
        () => child.pid !== undefined && endProcessGroup(child.pid, 'SIGKILL'),
        TERMINATE_GRACE_MS,
      );
      killTimer.unref();
    };
    const onAbort = () => {
      cancelled = true;
      terminate();
    };
    if (launch.signal?.aborted) onAbort();
    launch.signal?.addEventListener('abort', onAbort, { once: true });
    const hangTimer = launch.killAfterMs
      ? setTimeout(() => {
          timedOut = true;
          terminate();
        }, launch.killAfterMs)
      : undefined;

    const finish = (outcome: RunnerOutcome) => {
      clearTimeout(hangTimer);
      clearTimeout(killTimer);
      launch.signal?.removeEventListener('abort', onAbort);
      // compile workers may outlive the runner's own exit: end the group in every case
      if (child.pid !== undefined) endProcessGroup(child.pid, 'SIGKILL');
      resolve(outcome);
    };

    child.on('error', (error: NodeJS.ErrnoException) => {
      const message =
        error.code === 'ENOENT'
          ? `Python interpreter not found: "${launch.python}". Set compileLens.pythonPath (or --python) to a Python with torch installed.`
          : `Could not start the runner with "${launch.python}": ${error.message}`;
      finish({ status: 'crashed', reportPath: null, exitCode: null, message });
    });
    child.on('close', (code, signal) => {
      stdout.end();
      stderr.end();
      if (cancelled) {
        finish({
          status: 'cancelled',
          reportPath: result?.report ?? null,
          exitCode: code,
          message: 'Cancelled: the runner and its compile workers were stopped.',
        });
      } else if (timedOut) {
        finish({
          status: 'error',
          reportPath: result?.report ?? null,
          exitCode: code,
          message: `The runner did not finish within ${Math.round((launch.killAfterMs ?? 0) / 1000)} s and was stopped. Raise the timeout or profile a smaller input.`,
        });
      } else if (result) {
        finish({ status: result.status, reportPath: result.report, exitCode: code, message: null });
      } else {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const detail = stderrTail
          .filter((l) => l.trim())
          .slice(-8)
          .join('\n');
        finish({
          status: 'crashed',
          reportPath: null,
          exitCode: code,
          message: `The runner ${how} before writing a report.${detail ? `\n${detail}` : ''}`,
        });
      }
    });
  });
}
