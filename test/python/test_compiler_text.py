"""A compiler record in lines (report/compiler_text.py, schema 1.25): the CUDA-graph outcome (`cudaGraphsLines`) and,
read from logs, that no compiled code ran where Dynamo made no graph (`noGraphText`) and (1.27) what the compiler did,
its compile time and caches. On recorded reports: no torch."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from compile_lens_runner.report import compile_names, compiler_text, sentences

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_the_cuda_graph_outcome_counts_the_graphs_then_each_kind_of_skip_at_its_line_with_its_fix() -> None:
    skip = {"kind": "cpu-device", "what": "an input lives on the CPU", "cost": "", "fix": "Move it to the GPU.",
            "location": {"file": "/w/model.py", "line": 12, "cell": None}}  # fmt: skip
    hint = {"kind": "mutated-inputs", "what": "an input is mutated", "cost": ""}
    statuses: list[Any] = [
        {"compileId": "0/0", "status": "captured"},
        {"compileId": "0/1", "status": "skipped", "explanation": skip},
        {"compileId": "0/2", "status": "skipped", "explanation": skip, "hints": [hint]},
        {"compileId": "1/0", "status": "unknown", "reason": "This log cannot say whether CUDA graphs ran."},
        {"compileId": "2/0", "status": "not-captured"},
    ]
    assert compiler_text.cuda_graph_lines(statuses) == [
        "CUDA graphs: 1 of 5 graphs captured",
        "  skipped (2 graphs) at model.py:12: an input lives on the CPU",
        "    fix: Move it to the GPU.",
        "  1 graph unknown: This log cannot say whether CUDA graphs ran.",
        "  hint: an input is mutated",
        "  1 graph not captured, no reason recorded (never run after compiling, or captured outside the log)",
    ]
    assert compiler_text.cuda_graph_lines([]) == []
    # a recorded report carries them (scripts/rederive_fixtures.py)
    report = json.loads((FIXTURES / "why" / "decode_static.rederived.report.json").read_text())
    for region in report["regions"]:
        assert region["compiler"]["cudaGraphsLines"] == compiler_text.cuda_graph_lines(region["compiler"]["cudaGraphs"])


def test_frames_compiled_into_no_graph_say_no_compiled_code_ran_in_a_report_read_from_logs() -> None:
    compiler: dict[str, Any] = {"graphCount": 0, "compiledFrames": 2, "recompiles": [],
                                "graphBreaks": [{"count": 3}]}  # fmt: skip
    report: Any = {"target": {"kind": "logs"}, "modes": [{"compiler": compiler}]}
    compiler_text.attach(report)
    assert compiler["noGraphText"] == (
        "No compiled code ran: Dynamo made no graph of the 2 frames it compiled; every call of them ran eagerly (see "
        "the first graph break)"
    )
    graphed = copy.deepcopy(report)
    del graphed["modes"][0]["compiler"]["noGraphText"]
    graphed["modes"][0]["compiler"]["graphCount"] = 1
    compiler_text.attach(graphed)
    assert "noGraphText" not in graphed["modes"][0]["compiler"]
    script = copy.deepcopy(report)  # a region says it as its answer (noCompiledCode)
    del script["modes"][0]["compiler"]["noGraphText"]
    script["target"]["kind"] = "script"
    compiler_text.attach(script)
    assert "noGraphText" not in script["modes"][0]["compiler"]


def test_a_site_seen_more_than_once_says_its_count_as_the_hover_s_title() -> None:
    compiler: dict[str, Any] = {"graphCount": 2, "recompiles": [],
                                "graphBreaks": [{"reason": "print", "count": 3}, {"reason": "item", "count": 1}],
                                "recompileSites": [{"pattern": "p", "count": 7}, {"pattern": "q", "count": 1}]}  # fmt: skip
    compiler_text.count_texts(compiler)  # type: ignore[arg-type]
    assert [b.get("countText") for b in compiler["graphBreaks"]] == ["3 graph breaks at this line", None]
    assert [s.get("countText") for s in compiler["recompileSites"]] == ["7 recompiles at this line", None]


def test_a_report_read_from_logs_says_what_the_compiler_did_its_compile_time_and_caches() -> None:
    """Schema 1.27: the CLI's compiler, compile-time and cache lines for `inspect` are the runner's words."""
    compiler: dict[str, Any] = {
        "graphCount": 3, "compiledFrames": 5, "graphBreaks": [{"count": 3, "reason": "a"}, {"count": 1, "reason": "b"}],
        "recompiles": [{}, {}], "recompileSites": [{"count": 2}], "compileFailures": [], "restarts": [{}],
        "compileSeconds": {"total": 3.4, "dynamo": 1.2, "aot": 0.5, "inductor": 0, "codegen": 0.3},
        "cache": {"fxGraph": {"hit": 2, "miss": 1, "bypass": 0}, "aotAutograd": {"hit": 1}},
    }  # fmt: skip
    profiled: dict[str, Any] = copy.deepcopy(compiler)
    report: Any = {"target": {"kind": "logs"}, "modes": [{"compiler": compiler}]}
    compiler_text.attach(report)
    assert compiler["countsText"] == (
        "5 compiles (3 graphs; 2 made no graph for reasons the log does not give), 4 graph breaks at 2 sites, 2 recompiles at 1 site, 0 failed compiles, "
        "1 restart"
    ), "some compiles made no graph: said as the compile phases' heading says it (compiles_made)"
    # the compiles that captured nothing, said as the compile phases' heading says them (review 8 A7, schema 1.36)
    where = {"file": "/a/m.py", "line": 27, "function": "forward", "code": "def forward(self, x):"}
    compiler["frames"] = [
        {"compileId": f"2/{n}", "function": "forward", "location": where, "seconds": 0.1, "graphOps": 0} for n in (0, 1)
    ]
    compiler_text.attach(report)
    assert compiler["countsText"].startswith(
        "5 compiles (3 graphs; 2 made no graph: captured nothing in function forward), 4 "
    )
    compiler["frames"][1] = {**compiler["frames"][1], "function": "torch_dynamo_resume_in_forward_at_29"}
    compiler_text.attach(report)
    assert compiler["countsText"].startswith(
        "5 compiles (3 graphs; 2 made no graph: captured nothing in functions forward and forward after line 29), 4 "
    )
    assert compiler["compileTimeText"] == "3.4 s (dynamo 1.2 s, aot 500 ms, codegen 300 ms)"
    assert compiler["cacheText"] == "FX graph 2 hits, 1 miss; AOT autograd 1 hit"
    quiet: dict[str, Any] = {"graphCount": 1, "graphBreaks": [], "recompiles": []}
    logs: Any = {"target": {"kind": "logs"}, "modes": [{"compiler": quiet}]}
    compiler_text.attach(logs)
    assert quiet["countsText"] == "0 compiles, 1 graph, 0 graph breaks, 0 recompiles, 0 failed compiles, 0 restarts"
    assert "compileTimeText" not in quiet and "cacheText" not in quiet, "nothing counted: nothing said"
    script: Any = {"target": {"kind": "script"}, "modes": [{"compiler": profiled}]}
    compiler_text.attach(script)
    assert "countsText" not in profiled, "a profile says its facts in its headlines"


def test_graph_breaks_at_one_line_with_one_fix_are_one_site_naming_each_call_that_broke() -> None:
    """Review 5C M9: attach-2x2's rank 0 broke at the training line on DDP's Logger call (once) and its
    `_inside_ddp_forward` (twice); the panel read "2 graph breaks" over one item and a "×2" item, the same DDP fix under
    each. One site: both calls named, one fix, the 3 breaks it stands for, as the facts count them."""
    rank = json.loads((FIXTURES / "attach-2x2" / "job" / "ranks" / "rank0" / "report.json").read_text())
    compiler = rank["regions"][0]["compiler"]
    breaks = compiler["graphBreaks"]
    assert [b["count"] for b in breaks] == [1, 2] and len({b["explanation"]["fix"] for b in breaks}) == 1
    (site,) = compiler_text.break_sites(breaks)
    assert site["count"] == 3 and site["location"] == breaks[0]["location"]
    assert site["explanation"]["fix"] == breaks[0]["explanation"]["fix"]
    assert site["explanation"]["what"].startswith(
        "The compiled code calls the DistributedDataParallel wrapper, and Dynamo cannot trace DDP's own bookkeeping "
        "(`Logger.set_runtime_stats_and_log` and `DistributedDataParallel._inside_ddp_forward`), so Dynamo stops the "
        "graph there, runs those calls in Python"
    )
    assert "3 graph breaks (in compiles that made no graph)" in rank["regions"][0]["facts"]
    # breaks of another fix, or at another line, stay sites of their own
    elsewhere = {**breaks[1], "location": {**breaks[1]["location"], "line": 80}}
    assert [s["count"] for s in compiler_text.break_sites([breaks[0], elsewhere])] == [1, 2]
    unexplained = [{**b, "explanation": None} for b in breaks]
    assert len(compiler_text.break_sites(unexplained)) == 2


def test_a_cache_hit_with_a_cpp_compile_under_its_load_says_that_loading_builds_the_cpp_not_yet_built() -> None:
    """Review 8 A9: serve_script's "1 cache hit" over a 607 ms C++ compile read as a cache that did not work."""
    report = json.loads((FIXTURES / "recorded/serve_script-cpu/report.json").read_text())
    compiler = report["modes"][0]["compiler"]
    said = compiler_text.cache_build(compiler)
    assert said == (
        "A cache hit still loads the graph it found, and loading it builds its C++ where this machine has not built"
        " it yet: the C++ compile under 'load from cache' (607 ms) is that build, not a compile the cache missed."
    )
    # a miss's C++ compile is a compile: nothing said of it
    missed = copy.deepcopy(compiler)
    for phase in missed["phases"]:
        phase.pop("cacheHit", None)
    assert compiler_text.cache_build(missed) is None
    # a C++ compile outside the cache's load is not the load's build
    outside = copy.deepcopy(compiler)
    for phase in outside["phases"]:
        if phase["name"] == "load from cache":
            phase["durMs"] = 10.0
    assert compiler_text.cache_build(outside) is None


