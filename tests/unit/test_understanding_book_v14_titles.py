"""A book argument the catalog does not hold, read from the catalog and the stored names.

From dev14 (pool-v14): the words the rules took for a book held extra words ("crucible we
finished", "please Don Quijote") or none of the title ("getting hand" for the Special Topics
in Calamity Physics the message names); a misremembered title with its author beside it
("The Distant Hour by Kate Morton") was asked about though the author makes the book plain;
a list name with a slip ("Favorits") was sent as said. Two books alike, a title compared
with ("like The Secret History") and a common word alone ("We") are still asked about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import pytest
from rapidfuzz import fuzz

from lectern.adapters.llm.catalog_spelling import CatalogSpelling
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.compound import titles_held
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.intents import (
    IntentReading,
    IntentScore,
    NearestExampleClassifier,
)
from lectern.adapters.understanding.layer import Understanding
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

BOOKS = [
    ("The Crucible", "Arthur Miller"),
    ("We", "Yevgeny Zamyatin"),
    ("Special Topics in Calamity Physics", "Marisha Pessl"),
    ("The Secret History", "Donna Tartt"),
    ("Don Quixote", "Miguel de Cervantes"),
    ("The Distant Hours", "Kate Morton"),
    ("The Distant Hills", "Kate Morton"),
    ("The Wind-Up Bird Chronicle", "Haruki Murakami"),
    ("The Thirteenth Tale", "Diane Setterfield"),
    ("Station Eleven", "Emily St. John Mandel"),
    ("The Poisonwood Bible", "Barbara Kingsolver"),
    ("The Lowland", "Jhumpa Lahiri"),
    ("Emma", "Jane Austen"),
    ("The Goldfinch", "Donna Tartt"),
    ("The Little Friend", "Donna Tartt"),
    ("The Little Prince", "Antoine de Saint-Exupéry"),
    ("Gilead", "Marilynne Robinson"),
    ("A Little Life", "Hanya Yanagihara"),
    ("The Night Circus", "Erin Morgenstern"),
    ("The Night Circuses", "Someone Else"),
    ("The Remains of the Day", "Kazuo Ishiguro"),
    ("Days", "Someone Else"),
    ("Stephen King", "A Biographer"),
    ("Donna Tartt", "A Critic"),
    ("Sally Rooney", "A Critic"),
    ("Never Let Me Go", "Kazuo Ishiguro"),
    ("The One", "Kiera Cass"),
    ("Sister", "Rosamund Lupton"),
    ("Teacher", "Someone Else"),
]
LISTS = ("Favourites", "TBR", "english class", "Clásicos", "Holiday", "Summer")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _key(words: str) -> str:
    return " ".join(words.strip(" \"'").casefold().replace("-", " ").split())


def _bare(words: str) -> str:
    key = _key(words)
    return key[4:] if key.startswith("the ") else key


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    return [(t, a, 10) for t, a in BOOKS if _bare(t) == _bare(title)]


def _near(title: str, cutoff: float) -> Sequence[tuple[str, str]]:
    scored = [(fuzz.ratio(_bare(title), _bare(t)), t, a) for t, a in BOOKS]
    return [(t, a) for score, t, a in sorted(scored, reverse=True) if score >= cutoff]


def _spelt(title: str) -> str | None:
    found = _near(title, 90)
    return found[0][0] if found else None


class _Removing:
    """Reads as MiniLM did: "take off", "remove", "drop" and "cut" are removing."""

    def classify(self, text: str, allowed: Any, boosts: Any = None) -> IntentReading:
        del text, allowed, boosts
        order = ("remove_from_list", "add_to_list", "get_list_details")
        ranked = tuple(IntentScore(i, s) for i, s in zip(order, (0.3, 0.15, 0.14), strict=True))
        return IntentReading(ranked, confidence=0.97, margin=0.15)


def _policy(*, near: bool = True) -> RulePolicy:
    return RulePolicy(
        layer=Understanding(cast(NearestExampleClassifier, _Removing())),
        titles=lambda words: bool(_books(words)),
        books=_books,
        spelt=_spelt,
        near=_near if near else None,
    )


def _calls(text: str, *, near: bool = True) -> list[tuple[str, dict[str, Any]]]:
    reply = _policy(near=near).complete_with_tools([Message("user", text)], TOOLS, system=SYSTEM)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _book_of(text: str) -> str | None:
    calls = _calls(text)
    return calls[0][1].get("book") if len(calls) == 1 else None


def _spelling() -> CatalogSpelling:
    return CatalogSpelling(_books, _spelt, _near)


def _settled(tool: str, book: str, said: str, **more: Any) -> Any:
    call = ToolCall("c", tool, {"book": book, **more})
    return _spelling().settled([call], said)[0].arguments["book"]


# --- a close title its author, said beside it, confirms -------------------------------------


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("put The Distant Hour by Kate Morton on my Holiday list", "The Distant Hours"),
        ("rate The Wind Up Bird Chronicles by Murakami 4 stars", "The Wind-Up Bird Chronicle"),
        (
            "could you add The Thirteenth Story by Diane Setterfield to Summer",
            "The Thirteenth Tale",
        ),
        ("give Station Twelve by Emily St. John Mandel 5 stars", "Station Eleven"),
    ],
)
def test_a_close_title_its_author_confirms_is_read(said: str, book: str) -> None:
    assert _book_of(said) == book


def test_the_author_said_after_the_title_in_the_message_confirms_a_look_up() -> None:
    said = (
        "a friend recommended a novel called The Thirteenth Story by Diane Setterfield. Thoughts?"
    )
    assert _settled("get_book_details", "The Thirteenth Story", said) == "The Thirteenth Tale"


@pytest.mark.parametrize(
    "said",
    [
        "put The Distant Hour by Stephen King on my Holiday list",  # not that writer's
        "add The Distant Hole by Kate Morton to Summer",  # two of hers alike
    ],
)
def test_a_close_title_the_author_does_not_single_out_is_asked(said: str) -> None:
    assert _calls(said) == []


# --- a title slipped by a plural, a space or one letter in a long title ----------------------


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("Remove please Don Quijote from my list Clásicos", "Don Quixote"),
        ("take The Poisonwood Bibles off Summer", "The Poisonwood Bible"),
        ("add The Low Land to my Holiday list", "The Lowland"),
    ],
)
def test_a_title_slipped_by_a_plural_a_space_or_a_letter_is_read(said: str, book: str) -> None:
    assert _book_of(said) == book


@pytest.mark.parametrize(
    "said",
    [
        "add Gemma to Summer",  # one letter off a short title: another book as like as not
        "add The Night Circuss to Summer",  # as like two titles
    ],
)
def test_a_slip_that_singles_out_no_title_is_asked(said: str) -> None:
    assert _calls(said) == []


@pytest.mark.parametrize(
    ("said", "books"),
    [
        (
            "add the poisonwood bibles and the low land to Summer",
            ["The Poisonwood Bible", "The Lowland"],
        ),
        (
            "put the remains of the days and never let me goes on my Holiday list",
            ["The Remains of the Day", "Never Let Me Go"],
        ),
        ("take gilead and the crucibles off TBR", ["Gilead", "The Crucible"]),
    ],
)
def test_a_run_of_slipped_titles_is_one_change_per_book(said: str, books: list[str]) -> None:
    assert [arguments["book"] for _, arguments in _calls(said)] == books


def test_a_slip_holding_a_shorter_title_is_the_slipped_title_not_the_shorter() -> None:
    # "the remains of the days" holds the title *Days*, but slips from the Day
    assert _book_of("add the remains of the days to Summer") == "The Remains of the Day"


@pytest.mark.parametrize(
    "said",
    ["add something like Don Quijote to Summer", "put a book like The Lowland on Holiday"],
)
def test_a_title_compared_with_is_no_slip_of_the_book(said: str) -> None:
    assert all(c[1].get("book") not in ("Don Quixote", "The Lowland") for c in _calls(said))


def test_without_the_near_titles_a_slip_is_asked_as_before() -> None:
    assert _calls("take The Poisonwood Bibles off Summer", near=False) == [
        ("remove_from_list", {"list": "Summer", "book": "The Poisonwood Bibles"})
    ]


# --- the catalog title the message holds ---------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("remove the crucible from english class list we finished it", "The Crucible"),
        (
            "my TBR is getting out of hand, I should cut something... let's say Special Topics"
            " in Calamity Physics, I'm never going to get to it. take it off",
            "Special Topics in Calamity Physics",
        ),
    ],
)
def test_the_title_the_message_holds_is_the_book(said: str, book: str) -> None:
    assert _book_of(said) == book


@pytest.mark.parametrize(
    ("book", "said", "read"),
    [
        ("gilead we loved", "drop gilead from Summer we loved it but done now", "Gilead"),
        ("little prince ok", "pls take the little prince off TBR ok", "The Little Prince"),
        (
            "pile is huge",
            "the pile is huge. Maybe A Little Life can go, off TBR with it",
            "A Little Life",
        ),
    ],
)
def test_the_title_holding_the_books_first_word_or_the_one_in_capitals(
    book: str, said: str, read: str
) -> None:
    assert _settled("remove_from_list", book, said, list="TBR") == read


@pytest.mark.parametrize(
    ("book", "said"),
    [
        # a title compared with is not the book meant
        ("book my aunt mentioned", "add the book my aunt mentioned, like The Secret History"),
        # a writer's name, by or new, is no title held (*Stephen King* is a book's too)
        ("something", "put something by Stephen King on my Halloween list"),
        ("new", "add the new Stephen King to Horror"),
        ("anything", "add anything by Donna Tartt to Summer"),
        ("latest", "put the latest Sally Rooney on Holiday"),
        # "We" alone is too common a word to be the title held
        ("we finished", "take the one we finished off Summer"),
        # two titles in capitals: which one is asked
        ("too many", "too many here, The Crucible or Gilead can go"),
    ],
)
def test_no_plain_title_held_leaves_the_book_to_be_asked(book: str, said: str) -> None:
    assert _settled("remove_from_list", book, said, list="Summer") == book


def test_titles_held_are_the_longest_runs_not_across_a_comma() -> None:
    held = titles_held("drop the crucible, gilead too", lambda w: bool(_books(w)))
    assert [part for _, _, part in held] == ["the crucible", "gilead"]


# --- a list name with a slip is the stored list clearly closest ------------------------------


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("rename the Favorits list to All-Time Favourites", "Favourites"),
        ("rename my Holdiay list to Summer 2026", "Holiday"),
        ("rename the Clasicos list to Spanish", "Clásicos"),
    ],
)
def test_a_list_name_with_a_slip_is_the_stored_list(said: str, stored: str) -> None:
    assert _calls(said) == [("rename_list", {"list": stored, "new_name": said.split(" to ")[-1]})]


def test_a_slip_close_to_two_lists_is_not_guessed() -> None:
    system = "\n".join([NAMES_HEADER, "- list: Winter 2023", "- list: Winter 2024"])
    reply = _policy().complete_with_tools(
        [Message("user", "rename the Wintr list to Snow")], TOOLS, system=system
    )
    assert all(
        c.arguments.get("list") not in ("Winter 2023", "Winter 2024") for c in reply.tool_calls
    )


# --- a book described, not named -------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        # found trying it by hand: added *The One*, then (the title held) *Sister*
        "put the one my sister liked on Summer",
        "add the book my teacher mentioned to my TBR",
        "rate the one she gave me for my birthday 4 stars",
    ],
)
def test_a_book_described_by_who_did_what_holds_no_title(said: str) -> None:
    calls = _calls(said)
    assert not any(name in {"add_to_list", "rate_book"} for name, _ in calls), calls


def test_a_description_is_left_as_said_by_the_catalog_spelling() -> None:
    spelling = _spelling()
    assert spelling.as_catalog_spells("the one my sister liked") == "the one my sister liked"
    assert (
        _settled(
            "add_to_list",
            "the one my sister liked",
            "put the one my sister liked on Summer",
            list="Summer",
        )
        == "the one my sister liked"
    )
    # a title that starts like one is still read: "The One" said whole
    assert spelling.as_catalog_spells("The One") == "The One"
