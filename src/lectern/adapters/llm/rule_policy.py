"""`RulePolicy`: the offline, deterministic `ChatModel` that drives the same tool registry.

It reads the reader's last message with rules (regular expressions for the request's shape,
the query-understanding rules for searches), asks for the tools a model would, and writes
the reply from the tool results with cited quotes. A request is a short plan of stages; on
each call the policy finds how many stages the tool results already cover and takes the
next one. Nothing in a tool result is ever read as an instruction: the policy only looks at
the reader's own message, and at tool results for the ids and fields it needs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from lectern.adapters.llm.rule_replies import (
    _as_dict,
    _books,
    _books_reply,
    _decision,
    _details_reply,
    _facets_reply,
    _lead,
    _list_reply,
    _lists_reply,
    _parse,
    _summary,
)
from lectern.adapters.llm.workspace_replies import read_reply
from lectern.adapters.llm.workspace_rules import WorkspaceRules
from lectern.adapters.understanding.book_patterns import (
    ABOUT,
    ADD,
    CORRECT_AUTHOR,
    CORRECT_CATEGORY,
    CORRECT_LANGUAGE,
    CORRECT_YEAR,
    COUNT_ONTO_LIST,
    CREATE,
    DELETE,
    EXCLUDE_AUTHOR,
    EXCLUDE_CATEGORY,
    FACETS,
    FIND_AND_ADD,
    LANGUAGE_Q,
    LIST_DETAILS,
    LIST_WITH,
    LISTS,
    NOT_YOUTH,
    RATE,
    RATE_ALT,
    REMOVE,
    RENAME,
    SEARCH_LEAD,
    SIMILAR,
    WHEN,
    WHO_WROTE,
    like_but,
    second_question,
)
from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.compound import clauses, titles_in
from lectern.adapters.understanding.intent_examples import (
    BOOK_TOOLS,
    CONVERSATIONAL,
    WORKSPACE_TOOLS,
)
from lectern.adapters.understanding.layer import (
    Clarification,
    Understanding,
    conversational_reply,
    name_it,
)
from lectern.adapters.understanding.lexicon_data import LANGUAGE_NAMES
from lectern.adapters.understanding.mentions import (
    Names,
    masked,
    names_from_prompt,
    resolve,
)
from lectern.adapters.understanding.ruled_out import (
    mentioned_kinds,
    names_workspace_thing,
    ruled_out,
)
from lectern.adapters.understanding.scaffold import ASKING as _ASKING
from lectern.adapters.understanding.scaffold import NUMBER, Step
from lectern.adapters.understanding.scaffold import Done as _Done
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.scaffold import number as _number
from lectern.adapters.understanding.slots import list_name_of
from lectern.adapters.understanding.workspace_patterns import PAGE
from lectern.adapters.understanding.workspace_plan import Where, plan_workspace
from lectern.application.assistant.guardrails import CANNOT_APPROVE_TEXT, OFF_TOPIC_TEXT
from lectern.application.ports import QueryUnderstanding
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec

MODEL_ID = "rules:assistant-v1"
_NUMBER = NUMBER
_BOOK_ID = re.compile(r"book:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})#")
_PAGE_BOOK = re.compile(r"on a book page.*?\(id ([0-9a-f-]{36})\)")
_BOOK_WORDS = re.compile(
    r"\b(?:books?|novels?|reads|stories|story|fiction|poetry|poems|biograph\w*|memoirs?|"
    r"thrillers?|myster(?:y|ies)|romances?|sci-?fi|fantasy|horror)\b",
    re.I,
)
_WORKSPACE_PAGE = re.compile(r"on a (?:project|task|document) page", re.I)
NOT_SURE_TEXT = (
    "I'm not sure what you mean here. Ask about this project's tasks, blockers or "
    "documents, or say what to change."
)
_IT = re.compile(r"^(?:it|this|this book|that|that book|that one|this one|the book)$", re.I)
_THESE = re.compile(r"^(?:these|those|them|these books|those books|all of them|both)$", re.I)
"""Several books meant by pointing: which ones is asked, never one of them guessed."""
_LEAD_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|alright|all right|so|well|right|cool|great|nice|perfect|awesome|lovely|"
    r"sure|yes|yeah|yep|and|also|hmm+|um+|oh)\b"
    r"[\s,.!-]*)+(?=\S+\s+\S)",
    re.I,
)
"""Words that lead a request without being it ("ok add it to ...", "so what about ...")."""
_AT_MOST = re.compile(
    r"\b(?:nothing|none|not|no)\s+(?:(?:longer|more|bigger|larger|over)\s+than|over|above)\s+",
    re.I,
)
"""A limit said as a refusal ("nothing longer than 300 pages"): at most that many."""
_CONTRAST = re.compile(
    r"\b(?:says|shows|wrong|incorrect|should\s+be|fix|correct)\b|,\s*not\s+(?-i:[A-Z]|\d{4})"
    r"|\b(?:lists|has)\s+(?:it\s+as\s+)?\d{4}\b",
    re.I,
)
"""A correction sets the right value against what the record shows ("..., not Jan Needle")."""
_QUESTION = re.compile(r"\?\s*$|^(?:is|was|does|did|who|what|when|which|why|how)\b", re.I)
_UTTERLY = re.compile(
    r"\s+(?:entirely|completely|altogether|for\s+good|permanently|forever)$", re.I
)
"""How thoroughly to delete ("the list Summer entirely"): not part of the list's name."""
_PLEASE = re.compile(r"\b(?:pls|plz|pleas)\b", re.I)
_ACTIONS = frozenset(
    {
        "add_to_list",
        "remove_from_list",
        "rate_book",
        "create_list",
        "delete_list",
        "rename_list",
        "propose_correction",
    }
)
"""The book tools that change something: what the clauses of a compound request may do."""
_BY_AUTHOR = re.compile(
    r"^the\s+(?P<who>[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*)\s+(?:one|book|novel)$"
)
"""A book named by its author's name ("the Christie novel"), not by a title."""

