"""The scripted conversation set: did the assistant call the right tools, and end right?

Each case sets up a user's lists and ratings, sends one or more messages, approves every
proposed action (in the order proposed) when the case says so, and compares:
- tools: the calls of the last turn, in order, against the expected tool names and
  arguments (equal, case-insensitive for text; `contains` for substrings);
- end state: the user's lists (name -> titles) and ratings (title -> stars), and the number
  of corrections, against the expected ones (the setup unchanged when none are given).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from lectern.application.assistant.ports import LibraryStore
from lectern.application.assistant.service import AssistantService, ChatReply
from lectern.application.evaluation.packaged import packaged_text
from lectern.application.ports import BookCatalog
from lectern.domain.assistant import PageContext, ToolCall
from lectern.domain.library import Rating
from lectern.domain.normalize.languages import language_code
from lectern.errors import DatasetError, LecternError

CONVERSATIONS_FILE = "assistant_conversations.json"
_UUID = re.compile(r"(?:book:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True, slots=True)
class ExpectedCall:
    """One tool call a case expects."""

    tool: str
    args: Mapping[str, Any] = field(default_factory=dict)
    contains: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConversationCase:
    """One scripted request and what should come of it."""

    id: str
    kind: str
    turns: tuple[str, ...]
    calls: tuple[ExpectedCall, ...]
    approve: bool = False
    setup_lists: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    setup_ratings: Mapping[str, int] = field(default_factory=dict)
    expect_lists: Mapping[str, Any] | None = None
    """List name -> titles, or -> a number of books (any titles)."""
    expect_ratings: Mapping[str, int] | None = None
    expect_corrections: int = 0
    page_book: str | None = None
    expect_clarify: bool = False
    """The right reply is one clarifying question: no tool call, nothing changed."""
    expect_intent: str | None = None
    """A conversational intent (greeting, thanks, capabilities, off_topic): no tool call."""


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """How one case went."""

    id: str
    kind: str
    tools_ok: bool
    state_ok: bool
    calls: list[dict[str, Any]]
    state: dict[str, Any]
    problems: list[str]
    seconds: float
    clarified: bool = False
    """The last turn asked a question back instead of calling a tool."""
    proposed: tuple[str, ...] = ()
    """The tools of the actions the last turn proposed."""
    turn_ms: tuple[float, ...] = ()
    """How long each message took to answer."""
    suggestions: tuple[str, ...] = ()
    reply: str = ""
    """The last turn's text (a question back says why it asks)."""


def asked_back(reply: ChatReply) -> bool:
    """Whether a reply is a clarifying question: no tool, no action, a question or choices."""
    if reply.tool_calls or reply.actions:
        return False
    return bool(reply.suggestions) or "?" in reply.text


