#!/usr/bin/env bash
# Profiles one target or script N times, each in a fresh process on the host's CPU with CUDA hidden, then prints each
# run's speedup with its range as recorded and as floored for a next process, and whether each pair of runs lands
# inside each other's range (bench/cpu_floor_check.py). The measured move of a CPU speedup between processes
# (measure/estimator.cpu_floor_pct) is what this checks.
#   bash bench/cpu_repeat.sh N OUT_DIR PROFILE_ARGS...
#   bash bench/cpu_repeat.sh 5 /tmp/rep/gated --script test/e2e/workspace/gated_service.py
#   bash bench/cpu_repeat.sh 3 /tmp/rep/sample --sample gatedblock
set -euo pipefail
cd "$(dirname "$0")/.."
runs=$1 out=$2
shift 2
mkdir -p "$out"
dirs=()
for i in $(seq 1 "$runs"); do
  dir="$out/run$i"
  rm -rf "$dir"
  echo "run $i of $runs: $(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
  CUDA_VISIBLE_DEVICES="" PYTHONPATH=native-runner python3 -m compile_lens_runner profile --device cpu --out "$dir" "$@" \
    >"$out/run$i.log" 2>&1 || echo "run $i failed: $out/run$i.log"
  dirs+=("$dir")
done
python3 bench/cpu_floor_check.py "${dirs[@]}"
