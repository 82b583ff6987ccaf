"""Workspace requests that leave out what they act on, and a task's description set.

A verb said without its object ("search"), a blocker asked for with no reason ("add a
blocker to the patch task"), "these" or "this document" with nothing in view to point at:
each gets one question, never a guess (a task titled "The patch task" is a wrong action).
A description added to, set on or changed for a task is that task's change, never a new
task whose title is the description ("add a description to the runbook: cover X").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import Names, covered, resolve

_POINTING = re.compile(
    r"(?:this|that|it|these|those|the)(?:\s+(?:one|document|doc|record|advisory|page|report|"
    r"file|entry))?|(?:document|doc|record|advisory|page|report|file|entry)",
    re.I,
)
"""A document pointed at by "this"/"that" and no word of its own."""


def pointed_at_nothing(words: str) -> bool:
    """Whether a document's mention only points ("this document", "that record", "it")."""
    return _POINTING.fullmatch(words.strip(" ?!.,")) is not None


_BARE_VERB = re.compile(
    r"^(?:please\s+)?(?:search|find|look\s+(?:up|for)|search\s+for|look\s+something\s+up)"
    r"(?:\s+(?:please|for\s+me|the\s+workspace|everything|everywhere|it))?\W*$",
    re.I,
)
"""A search with nothing to search for."""

_BLOCKER_WITHOUT_REASON = re.compile(
    r"^(?:please\s+)?(?:add|create|record|log|raise|flag|put|set|file|open|register|make)\s+"
    r"(?:a\s+|an\s+)?(?:new\s+)?blocker\s+(?:to|on|for|against)\s+"
    r"(?P<t>(?:(?!\s[-–—]\s|\s+(?:and|then|that|saying)\b)[^:(,;–—])+?)\W*$",
    re.I,
)
"""A blocker asked for on a task, and nothing said of what blocks it."""

_NOTHING_SHOWN = re.compile(
    r"^(?:please\s+)?(?:add|put|move|copy|attach|link|file)\s+(?:these|those|them|all\s+of\s+"
    r"(?:these|those|them)|these\s+ones|those\s+ones|all\s+these|all\s+those)\s+"
    r"(?:to|in|into|under|on)\s+(?P<where>.+?)\W*$",
    re.I,
)
"""Several things pointed at ("add these to ...") that only an earlier reply could show."""


def _only_named(words: str, names: Names) -> bool:
    """Whether the words are a stored task's or project's name and nothing more."""
    said = re.sub(
        r"^(?:the|my|our|this|that)\s+|\s+(?:task|project)$", "", words.strip(), flags=re.I
    )
    for kind in ("task", "project"):
        found = resolve(said, names.of(kind)).name
        if found is not None and covered(said, found) == 1.0:
            return True
    return False


def unsaid_question(text: str, names: Names, *, shown_before: bool) -> Clarification | None:
    """One question when the request's verb lacks its object, or None.

    `shown_before`: whether an earlier reply showed anything "these" could point at. A
    blocker's reason run on after the name ("... the drill venue not booked") is said.
    """
    if _BARE_VERB.match(text):
        return Clarification(
            "What should I search for? Give me a few words, a name or an id.",
            ("Search for session tokens", "Search for phishing"),
        )
    blocked = _BLOCKER_WITHOUT_REASON.match(text)
    if blocked and _only_named(blocked.group("t"), names):
        return Clarification(f"What is blocking {blocked.group('t')}? I'll record it.", ())
    pointed = _NOTHING_SHOWN.match(text)
    if pointed and not shown_before:
        return Clarification(
            f"Which ones should go in {pointed.group('where')}? Nothing is shown yet: name them.",
            (),
        )
    return None


_DESCRIPTION = r"(?:(?:task\s+)?description|summary\s+description)"
_SAID = r"\s*(?::|[-–—]|\bto\s+say\b|\bto\s+read\b|\bsaying\b|\bthat\s+says\b|\bto\b|\bas\b)\s*"
_DESCRIBED = re.compile(
    # "add a description to the runbook task: cover X", "set the description of the hunt to X"
    rf"^(?:add|set|put|write|change|update|edit|replace)\s+(?:a|an|the|its|some)?\s*"
    rf"(?:new\s+|short\s+)?{_DESCRIPTION}\s+(?:to|on|for|of)\s+(?P<t>[^:–—]+?)"
    rf"(?:{_SAID}(?P<d>\S.*))?$|"
    # "give the drill a description: pick a date first"
    rf"^(?:give|add)\s+(?P<t2>.+?)\s+(?:a|some)\s+(?:new\s+|short\s+)?{_DESCRIPTION}"
    rf"(?:\s*(?::|[-–—]|\bsaying\b|\bof\b)\s*(?P<d2>\S.*))?$|"
    # "change the hunt's description to X"
    rf"^(?:set|change|update|edit|replace)\s+(?P<t3>.+?)['’]s\s+{_DESCRIPTION}"
    rf"(?:{_SAID}(?P<d3>\S.*))?$|"
    # "the description of the runbook should be: X"
    # "I think the description of the hunt should also say to check the Citrix logs"
    rf"^(?:i\s+think\s+|i\s+guess\s+|maybe\s+|so\s+)?(?:the\s+)?{_DESCRIPTION}\s+(?:of|for|on)\s+"
    r"(?P<t4>.+?)\s+(?:(?:should|needs\s+to|has\s+to|must)\s+(?:also\s+)?(?:(?:be|say|read)|"
    # "... should mention the Citrix logs": the words it should hold besides, never the verb
    r"(?P<adds>mention|include|cover|note))|is\s+now|will\s+be)(?:\s+that\b)?\s*:?\s*"
    r"(?P<d4>\S.*)$",
    re.I | re.S,
)


@dataclass(frozen=True, slots=True)
class Described:
    """A task's description said: the task's words and the description (None: unsaid)."""

    task: str
    description: str | None
    added: bool = False
    """Whether the words are to be added to what it says ("should mention X")."""


def described(text: str) -> Described | None:
    """The task and new description a message sets, or None when it sets none."""
    found = _DESCRIBED.match(text.strip())
    if found is None:
        return None
    task = found.group("t") or found.group("t2") or found.group("t3") or found.group("t4")
    said = found.group("d") or found.group("d2") or found.group("d3") or found.group("d4")
    said = said.strip(" \"“”'‘’") if said else None
    if said and found.group("d4"):
        # "... should say to check the logs": what it should say, as an instruction
        said = re.sub(r"^to\s+(?=[a-z])", "", said)
    return Described(task.strip(), said or None, added=found.group("adds") is not None)
