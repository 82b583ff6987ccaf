"""Where the request is in a message: dev14's courteous, non-native and fact-stating writers.

From dev14 (pool-v14): a sentence of courtesy before the request ("Thank you. Please add this
book to ...") is no part of it; a sentence telling what the reader did ("I have read this book
in Russian when I was a student.") asks nothing; a grade said with a preposition ("rate it
with five stars") leaves it out of the title; and a correction stated as a fact ("cujo says
spanish. its english", "this says French?? it's in English", "says nineteen forty six but it
came out in nineteen forty three") names its book as what says the wrong value.
"""

from __future__ import annotations

from typing import Any

import pytest

from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.corrections import language_of
from lectern.adapters.understanding.courtesy import without_courtesy
from lectern.adapters.understanding.list_named_before import list_named_before
from lectern.adapters.understanding.request_sentence import only_tells, question_taken_back
from lectern.adapters.understanding.spoken_years import with_spoken_years
from lectern.domain.assistant import ToolCall
from tests.unit.test_understanding_book_v13 import (
    NAMES,
    PAGE_BOOK,
    SYSTEM,
    _call,
    _calls,
    _in_view,
)

# --- a correction stated as a fact ------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "this says French?? it's in English, Thompson was American",
        "this says Spanish but it's English, Greene was British",
        "it says German. it's in English, Atwood is Canadian",
    ],
)
def test_this_says_the_wrong_value_means_the_book_in_view(said: str) -> None:
    planned = plan_books("propose_correction", said, NAMES, _in_view, _call)
    assert isinstance(planned, list)
    assert planned[0].arguments["book"] == PAGE_BOOK


@pytest.mark.parametrize(
    ("said", "book", "language"),
    [
        ("cujo says spanish. its english. fix pls", "cujo", "English"),
        ("holes says french. its english", "holes", "English"),
        ("gilead shows german, it's english", "gilead", "English"),
    ],
)
def test_what_says_the_wrong_value_is_the_book(said: str, book: str, language: str) -> None:
    planned = plan_books("propose_correction", said, NAMES, _in_view, _call)
    assert planned == [ToolCall("c", "propose_correction", {"book": book, "language": language})]


@pytest.mark.parametrize(
    "said",
    [
        "This book is shown as German, but I own the English original. The language should be "
        "English.",
        "It is listed as French, though my copy is the English first edition. It should be "
        "English.",
        "this page says Italian; I read it in English and it was written in English",
    ],
)
def test_the_right_language_said_twice_is_one_language(said: str) -> None:
    assert language_of(said) == "English"
    planned = plan_books("propose_correction", said, NAMES, _in_view, _call)
    assert planned == [
        ToolCall("c", "propose_correction", {"book": PAGE_BOOK, "language": "English"})
    ]


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("it came out in nineteen forty three", "it came out in 1943"),
        ("says eighteen oh five, should be eighteen fifty one", "says 1805, should be 1851"),
        ("published in two thousand and three", "published in 2003"),
        ("twenty five stars", "twenty five stars"),
        ("Nineteen Eighty-Four says 1950", "Nineteen Eighty-Four says 1950"),
    ],
)
def test_a_year_said_in_words_is_its_digits(said: str, written: str) -> None:
    assert with_spoken_years(said) == written


@pytest.mark.parametrize(
    ("said", "book", "year"),
    [
        (
            "the little prince says nineteen forty six but it came out in nineteen forty "
            "three can you fix that",
            "the little prince",
            1943,
        ),
        (
            "holes says nineteen ninety nine, it was published in nineteen ninety eight",
            "holes",
            1998,
        ),
        (
            "gilead says two thousand and five but it came out in two thousand and four",
            "gilead",
            2004,
        ),
    ],
)
def test_a_correction_with_its_years_in_words(said: str, book: str, year: int) -> None:
    planned = plan_books("propose_correction", said, NAMES, _in_view, _call)
    assert planned == [ToolCall("c", "propose_correction", {"book": book, "published_year": year})]


# --- courtesy around the request --------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        (
            "Thank you. Please add this book to my list 'Krieg und Frieden'.",
            "Please add this book to my list 'Krieg und Frieden'.",
        ),
        (
            "Good day. I am searching for novels by German authors, translated into English.",
            "I am searching for novels by German authors, translated into English.",
        ),
        (
            "Cheers! Could you put this one on my Dnf list?",
            "Could you put this one on my Dnf list?",
        ),
        (
            "Hello dear. Please take Holes off my Summer list. Many thanks in advance.",
            "Please take Holes off my Summer list.",
        ),
        # found trying it by hand: "Hope" and "Morning" became the book added (wrong actions)
        (
            "Hi there! Hope your day is going well. Would you mind adding Circe to my TBR?",
            "Would you mind adding Circe to my TBR?",
        ),
        (
            "I hope you're well! Please rate Gilead four stars for me",
            "Please rate Gilead four stars for me",
        ),
        ("Morning! Could you pop Circe onto cosy reads", "Could you pop Circe onto cosy reads"),
        (
            "Quick one. Would you mind adding Circe to my TBR?",
            "Would you mind adding Circe to my TBR?",
        ),
    ],
)
def test_a_sentence_of_courtesy_is_no_part_of_the_request(said: str, asked: str) -> None:
    assert without_courtesy(said) == asked


@pytest.mark.parametrize(
    "said",
    [
        "Hi!",
        "Hi! First time using this",
        "thanks",
        "Good morning.",
        # a title that starts like a greeting or a wish is no courtesy
        "Morning Glory is lovely, add it to TBR please",
        "Hope is a lovely book, add it to my TBR please",
    ],
)
def test_a_short_message_of_courtesy_is_left_whole(said: str) -> None:
    assert without_courtesy(said) == said


