"""Ratings said in people's words, and a value changed mid-message (dev18, each phrased fresh).

From dev18 (pool-v18): the grade said first ("Five stars for X"), the reader's verdict ("X gets
a five from me") with a review in quotes, the grade as an aside before a request, the verb
typed in a hurry with a remark run on, a grade with no book on a book's page, grades out of
ten; a list, a grade or a year taken back and said again, with a request after it; a short
answer said back before a request ("no? ok then bung it on"), the last change undone ("take
it off again"); thanks said with praise. Unsure grades ("7/10", "three and a half") are never
turned into a rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.courtesy import without_courtesy
from lectern.adapters.understanding.echoed import echo_dropped
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.rating_said import out_of_ten, rating_said
from lectern.adapters.understanding.said_again import said_again
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

TITLES = (
    "Dune", "Emma", "Beloved", "Stoner", "Gilead", "Persuasion", "Jane Eyre", "The Road",
    "The Hobbit", "Piranesi", "Middlemarch", "Rebecca", "Moby-Dick", "Little Women",
)  # fmt: skip
CATALOG = {title.casefold(): title for title in TITLES}
LISTS = ("Summer", "Autumn", "Winter", "Cabin", "Classics", "Bedtime")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
PAGE = "0c2b1a7e-1111-2222-3333-444455556666"
ON_A_PAGE = f"{SYSTEM}\nThe reader is on a book page 'Stoner' (id {PAGE}). 'it' means that book."
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _key(words: str) -> str:
    return " ".join(words.strip().casefold().split())


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(_key(title))
    return [(found, "Someone", 10)] if found else []


def _calls(
    text: str, system: str = SYSTEM, history: Sequence[tuple[str, str]] = ()
) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=lambda words: _key(words) in CATALOG, books=_books)
    said = [*(Message(role, content) for role, content in history), Message("user", text)]
    reply = policy.complete_with_tools(said, TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _rate(book: str, stars: int, **more: str) -> list[tuple[str, dict[str, Any]]]:
    return [("rate_book", {"book": book, "stars": stars, **more})]


# --- the grade said first ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        ("Five stars for Dune. Best space opera I know, and I know a lot.", "Dune", 5),
        ("4 stars for Beloved, it broke me", "Beloved", 4),
        ("Two stars to The Road. Too grim.", "The Road", 2),
        ("5/5 for Piranesi, what a house", "Piranesi", 5),
        ("three stars for Stoner — quiet but lovely", "Stoner", 3),
        ("a 4 out of 5 for Middlemarch please", "Middlemarch", 4),
        ("ok so one star to Persuasion, sorry Austen fans", "Persuasion", 1),
    ],
)
def test_a_grade_said_first_rates_the_book_it_is_for(said: str, book: str, stars: int) -> None:
    assert _calls(said) == _rate(book, stars)


# --- the verb typed in a hurry, a remark run on --------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        ("giv dune 2 stars it was soooo boring ngl", "Dune", 2),
        ("gve emma 4 stars loved it", "Emma", 4),
        ("give persuasion 3 stars it dragged a bit tbh", "Persuasion", 3),
        ("rate jane eyre 5 stars she is the best", "Jane Eyre", 5),
        ("give the hobbit 4 stars really fun", "The Hobbit", 4),
        ("rte gilead 5 stars so moving", "Gilead", 5),
    ],
)
def test_a_hurried_rating_keeps_its_grade_and_leaves_the_remark(
    said: str, book: str, stars: int
) -> None:
    assert _calls(said) == _rate(book, stars)


# --- the reader's own verdict, a review in quotes -----------------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "stars", "review"),
    [
        ("Gilead gets a five from me, and put 'quietly luminous' as the review.", "Gilead", 5,
         "quietly luminous"),
        ("Dune gets 3 stars from me, review it as 'too much sand'", "Dune", 3, "too much sand"),
        ("Jane Eyre is a 5 for me, put 'a classic' as the review", "Jane Eyre", 5, "a classic"),
        ('Stoner gets four stars, and use "slow and true" as the review', "Stoner", 4,
         "slow and true"),
        ("Emma earns a 3 from me, with the review: 'too much matchmaking'", "Emma", 3,
         "too much matchmaking"),
    ],
)  # fmt: skip
def test_a_verdict_of_the_readers_own_with_a_quoted_review_is_a_rating(
    said: str, book: str, stars: int, review: str
) -> None:
    assert _calls(said) == _rate(book, stars, review=review)


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        ("Beloved gets a four from me", "Beloved", 4),
        ("Emma deserves a 4", "Emma", 4),
        ("Piranesi is a 5 in my book", "Piranesi", 5),
        ("The Road gets 2 stars from me, far too bleak", "The Road", 2),
        ("Middlemarch merits a five", "Middlemarch", 5),
    ],
)
def test_a_verdict_of_the_readers_own_is_a_rating(said: str, book: str, stars: int) -> None:
    assert _calls(said) == _rate(book, stars)


@pytest.mark.parametrize(
    "said",
    [
        "Dune gets 5 stars on Goodreads",
        "my friend gave Dune 5 stars",
        "Emma is 3 stars",
        "Five stars for me",
        "Right, a few things:\n1. make a list called Spring\n2. add Dune to it",
    ],
)
def test_a_grade_told_of_others_or_a_numbered_list_is_no_rating_said(said: str) -> None:
    assert rating_said(said) is None


# --- the grade as an aside, then a request ------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "stars", "listed"),
    [
        ("Stoner was brilliant — 4 stars — and you can take it off my Cabin now.", "Stoner", 4,
         "Cabin"),
        ("Dune was fab, 5 stars, and take it off Summer please", "Dune", 5, "Summer"),
        ("Emma: 3 stars, and remove it from Classics", "Emma", 3, "Classics"),
        ("Beloved was devastating - 5 stars - so please take it off Autumn", "Beloved", 5,
         "Autumn"),
        ("Gilead, 4/5, then pull it off Winter", "Gilead", 4, "Winter"),
    ],
)  # fmt: skip
def test_a_grade_said_as_an_aside_before_a_request_rates_and_makes_the_request(
    said: str, book: str, stars: int, listed: str
) -> None:
    assert _calls(said) == [
        *_rate(book, stars),
        ("remove_from_list", {"list": listed, "book": book}),
    ]


# --- scales ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("Dune 8/10", "Dune 4 stars"),
        ("10 out of 10 for Beloved", "5 stars for Beloved"),
        ("rate Emma six out of ten", "rate Emma 3 stars"),
        ("Dune 7/10", "Dune 7/10"),
        ("give it 9 out of 10", "give it 9 out of 10"),
    ],
)
def test_a_grade_out_of_ten_is_stars_only_when_it_halves(said: str, read: str) -> None:
    assert out_of_ten(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "give Emma three and a half stars",
        "Dune gets 3.5 from me",
        "Stoner is a solid B",
        "rate Dune 7/10",
        "3.5 stars for Beloved",
    ],
)
def test_an_unsure_grade_is_never_made_a_rating(said: str) -> None:
    made = _calls(said)
    assert not (isinstance(made, list) and any(name == "rate_book" for name, _ in made))


# --- a grade with no book, on a book's page -----------------------------------------------------


@pytest.mark.parametrize(
    ("said", "stars"),
    [("/rate 4", 4), ("rate 5 please", 5), ("/rate 2 stars", 2), ("Rate: 3", 3), ("rate 8/10", 4)],
)
def test_a_grade_with_no_book_rates_the_book_on_the_page(said: str, stars: int) -> None:
    assert _calls(said, ON_A_PAGE) == _rate(PAGE, stars)


def test_a_grade_with_no_book_and_no_page_asks_which_book() -> None:
    assert isinstance(_calls("/rate 4"), str)


# --- a value taken back and said again ----------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Rebecca on to Summer please — actually no, it's a cold nights book, make that Autumn",
        "Rebecca on Summer please - no wait, make it Autumn",
        "put Rebecca on Summer — hmm, actually no, it suits the evenings, make that Autumn",
        "add Rebecca to Summer, actually no, it's a long one, make that Autumn",
        "Rebecca onto Winter... no sorry, Autumn",
    ],
)
def test_a_list_taken_back_puts_the_book_on_the_one_settled_on(said: str) -> None:
    assert _calls(said) == [("add_to_list", {"list": "Autumn", "book": "Rebecca"})]


@pytest.mark.parametrize(
    ("said", "book", "listed", "stars"),
    [
        ("Add Gilead to Summer — actually make that Autumn — and I'd rate it a 4", "Gilead",
         "Autumn", 4),
        ("add Dune to Summer, no sorry, Cabin, and rate it 5 stars", "Dune", "Cabin", 5),
        ("put Emma on Summer - wait, Winter - and give it 3 stars", "Emma", "Winter", 3),
        ("pop Stoner on Cabin — I mean Autumn — and give it 2 stars", "Stoner", "Autumn", 2),
    ],
)  # fmt: skip
def test_a_request_after_the_value_said_again_is_kept(
    said: str, book: str, listed: str, stars: int
) -> None:
    assert _calls(said) == [("add_to_list", {"list": listed, "book": book}), *_rate(book, stars)]


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        ("rate Dune 3 stars, no sorry, 4", "Dune", 4),
        ("rate Dune 3 stars — no wait, 4 stars", "Dune", 4),
        ("give Emma 2 stars... actually no, 3", "Emma", 3),
        ("rate Emma 2, actually make it 3", "Emma", 3),
        ("Five stars for Beloved — no wait, four", "Beloved", 4),
    ],
)
def test_a_grade_taken_back_rates_with_the_one_settled_on(said: str, book: str, stars: int) -> None:
    assert _calls(said) == _rate(book, stars)


@pytest.mark.parametrize(
    ("said", "book", "year"),
    [
        ("Moby-Dick's year is wrong, should be 1850 — no sorry, 1851, I always mix that up. "
         "Can you correct it?", "Moby-Dick", 1851),
        ("the year of Dune should be 1964, no wait, 1965", "Dune", 1965),
        ("Jane Eyre's year is off, it should be 1846 - sorry, 1847. Please fix it", "Jane Eyre",
         1847),
        ("correct the year of Emma to 1816 — no, 1815", "Emma", 1815),
        ("Middlemarch's year should be 1870... oops, I mean 1871", "Middlemarch", 1871),
    ],
)  # fmt: skip
def test_a_year_taken_back_is_corrected_to_the_one_settled_on(
    said: str, book: str, year: int
) -> None:
    assert said_again(said).count(str(year)) == 1
    made = _calls(said)
    assert made == [("propose_correction", {"book": book, "published_year": year})]


def test_a_value_of_another_kind_after_a_take_back_is_left_alone() -> None:
    said = "rate Dune 4 stars, no wait, add it to Summer"
    assert said_again(said) == said
    assert said_again("add 2 books, no 3") == "add 2 books, no 3"


# --- a reply after a question -------------------------------------------------------------------

SHOWN = [
    ("user", "is Beloved on my Classics list?"),
    ("assistant", "Your list 'Classics':\n1. Middlemarch\n2. Emma"),
]


@pytest.mark.parametrize(
    "said",
    [
        "no? ok then bung it on",
        "oh it's not? then add it",
        "not there? pop it on then please",
        "no? right, chuck it in then",
        "nope? fine, stick it on",
    ],
)
def test_an_answer_said_back_before_a_request_leaves_the_request(said: str) -> None:
    assert _calls(said, history=SHOWN) == [("add_to_list", {"list": "Classics", "book": "Beloved"})]


def test_an_answer_said_back_alone_is_left_whole() -> None:
    assert echo_dropped("no?") == "no?"
    assert echo_dropped("no? ok then bung it on") == "bung it on"


ADDED = [("user", "add Little Women to Bedtime"), ("assistant", "Added Little Women to Bedtime.")]


@pytest.mark.parametrize(
    "said",
    [
        "actually no take it off again, too sad for the little one",
        "hmm no, remove it again please",
        "on second thoughts take it back off",
        "undo that, take it off",
        "changed my mind, take it off again",
    ],
)
def test_a_book_just_put_on_a_list_taken_off_again_leaves_that_list(said: str) -> None:
    assert _calls(said, history=ADDED) == [
        ("remove_from_list", {"list": "Bedtime", "book": "Little Women"})
    ]


def test_a_book_just_taken_off_put_back_goes_on_the_list_it_left() -> None:
    removed = [("user", "take Emma off Classics"), ("assistant", "Removed Emma from Classics.")]
    assert _calls("actually put it back", history=removed) == [
        ("add_to_list", {"list": "Classics", "book": "Emma"})
    ]


def test_taking_it_off_again_with_nothing_added_before_is_not_an_undo() -> None:
    asked = [("user", "what is Emma about?"), ("assistant", "Emma is a novel by Jane Austen.")]
    made = _calls("take it off again", history=asked)
    assert not (isinstance(made, list) and made and made[0][1].get("list") == "Bedtime")


# --- thanks with praise -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Thank you, love, you've been ever so patient with me.",
        "Thanks mate, you're a star, honestly a lifesaver",
        "Thank you so much, that was really helpful to me today!",
        "Cheers, pet, you've been a great help this afternoon",
        "Thanks, you have been incredibly kind about all of it",
    ],
)
def test_thanks_with_praise_only_is_kept_whole(said: str) -> None:
    assert without_courtesy(said) == said


def test_thanks_before_a_request_is_still_set_aside() -> None:
    said = "Thank you, you've been great. Now please add Emma to my Summer list"
    assert without_courtesy(said) != said  # a request after the praise: the thanks is set aside
