"""Command line: `python -m compile_lens_runner profile ...` (see --help). Exit codes: 0 ok/partial, 1 error,
2 usage error, 130 cancelled."""

from __future__ import annotations

import argparse
import os
import re
import sys

from .errors import RunnerError
from .process.inspect import inspect_logs
from .process.placement import default_out_dir, make_tool_folder, refusal
from .target.samples import DEFAULT as DEFAULT_SAMPLE
from .target.samples import NAMES as SAMPLE_NAMES

KNOWN_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")
EXIT_USAGE = 2


def _modes(text: str) -> list[str]:
    modes = [m.strip() for m in text.split(",") if m.strip()]
    if not modes or any(not re.fullmatch(r"[a-z][a-z0-9-]*", m) for m in modes):
        raise argparse.ArgumentTypeError(f"expected comma-separated mode names such as {','.join(KNOWN_MODES)}")
    return list(dict.fromkeys(modes))


def _positive(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="compile_lens_runner", description="Profile torch.compile against eager.")
    sub = p.add_subparsers(dest="command", required=True)
    prof = sub.add_parser("profile", help="compile, time and profile a target; writes a report directory")
    what = prof.add_mutually_exclusive_group()
    what.add_argument("--sample", choices=SAMPLE_NAMES, help=f"a built-in sample model (default: {DEFAULT_SAMPLE})")
    what.add_argument("--target", metavar="FILE:FN", help="FN() returns (model, example_inputs) or a dict")
    what.add_argument("--script", metavar="FILE", help="run an unmodified script and observe its torch.compile calls")
    prof.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    prof.add_argument("--out", metavar="DIR", help="report directory (default ./.compile-lens/runs/<name>-<time>)")
    prof.add_argument(
        "--modes",
        type=_modes,
        help=f"comma-separated: {','.join(KNOWN_MODES)} (default: default); "
        "with --script: what-if modes, replayed on each region's captured inputs (with torch < 2.6 also run in situ: "
        "the script with its torch.compile calls set to the mode)",
    )
    prof.add_argument("--dynamic", choices=("auto", "true", "false"), help="torch.compile's dynamic= (default auto)")
    prof.add_argument("--fullgraph", action="store_true")
    prof.add_argument("--backend", help="torch.compile's backend= (default inductor)")
    prof.add_argument("--timeout", type=_positive, metavar="SECONDS")
    prof.add_argument("--rounds", type=int, metavar="N", help="timing rounds per side (default 7, --quick 3)")
    prof.add_argument("--quick", action="store_true", help="short rounds, for tests and CI")
    prof.add_argument("--train", action="store_true", help="time a training step (forward, backward, optimizer)")
    prof.add_argument(
        "--calls",
        type=int,
        metavar="N",
        help="with --script: once a region has been called N times, measure the regions so far and stop the script",
    )
    prof.add_argument(
        "--no-in-situ",
        action="store_true",
        help="with --script: no in-situ measurement (the script's own calls run in blocks, alternately compiled and eager); "
        "only the observed run and its replays",
    )
    prof.add_argument(
        "--shape-fix",
        choices=("auto", "on", "off"),
        default="auto",
        help="with --script: measure the fixes of a shape finding (mark_dynamic on the dimension that changed, "
        "dynamic=True, buckets, a warm-up at the real shape) by running the script once more per fix; auto: the "
        "first fix only, when the profile stays within 2.5x the script's own time; on: every fix",
    )
    prof.add_argument(
        "--stop-when-stdin-closes",
        action="store_true",
        help="cancel when standard input reaches EOF: the launching editor went away",
    )
    prof.add_argument(
        "--nproc-per-node",
        type=int,
        metavar="N",
        default=1,
        help="with --script: run it under torchrun (torch.distributed.run) with N processes, one report for every rank",
    )
    inspect = sub.add_parser(
        "inspect", help="read compiler logs (TORCH_TRACE) made elsewhere into a report; needs no torch"
    )
    inspect.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="a log (.log, .log.gz), a folder of them (one per rank), or a folder written by attach",
    )
    inspect.add_argument(
        "--out", metavar="DIR", help="report directory (default ./.compile-lens/runs/logs-<name>-<time>)"
    )
    attach = sub.add_parser(
        "attach", help="run as the program of your own launcher (torchrun, srun): one process per rank"
    )
    attach.add_argument(
        "--out",
        metavar="DIR",
        required=True,
        help="where every rank writes its folder (ranks/rank<k>/): shared by the nodes, or copied back",
    )
    attach.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    attach.add_argument("--calls", type=int, metavar="N", help="stop the script after a region's Nth call")
    attach.add_argument("script", metavar="SCRIPT")
    attach.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS")
    worker = sub.add_parser("_worker", help=argparse.SUPPRESS)
    worker.add_argument("spec")
    rank = sub.add_parser("_rank", help=argparse.SUPPRESS)
    rank.add_argument("spec")
    return p


