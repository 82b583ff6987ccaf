"""The rule policy's workspace requests: projects, tasks, blockers, comments and documents.

`WorkspaceRules.plan` reads the reader's own message (never a tool result) and returns the
stages of a plan in `RulePolicy`'s form: each stage looks at the tool results so far and
asks for the next tool calls or writes the reply. Names stay names: the tools resolve a
project's name or a task's title to its id (and refuse ambiguity). "It" and "this task"
mean the page's task, else the last task a reply named (`[task:<id>]`); "this project" the
page's project.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from lectern.adapters.llm.workspace_questions import (
    MODEL_ID,
    CallMaker,
    Stage,
    WorkspaceQuestions,
)
from lectern.adapters.llm.workspace_refs import Refs, _Unclear, project_words, task_words
from lectern.adapters.llm.workspace_replies import (
    _summary,
)
from lectern.adapters.understanding.layer import REPLIES, Clarification, name_it, which_of
from lectern.adapters.understanding.mentions import (
    covered,
    find_in,
    names_from_prompt,
    resolve,
    resolve_person,
)
from lectern.adapters.understanding.scaffold import Done
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.slots import due_clause
from lectern.adapters.understanding.workspace_parts import once_each
from lectern.adapters.understanding.workspace_patterns import (
    ANOTHER,
    ANOTHER_REQUEST,
    ASSIGN,
    ASSIGN_CLAUSE,
    BLOCKER_VERB,
    CAPABILITIES,
    COMMENT,
    COMPLETE,
    CREATE_BLOCKER,
    CREATE_TASK,
    CREATED,
    DESCRIBE,
    DUE,
    DUE_CLAUSE,
    DUE_WORDS,
    FIELD_ONLY,
    IN_PROJECT,
    IT,
    PAGE,
    PAGE_PROJECT,
    PRIORITY,
    PRIORITY_CLAUSE,
    PROJECT_LEAD,
    PROJECT_REF,
    PROJECT_TASK,
    QUOTED_INTO,
    RENAME_TASK,
    RESOLVE,
    SEARCH,
    STATUS,
    STATUS_WORDS,
    TASK_FOR,
    TASK_REF,
    THEN,
    THIS_PROJECT,
)
from lectern.domain.assistant import AIResponse, Message, ToolCall

_REPEATS = re.compile(r"\b(?:and|also|plus|too|as\s+well|another|one\s+more|same)\b", re.I)
"""A bare quoted title repeats the last creation only with a word that says so."""


_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f-]{27,}", re.I)
"""A task's id, as replies write it (`[task:<id>]`): passed as it is."""


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

_LISTED = {"get_documents": "document", "get_tasks": "task"}


def _there(part: str, earlier: list[ToolCall]) -> str:
    """A later part with its "there" named: the project of the earlier part's last call.

    "its open blockers" is that project's too, and "the T1133 one" after a list of documents
    is the T1133 document.
    """
    kind = next((_LISTED[c.name] for c in reversed(earlier) if c.name in _LISTED), None)
    if kind is not None:
        part = _ONE.sub(rf"\g<the> \g<which> {kind}", part)
    project = next(
        (c.arguments["project_id"] for c in reversed(earlier) if c.arguments.get("project_id")),
        None,
    )
    if not isinstance(project, str):
        return part
    part = _ITS.sub(rf"the \g<what> in the {project} project", part)
    return _THERE.sub(f"in the {project} project", part)


