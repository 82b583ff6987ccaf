"""A new task's title after a dash: "new task in vpn - brief the CISO on patch status".

"new task in vpn - brief the CISO ..., high prio, due friday" names the project, then the
title after a dash, as a colon would ("add task in vpn: brief the CISO ..."). Read as it
was, the project ran on into the title ("in vpn - brief the CISO ..."). The dash is read as
the colon only right after "new task in/on/for <project>" where the project's words name a
stored project; "new task - the vpn one is done" stays as it was.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, find_in

_DASHED = re.compile(
    r"^(?:(?:pls|please)\s+)?(?:a\s+)?(?:new|add|create|open|make)\s+(?:a\s+)?(?:new\s+)?task\s+"
    r"(?P<where>(?:in|on|for|under)\s+(?:the\s+)?[^-–—:,]{2,40}?)\s+[-–—]+\s+(?P<rest>\S.*)$",
    re.I | re.S,
)


def dash_title(text: str, names: Names) -> str:
    """`text` with a new task's dash before its title read as the colon it stands for."""
    said = _DASHED.match(text.strip())
    if said is None or find_in(said.group("where"), names.of("project")).name is None:
        return text
    return f"add task {said.group('where')}: {said.group('rest')}"
