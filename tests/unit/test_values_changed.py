"""A value changed mid-message, and counts and decades said in words (dev20).

`self_corrected.settled_value` reads a request said, taken back ("no", "wait", "actually no",
"hmm, no") and said again in part. dev20 said the new part in four shapes it missed:
the name said again ("create a list called Summer Reads. hmm, no, call it Beach Bag
instead"); what is kept, said by name, then another change ("delete Summer... wait no, keep
Summer, delete Beach instead"); the change said whole again about the same book ("add Jaws
to TBR. actually no, put it on Summer instead"); one value of several dropped or kept ("add
The Road to Bleak and to TBR. no, scratch TBR, just Bleak. and rate it 4").
A count said after a read-alike or a search ("ten of them if you can") is `slots.COUNT_AFTER`;
"the nineteen sixties" is a decade of the lexicon with its century said.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.self_corrected import settled_value
from tests.unit.test_values_said import LISTS, _calls, _understanding


@pytest.mark.parametrize(
    ("said", "settled"),
    [
        # dev20
        (
            "create a list called Summer Reads. hmm, no, call it Beach Bag instead",
            "create a list called Beach Bag",
        ),
        ("delete Summer... wait no, keep Summer, delete Beach instead", "delete Beach"),
        (
            "add Jaws to TBR. actually no, put it on Summer instead, TBR is way too long already",
            "put Jaws on Summer",
        ),
        (
            "add The Road to Bleak and to TBR. no, scratch TBR, just Bleak. and rate it 4",
            "add The Road to Bleak, and rate it 4",
        ),
        # ours: the name said again
        ("make a list called Winter. no wait, call it Snow Days", "make a list called Snow Days"),
        (
            "create a list named Spooky. actually, name it Halloween instead",
            "create a list named Halloween",
        ),
        ("start a list called Gifts. hmm no, call it Presents", "start a list called Presents"),
        # ours: what is kept, by name
        ("delete TBR... actually no, keep TBR, delete Beach instead", "delete Beach"),
        ("remove Summer - no wait, leave Summer, remove Beach", "remove Beach"),
        # ours: the change said whole again
        ("add Dune to TBR. no, put it on Summer instead", "put Dune on Summer"),
        ("put Jaws on Summer. actually no, add it to Beach instead", "add Jaws to Beach"),
        ("add Emma to TBR - nope, stick it on Summer", "stick Emma on Summer"),
        # ours: one value of several
        ("add Dune to Summer and to Beach. no, scratch Beach", "add Dune to Summer"),
        ("add Dune to Summer and Beach. actually no, just Summer", "add Dune to Summer"),
        (
            "add Dune to Summer and to TBR. wait, not TBR, only Summer. and rate it 5",
            "add Dune to Summer, and rate it 5",
        ),
        ("add Dune and Jaws to TBR. no, scratch Jaws", "add Dune to TBR"),
        ("add Dune and Emma to TBR. actually, just Dune", "add Dune to TBR"),
        # ours: the value said short, "just" no part of it
        ("add Dune to TBR. actually, just Emma", "add Emma to TBR"),
        ("move Dune to Summer - no wait, just to Beach", "move Dune to Beach"),
        # near-misses that stay as said
        ("add Jaws to TBR. actually, rate it 4 too", "add Jaws to TBR. actually, rate it 4 too"),
        ("make a new list, call it Beach Bag", "make a new list, call it Beach Bag"),
        ("add Dune to TBR. no, scratch that", "add Dune to TBR. no, scratch that"),
        ("delete Summer, keep Beach", "delete Summer, keep Beach"),
        ("add Dune to Summer. no rush", "add Dune to Summer. no rush"),
        ("rate Dune 4. actually no, just 3", "rate Dune 4. actually no, just 3"),
    ],
)
def test_the_value_settled_on(said: str, settled: str) -> None:
    assert settled_value(said, LISTS) == settled


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        # dev20
        (
            "create a list called Summer Reads. hmm, no, call it Beach Bag instead",
            [("create_list", {"name": "Beach Bag"})],
        ),
        (
            "delete Summer... wait no, keep Summer, delete Beach instead",
            [("delete_list", {"list": "Beach"})],
        ),
        (
            "add Jaws to TBR. actually no, put it on Summer instead, TBR is way too long already",
            [("add_to_list", {"list": "Summer", "book": "Jaws"})],
        ),
        (
            "add The Road to Bleak and to TBR. no, scratch TBR, just Bleak. and rate it 4",
            [
                ("add_to_list", {"list": "Bleak", "book": "The Road"}),
                ("rate_book", {"book": "The Road", "stars": 4}),
            ],
        ),
        # ours
        (
            "make a list called Winter. no wait, call it Snow Days",
            [("create_list", {"name": "Snow Days"})],
        ),
        (
            "delete TBR... actually no, keep TBR, delete Beach instead",
            [("delete_list", {"list": "Beach"})],
        ),
        (
            "put Jaws on Summer. actually no, add it to Beach instead",
            [("add_to_list", {"list": "Beach", "book": "Jaws"})],
        ),
        (
            "add Dune to Summer and Beach. actually no, just Summer",
            [("add_to_list", {"list": "Summer", "book": "Dune"})],
        ),
        (
            "add Dune and Jaws to TBR. no, scratch Jaws",
            [("add_to_list", {"list": "TBR", "book": "Dune"})],
        ),
        # near-miss: "no" that takes nothing back
        ("add Dune to Summer. no rush", [("add_to_list", {"list": "Summer", "book": "Dune"})]),
    ],
)
def test_only_the_change_settled_on_is_proposed(said: str, calls: list[object]) -> None:
    assert _calls(said) == calls


@pytest.mark.parametrize(
    ("said", "book", "limit"),
    [
        # dev20
        (
            "Please find me books similar to The Last Wish, ten of them if you can.",
            "The Last Wish",
            10,
        ),
        # ours
        ("books like Dune, ten of them please", "Dune", 10),
        ("books similar to The Hobbit, 8 of them", "The Hobbit", 8),
        ("something similar to Dune, maybe seven of them", "Dune", 7),
        ("anything like Rebecca, three of them if possible", "Rebecca", 3),
        ("more like Emma, 6 or so", "Emma", 6),
        # near-misses: no count said, or one said before
        ("books like Dune please", "Dune", 5),
        ("give me three books like Dune", "Dune", 3),
    ],
)
def test_a_count_said_after_the_read_alike(said: str, book: str, limit: int) -> None:
    calls = _calls(said)
    assert not isinstance(calls, str)
    name, arguments = calls[0]
    assert (name, arguments["book"], arguments["limit"]) == ("similar_books", book, limit)


def test_a_count_said_after_a_search() -> None:
    calls = _calls("find mysteries from the sixties, ten of them")
    assert not isinstance(calls, str)
    name, arguments = calls[0]
    assert (name, arguments["limit"], arguments["min_year"]) == ("search_books", 10, 1960)
    assert "ten" not in arguments["query"]


@pytest.mark.parametrize(
    ("query", "years"),
    [
        # dev20
        ("find me some science fiction books that came out in the nineteen sixties", (1960, 1969)),
        # ours
        ("horror novels from the nineteen seventies", (1970, 1979)),
        ("mysteries written in the nineteen-twenties", (1920, 1929)),
        ("ghost stories from the eighteen nineties", (1890, 1899)),
        ("science fiction of the sixties", (1960, 1969)),
        ("books from the 1960s", (1960, 1969)),
        ("crime novels from the 60s", (1960, 1969)),
        # near-misses: a title in words, a year in words with no decade
        ("Nineteen Eighty-Four", (None, None)),
        ("novels about the nineteen sixty eight protests", (None, None)),
    ],
)
def test_a_decade_said_in_words(query: str, years: tuple[int | None, int | None]) -> None:
    filters = _understanding().plan(query).filters
    assert (filters.min_year, filters.max_year) == years
