"""A task's fields changed by rule: done, status, assignee, priority and due date.

`WorkspaceFields` is the part of `WorkspaceRules` (`workspace_rules.py`) that reads one change
of one task's field from the reader's own message: "close the drill", "mark the hunt in
review", "give the runbook to bob", "the hunt is urgent now", "due next friday please". Each
matcher returns the tool calls of that change, or none when the message is not that change;
"change the status of the drill" (the value unsaid) is asked about (`_Unclear`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from lectern.adapters.llm.workspace_questions import CallMaker
from lectern.adapters.llm.workspace_refs import _ID, Refs, _Unclear, task_words
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import resolve, resolve_person
from lectern.adapters.understanding.slots import due_clause
from lectern.adapters.understanding.workspace_patterns import (
    ANOTHER_REQUEST,
    ASSIGN,
    COMPLETE,
    DUE,
    DUE_CLAUSE,
    DUE_WORDS,
    FIELD_ONLY,
    IT,
    PRIORITY,
    STATUS,
    STATUS_WORDS,
)
from lectern.domain.assistant import ToolCall

_PLANNED_FOR = re.compile(
    r"^(?:schedule|plan|pencil\s+in|slot|book)\s+(?P<t>(?:(?!\bfor\b)[^,])+?)\s+for\s+"
    r"(?P<when>[^,;]+?)\W*$",
    re.I,
)
"""A task given a day with a planning verb ("plan the drill for next week")."""

_DUE_ALONE = re.compile(
    r"^(?:(?:make\s+it|set\s+it|have\s+it|it(?:['’]s|\s+is|\s+should\s+be)(?:\s+now)?)\s+)?"
    r"(?:due|deadline)\s*:?\s+(?P<when>(?:(?!\b(?:please|pls|thanks)\b)[^,.;?!])+?)"
    r"(?:\s*,?\s*(?:please|pls|thanks|thank\s+you))?[\s.!]*$",
    re.I,
)
"""A due date and nothing else ("due next friday please", "it's due the 20th")."""

_PRIORITY_SAID = re.compile(
    r"^(?P<t>[^,;:!?–—]+?)(?:['’]s\s+priority)?\s+(?:is|['’]s|has\s+become|became)\s+"
    r"(?:now\s+|really\s+|suddenly\s+)?(?P<level>low|medium|high|urgent)(?:\s+priority)?"
    r"(?:\s+(?:now|again|from\s+now\s+on))?\s*(?:[.!]*$|[-–—,;:]\s*(?P<why>\S.*)$|"
    r"\s+(?:because|since|as)\b)",
    re.I,
)
"""A task's priority said as a fact ("the hunt is urgent now - they found more logins")."""

_ASKS_MORE = re.compile(
    r"^(?:please\s+)?(?:can|could|would|will)\s+you\b|^(?:please\s+)?(?:make|set|move|push|put|"
    r"add|give|hand|assign|close|complete|mark|change|update|create|open|show|list|tell)\b",
    re.I,
)
"""What follows a said priority when it is a request of its own, not the reason."""

_DUE_SAID = re.compile(
    r"^(?:(?P<t>[^,:;–—]+?)(?:\s*[,:;–—-]|['’]s)\s*)?(?:the\s+|its\s+)?new\s+(?:due\s+date|deadline)"
    r"(?:\s+(?:for|of|on)\s+(?P<t2>[^,:;]+?))?\s*(?:is|will\s+be|:|=)\s*(?P<when>[^,.;!?]+?)"
    r"\s*(?:[,.;!]\s*(?:please|pls|thanks|thank\s+you)?)?[\s.!]*$",
    re.I,
)
"""A new due date said as a fact ("hunt task: new deadline is the 20th")."""

_AFTER_PERSON = re.compile(
    r"(?:\s+(?:instead|too|as\s+well|then|now|for\s+now|from\s+now\s+on|please|thanks|"
    r"this\s+(?:week|time)|going\s+forward))+\W*$",
    re.I,
)
"""Words after an assignee that say when or why, not who ("assign it to me instead")."""

_PERSON_FIRST = re.compile(
    r"^(?P<v>(?:please\s+)?(?:re)?assign|give|hand)\s+to\s+(?P<who>me|myself|\w+)\s+"
    r"(?P<t>(?:the|this|that|my|our)\b[^,;]*?)\s*$",
    re.I,
)
"""An assignment that names the person before the task ("assign to me the hunt")."""

