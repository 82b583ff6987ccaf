"""The rule policy's new tasks: the title, and the project, assignee, due date and priority.

"create a task in the VPN project: rotate certificates, assign it to bob" is one creation;
what is said around the title (the project, by its name or part of it beside a quoted title;
the person; the date, said or relative to the clock; the priority) is taken out, and what
is left is the title. No project named and none in view, with several stored: ask which.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from lectern.adapters.llm.workspace_questions import CallMaker
from lectern.adapters.llm.workspace_refs import Refs, _Unclear
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import covered, resolve, resolve_person
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.scaffold import quotes_hidden
from lectern.adapters.understanding.slots import due_clause
from lectern.adapters.understanding.workspace_patterns import (
    ASSIGN_CLAUSE,
    CREATE_TASK,
    DUE_CLAUSE,
    IN_PROJECT,
    PRIORITY_CLAUSE,
    PROJECT_TASK,
    QUOTED_INTO,
    TASK_FOR,
)
from lectern.adapters.understanding.workspace_terse import details_spelt_out
from lectern.adapters.understanding.workspace_text_end import (
    IT_FIELD,
    OWN_FIELD,
    fillers_dropped,
    text_end,
)
from lectern.domain.assistant import ToolCall

_LOOKUP_AFTER = re.compile(
    r"\s*[,;]?\s*(?:and\s+then|then|and\s+also|and|also)\s+(?:please\s+)?(?:show|open|list|"
    r"tell|what|which|who|pull\s+up|give\s+me|get\s+me|read)\b",
    re.I,
)
"""A look-up asked after a new task's quoted title: a request of its own."""
_CHANGE_AFTER = re.compile(
    r"\s*[,;.]?\s*(?:(?:and|then|also|plus)\s+)+(?:please\s+)?(?:comment|note|close|complete|"
    r"mark|resolve|add\s+a\s+(?:comment|note|blocker)|leave\s+a|set|move|assign|give|hand)\b"
    # "..., and comment on the drill that ...": another task's change, not this one's
    r"(?!\s+(?:it|this|that)\b)",
    re.I,
)
"""A change of another task asked after a new task's quoted title: a request of its own."""

_QUOTED_HERE = re.compile(
    r"^(?:add|put|create|drop|stick)\s+(?P<t>[\"“'‘][^\"”'’]+[\"”'’])\s+(?:(?:in|to|into|under)\s+)?"
    r"(?:here|this\s+project|this\s+one)\b(?P<tail>(?:\s*,|\s+and\b|\s+due\b|\s+by\b).*)?\W*$",
    re.I,
)
"""A quoted title put "here": a new task in the project in view."""
_QUOTED_TITLE = re.compile(r"[\"“'‘][^\"”'’]+[\"”'’]")
_PLACE = re.compile(
    r"\s(?:in|into|under|to|for|on)\s+(?:the\s+)?(?P<p>[^,.;:'\"“”‘’]+?)"
    # "new task on phishing 'Book the room'": the place may come before the quoted title
    r"(?=\s*(?:[,.;:]|$|\s[\"“'‘]))"
)


def _part_of_project(rest: str, projects: list[str]) -> tuple[str, int, int] | None:
    """A project a new task goes in, named by some of its words ("in vpn hardening").

    Only beside a quoted title (the words outside the quotes are not the title), and every
    word said must be one of the project's: "in the vpn logs" is no place.
    """
    if not _QUOTED_TITLE.search(rest):
        return None
    for found in _PLACE.finditer(rest):
        words = found.group("p")
        project = resolve(words, projects).name
        if project is not None and covered(words, project) == 1.0:
            return project, found.start(), found.end()
    return None


_PLACE_FIRST = re.compile(
    r"\s*(?:(?:in|into|for|to|under|on)\s+)?(?:the\s+)?(?P<p>[^,:;\"“'‘]+?)"
    r"(?P<said>\s+(?:project|job|workstream|initiative|programme|program))?"
    r"(?:\s*:\s*|\s+(?:called|named|titled)\s+)(?=\S)",
    re.I,
)
"""A place said before a colon (or "called") and the title after it ("for the phishing project:
...", "in VPN called 'X'"); "job" or "workstream" is the everyday word for a project ("new
task on the vpn job: ...")."""


_PRIORITY_ITEM = re.compile(r"\s*,\s*(?P<p>low|medium|high|urgent)\s*(?=,|$)", re.I)
"""A priority said alone between commas ("..., urgent, due friday")."""
_NAMED_AS = re.compile(
    r"(?:^|[\s,;?.]|\b)(?:(?:title|call|name)\s+it\s*:?|(?:(?:the|its)\s+)?(?:title|name)\s*:|"
    # "with the name 'X'", "under the title X": the name said as what it carries
    r"(?:with|under|by)\s+(?:the\s+)?(?:title|name)\s*:?(?=\s*[\"“'‘]))"
    r"\s*(?P<t>\S.*)$|"
    # "..., the title is 'X'", "? It should be called X": announced after what came before,
    # or with the title quoted ("the title is wrong on the portal" is a title itself)
    r"(?:(?<=[,;?.])|(?=.*?\b(?:is|be|called|named|titled)\s*:?\s*[\"“'‘]))\s*"
    r"(?:(?:the|its)\s+(?:title|name)\s+(?:is|should\s+be|will\s+be|would\s+be)|it\s+(?:is|"
    r"should\s+be|will\s+be|would\s+be|can\s+be|must\s+be)\s+(?:called|named|titled))\s*:?"
    r"\s*(?P<t2>\S.*)$",
    re.I,
)
"""A new task's name said after what it is for ("... title it Audit the servers", "...,
title: X"), or announced as its title ("..., the title is 'X'", "It should be called X")."""
_QUOTED_SPAN = re.compile(r"[\"“'‘][^\"”'’]+[\"”'’]")


