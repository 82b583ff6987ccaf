"""What no rule pattern matched, read by meaning: the understanding layer's part of `RulePolicy`.

`ByMeaning` is the mixin of `RulePolicy` (`rule_policy.py`) that takes over when the book
and workspace patterns have not read a message: the packaged layer (MiniLM over each
intent's examples, `adapters/understanding/layer.py`) reads it among the tools offered, with
stored names masked; a confident reading is planned with its slots (`plan_books`,
`plan_workspace`), an unsure one becomes one clarifying question, and a message that reads
as a request for books is a search. It also reads each part of a message of several
workspace changes (`_workspace_parts`), where only a sure reading of a change counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from lectern.adapters.llm.book_compound import BOOK_WORDS as _BOOK_WORDS
from lectern.adapters.llm.book_rules import BookRules
from lectern.adapters.llm.rule_replies import (
    _facets_reply,
    _list_reply,
    _lists_reply,
    _summary,
)
from lectern.adapters.llm.rule_steps import MODEL_ID, BookSteps
from lectern.adapters.llm.workspace_replies import read_reply
from lectern.adapters.llm.workspace_rules import WorkspaceRules
from lectern.adapters.understanding.book_patterns import SEARCH_LEAD, TOPIC_LEAD
from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.intent_examples import (
    BOOK_TOOLS,
    CONVERSATIONAL,
    WORKSPACE_TOOLS,
)
from lectern.adapters.understanding.layer import (
    Clarification,
    Understanding,
    conversational_reply,
)
from lectern.adapters.understanding.mentions import Names, masked, names_from_prompt
from lectern.adapters.understanding.request_parts import points_back, request_parts
from lectern.adapters.understanding.ruled_out import (
    mentioned_kinds,
    ruled_out,
)
from lectern.adapters.understanding.scaffold import Done as _Done
from lectern.adapters.understanding.scaffold import Step
from lectern.adapters.understanding.workspace_parts import changes_in_parts
from lectern.adapters.understanding.workspace_patterns import PAGE, WORKSPACE_PAGE
from lectern.adapters.understanding.workspace_plan import Where, plan_workspace
from lectern.adapters.understanding.workspace_text_end import shown_blocker_named
from lectern.application.assistant.guardrails import off_topic_text
from lectern.domain.assistant import AIResponse, Message, ToolCall

_CHANGE_WISH = re.compile(
    r"\b(?:want|wanna|like|need|going|trying)\s+to\s+(?:rate|score|review|add|put|remove|take|"
    r"delete|rename|create|make|start|fix|correct|change)\b",
    re.I,
)
"""A wish to change something ("I want to rate a book"): never a request for books."""

NOT_SURE_TEXT = (
    "I'm not sure what you mean here. Ask about this project's tasks, blockers or "
    "documents, or say what to change."
)

WORKSPACE_ACTIONS = frozenset(
    {
        "create_task",
        "update_task",
        "assign_task",
        "complete_task",
        "add_comment",
        "create_blocker",
        "resolve_blocker",
    }
)
"""The workspace tools that change something: what the parts of a several-change message
may do (a look-up read by meaning is not trusted inside one)."""

PART_FLOOR = 0.9
"""The least confidence a part of a several-change message needs to be read by meaning:
parts are short, and one misread part ("take me off X" read as completing X) would add a
change nobody asked for, where the whole message read alone proposes one right change."""


def _names_a_list(text: str, lists: Sequence[str]) -> bool:
    """Whether the message speaks of one of the reader's lists ("the books in Summer")."""
    return any(
        re.search(rf"\b(?:in|on|from|off)\s+(?:my\s+|the\s+)?{re.escape(name)}\b", text, re.I)
        for name in lists
    )


def _without_names(text: str, names: Sequence[str]) -> str:
    """The message with the given names taken out (longest first, whole words only)."""
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(name)}\b", " ", text, flags=re.I)
    return text


