"""The workspace rules' messages of several requests, read part by part.

Two or three changes joined by "and"/"then" are planned as one set of calls; two requests
of which one or both are questions are answered in order; a message whose second part no
rule reads asks before doing the first alone. A later part's "it" is the earlier part's
task and its "there" the earlier part's project. Each part is read by the single-request
rules (`WorkspaceRules`, `workspace_rules.py`), which this mixin is part of.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from lectern.adapters.llm.workspace_questions import MODEL_ID, Stage
from lectern.adapters.llm.workspace_refs import Refs, _Unclear
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.scaffold import Done
from lectern.adapters.understanding.workspace_gapping import MOVING_ON, may_share_verb
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB, OWN_VERB, TOO
from lectern.adapters.understanding.workspace_patterns import ANOTHER_REQUEST, SEARCH, THEN
from lectern.domain.assistant import AIResponse, ToolCall

_THERE = re.compile(
    r"(?<!\bis\s)(?<!\bare\s)(?<!['’]s\s)\b(?:in\s+|over\s+)?there\b|"
    r"\bin\s+(?:it|that\s+project|the\s+same\s+project)\b",
    re.I,
)
"""A later part's "there" or "in that project": the project an earlier part was about ("are
there" is no place)."""


_LOOKUP_LEAD = re.compile(
    r"^\s*(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
    r"(?:show|list|give|get|find|pull\s+up|tell)(?:\s+(?:me|us))?\s+",
    re.I,
)
_BARE = re.compile(
    r"^(?:blockers|tasks|documents|docs|team|team\s+roster|roster|members|projects|overview)\W*$",
    re.I,
)
"""A part that only names what to show ("blockers. then team roster.")."""
_VERB_FIRST = re.compile(
    r"^\s*(?:what|which|who|how|is|are|show|list|give|get|find|tell|pull|add|make|set|"
    r"mark|move|assign|close|complete|resolve|create|comment|put|hand|push)\b",
    re.I,
)


_ITS = re.compile(
    r"\b(?:its|their)\s+(?P<what>(?:[\w-]+\s+){0,2}?(?:tasks?|blockers?|documents?|docs|team|"
    r"members|people|status|progress|details|overview))\b",
    re.I,
)
"""A later look-up's "its open blockers": the earlier part's project's."""

_ONE = re.compile(r"\b(?P<the>the|that)\s+(?P<which>[^,]+?)\s+one\b", re.I)
"""A later part's "the T1133 one": one of the kind the earlier part listed."""

_HIS = re.compile(
    r"\b(?:his|her|their)\s+(?=(?:open\s+|own\s+|other\s+)?(?:tasks?|tickets?|work)\b)", re.I
)
"""A later part's "his tasks": the tasks of the person an earlier part named."""

_NEW_ONE = re.compile(r"\b(?:a\s+)?(?:new|another(?:\s+new)?|fresh)\s+one\b", re.I)
"""A later part's "a new one" after a part about a task: a new task."""

_ADD_ONE = re.compile(
    r"\b(?P<v>add|make|create|open|log|raise|file|put\s+in)\s+(?:one|another(?:\s+one)?|"
    r"a\s+(?:new|fresh)\s+one)\b",
    re.I,
)
"""A later part's "add one" after a list of blockers or tasks: a new one of that kind
("which blockers are open, and then add one for the runbook: no template")."""
_ADDED_KIND = {"get_blockers": "blocker", "get_tasks": "task"}

_LISTED = {"get_documents": "document", "get_tasks": "task"}
# "show me the Citrix write-up, and the Check Point one too": one of the kind just shown
_LISTED |= {"get_document_details": "document", "get_task_details": "task"}


