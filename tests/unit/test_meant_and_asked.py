"""A request put right in the next turn, and requests asked as questions (dev15, issue 26).

"sorry I meant Northanger Abbey, not Persuasion" redoes the last request with the value the
reader meant; "sorry I meant the other list" does so with the only other list, or asks which.
"Would it be possible that Dune goes on my TBR?", "Shouldn't X say 1943?", "books that are
similar to X" and "X is not from 1913, it was published in 1982" ask for the change or the
books; "thx" after a new name and "pgs" after a page count are no name and are pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.corrections import year_of
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.assistant.names import NAMES_HEADER
from lectern.application.ports import BookNames
from lectern.application.understanding import Vocabulary
from lectern.domain.assistant import Message, ToolSpec

CATALOG = {
    t.casefold(): t
    for t in (
        "Persuasion",
        "Northanger Abbey",
        "Emma",
        "Dune",
        "Holes",
        "Rebecca",
        "The Hobbit",
        "Wuthering Heights",
        "The Little Prince",
        "Dune Messiah",
    )
}
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]
Calls = list[tuple[str, dict[str, Any]]] | str


def _system(lists: Sequence[str]) -> str:
    return "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in lists)])


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(" ".join(title.casefold().split()))
    return [(found, "Someone", 10)] if found else []


def _calls(turns: Sequence[str], lists: Sequence[str] = ("TBR", "Summer", "Kids")) -> Calls:
    policy = RulePolicy(titles=lambda words: bool(_books(words)), books=_books)
    history: list[Message] = []
    for said in turns[:-1]:
        history += [Message("user", said), Message("assistant", "Done.")]
    messages = [*history, Message("user", turns[-1])]
    reply = policy.complete_with_tools(messages, TOOLS, system=_system(lists))
    if not reply.tool_calls:
        return reply.text
    return [
        (c.name, {k: v for k, v in c.arguments.items() if k != "limit"}) for c in reply.tool_calls
    ]


@pytest.mark.parametrize(
    ("turns", "lists", "expected"),
    [
        (
            ["add Persuasion to my TBR", "sorry I meant Northanger Abbey, not Persuasion"],
            ("TBR", "Favourites"),
            [("add_to_list", {"book": "Northanger Abbey", "list": "TBR"})],
        ),
        (
            ["put Holes on Kids", "oops, I meant Summer instead of Kids"],
            ("TBR", "Summer", "Kids"),
            [("add_to_list", {"book": "Holes", "list": "Summer"})],
        ),
        (
            ["give Rebecca 4 stars", "no, not Rebecca, I meant Emma"],
            ("TBR",),
            [("rate_book", {"book": "Emma", "stars": 4})],
        ),
        (
            ["rename my Work list to Commute", "sorry I meant the Gym list, not Work"],
            ("Work", "Gym"),
            [("rename_list", {"list": "Gym", "new_name": "Commute"})],
        ),
        (
            ["delete the Kids list", "wait I meant the Summer list not Kids"],
            ("TBR", "Summer", "Kids"),
            [("delete_list", {"list": "Summer"})],
        ),
        (
            ["find me books about dragons", "sorry I meant dinosaurs, not dragons"],
            ("TBR",),
            [("search_books", {"query": "books about dinosaurs"})],
        ),
        (
            ["what's on my Holiday list?", "sorry I meant the other list"],
            ("Holiday", "Book Club"),
            [("get_list_details", {"list": "Book Club"})],
        ),
        (
            ["remove Dune from Summer", "oops I meant the other one"],
            ("TBR", "Summer"),
            [("remove_from_list", {"book": "Dune", "list": "TBR"})],
        ),
    ],
)
def test_the_last_request_again_with_the_value_meant(
    turns: list[str], lists: tuple[str, ...], expected: Calls
) -> None:
    assert _calls(turns, lists) == expected


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (  # dev19
            ["add dune to summer", "no sorry not Dune, Dune Messiah. i already read the first"],
            [("add_to_list", {"book": "Dune Messiah", "list": "Summer"})],
        ),
        (
            ["put Emma on TBR", "not Emma, Persuasion"],
            [("add_to_list", {"book": "Persuasion", "list": "TBR"})],
        ),
        (
            ["rate Holes 4 stars", "no, not Holes — Rebecca"],
            [("rate_book", {"book": "Rebecca", "stars": 4})],
        ),
        (
            ["add The Hobbit to Kids", "oops not Kids; Summer"],
            [("add_to_list", {"book": "The Hobbit", "list": "Summer"})],
        ),
        (
            ["remove Dune from Summer", "wait not Summer, TBR! sorry"],
            [("remove_from_list", {"book": "Dune", "list": "TBR"})],
        ),
    ],
)
def test_the_value_put_right_bare_after_a_comma(turns: list[str], expected: Calls) -> None:
    assert _calls(turns) == expected


@pytest.mark.parametrize(
    "turns",
    [
        ["add Dune to Summer", "not Summer, put it on TBR"],
        ["add Dune to Summer", "not Summer, I want it on Kids"],
    ],
)
def test_a_request_after_the_comma_is_no_value_put_right(turns: list[str]) -> None:
    calls = _calls(turns)
    # no change made of "put it on TBR" taken as a value put right in place of "Summer"
    assert isinstance(calls, str) or not any(
        name in ("add_to_list", "remove_from_list") for name, _ in calls
    ), calls


@pytest.mark.parametrize(
    "turns",
    [
        ["what's on my Summer list", "sorry I meant the other list"],
        ["delete my Kids list", "I meant the other list"],
    ],
)
def test_the_other_of_several_lists_is_asked(turns: list[str]) -> None:
    reply = _calls(turns, ("Summer", "Winter", "Kids"))
    assert isinstance(reply, str)
    assert "Which list" in reply


def test_a_value_never_said_before_is_not_swapped_in() -> None:
    reply = _calls(["add Dune to my TBR", "sorry I meant Emma, not Holes"], ("TBR",))
    assert reply != [("add_to_list", {"book": "Emma", "list": "TBR"})]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "Would it be possible that Dune goes on my Kids list?",
            [("add_to_list", {"book": "Dune", "list": "Kids"})],
        ),
        (
            "is it possible for Holes to go on Summer?",
            [("add_to_list", {"book": "Holes", "list": "Summer"})],
        ),
        (
            "would it be possible for Rebecca to come off my TBR list",
            [("remove_from_list", {"book": "Rebecca", "list": "TBR"})],
        ),
        (
            "Shouldn't The Little Prince say 1943? Could you correct the year?",
            [("propose_correction", {"book": "The Little Prince", "published_year": 1943})],
        ),
        (
            "Shouldn't Dune say 1965? Could you fix the year?",
            [("propose_correction", {"book": "Dune", "published_year": 1965})],
        ),
        (
            "shouldn't Holes be by Louis Sachar?",
            [("propose_correction", {"book": "Holes", "authors": ["Louis Sachar"]})],
        ),
        (
            "Could you find me books that are similar to Wuthering Heights?",
            [("similar_books", {"book": "Wuthering Heights"})],
        ),
        ("are there any novels which feel like Holes", [("similar_books", {"book": "Holes"})]),
        (
            "Could you show me what's on my TBR, and also which books are like Dune?",
            [("get_list_details", {"list": "TBR"}), ("similar_books", {"book": "Dune"})],
        ),
        ("rename tbr → TBR 2026 thx", [("rename_list", {"list": "TBR", "new_name": "TBR 2026"})]),
        (
            "rename my Summer list to Beach 2027, thank u",
            [("rename_list", {"list": "Summer", "new_name": "Beach 2027"})],
        ),
        ("add Dune to Kids thnx", [("add_to_list", {"book": "Dune", "list": "Kids"})]),
    ],
)
def test_a_request_asked_as_a_question_or_with_chat_words(said: str, expected: Calls) -> None:
    assert _calls([said]) == expected


@pytest.mark.parametrize(
    ("said", "year"),
    [
        (
            "The book The Book of Disquiet of Pessoa is not from 1913, it was published only "
            "in 1982. Please correct this.",
            1982,
        ),
        ("Dune wasn't published in 1913, it came out in 1965", 1965),
        ("Holes is not from 2001 but from 1998, fix it", 1998),
        ("X says 2006 but it came out in 1851", 1851),
    ],
)
def test_the_year_denied_is_the_records(said: str, year: int) -> None:
    assert year_of(said) == year


def _understanding() -> RuleBasedUnderstanding:
    books = [BookNames(f"f{n}", f"Filler {n}", ("Ann Other",), ("mystery",), 10) for n in range(6)]
    return RuleBasedUnderstanding(Vocabulary.build(books, ["en"], max_year=2019))


@pytest.mark.parametrize(
    ("query", "high"),
    [
        ("need a cozy mystery rec, at most 350 pgs", 350),
        ("mysteries, 250 pg or less", 250),
        ("a mystery of no more than 300 pgs.", 300),
    ],
)
def test_pages_typed_short_are_pages(query: str, high: int) -> None:
    assert _understanding().plan(query).filters.max_pages == high


@pytest.mark.parametrize(
    ("said", "title"),
    [
        # dev15: with no book in view, "that book" is asked about, not searched for
        ("I want a recommendation similar to that book", "that book"),
        ("any recs similar to dune?", "dune"),
        ("suggestions similar to Jane Eyre please", "Jane Eyre please"),
    ],
)
def test_a_recommendation_similar_to_a_book_names_the_book(said: str, title: str) -> None:
    from lectern.adapters.understanding.book_patterns import SIMILAR

    found = SIMILAR.search(said)
    assert found is not None and found.group("title") == title
