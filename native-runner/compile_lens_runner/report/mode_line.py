"""A target mode's measurement in one line (schema 1.25: a mode's `measuredText`), as the CLI shows it under the
headline: the answer's words for its number, compiled per call against the eager it rests on, kernels per step both
ways, the compiler's graphs, breaks and recompiles, the compile time (its recompiles' beside it) and the break-even.
Written once the run's answer is decided (answer.attach), with formats.py's numbers; a mode with no number of the
answer's has no line (the answer says why: its `unmeasured`). Schema 1.28: a script region's replay in one line the same way (its measurement's
`measuredText`): which callable, on which inputs, the answer's words for its number, its times and kernels, a what-if
mode's own compile on those inputs, the break-even where the number is the answer's."""

from __future__ import annotations

from .. import formats
from ..shapes.answer import Answer, AnswerNumber, Reason
from ..shapes.common import Timing
from ..shapes.compiler import CompilerInsight
from ..shapes.mode import ModeResult, RegionMeasurement
from ..shapes.region import Region
from ..shapes.report import Report
from . import roles


def break_count(compiler: CompilerInsight | None) -> int:
    """The graph breaks a compiler record had: each site's count, summed (one site may break in several compiles, or
    stand for several calls at one line: breakSites), as the breaks listed under it add up to (review 5C M9)."""
    return sum(b.get("count") or 1 for b in compiler.get("graphBreaks") or []) if compiler else 0


def _number(answer: Answer, index: int) -> AnswerNumber | None:
    """The answer's number for mode `index` (its own, or its evidence)."""
    numbers = [*([answer["number"]] if answer["number"] else []), *answer["evidence"]]
    return next((n for n in numbers if n["kind"] in ("target-rounds", "replay-call") and n.get("index") == index), None)


def _ms(timing: Timing | None) -> float | None:
    """The time per call a speedup uses: the fastest rounds' estimate (the median before schema 1.4)."""
    return None if timing is None else timing.get("estimateMs", timing["medianMs"])


COLD_CACHE = "a cold compile cache: later runs load it"


def is_cold(compiler: CompilerInsight | None) -> bool:
    """Every FX graph cache lookup missed, so Inductor generated and built its code afresh (False where nothing was
    looked up: backend eager)."""
    fx = ((compiler.get("cache") if compiler else None) or {}).get("fxGraph") or {}
    return bool(fx.get("miss") and not fx.get("hit"))


def cold_cache(compiler: CompilerInsight | None) -> str:
    """ " (a cold compile cache: later runs load it)" where is_cold (review 3C R10: a 52–69 s compile of one small
    Linear, unexplained on screen); "" otherwise."""
    return f" ({COLD_CACHE})" if is_cold(compiler) else ""


def compile_text(compile_s: float, compiler: CompilerInsight | None) -> str:
    """ "compile 10.2 s + 2.8 s recompiling": the first call's compile, then the recompiles' (each frame compiled again
    after its first compile), so one compile time is said, whole, wherever the runner says it."""
    frames = (compiler.get("frames") or []) if compiler else []
    again = [f["seconds"] for f in frames if (f.get("compileId") or "0").rsplit("/", 1)[-1] != "0"]
    return f"compile {formats.seconds(compile_s)}" + (f" + {formats.seconds(sum(again))} recompiling" if again else "")


def _said_times(compiled_ms: float, eager_timing: Timing | None, number: AnswerNumber) -> tuple[str, str | None]:
    """The compiled time as the line says it, and eager's where the number is the ratio of the two (one unit): at the
    digits where they divide to it as shown (formats.times_of_ratio; review 15U U1: "13.7 µs/call vs eager 9.65 µs"
    beside 0.71×); else compiled as ms() says it, and None (eager then as _against says it)."""
    eager_ms = _ms(eager_timing)
    if eager_ms is not None and number.get("eagerMs") == eager_ms and number.get("compiledMs") == compiled_ms:
        eager, compiled = formats.times_of_ratio(eager_ms, compiled_ms, number["value"])
        if eager.split(" ")[1] == compiled.split(" ")[1]:
            return compiled, eager
    return formats.ms(compiled_ms), None