_NO_NAME = re.compile(r"^(?:the|a|an|my|this|that|it|one|our)?$", re.I)
"""A list "name" that names nothing ("delete the list")."""
APPROVE_REQUEST = re.compile(
    r"\b(?:approve|confirm|accept|execute|run)\b.{0,40}\b(?:all|every|pending|actions?|changes?)\b",
    re.I,
)
OFF_TOPIC = re.compile(
    r"\b(?:weather|forecast|stock price|stocks?|bitcoin|crypto|joke|password|capital of|"
    r"football|recipe for|what time is it|who won|lottery|horoscope|translate|"
    r"ignore (?:all |your |the )?(?:previous |prior )?(?:instructions|rules)|system prompt|"
    r"write (?:me )?(?:a |an |some )?(?:code|python|program|script|essay|poem|haiku|song|limerick|"
    r"joke|cover letter))\b"
    # Arithmetic, but not the numbers of an identifier ("CVE-2024-24919?" is no subtraction).
    # Nor a rating ("4/5").
    r"|(?<![\w-])\d+(?!\s*/\s*5\b)\s*(?:[-+*/x]|times|plus|minus|divided\s+by)\s*\d+\s*(?:=|\?|$)",
    re.I,
)


_CONTENTS = re.compile(
    r"^(?:(?:show|tell)(?:\s+me)?\s+(?=what|which|the|in|on))?"
    r"(?:what(?:'?s| is| are)|show(?: me)?|list|which books are|open)\s+(?:the\s+)?"
    r"(?:books\s+)?(?:(?:in|on)\s+)?(?:my\s+|the\s+)?(?P<name>.+?)\W*$",
    re.I,
)
"""A list's contents asked for by the list's own name, no word "list" needed."""


_LIST_WITH_TITLES = re.compile(
    r"^(?:please\s+)?(?:make|create|start|set up|build)\s+(?:me\s+)?(?:a\s+)?(?:new\s+)?"
    r"(?:reading\s+)?list\s+(?:called\s+|named\s+|titled\s+)?(?P<name>.+?)\s+with\s+"
    r"(?P<books>.+?)(?P<on_it>\s+(?:on|in)\s+it)?\W*$",
    re.I,
)
"""A new list with the books it should hold, named rather than counted."""


_MOVE = re.compile(
    r"^(?:please\s+)?(?:move|shift|transfer|switch)\s+(?P<book>.+?)\s+(?:from|off)\s+"
    r"(?:my\s+|the\s+)?(?P<src>.+?)(?:\s+list)?\s+(?:to|onto|into|over\s+to)\s+"
    r"(?:my\s+|the\s+)?(?P<dst>.+?)(?:\s+list)?\W*$",
    re.I,
)
"""A book moved from one list to another: both named, both the reader's."""