def _not_for_scripts(args: argparse.Namespace) -> list[str]:
    """Options that choose how the runner compiles a target: a script's own torch.compile calls choose them."""
    given = {
        "--backend": args.backend is not None,
        "--dynamic": args.dynamic is not None,
        "--fullgraph": args.fullgraph,
        "--train": args.train,
    }
    return [flag for flag, set_ in given.items() if set_]


def _attach(args: argparse.Namespace) -> int:
    from .ranks.attach import main as attach_main
    from .worker import main as worker_main

    if args.calls is not None and args.calls < 1:
        parser().error("--calls must be >= 1")
    try:
        return attach_main(args.out, args.script, list(args.args), args.device, args.calls, worker_main)
    except RunnerError as err:
        print(f"compile_lens_runner attach: {err.message} {err.fix}", file=sys.stderr)
        return EXIT_USAGE


def _logs_name(paths: list[str]) -> str:
    return re.sub(r"\.log(\.gz)?$", "", os.path.basename(os.path.abspath(paths[0]))) or "logs"


def _target_name(args: argparse.Namespace) -> str:
    script: str | None = args.script
    target: str | None = args.target
    sample: str = args.sample  # main() names the default sample when nothing else is given
    if script:
        return os.path.splitext(os.path.basename(script))[0]
    if target:
        path, _, fn = target.rpartition(":")
        return f"{os.path.splitext(os.path.basename(path))[0]}-{fn}"
    return sample


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args: list[str] = []
    if argv[:1] == ["attach"]:  # everything after SCRIPT is the script's, "--" included
        return _attach(parser().parse_args(argv))
    if "--" in argv:
        cut = argv.index("--")
        argv, script_args = argv[:cut], argv[cut + 1 :]
    args = parser().parse_args(argv)
    if args.command == "_worker":
        from .worker import main as worker_main

        return worker_main(args.spec)
    if args.command == "_rank":
        from .ranks.entry import main as rank_main
        from .worker import main as worker_main

        return rank_main(args.spec, worker_main)
    if args.command == "inspect":
        logs_out = os.path.abspath(args.out) if args.out else default_out_dir(f"logs-{_logs_name(args.paths)}")
        refused = refusal(logs_out)
        if refused:
            parser().error(refused)
        return inspect_logs(args.paths, logs_out)
    if script_args and not args.script:
        parser().error("arguments after -- are only for --script")
    if args.rounds is not None and args.rounds < 1:
        parser().error("--rounds must be >= 1")
    if args.calls is not None and (args.calls < 1 or not args.script):
        parser().error("--calls N needs --script and N >= 1")
    if args.nproc_per_node < 1 or (args.nproc_per_node > 1 and not args.script):
        parser().error("--nproc-per-node N needs --script and N >= 1")
    inapplicable = _not_for_scripts(args) if args.script else []
    if inapplicable:
        parser().error(
            f"{', '.join(inapplicable)} {'does' if len(inapplicable) == 1 else 'do'} not apply to --script: the "
            "script's own torch.compile calls choose how each region is compiled (and its code whether it "
            f"trains); remove {'it' if len(inapplicable) == 1 else 'them'}, or use --modes for what-if modes"
        )
    if not (args.sample or args.target or args.script):
        args.sample = DEFAULT_SAMPLE
    target = (
        {"script": os.path.abspath(args.script), "args": script_args}
        if args.script
        else {"target": args.target}
        if args.target
        else {"sample": args.sample}
    )
    spec = {
        "target": target,
        "device": args.device,
        "modes": args.modes or ["default"],
        "dynamic": args.dynamic or "auto",
        "fullgraph": args.fullgraph,
        "backend": args.backend or "inductor",
        "timeout": args.timeout,
        "rounds": args.rounds,
        "quick": args.quick,
        "train": args.train,
        "cwd": os.getcwd(),
        "calls": args.calls,
        "whatIfModes": args.modes if args.script else None,
        "nprocPerNode": args.nproc_per_node,
        "inSituRuns": not args.no_in_situ,
        "shapeFixRun": args.shape_fix,
    }
    out_dir = os.path.abspath(args.out) if args.out else default_out_dir(_target_name(args))
    refused = refusal(out_dir)
    if refused:  # before anything runs: a run would replace the folder
        parser().error(refused)
    if not args.out:
        make_tool_folder(out_dir)
    from .process.supervisor import supervise  # not imported by `inspect`, which reads logs only

    return supervise(spec, out_dir, args.timeout, stop_on_stdin_eof=args.stop_when_stdin_closes)
