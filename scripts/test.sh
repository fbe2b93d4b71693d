#!/usr/bin/env bash
# Runs every test: type checks and linters (tsc, eslint, prettier, ruff, mypy), unit tests, runner tests (real
# torch.compile on CPU), webview tests in Chromium, and the packaged extension inside a real VS Code (code-server).
# After set-up every suite runs at once, each in its own process (pytest two files at a time), the longest first: no
# test asserts how fast the host is, so sharing its cores changes no result, only the wall time, and a core the one
# suite leaves idle (waiting on a browser, a subprocess or a timeout) is another's (docs/BENCHMARKS.md#test-time).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# One Inductor cache for the run, made by it: every runner of both suites compiles into it, and no run starts warm
# from an earlier one (the time here is CI's on any machine).
export TORCHINDUCTOR_CACHE_DIR="$logs/inductor"
# One OpenMP thread per process: on a 2-core machine running every suite at once, torch's threads for every core would
# busy-wait for each other (test/python/conftest.py says the same for pytest alone).
export OMP_NUM_THREADS=1
# Every e2e file installs this one .vsix (setup.sh built the bundles).
npm run -s package >/dev/null
export COMPILE_LENS_E2E_VSIX="$PWD/dist/compile-lens.vsix"

started=$SECONDS
names=()
pids=()
suite() { # NAME COMMAND...: runs in the background, its output in $logs/NAME.log, its wall and CPU time in $logs/times
  local name=$1
  shift
  (
    rc=0
    # bench/tree_cpu.py ends the log with the suite's wall time and the CPU time of every process it started: on a
    # shared host the CPU seconds are what compares (docs/BENCHMARKS.md#test-time)
    python3 bench/tree_cpu.py "$@" >"$logs/$name.log" 2>&1 || rc=$?
    echo "$name: $(tail -n 1 "$logs/$name.log")" >>"$logs/times"
    exit "$rc"
  ) &
  names+=("$name")
  pids+=($!)
}
# every e2e file in one process, one test at a time: their sessions share one code-server and one Chromium
suite e2e node --import tsx --test test/e2e/suite.ts
# xdist alone of the pytest plugins installed: the others a Python environment may hold (hypothesis, anyio, trio,
# pytest-benchmark; no test uses them) cost ~3 CPU-s of imports in each of pytest's three processes
suite pytest env PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python3 -m pytest -p xdist -q -n 2 --dist loadfile -p no:cacheprovider \
  --cpu-durations=25 test/python
# every unit file in one process (test/unit/suite.ts), then every webview file in another, with one Chromium
suite node bash -c 'node --import tsx --test test/unit/suite.ts && node --import tsx --test test/webview/suite.ts'
# prettier, tsc and eslint (one type check for both: scripts/typecheckAndLint.mjs), ruff (lint and format), mypy
# --strict: `npm run format` fixes most
suite lint npm run --silent lint
failed=()
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed+=("${names[$i]}")
done
for name in lint node e2e pytest; do
  echo "== $name"
  cat "$logs/$name.log"
done
echo "== tests took $((SECONDS - started)) s:"
cat "$logs/times"
[ ${#failed[@]} = 0 ] || {
  echo "failed: ${failed[*]}"
  exit 1
}
