"""Questions about the task in view, one or several in a message: that task's details.

"who is this assigned to, and are there comments?" on a task's page asks two things the
task's details both answer (its assignee, its comments); read alone, "who" would pull it
towards the project's members. Every clause must be such a question about "this"/"it" (or a
bare "are there comments?"), else the message is left to the other rules.
"""

from __future__ import annotations

import re

_THIS = r"(?:this|it|this\s+(?:task|one)|the\s+task)"
_ASKED = re.compile(
    rf"^(?:and\s+|also\s+)?(?:who(?:['’]s|\s+is)\s+{_THIS}\s+(?:assigned\s+to|with|on|for)|"
    rf"who\s+(?:owns|has|is\s+on|is\s+doing|is\s+handling)\s+{_THIS}|"
    # "who's on this", "who's got it": the task's assignee, not the project's members
    rf"who(?:['’]s|\s+is)\s+(?:on|doing|handling|working\s+on|got|running)\s+{_THIS}|"
    rf"whose\s+is\s+{_THIS}|"
    rf"(?:are\s+there|is\s+there|any|does\s+{_THIS}\s+have)\s+(?:any\s+)?"
    rf"(?:comments?|notes?|updates?)(?:\s+(?:on|for|in)\s+{_THIS})?(?:\s+yet)?|"
    rf"what(?:['’]s|\s+is)\s+(?:its|the)\s+(?:status|priority|due\s+date|deadline)"
    rf"(?:\s+(?:of|on|for)\s+{_THIS})?|"
    rf"when\s+is\s+{_THIS}\s+due|is\s+{_THIS}\s+(?:overdue|late|done|assigned))$",
    re.I,
)
_CLAUSES = re.compile(r"\s*(?:[?;]\s*|,\s*(?:and\s+)?|\s+and\s+(?=(?:who|what|when|are|is|any)\b))")


def asks_of_the_task_in_view(text: str) -> bool:
    """Whether every clause of the message asks about the task in view."""
    clauses = [c for c in _CLAUSES.split(text.strip().rstrip("?.! ")) if c and c.strip()]
    return bool(clauses) and all(_ASKED.match(c.strip()) for c in clauses)
