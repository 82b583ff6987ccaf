"""A project's state asked in people's words: its details (or every project's list).

People ask where a project stands without the words the look-up patterns read: "what's
left on phishing awareness?", "what's left?" on the project's page, "sitrep on the vpn
gateway project pls — # tasks open, # overdue, open blockers", "Kindly revert with the
current status of Phishing awareness project.", "how's this one looking" on its page, "need
a status across all projects for the weekly sync". The rules had read these as a listing of
tasks, the blockers alone (the counts' "open blockers"), a change ("revert"), or nothing.
A project's details hold its tasks counted by state, what is overdue and its open blockers,
so every part such a question lists is in them; a status across every project is the list
of projects. These are look-ups (they change nothing), so the near reading is cheap; the
caller still checks the words name a stored project and not a task.
"""

from __future__ import annotations

import re

_COURTESY = r"(?:\s*,?\s*(?:pls|plz|please|thanks|thx|ty|thank\s+you))?"
_END = _COURTESY + r"[\s?.!]*$"

_THIS = r"(?:this|that|the|our|my)\s+(?:one|project)|this|it"

_LEFT = re.compile(
    r"^(?:(?:ok|okay|so|and|right)\W+)?what(?:['’]?s|\s+is)\s+(?:still\s+)?(?:left|remaining|"
    # "what's left to do on X" asks for the tasks still to do, and is read as before
    r"outstanding|open)(?!\s+to\s+do\b)(?:\s+(?:on|in|for|with)\s+(?P<p>[^,?.!;:]+?))?" + _END,
    re.I,
)
"""'What's left (on X)?': what the project still holds ("left to do" is its tasks)."""

_STATUS_NOUN = (
    r"(?:(?:current|latest|overall|present|up-to-date|quick|short|brief)\s+)*"
    r"(?:status(?:\s+(?:update|report))?|state|progress|sitrep|sit-rep|update|standing)"
)
_REVERT = re.compile(
    r"^(?:(?:kindly|please|pls|could\s+you|can\s+you|would\s+you)\s+)*"
    r"(?:revert|reply|respond|come\s+back|get\s+back(?:\s+to\s+me)?|share|send\s+(?:me|us)|"
    r"provide|furnish|advise)\s+(?:\w+\s+)?(?:with\s+)?(?:the\s+|a\s+|an\s+)?"
    + _STATUS_NOUN
    + r"\s+(?:of|on|for)\s+(?:the\s+)?(?P<p>[^,?.!;:]+?)(?:\s+project)?"
    + _END,
    re.I,
)
"""'Kindly revert with the current status of X project': a status asked as an office
request (in Indian and British office English "revert" is "reply")."""

_SITREP = re.compile(
    r"^(?:(?:a|the|quick|need\s+a|can\s+i\s+(?:get|have)\s+a)\s+)*"
    + _STATUS_NOUN
    + r"\s+(?:on|of|for)\s+(?:the\s+)?(?P<p>[^,?.!;:—–-]+?)\s+project"
    + _COURTESY
    + r"(?:\s*(?:[—–:-]|,)\s*(?P<parts>[^?]*))?[\s?.!]*$",
    re.I,
)
"""'sitrep on the vpn gateway project pls — # tasks open, # overdue, open blockers': the
project said as one (its word "project"), the parts after it all in its details."""

_PARTS = re.compile(
    r"^(?:(?:#|(?:number\s+of|how\s+many|count\s+of|the|and|plus|any|open|overdue|done|"
    r"tasks?|blockers?|late|in\s+progress|to\s+do|todo|closed|incl|including|with)\b)\W*)+$",
    re.I,
)

_LOOKING = re.compile(
    r"^(?:(?:ok|okay|so|and)\W+)?how(?:['’]?s|\s+is|\s+are)\s+(?:things\s+(?:on|with|in)\s+)?"
    r"(?P<p>" + _THIS + r")\s+(?:looking|going|doing|coming\s+along|shaping\s+up|progressing)"
    r"(?:\s+(?:so\s+far|now|today))?" + _END,
    re.I,
)
"""'how's this one looking' on a project's page: that project's state."""

_WHERE = re.compile(
    r"^(?:(?:ok|okay|so|and|hey)\W+)?(?:where\s+(?:are|r)\s+(?:we|things)(?:\s+at)?|"
    r"where\s+do\s+(?:we|things)\s+stand|how\s+are\s+we\s+doing)\s+(?:on|with|in)\s+"
    r"(?:the\s+)?(?P<p>[^?.!;:]+?)(?:\s+projects?)?" + _END + "|"
    r"^how\s+far\s+along\s+(?:is|are)\s+(?:the\s+)?(?P<q>[^?.!;:]+?)(?:\s+projects?)?" + _END,
    re.I,
)
"""'where are we on VPN and on phishing?': each project's state."""

_EACH = re.compile(r"\s*(?:,|\band\b|&)\s*(?:(?:on|with|in)\s+)?(?:the\s+)?", re.I)
"""Between two projects asked about at once ("VPN and on phishing")."""

_ALL = re.compile(
    r"\b(?:status|state|progress|overview|sitrep|update|rundown|summary)\s+"
    r"(?:across|of|on|for|over)\s+(?:all|every|each)\s+(?:(?:the|my|our)\s+)?projects?\b",
    re.I,
)
"""'a status across all projects': the projects listed, each with its counts."""


def project_status_asked(text: str) -> str | None:
    """The project (as said; "" or "this" for the one in view) whose state is asked, or None."""
    said = text.strip()
    for pattern in (_LEFT, _REVERT, _LOOKING):
        found = pattern.match(said)
        if found:
            return (found.group("p") or "").strip()
    found = _WHERE.match(said)
    if found:
        return (found.group("p") or found.group("q") or "").strip()
    found = _SITREP.match(said)
    if found and (not found.group("parts") or _PARTS.match(found.group("parts").strip())):
        return found.group("p").strip()
    return None


def each_said(said: str) -> list[str]:
    """The projects said together ("VPN and on phishing"), each as said."""
    return [p.strip() for p in _EACH.split(said) if p.strip()]


def every_project_status_asked(text: str) -> bool:
    """Whether a state across every project is asked ("status across all projects")."""
    return _ALL.search(text) is not None and not re.search(
        r"\b(?:blocker|task)s?\s+(?:on|in|for)\s+(?:the\s+)?\w+\s+project\b", text, re.I
    )


def is_this(said: str) -> bool:
    """Whether the project said is the one in view ("", "this one", "it")."""
    return not said or re.fullmatch(_THIS, said.strip(), re.I) is not None
