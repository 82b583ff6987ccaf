"""A book request with more words around it, and a list asked for politely (dev21).

`said_around.said_bare` sets apart what is said around a book request: hashtags and emoji,
a remark sentence after it, a polite modal or a gerund where the verb stands, a bookshop's
"shelve"/"shelf", a list's year said in words. `list_named_before.list_renamed_after` reads
"Please delete it." after a telling as the list said *as a list*, not a name said in passing;
`referents.book_resolver` reads "this??" as the pointer, never a catalog title that starts
with "This". None of the phrasings below is a sentence of the sets.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.layer import CHANGES
from lectern.adapters.understanding.list_named_before import list_renamed_after
from lectern.adapters.understanding.mentions import resolve as shared_resolve
from lectern.adapters.understanding.referents import book_resolver
from lectern.adapters.understanding.said_around import said_bare
from lectern.adapters.understanding.spoken import tidied
from tests.unit.test_values_said import _calls

LISTS = ("Gothic", "Cosy", "Summer 2024", "Summer 2025", "Beach Reads")


@pytest.mark.parametrize(
    ("said", "bare"),
    [
        # hashtags and emoji are no words of a title or a name
        (
            "Popping this one onto my Gothic list 🖤 #gothicreads",
            "pop this one onto my Gothic list",
        ),
        ("add it to Cosy 🕯️🍂 #autumnvibes #booktok", "add it to Cosy"),
        (
            "Fresh start 🌱 rename my Cosy list to Comfort #bookish",
            "Fresh start. rename my Cosy list to Comfort",
        ),
        # a remark after the request
        ("who wrote this?? asking for my book club", "who wrote this??"),
        ("how many pages does it have? I need to plan my week", "how many pages does it have?"),
        ("what year is this book from? It feels old?", "what year is this book from?"),
        (
            "Might it be possible to rename my list 'Cosy' to 'Winter'? We have guests, you see.",
            "rename my list 'Cosy' to 'Winter'?",
        ),
        # a polite modal, minding, a gerund: the verb
        ("Might you add it to Gothic?", "add it to Gothic?"),
        ("Splendid. Might you put it on my Gothic list?", "put it on my Gothic list?"),
        ("Would you mind adding it to Cosy?", "could you add it to Cosy?"),
        ("Adding Rebecca to my Gothic list ✨", "add Rebecca to my Gothic list"),
        ("Taking this one off Cosy, finally", "take this one off Cosy, finally"),
        # a shelf is a list
        ("shelve it as Gothic", "shelve it on Gothic"),
        ("shelve as Beach Reads", "shelve it on Beach Reads"),
        ("new shelf: comfort reads", "new list: comfort reads"),
        ("delete my dnf shelf", "delete my dnf list"),
        # a list's year said in words
        ("remove my list called summer twenty twenty four", "remove my list called summer 2024"),
    ],
)
def test_the_request_without_what_is_said_around_it(said: str, bare: str) -> None:
    assert said_bare(said, LISTS) == bare


@pytest.mark.parametrize(
    "said",
    [
        # a later sentence that is part of the request: a second request, a value, a list
        "add Rebecca to Gothic. no wait, Cosy",
        "add Rebecca to Gothic. It belongs on Cosy too",
        "when was Rebecca published? it says 1938 but I think that's wrong",
        "rate it. I'd give it 4",
        "what's on my Gothic list? I forget. Then add Rebecca to it",
        # a telling before a request that is not delight (its book may be the title)
        "Rebecca. add it to Gothic",
        # a year said in words that names no list of the reader
        "delete my list called summer twenty twenty seven",
        "is Nineteen Eighty-Four on my Cosy list",
        # "shelf life", a list whose name has a shelf, a gerund with no list after it
        "books about shelf life",
        "Adding Machine by Elmer Rice",
        # a pointer kept when the sentence goes on
        "tell me about this book please",
    ],
)
def test_near_misses_are_left_as_said(said: str) -> None:
    assert said_bare(said, LISTS) == said


def test_a_shelf_in_a_list_name_is_left_alone() -> None:
    assert said_bare("add Dune to Top Shelf", ("Top Shelf",)) == "add Dune to Top Shelf"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("hw meny pages is this", "how many pages is this"),
        ("hw many pages is it", "how many pages is it"),
        ("hw long is it", "how long is it"),
        ("how mny pages", "how many pages"),
        # near misses: "hw" of nothing, a name
        ("hw 2 is due", "hw 2 is due"),
        ("add Meny to TBR", "add Meny to TBR"),
    ],
)
def test_how_many_typed_short(typed: str, read: str) -> None:
    assert tidied(typed) == read


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        (
            "We're done with the Gothic list, she reads cosy books now. Please delete it.",
            "Please delete the Gothic list.",
        ),
        (
            "The Summer 2024 list is over, summer 2025 is on. So delete it",
            "So delete the Summer 2024 list",
        ),
        ("my Beach Reads list was for Cosy weekends only, bin it", "bin the Beach Reads list"),
    ],
)
def test_delete_it_after_a_telling_is_the_list_said_as_a_list(said: str, asked: str) -> None:
    assert list_renamed_after(said, LISTS) == asked


@pytest.mark.parametrize(
    "said",
    [
        # two lists said as lists: which one is asked
        "We loved the Gothic list and the Cosy list. Please delete it.",
        # "delete it from Cosy": a book taken off a list, not a list deleted
        "The Gothic list is finished, she's into Cosy now. Please delete it from Cosy.",
        # a request before: "it" is that request's
        "show me the Gothic list, then delete it",
    ],
)
def test_delete_it_near_misses(said: str) -> None:
    assert list_renamed_after(said, LISTS) is None


PAGE = "The reader is on a book page: Jane Eyre (id 0b3c2a56-3c8e-4f3e-9a53-0d2b5c1f7e11)."


@pytest.mark.parametrize("reference", ["this??", "this book? It has", "it!", "that one, asking"])
def test_a_pointer_the_sentence_ends_after_is_the_page_book(reference: str) -> None:
    assert book_resolver([], PAGE)(reference) == "0b3c2a56-3c8e-4f3e-9a53-0d2b5c1f7e11"


@pytest.mark.parametrize("reference", ["This Book Is Not Good for You", "'this is it!'"])
def test_a_title_said_as_a_title_is_kept(reference: str) -> None:
    assert book_resolver([], PAGE)(reference) != "0b3c2a56-3c8e-4f3e-9a53-0d2b5c1f7e11"


LIST_NAMES = ("Summer", "Beach", "Christmas 2025", "Christmas 2026")


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        (
            "Might it be possible to rename my list 'Summer' to 'Beach Days'? We go in June.",
            [("rename_list", {"list": "Summer", "new_name": "Beach Days"})],
        ),
        (
            "We've outgrown the Summer list, we're all beach people now. Please delete it.",
            [("delete_list", {"list": "Summer"})],
        ),
        (
            "delete my list called christmas twenty twenty six",
            [("delete_list", {"list": "Christmas 2026"})],
        ),
        (
            "Clean slate ✨ rename my Beach list to Shore 🌊 #bookish",
            [("rename_list", {"list": "Beach", "new_name": "Shore"})],
        ),
        ("new shelf: dnf", [("create_list", {"name": "dnf"})]),
    ],
)
def test_polite_and_roundabout_list_requests(said: str, calls: object) -> None:
    assert _calls(said, LIST_NAMES) == calls


@pytest.mark.parametrize(
    "said",
    [
        "We loved the Summer list and the Beach list. Please delete it.",
        "delete my list called christmas twenty twenty seven",
    ],
)
def test_list_requests_that_name_no_one_list_change_nothing(said: str) -> None:
    calls = _calls(said, LIST_NAMES)
    assert isinstance(calls, str) or not any(name in CHANGES for name, _ in calls)


# --- a list named by a word two of the reader's lists share ----------------------------

SHARED = ("fantasy-ya", "fantasy-adult", "Summer 2024", "Summer 2025", "Cosy", "Cosy Crime")


@pytest.mark.parametrize("said", ["fantasy", "my fantasy", "summer", "the summer list"])
def test_a_word_two_lists_share_is_either(said: str) -> None:
    found = shared_resolve(said, SHARED, cutoff=85)
    assert found.name is None
    assert len(found.candidates) == 2


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("fantasy-ya", "fantasy-ya"),
        ("fantasy adult", "fantasy-adult"),
        ("summer 2025", "Summer 2025"),
        ("Cosy", "Cosy"),  # said whole: that one, though "Cosy Crime" has the word too
        ("cosy crime", "Cosy Crime"),
    ],
)
def test_a_list_said_whole_or_by_its_own_words_is_that_list(said: str, name: str) -> None:
    assert shared_resolve(said, SHARED, cutoff=85).name == name


def test_a_book_put_on_a_list_two_lists_share_a_word_of_is_asked() -> None:
    calls = _calls("shelve Red Queen on my fantasy shelf", ("fantasy-ya", "fantasy-adult"))
    assert isinstance(calls, str) and "fantasy-ya" in calls and "fantasy-adult" in calls
