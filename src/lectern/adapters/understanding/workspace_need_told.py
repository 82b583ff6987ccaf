"""A new task "for that", after a sentence saying what needs doing: that is its title.

"Somebody needs to brief the execs on the phishing results. Put a task on the phishing
project for that": the task is the briefing, said in the sentence before; "for that" is no
title ('That'). A telling sentence is otherwise never a task (`told_first`): only one that
says something needs doing ("X needs to", "someone has to", "we should") lends its verb
phrase, and only to a request for one new task that points back at it.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.request_sentence import Request

_NEED = re.compile(
    r"(?:^|[.!?]\s+)(?:somebody|someone|anyone|we|i|you|they|the\s+team|\w+)\s+(?:really\s+)?"
    r"(?:needs?\s+to|has\s+to|have\s+to|ought\s+to|should|must|will\s+have\s+to)\s+"
    r"(?P<doing>[a-z][^.!?\"“'‘]*?)\s*[.!]*\s*$",
    re.I,
)
"""The last sentence told says what needs doing ("Somebody needs to brief the execs")."""
_FOR_THAT = re.compile(
    r"^(?P<ask>.*?\b(?:a|one|new)\s+(?:new\s+)?(?:task|to-?do|ticket)\b.*?)\s+"
    r"for\s+(?:that|this|it)\b(?P<rest>.*)$",
    re.I | re.S,
)
"""A request for one new task that points back at what was told ("... a task ... for that")."""


def need_told_as_title(told: Request) -> Request:
    """The request with the need told before it as the new task's quoted title."""
    need = _NEED.search(told.circumstances.strip())
    asked = _FOR_THAT.match(told.request.strip())
    if need is None or asked is None or re.search(r"[\"“'‘]|\bcalled\b", told.request):
        return told  # no need said, no task asked for it, or the title is said already
    doing = need.group("doing")
    title = doing[0].upper() + doing[1:]
    return told._replace(request=f"{asked.group('ask')} called '{title}'{asked.group('rest')}")