def _there(part: str, earlier: list[ToolCall]) -> str:
    """A later part with its "there" named: the project of the earlier part's last call.

    "its open blockers" is that project's too, "the T1133 one" after a list of documents
    is the T1133 document, and "his tasks" after bob's are bob's.
    """
    kind = next((_LISTED[c.name] for c in reversed(earlier) if c.name in _LISTED), None)
    added = next((_ADDED_KIND[c.name] for c in earlier if c.name in _ADDED_KIND), None)
    if added is not None:
        part = _ADD_ONE.sub(rf"\g<v> a {added}", part, count=1)
    if kind is not None:
        part = _ONE.sub(rf"\g<the> \g<which> {kind}", part)
    person = next(
        (c.arguments["assignee_id"] for c in earlier if c.arguments.get("assignee_id")), None
    )
    if isinstance(person, str):
        # "bob's tasks in vpn and his tasks in phishing": "his" is the person said before
        part = _HIS.sub(f"{person}'s ", part)
    project = next(
        (c.arguments["project_id"] for c in reversed(earlier) if c.arguments.get("project_id")),
        None,
    )
    if not isinstance(project, str):
        return part
    part = _ITS.sub(rf"the \g<what> in the {project} project", part)
    return _THERE.sub(f"in the {project} project", part)