def _against(eager_timing: Timing | None, ranged: bool, compiled: str, eager_said: str | None = None) -> str:
    """ " vs eager 1.66 ms, fastest rounds of 12 interleaved pairs": the eager time a speedup rests on, said as how it
    was made (issue 44: the rounds' fastest, not their median, which a note may give beside it); " vs eager 1.66 ms
    in the same rounds" where the rounds are not on record as that (a number without a range, a report before the
    fastest rounds' estimate). In the unit of `compiled`, the time it is said beside ("64.4 µs/call vs eager 327 µs",
    not "… vs eager 0.327 ms": review 8 A15); `eager_said`: as _said_times says it."""
    eager_ms = _ms(eager_timing)
    if eager_timing is None or eager_ms is None:
        return ""
    eager = eager_said or formats.ms_as(eager_ms, compiled)
    pairs = len(eager_timing.get("rounds") or [])
    if ranged and pairs and "estimateMs" in eager_timing:
        return f" vs eager {eager}, fastest rounds of {pairs} interleaved pairs"
    return f" vs eager {eager} in the same rounds"


def count_name(device: str | None) -> str:
    """What a run's kernel count counts, by the device its work ran on: a GPU's kernels; a CPU's outermost ATen ops
    and Inductor's C++ functions, "CPU ops", as the panel's compare and replay column say them (review 18Y Y1:
    "kernels / step 5 → 2" of a CPU run beside the panel's "CPU ops")."""
    return "CPU ops" if device == "cpu" else "kernels"


def line(
    m: ModeResult, number: AnswerNumber, eager_kernels: float | None, pays: Reason | None = None, device: str = "cuda"
) -> str:
    """ "default: 1.30× per call with default (1.25–1.36×), 0.90 ms/call vs eager 1.66 ms, fastest rounds of 12
    interleaved pairs, kernels/step 14 → 3, 1 graph, 0 graph breaks, 0 recompiles, compile 2.4 s, break-even after
    1,234 calls" (on a CPU "CPU ops/step 15 → 12"). pays: the answer's pay-back, where this is the answer's number
    (one pay-back, the answer's: a number that backs no verdict, too noisy or slower, has none); device: the run's."""
    parts = [number.get("text") or formats.speedup(number["value"])]
    compiled_ms = _ms(m.get("timing"))
    if compiled_ms is not None:
        ranged = number.get("low") is not None and number.get("high") is not None
        said, eager_said = _said_times(compiled_ms, m.get("eagerTiming"), number)
        parts.append(f"{said}/call{_against(m.get('eagerTiming'), ranged, said, eager_said)}")
    kernels = m.get("kernelsPerStep")
    if eager_kernels is not None and kernels is not None:
        parts.append(f"{count_name(device)}/step {formats.count(eager_kernels)} → {formats.count(kernels)}")
    compiler = m.get("compiler")
    graphs = (compiler.get("graphCount") if compiler else None) or 0
    breaks = break_count(compiler)
    recompiles = len(compiler.get("recompiles") or []) if compiler else 0
    parts.append(
        f"{formats.plural(graphs, 'graph')}, {formats.plural(breaks, 'graph break')}, "
        f"{formats.plural(recompiles, 'recompile')}"
    )
    compile_s = m.get("compileSeconds")
    if compile_s is not None:
        parts.append(compile_text(compile_s, compiler) + cold_cache(compiler))
    if pays is not None:
        parts.append(f"break-even after {formats.break_even(pays['steps'], pays.get('unit', 'call'))}")
    return f"{m['mode']}: {', '.join(parts)}"


def remeasured_text(m: ModeResult) -> str | None:
    """ "Timed again, its first timing discarded: input 'x' changed size …" (schema 1.33, review 3C R8: the surfaces
    led it with a bare "re-measured:"); None for a measurement timed once."""
    why = next((t.get("invalidReason") for t in m.get("discardedTimings") or [] if t.get("valid") is False), None)
    return f"Timed again, its first timing discarded: {why}" if why else None


def mismatch_text(m: ModeResult) -> str | None:
    """ "Compiled outputs differ from eager's: max abs error 0.5 > atol 1e-4" (schema 1.33: the surfaces composed
    "numeric mismatch vs eager: …" each); None where they agree, or were not compared."""
    c = m.get("correctness")
    if not c or c["ok"]:
        return None
    said = c.get("message") or f"max abs error {c['maxAbsError']}"
    return f"Compiled outputs differ from eager's: {said}"