def _names_a_list(text: str, lists: Sequence[str]) -> bool:
    """Whether the message speaks of one of the reader's lists ("the books in Summer")."""
    return any(
        re.search(rf"\b(?:in|on|from|off)\s+(?:my\s+|the\s+)?{re.escape(name)}\b", text, re.I)
        for name in lists
    )


@dataclass
class _Plan:
    steps: list[Step] = field(default_factory=list)


class _NoReferent(Exception):
    """'it' or 'this book' with nothing it can mean, or 'the Ishiguro one': ask, never guess."""


def _asking_which_book(plan: _Plan, error: _NoReferent) -> _Plan:
    who = str(error)
    if _IT.match(who):
        question = name_it("book", "use")
    elif _THESE.match(who):
        question = Clarification("Which books do you mean? Name their titles.", ())
    else:
        question = Clarification(f"Which book by {who} do you mean? Name its title.", ())
    plan.steps.append(lambda _: question.response(MODEL_ID))
    return plan


class RulePolicy:
    """A `ChatModel` by rules: the assistant works with no model and no network."""

    model_id = MODEL_ID

    def __init__(
        self,
        understanding: QueryUnderstanding | None = None,
        layer: Understanding | None = None,
        clock: Callable[[], datetime] | None = None,
        *,
        titles: Callable[[str], bool] | None = None,
    ) -> None:
        """Query-understanding rules filter searches; `layer` reads what patterns miss.

        Without a layer, a request no pattern matches is a book search. `clock` (the wall
        clock by default) reads relative due dates ("by Friday"). `titles` says whether
        words are a catalog title, so "Emma and Persuasion" is two books and "War and
        Peace" one; without it, a run of titles is never split.
        """
        self.understanding = understanding
        self.layer = layer
        self.titles = titles
        self.clock = clock or (lambda: datetime.now(UTC))
        self._counter = 0
        self.workspace = WorkspaceRules(self._call, self.clock)

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        """The next step for the last user message, given this turn's tool results."""
        del temperature, max_tokens
        available = {t.name for t in tools}
        if messages and messages[-1].role == "tool":
            decided = _decision(messages[-1].content)
            if decided is not None:
                return AIResponse(decided, model=MODEL_ID)
        start = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
        if start < 0:
            return AIResponse("Ask me about books, or about your reading lists.", model=MODEL_ID)
        request = messages[start].content
        done = _Done([], [])
        for message in messages[start + 1 :]:
            if message.role == "assistant":
                done.calls.extend(message.tool_calls)
            elif message.role == "tool":
                done.results.append(_parse(message.content))
        plan = self._plan(request, messages[:start], system, available)
        answered = 0
        for step in plan.steps:
            outcome = step(done)
            if isinstance(outcome, AIResponse):
                return outcome
            if answered + len(outcome) <= len(done.calls):
                answered += len(outcome)
                continue
            calls = [c for c in outcome if c.name in available]
            if not calls:
                return AIResponse(OFF_TOPIC_TEXT, model=MODEL_ID)
            return AIResponse(_lead(done), tuple(calls), model=MODEL_ID)
        return AIResponse(_summary(done), model=MODEL_ID)

    # --- planning -------------------------------------------------------------------------

    def _call(self, tool: str, **arguments: Any) -> ToolCall:
        self._counter += 1
        return ToolCall(f"rp-{self._counter}", tool, dict(arguments))

    def _plan(
        self,
        request: str,
        history: Sequence[Message],
        system: str,
        available: set[str],
        referent: str | None = None,
        *,
        nested: bool = False,
    ) -> _Plan:
        text = _PLEASE.sub("please", " ".join(request.split()))
        text = _ASKING.sub("", _LEAD_FILLER.sub("", text))
        plan = _Plan()
        it = self._it_resolver(history, system, text, referent)
        if APPROVE_REQUEST.search(text):
            plan.steps.append(lambda _: AIResponse(CANNOT_APPROVE_TEXT, model=MODEL_ID))
            return plan
        if "get_projects" in available:
            # Workspace requests first: a task may well mention a password or a translation.
            stages = self.workspace.plan(text, history, system)
            if stages:
                plan.steps.extend(stages)
                return plan
        if OFF_TOPIC.search(text):
            plan.steps.append(lambda _: AIResponse(OFF_TOPIC_TEXT, model=MODEL_ID))
            return plan
        names = names_from_prompt(system)
        if self.layer is not None and names_workspace_thing(text, system):
            # "tell me about the runbook task" names a task: not a book question.
            plan.steps.extend(self._missed(text, system, available, it, history))
            return plan
        for matcher in (
            self._list_with_books,
            self._find_and_add,
            self._compound(history, system, available, nested=nested),
            self._list_overview,
            self._list_details,
            functools.partial(self._named_list_contents, lists=names.of("list")),
            self._rename,
            self._create,
            functools.partial(self._move, lists=names.of("list")),
            self._remove,
            self._delete,
            functools.partial(self._add, lists=names.of("list")),
            self._rate,
            self._correction,
            self._similar,
            self._question,
            self._facets,
        ):
            try:
                steps = matcher(text, it)
            except _NoReferent as error:
                return _asking_which_book(plan, error)
            if steps:
                plan.steps.extend(steps)
                return plan
        try:
            plan.steps.extend(self._missed(text, system, available, it, history))
        except _NoReferent as error:
            return _asking_which_book(plan, error)
        return plan

    def _missed(
        self,
        text: str,
        system: str,
        available: set[str],
        it: Callable[[str], str],
        history: Sequence[Message],
    ) -> list[Step]:
        """A request no pattern matched: read by meaning, or a question; never a blind guess."""
        on_workspace = bool(_WORKSPACE_PAGE.search(system))
        if self.layer is None:
            if on_workspace:
                return [lambda _: Clarification(NOT_SURE_TEXT, ()).response(MODEL_ID)]
            return self._search(text)
        names = names_from_prompt(system)
        if (
            not on_workspace
            and SEARCH_LEAD.match(text)
            and _BOOK_WORDS.search(text)
            and not re.search(r"\blists?\b", text, re.I)
            and not _names_a_list(text, names.of("list"))
        ):
            # "find books about Panem" reads as a request for books: no reading needed.
            return self._search(text)
        tools = [t for t in WORKSPACE_TOOLS if t in available] if names.of("project") else []
        if not on_workspace:
            tools += [t for t in BOOK_TOOLS if t in available]
        meaning = text
        if on_workspace or names.of("project"):
            # What follows a colon is what to write ("comment: vendor confirmed the window"),
            # not a reference: only the request before it is masked.
            head, colon, body = text.partition(":")
            meaning = masked(head, names) + colon + body
        reading = self.layer.read(meaning, tools, mentioned_kinds(text, names), said=text)
        reading = reading.without(ruled_out(text, names))
        if not self.layer.confident(reading) and not on_workspace and _BOOK_WORDS.search(text):
            # Unsure, but it reads as a request for books: the search is that reading (before
            # a look-up read below the floor: "novels about dragons" is no catalog overview).
            return self._search(text)
        intent = self.layer.decided(reading)
        if intent is None:
            question = self.layer.clarify(reading)
            return [lambda _: question.response(MODEL_ID, unsure=True)]
        if intent in CONVERSATIONAL:
            reply = conversational_reply(intent, OFF_TOPIC_TEXT)
            return [lambda _: AIResponse(reply, model=MODEL_ID)]
        if intent == "search_books":
            return self._search(text)
        if intent in WORKSPACE_TOOLS:
            task, project = self.workspace.context(history, system)
            reader = names.of("reader")
            page = PAGE.search(system)
            document = page.group("id") if page and page.group("type") == "document" else None
            where = Where(task, project, reader[0] if reader else None, document)
            planned = plan_workspace(intent, text, names, where, self._call, self.clock())
        else:
            planned = plan_books(intent, text, names, it, self._call)
        if planned is None:
            return [lambda _: self.layer_question(reading)]
        if isinstance(planned, Clarification):
            asked = planned
            return [lambda _: asked.response(MODEL_ID)]
        calls = self._each_book(planned)
        if intent == "get_book_details":
            return self._details(calls[0], ("authors", "published_year", "description"))
        book_replies: dict[str, Callable[[_Done], str]] = {
            "get_reading_lists": _lists_reply,
            "get_list_details": _list_reply,
            "catalog_facets": _facets_reply,
        }
        told = read_reply(intent, text) or book_replies.get(intent) or _summary
        return [lambda _: calls, lambda done: AIResponse(told(done), model=MODEL_ID)]

    def layer_question(self, reading: Any) -> AIResponse:
        """The layer's clarifying question for a reading no plan could fill."""
        assert self.layer is not None
        return self.layer.clarify(reading).response(MODEL_ID, unsure=True)

    def _it_resolver(
        self, history: Sequence[Message], system: str, text: str = "", referent: str | None = None
    ) -> Callable[[str], str]:
        """'it' and 'this book' mean the page's book, else the last book the reply cited.

        In a later clause of a compound request, `referent` (the book an earlier clause
        named) comes first. "It" written with a capital inside a sentence with nothing to
        point at is Stephen King's novel, not a pronoun ("drop It from the horror list").
        """
        page = _PAGE_BOOK.search(system)
        titled_it = re.search(r"(?<=\S\s)It\b", text) is not None
        last: str | None = None
        for message in reversed(history):
            if message.role == "assistant":
                found = _BOOK_ID.findall(message.content)
                if found:
                    last = found[0]
                    break

        def resolve(reference: str) -> str:
            reference = _clean(reference)
            if _THESE.match(reference):
                raise _NoReferent(reference)
            if _IT.match(reference):
                if referent:
                    return referent
                if reference == "It" and titled_it:
                    return reference
                if page is not None:
                    return page.group(1)
                if last is not None:
                    return last
                # "rate it 4 stars" with no book on the page or in the talk so far.
                raise _NoReferent(reference)
            by_author = _BY_AUTHOR.match(reference)
            if by_author:
                # "the Ishiguro one": an author, not a title; which of their books is open.
                raise _NoReferent(by_author.group("who"))
            return reference

        return resolve

    def _search_call(self, query: str, limit: int = 5) -> ToolCall:
        query = _AT_MOST.sub("at most ", _clean(query))
        arguments: dict[str, Any] = {}
        if NOT_YOUTH.search(query):
            # "fantasy but nothing YA": the youth shelves are left out, not searched for.
            arguments["exclude_youth"] = True
            query = NOT_YOUTH.sub("", query).strip(" ,")
        authors = [
            name.strip()
            for m in EXCLUDE_AUTHOR.finditer(query)
            for name in re.split(r"\s*,\s*|\s+(?:or|and|nor)\s+", m.group("author"))
            if name.strip()
        ]  # "isn't by King or Koontz": both left out
        query = EXCLUDE_AUTHOR.sub("", query)
        categories = [m.group("category").strip() for m in EXCLUDE_CATEGORY.finditer(query)]
        query = EXCLUDE_CATEGORY.sub("", query).strip(" ,")
        if authors:
            arguments["exclude_authors"] = authors
        if categories:
            arguments["exclude_categories"] = categories
        if self.understanding is not None:
            filters = self.understanding.plan(query).filters
            for name in ("language", "min_year", "max_year", "min_pages", "max_pages"):
                value = getattr(filters, name)
                if value is not None:
                    arguments[name] = value
        return self._call("search_books", query=query, limit=limit, **arguments)

    def _search(self, text: str) -> list[Step]:
        query = SEARCH_LEAD.sub("", text)
        limit = 5
        counted = re.match(rf"^{_NUMBER}\s+(?P<rest>.+)$", query, re.I)
        if counted:
            limit, query = _number(counted.group("n"), 5), counted.group("rest")
        call = self._search_call(query or text, limit)
        return [lambda _: [call], lambda done: AIResponse(_books_reply(done, call), model=MODEL_ID)]

    def _list_with_titles(self, text: str) -> list[Step]:
        """A new list and the books named for it ("a list X with Emma and Persuasion on it")."""
        match = _LIST_WITH_TITLES.match(text)
        if not match:
            return []
        name = _clean(list_name_of(text) or match.group("name"))
        run = match.group("books")
        if self.titles is not None:
            books = titles_in(run, self.titles)
            if not all(self.titles(b) for b in books):
                return []
        elif match.group("on_it"):
            books = [run]
        else:
            return []
        if not name or _NO_NAME.match(name):
            return []
        calls = [self._call("create_list", name=name)]
        calls += [self._call("add_to_list", list=name, book=book) for book in books]
        return self._single_calls(calls)

    def _list_with_books(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """A compound request: a new list, filled in the same turn ("with two ...", "and add X")."""
        match = LIST_WITH.match(text)
        if not match:
            return self._list_with_titles(text)
        name = _clean(list_name_of(text) or match.group("name"))
        if not name:
            return []
        added = match.group("book")
        counted = re.match(rf"^{_NUMBER}\s+(?P<rest>.+)$", added or "", re.I)
        if added and not counted:
            book = it(added)
            calls = [
                self._call("create_list", name=name),
                self._call("add_to_list", list=name, book=book),
            ]
            return [lambda _: calls, lambda done: AIResponse(_summary(done), model=MODEL_ID)]
        # "with two dystopian novels", or "and put two cozy mysteries on it": a count and a
        # search, not a book named "two cozy mysteries".
        query = counted.group("rest") if counted else match.group("query")
        count = counted.group("n") if counted else match.group("n")
        adults = bool(NOT_YOUTH.search(query))
        query = NOT_YOUTH.sub("", query).strip(" ,")
        search = self._search_call(query, _number(count, 3))
        if adults and not search.arguments.get("exclude_youth"):
            search = ToolCall(search.id, search.name, {**search.arguments, "exclude_youth": True})

        def propose(done: _Done) -> AIResponse | list[ToolCall]:
            books = _books(done.results[-1] if done.results else None)
            if not books:
                return AIResponse(_books_reply(done, search), model=MODEL_ID)
            return [self._call("create_list", name=name)] + [
                self._call("add_to_list", list=name, book=b["book_id"]) for b in books
            ]

        return [lambda _: [search], propose]

    def _find_and_add(self, text: str, it: Callable[[str], str]) -> list[Step]:
        del it
        match = FIND_AND_ADD.match(text) or COUNT_ONTO_LIST.match(text)
        if not match:
            return []
        name = _clean(match.group("name1") or match.group("name2"))
        search = self._search_call(match.group("query"), _number(match.group("n"), 3))
        new = bool(match.group("new")) or bool(match.group("name1"))

        def propose(done: _Done) -> AIResponse | list[ToolCall]:
            books = _books(done.results[-1] if done.results else None)
            if not books:
                return AIResponse(_books_reply(done, search), model=MODEL_ID)
            calls = [self._call("create_list", name=name)] if new else []
            calls += [self._call("add_to_list", list=name, book=b["book_id"]) for b in books]
            return calls

        return [lambda _: [search], propose]

    def _compound(
        self, history: Sequence[Message], system: str, available: set[str], *, nested: bool
    ) -> Callable[[str, Callable[[str], str]], list[Step]]:
        """Several changes in one message ("add X to Y and rate it 4"), each clause read alone.

        A later clause's "it" is the book an earlier one named. Every clause must plan
        changes with no question; otherwise the message is read whole, as before.
        """

        def matcher(text: str, it: Callable[[str], str]) -> list[Step]:
            del it
            parts = [] if nested else clauses(text)
            if not parts:
                return []
            calls: list[ToolCall] = []
            referent: str | None = None
            for part in parts:
                try:
                    sub = self._plan(part, history, system, available, referent, nested=True)
                except _NoReferent:
                    return []
                first = sub.steps[0](_Done([], [])) if len(sub.steps) == 2 else None
                if not isinstance(first, list) or not first:
                    return []
                if any(c.name not in _ACTIONS for c in first):
                    return []
                calls.extend(first)
                books = [c.arguments["book"] for c in first if c.arguments.get("book")]
                referent = str(books[-1]) if books else referent
            return self._single_calls(calls)

        return matcher

    def _single_calls(self, calls: list[ToolCall]) -> list[Step]:
        return [lambda _: calls, lambda done: AIResponse(_summary(done), model=MODEL_ID)]

    def _each_book(self, calls: list[ToolCall]) -> list[ToolCall]:
        """A list entry naming several catalog titles ("Emma and Persuasion") is one per book."""
        if self.titles is None:
            return calls
        spread: list[ToolCall] = []
        for call in calls:
            book = call.arguments.get("book")
            if call.name not in ("add_to_list", "remove_from_list") or not isinstance(book, str):
                spread.append(call)
                continue
            named = titles_in(book, self.titles)
            if len(named) == 1:
                spread.append(call)
                continue
            spread.extend(self._call(call.name, **{**call.arguments, "book": b}) for b in named)
        return spread

    def _list_overview(self, text: str, it: Callable[[str], str]) -> list[Step]:
        del it
        if not LISTS.search(text):
            return []
        call = self._call("get_reading_lists")
        return [lambda _: [call], lambda done: AIResponse(_lists_reply(done), model=MODEL_ID)]

    def _list_details(self, text: str, it: Callable[[str], str]) -> list[Step]:
        del it
        match = LIST_DETAILS.match(text)
        if not match:
            return []
        call = self._call("get_list_details", list=_clean(match.group("name")))
        return [lambda _: [call], lambda done: AIResponse(_list_reply(done), model=MODEL_ID)]

    def _move(self, text: str, it: Callable[[str], str], lists: Sequence[str]) -> list[Step]:
        """A book moved between two of the reader's lists: off one, onto the other."""
        match = _MOVE.match(text)
        if not match:
            return []
        ends = [resolve(_clean(match.group(g)), lists, cutoff=85).name for g in ("src", "dst")]
        if not lists or None in ends:
            return []
        book = it(match.group("book"))
        return self._single_calls(
            [
                self._call("remove_from_list", list=ends[0], book=book),
                self._call("add_to_list", list=ends[1], book=book),
            ]
        )

    def _named_list_contents(
        self, text: str, it: Callable[[str], str], lists: Sequence[str]
    ) -> list[Step]:
        """One of the reader's lists asked for by name ("what's in Summer?")."""
        del it
        match = _CONTENTS.match(text)
        if not match:
            return []
        named = _clean(match.group("name")).casefold()
        chosen = next((name for name in lists if name.casefold() == named), None)
        if chosen is None:
            return []
        call = self._call("get_list_details", list=chosen)
        return [lambda _: [call], lambda done: AIResponse(_list_reply(done), model=MODEL_ID)]

    def _single(self, call: ToolCall) -> list[Step]:
        return self._single_calls(self._each_book([call]))

    def _create(self, text: str, it: Callable[[str], str]) -> list[Step]:
        del it
        match = CREATE.match(text)
        if not match:
            return []
        # "called Travel and leave it empty": the name ends where the request goes on.
        name = list_name_of(text) or _clean(match.group("name"))
        return self._single(self._call("create_list", name=name))

    def _rename(self, text: str, it: Callable[[str], str]) -> list[Step]:
        del it
        match = RENAME.match(text)
        if not match:
            return []
        old = _clean(match.group("old1") or match.group("old2"))
        if _NO_NAME.match(old):
            # "rename my list to X" names no list: which one is asked.
            return [lambda _: name_it("list", "rename").response(MODEL_ID)]
        return self._single(
            self._call("rename_list", list=old, new_name=_clean(match.group("new")))
        )

    def _delete(self, text: str, it: Callable[[str], str]) -> list[Step]:
        del it
        match = DELETE.match(text)
        if not match:
            return []
        name = _UTTERLY.sub("", _clean(match.group("name1") or match.group("name2")))
        if _NO_NAME.match(name):
            # "delete the list" names none: deleting cannot be undone, so ask which.
            return [lambda _: name_it("list", "delete").response(MODEL_ID)]
        return self._single(self._call("delete_list", list=name))

    def _add(self, text: str, it: Callable[[str], str], lists: Sequence[str] = ()) -> list[Step]:
        match = ADD.match(text)
        if not match:
            return []
        named = _clean(match.group("list1") or match.group("list2"))
        if lists and resolve(named, lists, cutoff=85).name is None:
            # "my horror list" when the reader has none: make it, or which of theirs?
            asked = Clarification(
                f"You have no list called {named!r}. Should I create it, or add it to one of "
                "your lists?",
                (f"create a list called {named}", *list(lists)[:2]),
            )
            return [lambda _: asked.response(MODEL_ID)]
        arguments: dict[str, Any] = {"list": named, "book": it(match.group("book"))}
        if match.group("note"):
            arguments["note"] = _clean(match.group("note"))
        return self._single(self._call("add_to_list", **arguments))

    def _remove(self, text: str, it: Callable[[str], str]) -> list[Step]:
        match = REMOVE.match(text)
        if not match:
            return []
        return self._single(
            self._call(
                "remove_from_list",
                list=_clean(match.group("list1") or match.group("list2")),
                book=it(match.group("book")),
            )
        )

    def _rate(self, text: str, it: Callable[[str], str]) -> list[Step]:
        match = RATE.match(text) or RATE_ALT.match(text)
        if not match:
            return []
        arguments: dict[str, Any] = {
            "book": it(match.group("book")),
            "stars": _number(match.group("stars"), 3),
        }
        review = match.groupdict().get("review")
        if review:
            arguments["review"] = _clean(review)
        return self._single(self._call("rate_book", **arguments))

    def _correction(self, text: str, it: Callable[[str], str]) -> list[Step]:
        year = CORRECT_YEAR.search(text)
        if year:
            book = year.group("book") or year.group("book2")
            published = int(year.group("year") or year.group("year2"))
            return self._single(
                self._call("propose_correction", book=it(book), published_year=published)
            )
        language = CORRECT_LANGUAGE.search(text)
        if language:
            book = language.group("book") or language.group("book2")
            value = _clean(language.group("language") or language.group("language2"))
            return self._single(self._call("propose_correction", book=it(book), language=value))
        author = CORRECT_AUTHOR.search(text)
        if author:
            book = author.group("book") or author.group("book2")
            names = _clean(author.group("author") or author.group("author2"))
            return self._single(
                self._call(
                    "propose_correction",
                    book=it(book),
                    authors=[n.strip() for n in re.split(r"\s+and\s+|,", names) if n.strip()],
                )
            )
        category = CORRECT_CATEGORY.search(text)
        if category:
            book = category.group("book") or category.group("book2")
            value = _clean(category.group("category") or category.group("category2"))
            if value.casefold() in LANGUAGE_NAMES:
                # "should be listed as French": a language, not a shelf.
                return self._single(self._call("propose_correction", book=it(book), language=value))
            return self._single(self._call("propose_correction", book=it(book), categories=[value]))
        return self._stated_correction(text, it)

    def _stated_correction(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """A right value set against the record's ("X says 2006 but it came out in 1851")."""
        if not _CONTRAST.search(text) or _QUESTION.search(text) or SEARCH_LEAD.match(text):
            return []
        planned = plan_books("propose_correction", text, Names(), it, self._call)
        if not isinstance(planned, list) or not planned:
            return []
        return self._single_calls(planned)

    def _similar(self, text: str, it: Callable[[str], str]) -> list[Step]:
        match = SIMILAR.search(text)
        if not match:
            return []
        named, adults, tail = like_but(next(v for v in match.groups() if v))
        title = it(named)
        arguments: dict[str, object] = {"book": title, "limit": 5}
        if adults:
            arguments["exclude_youth"] = True
        similar = self._call("similar_books", **arguments)
        fallback = self._search_call(text)
        if tail and not adults:
            # A "but ..." no tool can hold ("but shorter", "but funnier"): say so, not ignore it.
            unheld = f'(I could not narrow them by "{tail}": these are the nearest books.) '
        else:
            unheld = ""

        def answer(done: _Done) -> AIResponse | list[ToolCall]:
            if done.results and "error" in _as_dict(done.results[0]):
                return [fallback]  # the title is not in the catalog: search its words
            return AIResponse(unheld + _books_reply(done, similar), model=MODEL_ID)

        def after_fallback(done: _Done) -> AIResponse:
            return AIResponse(_books_reply(done, fallback), model=MODEL_ID)

        return [lambda _: [similar], answer, after_fallback]

    def _question(self, text: str, it: Callable[[str], str]) -> list[Step]:
        for pattern, fields in (
            (WHO_WROTE, ("authors",)),
            (WHEN, ("published_year",)),
            (LANGUAGE_Q, ("language",)),
            (ABOUT, ("description", "categories")),
        ):
            match = pattern.match(text)
            if match:
                title = next(v for k, v in match.groupdict().items() if v and k.startswith("title"))
                title, more = second_question(title)
                fields = tuple(dict.fromkeys((*fields, *more)))
                return self._details(self._call("get_book_details", book=it(title)), fields)
        return []

    @staticmethod
    def _details(call: ToolCall, fields: tuple[str, ...]) -> list[Step]:
        return [
            lambda _: [call],
            lambda done: AIResponse(_details_reply(done, fields), model=MODEL_ID),
        ]

    def _facets(self, text: str, it: Callable[[str], str]) -> list[Step]:
        del it
        if not FACETS.search(text):
            return []
        call = self._call("catalog_facets", top=10)
        return [lambda _: [call], lambda done: AIResponse(_facets_reply(done), model=MODEL_ID)]


# --- replies from tool results ----------------------------------------------------------