def test_a_compile_count_s_breakdown_adds_up_to_its_compiles() -> None:
    """Review 9 D3: attach-2x2's rank 1 read "7 compiles (2 graphs; 4 with no tensor work)", 2 + 4 = 6: its contextlib
    resume frame (3/0) logged no op count. It is said as what its row says it is, the part resumed after a graph break
    (review 18Y Y8: "1 for a reason the log does not give" beside the row "…, after a graph break in it), made no
    graph"); the rest as not logged; reasons more than the compiles are no breakdown."""
    rank = json.loads((FIXTURES / "attach-2x2" / "job" / "ranks" / "rank1" / "report.json").read_text())
    compiler = rank["modes"][0]["compiler"]
    ops = [f.get("graphOps") for f in compiler["frames"]]
    assert (len(ops), compiler["graphCount"], ops.count(0), ops.count(None)) == (7, 2, 4, 1)
    said = (
        "7 compiles (2 graphs; 5 made no graph: 4 captured nothing in torch.compile's wrapper of your module and Python's "
        "contextlib.py, 1 resumed after a graph break)"
    )
    assert compiler["phasesText"].startswith(f"{said}, ")
    assert compiler["phaseRowTexts"]["3/0"].endswith(", after a graph break in it), made no graph")
    assert compiler_text.compiles_made(7, 2, compiler) == said
    assert sentences.region_facts(rank["regions"][0])[1] == said
    # every compile accounted for: no remainder said; a frame with no record of its function is not said to have
    # resumed after a break, its compile not logged
    unnamed = {**compiler, "frames": [f for f in compiler["frames"] if f["compileId"] != "3/0"]}
    assert compiler_text.compiles_made(7, 2, unnamed).endswith(", 1 for a reason the log does not give)")
    assert (
        compiler_text.compiles_made(6, 2, unnamed)
        == "6 compiles (2 graphs; 4 made no graph: captured nothing in torch.compile's wrapper of your module and Python's "
        "contextlib.py)"
    )
    # reasons that overshoot the compiles (counted from another record) are not said as a breakdown
    assert (
        compiler_text.compiles_made(5, 2, compiler)
        == "5 compiles (2 graphs; 3 made no graph for reasons the log does not give)"
    )
    # no reason recorded at all: those that made none said as that (review 10 B4: "2 compiles (1 graph)" said nothing
    # of the other)
    assert (
        compiler_text.compiles_made(7, 2, {**compiler, "frames": [], "graphBreaks": []})
        == "7 compiles (2 graphs; 5 made no graph for reasons the log does not give)"
    )
    assert (
        compiler_text.compiles_made(2, 1) == "2 compiles (1 graph; 1 made no graph for a reason the log does not give)"
    )


