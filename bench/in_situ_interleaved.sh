#!/usr/bin/env bash
# In situ, interleaved, on four scripts of the kinds issue #29 names (bench/scripts/: amp_train, decode_static_kv,
# resnet_infer, varlen_server): per script its plain runs (compiled cold, eager, compiled warm: each process's own
# step clock and wall time), then PROFILES profiles with --script; a summary (bench/in_situ_summary.py) prints the
# table docs/BENCHMARKS.md §in situ, interleaved carries.
#
#   bash bench/in_situ_interleaved.sh OUT_DIR [script ...]       # on the GPU machine
#   PROFILES=2 IN_SITU_SMALL=1 bash bench/in_situ_interleaved.sh /tmp/x amp_train   # small sizes, two profiles
#   PLAIN=0 PROFILES=1 bash bench/in_situ_interleaved.sh /tmp/x resnet_infer   # profiles only, no plain runs
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: bash bench/in_situ_interleaved.sh OUT_DIR [script ...]}
shift
PYTHON=${PYTHON:-python3}
PROFILES=${PROFILES:-3}
PROFILE_ARGS=${PROFILE_ARGS:-}  # e.g. --quick: shorter replay rounds after the script (the in-situ measurement is the same)
LIMIT=${LIMIT:-300}  # seconds a run may take before it is stopped (a hang must not eat the device budget)
mkdir -p "$OUT"
elapsed() { "$PYTHON" -c 'import sys, time; print(round(time.time() - float(sys.argv[1]), 2))' "$1"; }
export PYTHONPATH="$PWD/native-runner${PYTHONPATH:+:$PYTHONPATH}"
for name in "${@:-amp_train decode_static_kv resnet_infer varlen_server}"; do
  for name in $name; do
    for run in $([ "${PLAIN:-1}" = 0 ] || echo compiled-cold:"" eager:--eager compiled:""); do
      label=${run%%:*}; flag=${run#*:}
      start=$(date +%s.%N)
      timeout "$LIMIT" "$PYTHON" "bench/scripts/$name.py" --own-clock $flag >"$OUT/$name.plain-$label.out" 2>&1 || echo "$name plain $label failed" >&2
      elapsed "$start" >"$OUT/$name.plain-$label.wall"
    done
    for k in $(seq 1 "$PROFILES"); do
      start=$(date +%s.%N)
      timeout "$LIMIT" "$PYTHON" -m compile_lens_runner profile --script "bench/scripts/$name.py" --out "$OUT/$name-$k" \
        $PROFILE_ARGS >"$OUT/$name-$k.stdout" 2>"$OUT/$name-$k.stderr" || echo "$name profile $k exited $?" >&2
      elapsed "$start" >"$OUT/$name-$k.wall"
    done
    "$PYTHON" bench/in_situ_summary.py "$OUT" >"$OUT/summary.txt" || true  # after each script: a cut-short run keeps what it had
  done
done
cat "$OUT/summary.txt"
