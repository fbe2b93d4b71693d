"""The in-situ schedule (measure/schedule.py): when switching starts, the ABBA blocks, their size from the run's own
steps, ranks switching together, and profiled windows' calls held in their block (no timing of this host)."""

from __future__ import annotations

from compile_lens_runner.measure import schedule
from compile_lens_runner.measure.schedule import ORDER, Schedule


def schedule_run(compiles: list[bool], step_s: float = 0.004, fixed: bool = False) -> list[tuple[str, int]]:
    """(side, block) of each top-level call; compiles[i]: whether call i compiled something."""
    s = Schedule(fixed=fixed)
    out = []
    for i, compiled in enumerate(compiles):
        out.append(s.next_call(i * step_s))
        s.call_ended(compiled)
    return out


def test_switching_starts_after_the_compiled_warm_up_and_runs_abba_blocks() -> None:
    compiles = [True, False, True] + [False] * 60  # a recompile at call 2 restarts the quiet count
    sides = schedule_run(compiles)
    start = next(i for i, (_, block) in enumerate(sides) if block)
    assert start == 2 + schedule.WARM_QUIET_CALLS + 1
    assert all(side == "compiled" and block == 0 for side, block in sides[:start])
    size = sum(1 for _, block in sides if block == 1)
    assert schedule.MIN_BLOCK <= size <= schedule.MAX_BLOCK
    blocks = [(side, block) for side, block in sides[start:]]
    for k in range(1, 5):  # each block one side, in the order eager, compiled, compiled, eager
        assert {side for side, block in blocks if block == k} == {ORDER[(k - 1) % 4]}


def test_the_block_size_follows_the_run_s_own_steps() -> None:
    quiet = [True] + [False] * 40
    size = lambda step_s: sum(1 for _, block in schedule_run(quiet, step_s) if block == 1)  # noqa: E731
    assert size(0.002) == 4  # about BLOCK_TARGET_MS (8 ms) of 2 ms steps
    assert size(0.0005) == schedule.MAX_BLOCK and size(0.050) == schedule.MIN_BLOCK


def test_ranks_switch_on_the_same_call_whatever_they_compiled_or_how_fast_they_ran() -> None:
    a = schedule_run([True] + [False] * 50, step_s=0.001, fixed=True)
    b = schedule_run([True, True, True, False, True] + [False] * 46, step_s=0.030, fixed=True)
    assert a == b
    assert a[schedule.RANKS_START_CALL - 1][1] == 0 and a[schedule.RANKS_START_CALL] == ("eager", 1)


def test_calls_held_for_a_profiled_window_extend_their_block_and_ranks_still_switch_together() -> None:
    """A window's calls take none of its block's places: the block keeps block_calls calls outside the window."""
    s = Schedule(fixed=True)
    sides = [s.next_call(0.0) for _ in range(schedule.RANKS_START_CALL + 1)]  # warm-up, then block 1's first call
    sides += [s.next_call(0.0, hold=True) for _ in range(5)]  # the window's steps and the call that closes it
    sides += [s.next_call(0.0) for _ in range(2 * schedule.RANKS_BLOCK)]
    block1 = [i for i, (_, block) in enumerate(sides) if block == 1]
    assert len(block1) == schedule.RANKS_BLOCK + 5 and s.held == 5
    assert {side for side, block in sides if block == 1} == {"eager"} and sides[block1[-1] + 1] == ("compiled", 2)
    assert s.to_json()["heldCalls"] == 5


def test_a_block_holds_its_calls_of_each_region_a_script_calls_in_turn() -> None:
    """A server's model and its pooling called in turn: each gets block_calls calls a block, so each has steps inside
    one block (counting top-level calls alone gave each one call a block at MIN_BLOCK, no step, on a slow host)."""
    s = Schedule()
    sides = []
    for i in range(60):
        sides.append((s.next_call(i * 0.050, region="server" if i % 2 == 0 else "pooled"), i % 2))
        s.call_ended(i == 0)
    assert s.block_calls == schedule.MIN_BLOCK  # 50 ms steps: the smallest block
    for k in range(1, 6):
        per_region = [sum(1 for (_, block), r in sides if block == k and r == region) for region in (0, 1)]
        assert per_region == [schedule.MIN_BLOCK, schedule.MIN_BLOCK]
        assert {side for (side, block), _ in sides if block == k} == {ORDER[(k - 1) % 4]}
