"""What a compile made, read from its last attempt. Dynamo restarts a compile's analysis at a graph break found
mid-trace, and when AOT autograd cannot keep a float symbolic: then the attempt it gave up has logged a graph (the float
one of its inputs) that was never compiled or run. What that attempt made is left out; what happened during it (the
compile started, a graph break was found, its phases took time, its cache lookups) did happen, and stays."""

from __future__ import annotations

from .torch_trace import Record

# what an attempt makes, as logged: its graph, the code, guards and kernel provenance compiled from it
_MADE_KINDS = frozenset({"dynamo_output_graph", "inductor_output_code", "dynamo_cpp_guards_str", "dynamo_guards"})
_MADE_ARTIFACTS = frozenset(
    {
        "inductor_post_grad_graph",
        "inductor_provenance_tracking_node_mappings",
        "inductor_provenance_tracking_kernel_stack_traces",
    }
)


def completed(records: list[Record]) -> list[Record]:
    """`records` less what an attempt Dynamo restarted made. A compile's attempts rise while it runs: a lower one after
    them is its id compiled again (a log of several runs), its earlier compile finished."""
    if not any(r.attempt for r in records):
        return records
    attempts: dict[str | None, int] = {}  # each compile's attempt so far
    made: dict[str | None, list[int]] = {}  # where in `records` is what that attempt made
    restarted: set[int] = set()
    for at, r in enumerate(records):
        last = attempts.get(r.compile_id, 0)
        if r.attempt != last:
            earlier = made.pop(r.compile_id, [])
            if r.attempt > last:
                restarted.update(earlier)
            attempts[r.compile_id] = r.attempt
        if r.kind in _MADE_KINDS or r.artifact in _MADE_ARTIFACTS:
            made.setdefault(r.compile_id, []).append(at)
    return [r for at, r in enumerate(records) if at not in restarted]
