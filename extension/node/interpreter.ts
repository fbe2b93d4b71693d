// Checks, before a run, that the chosen Python can import torch (and Triton where CUDA is present),
// so a missing install is a one-line fix-it message instead of a failed run.
import { execFile } from 'node:child_process';

export interface InterpreterInfo {
  python: string;
  pythonVersion: string | null;
  torch: string | null;
  triton: string | null;
  cuda: boolean;
}

const PROBE = [
  'import json, sys, importlib.util as u',
  'info = {"pythonVersion": sys.version.split()[0], "torch": None, "triton": None, "cuda": False}',
  'try:\n import torch\n info["torch"] = torch.__version__\n info["cuda"] = bool(torch.cuda.is_available())\nexcept Exception: pass',
  'if u.find_spec("triton"):\n try:\n  import triton\n  info["triton"] = triton.__version__\n except Exception: pass',
  'print(json.dumps(info))',
].join('\n');

export function probeInterpreter(python: string, timeoutMs = 60_000): Promise<InterpreterInfo> {
  return new Promise((resolve, reject) => {
    execFile(python, ['-c', PROBE], { timeout: timeoutMs }, (error, stdout) => {
      if (error) {
        const notFound = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(
          new Error(
            notFound
              ? `Python interpreter "${python}" was not found. Select an interpreter (Python: Select Interpreter) or set compileLens.pythonPath.`
              : `Python interpreter "${python}" failed to start: ${error.message}`,
          ),
        );
        return;
      }
      try {
        const parsed = JSON.parse(stdout.trim().split('\n').pop() ?? '') as Omit<InterpreterInfo, 'python'>;
        resolve({ python, ...parsed });
      } catch {
        reject(new Error(`Python interpreter "${python}" did not answer the torch check: ${stdout.slice(0, 200)}`));
      }
    });
  });
}

/** null when the interpreter can run the profile; otherwise what is missing and how to install it. */
export function interpreterProblem(info: InterpreterInfo): string | null {
  if (!info.torch)
    return `PyTorch is not installed in ${info.python}. Install it with: ${info.python} -m pip install torch  (or select another interpreter).`;
  const [major = 0, minor = 0] = info.torch.split(/[.+]/).map(Number);
  if (major < 2 || (major === 2 && minor < 4))
    return `PyTorch ${info.torch} in ${info.python} is too old: Compile Lens needs 2.4 or newer. Upgrade with: ${info.python} -m pip install -U torch`;
  if (info.cuda && !info.triton)
    return `CUDA is available but Triton is missing in ${info.python}, so Inductor cannot generate GPU kernels ("Cannot find a working triton installation"). Install it with: ${info.python} -m pip install triton`;
  return null;
}
