"""Checks what a run saved of the compiler's work, on any device (written for the H100, where kernels are Triton):
per mode, every compile's generated code / guards / FX graph exist; each kernel's codeLine is its definition (or an
extern kernel's call) in that code; its µs per step; each recompile's failed guard; the compile phases and cache hits.

  PYTHONPATH=native-runner python3 -m compile_lens_runner profile --sample recompile --device cuda --quick \\
      --modes default,reduce-overhead --out /tmp/cl-artifacts && python3 bench/compiler_artifacts_check.py /tmp/cl-artifacts

Exit status 1 when a check fails; the printout says what was found either way."""

import json
import sys
from pathlib import Path


def main(run: Path) -> int:
    report = json.loads((run / "report.json").read_text())
    problems = []
    print(
        f"{report['environment']['deviceName']}  torch {report['environment']['torch']}  schema {report['schemaVersion']}"
    )
    for mode in report["modes"]:
        compiler = mode.get("compiler") or {}
        compiles = {c["compileId"]: c for c in compiler.get("compiles", [])}
        print(
            f"\n== {mode['mode']}: {len(compiles)} compiles, {len(compiler.get('kernels', []))} kernels, {len(compiler.get('phases', []))} phases"
        )
        for cid, c in compiles.items():
            missing = [key for key in ("outputCode", "guards", "fxGraph") if not c[key] or not (run / c[key]).is_file()]
            problems += [f"{mode['mode']} {cid}: no {key}" for key in missing]
            print(f"  compile {cid}: guards {c['guardCount']}, missing {missing or 'nothing'}")
            for failed in c["failedGuards"]:
                guard = (
                    (run / failed["guards"]).read_text().split("\n")[failed["line"] - 1].strip()
                    if failed["line"]
                    else None
                )
                print(
                    f"    failed guard of {failed['compileId']}: {failed['reason']}\n      -> line {failed['line']}: {(guard or 'NOT FOUND')[:140]}"
                )
                if not guard:
                    problems.append(f"{mode['mode']} {cid}: failed guard not found for {failed['reason']}")
        for k in compiler.get("kernels", []):
            code = compiles.get(k["compileId"], {}).get("outputCode")
            line = (run / code).read_text().split("\n")[k["codeLine"] - 1] if code and k.get("codeLine") else ""
            ok = line.startswith(f"{k['name']} = async_compile.") or (
                k["name"].startswith("extern_kernels.") and k["name"] in line
            )
            problems += (
                []
                if ok
                else [
                    f"{mode['mode']} {k['compileId']} {k['name']}: codeLine {k.get('codeLine')} is {line.strip()[:80]!r}"
                ]
            )
            lines = ", ".join(f"{Path(loc['file']).name}:{loc['line']}" for loc in k["sourceLines"])
            print(
                f"  {k['compileId']} {k['name']}: codeLine {k.get('codeLine')} {'ok' if ok else 'WRONG'}, usPerStep {k.get('usPerStep')}, {lines}"
            )
        timed = [
            k for k in compiler.get("kernels", []) if not k["name"].startswith("extern_kernels.") and k.get("usPerStep")
        ]
        if mode["status"] == "ok" and compiler.get("kernels") and not timed:
            problems.append(f"{mode['mode']}: no generated kernel has a time per step")
        for p in compiler.get("phases", []):
            if p["depth"] <= 1 or "cache" in p:
                print(
                    f"  phase {p['compileId']} {'  ' * p['depth']}{p['name']}: {p.get('cache') or str(p['durMs']) + ' ms'} at {p['startMs']} ms"
                )
    print("\n" + ("\n".join(f"PROBLEM {p}" for p in problems) if problems else "all checks passed"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
