"""Mechanisms the eleventh pass's book requests lacked, each phrased fresh (no sentence of it).

From dev11 (pool-v11): a value taken back and said again ("to A, no wait, to B") for removals,
renames, adds and moves, and a removal from a list never read as deleting lists; two lists made
with one verb; a part asking for "similar books" after a part that named one; the lists asked
for by who has them; corrections whose right value is what the record "should be" or is
"actually" (every writer named, never a pronoun), or with no value said at all; a change asked
as whether it can be done; a rename said as changing a name; a book's card; "in your
catalogue" after a question; "too" for "to" before a list; "clear out my list" asked about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.compound import clauses
from lectern.adapters.understanding.corrections import authors_of, year_of
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.request_frames import unframed
from lectern.adapters.understanding.self_corrected import settled_value
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

CATALOG = {
    "gilead": "Gilead",
    "the secret history": "The Secret History",
    "piranesi": "Piranesi",
    "the goldfinch": "The Goldfinch",
    "a gentleman in moscow": "A Gentleman in Moscow",
}
LISTS = ("Summer", "Cabin", "Loans", "Someday")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _key(words: str) -> str:
    return " ".join(words.strip().casefold().split())


def _is_title(words: str) -> bool:
    return _key(words) in CATALOG


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(_key(title))
    return [(found, "Someone", 10)] if found else []


def _calls(text: str, system: str = SYSTEM) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title, books=_books)
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


# --- a value taken back ----------------------------------------------------------------------


def test_a_list_taken_back_in_a_removal_is_replaced_and_no_list_is_deleted() -> None:
    said = "take Piranesi off Cabin -- actually no, off Loans, Cabin keeps it"
    assert _calls(said) == [("remove_from_list", {"list": "Loans", "book": "Piranesi"})]


def test_a_new_name_taken_back_in_a_rename_is_replaced() -> None:
    said = "rename Someday to Later, no wait, to Eventually maybe"
    assert _calls(said) == [("rename_list", {"list": "Someday", "new_name": "Eventually maybe"})]


def test_a_bare_value_after_i_mean_replaces_the_last_one() -> None:
    assert _calls("put Gilead on Cabin, I mean Summer") == [
        ("add_to_list", {"list": "Summer", "book": "Gilead"})
    ]


def test_a_bare_value_that_is_no_list_replaces_the_book_not_the_list() -> None:
    assert _calls("stick Gilead on Cabin, sorry I meant Piranesi") == [
        ("add_to_list", {"list": "Cabin", "book": "Piranesi"})
    ]


def test_a_book_taken_back_before_its_list_is_replaced() -> None:
    assert _calls("put Gilead, oops, Piranesi on Cabin") == [
        ("add_to_list", {"list": "Cabin", "book": "Piranesi"})
    ]


def test_where_the_book_is_said_again_is_where_it_comes_from() -> None:
    assert _calls("drop Gilead from Loans - hang on, it's on Someday") == [
        ("remove_from_list", {"list": "Someday", "book": "Gilead"})
    ]


def test_no_alone_takes_back_a_capitalised_name() -> None:
    assert _calls("rename Cabin to Lodge, no, Chalet") == [
        ("rename_list", {"list": "Cabin", "new_name": "Chalet"})
    ]


def test_a_filler_before_the_take_back_is_part_of_it() -> None:
    assert _calls("pull Gilead out of Summer - umm no, out of Loans") == [
        ("remove_from_list", {"list": "Loans", "book": "Gilead"})
    ]


def test_the_first_change_kept_undone_leaves_only_the_second() -> None:
    said = "take Piranesi off Cabin... actually leave it there, and drop it from Someday"
    assert _calls(said) == [("remove_from_list", {"list": "Someday", "book": "Piranesi"})]


def test_only_the_phrase_taken_back_changes_in_a_move() -> None:
    assert settled_value("move Gilead from Cabin to Summer - sorry, from Loans") == (
        "move Gilead from Loans to Summer"
    )


@pytest.mark.parametrize(
    "said",
    [
        "add Gilead to Summer, no rush",  # "no" alone may begin a remark
        "rate Gilead 4 stars, actually make it 5",  # a grade again: the grade readers' part
        "add Gilead to Summer... wait, add Piranesi to Cabin",  # a request said again whole
    ],
)
def test_what_is_no_value_taken_back_is_left_as_said(said: str) -> None:
    assert settled_value(said) == said


def test_removing_from_two_named_lists_never_deletes_them() -> None:
    said = "remove Gilead from Cabin and Summer, it's done"
    calls = _calls(said)
    assert isinstance(calls, str) or all(name != "delete_list" for name, _ in calls)


# --- compounds -------------------------------------------------------------------------------


def test_two_lists_made_with_one_verb_are_two_lists() -> None:
    assert clauses("make a Westerns list and a Sagas one") == [
        "make a list called Westerns",
        "make a list called Sagas",
    ]
    assert _calls("start a new Essays list & a Letters list") == [
        ("create_list", {"name": "Essays"}),
        ("create_list", {"name": "Letters"}),
    ]


def test_two_lists_named_after_the_plural_are_two_lists() -> None:
    assert _calls("set up two new lists: Myths and Fables") == [
        ("create_list", {"name": "Myths"}),
        ("create_list", {"name": "Fables"}),
    ]


def test_a_list_named_with_and_inside_is_one_list() -> None:
    assert clauses("create a Rock and Roll list") == []


def test_similar_books_after_a_named_book_are_like_that_book() -> None:
    assert _calls("What is Piranesi about, then recommend some similar novels") == [
        ("get_book_details", {"book": "Piranesi"}),
        ("similar_books", {"book": "Piranesi", "limit": 5}),
    ]


def test_the_lists_asked_for_by_who_has_them_after_a_deletion() -> None:
    assert _calls("bin my Loans list, then tell me what lists I still have") == [
        ("delete_list", {"list": "Loans"}),
        ("get_reading_lists", {}),
    ]


@pytest.mark.parametrize(
    "said",
    [
        "how many titles sit on all of my lists",
        "what is in every list",
        "list my other lists",
    ],
)
def test_counts_across_every_list_are_the_reading_lists(said: str) -> None:
    assert _calls(said) == [("get_reading_lists", {})]


# --- corrections -----------------------------------------------------------------------------


def test_the_writers_the_record_should_credit_are_each_kept() -> None:
    said = "Gilead was co-authored by Ann Lee, so the authors should be Tom Park and Ann Lee"
    assert authors_of(said) == ["Tom Park", "Ann Lee"]


def test_a_pronoun_is_never_a_writer() -> None:
    said = "Piranesi credits Jo Bell as author. He only edited it; author should be just Mia Cole"
    assert authors_of(said) == ["Mia Cole"]
    assert authors_of("Gilead names Jo Bell. He only wrote notes") is None


def test_the_author_field_should_say_one_name_not_the_others() -> None:
    said = "The Goldfinch byline should only say Rosa Diaz, not Ken Abe and the editor"
    assert authors_of(said) == ["Rosa Diaz"]


@pytest.mark.parametrize(
    "said",
    [
        "Piranesi lists 2019 as its year - should be 2020.",
        "Piranesi carries the year as 2019, it should be 2020",
    ],
)
def test_the_year_field_said_before_its_value_names_no_book(said: str) -> None:
    assert _calls(said) == [("propose_correction", {"book": "Piranesi", "published_year": 2020})]


def test_the_year_said_to_be_right_wins_over_the_year_shown() -> None:
    assert year_of("the record has it from 1998 - it was actually 1997, please fix") == 1997
    assert year_of("Gilead shows 2011 but the publication year should be 2004") == 2004


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("could you correct the writer of Piranesi?", "writer of Piranesi"),
        ("Please update the publication year for book Gilead.", "publication year of Gilead"),
        ("change the language", "language be"),
        ("fix Piranesi's writer please", "writer of Piranesi"),
        ("the date on The Goldfinch looks wrong, could you fix it?", "date of The Goldfinch"),
        ("Gilead's language needs correcting", "language of Gilead"),
        ("I'd like to amend the authors for Piranesi", "authors of Piranesi"),
    ],
)
def test_a_field_to_change_with_no_value_is_asked(said: str, asked: str) -> None:
    reply = _calls(said)
    assert isinstance(reply, str) and asked in reply


def test_a_list_to_clear_with_none_named_is_asked_never_deleted() -> None:
    reply = _calls("empty out the list")
    assert isinstance(reply, str) and "Which list" in reply


# --- requests in frames ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("is it possible to stick Gilead on Cabin?", "stick Gilead on Cabin"),
        ("how can I drop Piranesi from Loans", "drop Piranesi from Loans"),
        ("change the name of Cabin to Lakehouse", "rename Cabin to Lakehouse"),
        ("update Loans's name to Lent out", "rename Loans to Lent out"),
        ("pop gilead too my Cabin list", "pop gilead to my Cabin list"),
        ("take piranesi off me loans list", "take piranesi off my loans list"),
        ("would it be possible to rate Gilead 4", "rate Gilead 4"),
        ("how do I reset my password", "how do I reset my password"),
        ("is there a way you could drop Gilead off Cabin", "drop Gilead off Cabin"),
        ("rename the Cabin list as Lakehouse", "rename the Cabin list to Lakehouse"),
    ],
)
def test_a_framed_request_is_read_as_the_request(said: str, read: str) -> None:
    assert unframed(said) == read


def test_a_change_asked_as_whether_it_can_be_done_is_made() -> None:
    assert _calls("Is there any way for me to add The Secret History to my summer list?") == [
        ("add_to_list", {"list": "Summer", "book": "The Secret History"})
    ]


@pytest.mark.parametrize(
    "said",
    ["bring up the listing for A Gentleman in Moscow", "open the profile of A Gentleman in Moscow"],
)
def test_a_books_card_or_listing_is_its_details(said: str) -> None:
    assert _calls(said)[0] == (  # type: ignore[index]
        "get_book_details",
        {"book": "A Gentleman in Moscow"},
    )


def test_where_the_answer_is_kept_is_no_part_of_a_language_question() -> None:
    assert _calls("which language is The Goldfinch written in, according to your records?")[
        0  # type: ignore[index]
    ] == ("get_book_details", {"book": "The Goldfinch"})


@pytest.mark.parametrize(
    "said",
    [
        "the year for Piranesi is off, it came out in 2020",
        "the date on Piranesi isn't right - it was published in 2020",
    ],
)
def test_a_value_said_to_be_off_is_corrected(said: str) -> None:
    assert _calls(said) == [("propose_correction", {"book": "Piranesi", "published_year": 2020})]
