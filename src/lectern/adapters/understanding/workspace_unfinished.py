"""A change request that stops before it says what to change: one question back.

"um so the hunt task can you make it uh", "could you set the drill to", "the runbook, change
it...": dictation cut off, or a message sent too soon. The last words are a verb that needs a
complement (what to make it, where to move it, whom to give it to), its object at most, and
perhaps the preposition the complement would follow. Nothing is guessed: the reply asks what
to change, naming the task when the message names one.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import find_in

_CUT_OFF = re.compile(
    r"\b(?:make|set|change|move|put|mark|give|turn|bump|push|switch|update|rename|"
    r"reassign|assign|hand|shift)\s+"
    r"(?:(?:it|this|that|them|this\s+one|that\s+one)|"
    r"(?:the|my|our)\s+(?:[\w-]+\s+){0,3}?(?:task|one|thing|ticket))"
    r"(?:\s+(?:to|as|into|on|onto|over\s+to|for|a|an|the))?"
    r"[\s.…-]*$|"
    # "move the drill to", "set priority to": a preposition with nothing after it
    r"\b(?:make|set|change|move|put|mark|give|turn|bump|push|switch|assign|hand|shift)\s+"
    r"(?:[\w'’-]+\s+){0,4}?(?:to|as|into|onto)[\s.…-]*$",
    re.I,
)
_WH_QUESTION = re.compile(r"^\W*(?:who|whom|what|which|where|how)\b", re.I)
"""A question strands its preposition ("who can I assign things to"): nothing is cut off."""
_TOLD_BEFORE = re.compile(
    r"\b(?:is|are|was|were|says|said|has|have|had|taking|took|done|finished|over)\b|['’]s\b",
    re.I,
)
"""A telling before the request says its value ("he says it's done, mark it", "Vera is taking
over the drill, please reassign it"): nothing is cut off."""
_OPEN_ENDED = ("status", "priority", "due date", "assignee")


def unfinished_change(text: str, tasks: list[str]) -> Clarification | None:
    """A question about what to change when `text` stops before saying it, else None."""
    cut = _CUT_OFF.search(text.strip())
    if _WH_QUESTION.match(text) or cut is None or _TOLD_BEFORE.search(text.strip()[: cut.start()]):
        return None
    task = find_in(text, tasks).name if tasks else None
    fields = ", ".join(_OPEN_ENDED[:-1]) + f" or {_OPEN_ENDED[-1]}"
    if task is None:
        return Clarification(
            f"Your message seems to stop before saying what to change. What should I change "
            f"(for example the {fields}), and on which task?",
            (),
        )
    return Clarification(
        f"Your message seems to stop before saying what to change. What should I change on "
        f"'{task}': its {fields}?",
        tuple(f"Set the {field} of {task}" for field in ("priority", "status")),
    )
