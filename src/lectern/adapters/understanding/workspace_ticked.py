"""Tasks ticked off in a message: each one marked done.

"✅ netscaler review ✅ runbook - both done": a tick before (or after) each task's name is a
checklist of what is finished. The phone-emoji reading turns a tick that opens a message
into "add" and drops the rest, so the first task was completed (the check mark read as
done) and the others lost. Read before that reading, a message made only of two or more
ticked task names (and, at most, "both done", "all done", "done") asks each done. Any other
word, or a name that is not wholly a stored task's, leaves the message as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.mentions import covered, resolve

_TICK = re.compile(r"\s*(?:✅|✔️?|☑️?|✓|\[x\])\s*", re.I)
_DONE_TAIL = re.compile(
    r"\s*(?:[-–—:,]\s*)?(?:(?:both|all|all\s+of\s+them|these|they(?:['’]re|\s+are))\s+)?"
    r"(?:(?:are\s+)?(?:done|finished|complete[d]?|closed|shipped))?[\s.!✅✔☑️]*$",
    re.I,
)


def ticked_done(text: str, tasks: Sequence[str]) -> str | None:
    """'mark A, B and C as done' for a message of ticked task names, or None."""
    if len(_TICK.findall(text)) < 2 or text.rstrip().endswith("?"):
        return None  # "✅ A ✅ B - both done?": asked whether, not told
    tail = _DONE_TAIL.search(text)
    body = text[: tail.start()] if tail else text
    pieces = [p.strip(" ,;.") for p in _TICK.split(body)]
    named = [p for p in pieces if p]
    if len(named) < 2:
        return None
    named = [re.sub(r"^(?:the|our)\s+", "", piece, flags=re.I) for piece in named]
    if any(re.search(r"[^\w\s'’&/.-]", piece) for piece in named):
        return None  # "✅ hunt ✅ runbook ⏳": a mark of its own on one of them (still waiting)
    for words in named:
        task = resolve(words, tasks).name
        if task is None or covered(words, task) < 1.0:
            return None
    listed = ", ".join(f"the {p}" for p in named[:-1]) + f" and the {named[-1]}"
    return f"mark {listed} as done"
