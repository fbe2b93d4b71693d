#!/usr/bin/env bash
# One command on a fresh machine: set up, then profile the built-in sample (gatedblock, or the one named: mlp, localopt,
# graphbreak, recompile; CPU when there is no GPU). Later arguments go to `compile-lens profile`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node dist/cli.js profile --sample "${1:-gatedblock}" "${@:2}"