class WorkspaceSeveral:
    """Several requests in one message, each part read by the single-request rules."""

    # What `WorkspaceRules` reads one part with: a new task, one task change, the plan of
    # the changes' calls, and a question.
    _create_task: Callable[[str, Refs], list[ToolCall]]
    _one_action: Callable[[str, Refs], list[ToolCall]]
    _act: Callable[[list[ToolCall]], list[Stage]]
    _question: Callable[[str, Refs], list[Stage] | None]

    def _two_questions(self, text: str, context: Refs) -> list[Stage] | None:
        """Two requests in one message, one or both a question, answered in order.

        "what's overdue, and who's on the team?", "show me the netscaler task, then hand it
        to bob" (the second part's "it" is the first's task).
        """
        for separator in THEN.finditer(text):
            try:
                said = text[: separator.start()].strip(" ,")
                first = self._part(said, context)
                if not first and SEARCH.match(said):
                    # "search for Tor exit nodes, then pull up the hunt task": a search beside
                    # a workspace request is the workspace's, in words of its own or not (the
                    # pair stands only when the later part reads too).
                    first = self._part(said, context.in_workspace())
                if not first and _BARE.match(said):
                    # "blockers. then team roster.": things named alone are things to show
                    said = f"show me the {said.rstrip('.!')}"
                    first = self._part(said, context)
                if not first:
                    continue
                asked = first[0](None)
                if not isinstance(asked, list):
                    continue
                task = next((c.arguments.get("task_id") for c in reversed(asked)), None)
                later = _there(TOO.sub("", text[separator.end() :]).strip(), asked)
                second = self._part(later, context.with_it(task))
                lead = _LOOKUP_LEAD.match(said)
                if not second and lead and not _VERB_FIRST.match(later):
                    # "show me the VPN blockers, then the tasks ...": the look-up's verb is
                    # said once for both parts.
                    second = self._part(f"{lead.group(0)}{later}", context.with_it(task))
            except _Unclear:
                continue
            if not second:
                continue
            then = second[0](None)
            if not isinstance(then, list):
                continue
            told, told_then = first[1], second[1]

            def reply(done: Any, n: int = len(asked), a: Stage = told, b: Stage = told_then) -> Any:
                one = a(Done(done.calls[:n], done.results[:n]))
                two = b(Done(done.calls[n:], done.results[n:]))
                texts = [r.text if isinstance(r, AIResponse) else "" for r in (one, two)]
                return AIResponse("\n\n".join(t for t in texts if t), model=MODEL_ID)

            calls = asked + then
            return [functools.partial(_given, calls), reply]
        return None

    def _part(self, text: str, context: Refs) -> list[Stage] | None:
        """One part of a two-part message as a plan of two stages (a change or a question)."""
        calls = self._create_task(text, context) or self._one_action(text, context)
        # "show me the runbook, then set it to in review and comment 'X'": a later part of
        # two changes of its own
        calls = calls or (self._changes(text, context, depth=1) if THEN.search(text) else [])
        if calls:
            return self._act(calls)
        stages = self._question(text, context)
        return stages if stages and len(stages) == 2 else None

    def _unread_part(self, text: str, context: Refs) -> Clarification | None:
        """A question when a request's second part is a request no rule reads.

        "resolve the blocker and then ping bob in a comment": the first part reads as a
        change, the second does not; doing the first alone would drop the second unsaid.
        """
        for separator in THEN.finditer(text):
            first, second = text[: separator.start()].strip(" ,"), text[separator.end() :].strip()
            another = ANOTHER_REQUEST.match(second)
            if not another and (not _CHANGE_START.match(second) or MOVING_ON.match(second)):
                continue
            try:
                left = self._create_task(first, context) or self._one_action(first, context)
                if not left:
                    continue
                if not another and any(set(c.arguments) & _WORDS for c in left):
                    continue  # "comment: reviewed and set aside": the joint is in the words
                if _restates(second, left[-1], context.person):
                    continue  # "i'll take the phishing drill, put it on me": said twice
                after = context.with_it(left[-1].arguments.get("task_id"))
                if self._create_task(second, after) or self._one_action(second, after):
                    continue
            except _Unclear:
                continue
            return Clarification(
                f"I can do the first part ({first!r}), but I don't follow {second!r}. "
                "Should I do just the first part, or could you put the second another way?",
                (first,),
            )
        return None

    def _changes(self, text: str, context: Refs, *, depth: int) -> list[ToolCall]:
        """The changes of a message of two or three requests joined by "and"/"then", or [].

        Each part must read as a change on its own (a new task or one task change); a part
        that does not keeps the message whole.
        """
        if depth > 2:
            return []
        separators = [*THEN.finditer(text), *_DASH_THEN.finditer(text), *_DETAIL.finditer(text)]
        asked: _Unclear | None = None
        for separator in sorted(separators, key=lambda found: found.start()):
            try:
                found = self._split_at(text, separator, context, depth=depth)
            except _Unclear as unclear:
                # "new task 'X', give it to bob. also comment on the drill ...": a split
                # whose part asks may give way to a later one that reads whole
                asked = asked or unclear
                continue
            if found is not None:
                return found
        if asked is not None:
            raise asked
        return []

    def _split_at(
        self, text: str, separator: re.Match[str], context: Refs, *, depth: int
    ) -> list[ToolCall] | None:
        """The changes of the parts either side of one separator; None when it splits none.

        [] ends the search: a told part that says a change is asked, not guessed.
        """
        first, second = text[: separator.start()], text[separator.end() :]
        # "..., make it high priority too": the part without its "too"; "..., and then also,
        # comment on ...": the words that only join it are no part of it either
        second = _JOINING.sub("", TOO.sub("", second))
        left = self._create_task(first, context) or self._one_action(first, context)
        if not left:
            return None
        after = context.with_it(left[-1].arguments.get("task_id"))
        if any(c.arguments.get("task_id") for c in left):
            # "close the drill and open a new one called X": one of the kind just named
            second = _NEW_ONE.sub("a new task", second)
            # "add a blocker on the hunt ... and comment there": there is that task
            second = _TASK_THERE.sub(r"\g<v> on it", second, count=1)
            # "close the task and add a comment that HR signed off": on that task
            second = _BARE_COMMENT.sub(r"\g<v> on it ", second, count=1)
        if separator.re is _DETAIL:
            # "give the drill to alice, due nov 20, and ...": a detail said alone is a change
            # of the same task
            second = _DETAIL_ALONE.sub(lambda m: f"{_DETAIL_VERB[m.group(1).lower()]} ", second)
        # "bump the patch to urgent + assign to me": the later verb's object is "it"
        second = _OBJECTLESS.sub(r"\g<v> it ", second, count=1)
        split = THEN.search(second) or _DETAIL.search(second)
        more = self._changes(second, after, depth=depth + 1) if split else []
        right = more or self._create_task(second, after) or self._one_action(second, after)
        verb = re.match(r"\s*(?P<v>[a-z]+)\s", first, re.I)
        if not right and (_TOLD.match(second) or MOVING_ON.match(second.strip())):
            # "close the drill and the hunt is next", "... and move on to the hunt": the
            # second part only tells; the first is the request. Unless it tells of a
            # change ("and the hunt is done too"), which is asked rather than guessed.
            return [] if _TELLS_A_CHANGE.search(second) else left
        if not right and verb and may_share_verb(second, context.names):
            # "give the netscaler review to bob and the runbook to bob too": the second
            # part's verb is the first's (never a part with a verb of its own, or one
            # naming only a project: "close the drill and move to the vpn project").
            right = self._one_action(f"{verb.group('v')} {second}", after)
        return _one_update(left + right) if right else None


