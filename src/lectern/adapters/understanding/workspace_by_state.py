"""A project's tasks asked for by their state: "anything finished yet in the vpn project?".

The state is said as the question's subject ("anything done", "what's still in progress")
or as "the done ones"; the project follows "in". A second sentence that asks the same in
other words ("... ? show me the done ones") is the same look-up, its project the first's.
A state said for no project is left to the other readings (the summary spans them all).
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import covered, resolve

_STATE = (
    r"(?P<s>done|finished|completed?|closed|in\s+progress|under\s+way|started|to\s*-?\s*do|"
    r"not\s+started|in\s+review)"
)
_ASKED = re.compile(
    r"^(?:(?:so|and|ok(?:ay)?)\s+)?(?:(?:is|are)\s+(?:there\s+)?)?(?:anything|any(?:\s+tasks?)?|"
    r"what(?:['’]s|\s+is|\s+are)?|which(?:\s+tasks?|\s+ones?)?|show\s+(?:me\s+)?(?:the\s+)?|"
    r"list\s+(?:the\s+)?|(?:can\s+you\s+|could\s+you\s+)?(?:show|list|give)\s+(?:me\s+)?"
    r"(?:the\s+)?)\s*"
    # "show me everything sitting in review on ...": what is in that state, said whole
    r"(?:(?:everything|all\s+(?:the\s+)?(?:tasks|stuff|work)|whatever)\s+)?"
    r"(?:that['’]s\s+|that\s+is\s+|is\s+|are\s+)?(?:already\s+|still\s+|been\s+)?"
    r"(?:(?:currently\s+)?(?:sitting|stuck|parked|sat|lying|waiting)\s+)?"
    rf"{_STATE}(?:\s+(?:ones|tasks|items|yet|so\s+far|already))*"
    r"(?:\s+(?:in|for|on|within|under)\s+(?:the\s+)?(?P<p>[^?.!,]+?))?\s*[?.!]*$",
    re.I,
)
_STATUS = {
    "done": "done",
    "finished": "done",
    "complete": "done",
    "completed": "done",
    "closed": "done",
    "in progress": "in_progress",
    "under way": "in_progress",
    "started": "in_progress",
    "todo": "todo",
    "to do": "todo",
    "to-do": "todo",
    "not started": "todo",
    "in review": "in_review",
}


def _project_named(words: str, projects: list[str]) -> str | None:
    """The stored project every one of the words belongs to ("vpn"), or None."""
    found = resolve(words, projects).name
    return found if found is not None and covered(words, found) == 1.0 else None


def tasks_by_state(text: str, projects: list[str]) -> tuple[str, str] | None:
    """(project, status) of a project's tasks asked for by state, or None."""
    sentences = [s for s in re.split(r"(?<=[?.!])\s+", text.strip()) if s]
    if not 1 <= len(sentences) <= 2:
        return None
    asked: list[tuple[str | None, str]] = []
    for sentence in sentences:
        found = _ASKED.match(sentence)
        if found is None:
            return None
        state = re.sub(r"\s*-\s*", "-", re.sub(r"\s+", " ", found.group("s").casefold()))
        words = found.group("p")
        said = re.sub(r"\s+project$", "", words, flags=re.I) if words else ""
        project = _project_named(said, projects) if said else None
        if words and project is None:
            return None  # "in my queue", "in the logs": no project of the reader's
        status = _STATUS.get(state)
        if status is None:
            return None
        asked.append((project, status))
    places = {p for p, _ in asked if p is not None}
    states = {s for _, s in asked}
    if len(places) != 1 or len(states) != 1:
        return None
    return places.pop(), states.pop()


_STATE_OF = re.compile(
    r"\b(?:what(?:['’]s|\s+is)|how(?:['’]s|\s+is)|give\s+me|tell\s+me|show\s+me|"
    r"where\s+(?:are|is)\s+we\s+(?:on|with))\s+(?:the\s+)?(?:current\s+|overall\s+|latest\s+)?"
    r"(?:state|status|progress|health|overview|rundown|picture)\s+(?:of|on|for|with|in)\s+"
    r"(?:the\s+|our\s+)?(?P<p>[^,?.!;]+?)(?:\s+project)\s*(?:[,?.!;]|$)",
    re.I,
)
"""A project's state asked for ("what's the state of the VPN gateway project, ...")."""


def project_state_asked(text: str, projects: list[str]) -> str | None:
    """The stored project whose state a message asks for, named with "project", or None.

    Its details answer the counts and the late tasks asked beside it ("how many done,
    anything overdue?"), which the summary across every project would not.
    """
    found = _STATE_OF.search(text)
    return _project_named(found.group("p"), projects) if found else None


_PROJECTS_COUNTED = re.compile(
    r"^(?:(?:so|and|ok(?:ay)?|hey)\W+)*(?:how\s+many\s+(?:of\s+(?:the\s+|my\s+|our\s+))?"
    r"(?:\w+\s+)?projects\b|(?:what(?:['’]s|\s+is)\s+)?the\s+(?:number|count)\s+of\s+projects\b|"
    r"(?:what(?:['’]s|\s+is)\s+)?(?:the\s+|our\s+|my\s+)?project\s+count\b)",
    re.I,
)
"""The projects counted ("how many projects are there, and do any have open blockers?")."""


def projects_counted(text: str) -> bool:
    """Whether a message asks how many projects there are.

    The projects' listing answers it, with each one's task counts and open blockers, so
    "do any have open blockers?" beside it is answered there too.
    """
    return _PROJECTS_COUNTED.match(text.strip()) is not None