_PRIORITY_WORD = re.compile(r"^(?:low|medium|high|urgent|critical)(?:\s+priority)?\W*$", re.I)


class WorkspaceFields:
    """The matchers of one field's change; a mixin of `WorkspaceRules`."""

    _call: CallMaker
    clock: Callable[[], datetime]

    def _complete(self, text: str, refs: Refs) -> list[ToolCall]:
        match = COMPLETE.match(text)
        if not match:
            return []
        terse = match.group("t5")
        if terse and resolve(task_words(terse), refs.names.of("task")).name is None:
            return []  # "thanks, all done": a terse report only of a task the reader has
        target = next(match.group(g) for g in ("t1", "t2", "t3", "t6", "t5") if match.group(g))
        if re.search(r"\bblocker\b", target, re.I):
            return []
        return [self._call("complete_task", task_id=refs.task(target))]

    def _status(self, text: str, refs: Refs) -> list[ToolCall]:
        match = STATUS.match(text)
        bare = None if match else FIELD_ONLY.match(text)
        named = (bare.group("t") or bare.group("t2")) if bare else None
        # a value word inside the task's name ("the token review") is no value
        unnamed = text.replace(named, " ") if named else text
        valued = re.search(
            r"\b(?:low|medium|high|urgent|critical|done|todo|to\s*-?do|in\s+progress|review|"
            r"finished|complete)\b|\d",
            unnamed,
            re.I,
        )
        if bare and not valued:
            # "change the status of the drill": which task is said, to what is not; ask
            task = refs.task(bare.group("t") or bare.group("t2"))
            field = (bare.group("field") or bare.group("field2")).casefold()
            shown = task if not _ID.fullmatch(task) else "it"
            options = {
                "priority": ("Make it high priority", "Make it low priority"),
                "status": ("Mark it in progress", "Mark it done"),
                "state": ("Mark it in progress", "Mark it done"),
            }.get(field, ("Due next Friday", "Due end of the month"))
            asked = {
                "priority": "low, medium, high or urgent",
                "status": "to do, in progress, in review or done",
                "state": "to do, in progress, in review or done",
            }.get(field, "which date")
            what = "due date" if field == "deadline" else field.replace("state", "status")
            raise _Unclear(
                Clarification(f"What should the {what} of {shown!r} be: {asked}?", options)
            )
        if not match:
            return []
        if match.group("t2"):
            if re.search(r"\b(?:reading\s+)?list\b", match.group("t2"), re.I):
                return []  # "start a new reading list named Beach" is not a task
            return [
                self._call(
                    "update_task", task_id=refs.task(match.group("t2")), status="in_progress"
                )
            ]
        status = STATUS_WORDS[re.sub(r"\s+", " ", match.group("status").lower())]
        target = match.group("t")
        if status == "done":
            return [self._call("complete_task", task_id=refs.task(target))]
        return [self._call("update_task", task_id=refs.task(target), status=status)]

    def _assign(self, text: str, refs: Refs) -> list[ToolCall]:
        # "assign to me the hunt": the person said before the task
        match = ASSIGN.match(_PERSON_FIRST.sub(r"\g<v> \g<t> to \g<who>", text))
        if not match:
            return []
        taken = match.group("t7") or match.group("t8")
        if taken:
            # "take the drill off bob" / "take me off the drill": only of a person and a task
            # ("take Dune off Winter" is a reading list's).
            whom = match.group("from") or match.group("from2")
            anyone = whom.casefold() in ("me", "him", "her", "everyone", "everybody", "anyone")
            if not anyone and resolve_person(whom, refs.names).name is None:
                return []
            tasks = refs.names.of("task")
            words = task_words(taken)
            if tasks and not IT.match(words) and resolve(words, tasks).name is None:
                return []
        cleared = (
            match.group("t3")
            or match.group("t5")
            or match.group("t6")
            or match.group("t11")
            or taken
        )
        if cleared:
            return [self._call("assign_task", task_id=refs.task(cleared), assignee_id=None)]
        mine = match.group("t4") or match.group("t9") or match.group("t10")
        if mine:  # "I'm taking the hunt task", "grab the drill for me"
            task = refs.task(mine)
            return [self._call("assign_task", task_id=task, assignee_id=refs.person("me"))]
        target = match.group("t") or match.group("t2")
        person = match.group("a") or match.group("a2")
        # "to me instead", "to bob for now": what follows the person only says when or why
        person = _AFTER_PERSON.sub("", person) or person
        if person.casefold() in ("me", "myself"):
            person = "me"
        if _PRIORITY_WORD.match(person):
            return []  # "... the priority of it to high": a priority is nobody's name
        return [
            self._call("assign_task", task_id=refs.task(target), assignee_id=refs.person(person))
        ]

    def _priority(self, text: str, refs: Refs) -> list[ToolCall]:
        match = PRIORITY.match(text)
        if not match:
            return []
        target = match.group("t") or match.group("t2") or match.group("t3")
        level = (match.group("priority") or match.group("p2") or match.group("p3")).lower()
        more: dict[str, Any] = {}
        if match.group("more"):
            # ", due 2026-11-20" / ", due Friday" after the priority: the same change
            due = DUE_CLAUSE.search(match.group("more"))
            relative = None if due else due_clause(match.group("more"), self.clock())
            when = due.group("due") if due else (relative[0] if relative else None)
            if when is None:
                return []
            more["due_date"] = when
        return [self._call("update_task", task_id=refs.task(target), priority=level, **more)]

    def _due(self, text: str, refs: Refs) -> list[ToolCall]:
        match = DUE.match(text)
        planned = None if match else _PLANNED_FOR.match(text)
        if (
            planned
            and resolve(task_words(planned.group("t")), refs.names.of("task")).name
            and resolve_person(planned.group("when"), refs.names).name is None
        ):
            # "plan the hunt for next week": a stored task given a day (else asked which)
            text = f"set {planned.group('t')} due {planned.group('when')}"
        if not match:
            worded = DUE_WORDS.match(text)
            if not worded:
                return []
            said = worded.group("when") or worded.group("when2") or worded.group("when3")
            day = due_clause(f"due {said}", self.clock(), moved=True)
            if day is None:
                # "due soonish": a date is meant, none is given
                raise _Unclear(
                    Clarification(
                        "When should it be due? Give a date, or say 'next Friday'.",
                        ("Due next Friday", "Due end of the month"),
                    )
                )
            also = {"priority": worded.group("also").lower()} if worded.group("also") else {}
            return [
                self._call(
                    "update_task",
                    task_id=refs.task(worded.group("t") or worded.group("t2")),
                    due_date=day[0],
                    **also,
                )
            ]
        target = match.group("t") or match.group("t2") or match.group("t3")
        when = match.group("due") or match.group("due2") or match.group("due3")
        return [self._call("update_task", task_id=refs.task(target), due_date=when)]

    def _field_said(self, text: str, refs: Refs) -> list[ToolCall]:
        """A task's new priority or due date said as a fact, not asked as a change.

        Only of a stored task named by its words (or "it"); what follows the priority is why.
        """
        said = _PRIORITY_SAID.match(text)
        if said:
            words = task_words(said.group("t"))
            if not IT.match(words) and resolve(words, refs.names.of("task")).name is None:
                return []  # "the weather is high": no task of the reader's
            why = said.group("why") or ""
            if ANOTHER_REQUEST.match(why) or _ASKS_MORE.match(why):
                return []  # "... - assign it to bob": a second request, not a reason
            level = said.group("level").lower()
            return [self._call("update_task", task_id=refs.task(said.group("t")), priority=level)]
        due = _DUE_SAID.match(text)
        if not due:
            return []
        when = f"due {due.group('when').strip()}"
        day = due_clause(when, self.clock(), moved=True)
        if day is None or when[day[2] :].strip():
            raise _Unclear(
                Clarification(
                    "When should it be due? Give a date, or say 'next Friday'.",
                    ("Due next Friday", "Due end of the month"),
                )
            )
        target = due.group("t") or due.group("t2")
        return [self._call("update_task", task_id=refs.task(target), due_date=day[0])]

    def _due_alone(self, text: str, refs: Refs) -> list[ToolCall]:
        """A due date said on its own ("due next friday please"): the task in view's."""
        match = _DUE_ALONE.match(text)
        if not match:
            return []
        said = f"due {match.group('when').strip()}"
        day = due_clause(said, self.clock(), moved=True)
        if day is None or said[day[2] :].strip():
            return []  # "due friday for the runbook" names its task: not the one in view
        return [self._call("update_task", task_id=refs.task(None), due_date=day[0])]