@pytest.mark.parametrize(
    "said",
    [
        "Thank you. Please add this book to my list Summer.",
        "Cheers! Could you put this one on my Summer list please?",
        "Good evening. Kindly add this book to the Summer list.",
    ],
)
def test_thanks_before_an_entry_is_no_book(said: str) -> None:
    assert _calls(said) == [("add_to_list", {"list": "Summer", "book": PAGE_BOOK})]


# --- what the reader did, told before the request -------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "I have read this book in Russian when I was a student.",
        "We read it in our book club years ago",
        "I finished this one on holiday last summer",
    ],
)
def test_what_the_reader_did_only_tells(said: str) -> None:
    assert only_tells(said)


@pytest.mark.parametrize(
    "said",
    [
        "I want to rate this book",
        "I'd like Holes on Summer",
        "I finished it, can you rate it 4?",
        "I finished The Help: give it four stars",
        "I finished it, 5 stars",
    ],
)
def test_a_wish_or_a_question_is_no_telling(said: str) -> None:
    assert not only_tells(said)


@pytest.mark.parametrize(
    ("said", "stars"),
    [
        (
            "I have read this book in Russian when I was a student. Please rate it with five "
            "stars.",
            5,
        ),
        ("I finished this one on holiday last summer. Rate it at 4 stars please.", 4),
        ("We read this book in our club years ago. Please give it 3 stars.", 3),
    ],
)
def test_a_rating_after_what_the_reader_did_rates_the_book_in_view(said: str, stars: int) -> None:
    made: list[tuple[str, dict[str, Any]]] = _calls(said)
    assert made == [("rate_book", {"book": PAGE_BOOK, "stars": stars})]


# --- a courtesy out of its place, and a question taken back ------------------------------------


@pytest.mark.parametrize(
    ("said", "made"),
    [
        (
            "Remove please Holes from my list Summer",
            ("remove_from_list", {"list": "Summer", "book": "Holes"}),
        ),
        (
            "Add please Gilead to my list Spooky",
            ("add_to_list", {"list": "Spooky", "book": "Gilead"}),
        ),
        ("Rate, please, Coraline 4 stars", ("rate_book", {"book": "Coraline", "stars": 4})),
    ],
)
def test_please_after_the_verb_is_no_part_of_the_title(
    said: str, made: tuple[str, dict[str, Any]]
) -> None:
    assert _calls(said) == [made]


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        (
            "is this any good? eh whatever, I read it years ago and it was fine. just rate it 3",
            "I read it years ago and it was fine. just rate it 3",
        ),
        ("who wrote this? never mind, add it to Summer", "add it to Summer"),
        ("is it long? forget it. put it on my Dnf list", "put it on my Dnf list"),
    ],
)
def test_a_question_taken_back_is_no_request(said: str, asked: str) -> None:
    assert question_taken_back(said) == asked


def test_a_question_not_taken_back_stays() -> None:
    said = "is this any good? I read it years ago"
    assert question_taken_back(said) == said


@pytest.mark.parametrize(
    ("said", "made"),
    [
        (
            "is this any good? eh whatever, I read it years ago and it was fine. just rate it 3",
            ("rate_book", {"book": PAGE_BOOK, "stars": 3}),
        ),
        (
            "who wrote this? never mind, just add it to Summer",
            ("add_to_list", {"list": "Summer", "book": PAGE_BOOK}),
        ),
        (
            "I finished it last night. just rate it 5",
            ("rate_book", {"book": PAGE_BOOK, "stars": 5}),
        ),
    ],
)
def test_the_request_after_an_aside_is_read(said: str, made: tuple[str, dict[str, Any]]) -> None:
    assert _calls(said) == [made]


# --- a request pointing at the list the telling named ------------------------------------------


@pytest.mark.parametrize(
    ("said", "made"),
    [
        (
            "Hello dear. A small housekeeping matter: when I set things up I named one of my lists "
            "Summer, which looks rather abrupt now that I see it written down. The books on it are "
            "for my grandchildren. Could you change its name to Summer Reads instead? Thank you.",
            ("rename_list", {"list": "Summer", "new_name": "Summer Reads"}),
        ),
        (
            "I made a list called Dnf ages ago for books I gave up on. Nobody knows what that "
            "means. Would you please rename that list to Abandoned?",
            ("rename_list", {"list": "Dnf", "new_name": "Abandoned"}),
        ),
        (
            "Good evening. My Spooky list was for last October and everything on it is read. "
            "Please delete that list.",
            ("delete_list", {"list": "Spooky"}),
        ),
    ],
)
def test_a_request_pointing_at_the_list_told_of_means_it(
    said: str, made: tuple[str, dict[str, Any]]
) -> None:
    assert _calls(said, system=SYSTEM) == [made]


def test_two_lists_told_of_leave_the_pointer_unread() -> None:
    said = "I keep Summer and Spooky lists. Could you change its name to Beach?"
    assert list_named_before(said, ("Summer", "Spooky")) is None


@pytest.mark.parametrize(
    "said",
    [
        "Could you rename Summer to Summer Reads instead?",
        "rename the Summer list to Summer Reads instead",
        "could you change the name of Summer to Summer Reads instead",
    ],
)
def test_instead_after_a_new_name_is_no_part_of_it(said: str) -> None:
    assert _calls(said, system=SYSTEM) == [
        ("rename_list", {"list": "Summer", "new_name": "Summer Reads"})
    ]
