""" "The Austen one" just after a list was shown is that list's one Austen (dev19).

"what's on my Classics list?" then "remove the Austen one, I've read it like 5 times" had
been asked which Austen: the list shown holds one, so it is meant. Two of the writer's
books on the list, or none, are still asked about, never guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

BOOKS = {
    "pride and prejudice": ("Pride and Prejudice", "Jane Austen"),
    "emma": ("Emma", "Jane Austen"),
    "great expectations": ("Great Expectations", "Charles Dickens"),
    "middlemarch": ("Middlemarch", "George Eliot"),
    "dracula": ("Dracula", "Bram Stoker"),
}
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", "- list: Classics", "- list: Summer"])


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = BOOKS.get(" ".join(title.casefold().split()))
    return [(found[0], found[1], 10)] if found else []


def _reply(said: str, shown: Sequence[str]) -> Any:
    rows = "\n".join(f"{n}. {title}" for n, title in enumerate(shown, start=1))
    history = [
        Message("user", "what's on my Classics list?"),
        Message("assistant", f"Your list 'Classics':\n{rows}"),
        Message("user", said),
    ]
    policy = RulePolicy(titles=lambda words: bool(_books(words)), books=_books)
    return policy.complete_with_tools(history, TOOLS, system=SYSTEM)


SHOWN = ("Pride and Prejudice", "Great Expectations", "Middlemarch")


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("remove the Austen one, I've read it like 5 times", "Pride and Prejudice"),
        ("take the Dickens one off", "Great Expectations"),
        ("drop the Eliot one please", "Middlemarch"),
        ("can you remove the Austen one", "Pride and Prejudice"),
        ("please remove the Dickens one, too gloomy", "Great Expectations"),
        ("get rid of the Eliot one from it", "Middlemarch"),
    ],
)
def test_the_writers_one_book_on_the_list_shown(said: str, book: str) -> None:
    calls = _reply(said, SHOWN).tool_calls
    assert [(c.name, c.arguments.get("book"), c.arguments.get("list")) for c in calls] == [
        ("remove_from_list", book, "Classics")
    ]


def test_two_of_the_writers_books_are_asked_about() -> None:
    reply = _reply("remove the Austen one", ("Pride and Prejudice", "Emma", "Middlemarch"))
    assert reply.tool_calls == ()


def test_a_writer_with_none_on_the_list_is_asked_about() -> None:
    assert _reply("remove the Stoker one", SHOWN).tool_calls == ()
