"""Mechanisms the tenth pass's book requests lacked, each phrased fresh (no sentence of it).

From dev10 (pool-v10): requests typed on a phone (emoji for verbs, arrows, chat
abbreviations), courtesy frames, a writer and year in brackets after a title; a remark after
a stored list's name or after the grade with no comma; titles said aloud (numbers as words,
"and" for an ampersand, "book X", the small words inside a lower-case title, a title said
without its subtitle); a grade said again; a grade alone is no title; counts of categories;
corrections (the year shown is no title, several writers kept, a category changed "to" a
value or with none said); "the list" after a part used one; "not a kids' book" after "but,".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.list_pointing import on_the_list
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.compound import clauses, without_more
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.slots import stars_of
from lectern.adapters.understanding.spoken import said_forms, tidied, with_subtitle
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

CATALOG = {
    "stoner": "Stoner",
    "kindred": "Kindred",
    "middlesex": "Middlesex",
    "the 39 steps": "The 39 Steps",
    "dombey & son": "Dombey & Son",
    "the remains of the day": "The Remains of the Day",
}
LISTS = ("Gifts", "Oldies", "Night shift")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]
SUBTITLED = {"walden": "Walden; or, Life in the Woods", "dune": "Dune Messiah"}


def _key(words: str) -> str:
    return " ".join(words.strip().casefold().split())


def _is_title(words: str) -> bool:
    return _key(words) in CATALOG


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(_key(title))
    return [(found, "Someone", 10)] if found else []


def _spelt(title: str) -> str | None:
    return SUBTITLED.get(_key(title))


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("t", tool, dict(arguments))


def _calls(
    text: str, system: str = SYSTEM, history: Sequence[Message] = ()
) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title, books=_books, spelt=_spelt)
    messages = [*history, Message("user", text)]
    reply = policy.complete_with_tools(messages, TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _planned(intent: str, said: str) -> list[tuple[str, dict[str, Any]]] | Clarification | None:
    planned = plan_books(intent, said, Names({"list": list(LISTS)}), str, _call)
    if isinstance(planned, list):
        return [(c.name, dict(c.arguments)) for c in planned]
    return planned


# --- typed on a phone: emoji, arrows, chat abbreviations, courtesy ------------------------


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("✖️ Stoner off Oldies 😤", "remove Stoner off Oldies"),
        ("🗑 Night shift list thx", "delete Night shift list thx"),
        ("rename Gifts -> Presents 🎁", "rename Gifts to Presents"),
        ("put kindred on gifts asap lol", "put kindred on gifts"),
        ("Would you be so kind as to rate Stoner 4", "rate Stoner 4"),
        ("Rate Kindred (Octavia Butler, 1979) 4/5", "Rate Kindred 4/5"),
        ("Kindred = ⭐⭐⭐⭐ 🙂", "Kindred = ⭐⭐⭐⭐"),
    ],
)
def test_a_request_typed_on_a_phone_is_read_as_words(said: str, read: str) -> None:
    assert tidied(said) == read


def test_an_emoji_in_place_of_the_verb_is_the_verb() -> None:
    assert _calls("✖️ Middlesex from Gifts 😬") == [
        ("remove_from_list", {"list": "Gifts", "book": "Middlesex"})
    ]


def test_an_arrow_between_two_names_renames() -> None:
    assert _calls("rename Oldies ➡️ Old favourites ✨") == [
        ("rename_list", {"list": "Oldies", "new_name": "Old favourites"})
    ]


def test_a_writer_and_year_in_brackets_are_no_part_of_the_title() -> None:
    assert _calls("Give 'Kindred' (O. Butler, 1979): 4/5") == [
        ("rate_book", {"book": "Kindred", "stars": 4})
    ]


# --- the reader's remark, with no comma to mark it -----------------------------------------


def test_a_remark_after_a_stored_list_name_is_no_part_of_the_book() -> None:
    assert _planned("remove_from_list", "take stoner out of oldies we never got round to it") == [
        ("remove_from_list", {"list": "Oldies", "book": "stoner"})
    ]


def test_a_remark_after_the_grade_is_no_part_of_the_book() -> None:
    assert _planned("rate_book", "give middlesex three stars i loved the middle bit") == [
        ("rate_book", {"book": "middlesex", "stars": 3})
    ]


def test_the_small_words_inside_a_lower_case_title_are_kept() -> None:
    assert _planned("add_to_list", "pop the remains of the day onto gifts") == [
        ("add_to_list", {"list": "Gifts", "book": "remains of the day"})
    ]


# --- titles said aloud ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("rate the thirty-nine steps 4 stars", "The 39 Steps"),
        ("add dombey and son to Oldies", "Dombey & Son"),
        ("put the novel Kindred on Gifts", "Kindred"),
    ],
)
def test_a_title_said_aloud_is_read_as_the_catalog_holds_it(said: str, title: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list)
    assert calls[0][1]["book"] == title


def test_said_forms_offer_each_reading_once() -> None:
    assert said_forms("book sixty one nights") == ["sixty one nights", "book 61 nights"]
    assert said_forms("stoner") == []


def test_a_change_may_name_a_book_without_its_subtitle_only() -> None:
    assert _calls("rate Walden 5 stars") == [
        ("rate_book", {"book": "Walden; or, Life in the Woods", "stars": 5})
    ]
    # "Dune Messiah" starts with "Dune" but is another book: a change never reaches it.
    assert _calls("rate Dune 5 stars") == [("rate_book", {"book": "Dune", "stars": 5})]
    assert with_subtitle("Walden; or, Life in the Woods", "walden")
    assert not with_subtitle("Dune Messiah", "Dune")


# --- grades ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "stars"),
    [
        ("three stars for Stoner... hmm, make it two", 2),
        ("Kindred is a 5, or rather a 4", 4),
        ("Stoner: 4 stars", 4),
    ],
)
def test_the_grade_said_last_is_the_rating(said: str, stars: int) -> None:
    assert stars_of(said) == stars


def test_a_grade_said_again_in_its_own_sentence_is_one_request() -> None:
    said = "rate Middlesex two stars. Make it three."
    assert clauses(said) == []
    # The grade said again is no review either.
    assert _calls(said) == [("rate_book", {"book": "Middlesex", "stars": 3})]


def test_a_grade_alone_is_no_title() -> None:
    assert isinstance(_planned("rate_book", "just give four stars"), Clarification)
    # With the book pointed at, the grade goes to it.
    planned = plan_books(
        "rate_book", "really enjoyed this one, four stars", Names(), _in_view, _call
    )
    assert isinstance(planned, list)
    assert [(c.name, c.arguments) for c in planned] == [
        ("rate_book", {"book": "Kindred", "stars": 4})
    ]


def _in_view(reference: str) -> str:
    return "Kindred" if reference in ("it", "this") else reference


# --- the catalog's categories ----------------------------------------------------------------


def test_how_many_categories_are_asked_for() -> None:
    assert _planned("catalog_facets", "list the 8 largest genres") == [
        ("catalog_facets", {"top": 8})
    ]
    calls = _calls("what categories does the catalog have? the top 15")
    assert isinstance(calls, list)
    assert calls[0] == ("catalog_facets", {"top": 15})


# --- corrections ------------------------------------------------------------------------------


def test_the_year_the_record_shows_is_no_title() -> None:
    said = "kindred says 1999!! it was published in 1979"
    assert _planned("propose_correction", said) == [
        ("propose_correction", {"book": "kindred", "published_year": 1979})
    ]


def test_several_writers_who_stay_are_each_kept() -> None:
    said = "stoner credits tom smith as an author?? authors should be only Jo Wills and Ann Lee"
    assert _planned("propose_correction", said) == [
        ("propose_correction", {"book": "stoner", "authors": ["Jo Wills", "Ann Lee"]})
    ]


def test_a_category_changed_to_a_value_said_after_to() -> None:
    said = "Middlesex is shelved under Poetry so change the category to Fiction."
    assert _calls(said) == [
        ("propose_correction", {"book": "Middlesex", "categories": ["Fiction"]})
    ]


def test_a_category_to_change_with_none_said_is_asked() -> None:
    reply = _calls("fix the category of Kindred")
    assert isinstance(reply, str)
    assert "category" in reply


# --- several requests and read-alikes --------------------------------------------------------


def test_the_list_after_a_part_used_one_is_that_list() -> None:
    assert on_the_list("now show me the list", "Gifts") == "now show me the Gifts list"
    assert on_the_list("start a list called Dusk", "Gifts") == "start a list called Dusk"


def test_not_a_kids_book_after_but_and_a_comma_asks_for_adults() -> None:
    calls = _calls("anything similar to Kindred but, honestly, not a kids' book")
    assert isinstance(calls, list)
    assert calls[0] == ("similar_books", {"book": "Kindred", "limit": 5, "exclude_youth": True})


def test_a_closing_tell_me_more_asks_nothing_the_question_does_not() -> None:
    assert without_more("when did Kindred come out? and give me some more info") == (
        "when did Kindred come out?"
    )
    assert without_more("tell me more") == "tell me more"
    calls = _calls("who wrote Middlesex? tell me more please")
    assert isinstance(calls, list)
    assert [name for name, _ in calls] == ["get_book_details"]


@pytest.mark.parametrize(
    "said",
    [
        "retitle 'Sweep the logs' as 'Sweep the logs (T1078)'",
        "call the new list 'Classics (1950s)'",
        "rename it to Audit (T1110)",
    ],
)
def test_brackets_inside_quotes_or_holding_an_id_are_kept(said: str) -> None:
    assert tidied(said) == said
