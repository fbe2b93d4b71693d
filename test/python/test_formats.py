"""The runner's numbers in its sentences are the extension's: the same table (test/fixtures/numbers.json) that
test/unit/numbers.test.ts holds extension/present/numbers.ts to."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from compile_lens_runner import formats

TABLE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "numbers.json").read_text(encoding="utf-8"))

FORMAT: dict[str, Callable[[Any], str]] = {
    "speedup": formats.speedup,
    "interval": lambda v: formats.interval(*v),
    "speedupRange": lambda v: formats.speedup_range(*v),
    "ms": formats.ms,
    "seconds": formats.seconds,
    "pct": formats.pct,
    "breakEven": lambda v: formats.break_even(*v),
    "whole": formats.whole,
    "count": formats.count,
    "rate": formats.rate,
    "spread": formats.spread,
    "memory": formats.memory,
    "plural": lambda v: formats.plural(*v),
    "timesOfRatio": lambda v: " | ".join(formats.times_of_ratio(*v)),
}


def test_every_quantity_formats_as_the_extension_does() -> None:
    quantities = sorted(k for k in TABLE if k != "about")
    assert quantities == sorted(FORMAT)
    for quantity in quantities:
        for value, expected in TABLE[quantity]:
            assert FORMAT[quantity](value) == expected, (quantity, value)


def test_a_comparison_says_both_sides_in_one_unit() -> None:
    """ "compile 74.3 ms instead of 0.50 s" read as two units for one comparison (a runner-only form: the extension
    shows the runner's sentences): the other side in the unit the first is said in."""
    assert formats.ms_as(500.6, formats.seconds(0.0743)) == "501 ms"
    assert formats.ms_as(74.3, formats.seconds(3.4)) == "0.0743 s"
    assert formats.ms_as(3400, formats.ms(0.17)) == "3,400 ms"
    assert formats.ms_as(400, formats.seconds(2.0)) == "0.4 s"
    # a side under 0.1 ms is said in µs (review 8 A15), and the other side with it
    assert formats.ms(0.0523) == "52.3 µs"
    assert formats.ms_as(0.12, formats.ms(0.0523)) == "120 µs"
    assert formats.ms_as(3.4, formats.ms(0.0523)) == "3,400 µs"
    assert formats.ms_as(0.05, formats.ms(0.17)) == "0.05 ms"


def test_times_beside_a_ratio_divide_to_it() -> None:
    """gated_service's "3.99× per call in situ, 0.54 ms → 0.14 ms" (those give 3.86×): each time to three significant
    digits, so that the two times read beside a ratio give it."""
    eager, compiled = 0.5421, 0.1359
    said = [float(formats.ms(t).removesuffix(" ms")) for t in (eager, compiled)]
    assert formats.speedup(said[0] / said[1]) == formats.speedup(eager / compiled)


def test_a_compile_time_reads_as_the_compile_rows_say_it() -> None:
    """encoder_fastpath: "0.78 s trying to compile" beside the compile row's "783 ms" (numbers.ts formatMs); timeline's
    "6.0 s" row beside "525 ms" under a "6.6 s" total (review 4A F2): seconds to three significant digits too."""
    assert formats.seconds(0.7834) == formats.ms(783.4) == "783 ms"
    assert formats.seconds(68.94) == "68.9 s"
    assert formats.seconds(6.0412) == "6.04 s"


def test_a_slowdown_divides_to_the_speedup_printed_beside_it() -> None:
    """ "0.52× (compiled takes 1.94× as long)": 1 / 0.516 beside a printed 0.52, which gives 1.92×."""
    assert formats.speedup(0.516) == "0.52×" and formats.slowdown(0.516) == "1.92×"
    assert formats.slowdown(0.0516) == formats.speedup(1 / 0.052)


def test_a_slowdown_beside_its_times_is_their_ratio_as_shown() -> None:
    """ "compiled takes 1.41× as long" beside 0.71× and "13.68 µs" / "9.652 µs", which divide to 1.42×: as numbers.ts
    timesOfSpeedup, the slowdown is the ratio of the times shown, never 1 / the printed speedup."""
    eager_ms, compiled_ms, value = 0.0096523730468423, 0.013684785156620194, 0.7053
    eager, compiled = formats.times_of_ratio(eager_ms, compiled_ms, value)
    assert (eager, compiled) == ("9.652 µs", "13.68 µs") and formats.speedup(value) == "0.71×"
    assert formats.slowdown(value, eager_ms, compiled_ms) == "1.42×" == formats.speedup(13.68 / 9.652)
    assert formats.slowdown(value) == "1.41×"  # without its times: the printed speedup's inverse
    assert formats.shown_ms("0.484 ms") == 0.484 and formats.shown_ms("13.68 µs") == 0.01368
    assert formats.shown_ms("1.2 s") == 1200
    # the answer's words as re-derived: its number's and its slower reason's, from the times it carries (schema 1.50)
    from compile_lens_runner.report import reason_text, sentences

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "script-kernels-cpu" / "report.json"
    report = json.loads(fixture.read_text())
    answer = report["regions"][0]["answer"]
    assert sentences.direction_text(answer["number"]) == "compiled takes 1.42× as long"
    slower = next(r for r in answer["reasons"] if r["code"] == "slower")
    assert reason_text.sentence(slower) == "Compiled takes 1.42× as long as eager."


def test_a_speedup_reads_the_same_beside_its_range_or_alone() -> None:
    """Review 8 A15: "0.170× (0.068–0.195×)" in one place, "0.17×" in another, for the same kind of number."""
    assert formats.speedup(0.17) == "0.17×"
    assert formats.speedup_range(0.17, 0.0675, 0.195).startswith("0.17× (")


def test_a_range_beside_its_point_is_said_to_the_points_precision() -> None:
    """Review H6: "0.17× … (0.068–0.195×)", a three-digit range beside a two-digit point; an end finer only where the
    point's digits would leave it none ("0.008", not "0.01", beside 1.03×)."""
    assert formats.speedup_range(0.17, 0.0675, 0.195) == "0.17× (0.07–0.20×)"
    assert formats.interval(0.0675, 0.195) == "0.068–0.195×"  # alone: the finer end's precision
    assert formats.interval(0.008, 4.65, 1.03) == "0.008–4.650×"


def test_a_load_average_keeps_two_significant_digits_below_one() -> None:
    """A runner-only form (measure/host.load_words): one decimal said 0.01 and 0.04 alike, "rose from 0.0 to 0.0"."""
    said = [formats.load_average(v) for v in (0.0, 0.01, 0.04, 0.123, 0.5, 0.996, 3.5, 12.245, 4120.0)]
    assert said == ["0", "0.01", "0.04", "0.12", "0.5", "1.0", "3.5", "12.2", "4,120"]


def test_a_signature_says_its_grad_mode_in_words() -> None:
    """ "; grad" alone read as an input that requires grad (review 13P P7): every grad mode said as the compiler's
    explanations say it."""
    assert formats.inputs("float32[4, 8]; grad") == "float32[4, 8] with grad"
    assert formats.inputs("float32[8, 256, 64]; inference") == "float32[8, 256, 64] under torch.inference_mode()"
    assert formats.inputs("int64[5]; no_grad") == "int64[5] under torch.no_grad()"
    # a call under autocast (script/calls.py: "; autocast cuda bfloat16"), never "; grad (autocast cuda bfloat16)"
    assert formats.inputs("input_ids=int64[8, 192]; grad; autocast cuda bfloat16") == (
        "input_ids=int64[8, 192] with grad, under autocast to bfloat16 on cuda"
    )
    assert formats.inputs("float32[2]") == "float32[2]"


def test_a_signature_is_read_by_one_rule_its_autocast_off_the_end_then_its_grad_mode_after_the_last_semicolon() -> None:
    """Code read 3 §2: a str argument's repr holding ";" stays one argument (it was cut into "'a (b'), with grad"), and
    the autocast is never read as the grad mode."""
    assert formats.signature_parts("'a;b'; grad") == ("'a;b'", "grad", None)
    assert formats.inputs("'a;b'; grad") == "'a;b' with grad"
    assert formats.signature_parts("float32[8], 'x; y'; no_grad; autocast cuda bfloat16") == (
        "float32[8], 'x; y'",
        "no_grad",
        "autocast cuda bfloat16",
    )
    assert formats.inputs("'a; autocast cuda float16'; grad") == "'a; autocast cuda float16' with grad"
    assert formats.signature_parts("float32[2]") == ("float32[2]", None, None)
