"""What was just said, asked to be kept: "<what happened>, comment that on the runbook".

The reader tells what happened and then asks for "that" to be put somewhere: as a comment
("note that on X", "comment this under X") or as a blocker ("could you record that as a
blocker"). "That" is the statement before the request; the task is the one named after the
request, else the one the statement names (its clause is the place, not the reason).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lectern.adapters.understanding.mentions import Names, covered, find_in

_ASKED = r"[\s,.;:!–—-]+(?:so\s+)?(?:(?:can|could|would|will)\s+(?:you|u)\s+)?(?:please\s+)?"
_AS_COMMENT = re.compile(
    rf"^(?P<said>.{{8,}}?){_ASKED}(?:comment|note|log|post|write|add|leave)\s+"
    r"(?:that|this)(?:\s+down)?\s+(?:as\s+a\s+(?:comment|note)\s+)?(?:on|to|under|in|against)\s+"
    r"(?P<t>.+?)(?:\s+as\s+a\s+(?:comment|note))?(?:\s+(?:please|thanks))?\W*$"
    # "put that on X as a comment": "put" keeps a comment only when it says so
    rf"|^(?P<said2>.{{8,}}?){_ASKED}(?:put|stick|pop)\s+(?:that|this)\s+(?:on|under|against)\s+"
    r"(?P<t2>.+?)\s+as\s+a\s+(?:comment|note)(?:\s+(?:please|thanks))?\W*$",
    re.I,
)
_AS_BLOCKER = re.compile(
    rf"^(?P<said>.{{8,}}?){_ASKED}(?:record|log|add|note|put|raise|flag|file|register|mark|"
    r"save)\s+(?:that|this|it)(?:\s+down)?\s+as\s+(?:a\s+|an\s+)?(?:blocker|impediment)"
    r"(?:\s+(?:on|for|against)\s+(?P<t>.+?))?(?:\s+(?:please|thanks))?\W*$",
    re.I,
)
_BARE_BLOCKER = re.compile(
    rf"^(?P<said>.{{8,}}?){_ASKED}(?:record|log|add|raise|flag|file|register|open|put\s+in)\s+"
    r"(?:a|an)\s+(?:blocker|impediment)(?:\s+(?:on|for|against)\s+(?P<t>.+?))?"
    r"(?:\s+(?:please|thanks))?\W*$",
    re.I,
)
""""<what happened>. add a blocker": a blocker asked with no words of its own keeps the
statement before it, as "record that as a blocker" does."""
_LOGGED = re.compile(
    rf"^(?P<said>.{{8,}}?){_ASKED}(?:log|record|note|flag|raise|file|register)\s+(?:that|this|it)"
    r"(?:\s+down)?(?:\s+(?:on|for|against)\s+(?P<t>.+?))?(?:\s+(?:please|thanks))?\W*$",
    re.I,
)
""""<a task is blocked, and why>. log that": a blocker, when what was told says it is one."""
_SAYS_BLOCKED = re.compile(
    r"(?:\b(?:is|are|was|got|gets|now)|['’]s)\s+(?:\w+\s+)?(?:blocked|stuck|held\s+up|on\s+hold)\b|"
    r"\bcan\s*(?:not|['’]?t)\s+(?:go\s+ahead|proceed|continue|move\s+forward)\b",
    re.I,
)
_HELD_BY = re.compile(
    r"^(?P<t>.+?)(?:\s+(?:is|are|was|has\s+been|got)|['’]s)?\s+(?:\w+\s+)?(?:blocked|stuck|"
    r"held\s+up|on\s+hold)\s+(?P<why>(?:waiting\s+)?(?:on|by|for|because(?:\s+of)?|until|"
    r"behind)\s+\S.*)$",
    re.I,
)
"""One clause that tells a task held up and by what ("the runbook's stuck waiting on X")."""
_LEAD = re.compile(
    r"^(?:(?:so|ok(?:ay)?|sorry|hey|hi|well|fyi|heads\s+up|update)\b[\s,:;.!-]*)+", re.I
)


_IT = re.compile(r"(?:it|that(?:\s+task)?|this\s+task|there)", re.I)
"""A place that points back at the statement's own task."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """A statement to keep: as a comment or a blocker, on a task (None: not said)."""

    tool: str
    text: str
    task: str | None
    project: str | None = None
    """The project a blocker holds up, when the statement names a project and no task."""


