"""One look-up asked for two projects in turn: "all of bob's tasks - vpn first, then phishing".

A look-up said once and then the projects it is for, in the order wanted ("vpn first, then
phishing"), is that look-up in each project in turn. Read whole, it named no project and
every project was listed first. It is said for each: "all of bob's tasks in vpn, then all
of bob's tasks in phishing". Only when the look-up asks for tasks, blockers or documents
and both places name stored projects, different ones: "close the drill - hunt first, then
the runbook" names tasks, not projects, and stays as it was.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, find_in

_IN_ORDER = re.compile(
    r"^(?P<asked>[^-–—:,]+?)(?:\s+(?:pls|please|plz))?\s*(?:[-–—:,]+)\s*"
    r"(?:(?:in|on|for|from)\s+)?(?P<first>[^,]+?)\s+first\s*,?\s*(?:and\s+)?then\s+"
    r"(?:(?:in|on|for|from)\s+)?(?P<second>[^,.!?]+?)[\s.!?]*$",
    re.I,
)
_LOOK_UP = re.compile(r"\b(?:tasks|blockers|docs|documents|work|stuff|tickets)\b", re.I)


def places_in_order(text: str, names: Names) -> str:
    """`text` with a look-up asked for two projects in turn said for each of them."""
    said = _IN_ORDER.match(text.strip())
    if said is None or not _LOOK_UP.search(said.group("asked")):
        return text
    projects = names.of("project")
    first = find_in(said.group("first"), projects).name
    second = find_in(said.group("second"), projects).name
    if first is None or second is None or first == second:
        return text
    asked = said.group("asked").strip()
    return f"{asked} in {said.group('first')}, then {asked} in {said.group('second')}"
