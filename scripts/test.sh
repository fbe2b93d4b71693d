#!/usr/bin/env bash
# Runs every test: type checks (TypeScript, mypy), unit tests, runner tests (real torch.compile on CPU), webview tests in
# Chromium, and the packaged extension inside a real VS Code (code-server).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npx tsc -p . --noEmit
python3 -m mypy --config-file native-runner/mypy.ini native-runner/compile_lens_runner
node --import tsx --test --test-concurrency=1 test/unit/*.test.ts test/webview/*.test.ts test/e2e/*.test.ts
python3 -m pytest -q test/python