def test_a_compile_with_nothing_but_autotuning_recorded_is_said_as_that_in_the_breakdown() -> None:
    """Review 9 D7: h100-mlp's heading read "3 compiles (2 graphs)" over a third row of "autotune 108 ms" alone."""
    report = json.loads((FIXTURES / "reports" / "h100-mlp" / "report.json").read_text())
    compiler = report["modes"][0]["compiler"]
    names = {p["compileId"]: set() for p in compiler["phases"]}
    for phase in compiler["phases"]:
        names[phase["compileId"]].add(phase["name"])
    assert names["0/2"] == {"autotune"} and "Dynamo: whole frame" in names["0/1"]
    assert compiler_text.phases_text(compiler).startswith("3 compiles (2 graphs; 1 made no graph: only autotuned), ")
    assert compiler["phasesText"] == compiler_text.phases_text(compiler)
    # a compile with a Dynamo phase beside its autotuning is no such compile: no reason said, nothing made up
    for phase in compiler["phases"]:
        if phase["compileId"] == "0/2":
            phase["name"] = "Dynamo: whole frame"
    assert compiler_text.phases_text(compiler).startswith(
        "3 compiles (2 graphs; 1 made no graph for a reason the log does not give), "
    )


def test_a_jobs_compile_phases_heading_says_whose_they_are() -> None:
    """Review 10H H3: the DDP job's "Compile phases — script: 5 compiles (1 graph), 55.1 s" was rank 0's alone (the
    merged record's phases are the lowest rank's), said as the job's beside rank 1's "2 graphs" and "compiling 57 s"."""
    report = json.loads((FIXTURES / "reports" / "ddp-ranks-cpu" / "report.json").read_text())
    compiler, ranks = report["modes"][0]["compiler"], report["ranks"]
    assert [r["rank"] for r in ranks] == [0, 1]
    said = compiler_text.phases_text(compiler, ranks)
    assert said is not None and said.startswith(
        "5 compiles (1 graph; 4 made no graph: 3 stopped at a graph break, 1 resumed after a graph break) on rank 0, "
    ), said
    assert compiler["phasesText"] == said
    # a rank with no record of its own (it wrote none): the lowest that has one
    assert "on rank 1, " in (compiler_text.phases_text(compiler, [{**ranks[0], "graphCount": None}, ranks[1]]) or "")
    # one process: no rank named
    assert "on rank" not in (compiler_text.phases_text(compiler, ranks[:1]) or "")
    assert "on rank" not in (compiler_text.phases_text(compiler) or "")


