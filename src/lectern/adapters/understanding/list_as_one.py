"""A new list said as "one", after the message has spoken of lists.

"I need one list for each kid. Start with one called Emma's Books": the second sentence says
"one" for "a list", the word said before it. Read alone, "one called Emma's Books" named no
list and the capitalised name was taken for a book to find similar ones to. When the words
before it speak of a list, "(start with | make | create | set up) (a new | another) one
called X" is the request "create a list called X".
"""

from __future__ import annotations

import re

_LIST_BEFORE = re.compile(r"\b(?:reading\s+)?lists?\b", re.I)
_ONE_CALLED = re.compile(
    r"(?P<lead>^|[.!?;,]\s*|\b(?:and|then|so)\s+)(?:please\s+|let['’]?s\s+)?"
    r"(?:(?:start|begin|kick\s+off)\s+with|(?:make|create|set\s+up|open|start|do|add)"
    r"(?:\s+me)?|(?:can|could|would)\s+you\s+(?:make|create|set\s+up|start|do)(?:\s+me)?)?\s*"
    r"(?:a\s+|another\s+|the\s+first\s+)?(?:new\s+|second\s+)?one\s+(?=(?:called|named|titled)\s)",
    re.I,
)


def list_said_as_one(text: str) -> str | None:
    """The message with "one called X" said as "create a list called X", or None."""
    found = _ONE_CALLED.search(text)
    if found is None or not _LIST_BEFORE.search(text[: found.start("lead") + 1]):
        return None
    return f"{text[: found.end('lead')]}create a list {text[found.end() :]}"
