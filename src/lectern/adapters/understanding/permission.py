"""Whether a question asks if something is allowed, forbidden or required.

"is it ok if we let users store a hint?", "the team wants to keep the token in localStorage,
is that acceptable?", "do we have to force a change every 90 days?": the answer is a rule
(a sentence with SHALL, SHOULD, MAY or MUST, or their negations) about the thing asked, in
whatever words the question wraps it. Read anywhere in the question, not only at its start.
Pure Python and standard library only.
"""

from __future__ import annotations

import re

_PERMISSION = re.compile(
    r"\b(?:is|are|was|would)\s+(?:it|that|this|these|those|we|i|they)\s+(?:\w+\s+)?"
    r"(?:ok|okay|fine|acceptable|allowed|permitted|compliant|forbidden|prohibited|banned|legal)\b"
    # At the question's end: "are password hints allowed?", not "405 Method Not Allowed".
    r"|\b(?:allowed|permitted|forbidden|prohibited|banned|acceptable)\s*\?"
    r"|\b(?:can|could|may|must|should)\s+(?:we|i|you|they|users?|one|a|an|the)\b"
    r"|\b(?:do|does|did)\s+(?:we|i|you|they|it|one)\s+(?:\w+\s+)?(?:have|need)\s+to\b"
    r"|\b(?:are|is)\s+(?:we|i|you|they)\s+(?:required|obliged|supposed)\s+to\b",
    re.I,
)


def asks_permission(question: str) -> bool:
    """Whether the question asks if something may, must or must not be done."""
    return bool(_PERMISSION.search(question))
