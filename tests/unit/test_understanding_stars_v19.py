"""Ratings given as star symbols or moved, and catalog corrections in people's words (dev19).

From dev19 (pool-v19): "⭐⭐⭐⭐ The Remains of the Day", "Bird Box ★★☆☆☆ — the ending was
silly", "⭐⭐⭐" on a book's page; "actually bump eragon down to 2, the sequel kind of ruined
it" (had become a similar-books search); "actually no, make that 4. the middle dragged" after a
rating; "rate ths 2 stars"; "rate goodnite moon 5 stars kids r obsessed"; "X doesn't have a
language on it. It's English"; "X IS LISTED AS ROMANCE. IT IS HORROR. FIX THE CATEGORY"; "X
should be listed as French, that's the language it was written in"; "the author of X is only
A, B is just the translator". Each beside phrasings of our own, and near-misses left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.correction_said import correction_said
from lectern.adapters.understanding.corrections import authors_of
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.intents import (
    IntentReading,
    IntentScore,
    NearestExampleClassifier,
)
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.rating_moved import rating_moved, regrade_remark_dropped
from lectern.adapters.understanding.rating_said import rating_said
from lectern.adapters.understanding.spoken import said_forms
from lectern.adapters.understanding.star_symbols import star_symbols
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

TITLES = (
    "Dune", "Emma", "Beloved", "Stoner", "Gilead", "Persuasion", "Jane Eyre", "The Road",
    "The Hobbit", "Piranesi", "Middlemarch", "Rebecca", "Eragon", "Bird Box", "Dracula",
    "The Remains of the Day", "Goodnight Moon", "Life of Pi", "The Little Prince",
    "Through the Looking-Glass",
)  # fmt: skip
CATALOG = {title.casefold(): title for title in TITLES}
LISTS = ("Summer", "Kids", "TBR")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
PAGE = "0c2b1a7e-1111-2222-3333-444455556666"
ON_A_PAGE = f"{SYSTEM}\nThe reader is on a book page 'Stoner' (id {PAGE}). 'it' means that book."
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _key(words: str) -> str:
    return " ".join(words.strip().casefold().split())


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(_key(title))
    return [(found, "Someone", 10)] if found else []


class _Minded:
    """Reads as MiniLM does these: a grade or a rating word is nearest rating; a record's
    field, correcting; anything else, adding to a list."""

    def classify(
        self, text: str, allowed: Iterable[str], boosts: Mapping[str, float] | None = None
    ) -> IntentReading:
        del allowed, boosts
        corrects = re.search(
            r"\b(?:language|category|author|listed|filed|year|categorised)\b", text, re.I
        )
        rates = re.search(
            r"\b(?:stars?|rate|rating|bump|lower|make|change|give)\b|[⭐★🌟]", text, re.I
        )
        first = "propose_correction" if corrects else "rate_book" if rates else "add_to_list"
        order = [first, *(i for i in ("add_to_list", "rate_book", "search_books") if i != first)]
        scores = (0.3, 0.15, 0.14, 0.13)
        ranked = tuple(IntentScore(i, s) for i, s in zip(order, scores, strict=False))
        return IntentReading(ranked, confidence=0.97, margin=0.15)


def _calls(
    text: str, system: str = SYSTEM, history: Sequence[tuple[str, str]] = ()
) -> list[tuple[str, dict[str, Any]]] | str:
    layer = Understanding(cast(NearestExampleClassifier, _Minded()))
    policy = RulePolicy(layer=layer, titles=lambda words: _key(words) in CATALOG, books=_books)
    said = [*(Message(role, content) for role, content in history), Message("user", text)]
    reply = policy.complete_with_tools(said, TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _rate(book: str, stars: int) -> list[tuple[str, dict[str, Any]]]:
    return [("rate_book", {"book": book, "stars": stars})]


def _stars_of(calls: list[tuple[str, dict[str, Any]]] | str) -> list[tuple[str, int]]:
    assert isinstance(calls, list), calls
    return [(c[1]["book"], c[1]["stars"]) for c in calls if c[0] == "rate_book"]


# --- a grade in star symbols --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        ("⭐⭐⭐⭐ The Remains of the Day", "The Remains of the Day", 4),
        ("Bird Box ★★☆☆☆ — the ending was silly", "Bird Box", 2),
        ("⭐️⭐️⭐️⭐️⭐️ Piranesi", "Piranesi", 5),
        ("Dune: ★★★★☆", "Dune", 4),
        ("🌟🌟🌟 for Gilead, slow but lovely", "Gilead", 3),
        ("the road ★☆☆☆☆. too bleak for me", "The Road", 1),
        ("rate Emma ⭐⭐⭐", "Emma", 3),
        ("★ ★ ★ Rebecca", "Rebecca", 3),
    ],
)
def test_a_row_of_stars_rates_the_book_beside_it(said: str, book: str, stars: int) -> None:
    assert _stars_of(_calls(said)) == [(book, stars)]


@pytest.mark.parametrize(
    ("said", "stars"), [("⭐⭐⭐", 3), ("★★★★★", 5), ("⭐⭐!", 2), ("★★☆☆☆", 2)]
)
def test_a_row_of_stars_alone_rates_the_book_on_the_page(said: str, stars: int) -> None:
    assert _calls(said, ON_A_PAGE) == _rate(PAGE, stars)


@pytest.mark.parametrize(
    "said",
    [
        "★☆★ Dune",  # a filled star after an empty one
        "⭐⭐⭐⭐⭐⭐⭐ Dune",  # more than five
        "★★★½ Dune",  # a half
        "★★☆ Dune",  # padded, but not to five
        "Dune ⭐⭐⭐, Emma ⭐⭐",  # two rows
        "show me ⭐⭐⭐⭐⭐ books",  # a search
        "any ★★★★★ thrillers?",
        "I'd say ⭐⭐⭐",  # no title before it
    ],
)
def test_an_unclear_row_or_one_in_another_request_is_left(said: str) -> None:
    assert star_symbols(said) is None


# --- a rating moved, and a grade said again with a remark --------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        ("actually bump eragon down to 2, the sequel kind of ruined it for me", "Eragon", 2),
        ("bump Dune up to 5", "Dune", 5),
        ("knock the hobbit down to 3 - it dragged on a reread", "The Hobbit", 3),
        ("lower Emma to 2 stars", "Emma", 2),
        ("change my rating of Stoner to 4", "Stoner", 4),
        ("can you drop Beloved down to three. too heavy", "Beloved", 3),
        ("set Gilead's rating to 5", "Gilead", 5),
        ("downgrade piranesi to 3", "Piranesi", 3),
    ],
)
def test_a_rating_moved_up_or_down_rates_with_the_new_grade(
    said: str, book: str, stars: int
) -> None:
    assert _calls(said) == _rate(book, stars)


@pytest.mark.parametrize(
    "said",
    [
        "move Dune to 2",  # no word of a rating
        "drop Emma to 3",
        "bump it down to 2, add it to Summer",  # a request after it: read as said
        "lower Dune to 2, Emma to 3",  # a number in what follows
        "bump Dune down to 3.5",
    ],
)
def test_a_move_that_says_no_rating_or_more_is_not_read_as_one(said: str) -> None:
    assert rating_moved(said) is None


@pytest.mark.parametrize(
    "said",
    [
        "actually no, make that 4. the middle dragged",
        "make it 4 - the ending let it down",
        "hmm, change it to 4. on reflection the middle dragged",
        "no wait make that a 4, the middle was slow",
        "actually make it four! too long",
    ],
)
def test_a_grade_said_again_with_a_remark_rates_the_last_book_again(said: str) -> None:
    history = [("user", "rate Dune 5 stars"), ("assistant", "Rate 'Dune' 5 stars?")]
    assert _calls(said, history=history) == _rate("Dune", 4)


def test_a_grade_said_again_before_a_request_keeps_the_request() -> None:
    said = "make that 4. and add it to Summer"
    assert regrade_remark_dropped(said) == said


# --- a pointer typed in a hurry, a title in chat spelling -----------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "rate ths 2 stars, so depressing, not for my kid at all",
        "rate thsi 2 stars",
        "give tihs 2 stars",
        "rate htis 2 stars pls",
    ],
)
def test_this_typed_in_a_hurry_is_the_book_on_the_page(said: str) -> None:
    assert _stars_of(_calls(said, ON_A_PAGE)) == [(PAGE, 2)]


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        ("rate goodnite moon 5 stars kids r obsessed, we read it every nite", "Goodnight Moon", 5),
        ("rate Goodnite Moon 4 stars", "Goodnight Moon", 4),
        ("give thru the looking-glass 3 stars", "Through the Looking-Glass", 3),
        ("rate dune 4 stars really enjoyed it", "Dune", 4),
        ("rate Emma 5 stars my mum loved it too", "Emma", 5),
    ],
)
def test_a_title_in_chat_spelling_and_a_remark_run_on_still_rate(
    said: str, book: str, stars: int
) -> None:
    assert _calls(said) == _rate(book, stars)


def test_chat_spelling_is_a_word_of_its_own_or_the_end_of_goodnite() -> None:
    assert said_forms("goodnite moon") == ["goodnight moon"]
    assert said_forms("Brand") == []  # "nd" inside a word is no "and"
    assert said_forms("united") == []


@pytest.mark.parametrize(
    "said",
    [
        "rate Dune 4 stars kids loved it add it to Kids",  # a request after the remark
        "rate Dune 4 stars Emma 3 stars",  # another grade
        "rate Dune 4 stars on my tbr list",  # a preposition goes on the request
        "rate Dune 4 stars and add it to tbr",
        "rate Dune 4 stars kids asked what next?",  # a question
    ],
)
def test_a_remark_run_on_that_asks_for_more_is_read_as_said(said: str) -> None:
    assert rating_said(said) is None


# --- corrections said in people's words ------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        (
            "Life of Pi doesn't have a language on it. It's English, could you put that right?",
            "language",
            "English",
        ),
        ("Dune has no language. it should be English", "language", "English"),
        ("Emma is missing a language - it's English, please fix", "language", "English"),
        ("Dune doesnt have a year. its 1965", "published_year", 1965),
        ("Dune is listed as French, it's English", "language", "English"),
        ("Rebecca has no category, it should be Gothic", "categories", ["Gothic"]),
    ],
)
def test_a_field_said_missing_or_shown_then_right_is_proposed(
    said: str, field: str, value: object
) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert calls[0][0] == "propose_correction"
    assert calls[0][1][field] == value


@pytest.mark.parametrize(
    ("said", "book", "category"),
    [
        ("DRACULA IS LISTED AS ROMANCE. IT IS HORROR. FIX THE CATEGORY", "Dracula", "horror"),
        ("Dracula is filed under romance. it's horror, fix it please", "Dracula", "horror"),
        ("Rebecca is listed as Horror. It should be Gothic.", "Rebecca", "Gothic"),
        ("Dune is categorised as fantasy; it is science fiction. can you correct it", "Dune",
         "science fiction"),
    ],
)  # fmt: skip
def test_the_category_shown_then_the_right_one_is_proposed(
    said: str, book: str, category: str
) -> None:
    assert _calls(said) == [("propose_correction", {"book": book, "categories": [category]})]


@pytest.mark.parametrize(
    "said",
    [
        "Dune is listed as horror. It is great.",  # a verdict, no fix asked
        "Dune is listed as Romance. Is it?",
        "I am listed as Romance. it is horror",
        "Dune doesn't have a language. It's a shame.",
    ],
)
def test_a_verdict_after_what_the_record_shows_is_no_correction(said: str) -> None:
    assert correction_said(said) is None


@pytest.mark.parametrize(
    "said",
    [
        "The Little Prince should be listed as French, that's the language it was written in. "
        "can you correct it?",
        "The Little Prince should be listed as French, it was written in French",
        "The Little Prince should be listed as french. could you fix that",
    ],
)
def test_a_language_named_as_a_listing_is_the_language_field(said: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert calls[0][0] == "propose_correction"
    assert calls[0][1].get("language", "").casefold() == "french"
    assert "categories" not in calls[0][1]


@pytest.mark.parametrize(
    ("said", "authors"),
    [
        (
            "the author of Perfume: The Story of a Murderer is only Patrick Süskind, "
            "John E. Woods is just the translator.",
            ["Patrick Süskind"],
        ),
        ("the author of Dune is only Frank Herbert, Jane Smith is the editor", ["Frank Herbert"]),
        ("author of Emma should be just Jane Austen, Fiona Stafford only edited it",
         ["Jane Austen"]),
        ("the authors of Good Omens are only Terry Pratchett and Neil Gaiman",
         ["Terry Pratchett", "Neil Gaiman"]),
    ],
)  # fmt: skip
def test_the_only_author_leaves_out_a_translator_or_editor(said: str, authors: list[str]) -> None:
    assert authors_of(said) == authors
