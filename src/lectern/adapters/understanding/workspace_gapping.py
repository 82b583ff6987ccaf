"""Whether a later part may borrow the earlier part's verb, and a part that only moves on.

"give the netscaler review to bob and the runbook to bob too" says its verb once for two
objects (gapping). "close the drill and move to the vpn project" does not: the later part has
a verb of its own ("move to ...") and names only a project, and borrowing "close" for it
closed the VPN task (a wrong action). A part may take the earlier verb only when it starts
with what an object starts with (a determiner, a possessive, a quoted title, or a word of a
stored task's name that is not a verb before its own object) and names no project alone.
A part that says where the speaker goes next ("move on to the hunt", "then I'll look at the
runbook") is no request at all: the earlier part is the request. A verb said once for two
people ("put alice on the patch and bob on the hunt") is two changes with that verb.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.mentions import Names, resolve

_OBJECT_START = re.compile(
    r"^(?:the|that|this|these|those|my|our|your|his|her|their|its|both|either|"
    r"[\"“'‘])(?:\s|$|(?<=[\"“'‘]))",
    re.I,
)
"""How an object starts ("the runbook", "that one", "'Write the runbook'")."""

_VERB_BEFORE_OBJECT = re.compile(
    r"^\S+\s+(?:on|over|back|up|off|out|into|onto|with|at|the|a|an|it|this|that|"
    r"my|our|his|her|their)\b",
    re.I,
)
"""A first word followed by a particle or an object of its own: a verb ("patch the ...")."""

_PROJECT_WORD = re.compile(r"\bproj(?:ect)?s?\b", re.I)

MOVING_ON = re.compile(
    r"^(?:(?:and|then|so|now)\s+)*(?:(?:i|we)(?:['’]ll|\s+will|\s+can|\s+am\s+going\s+to|"
    r"['’]m\s+going\s+to|['’]re\s+going\s+to)\s+|let['’]?s\s+|time\s+to\s+)?"
    r"(?:move|go|head|switch|turn|jump|get|skip|carry|press|come|proceed|circle|pivot|"
    r"look|focus)(?:\s+(?:on|over|back|across|ahead|straight))?\s+"
    r"(?:(?:on\s+)?to|onto|into|with|at)\b",
    re.I,
)
"""A part telling where the speaker goes next ("move on to the hunt", "go to the vpn
project", "then I'll look at the runbook"): not a change to make."""


def may_share_verb(part: str, names: Names) -> bool:
    """Whether `part` reads as one more object of the earlier part's verb."""
    part = re.sub(r"^(?:also|and|then|plus)\s+", "", part.strip(" ,;."), flags=re.I)
    if not part or MOVING_ON.match(part) or _PROJECT_WORD.search(part):
        return False
    if not _OBJECT_START.match(part):
        first = part.split()[0].casefold()
        task_words = {w.casefold() for name in names.of("task") for w in name.split()}
        if first not in task_words or _VERB_BEFORE_OBJECT.match(part):
            return False
    projects, tasks = names.of("project"), names.of("task")
    # "close the drill and the vpn one": a project's words and no task's
    return not (projects and resolve(part, projects).name and not resolve(part, tasks).name)


_PERSON_FIRST = (
    r"^(?P<lead>(?:(?:please|pls|can\s+you|could\s+you)\s+)*(?P<verb>[a-z]+)\s+)"
    r"(?P<first>{people})\s+(?P<rest>\S.*?)\s*,?\s+(?:and|&|\+)\s+(?P<second>{people})\s+"
    r"(?P<more>(?:(?:on|onto|to|with|for|the|that|this|a|an)\b|[\"“'‘]).*?)[\s,]*"
    r"(?:too|as\s+well)?\W*$"
)


def gapped_people(text: str, people: Sequence[str]) -> list[str]:
    """The two changes of a verb said once for two people ("put alice on X and bob on Y").

    The later part starts with a stored member's name (or "me") and goes on as the first part did
    after its person (a preposition or an object): the verb is the first part's. [] when
    the message is not so shaped, or names one person twice.
    """
    if not people:
        return []
    # "put bob on the runbook and me on the drill": the writer is one of the two
    names = "|".join([*(re.escape(p) for p in sorted(people, key=len, reverse=True)), "me"])
    said = re.match(_PERSON_FIRST.format(people=rf"(?:{names})\b"), text.strip(), re.I)
    if said is None or said.group("first").casefold() == said.group("second").casefold():
        return []
    verb = said.group("verb")
    return [
        f"{verb} {said.group('first')} {said.group('rest')}",
        f"{verb} {said.group('second')} {said.group('more')}",
    ]
