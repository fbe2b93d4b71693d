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

// The probe reads the installed versions without importing torch: an import costs seconds before every run (and
// initialises CUDA on a GPU host), and the runner's own start names a torch that is installed but cannot be imported.
// "cuda" is a CUDA build of torch on a host with NVIDIA's driver, where Inductor needs Triton.
const PROBE = [
  'import json, os, re, sys, importlib.util as u',
  'from importlib import metadata',
  'info = {"pythonVersion": sys.version.split()[0], "torch": None, "triton": None, "cuda": False}',
  's = u.find_spec("torch")',
  'if s and s.submodule_search_locations:',
  ' d = list(s.submodule_search_locations)[0]',
  ' try:\n  info["torch"] = re.search(r"^__version__ *= *.(.+?).$", open(os.path.join(d, "version.py")).read(), re.M)[1]\n except Exception: pass',
  ' cuda_build = any(os.path.exists(os.path.join(d, "lib", n)) for n in ("libtorch_cuda.so", "torch_cuda.dll"))',
  ' info["cuda"] = cuda_build and (os.name == "nt" or os.path.exists("/dev/nvidiactl"))',
  'if u.find_spec("triton"):',
  ' for n in ("triton", "pytorch-triton"):',
  '  try:\n   info["triton"] = metadata.version(n)\n   break\n  except Exception: pass',
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