class WorkspaceRules(WorkspaceQuestions):
    """Plans for workspace requests, over the rule policy's call maker."""

    def __init__(
        self, call: CallMaker, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        """`call(tool, **arguments)` makes a tool call; `clock` reads dates like "by Friday"."""
        self._call = call
        self.clock = clock

    # --- context --------------------------------------------------------------------------

    def context(self, history: Sequence[Message], system: str) -> tuple[str | None, str | None]:
        """(the task "it" means, the project "this project" means)."""
        page = PAGE.search(system)
        task = page.group("id") if page and page.group("type") == "task" else None
        project = page.group("id") if page and page.group("type") == "project" else None
        if project is None:
            belongs = PAGE_PROJECT.search(system)
            project = belongs.group("id") if belongs else None
        if task is None:
            for message in reversed(history):
                if message.role == "assistant":
                    found = TASK_REF.findall(message.content)
                    if found:
                        task = found[-1]
                        break
        if project is None:
            # "tell me about the phishing project" ... "add a task to it": the project the
            # last reply was about (its first reference), when it was about one
            last = next((m for m in reversed(history) if m.role == "assistant"), None)
            shown = PROJECT_REF.findall(last.content) if last is not None else []
            if len(set(shown)) == 1:
                project = shown[0]
        return task, project

    def plan(
        self, text: str, history: Sequence[Message], system: str, it: str | None = None
    ) -> list[Stage] | None:
        """The stages for a workspace request, or None when it is not one.

        `it`: the task "it" means when an earlier part of the same message named one.
        """
        if CAPABILITIES.match(text):
            told = REPLIES["capabilities"]
            return [lambda _: AIResponse(told, model=MODEL_ID)]
        it_task, page_project = self.context(history, system)
        it_task = it or it_task
        names = names_from_prompt(system)
        readers = names.of("reader")
        on_workspace_page = bool(PAGE.search(system))

        def task_ref(value: str | None) -> str:
            words = task_words(value or "")
            head = words.split(",", 1)[0].strip()
            if head != words and names.of("task") and resolve(head, names.of("task")).name:
                words = head  # "the netscaler task, nobody should own it for now"
            if (not words or IT.match(words)) and it_task is not None:
                return it_task
            tasks = names.of("task")
            if (not words or IT.match(words)) and tasks:
                raise _Unclear(name_it("task", "use", [f"{t}" for t in tasks]))
            owner = re.fullmatch(r"(?P<who>[a-z][\w.-]*)['’]s(?:\s+task)?", words, re.I)
            if owner and resolve_person(owner.group("who"), names).name is not None:
                # "close bob's task": a person's tasks, not one of them.
                raise _Unclear(name_it("task", "use", tasks))
            # A mention of a stored task ("the runbook") stands for its full title.
            found = resolve(words, tasks) if words else None
            project = find_in(words, names.of("project")).name if words and tasks else None
            if found is not None and found.name is not None:
                if project is None or covered(words, found.name) >= covered(words, project):
                    return found.name
            elif found is not None and found.ambiguous:
                raise _Unclear(which_of("task", found.candidates))
            if project is not None:
                # "complete the VPN task": a project named where one of its tasks is meant.
                raise _Unclear(
                    Clarification(
                        f"{project!r} is a project. Which of its tasks do you mean?",
                        tuple(tasks[:3]),
                    )
                )
            if tasks and words and not _ID.fullmatch(words):
                # "the firewall audit task" when no task is called anything like it: ask,
                # rather than propose a change the tool can only refuse.
                asked = re.sub(r"\s+task$", "", words)
                raise _Unclear(
                    Clarification(
                        f"I can't find a task called {asked!r}. Which task do you mean?",
                        tuple(tasks[:3]),
                    )
                )
            return words or _clean(value)

        def project_ref(value: str | None) -> str | None:
            words = project_words(value)
            if words is None or THIS_PROJECT.match(f"{words} project") or words in ("this", "it"):
                return page_project
            # "the VPN project" stands for "VPN gateway hardening", as a task's mention does
            # for its title; two close projects get a question, none keeps the words.
            found = resolve(words, names.of("project"))
            if found.name is not None:
                return found.name
            if found.ambiguous:
                raise _Unclear(which_of("project", found.candidates))
            # "which blockers got resolved already in the vpn project": the words caught
            # around the name hold one stored project's rarer words.
            return find_in(words, names.of("project")).name or words

        def person_ref(value: str | None) -> str:
            mention = _clean(value)
            found = resolve_person(mention, names, readers[0] if readers else None)
            members = names.of("member")
            if found.name is None and members and mention.casefold() not in ("me", "myself"):
                raise _Unclear(
                    Clarification(
                        f"{mention!r} is not on the team. Who should it go to?",
                        tuple(f"Assign it to {m}" for m in members[:3]),
                    )
                )
            return found.name or mention

        page = PAGE.search(system)
        document = page.group("id") if page and page.group("type") == "document" else None
        context = Refs(
            task_ref, project_ref, page_project, on_workspace_page, person_ref, names, document
        )
        lead = PROJECT_LEAD.match(text)
        led = resolve(lead.group("p"), names.of("project")).name if lead else None
        if lead and led is not None:
            # "vpn project: new task 'Update the firewall rules'": the project the rest is in,
            # as if asked from its page.
            text = lead.group("rest")
            context = Refs(task_ref, project_ref, led, True, person_ref, names, document)
        again = self._again(text, history)
        if again:
            return self._act(again)
        try:
            return self._plan_with(text, context)
        except _Unclear as unclear:
            question = unclear.question
            return [lambda _: question.response(MODEL_ID)]

    def _again(self, text: str, history: Sequence[Message]) -> list[ToolCall]:
        """The last creation once more with another title ("and 'Train sales' too")."""
        match = ANOTHER.match(text)
        if not match or not _REPEATS.search(text):
            return []
        for message in reversed(history):
            if message.role != "assistant":
                continue
            made = [c for c in message.tool_calls if c.name == "create_task"]
            if made:
                project = made[-1].arguments.get("project_id")
                arguments = {"project_id": project} if project else {}
                return [self._call("create_task", **arguments, title=_clean(match.group("t")))]
            told = CREATED.search(message.content)
            if told:
                return [
                    self._call("create_task", project_id=told.group("p"), title=match.group("t"))
                ]
        return []

    def _plan_with(self, text: str, context: Refs) -> list[Stage] | None:
        created = self._create_task(text, context)
        if created:
            return self._act(created)
        # Several changes in one request: "complete X and add a comment to it: Y", "close the
        # drill and add a task called Z"; a later clause's "it" is the earlier one's task.
        try:
            several = self._changes(text, context, depth=0)
        except _Unclear:
            several = []  # a part asks a question of its own: the message is read whole
        if several:
            return self._act(once_each(several))
        unread = self._unread_part(text, context)
        if unread is not None:
            return [lambda _: unread.response(MODEL_ID)]
        for matcher in (
            self._comment,
            self._resolve,
            self._create_blocker,
            self._rename,
            self._describe,
            self._due,
            self._priority,
            self._assign,
            self._complete,
            self._status,
        ):
            calls = matcher(text, context)
            if calls:
                return self._act(calls)
        both = self._two_questions(text, context)
        if both:
            return both
        return self._question(text, context)

    def _question(self, text: str, context: Refs) -> list[Stage] | None:
        for question in (
            self._attention,
            self._blockers,
            self._team,
            self._task_details,
            self._document_details,
            self._documents,
            self._tasks,
            self._project_details,
            self._projects,
            self._search,
        ):
            stages = question(text, context)
            if stages:
                return stages
        return None

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
                if not first:
                    continue
                asked = first[0](None)
                if not isinstance(asked, list):
                    continue
                task = next((c.arguments.get("task_id") for c in reversed(asked)), None)
                later = _there(text[separator.end() :].strip(), asked)
                second = self._part(later, context.with_it(task))
                lead = _LOOKUP_LEAD.match(text)
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
            if not ANOTHER_REQUEST.match(second):
                continue
            try:
                left = self._create_task(first, context) or self._one_action(first, context)
                if not left:
                    continue
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
        for separator in THEN.finditer(text):
            first, second = text[: separator.start()], text[separator.end() :]
            # "..., make it high priority too": the part without its "too"
            second = re.sub(r"[\s,]+(?:too|as\s+well|also)\W*$", "", second, flags=re.I)
            left = self._create_task(first, context) or self._one_action(first, context)
            if not left:
                continue
            after = context.with_it(left[-1].arguments.get("task_id"))
            more = self._changes(second, after, depth=depth + 1) if THEN.search(second) else []
            right = more or self._create_task(second, after) or self._one_action(second, after)
            verb = re.match(r"\s*(?P<v>[a-z]+)\s", first, re.I)
            if not right and verb:
                # "give the netscaler review to bob and the runbook to bob too": the second
                # part's verb is the first's.
                gapped = re.sub(r"[\s,]+(?:too|as\s+well|also)\W*$", "", second, flags=re.I)
                right = self._one_action(f"{verb.group('v')} {gapped}", after)
            if right:
                return left + right
        return []

    def _one_action(self, text: str, context: Refs) -> list[ToolCall]:
        for matcher in (
            self._comment,
            self._resolve,
            self._create_blocker,
            self._rename,
            self._describe,
            self._due,
            self._priority,
            self._assign,
            self._complete,
            self._status,
        ):
            calls = matcher(text.strip(), context)
            if calls:
                return calls
        return []

    @staticmethod
    def _act(calls: list[ToolCall]) -> list[Stage]:
        return [lambda _: calls, lambda done: AIResponse(_summary(done), model=MODEL_ID)]

    # --- actions --------------------------------------------------------------------------

    def _create_task(self, text: str, refs: Refs) -> list[ToolCall]:
        # "add 'Book the training room' to the phishing project": a quoted title put in a
        # project is a new task there.
        text = self._named_project(text, refs)
        # "task for bob: check the VPN client versions": whose it is, then what it is
        text = TASK_FOR.sub(r"create a task: \g<t>, assign it to \g<p>", text)
        match = CREATE_TASK.match(text)
        if not match:
            return []
        rest = match.group("rest")
        arguments: dict[str, Any] = {}
        assign = ASSIGN_CLAUSE.search(rest)
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
        if match.group("lead_priority") and "priority" not in arguments:
            arguments["priority"] = match.group("lead_priority").lower()
        to_it = re.match(
            r"\s*(?:(?:to|in|into|on)\s+)?(?:it|this(?:\s+one)?|that(?:\s+one)?)\b\s*"
            r"(?=called\b|named\b|titled\b|:|$)",
            rest,
        )
        if to_it and refs.page_project is not None:
            # "add a task to it called X": the project in view
            rest = rest[to_it.end() :]
        rest = f" {rest}"
        project = IN_PROJECT.search(rest)
        reference = refs.project(project.group("p")) if project else refs.page_project
        if project:
            rest = project.group("before") + rest[project.end() :]
        else:
            for name in refs.names.of("project"):
                # "create a task in phishing awareness to ...": a stored project's name.
                found = re.search(
                    rf"\s(?:in|into|to|for|under|on)\s+(?:the\s+)?{re.escape(name)}\b", rest, re.I
                )
                if found:
                    reference = name
                    rest = rest[: found.start()] + rest[found.end() :]
                    break
        title = " ".join(rest.split()).lstrip(" :-").strip()
        # What is left around the title once the project, date and priority are out: "here:",
        # "called", "new task", quotes around it, "for me" (its assignee).
        title = re.sub(
            r"^(?:(?:here|there)\s*:|(?:new\s+)?task\b|called\b|named\b|titled\b|to\b|for\b)"
            r"[\s:,-]*",
            "",
            title,
            flags=re.I,
        )
        quoted = re.fullmatch(r"[\"“'‘](?P<t>[^\"”'’]+)[\"”'’](?P<after>.*)", title)
        if quoted:
            title, after = quoted.group("t"), quoted.group("after")
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
    def _named_project(text: str, refs: Refs) -> str:
        """A creation whose project is named without the word "project", said with it.

        "add 'Inventory the gateways' to VPN gateway hardening", "a new vpn task - ...": the
        place or the word before "task" is a stored project's name (not a task's).
        """
        projects = refs.names.of("project")
        quoted = QUOTED_INTO.match(text)
        if quoted and projects:
            said = re.search(r"\s+project$", quoted.group("where"), re.I) is not None
            where = re.sub(r"\s+project$", "", quoted.group("where"), flags=re.I)
            project = resolve(where, projects).name
            task = None if said else resolve(where, refs.names.of("task")).name
            if project is not None and task is None:
                tail = quoted.group("tail") or ""
                return (
                    f"{quoted.group('v')} a task {quoted.group('t')} in the {project} project{tail}"
                )
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

    def _complete(self, text: str, refs: Refs) -> list[ToolCall]:
        match = COMPLETE.match(text)
        if not match:
            return []
        terse = match.group("t5")
        if terse and resolve(task_words(terse), refs.names.of("task")).name is None:
            return []  # "thanks, all done": a terse report only of a task the reader has
        target = match.group("t1") or match.group("t2") or match.group("t3") or terse
        if re.search(r"\bblocker\b", target, re.I):
            return []
        return [self._call("complete_task", task_id=refs.task(target))]

    def _status(self, text: str, refs: Refs) -> list[ToolCall]:
        match = STATUS.match(text)
        bare = None if match else FIELD_ONLY.match(text)
        valued = re.search(
            r"\b(?:low|medium|high|urgent|critical|done|todo|to\s*-?do|in\s+progress|review|"
            r"finished|complete)\b|\d",
            text,
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
        match = ASSIGN.match(text)
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
        cleared = match.group("t3") or match.group("t5") or match.group("t6") or taken
        if cleared:
            return [self._call("assign_task", task_id=refs.task(cleared), assignee_id=None)]
        if match.group("t4"):  # "I'm taking the hunt task"
            task = refs.task(match.group("t4"))
            return [self._call("assign_task", task_id=task, assignee_id=refs.person("me"))]
        target = match.group("t") or match.group("t2")
        person = match.group("a") or match.group("a2")
        if person.casefold() in ("me", "myself"):
            person = "me"
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
        if not match:
            worded = DUE_WORDS.match(text)
            if not worded:
                return []
            day = due_clause(f"due {worded.group('when')}", self.clock(), moved=True)
            if day is None:
                # "due soonish": a date is meant, none is given
                raise _Unclear(
                    Clarification(
                        "When should it be due? Give a date, or say 'next Friday'.",
                        ("Due next Friday", "Due end of the month"),
                    )
                )
            return [
                self._call("update_task", task_id=refs.task(worded.group("t")), due_date=day[0])
            ]
        target = match.group("t") or match.group("t2") or match.group("t3")
        when = match.group("due") or match.group("due2") or match.group("due3")
        return [self._call("update_task", task_id=refs.task(target), due_date=when)]

    def _rename(self, text: str, refs: Refs) -> list[ToolCall]:
        match = RENAME_TASK.match(text)
        if not match:
            return []
        target = match.group("t") or match.group("t2") or match.group("t3")
        return [
            self._call("update_task", task_id=refs.task(target), title=_clean(match.group("title")))
        ]

    def _describe(self, text: str, refs: Refs) -> list[ToolCall]:
        match = DESCRIBE.match(text)
        if not match:
            return []
        return [
            self._call(
                "update_task",
                task_id=refs.task(match.group("t")),
                description=_clean(match.group("d")),
            )
        ]

    def _create_blocker(self, text: str, refs: Refs) -> list[ToolCall]:
        match = CREATE_BLOCKER.match(text)
        if not match:
            if re.fullmatch(
                rf"(?:{BLOCKER_VERB}|new)\s+(?:a\s+)?(?:new\s+)?blocker\W*",
                text,
                re.I,
            ):
                # "add a blocker": on what, and blocked by what, are both missing
                raise _Unclear(Clarification("What is blocked, and by what?", ()))
            return []
        said = match.group("target3")
        tasks = refs.names.of("task")
        words = task_words(said or "")
        if said and tasks and not IT.match(words) and resolve(words, tasks).name is None:
            return []  # "I can't go on because I'm tired": only a task is held up
        target = _clean(match.group("target") or match.group("target2") or said)
        description = _clean(match.group("d") or match.group("d2") or match.group("d3"))
        if match.group("until"):
            description = f"waiting until {description}"  # "can't start until we get access"
        if description.endswith(")") and "(" not in description:
            description = description[:-1].rstrip()  # the reason was said in parentheses
        description = description[0].upper() + description[1:] if description else description
        named = resolve(project_words(target) or "", refs.names.of("project")).name
        on_task = resolve(task_words(target), refs.names.of("task")).name
        if named is not None and (
            on_task is None or covered(task_words(target), named) > covered(target, on_task)
        ):
            # "blocker for phishing awareness: ...": a stored project named without the word
            target = f"{named} project"
        if re.search(r"\bproject$", target, re.I) or target.casefold() in ("we", "this project"):
            project = refs.project(target)
            if project is None:
                return []
            return [self._call("create_blocker", project_id=project, description=description)]
        return [self._call("create_blocker", task_id=refs.task(target), description=description)]

    def _resolve(self, text: str, refs: Refs) -> list[ToolCall]:
        # "close the vendor blocker too (resolution: window approved)": "too" before what
        # resolved it, and the resolution labelled as one, are neither blocker nor reason.
        text = re.sub(r"\s+(?:too|as\s+well|also)(?=\s*[(:;,—–-])", "", text, flags=re.I)
        text = re.sub(
            r"([(:;,—–-]\s*)(?:resolution|reason|resolved\s+by|fix)\s*[:=—–-]\s*",
            r"\1",
            text,
            flags=re.I,
        )
        match = RESOLVE.match(text)
        if not match:
            return []
        said = next((match.group(g) for g in ("b", "b2", "b3", "b5") if match.group(g)), None)
        blocker = _clean(said or match.group("b4") or match.group("b6") or "")
        blocker = re.sub(r"^(?:about|on|the)\s+", "", blocker, flags=re.I)
        resolution = _clean(
            next(
                (match.group(g) for g in ("r", "r2", "r3", "r4", "r5", "r6") if match.group(g)), ""
            )
        )
        resolution = resolution[0].upper() + resolution[1:] if resolution else resolution
        blocker = refs.blocker(blocker, by_task=said is None)
        return [self._call("resolve_blocker", blocker_id=blocker, resolution=resolution)]

    def _comment(self, text: str, refs: Refs) -> list[ToolCall]:
        match = COMMENT.match(text)
        if not match:
            return []
        told = match.group("w10") or match.group("w11")
        if (
            told
            and told.casefold() not in ("him", "her", "them")
            and resolve_person(told, refs.names).name is None
        ):
            return []  # "update the drill on ...": only a person is told
        target = next(
            (match.group(g) for g in ("t", "t3", "t4", "t6", "t8", "t9", "t10") if match.group(g)),
            None,
        )
        said = ("c", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10")
        content = _clean(next((match.group(g) for g in said if match.group(g)), ""))
        if not content:
            return []
        content = content[0].upper() + content[1:]
        if not content.endswith((".", "!", "?")):
            content += "."
        return [self._call("add_comment", task_id=refs.task(target), content=content)]


def _given(calls: list[ToolCall], _: Any) -> list[ToolCall]:
    return calls