class ByMeaning:
    """Reads by meaning what the patterns missed; a mixin of `RulePolicy`."""

    layer: Understanding | None
    books: BookRules
    steps: BookSteps
    workspace: WorkspaceRules
    clock: Callable[[], datetime]
    _call: Callable[..., ToolCall]

    def _missed(
        self,
        text: str,
        system: str,
        available: set[str],
        it: Callable[[str], str],
        history: Sequence[Message],
    ) -> list[Step]:
        """A request no pattern matched: read by meaning, or a question; never a blind guess."""
        on_workspace = bool(WORKSPACE_PAGE.search(system))
        if self.layer is None:
            if on_workspace:
                return [lambda _: Clarification(NOT_SURE_TEXT, ()).response(MODEL_ID)]
            return self.books.search(text)
        names = names_from_prompt(system)
        if self._asks_for_books(text, system):
            # "find books about Panem" reads as a request for books: no reading needed.
            return self.books.search(text)
        tools = [t for t in WORKSPACE_TOOLS if t in available] if names.of("project") else []
        if not on_workspace:
            tools += [t for t in BOOK_TOOLS if t in available]
        reading = self._read(text, tools, names, on_workspace)
        if (
            not self.layer.confident(reading)
            and not on_workspace
            and _BOOK_WORDS.search(_without_names(text, names.of("list")))
            and not _CHANGE_WISH.search(text)
        ):
            # Unsure, but it reads as a request for books: the search is that reading (before
            # a look-up read below the floor: "novels about dragons" is no catalog overview).
            # A list's own name is no request for books ("delete Book club").
            return self.books.search(text)
        intent = self.layer.decided(reading)
        if intent is None:
            question = self.layer.clarify(reading)
            return [lambda _: question.response(MODEL_ID, unsure=True)]
        if intent in CONVERSATIONAL:
            workspace = on_workspace or bool(names.of("project"))
            reply = conversational_reply(intent, off_topic_text(workspace))
            return [lambda _: AIResponse(reply, model=MODEL_ID)]
        if intent == "search_books":
            return self.books.search(text)
        if intent in WORKSPACE_TOOLS:
            where = self._where(history, system)
            if intent == "resolve_blocker":
                # "what's blocking us" ... "resolve it": the one blocker the reply showed
                last = next((m.content for m in reversed(history) if m.role == "assistant"), "")
                text = shown_blocker_named(text, last or "")
            planned = plan_workspace(intent, text, names, where, self._call, self.clock())
        else:
            planned = plan_books(intent, text, names, it, self._call)
        if planned is None:
            return [lambda _: self.layer_question(reading)]
        if isinstance(planned, Clarification):
            asked = planned
            return [lambda _: asked.response(MODEL_ID)]
        calls = self.steps.each_book(planned)
        if intent == "get_book_details":
            return self.steps.details(calls[0], ("authors", "published_year", "description"))
        book_replies: dict[str, Callable[[_Done], str]] = {
            "get_reading_lists": _lists_reply,
            "get_list_details": _list_reply,
            "catalog_facets": _facets_reply,
        }
        # "there's a new comment on the patch, what does it say": read as a comment, planned
        # as the task's details; the reply tells what was looked up
        shown = calls[0].name if len(calls) == 1 and calls[0].name in WORKSPACE_TOOLS else intent
        told = read_reply(shown, text) or book_replies.get(intent) or _summary
        return [lambda _: calls, lambda done: AIResponse(told(done), model=MODEL_ID)]

    def _read(self, text: str, tools: list[str], names: Names, on_workspace: bool) -> Any:
        """The layer's reading of `text` among `tools`, with stored names masked."""
        assert self.layer is not None
        meaning = text
        if on_workspace or names.of("project"):
            # What follows a colon is what to write ("comment: vendor confirmed the window"),
            # not a reference: only the request before it is masked.
            head, colon, body = text.partition(":")
            meaning = masked(head, names) + colon + body
        reading = self.layer.read(meaning, tools, mentioned_kinds(text, names), said=text)
        return reading.without(ruled_out(text, names))

    def _where(self, history: Sequence[Message], system: str, task: str | None = None) -> Where:
        """What "it", "this project", "me" and "this document" mean for a workspace plan."""
        in_view, project = self.workspace.context(history, system)
        reader = names_from_prompt(system).of("reader")
        page = PAGE.search(system)
        document = page.group("id") if page and page.group("type") == "document" else None
        return Where(task or in_view, project, reader[0] if reader else None, document)

    def _workspace_parts(
        self, text: str, history: Sequence[Message], system: str, available: set[str]
    ) -> list[ToolCall]:
        """The changes of a message of several workspace changes, each part read alone.

        A part is read by the workspace patterns, else by meaning when the layer is sure
        (among the tools the whole message would be read among); `workspace_parts.py` says
        when the split stands.
        """
        layer = self.layer
        if layer is None:
            return []
        names = names_from_prompt(system)
        on_workspace = bool(WORKSPACE_PAGE.search(system))
        tools = [t for t in WORKSPACE_TOOLS if t in available]
        if not on_workspace:
            tools += [t for t in BOOK_TOOLS if t in available]

        def read(part: str, task: str | None) -> list[ToolCall] | None:
            stages = self.workspace.plan(part, history, system, it=task)
            if stages:
                first = stages[0](_Done([], []))
                return first if isinstance(first, list) else None
            reading = self._read(part, tools, names, on_workspace)
            if reading.confidence < PART_FLOOR:
                return None
            intent = layer.decided(reading)
            if intent not in WORKSPACE_ACTIONS:
                return None
            where = self._where(history, system, task)
            planned = plan_workspace(intent, part, names, where, self._call, self.clock())
            return planned if isinstance(planned, list) else None

        return changes_in_parts(text, read, WORKSPACE_ACTIONS, names.of("member"))

    def _requests_in_parts(
        self, text: str, history: Sequence[Message], system: str, available: set[str]
    ) -> list[Step]:
        """A message of two or three requests, one at least a look-up, answered in order.

        "any blockers on the vpn project? also remind me who's on the team": each part
        (`request_parts.py`) is read alone, by the workspace patterns or else by meaning when
        the layer is sure; a later part's "it" is the task an earlier part named, and a part
        that never says "it" ("...? also tell bob") has no task but its own. The split
        stands only when every part reads and one is a look-up (changes alone are
        `_workspace_parts`'); otherwise [] and the message is read whole, as before.
        """
        layer = self.layer
        parts = request_parts(text) if layer is not None else []
        if not parts:
            return []
        names = names_from_prompt(system)
        tools = [t for t in WORKSPACE_TOOLS if t in available]
        planned: list[tuple[list[ToolCall], Step]] = []
        task: str | None = None
        for part in parts:
            it = task if points_back(part) else None
            read = self._part_read(part, history, system, tools, names, it)
            if read is None:
                return []
            planned.append(read)
            named = [c.arguments.get("task_id") for c in read[0] if c.arguments.get("task_id")]
            task = str(named[-1]) if named else task
        calls = [c for part_calls, _ in planned for c in part_calls]
        if all(c.name in WORKSPACE_ACTIONS for c in calls):
            return []
        tools_asked = [{c.name for c in part_calls} for part_calls, _ in planned]
        if any(a & b for i, a in enumerate(tools_asked) for b in tools_asked[i + 1 :]):
            # "What's waiting on me? Anything overdue?": one request said twice, not two
            return []

        def reply(done: Any) -> AIResponse:
            texts, start = [], 0
            for part_calls, told in planned:
                end = start + len(part_calls)
                said = told(_Done(done.calls[start:end], done.results[start:end]))
                texts.append(said.text if isinstance(said, AIResponse) else "")
                start = end
            return AIResponse("\n\n".join(t for t in texts if t), model=MODEL_ID)

        return [lambda _: calls, reply]

    def _part_read(
        self,
        part: str,
        history: Sequence[Message],
        system: str,
        tools: list[str],
        names: Names,
        task: str | None,
    ) -> tuple[list[ToolCall], Step] | None:
        """One part's calls and its reply, read by a pattern or surely by meaning, or None."""
        assert self.layer is not None
        stages = self.workspace.plan(part, history, system, it=task)
        if stages:
            first = stages[0](_Done([], []))
            if not isinstance(first, list) or not first or len(stages) != 2:
                return None
            return first, stages[1]
        reading = self._read(part, tools, names, True)
        intent = self.layer.decided(reading)
        if reading.confidence < PART_FLOOR or intent not in WORKSPACE_TOOLS:
            return None
        where = self._where(history, system, task)
        planned = plan_workspace(intent, part, names, where, self._call, self.clock())
        if not isinstance(planned, list) or not planned:
            return None
        told = read_reply(intent, part) or _summary
        return planned, lambda done: AIResponse(told(done), model=MODEL_ID)

    @staticmethod
    def _asks_for_books(text: str, system: str) -> bool:
        """Whether the message reads as a request for books ("find books about Panem")."""
        return (
            not WORKSPACE_PAGE.search(system)
            and (
                bool(SEARCH_LEAD.match(text) and _BOOK_WORDS.search(text))
                or bool(TOPIC_LEAD.match(text))
            )
            and not re.search(r"\blists?\b", text, re.I)
            and not _names_a_list(text, names_from_prompt(system).of("list"))
        )

    def layer_question(self, reading: Any) -> AIResponse:
        """The layer's clarifying question for a reading no plan could fill."""
        assert self.layer is not None
        return self.layer.clarify(reading).response(MODEL_ID, unsure=True)
