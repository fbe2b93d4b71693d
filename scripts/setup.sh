#!/usr/bin/env bash
# Installs what Compile Lens needs on a fresh Debian machine: system packages, npm packages, PyTorch and the test
# tools, code-server for the e2e tests.
# Idempotent: skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

need_apt=()
# the browser of the webview and e2e tests (test/chromium.ts: HEADLESS_SHELL)
command -v chromium-headless-shell >/dev/null || need_apt+=(chromium-headless-shell)
command -v rg >/dev/null || need_apt+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v g++ >/dev/null || need_apt+=(build-essential)
if [ ${#need_apt[@]} -gt 0 ] && [ "${SKIP_APT:-0}" != 1 ]; then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# The npm packages, the Python packages and code-server (the e2e tests' VS Code) install side by side: each waits on
# the network more than on the CPU.
installs=()
# esbuild's binary comes from its platform package; no install script is needed. A node_modules that is a link is
# another checkout's (a git worktree's): npm ci here would empty it for that checkout, so it is left as it is.
if ! { [ -L node_modules ] || { [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ]; }; }; then
  npm ci --no-audit --no-fund &
  installs+=($!)
fi
# The runner needs torch >= 2.4 in the interpreter it runs with; tests also need pytest (xdist runs its files two at a
# time), jsonschema, numpy, transformers (a real generate() with its DynamicCache), and the linters mypy and ruff.
# (One pip after the other: they share site-packages.)
# Whether a package is there is asked without importing it (importing torch and transformers: ~4 CPU-s).
has() { "$PYTHON" -c 'import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in sys.argv[1:]))' "$@"; }
{
  has torch || "$PYTHON" -m pip install -q torch==2.13.0
  has pytest xdist jsonschema numpy mypy transformers ||
    "$PYTHON" -m pip install -q pytest pytest-xdist jsonschema numpy mypy transformers
  "$PYTHON" -m ruff --version >/dev/null 2>&1 || "$PYTHON" -m pip install -q ruff
} &
installs+=($!)
bash test/e2e/setup-code-server.sh >/dev/null &
installs+=($!)
for pid in "${installs[@]}"; do
  wait "$pid"
done

node scripts/build.mjs
