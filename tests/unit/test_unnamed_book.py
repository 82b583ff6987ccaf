"""A book the reader could not name, or told only by what happens in it, is asked about.

"add the... the one with the... ugh. you know. to bedtime" (dev18) proposed adding the
catalog's *The One* (Kiera Cass): the words left were "the one". "the one with the white
whale", "the one where the kids are stuck on an island" tell a book by its story, in lower
case: no title is said, so the reader is asked which book, never handed *The One*.
"""

from __future__ import annotations

from typing import cast

import pytest

import tests.unit.test_understanding_book_v13 as v13
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intents import NearestExampleClassifier
from lectern.adapters.understanding.layer import Understanding
from lectern.domain.assistant import Message, ToolCall

ASKED = "Which book do you mean?"


@pytest.fixture(autouse=True)
def _the_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(v13.CATALOG, "the one", "The One")


def _reply(said: str) -> tuple[list[ToolCall], str]:
    layer = Understanding(cast(NearestExampleClassifier, v13._ListMinded()))
    policy = RulePolicy(
        layer=layer,
        titles=lambda words: words.strip().casefold() in v13.CATALOG,
        books=lambda t: (
            [(v13.CATALOG[t.casefold()], "Someone", 10)]
            if t.strip().casefold() in v13.CATALOG
            else []
        ),
    )
    reply = policy.complete_with_tools([Message("user", said)], v13.TOOLS, system=v13.SYSTEM)
    return list(reply.tool_calls), reply.text


@pytest.mark.parametrize(
    "said",
    [
        "add the... the one with the... ugh. you know. to summer",
        "put the one with the... um... the dragon? on spooky",
        "add the one with the white whale to summer",
        "rate the one where the kids are stuck on an island 4 stars",
        "take the one about the haunted hotel off spooky",
    ],
)
def test_a_book_left_unnamed_is_asked_about(said: str) -> None:
    calls, text = _reply(said)
    assert calls == [] and text.startswith(ASKED), (said, calls, text)


def test_the_title_the_one_said_as_a_title_is_that_book() -> None:
    calls, _ = _reply("rate The One 4 stars")
    assert [(c.name, dict(c.arguments)) for c in calls] == [
        ("rate_book", {"book": "The One", "stars": 4})
    ]
