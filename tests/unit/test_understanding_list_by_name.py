"""The reader's lists managed by the names they hold (dev18's list family, issue 26).

Each construct is tested on the dev sentence and on phrasings of our own: a stored list's
name with a new name after change / relabel / call it / "->" / mv is a rename; a list said to
"go" is deleted; a book "of my list X" is taken off X; "set me up a list" creates one, its
name running to the clause after it; and questions about the lists show them.
"""

from __future__ import annotations

from typing import Any

import pytest

from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.list_by_name import list_request
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import ToolCall
from tests.unit.test_understanding_book_v13 import NAMES, _calls, _nowhere

LISTS = ("Summer Reads", "Bedtime", "TBR", "Book Club", "Gothic", "Baby", "Jacob", "Jacob's Picks")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])


def _done(text: str) -> list[tuple[str, dict[str, Any]]]:
    return _calls(text, SYSTEM)


# --- a rename: a stored list and a new name ---------------------------------------------------


@pytest.mark.parametrize(
    ("said", "old", "new"),
    [
        # dev18
        (
            "Relabel my shelf 'Summer Reads' as 'Beach Books', please.",
            "Summer Reads",
            "Beach Books",
        ),
        ("Can you change Summer Reads to just Beach, ta", "Summer Reads", "Beach"),
        ("/mv tbr up-next", "TBR", "up-next"),
        (
            "the bedtime list... call it Sleepy Stories now, he thinks bedtime is a baby word. "
            "yeah",
            "Bedtime",
            "Sleepy Stories",
        ),
        (
            "The list I called Gothic — could you change it to Dark Tales? It sounds nicer.",
            "Gothic",
            "Dark Tales",
        ),
        # our own
        ("Could you relabel my Summer Reads shelf as Beach Books?", "Summer Reads", "Beach Books"),
        ("change Summer Reads to just Beach, cheers", "Summer Reads", "Beach"),
        ("I'd like you to rename the Bedtime list as Night Night", "Bedtime", "Night Night"),
        (
            "please switch the name of my list Book Club to Tuesday Club",
            "Book Club",
            "Tuesday Club",
        ),
        ("retitle 'Gothic' as 'Dark Tales' please", "Gothic", "Dark Tales"),
        ("update the name of Gothic to Dark Tales", "Gothic", "Dark Tales"),
        ("the Bedtime list - call it Night Stories now", "Bedtime", "Night Stories"),
        (
            "My Book Club list is for the Tuesday lot now, so can you change it to Tuesday Club?",
            "Book Club",
            "Tuesday Club",
        ),
        ("Gothic list... name it Spooky Stuff, the kids prefer that", "Gothic", "Spooky Stuff"),
        ("/mv Bedtime night-night", "Bedtime", "night-night"),
        ("Summer Reads -> Beach 2027", "Summer Reads", "Beach 2027"),
        ("mv TBR next-up", "TBR", "next-up"),
        ("Summer Reads list -> rename to Summer 2027", "Summer Reads", "Summer 2027"),
        ("Gothic -> call it Dark Tales", "Gothic", "Dark Tales"),
        ("change Gothic to Name Day Books", "Gothic", "Name Day Books"),
    ],
)
def test_a_stored_list_given_a_new_name_is_renamed(said: str, old: str, new: str) -> None:
    assert _done(said) == [("rename_list", {"list": old, "new_name": new})]


@pytest.mark.parametrize(
    "said",
    [
        "I put Holes on Gothic, change it to 4 stars",  # "it" is the book
        "I rated Holes on Gothic, make it 5",
        "I want a new list like my Gothic list, call it Dark Tales",  # the new list is named
        "update my Gothic list to include Holes",  # what it holds, not its name
        "change the Gothic list to have only adult books",
        "switch Gothic to Baby",  # a list they have already: no plain rename
    ],
)
def test_no_rename_is_read_where_it_may_be_something_else(said: str) -> None:
    assert "rename" not in (list_request(said, LISTS) or "")


# --- a deletion: a stored list said to go -----------------------------------------------------


@pytest.mark.parametrize(
    ("said", "listed"),
    [
        # dev18
        (
            "Jacob's nine now and he says picture books are for babies, so the list "
            "'Jacob's Picks' can go, I suppose. Bit sad really.",
            "Jacob's Picks",
        ),
        ("that Baby list. she's 7 now. it can go", "Baby"),
        ("delet my Gothic list, class is over lol", "Gothic"),
        # our own
        ("the list 'Baby' can go now", "Baby"),
        ("Baby list can be deleted, she's grown up", "Baby"),
        ("that Gothic list. not into it anymore. it can go", "Gothic"),
        ("my Summer Reads list isn't needed any more", "Summer Reads"),
        ("The Book Club list is no longer needed - the club folded.", "Book Club"),
        ("deleet my Gothic list, done with it", "Gothic"),
        ("delte the Baby list pls", "Baby"),
        ("remvoe my Bedtime list", "Bedtime"),
    ],
)
def test_a_stored_list_said_to_go_is_deleted(said: str, listed: str) -> None:
    assert _done(said) == [("delete_list", {"list": listed})]


