"""A look-up read by meaning whose words name no catalog book is asked back, not sent.

From dev19 (pool-v19): "I think I'd quite like to clear everything out and start afresh, if
you wouldn't mind." read nearest `similar_books`, and its words (all but the stop words)
went out as the book. A look-up costs nothing, but one of no book is a guess that answers
nothing: which book is asked instead (its words are not quoted back as a title). A title the catalog
holds, spells like or slips from is still looked up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import pytest
from rapidfuzz import fuzz

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.intents import (
    IntentReading,
    IntentScore,
    NearestExampleClassifier,
)
from lectern.adapters.understanding.layer import Understanding
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

BOOKS = [
    ("The Poisonwood Bible", "Barbara Kingsolver"),
    ("Rebecca", "Daphne du Maurier"),
    ("Station Eleven", "Emily St. John Mandel"),
    ("Dune", "Frank Herbert"),
]
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", "- list: Summer"])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _bare(words: str) -> str:
    key = " ".join(words.strip(" \"'").casefold().split())
    return key[4:] if key.startswith("the ") else key


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    return [(t, a, 10) for t, a in BOOKS if _bare(t) == _bare(title)]


def _near(title: str, cutoff: float) -> Sequence[tuple[str, str]]:
    scored = [(fuzz.ratio(_bare(title), _bare(t)), t, a) for t, a in BOOKS]
    return [(t, a) for score, t, a in sorted(scored, reverse=True) if score >= cutoff]


def _spelt(title: str) -> str | None:
    found = _near(title, 90)
    return found[0][0] if found else None


class _Similar:
    """Reads every message as MiniLM read the dev19 one: confidently `similar_books`."""

    def classify(self, text: str, allowed: Any, boosts: Any = None) -> IntentReading:
        del text, allowed, boosts
        order = ("similar_books", "capabilities", "thanks")
        ranked = tuple(IntentScore(i, s) for i, s in zip(order, (0.4, 0.2, 0.1), strict=True))
        return IntentReading(ranked, confidence=0.9, margin=0.2)


def _reply(text: str, *, catalog: bool = True) -> Any:
    policy = RulePolicy(
        layer=Understanding(cast(NearestExampleClassifier, _Similar())),
        titles=(lambda words: bool(_books(words))) if catalog else None,
        books=_books if catalog else None,
        spelt=_spelt if catalog else None,
        near=_near if catalog else None,
    )
    return policy.complete_with_tools([Message("user", text)], TOOLS, system=SYSTEM)


@pytest.mark.parametrize(
    "said",
    [
        "I think I'd quite like to clear the decks and try afresh, if you wouldn't mind.",
        "honestly just surprise me with whatever you reckon",
        "my sister keeps going on about that thing from the telly",
        "gimme the usual",
        "same as before pls",
        "the stuff we talked about yesterday",
    ],
)
def test_a_look_up_of_no_catalog_book_is_asked_back(said: str) -> None:
    reply = _reply(said)
    assert reply.tool_calls == ()
    assert reply.text.startswith("Which book do you mean?"), reply.text


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("ooh Rebecca vibes, more of that", "Rebecca"),
        ("Station Eleven, anything in that vein", "Station Eleven"),
        ("gimme stuff like Station Eleven", "Station Eleven"),
        ("poisonwood bible vibes", "The Poisonwood Bible"),
    ],
)
def test_a_catalog_book_is_still_looked_up(said: str, book: str) -> None:
    calls = _reply(said).tool_calls
    assert [(c.name, c.arguments.get("book")) for c in calls] == [("similar_books", book)]


def test_without_a_catalog_the_words_are_looked_up_as_said() -> None:
    calls = _reply("honestly just surprise me with whatever you reckon", catalog=False).tool_calls
    assert [c.name for c in calls] == ["similar_books"]
