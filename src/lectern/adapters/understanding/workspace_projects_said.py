"""Projects as a workspace request names them: in scope, unknown, or by their state.

The one a question is confined to, one no stored project is, and the state of the projects
a request lists.

"what's on my plate in the VPN project" is confined to *VPN gateway hardening*; "what's in
the Red Team project?" names none (asked, no guess); "any finished projects?" lists the
completed ones. Read by `workspace_plan` and the workspace questions.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import Names, covered, find_in, resolve

_NAMED_PROJECT = re.compile(
    r"\b(?:in|on|of|for|from|to|under|about)\s+the\s+(?P<p>[^,?.!]{2,40}?)\s+project\b", re.I
)


_IN_PROJECT = re.compile(
    r"(?=\b(?:in|on|for|under|within)\s+(?:the\s+)?(?P<p>[^,?.!]{2,40}?)"
    r"(?:\s+project\b|\s*[,?.!]|$))",
    re.I,
)
"""Every "in X" of a message, overlapping ("on my plate in the VPN project")."""


def scoped_project(text: str, names: Names) -> str | None:
    """The project a question is confined to ("in the VPN project", "in phishing awareness").

    Its words must all be the project's, so "in my queue" confines nothing.
    """
    projects = names.of("project")
    for found in _IN_PROJECT.finditer(text):
        words = found.group("p")
        project = resolve(words, projects).name
        if project is not None and covered(words, project) == 1.0:
            return project
    return None


def unknown_project(text: str, names: Names) -> Clarification | None:
    """A question when the request names a project by "the X project" that no stored one is.

    "what's in the Red Team project?": no guess at another project, nor at the team.
    """
    projects = names.of("project")
    named = _NAMED_PROJECT.search(text)
    if not projects or named is None:
        return None
    words = named.group("p").strip()
    if re.fullmatch(r"(?:this|that|same|other|whole|new)", words, re.I):
        return None
    found = resolve(words, projects)
    if found.name is not None or found.ambiguous or find_in(words, projects).name is not None:
        return None
    return Clarification(
        f"I can't find a project called {words!r}. Which project do you mean?",
        tuple(projects[:3]),
    )


_PROJECT_STATES = {
    "active": "active",
    "ongoing": "active",
    "running": "active",
    "current": "active",
    "open": "active",
    "on hold": "on_hold",
    "on-hold": "on_hold",
    "paused": "on_hold",
    "completed": "completed",
    "complete": "completed",
    "finished": "completed",
    "done": "completed",
    "closed": "completed",
    "archived": "archived",
}
_PROJECT_STATE = re.compile(
    r"\b(?P<s>active|ongoing|running|current|open|on[ -]hold|paused|completed?|finished|done|"
    r"closed|archived)\s+(?:projects|ones)\b|\bprojects\s+(?:that\s+(?:are|were)\s+|which\s+"
    r"(?:are|were)\s+|(?:are|were)\s+)?(?:still\s+|already\s+)?(?P<s2>active|ongoing|running|"
    r"on[ -]hold|paused|completed?|finished|done|closed|archived)\b",
    re.I,
)


def project_status_of(text: str) -> str | None:
    """The state of the projects a request lists ("any finished projects?"), or None."""
    found = _PROJECT_STATE.search(text)
    if found is None:
        return None
    return _PROJECT_STATES[(found.group("s") or found.group("s2")).casefold().replace("-", " ")]
