#!/usr/bin/env bash
# Runs every test: type checks (TypeScript, mypy), unit tests, runner tests (real torch.compile on CPU), webview tests in
# Chromium, and the packaged extension inside a real VS Code (code-server).
# The node suite and the runner's pytest files run side by side (pytest two files at a time): no test asserts how fast
# the host is, so sharing its cores changes no result, only the wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
started=$SECONDS
npx tsc -p . --noEmit
npm run --silent lint   # prettier and eslint, ruff (lint and format), mypy --strict: `npm run format` fixes most
node --import tsx --test --test-concurrency=1 test/unit/*.test.ts test/webview/*.test.ts test/e2e/*.test.ts >"$logs/node.log" 2>&1 &
node_pid=$!
python3 -m pytest -q -n 2 --dist loadfile -p no:cacheprovider test/python >"$logs/pytest.log" 2>&1 &
pytest_pid=$!
node_rc=0; pytest_rc=0
wait "$node_pid" || node_rc=$?
wait "$pytest_pid" || pytest_rc=$?
echo "tests took $((SECONDS - started)) s (node exit $node_rc, pytest exit $pytest_rc); their output:"
cat "$logs/node.log"
cat "$logs/pytest.log"   # last: its closing line is the run's
[ "$node_rc" = 0 ] && [ "$pytest_rc" = 0 ]
