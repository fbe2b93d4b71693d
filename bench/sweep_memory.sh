#!/usr/bin/env bash
# GPU memory of a sweep that drops each model (bench/scripts/gpu_sweep.py), run plainly and observed by --script
# (regions measured when the script drops them, with a what-if reduce-overhead replay): the observed run must end
# within 1.5x of the plain one (issue: "do no harm", point 2). Prints both and the ratios.
#
#   bash bench/sweep_memory.sh /tmp/sweep      # on the GPU machine (on CPU only resident memory is compared)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: bash bench/sweep_memory.sh OUT_DIR}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"
export PYTHONPATH="$PWD/native-runner${PYTHONPATH:+:$PYTHONPATH}"
"$PYTHON" bench/scripts/gpu_sweep.py "$OUT/plain.json"
"$PYTHON" -m compile_lens_runner profile --script bench/scripts/gpu_sweep.py --no-in-situ --quick --modes reduce-overhead \
  --out "$OUT/observed" -- "$OUT/observed.json" >"$OUT/observed.stdout" 2>"$OUT/observed.stderr" \
  || echo "observed run exited $? (see $OUT/observed.stderr)" >&2
"$PYTHON" - "$OUT" <<'PY'
import json, os, sys

out = sys.argv[1]
plain = json.load(open(os.path.join(out, "plain.json")))
observed = json.load(open(os.path.join(out, "observed.json")))
print("plain   ", plain)
print("observed", observed)
for key in plain:
    print(f"{key}: observed/plain {observed[key] / plain[key]:.2f}" if plain[key] else f"{key}: plain 0, observed {observed[key]:.1f}")
report = json.load(open(os.path.join(out, "observed", "report.json")))
for region in report["regions"]:
    ms = [(m["mode"], m["status"], m.get("speedup")) for m in region["measurements"]]
    print(region["id"], region["replay"], ms)
PY
