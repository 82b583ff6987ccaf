"""A list named that the reader lacks is asked about, even when they have only one list.

Found trying it by hand (session 20): a reader whose one list is Summer said "could you put
Song of Achilles on my TBR?", and the book was proposed for Summer: the one list stood in for
any list named. It does only where no list is named ("add Dune to my list").
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.book_plan import _list
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.application.assistant.names import NAMES_HEADER

ONE = names_from_prompt("\n".join([NAMES_HEADER, "- reader: ana", "- list: Summer"]))


@pytest.mark.parametrize(
    ("said", "named"),
    [
        ("could you put Song of Achilles on my TBR?", "TBR"),
        ("add Dune to Favourites please", "Favourites"),
        ("pop Rebecca onto the Holiday list", "Holiday"),
        ("put Circe in my Kindle queue", "Kindle queue"),
    ],
)
def test_a_list_they_lack_is_asked_about(said: str, named: str) -> None:
    asked = _list(said, ONE)
    assert isinstance(asked, Clarification)
    assert f"no list called '{named}'" in asked.question
    assert "Summer" in asked.question


@pytest.mark.parametrize(
    "said",
    [
        "add Dune to my list",
        "put Rebecca on my reading list",
        "pop it on there",
        "add Dune to it",
        "put Dune on my summer list",
    ],
)
def test_no_list_named_or_their_own_is_their_one_list(said: str) -> None:
    assert _list(said, ONE) == "Summer"


# --- the book a reader says they are reading, in lower case (found by hand, session 20) ---

_HELD = {"dune", "rebecca", "it", "persuasion"}


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("my book club is reading dune next month - can it go on my tbr", "dune"),
        ("gave up on rebecca halfway, take it off my tbr", "rebecca"),
        ("just finished persuasion. could it go on Classics", "persuasion"),
    ],
)
def test_one_word_the_reader_is_reading_is_the_book_it_points_at(said: str, book: str) -> None:
    from lectern.adapters.understanding.book_plan import title_in
    from lectern.adapters.understanding.said_before import title_said_before

    assert title_said_before(said, lambda words: words.casefold() in _HELD, title_in) == book


@pytest.mark.parametrize(
    "said",
    [
        "reading it now, add it to summer",  # a pronoun, though *It* is a title
        "my book club is reading pachinko - can it go on my tbr",  # not in the catalog
        "finished the book last night, can it go on my tbr",
    ],
)
def test_no_book_the_catalog_holds_is_read_after_the_verb(said: str) -> None:
    from lectern.adapters.understanding.book_plan import title_in
    from lectern.adapters.understanding.said_before import title_said_before

    assert title_said_before(said, lambda words: words.casefold() in _HELD, title_in) is None


def test_a_pronoun_after_the_readers_verb_is_no_verdict_on_a_book() -> None:
    from lectern.adapters.llm.rule_policy import _READ_IT

    assert _READ_IT.search("reading it now, add it to summer") is None
    assert _READ_IT.search("loved that one") is None
    found = _READ_IT.search("i finished persuasion")
    assert found is not None and found.group("book") == "persuasion"


def test_reading_as_a_nouns_word_names_no_book() -> None:
    from lectern.adapters.understanding.book_plan import title_in
    from lectern.adapters.understanding.said_before import title_said_before

    held = {"circle", "group", "dune"}
    for said in (
        "our reading circle meets on Thursday. Before I buy it, what is it about",
        "the reading group liked dune a lot but can it go on my tbr",
    ):
        found = title_said_before(said, lambda words: words.casefold() in held, title_in)
        assert found in (None, "dune"), found


def test_a_pointer_inside_a_book_argument_is_never_the_novel_it() -> None:
    # found on dev15: "And who translated it to English?" after Blindness looked up *It*
    from lectern.adapters.llm.catalog_spelling import CatalogSpelling

    held = {"it": "It", "we": "We", "dune": "Dune"}

    def books(title: str) -> list[tuple[str, str, int]]:
        found = held.get(title.casefold())
        return [(found, "Someone", 10)] if found else []

    spelling = CatalogSpelling(books, lambda _title: None, None)
    for said in ("it to English", "this one in french", "that to spanish"):
        assert spelling.as_catalog_spells(said) == said
    assert spelling.as_catalog_spells("dune") == "Dune"


def test_of_two_stored_lists_said_the_one_after_the_preposition_is_meant() -> None:
    two = names_from_prompt(
        "\n".join([NAMES_HEADER, "- reader: ana", "- list: Read", "- list: TBR"])
    )
    # dev15: "read" is the reader's verb here, not their list (which list came first flipped)
    assert _list("remove the road from my tbr i read it already", two) == "TBR"
    assert _list("take Dune off TBR, read it last week", two) == "TBR"
    assert _list("i read it already, put it on Read not TBR", two) == "Read"
    asked = _list("Read and TBR both have Dune", two)
    assert isinstance(asked, Clarification)