def load_conversations(path: Path | None = None) -> list[ConversationCase]:
    """The packaged conversation set, or the file at `path`."""
    try:
        text = packaged_text(CONVERSATIONS_FILE, path)
        raw = json.loads(text)
        return [_case(item) for item in raw["cases"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise DatasetError(f"cannot read the conversation set: {error}") from error


def _case(item: Mapping[str, Any]) -> ConversationCase:
    turns = item["turns"] if "turns" in item else [item["request"]]
    setup = item.get("setup", {})
    expect = item.get("expect_state", {})
    return ConversationCase(
        id=str(item["id"]),
        kind=str(item["kind"]),
        turns=tuple(str(t) for t in turns),
        calls=tuple(
            ExpectedCall(str(c["tool"]), dict(c.get("args", {})), dict(c.get("contains", {})))
            for c in item.get("expect_calls", [])
        ),
        approve=bool(item.get("approve", False)),
        setup_lists={k: tuple(v) for k, v in setup.get("lists", {}).items()},
        setup_ratings=dict(setup.get("ratings", {})),
        expect_lists=expect.get("lists"),
        expect_ratings=expect.get("ratings"),
        expect_corrections=int(expect.get("corrections", 0)),
        page_book=item.get("page_book"),
        expect_clarify=bool(item.get("expect_clarify", False)),
        expect_intent=item.get("expect_intent"),
    )


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, str) and isinstance(got, str):
        return expected.casefold() == got.casefold()
    if isinstance(expected, list) and isinstance(got, list):
        return len(expected) == len(got) and all(
            _same(e, g) for e, g in zip(expected, got, strict=True)
        )
    return bool(expected == got)


def check_calls(
    expected: Sequence[ExpectedCall],
    got: Sequence[ToolCall],
    book_id: Callable[[str], str | None] | None = None,
) -> list[str]:
    """What differs between the expected calls and the calls made (empty: they match).

    `book_id` maps a title (or an id) to its catalog id: a `book` given as the id of the
    expected title (the book of the page the reader is on) names the same book.
    """
    problems = []
    if [c.tool for c in expected] != [c.name for c in got]:
        return [f"tools {[c.name for c in got]} instead of {[c.tool for c in expected]}"]
    for want, call in zip(expected, got, strict=True):
        for name, value in want.args.items():
            given = call.arguments.get(name)
            if name == "language" and isinstance(given, str) and isinstance(value, str):
                # The tool takes a name or a code ("English" and "en" correct alike).
                given, value = language_code(given) or given, language_code(value) or value
            if (
                name == "book"
                and book_id is not None
                and isinstance(given, str)
                and isinstance(value, str)
                and given != value
                and book_id(given) == book_id(value) is not None
            ):
                given = value  # the same catalog book, by its id
            if not _same(value, given):
                problems.append(f"{call.name}.{name} = {call.arguments.get(name)!r}, not {value!r}")
        for name, part in want.contains.items():
            if part.casefold() not in str(call.arguments.get(name, "")).casefold():
                problems.append(f"{call.name}.{name} lacks {part!r}")
    return problems


class ConversationRunner:
    """Runs cases against one assistant; each case has its own user, so state is separate."""

    def __init__(
        self,
        assistant: AssistantService,
        library: LibraryStore,
        catalog: BookCatalog,
        resolve_title: Callable[[str], str | None],
    ) -> None:
        """`resolve_title` maps a title in the set to a book id of the catalog."""
        self.assistant = assistant
        self.library = library
        self.catalog = catalog
        self.resolve_title = resolve_title

    def run(self, cases: Sequence[ConversationCase]) -> dict[str, Any]:
        """Every case, and the shares of cases whose tools and end state were right."""
        outcomes = [self.run_case(case) for case in cases]
        count = len(outcomes) or 1
        by_kind: dict[str, list[CaseOutcome]] = {}
        for outcome in outcomes:
            by_kind.setdefault(outcome.kind, []).append(outcome)
        return {
            "cases": len(outcomes),
            "tool_accuracy": round(sum(o.tools_ok for o in outcomes) / count, 4),
            "state_accuracy": round(sum(o.state_ok for o in outcomes) / count, 4),
            "both": round(sum(o.tools_ok and o.state_ok for o in outcomes) / count, 4),
            "by_kind": {
                kind: {
                    "cases": len(group),
                    "tools": sum(o.tools_ok for o in group),
                    "state": sum(o.state_ok for o in group),
                }
                for kind, group in sorted(by_kind.items())
            },
            "mean_seconds": round(sum(o.seconds for o in outcomes) / count, 4),
            "failures": [
                {"id": o.id, "problems": o.problems, "calls": o.calls}
                for o in outcomes
                if not (o.tools_ok and o.state_ok)
            ],
        }

    def run_case(self, case: ConversationCase) -> CaseOutcome:
        """Set up, talk, approve, compare."""
        started = time.perf_counter()
        user = f"eval-{case.id}-{uuid.uuid4().hex[:8]}"
        problems: list[str] = []
        self._setup(user, case)
        page = None
        if case.page_book:
            page = PageContext("book", self.resolve_title(case.page_book), case.page_book)
        conversation = None
        calls: list[ToolCall] = []
        last: ChatReply | None = None
        turn_ms: list[float] = []
        try:
            for text in case.turns:
                asked = time.perf_counter()
                reply = self.assistant.chat(user, text, conversation=conversation, page=page)
                turn_ms.append((time.perf_counter() - asked) * 1000)
                last = reply
                conversation = reply.conversation
                calls = list(reply.tool_calls)
                if case.approve:
                    for action in reply.actions:
                        self.assistant.approve(user, action.id)
        except LecternError as error:
            problems.append(f"error: {error}")
        call_problems = check_calls(case.calls, calls, self._book_id)
        problems += call_problems
        state = self._state(user)
        state_problems = self._compare(case, state)
        problems += state_problems
        return CaseOutcome(
            case.id,
            case.kind,
            not call_problems and not any(p.startswith("error") for p in problems),
            not state_problems,
            [{"tool": c.name, "args": dict(c.arguments)} for c in calls],
            state,
            problems,
            time.perf_counter() - started,
            clarified=last is not None and asked_back(last),
            proposed=tuple(a.preview.tool_name for a in last.actions) if last is not None else (),
            turn_ms=tuple(turn_ms),
            suggestions=last.suggestions if last is not None else (),
            reply=last.text if last is not None else "",
        )

    def _setup(self, user: str, case: ConversationCase) -> None:
        now = self.assistant.clock()
        made = len(case.setup_lists)
        for position, (name, titles) in enumerate(case.setup_lists.items()):
            list_id = str(uuid.uuid4())
            # Lists are listed oldest first: one millisecond apart in the setup's order, so
            # "the second one" is the setup's second (one shared instant left it to the ids).
            created = now - timedelta(milliseconds=made - position)
            self.library.create_list(user, list_id, name, created)
            for order, title in enumerate(titles):
                book = self._book(title)
                # A list keeps the order its books were added in: one microsecond apart and
                # before the conversation, so the setup's order is the list's and a book the
                # conversation adds comes last (one shared instant left it to the book ids).
                added = now - timedelta(microseconds=len(titles) - order)
                self.library.add_entry(user, list_id, book, None, added)
        for title, stars in case.setup_ratings.items():
            self.library.put_rating(Rating(user, self._book(title), stars, None, now))

    def _book_id(self, book: str) -> str | None:
        """A book argument's catalog id: an id as it is, a title resolved."""
        if _UUID.fullmatch(book):
            return book
        return self.resolve_title(book)

    def _book(self, title: str) -> str:
        found = self.resolve_title(title)
        if found is None:
            raise DatasetError(f"the conversation set names {title!r}, not in the catalog")
        return found

    def _state(self, user: str) -> dict[str, Any]:
        ids = {e.book_id for r in self.library.lists(user) for e in r.entries}
        ids |= {r.book_id for r in self.library.ratings(user)}
        titles = {str(b.id): b.title for b in self.catalog.get_many([uuid.UUID(i) for i in ids])}
        return {
            "lists": {
                r.name: [titles.get(e.book_id, e.book_id) for e in r.entries]
                for r in self.library.lists(user)
            },
            "ratings": {
                titles.get(r.book_id, r.book_id): r.stars for r in self.library.ratings(user)
            },
            "corrections": len(self.library.corrections(user)),
        }

    @staticmethod
    def _compare(case: ConversationCase, state: dict[str, Any]) -> list[str]:
        problems = []
        want_lists = {
            name: want if isinstance(want, int) else [_as_said(t) for t in want]
            for name, want in (
                case.expect_lists
                if case.expect_lists is not None
                else {k: list(v) for k, v in case.setup_lists.items()}
            ).items()
        }
        lists = {name: [_as_said(t) for t in have] for name, have in state["lists"].items()}
        if set(want_lists) != set(lists):
            problems.append(f"lists {sorted(lists)} instead of {sorted(want_lists)}")
        else:
            for name, want in want_lists.items():
                have = lists[name]
                ok = len(have) == want if isinstance(want, int) else have == list(want)
                if not ok:
                    problems.append(f"list {name!r} holds {have}, not {want}")
        want_ratings = (
            case.expect_ratings if case.expect_ratings is not None else dict(case.setup_ratings)
        )
        ratings = {_as_said(t): stars for t, stars in state["ratings"].items()}
        if {_as_said(t): stars for t, stars in dict(want_ratings).items()} != ratings:
            problems.append(f"ratings {state['ratings']} instead of {dict(want_ratings)}")
        if state["corrections"] != case.expect_corrections:
            problems.append(f"{state['corrections']} corrections, not {case.expect_corrections}")
        return problems


def _as_said(title: str) -> str:
    """A title as a reader says it: a subtitled catalog title without its subtitle.

    The sets name "The Devil in the White City"; the catalog holds it with ": Murder, Magic,
    and Madness ...". Both sides of a comparison are read this way.
    """
    return title.split(":", 1)[0].strip()