def test_a_compile_that_made_no_graph_is_said_in_one_phrase_on_every_page() -> None:
    """Review 12M M8 / 12N N6 / 14R R8: "captured nothing", "made none", "nothing captured", "no graph" and "made no
    graph" for one thing across the fixtures' pages, the reasons' words swapped between summary and heading, "in
    forward" read as "in the forward pass", "1 no reason logged" of what. Every heading that counts fewer graphs than
    compiles says compile_names.NO_GRAPH, its reasons after it in one set of words."""
    seen = 0
    gone = ("(no graph)", "(no graph:", ', no graph"', "with only autotuning", "no reason logged", "made none")
    for path in FIXTURES.rglob("*report.json"):
        text = path.read_text()
        for said in (
            *gone,
            "nothing captured",
            "autotuning alone",
            "recompile limit hit",
            "at the recompile limit",
            "outside your files",
        ):
            assert said not in text, f"{path}: {said}"
        assert not re.search(
            r"captured nothing in (?!functions? |torch\.compile's wrapper of your module|Python's )", text
        ), path
        report = json.loads(text)
        for mode in report.get("modes") or []:
            heading = (mode.get("compiler") or {}).get("phasesText") or ""
            if re.match(r"\d+ compiles? \(", heading):  # some made no graph: said beside the count
                seen += 1
                assert compile_names.NO_GRAPH in heading, f"{path}: {heading}"
    assert seen >= 5


def test_the_steps_a_kernel_s_time_is_the_mean_of_are_said_by_the_runner() -> None:
    """Code read 37 item 5: "mean of steps 2–3" was worded on the TS side; kernelSteps.text says it (schema 1.45)."""
    assert compiler_text.steps_text({"first": 2, "last": 2}) == "step 2"
    assert compiler_text.steps_text({"first": 2, "last": 3}) == "steps 2–3"
    report = json.loads((FIXTURES / "reports" / "fused-cpu" / "report.json").read_text())
    [steps] = [m["compiler"]["kernelSteps"] for m in report["modes"] if "kernelSteps" in (m.get("compiler") or {})]
    assert steps == {"first": 2, "last": 3, "text": "steps 2–3"}
