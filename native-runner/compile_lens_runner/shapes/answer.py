"""The answer (schema 1.21; report.answer, a region's answer): the verdict decided once, the one number it rests on,
and its reasons as codes with their parameters; the sentences every surface shows are rendered from these
(report/sentences.py) and carried beside them."""

from __future__ import annotations

from typing import Literal, TypedDict

from .common import Verdict

# how the number was made: the script's own steps or calls in situ, its calls replayed, a target's paired rounds
NumberKind = Literal["in-situ-step", "in-situ-call", "replay-call", "target-rounds"]


# where a range too wide to say lay (schema 1.36): wholly below 1× (compiled slower in every reading), above, or across
Side = Literal["slower", "faster", "either"]


class _TooNoisy(TypedDict):
    why: Literal["range-too-wide", "too-few-pairs"]


class TooNoisy(_TooNoisy, total=False):
    """No range is said: it reached further than measure/ranges.NOISY_FACTOR either way around its estimate, or it
    rests on fewer pairs of blocks than a range needs."""

    factor: float  # range-too-wide: the range's widest side over the estimate (high / value or value / low)
    side: Side  # schema 1.36, range-too-wide: where the range lay: wholly below 1×, above it, or on either side
    # schema 1.37, range-too-wide: the range itself, for the record (--json); no surface says it (issue 44: "next run
    # 1.01–128.11×" is no range)
    low: float
    high: float


Unit = Literal["step", "call", "token"]  # token: a decode loop's step (script/shape_facts.py)

# which way a number may be said to point (schema 1.26): faster or slower only where it could support a verdict;
# too-noisy (no range said, or one wider than verdict.DECISIVE_SPAN) and host-busy (timed on a contended host) point
# nowhere: no surface gives such a number a direction word, a colour or a pay-back
Direction = Literal["faster", "slower", "too-noisy", "host-busy"]


class _AnswerNumber(TypedDict):
    kind: NumberKind
    unit: Unit
    n: int  # steady steps (in situ: the smaller side's) or paired rounds (replay, target) the value rests on
    value: float


class AnswerNumber(_AnswerNumber, total=False):
    low: float  # where a next run may land; absent with tooNoisy, and in reports made before intervals
    high: float
    tooNoisy: TooNoisy
    mode: str  # the compile mode measured ("default", "reduce-overhead", ...)
    eagerMs: float
    compiledMs: float
    pairs: int  # in situ: pairs of adjacent eager/compiled blocks
    signature: str  # a replay: the captured inputs it ran on
    index: int  # a target's modes[] or a region's measurements[] index it is
    text: str  # rendered (sentences.py): the number, how it was made, its range (or why none is said)
    direction: Direction  # schema 1.26: which way it points, where it may be said to
    directionText: str  # rendered (sentences.py): the word shown beside the number ("faster", "too noisy to say")


class _Reason(TypedDict):
    code: str


