"""The parts of a task's details listed after the request for them: no request of their own.

"Show the full details of task X: description, assignee, comments and any blockers" lists
what the details are to hold; the task's details hold all of them, its blockers among them.
Read as two requests at "and any blockers", the message also listed every blocker in the
workspace. The listing is dropped when it follows a request for a task's details after a
colon, a dash, "including" or "with", and every item is a part of a task's details. "show
the hunt and then any blockers on vpn" lists nothing and stays.
"""

from __future__ import annotations

import re

_PART = (
    r"(?:(?:any|all|the|its|their|every|open)\s+)*(?:description|assignee|owner|status|"
    r"priority|due\s+date|deadline|comments?|notes?|blockers?|history|title|project|dates?)"
)
_LISTED = re.compile(
    r"(?P<asked>\b(?:full\s+|all\s+(?:the\s+)?|complete\s+)?details\b.*?)"
    r"\s*(?::|[-–—]+|,?\s+(?:including|incl\.?|with))\s+"
    rf"{_PART}(?:\s*,\s*{_PART})*(?:\s*,?\s+(?:and|&|\+|plus)\s+{_PART})\s*(?:\s+(?:please|pls))?\s*(?P<end>[.!?]*)\s*$",
    re.I,
)


def details_unlisted(text: str) -> str:
    """`text` without the listing of a task's details' parts after the request for them."""
    said = _LISTED.search(text)
    if said is None:
        return text
    return text[: said.start()] + said.group("asked") + said.group("end")
