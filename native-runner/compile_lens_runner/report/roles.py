"""A measured number's role in words, the one place every surface reads them (schema 1.40): the number a region's
answer rests on is its speedup; any other is evidence beside it (review H4: a replay row "speedup 0.90× per call
replayed" under a headline's "1.03× per step in situ"). Each replay with a number carries its own (`roleText`, the
CLI's line and the panel's cell say it), its region the title over them all (`rolesText`, the panel's column); the
in-situ per-call line says the evidence's words too (in_situ_text.CALLS_ALONE)."""

from __future__ import annotations

from collections.abc import Iterable

ANSWER = "speedup"
EVIDENCE = "evidence, not the answer"


def role_text(is_answer: bool) -> str:
    return ANSWER if is_answer else EVIDENCE


def roles_title(roles: Iterable[str]) -> str | None:
    """The title over numbers of these roles: their role where they share one, else one that assumes neither (nor
    what each measured: a mixed table's evidence need not be a replay); None: no number."""
    said = list(dict.fromkeys(roles))
    if not said:
        return None
    return said[0] if len(said) == 1 else f"{ANSWER} or evidence"
