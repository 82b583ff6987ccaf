"""The task a request points at ("mark that task done") when the sentence before names it.

"Check Point gateways are all patched! mark that task done": "that task" is the one the
telling sentence names, and the request is read with its name in place of the pointer.
Only when the telling names exactly one stored task and the request names none.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import find_in
from lectern.adapters.understanding.request_sentence import Request

_POINTER = re.compile(
    r"\b(?:(?:that|this|the\s+same)\s+(?:task|one)|it)\b(?!['’]s)",
    re.I,
)
"""A task pointed at, not named: "that task", "this one", "it" (not "it's")."""
_QUOTED = re.compile(r"[\"“][^\"”]*[\"”]|(?<!\w)['‘][^'’]+['’](?!\w)")


def told_task_named(told: Request, tasks: list[str]) -> Request:
    """The request with its pointer replaced by the task the telling names; else as told."""
    unquoted = _QUOTED.sub(" ", told.request)  # a quoted comment or resolution names nothing
    if not tasks or find_in(unquoted, tasks).name is not None:
        return told
    found = find_in(told.circumstances, tasks)
    pointer = _POINTER.search(told.request)
    if found.name is None or pointer is None:
        return told
    request = f"{told.request[: pointer.start()]}{found.name}{told.request[pointer.end() :]}"
    return told._replace(request=request)