def _remeasured(m: ModeResult) -> None:
    """The sentences beside a measurement that are the runner's, not the surfaces': why it was timed again, outputs
    that differ from eager's."""
    for key, said in (("remeasuredText", remeasured_text(m)), ("mismatchText", mismatch_text(m))):
        if said:
            m[key] = said  # type: ignore[literal-required]


def speedup_note(modes: list[ModeResult]) -> str | None:
    """ "Speedup: eager's time ÷ compiled time, each side's fastest of 12 runs, the two taking turns (a busy host only
    adds time). Next run: where another run's speedup may land." — the modes table's legend (report.speedupNote;
    review 4A F11: "eager's fastest round / compiled's fastest round over interleaved pairs" was the code's words,
    composed in TS); None where no mode has paired runs and a range."""
    pairs = sorted(
        {
            len(t["rounds"])
            for m in modes
            if m["status"] == "ok" and m.get("speedupInterval") and (t := m.get("eagerTiming"))
        }
    )
    if not pairs:
        return None
    runs = f"{formats.whole(pairs[0])} runs" if len(pairs) == 1 else "its runs"
    return (
        f"Speedup: eager's time ÷ compiled time, each side's fastest of {runs}, the two taking turns (a busy host only "
        "adds time). Next run: where another run's speedup may land."
    )


def attach(report: Report, answer: Answer) -> None:
    """Each measured mode's line, from the run's answer, and the table's legend."""
    note = speedup_note(report["modes"])
    if note:
        report["speedupNote"] = note
    else:
        report.pop("speedupNote", None)
    eager_kernels = (report.get("eager") or {}).get("kernelsPerStep")
    device = report["environment"]["device"]
    pays = next((r for r in answer["reasons"] if r["code"] == "pays-back-after"), None)
    for index, m in enumerate(report["modes"]):
        _remeasured(m)
        m["modeText"] = mode_code(m["mode"])
        number = _number(answer, index) if m["status"] == "ok" else None
        if number is not None:
            m["measuredText"] = line(m, number, eager_kernels, pays if number is answer["number"] else None, device)


_WHY_INPUTS = {"last": "the last", "most-frequent": "the most frequent"}


def mode_code(mode: str) -> str:
    """ "mode='max-autotune'": a mode as the user writes it in torch.compile (review 3B D22: "mode default", "compiled
    with mode default" read the name as a word)."""
    return f"mode='{mode}'"


# what a torch.compile call that sets nothing compiles with (review 6C Y2: a bare torch.compile(MLP()) was said as
# "mode='default'", an argument it never wrote)
DEFAULTS = "torch.compile's defaults"


def script_mode(region: Region) -> str:
    """What the script's torch.compile call set, as it is written there: "backend='eager', dynamic=True",
    "mode='max-autotune'"; a call that set nothing that changes what compiles (or only torch.compile's own defaults,
    which the region's options cannot tell apart from nothing), "torch.compile's defaults"."""
    options = region.get("options") or {}
    mode, backend = options.get("mode"), options.get("backend")
    said = [mode_code(mode)] if isinstance(mode, str) and mode != "default" else []
    if isinstance(backend, str) and backend != "inductor":
        said.append(f"backend='{backend}'")
    if isinstance(options.get("dynamic"), bool):
        said.append(f"dynamic={options['dynamic']}")
    if options.get("fullgraph") is True:
        said.append("fullgraph=True")
    return ", ".join(said) or DEFAULTS


def replay_mode(region: Region, m: RegionMeasurement) -> str:
    """ "backend='eager' (as written)": the script's own call; "mode='max-autotune'": a what-if."""
    return f"{script_mode(region)} (as written)" if m["mode"] == "as-written" else mode_code(m["mode"])


