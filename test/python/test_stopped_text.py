"""What a cancelled or timed-out run says it finished: modes for a target, the script and its regions for a script."""

from compile_lens_runner.process.finish import stopped_text


def _report(kind: str, modes: list[dict], regions: list[dict] | None = None) -> dict:
    return {"target": {"kind": kind, "name": "x"}, "modes": modes, "regions": regions or []}


def test_a_target_names_its_finished_modes() -> None:
    done, rest = stopped_text(_report("sample", [{"mode": "default", "status": "ok"}]))
    assert done == "finished modes: default." and rest == "Run again to measure the remaining modes."
    done, rest = stopped_text(_report("function", []))
    assert done == "no mode was measured." and "none" not in done


def test_a_script_speaks_of_the_script_and_its_regions_not_modes() -> None:
    running, rest = stopped_text(_report("script", []))
    assert "while the script was running" in running and "scriptCalls" in rest
    assert "mode" not in running + rest
    region = {"id": "r0", "name": "Net", "measurements": [{"mode": "as-written", "status": "ok"}]}
    unmeasured = {"id": "r1", "name": "step", "measurements": []}
    ran, rest = stopped_text(_report("script", [{"mode": "script", "status": "ok"}], [region, unmeasured]))
    assert (
        ran == "the script had run; measured regions: r0 Net." and rest == "Run again to measure the remaining regions."
    )
    ran, _ = stopped_text(_report("script", [{"mode": "script", "status": "ok"}], [unmeasured]))
    assert ran == "the script had run; no region was measured yet."


def test_a_region_measured_in_situ_counts_as_measured() -> None:
    """A cancel during the replays that follow the script: the region's own steps gave its number (review s35: "no
    region was measured yet" beside "measured before it: 1.51× per token in situ")."""
    situ = {"id": "r0", "name": "GPT2LMHeadModel.forward", "measurements": [], "inSitu": {"step": {"value": 1.5}}}
    ran, rest = stopped_text(_report("script", [{"mode": "script", "status": "ok"}], [situ]))
    assert ran == "the script had run; measured regions: r0 GPT2LMHeadModel.forward (in situ)."
    assert rest == "Run again to finish the profile."
    bare = {"id": "r1", "name": "step", "measurements": [], "inSitu": {"step": None, "call": None}}
    ran, rest = stopped_text(_report("script", [{"mode": "script", "status": "ok"}], [situ, bare]))
    assert (
        ran.endswith("r0 GPT2LMHeadModel.forward (in situ).") and rest == "Run again to measure the remaining regions."
    )