_JOINING = re.compile(
    r"^\s*(?:(?:also|then|and|plus|subsequently|afterwards|after\s+that|finally|next)\b\s*,?\s*)+",
    re.I,
)
"""The words that join a later request to the one before ("and then also, ...")."""
_CHANGE_START = re.compile(rf"^(?:please\s+)?{CHANGE_VERB}\s", re.I)
"""A later part starting with a change's verb ("... and drop a note that ..."): a request."""
_WORDS = frozenset({"content", "description", "resolution", "title"})

_DASH_THEN = re.compile(
    r"\s[-–—]\s*(?=(?:make|set|mark|move|put|bump|push|assign|give|hand|close|complete)\s)", re.I
)
"""A dash before a second change ("start the hunt task - put it in progress"); never where a
part no rule reads is asked about: a comment's words may hold a dash."""

_DETAIL = re.compile(r"\s*,\s*(?=(?:due|by|(?:low|medium|high|urgent)\s+priority)\b)", re.I)
"""A comma before a detail said alone ("..., due nov 20, and comment ..."): a change more."""
_DETAIL_ALONE = re.compile(r"^(?=(due|by|low|medium|high|urgent)\b)", re.I)
_DETAIL_VERB = {"due": "set", "by": "set due", "low": "make", "medium": "make"}
_DETAIL_VERB |= {"high": "make", "urgent": "make"}

_BARE_COMMENT = re.compile(
    r"^\s*(?P<v>(?:please\s+)?(?:comment|note|(?:add|leave|post|put|drop|write)\s+(?:a|the)\s+"
    r"(?:comment|note)))\s*(?=[:\"“'‘]|that\b|saying\b)",
    re.I,
)
"""A later comment said without its task ("... and comment 'X'"): the earlier part's task."""

_TASK_THERE = re.compile(
    r"\b(?P<v>comment|note|blocker|reply|message|update)\s+(?:(?:on|in|over)\s+)?there\b",
    re.I,
)
"""A later change's "comment there": the task the earlier part changed."""

_OBJECTLESS = re.compile(
    r"^\s*(?P<v>(?:please\s+)?(?:(?:re)?assign|give|hand|set|mark|make|bump|push))\s+"
    r"(?=(?:to|as|done|finished|complete|high|low|urgent|medium|due)\b)",
    re.I,
)
"""A later change said without its object ("... and assign to bob"): the earlier part's task."""

_TOLD = re.compile(
    rf"^(?!\s*(?:(?:also|and|then|plus|please)\s+)*{CHANGE_VERB}\b)(?=.*?(?:{OWN_VERB.pattern}))",
    re.I | re.S,
)
"""A part that tells with a verb of its own ("the hunt is next"); one that starts with a
change's verb is a request, whatever its words say ("comment that booking is in progress")."""

_TELLS_A_CHANGE = re.compile(
    r"\b(?:done|finished|complete[d]?|closed|resolved|fixed|sorted|over|cancell?ed|dropped|"
    r"assigned|urgent|high|low|priority|due|overdue)\b",
    re.I,
)
"""What a told part may say that is itself a change to make ("the hunt is done too")."""


def _one_update(calls: list[ToolCall]) -> list[ToolCall]:
    """Updates of one task said one after another as one ("set it to urgent, due nov 20")."""
    merged: list[ToolCall] = []
    for call in calls:
        last = merged[-1] if merged else None
        if (
            last is not None
            and call.name == last.name == "update_task"
            and call.arguments.get("task_id") == last.arguments.get("task_id")
            and not (set(call.arguments) & set(last.arguments)) - {"task_id"}
        ):
            merged[-1] = replace(last, arguments={**last.arguments, **call.arguments})
            continue
        merged.append(call)
    return merged


def _given(calls: list[ToolCall], _: Any) -> list[ToolCall]:
    return calls


_RESTATED = re.compile(
    r"^(?:just\s+|so\s+)?(?:put|assign|give|hand|set)\s+(?:it|this|that)(?:\s+one)?\s+"
    r"(?:on|to)\s+(?P<who>[\w.-]+)\W*$",
    re.I,
)


def _restates(second: str, first: ToolCall, person: Callable[[str | None], str]) -> bool:
    """Whether a later part only says again who the first part assigned ("..., put it on me")."""
    said = _RESTATED.match(second)
    if said is None or first.name != "assign_task":
        return False
    return person(said.group("who")) == first.arguments.get("assignee_id")