def replay_line(region: Region, m: RegionMeasurement, number: AnswerNumber, pays: Reason | None = None) -> str:
    """ "default (as written) on the most frequent inputs float32[256, 1024] with grad (40 calls): 1.19× per call replayed
    (1.12–1.26×), 0.67 ms/call vs eager 0.80 ms, fastest rounds of 40 interleaved pairs, kernels/call 9 → 1, break-even after 51,204
    calls" (a region on a CPU: "CPU ops/call 9 → 1"). The script's own callable's compile is the script's (the region's facts say it); a what-if mode's is the
    replay's own, on these inputs. pays: the answer's pay-back, where this is the answer's number. Its inputs are
    `signatureText` (attach_region writes it first): one place says them for the CLI and the panel."""
    label = replay_mode(region, m)
    signature = m.get("signature")
    inputs = ""
    if signature is not None:
        calls = next((s["calls"] for s in region.get("signatures") or [] if s["signature"] == signature), None)
        counted = f" ({formats.plural(calls, 'call')})" if calls is not None else ""
        inputs = f" on {_WHY_INPUTS.get(m.get('why') or '', 'captured')} inputs {m['signatureText']}{counted}"
    parts = [number.get("text") or formats.speedup(number["value"])]
    compiled_ms = _ms(m.get("timing"))
    if compiled_ms is not None:
        # the replay's time is its fastest rounds' wherever they are on record, its number ranged or not
        said, eager_said = _said_times(compiled_ms, m.get("eagerTiming"), number)
        parts.append(f"{said}/call{_against(m.get('eagerTiming'), True, said, eager_said)}")
    eager_kernels, kernels = m.get("eagerKernelsPerStep"), m.get("kernelsPerStep")
    if eager_kernels is not None and kernels is not None:
        parts.append(
            f"{count_name(region.get('device'))}/call {formats.count(eager_kernels)} → {formats.count(kernels)}"
        )
    compile_s = m.get("compileSeconds")
    if m["mode"] != "as-written" and compile_s is not None:
        parts.append(f"the replay compiled these inputs with {label} in {formats.seconds(compile_s)}")
    if pays is not None:
        parts.append(f"break-even after {formats.break_even(pays['steps'], 'call')}")
    return f"{label}{inputs}: {', '.join(parts)}"


def inputs_text(region: Region, m: RegionMeasurement) -> str | None:
    """ "the most frequent of 2 input shapes, 6 calls", "one of 10 input shapes, each called once", "the last of 2 input
    shapes, 1 call": which of the script's inputs a replay ran, among how many (review 6B S: "most frequent, 1 call" of
    ten shapes called once each, composed in the panel, said nothing); None without a signature."""
    signature = m.get("signature")
    if signature is None:
        return None
    shapes = region.get("signatures") or []
    calls = next((s["calls"] for s in shapes if s["signature"] == signature), None)
    count = f", {formats.plural(calls, 'call')}" if calls is not None else ""
    if len(shapes) < 2:
        return f"its only input shape{count}"
    of = f"{len(shapes)} input shapes"
    if m.get("why") == "last":
        return f"the last of {of}{count}"
    tied = sum(1 for s in shapes if s["calls"] == calls)
    if calls is not None and tied == len(shapes):
        return f"one of {of}, {'each called once' if calls == 1 else f'{calls} calls each'}"
    if calls is not None and tied > 1:
        return f"one of the {tied} most frequent of {of}, {calls} calls each"
    return f"the most frequent of {of}{count}"


def attach_region(region: Region) -> None:
    """The region's mode as written, each replay's and its inputs, and each replay with a number of its answer's in
    one line."""
    region["modeText"] = script_mode(region)
    for m in region["measurements"]:
        _remeasured(m)
        m["modeText"] = replay_mode(region, m)
        inputs = inputs_text(region, m)
        if inputs is not None:
            m["inputsText"] = inputs
        if m.get("signature") is not None:
            m["signatureText"] = formats.inputs(m["signature"])
    answer = region.get("answer")
    if answer is None:
        return
    pays = next((r for r in answer["reasons"] if r["code"] == "pays-back-after"), None)
    for index, m in enumerate(region["measurements"]):
        number = _number(answer, index) if m["status"] == "ok" else None
        if number is not None:
            m["measuredText"] = replay_line(region, m, number, pays if number is answer["number"] else None)
        if m["status"] != "error":  # a failed replay has no number to say the role of
            m["roleText"] = roles.role_text(number is not None and number is answer["number"])
    title = roles.roles_title(m["roleText"] for m in region["measurements"] if "roleText" in m)
    if title:
        region["rolesText"] = title
