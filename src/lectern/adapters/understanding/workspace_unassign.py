"""An assignment asked away, or a refusal of that: "unassign it", "nobody should own X".

"nobody should own the netscaler review for now - unassign it" is assign_task with no assignee
(the tool's null); "don't unassign the drill" changes nothing; "don't leave the drill
unassigned" refuses no owner: it asks for one.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.workspace_refused import REFUSAL

_UNASSIGNS = re.compile(
    r"\b(?:un-?|de-?)assign\b|\b(?:leave|keep)\s+(?:it|this|that|the\s+\w+(?:\s+\w+)?)\s+"
    r"(?:unassigned|unowned|with\s+no\s+(?:owner|assignee))\b|\b(?:nobody|no\s+one|no-one)\s+"
    r"(?:should|must|is\s+to|needs\s+to)\s+(?:own|have|be\s+on)\b|\b(?:remove|clear|drop)\s+"
    r"(?:the\s+)?(?:assignee|owner)\b",
    re.I,
)
"""An assignment asked away: the task's owner removed, no one named in their place."""
_REFUSED_BEFORE = re.compile(rf"(?:^|[,;.!?–—]\s*|\s)(?:{REFUSAL}|never)\s+(?:\w+\s+)?$", re.I)
"""A refusal right before a change ("don't", "please do not", "no need to", "never")."""


def unassign_said(text: str) -> str | None:
    """Whether the owner is asked away ("asked"), that is refused ("refused"), or neither.

    "don't unassign the drill", "no need to remove the owner": a refused change changes
    nothing. "don't leave the drill unassigned" refuses no owner: it asks for one (None).
    """
    found = _UNASSIGNS.search(text)
    if found is None:
        return None
    if not _REFUSED_BEFORE.search(text[: found.start()]):
        return "asked"
    return None if re.match(r"(?:leave|keep)\b", found.group(0), re.I) else "refused"
