#!/usr/bin/env bash
# In situ on real scripts: a transformers GPT-2 generate() loop (its forward compiled) and a training loop (forward,
# backward, AdamW), each profiled twice with --script. Prints both profiles' per-step speedups and intervals, and
# whether each lands inside the other's interval; the reports go to the folder given as $1.
#
#   bash bench/in_situ_gpu.sh /tmp/in-situ            # on the GPU machine
#   IN_SITU_SMALL=1 bash bench/in_situ_gpu.sh /tmp/x  # small sizes (the scripts also go small without CUDA)
#   IN_SITU_SCRIPTS=train_loop PYTHON=... bash ...     # one script; another interpreter
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: bash bench/in_situ_gpu.sh OUT_DIR}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"
export PYTHONPATH="$PWD/native-runner${PYTHONPATH:+:$PYTHONPATH}"
for name in ${IN_SITU_SCRIPTS:-gpt2_generate train_loop}; do
  if [ "$name" = gpt2_generate ] && ! "$PYTHON" -c 'import transformers' 2>/dev/null; then
    echo "$name: skipped, transformers is not installed (pip install transformers)"
    continue
  fi
  for k in 1 2; do
    echo "== $name, profile $k" >&2
    "$PYTHON" -m compile_lens_runner profile --script "bench/scripts/$name.py" --out "$OUT/$name-$k" \
      >"$OUT/$name-$k.stdout" 2>"$OUT/$name-$k.stderr" || echo "$name profile $k exited $? (see $OUT/$name-$k.stderr)" >&2
  done
done
"$PYTHON" - "$OUT" <<'PY'
import json, os, sys

out = sys.argv[1]
for name in ("gpt2_generate", "train_loop"):
    reports = []
    for k in (1, 2):
        path = os.path.join(out, f"{name}-{k}", "report.json")
        if os.path.exists(path):
            with open(path) as f:
                reports.append(json.load(f))
    if not reports:
        continue
    print(f"\n{name} ({reports[0]['environment']['deviceName']}, torch {reports[0]['environment']['torch']})")
    for k, report in enumerate(reports, 1):
        wall = (report.get("inSitu") or {}).get("wallSeconds") or {}
        print(f"  profile {k}: {report['status']}; pairs {report['inSitu']['pairs']} ({' '.join(report['inSitu']['order'])}); "
              f"whole script {wall.get('compiled')} s as written, {wall.get('eager')} s compiling off")
        for region in report["regions"]:
            situ = region.get("inSitu") or {}
            step = situ.get("step")
            if step is None:
                print(f"    {region['id']} {region['name']}: no step speedup ({situ.get('reason') or situ.get('failure')})")
                continue
            sps = situ.get("stepsPerSecond") or {}
            print(f"    {region['id']} {region['name']}: step {step['eagerMs']:.3f} -> {step['compiledMs']:.3f} ms, "
                  f"{step['speedup']:.3f}x [{step['low']:.3f}, {step['high']:.3f}] over {step['samples']} steps; "
                  f"call {(situ.get('call') or {}).get('speedup')}x; compile {situ.get('compileSeconds')} s; "
                  f"break-even {situ.get('breakEvenSteps')} steps of {situ.get('stepsMade')}; "
                  f"steps/s {sps.get('eager')} -> {sps.get('compiled')}")
            print(f"      verdict: {region['recommendation']['reason']}")
    if len(reports) == 2:
        for a, b in ((0, 1), (1, 0)):
            for ra in reports[a]["regions"]:
                rb = next((r for r in reports[b]["regions"] if r["id"] == ra["id"]), None)
                sa, sb = ra.get("inSitu") or {}, (rb or {}).get("inSitu") or {}
                if sa.get("step") and sb.get("step"):
                    inside = sb["step"]["low"] <= sa["step"]["speedup"] <= sb["step"]["high"]
                    print(f"  {ra['id']}: profile {a + 1}'s {sa['step']['speedup']:.3f}x inside profile {b + 1}'s interval "
                          f"[{sb['step']['low']:.3f}, {sb['step']['high']:.3f}]: {'yes' if inside else 'NO'}")
PY
