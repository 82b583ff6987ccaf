"""The rule policy's workspace requests: projects, tasks, blockers, comments and documents.

`WorkspaceRules.plan` reads the reader's own message (never a tool result) and returns the
stages of a plan in `RulePolicy`'s form: each stage looks at the tool results so far and
asks for the next tool calls or writes the reply. Names stay names: the tools resolve a
project's name or a task's title to its id (and refuse ambiguity). "It" and "this task"
mean the page's task, else the last task a reply named (`[task:<id>]`); "this project" the
page's project. The blocker changes are in `workspace_blockers.py`, the questions in
`workspace_questions.py`, new tasks in `workspace_creation.py`, comments, titles and
descriptions in `workspace_texts.py`, one field's change (done, status, assignee, priority,
due date) in `workspace_fields.py`; a message of several requests is read part by part
(`workspace_several.py`), each part by the rules here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from lectern.adapters.llm.workspace_blockers import WorkspaceBlockers
from lectern.adapters.llm.workspace_by_state import WorkspaceByState
from lectern.adapters.llm.workspace_creation import WorkspaceCreation
from lectern.adapters.llm.workspace_fields import WorkspaceFields
from lectern.adapters.llm.workspace_followups import picked_from_listing, repeated
from lectern.adapters.llm.workspace_listed_changes import (
    each_title_with_its_own,
    handoffs_listed,
    same_change_too,
)
from lectern.adapters.llm.workspace_moved import moved_due
from lectern.adapters.llm.workspace_objects import each_object, each_title
from lectern.adapters.llm.workspace_questions import (
    MODEL_ID,
    CallMaker,
    Stage,
    WorkspaceQuestions,
)
from lectern.adapters.llm.workspace_refs import (
    Refs,
    _Unclear,
    person_ref,
    project_ref,
    task_ref,
)
from lectern.adapters.llm.workspace_replies import _summary
from lectern.adapters.llm.workspace_several import WorkspaceSeveral
from lectern.adapters.llm.workspace_texts import WorkspaceTexts, added_to_description
from lectern.adapters.understanding.layer import REPLIES
from lectern.adapters.understanding.mentions import (
    names_from_prompt,
    resolve,
)
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.spoken import apostrophes_restored
from lectern.adapters.understanding.workspace_frames import unframed_change
from lectern.adapters.understanding.workspace_parts import once_each
from lectern.adapters.understanding.workspace_patterns import (
    ANOTHER,
    CAPABILITIES,
    CREATED,
    PAGE,
    PAGE_PROJECT,
    PROJECT_LEAD,
    PROJECT_REF,
    TASK_REF,
)
from lectern.adapters.understanding.workspace_record_that import record_that
from lectern.adapters.understanding.workspace_refused import other_one_unclear, proposed_task
from lectern.adapters.understanding.workspace_shorthand import spelt_out
from lectern.adapters.understanding.workspace_typos import verb_respelt
from lectern.adapters.understanding.workspace_unsaid import unsaid_question
from lectern.domain.assistant import AIResponse, Message, ToolCall

_PASSAGE_TASK = re.compile(r"\[passage:task:([0-9a-f]{8}-[0-9a-f-]{27,})\]", re.I)
"""A task a search reply cites."""


_CHANGE_THEN_STATEMENT = re.compile(
    r"^(?P<lead>[^.?!]+?(?:[.?!]+|[,;]|\s[-–—]))\s+(?P<rest>(?:i|i['’](?:ve|m|d|ll)|we|"
    r"we['’](?:ve|re|ll)|it|"
    r"it['’]s|its|that|that['’]s|this|they|they['’]re|he|she|the|my|our|"
    r"(?P<who>[a-z][\w.-]*)(?=\s+(?:has|had|is|was|just|already|finished|did|fixed|wrapped|"
    r"closed|completed|says?|said|needs|wants)))\b.*)$",
    re.I | re.S,
)
"""A first sentence (or clause), then a statement with its own subject ("I've finished the
draft.", "..., it's finished", "bob finished it": a member, checked by the reader)."""

_FIELD_WORDS = re.compile(r"\b(?:low|medium|high|urgent|due|deadline|priority)\b", re.I)
"""A field's words: a later clause with them may be a change of its own."""


_REPEATS = re.compile(r"\b(?:and|also|plus|too|as\s+well|another|one\s+more|same)\b", re.I)
"""A bare quoted title repeats the last creation only with a word that says so."""


class WorkspaceRules(
    WorkspaceQuestions,
    WorkspaceBlockers,
    WorkspaceSeveral,
    WorkspaceCreation,
    WorkspaceTexts,
    WorkspaceByState,
    WorkspaceFields,
):
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
                    if len(set(found)) > 1:
                        # a listing of several tasks: "assign that one to bob" is asked
                        break
                    # a search that found one task ("[passage:task:<id>]"): "that task" is it
                    cited = set(_PASSAGE_TASK.findall(message.content))
                    if found or len(cited) == 1:
                        task = found[-1] if found else cited.pop()
                        break
                    if cited:
                        break  # several tasks found: "that task" is none of them for sure
                    # a change proposed on one task, not yet approved: "give it to alice"
                    proposed = proposed_task(message.content, names_from_prompt(system).of("task"))
                    if proposed is not None:
                        task = proposed
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
        tasks = names_from_prompt(system).of("task")
        text = record_that(unframed_change(text), tasks)
        text = apostrophes_restored(spelt_out(verb_respelt(text)))
        if CAPABILITIES.match(text):
            told = REPLIES["capabilities"]
            return [lambda _: AIResponse(told, model=MODEL_ID)]
        it_task, page_project = self.context(history, system)
        it_task = it or it_task
        names = names_from_prompt(system)
        on_workspace_page = bool(PAGE.search(system))
        task = functools.partial(task_ref, names=names, it_task=it_task)
        project = functools.partial(project_ref, names=names, page_project=page_project)
        person = functools.partial(person_ref, names=names)
        page = PAGE.search(system)
        document = page.group("id") if page and page.group("type") == "document" else None
        page_task = page.group("id") if page and page.group("type") == "task" else None
        context = Refs(
            task, project, page_project, on_workspace_page, person, names, document, page_task
        )
        lead = PROJECT_LEAD.match(text)
        led = resolve(lead.group("p"), names.of("project")).name if lead else None
        if lead and led is not None:
            # "vpn project: new task 'Update the firewall rules'": the project the rest is in,
            # as if asked from its page.
            text = lead.group("rest")
            context = Refs(task, project, led, True, person, names, document, page_task)
        again = self._again(text, history) or repeated(text, history, context, self._call)
        if again:
            return self._act(again)
        # "and the other one to alice": no task of its own words, and not the one "it" is
        other = other_one_unclear(text, tasks)
        if other is not None:
            return [lambda _: other.response(MODEL_ID)]
        # a verb without its object ("search", "add a blocker to the drill"): asked about
        shown = any(m.role == "assistant" for m in history)
        unsaid = unsaid_question(text, names, shown_before=shown)
        if unsaid is not None:
            return [lambda _: unsaid.response(MODEL_ID)]
        try:
            # "push it out a week": from the due date shown, looked up, or from today
            moved = moved_due(text, context, self._call, self.clock().date(), history)
            if moved:
                return moved
            # "assign the low priority one to bob" after a listing: the listed task it picks
            return self._plan_with(picked_from_listing(text, history), context)
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
        # a description is the task's, never a new task titled by it
        described = self._describe(text, context)
        if described:
            # "... should also say X": added to what the description says, not put in its place
            return added_to_description(text, described, self._call) or self._act(described)
        # "mark the drill, the hunt and the runbook as done", "add tasks 'A' and 'B'": one
        # verb shared by several objects, one call each
        each = each_title(text, context, self._create_task) or each_object(
            text, context, self._one_action
        )
        # "add two tasks to P: 'A' due x and 'B' due y", "reshuffle: drill -> alice, hunt ->
        # bob", "mark the drill done, and the runbook too": each object with its own words
        each = (
            each
            or each_title_with_its_own(text, context, self._create_task)
            or handoffs_listed(text, context, self._call)
            or same_change_too(text, context, self._one_action, self._call)
        )
        if each:
            return self._act(each)
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
        # "mark the runbook thing done, it's finished": the clause after says why; read first,
        # as the whole would take the reason for part of the task's name.
        told = self._change_then_context(text, context)
        if told:
            return self._act(told)
        for matcher in (
            self._comment,
            self._resolve,
            self._create_blocker,
            self._rename,
            self._describe,
            self._due,
            self._due_alone,
            self._field_said,
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
            self._project_summary,
            self._status_said,
            self._by_state,
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

    def _change_then_context(self, text: str, context: Refs) -> list[ToolCall]:
        """A field change followed by a sentence that only says why ("... I've done it.").

        The later sentence tells, it asks nothing: the change is the first sentence's alone.
        Only changes that carry no text of their own (status, priority, due date, owner,
        done); a comment's or a blocker's words may well be in the later sentence.
        """
        said = _CHANGE_THEN_STATEMENT.match(text)
        if not said or re.search(r"(?:\?|\b(?:too|as\s+well|also))\W*$", said.group("rest")):
            return []  # a question, or a second request said short ("The runbook too.")
        lead, rest = said.group("lead"), said.group("rest")
        who = said.group("who")
        if who and who.casefold() not in {m.casefold() for m in context.names.of("member")}:
            return []  # "close the drill. Patch next": no member tells it
        for matcher in (
            self._due,
            self._priority,
            self._field_said,
            self._assign,
            self._complete,
            self._status,
        ):
            try:
                calls = matcher(lead, context)
            except _Unclear:
                return []  # read whole, as before
            if calls:
                other = context.task_in(rest)
                if other is not None and other != calls[0].arguments.get("task_id"):
                    return []  # the later sentence is about another task: read whole
                if _FIELD_WORDS.search(rest) and not {"priority", "due_date"} & set(
                    calls[0].arguments
                ):
                    return []  # "assign it to bob, it's urgent": the later one changes too
                return calls
        return []

    def _one_action(self, text: str, context: Refs) -> list[ToolCall]:
        for matcher in (
            self._comment,
            self._resolve,
            self._create_blocker,
            self._rename,
            self._describe,
            self._due,
            self._due_alone,
            self._field_said,
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