@pytest.mark.parametrize(
    "said",
    [
        "Holes is on my Baby list. it can go",  # the book may be what goes
        "Holes can come off Gothic now",
        "the Baby list can go to my sister",
        "delete my Gothic list and add Holes to Baby",  # a second request: not a remark
        "bin my Gothic list, then tell me what lists I still have",
        "delete the Baby list. New list - Club Picks",
        "I read Holes from the Gothic list, it can go",
        "that Baby list has Holes on it. it can go",
        "deleted my Gothic list by accident, oops",  # told, not asked
        "remote my Gothic list",
    ],
)
def test_no_list_is_deleted_where_a_book_may_be_meant(said: str) -> None:
    assert "delete" not in (list_request(said, LISTS) or "")


# --- a book taken off "of my list X" ----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "listed"),
    [
        (
            "Please, remove the Holes of my list Gothic, is too long for me in this moment",
            "Holes",
            "Gothic",
        ),
        ("remove Coraline of my list Bedtime, she finished it", "Coraline", "Bedtime"),
        ("take Misery out of my list Gothic", "Misery", "Gothic"),
        ("please delete Gilead from my list Book Club, I read it", "Gilead", "Book Club"),
        ("quita Holes of my list Baby", None, None),
        ("drop Misery off the list Gothic", "Misery", "Gothic"),
    ],
)
def test_a_book_of_a_list_is_taken_off_it(said: str, book: str | None, listed: str) -> None:
    done = _done(said)
    assert all(tool != "delete_list" for tool, _ in done)
    if book is not None:
        assert done == [("remove_from_list", {"list": listed, "book": book})]


def test_a_second_request_after_is_left_to_the_compound_reading() -> None:
    assert list_request("remove Holes of my list Gothic, and add it to Baby", LISTS) is None
    assert list_request("show me the Gothic list, then rename it to Dark", LISTS) is None


def test_a_book_of_a_list_they_lack_is_never_a_deletion() -> None:
    assert list_request("remove Holes of my list Lectura", LISTS) is None
    assert list_request("remove Holes of my list Lectura", ()) == (
        "remove Holes from the Lectura list"
    )


# --- a new list: "set me up", and a name that runs to the clause after it -------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        (
            "Hi! We're starting a second group for the teenagers in January. Could you set me up "
            "a list called Teen Book Club?",
            "Teen Book Club",
        ),
        ("Could you set me up a list called Teen Book Club?", "Teen Book Club"),
        ("set us up a new list called Spooky", "Spooky"),
        (
            "My niece is visiting in March. Can you set us up a list called Niece Picks?",
            "Niece Picks",
        ),
        ("please set me up a list named Road Trip", "Road Trip"),
    ],
)
def test_a_list_set_up_for_the_reader_is_created(said: str, name: str) -> None:
    assert _done(said) == [("create_list", {"name": name})]


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("c", tool, arguments)


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("need a new list Gifts for Mum her birthday is in march", "Gifts for Mum"),
        ("need a new list Presents for Dad his birthday is soon", "Presents for Dad"),
        ("new list Gifts for Mum please", "Gifts for Mum"),
        ("need a new list Xmas for Grandma, she loves crime", "Xmas for Grandma"),
        ("i want a new list Books for Her", "Books for Her"),
        ("need a new list Summer for my holiday", "Summer"),
        ("a new list Bedtime for the kids", "Bedtime"),
        ("new list Spooky Season because it's october", "Spooky Season"),
    ],
)
def test_a_new_lists_name_runs_to_the_clause_after_it(said: str, name: str) -> None:
    assert plan_books("create_list", said, NAMES, _nowhere, _call) == [
        ToolCall("c", "create_list", {"name": name})
    ]


# --- the lists, and one list's books, asked about ---------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Give me an overview of my shelves, with a count for each.",
        "do I have a list for the book club yet or did I never make one?",
        "give me a summary of my lists",
        "could I get a rundown of all my shelves?",
        "is there a list for the book club already?",
        "have I made a list for gifts yet?",
        "did I ever create a list called Favourites",
    ],
)
def test_the_lists_asked_about_are_shown(said: str) -> None:
    assert _done(said) == [("get_reading_lists", {})]


@pytest.mark.parametrize(
    ("said", "listed"),
    [
        ("did I already put Rebecca on Gothic or not", "Gothic"),
        ("did I add Dracula to Gothic", "Gothic"),
        ("is Dracula on my Gothic list?", "Gothic"),
        ("have I already put The Gruffalo on Bedtime or not", "Bedtime"),
        ("did we stick Holes on the TBR list yet?", "TBR"),
    ],
)
def test_whether_a_book_is_on_a_list_shows_the_list(said: str, listed: str) -> None:
    assert _done(said) == [("get_list_details", {"list": listed})]


def test_a_question_with_a_request_after_it_is_left_whole() -> None:
    assert list_request("is there a list for the book club? if not make one", LISTS) is None
    assert list_request("is Holes on my Gothic list? if not add it", LISTS) is None