class Reason(_Reason, total=False):
    """One reason as a code and its parameters. Codes and their sentences: report/reason_text.py (SENTENCES); those in
    reason_text.LEADING lead the headline (a failure, and issue 43's shape codes). A new code adds its parameters here
    and in report.schema.json ($defs/reason)."""

    file: str | None  # the user's file and line it happened at
    line: int | None
    cell: int | None  # a notebook's cell (0-based), line within it
    call: int | None  # which call of the region (1-based as the report's calls)
    what: str  # what happened, in words (an error's message, a failure's cause, PyTorch's own words quoted)
    fix: str | None
    # failed: the error's kind (out-of-memory, timeout, user-code, compile, ...); no-in-situ: why none (attached,
    # no-set-stance, turned-off); backend-no-kernels: the backend; replay-beside: the verdict the replay alone would give;
    # shape-fix not measured: why (its fixes' whyCode)
    kind: str
    mode: str
    steps: int  # calls or steps until a compile pays back
    made: int  # calls or steps this run made; shape-fix not measured: the region's fixes in all, measured or not
    unit: Unit
    seconds: float  # the compile time paid back (shape-fix: the compile with the fix)
    warmUp: bool  # pays-back-after in situ (schema 1.26): seconds are the compiled warm-up's beyond eager steps
    coldCache: bool  # pays-back-after: the compile it pays back missed every FX graph cache lookup (later runs load it)
    value: float  # another measurement's speedup (a replay beside the in-situ number, a contended one)
    low: float
    high: float
    pairs: int
    samples: int
    torch: str | None  # the torch version (no set_stance before 2.6)
    ownMs: float  # in-situ-own-cost: Compile Lens's own work on an eager call, at most (inSitu.ownCost)
    eagerMs: float  # in-situ-own-cost: eager's time per step or call in situ; slower: the number's eagerMs
    compiledMs: float  # slower (schema 1.50): the number's compiledMs, its slowdown said from both as shown
    hostPct: float  # launch-bound-range: eager's host time over its GPU time, in % (inSitu.hostShare)
    floorPct: float  # launch-bound-range, cpu-host-range: the least half-width of its range, in %
    nearPct: float  # near-the-bar (schema 1.46): how near the bar its range's low end lies, at most, in %
    mayGive: Verdict  # near-the-bar (schema 1.48; `kind` before): the verdict a next run may give (none, or compile)
    device: str  # backend-no-kernels (schema 1.52): "cpu" where the number was timed on one (absent: a GPU's)
    cpus: int  # cpu-host-range (schema 1.36): the CPUs the timing process could run on (hostLoad.cpus), where known
    index: int  # unmeasured: the modes[] or measurements[] index it is about
    text: str  # rendered (reason_text.py): the reason's sentence
    # the shape codes (issue 43; script/shape_facts.py's facts as report/shape_reasons.py gives them)
    input: str  # the input whose dimension changed
    dim: int
    sizes: int  # distinct sizes of it
    growing: bool  # they grew call after call (lengths)
    dynamic: bool | None  # torch.compile's dynamic= as written
    graphs: int | None  # graphs made (shape-fix: with the fix)
    wasGraphs: int | None  # shape-fix: as written
    wasSeconds: float | None  # shape-fix: the compile as written
    cacheHits: int  # shape-fix: compile cache hits in the fix run (from an empty cache of its own)
    wasCacheHits: int  # shape-fix: in the script's run (a hit: its compile was from a warm cache)
    limit: int | None  # the recompile limit
    count: int  # calls (or sizes, sequences) the code counts: see the schema
    dropped: dict[str, int]  # in-situ-left-out (schema 1.30): the steps (or calls) left out, by why (inSitu.dropped)
    size: int  # warmup-other-shape: the warm-up's size
    realSize: int  # and the real calls'
    realSizes: list[int]  # schema 1.41: the real calls' sizes, where they vary
    ms: (
        float | None
    )  # shape-fix: the first real call with a warm-up fix; warmup-other-shape: that call as written; decode-loop: a sequence compiled
    wasMs: float | None  # shape-fix: that call as written; decode-loop: a sequence eager
    measured: bool  # shape-fix: measured; recompile-limit: the answer has a number
    bytes: int  # cuda-graphs-per-size: the device memory the CUDA graphs hold
    why: str  # shape-fix: why not measured


class _Answer(TypedDict):
    verdict: Verdict
    mode: str | None  # the mode to use (compile, compile-for-longer-runs); None otherwise
    number: AnswerNumber | None  # THE number the verdict rests on; None: nothing measured could support one
    reasons: list[Reason]  # why, most important first; LEADING codes first of all
    headline: str  # rendered (sentences.py): the one line
    sentence: str  # rendered: the verdict and its reasons in full


class Answer(_Answer, total=False):
    evidence: list[AnswerNumber]  # every other measurement, labelled by how it was made (kind)
    unmeasured: list[Reason]  # why each measurement without a number has none (its index)
    region: str  # a script's run answer: the region it leads with (its id)
