"""A catalog title that starts with "Like" (dev14) is the book rated, no "books like X" request.

"For the book Like Water for Chocolate I give three stars." names its book whole: the
capitalised "Like" opens a title the catalog holds, so nothing similar is asked for.
"""

from __future__ import annotations

import pytest

import tests.unit.test_understanding_book_v13 as v13

LIKE_TITLES = ("Like Water for Chocolate", "Like the Flowing River", "Like a Bird")


@pytest.fixture(autouse=True)
def _like_titles(monkeypatch: pytest.MonkeyPatch) -> None:
    for title in LIKE_TITLES:
        monkeypatch.setitem(v13.CATALOG, title.casefold(), title)


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        ("For the book Like Water for Chocolate I give three stars.", LIKE_TITLES[0], 3),
        ("The novel Like the Flowing River gets four stars from me", LIKE_TITLES[1], 4),
        ("for the book Like a Bird i give 2 stars", LIKE_TITLES[2], 2),
    ],
)
def test_a_title_opening_with_like_is_rated(said: str, book: str, stars: int) -> None:
    assert v13._calls(said, system=v13.SYSTEM) == [("rate_book", {"book": book, "stars": stars})]


@pytest.mark.parametrize("said", ["books like Holes", "any novels Like Holes?"])
def test_books_like_a_title_are_still_similar_books(said: str) -> None:
    assert v13._calls(said, system=v13.SYSTEM) == [("similar_books", {"book": "Holes", "limit": 5})]
