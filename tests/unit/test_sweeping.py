"""A change asked of everything at once is asked back, never guessed into one change."""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.sweeping import sweeping_change

LISTS = ("Summer", "TBR", "Horror")


@pytest.mark.parametrize(
    "said",
    [
        "delete everything",  # dev19
        "clear out my lists, they're a mess",  # dev19
        "I think I'd quite like to clear everything out and start afresh, if you wouldn't mind.",
        "wipe all my ratings pls",
        "can you get rid of all my lists",
        "nuke it all lol",
        "please remove all of my reading lists",
        "bin the lot, I want a clean slate",
        "erase every list i have",
        "DELETE ALL MY STUFF",
    ],
)
def test_a_change_to_everything_is_asked_back_with_the_lists_to_pick(said: str) -> None:
    asked = sweeping_change(said, LISTS)
    assert asked is not None
    assert "one thing at a time" in asked.question
    assert asked.suggestions == (
        "Delete the list 'Summer'",
        "Delete the list 'TBR'",
        "Delete the list 'Horror'",
    )


@pytest.mark.parametrize(
    "said",
    [
        "remove everything from Summer",
        "delete all the horror books from my TBR",
        "empty my Summer list",
        "clear out TBR please",
        "get rid of every single book on Horror",
        "wipe summer",
    ],
)
def test_everything_taken_off_one_list_asks_which_book_first(said: str) -> None:
    asked = sweeping_change(said, LISTS)
    assert asked is not None
    assert "which book should I take off" in asked.question


@pytest.mark.parametrize(
    "said",
    [
        "delete the Horror list",
        "remove Dracula from Horror",
        "what's everything on my lists",
        "show me all my lists",
        "find books about clearing out clutter",
        "I'd like to start afresh with some new fantasy, any ideas?",
        "delete Summer and start afresh",
        "is everything on TBR still there?",
        "rate all of Dune's sequels 4 stars",
    ],
)
def test_a_named_change_or_a_look_is_not_swept(said: str) -> None:
    assert sweeping_change(said, LISTS) is None