def recorded(text: str, names: Names) -> Recorded | None:
    """The statement a request asks to keep as a comment or a blocker, or None."""
    for tool, pattern in (
        ("add_comment", _AS_COMMENT),
        ("create_blocker", _AS_BLOCKER),
        ("create_blocker", _BARE_BLOCKER),
        ("create_blocker", _LOGGED),
    ):
        found = pattern.match(text)
        if found is None:
            continue
        if pattern is _LOGGED and not _SAYS_BLOCKED.search(found.group("said")):
            continue  # "log that" of what is no blocker: a comment or a question, not here
        said = _LEAD.sub("", found.group("said") or found.group("said2")).strip(" ,.;:-")
        target = found.group("t") or (found.group("t2") if "t2" in found.re.groupindex else None)
        tasks = names.of("task")
        if target is not None and _IT.fullmatch(target):
            # "the hunt turned up nothing. put that on it": the task the statement names,
            # and the whole statement is what is kept
            target = find_in(said, tasks).name
            if target is None:
                return None
        if target is None:
            # the task the statement names: its clause is where, the rest is what happened
            clauses = [
                c.strip() for c in re.split(r"[,;]\s*|\s+[–—-]\s+|\s+so\s+", said) if c.strip()
            ]
            placed = [c for c in clauses if find_in(c, tasks).name is not None]
            held = _project_held_up(clauses, names) if tool == "create_blocker" else None
            if held is not None and (not placed or placed == [held[0]]):
                # "we're stuck on vpn gateway hardening, the firewall team is on leave. log
                # that as a blocker": the project is what is held up, the rest is why
                why = ", ".join(c for c in clauses if c is not held[0])
                return Recorded(tool, why[:1].upper() + why[1:], None, held[1])
            held_by = _HELD_BY.match(said) if tool == "create_blocker" else None
            if len(clauses) == 1 and held_by is not None:
                # "the runbook's stuck waiting on legal review, log that as a blocker": the
                # task is what is held up, what holds it up is the blocker
                subject = held_by.group("t")
                task = find_in(subject, tasks).name
                project = find_in(subject, names.of("project")).name
                if project is not None and (
                    task is None or covered(subject, project) >= covered(subject, task)
                ):
                    # "phishing awareness is blocked by the allowlist, add it as a blocker"
                    why = re.sub(r"^(?:by|because(?:\s+of)?)\s+", "", held_by.group("why").strip())
                    return Recorded(tool, why[:1].upper() + why[1:], None, project)
                why = re.sub(
                    r"^(?:by|because(?:\s+of)?)\s+", "", held_by.group("why").strip(), flags=re.I
                )
                if task is not None and why:
                    return Recorded(tool, why[:1].upper() + why[1:], task)
            if tool == "create_blocker" and not placed and len(clauses) == 1:
                # "the change board hasn't approved the window, log that as a blocker": on
                # the task in view, or the one asked for (no task is named in it)
                return Recorded(tool, said[:1].upper() + said[1:], None)
            if len(placed) != 1 or len(clauses) < 2:
                return None
            target = find_in(placed[0], tasks).name
            said = ", ".join(c for c in clauses if c is not placed[0])
        if not said:
            return None
        return Recorded(tool, said[:1].upper() + said[1:], target)
    return None


_HELD_UP = re.compile(
    r"^(?:we['’]?re|we\s+are|i['’]?m|i\s+am|(?:we|i)\s+(?:got|get))?\s*(?:stuck|blocked|held\s+up)"
    r"\s+(?:on|with|in)\s+(?:the\s+)?(?P<p>.+?)(?:\s+project)?$",
    re.I,
)


def _project_held_up(clauses: list[str], names: Names) -> tuple[str, str] | None:
    """(the clause, the project) of "we're stuck on <project>" among a statement's clauses."""
    for clause in clauses:
        said = _HELD_UP.match(clause)
        project = find_in(said.group("p"), names.of("project")).name if said else None
        if (
            said is not None
            and project is not None
            and covered(said.group("p"), project) == 1.0
            and len(clauses) > 1
        ):
            return clause, project
    return None


_SOME_TASK = re.compile(
    r"\b(?:one\s+of\s+(?:my|our|the|his|her|their|[a-z]+['’]s)\s+(?:tasks|tickets)|some\s+task|"
    r"a\s+task\s+of\s+(?:mine|ours))\b",
    re.I,
)
_KEEP_IT = re.compile(
    r"\b(?:note|record|log|flag|comment|write)\s+(?:that|this|it)(?:\s+down)?\b", re.I
)


def kept_on_some_task(text: str) -> bool:
    """Whether a statement is to be kept on a task the reader leaves unnamed.

    "we're blocked on one of my tasks, log that": which task, and how, are both open.
    """
    return bool(_SOME_TASK.search(text) and _KEEP_IT.search(text))
