"""Where a failed guard's value is in the user's code (report/guard_text.py, schema 1.36), said beside PyTorch's guard,
on recorded reports and constructed frames (review 8 A13: the guard's own comment, a line of PyTorch's linear.py, was
the hover's only "where")."""

from __future__ import annotations

import json
from pathlib import Path

from compile_lens_runner.report import guard_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GUARD = "TENSOR_MATCH: check_tensor(L['x'], Tensor, size=[8, 64])  # return F.linear(x)  # nn/modules/linear.py:134 in forward"


def _frame(code: str, function: str = "forward", line: int = 10) -> dict:  # type: ignore[type-arg]
    location = {"file": "/p/fused.py", "line": line, "function": function, "code": code}
    return {"compileId": "0/0", "function": function, "location": location, "seconds": 1.0}


def test_a_recorded_failed_guard_says_the_users_argument_its_comment_names_pytorchs_line() -> None:
    report = json.loads((FIXTURES / "reports" / "fused-cpu" / "report.json").read_text())
    (failed,) = report["modes"][0]["compiler"]["compiles"][1]["failedGuards"]
    assert failed["guard"].endswith("# nn/modules/linear.py:134 in forward")  # PyTorch's quotation, kept as it is
    assert failed["sourceText"] == "In your code, L['x'] is x, forward's argument (fused.py:10)"


def test_the_guarded_value_by_what_the_frames_line_says_of_it() -> None:
    said = guard_text.source_text
    assert said(GUARD, _frame("def forward(self, x: Dict[str, int], *rest):")) == (  # type: ignore[arg-type]
        "In your code, L['x'] is x, forward's argument (fused.py:10)"
    )
    assert said(GUARD, _frame("def forward(self, y):")) == (  # type: ignore[arg-type]
        "In your code, L['x'] is x, forward's local variable (fused.py:10)"
    )
    calls = "ID_MATCH: L['self'].calls == 3  # if self.calls:  # m.py:28 in forward"
    assert said(calls, _frame("def forward(self, x):")) == (  # type: ignore[arg-type]
        "In your code, L['self'].calls is self.calls, of forward's argument self (fused.py:10)"
    )
    # a decorated function's code starts at its decorator, a resumed part at its break: its line names no argument
    assert said(GUARD, _frame("@torch.compile(backend='eager')", "step")) == (  # type: ignore[arg-type]
        "In your code, L['x'] is x in step (fused.py:10)"
    )
    resumed = _frame("if h.mean().item() > 0:", "torch_dynamo_resume_in_forward_at_24", 24)
    assert said(GUARD, resumed) == "In your code, L['x'] is x in forward after line 24 (fused.py:24)"  # type: ignore[arg-type]
    # not the user's frame, or no local named: nothing said
    library = {"compileId": "0/0", "function": "inner", "location": None, "seconds": 1.0}
    assert said(GUARD, library) is None  # type: ignore[arg-type]
    assert said("GLOBAL_STATE: grad_mode", _frame("def f(x):")) is None  # type: ignore[arg-type]
    assert said(GUARD, None) is None
