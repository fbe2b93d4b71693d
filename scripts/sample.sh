#!/usr/bin/env bash
# One command on a fresh machine: set up, then profile the built-in sample model (CPU when there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node dist/cli.js profile --sample "${1:-mlp}" "${@:2}"