def _named_as(title: str) -> str | None:
    """The name a title announces outside quotes, or None when it announces none."""
    masked = _QUOTED_SPAN.sub(
        lambda q: q.group()[0] + "x" * (len(q.group()) - 2) + q.group()[-1], title
    )
    found = _NAMED_AS.search(masked)
    if found is None:
        return None
    group = "t" if found.group("t") is not None else "t2"
    return title[found.start(group) :]


class WorkspaceCreation:
    """New tasks: a title, and the project, person, date and priority said around it."""

    _call: CallMaker
    clock: Callable[[], datetime]

    def _create_task(self, text: str, refs: Refs) -> list[ToolCall]:
        # "add 'Book the training room' to the phishing project": a quoted title put in a
        # project is a new task there.
        text = self._named_project(details_spelt_out(text), refs)
        # "task for bob: check the VPN client versions": whose it is, then what it is
        text = TASK_FOR.sub(r"create a task: \g<t>, assign it to \g<p>", text)
        match = CREATE_TASK.match(text)
        if not match:
            return []
        rest = match.group("rest")
        if re.search(r"\bto\s+$", text[: match.start("rest")], re.I):
            rest = f"to {rest}"  # "a task to Phishing awareness called X": maybe a place
        arguments: dict[str, Any] = {}
        # "..., yeah, and put it on bob", "..., it should be assigned to Bob": the title ends
        # where the new task's own field or a request of its own starts
        rest = IT_FIELD.sub("", fillers_dropped(rest))
        own = OWN_FIELD.search(quotes_hidden(rest))
        if own is not None:
            person = next(own.group(g) for g in ("a", "a2", "a3", "a4", "a5") if own.group(g))
            arguments["assignee_id"] = refs.person(person)
            rest = rest[: own.start()] + rest[own.end() :]
        assign = ASSIGN_CLAUSE.search(rest) if "assignee_id" not in arguments else None
        if assign:
            arguments["assignee_id"] = refs.person(assign.group("a") or "me")
            rest = rest[: assign.start()] + rest[assign.end() :]
        due = DUE_CLAUSE.search(rest)
        relative = None if due else due_clause(rest, self.clock())
        if due:
            arguments["due_date"] = due.group("due")
            rest = rest[: due.start()] + rest[due.end() :]
        elif relative is not None:  # "due next week", "by Friday"
            arguments["due_date"], start, end = relative
            rest = rest[:start].rstrip(" ,") + rest[end:]
        priority = PRIORITY_CLAUSE.search(rest)
        if priority:
            arguments["priority"] = (priority.group("priority") or priority.group("p2")).lower()
            rest = rest[: priority.start()] + rest[priority.end() :]
        said_alone = _PRIORITY_ITEM.search(rest) if "priority" not in arguments else None
        if said_alone:  # "..., urgent, due friday": a priority said alone among the details
            arguments["priority"] = said_alone.group("p").lower()
            rest = rest[: said_alone.start()] + rest[said_alone.end() :]
        if match.group("lead_priority") and "priority" not in arguments:
            arguments["priority"] = match.group("lead_priority").lower()
        if text_end(rest) < len(rest):
            return []  # "..., and then comment on the drill that ...": two requests
        to_it = re.match(
            r"\s*(?:(?:to|in|into|on)\s+)?(?:it|this(?:\s+one)?|that(?:\s+one)?)\b\s*"
            r"(?=called\b|named\b|titled\b|:|$)",
            rest,
        )
        if to_it and refs.page_project is not None:
            # "add a task to it called X": the project in view
            rest = rest[to_it.end() :]
        placed = _PLACE_FIRST.match(rest)
        if placed:
            # "new task for the phishing project: draft the quiz": the place, then the title.
            named = resolve(placed.group("p"), refs.names.of("project")).name
            if named is not None and (
                placed.group("said") or covered(placed.group("p"), named) == 1.0
            ):
                rest = f" {rest[placed.end() :]} in the {named} project"
        rest = f" {rest}"
        reference = refs.page_project
        project = IN_PROJECT.search(rest)
        said = project.group("p") if project else ""
        named = resolve(said, refs.names.of("project")).name if said else None
        whole = named is not None and covered(said, named) == 1.0  # every word the project's
        stored = None if whole else self._stored_project_in(rest, refs)
        if stored is not None:
            # "a task to Phishing awareness called 'X'": a stored project's whole name is
            # the place, whatever follows it ("in the X project" would run into the title).
            reference, start, end = stored
            rest = rest[:start] + rest[end:]
        elif project:
            reference = refs.project(project.group("p"))
            rest = project.group("before") + rest[project.end() :]
        else:
            # With the title quoted, the words outside the quotes may name the project
            # by part of its name ("'Rotate keys' in vpn hardening").
            found_part = _part_of_project(rest, refs.names.of("project"))
            if found_part is not None:
                reference, start, end = found_part
                rest = rest[:start] + rest[end:]
        title = " ".join(rest.split()).strip()
        named_as = _named_as(title)
        title = title.lstrip(" :,-")
        if named_as:
            # "a task to check the servers, title it Audit the servers": the name said, not
            # the purpose before it
            title = named_as
        # What is left around the title once the project, date and priority are out: "here:",
        # "called", "new task", quotes around it, "for me" (its assignee).
        for _ in range(2):  # "here called 'X'": the place said as "here", then its name
            title = re.sub(
                r"^(?:(?:here|there)\s*(?::|(?=\s+(?:called|named|titled)\b))|(?:new\s+)?task\b|"
                r"called\b|named\b|titled\b|to\b|for\b)[\s:,-]*",
                "",
                title,
                flags=re.I,
            )
        quoted = re.fullmatch(r"[\"“'‘](?P<t>[^\"”'’]+)[\"”'’](?P<after>.*)", title)
        if quoted:
            title, after = quoted.group("t"), quoted.group("after")
            if _LOOKUP_AFTER.match(after) or _CHANGE_AFTER.match(after):
                return []  # "... and then show me the T1133 doc": two requests, read as such
            owner = re.fullmatch(
                r"\s*(?:,\s*)?for\s+(?P<p>me|[a-z][\w.-]*)\s*[,.]?\s*", after, re.I
            )
            if owner and "assignee_id" not in arguments:
                arguments["assignee_id"] = refs.person(owner.group("p"))
        else:
            title = _clean(title)
        title = title.strip(" ,.-–—")
        if not title:
            return []
        if resolve_person(title, refs.names).name is not None:
            # "create a task for bob": who it is for, but not what it is.
            raise _Unclear(Clarification("What should the new task be called?", ()))
        projects = refs.names.of("project")
        if reference is None and len(projects) > 1:
            # No project named and no project page: ask, never pick one.
            raise _Unclear(
                Clarification(
                    f"Which project should {title!r} go in?",
                    tuple(f"In {p}" for p in projects[:3]),
                )
            )
        title = title[0].upper() + title[1:]
        call_arguments: dict[str, Any] = {"title": title, **arguments}
        if reference is not None:
            call_arguments = {"project_id": reference, **call_arguments}
        return [self._call("create_task", **call_arguments)]

    @staticmethod
    def _stored_project_in(rest: str, refs: Refs) -> tuple[str, int, int] | None:
        """A stored project named whole as the place ("in phishing awareness (project)")."""
        for name in refs.names.of("project"):
            found = re.search(
                rf"\s(?:in|into|to|for|under|on)\s+(?:the\s+)?{re.escape(name)}\b"
                r"(?:\s+project\b)?",
                rest,
                re.I,
            )
            if found:
                return name, found.start(), found.end()
        return None

    @staticmethod
    def _named_project(text: str, refs: Refs) -> str:
        """A creation whose project is named without the word "project", said with it.

        "add 'Inventory the gateways' to VPN gateway hardening", "a new vpn task - ...": the
        place or the word before "task" is a stored project's name (not a task's).
        """
        projects = refs.names.of("project")
        here = _QUOTED_HERE.match(text)
        if here and refs.page_project is not None:
            # "put 'X' in here": a new task in the project in view
            return f"create a task {here.group('t')}{here.group('tail') or ''}"
        quoted = QUOTED_INTO.match(text)
        if quoted and projects:
            said = re.search(r"\s+project$", quoted.group("where"), re.I) is not None
            where = re.sub(r"\s+project$", "", quoted.group("where"), flags=re.I)
            project = resolve(where, projects).name
            task = None if said else resolve(where, refs.names.of("task")).name
            if (
                task is not None
                and project is not None
                and covered(where, project) > covered(where, task)
            ):
                task = None  # "vpn hardening" is all the project's words, half a task's
            if project is not None and task is None:
                tail = quoted.group("tail") or ""
                # "put 'X' in ..." is a creation too, said with a verb the pattern knows
                return f"create a task {quoted.group('t')} in the {project} project{tail}"
        led = PROJECT_TASK.match(text)
        if (
            led
            and projects
            and not re.fullmatch(
                r"(?:low|medium|high|urgent)(?:[\s-]+priority)?|quick|small|big|separate|another|follow-up",
                led.group("where"),
                re.I,
            )
        ):
            project = resolve(led.group("where"), projects).name
            if project is not None:
                return f"create a new task{led.group('rest')} in the {project} project"
        return text
