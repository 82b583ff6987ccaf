"""Mechanisms found on requests written without the rules (pool-v3), each phrased fresh.

Several requests in one message, several books in one slot, the title a sentence's opening
words are not, corrections stated against the record, searches' refusals ("nothing longer
than", "isn't by", "nothing YA"), lists named without the word list, and questions asked
where a list or the books pointed at are unknown.
"""

from __future__ import annotations

from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.book_plan import plan_books, title_in
from lectern.adapters.understanding.compound import clauses, titles_in
from lectern.adapters.understanding.corrections import (
    authors_of,
    correction_of,
    language_of,
    year_of,
)
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.mentions import Names, names_from_prompt
from lectern.adapters.understanding.ruled_out import ruled_out
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec
from lectern.domain.normalize.languages import language_code

CATALOG = {"stoner", "kindred", "middlesex", "war and peace", "the remains of the day"}
LISTS = ("Gifts", "Oldies", "Weekend")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _is_title(words: str) -> bool:
    return words.strip().casefold() in CATALOG


def _calls(text: str, system: str = SYSTEM) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title)
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("t", tool, dict(arguments))


# --- several requests, several books ---------------------------------------------------------


def test_a_second_request_starts_where_a_verb_follows_and_or_then() -> None:
    assert clauses("put Stoner on Gifts and then give it four stars") == [
        "put Stoner on Gifts",
        "give it four stars",
    ]
    assert clauses("war and peace and kindred") == []  # no verb after "and": one request
    # A verb said once for several ratings: each piece becomes a rating of its own.
    assert clauses("rate Stoner 4 and Kindred 5") == ["rate Stoner 4 stars", "rate Kindred 5 stars"]
    assert clauses("3 stars for Kindred, 5 for Stoner and 2 for War and Peace") == [
        "rate Kindred 3 stars",
        "rate Stoner 5 stars",
        "rate War and Peace 2 stars",
    ]
    assert clauses("give Stoner 5 stars and add it to Gifts") == [
        "give Stoner 5 stars",
        "add it to Gifts",
    ]


def test_each_clause_is_planned_alone_and_it_is_the_earlier_clauses_book() -> None:
    assert _calls("add Kindred to the Gifts list and rate it 4 stars") == [
        ("add_to_list", {"list": "Gifts", "book": "Kindred"}),
        ("rate_book", {"book": "Kindred", "stars": 4}),
    ]


def test_a_verb_said_once_for_two_ratings_rates_both() -> None:
    assert _calls("rate Middlesex 2 stars and Stoner 5 stars") == [
        ("rate_book", {"book": "Middlesex", "stars": 2}),
        ("rate_book", {"book": "Stoner", "stars": 5}),
    ]


def test_a_look_up_is_a_part_but_one_that_plans_nothing_keeps_the_message_whole() -> None:
    # A look-up is a part of its own now (dev4: "..., then show me my lists"); a part that
    # plans nothing still leaves the message whole.
    assert clauses("add Stoner to the Gifts list and tell me about it") == [
        "add Stoner to the Gifts list",
        "tell me about it",
    ]
    reply = _calls("delete the Weekend list and make it snappy")  # "make it snappy" plans nothing
    assert isinstance(reply, list) and len(reply) == 1


def test_titles_joined_by_and_split_only_where_each_part_is_a_title() -> None:
    assert titles_in("Stoner and Kindred", _is_title) == ["Stoner", "Kindred"]
    assert titles_in("War and Peace", _is_title) == ["War and Peace"]
    assert titles_in("War and Peace and Middlesex", _is_title) == ["War and Peace", "Middlesex"]
    assert titles_in("Stoner and a cookbook", _is_title) == ["Stoner and a cookbook"]
    assert _calls("put Stoner and Kindred on the Oldies list") == [
        ("add_to_list", {"list": "Oldies", "book": "Stoner"}),
        ("add_to_list", {"list": "Oldies", "book": "Kindred"}),
    ]


def test_a_new_list_with_named_books_is_made_and_filled() -> None:
    assert _calls("start a list called Long ones with War and Peace and Middlesex") == [
        ("create_list", {"name": "Long ones"}),
        ("add_to_list", {"list": "Long ones", "book": "War and Peace"}),
        ("add_to_list", {"list": "Long ones", "book": "Middlesex"}),
    ]


# --- the title a message names ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("four stars for The Remains of the Day, so good", "The Remains of the Day"),
        ("loved The Jungle Book as a kid", "The Jungle Book"),
        ("I've just read Kindred, take it off Gifts", "Kindred"),
        ("If I liked Middlesex what else would I like", "Middlesex"),
        ("We Were Liars is on my mind", "We Were Liars"),
    ],
)
def test_a_sentences_opening_words_are_not_its_title(text: str, title: str) -> None:
    assert title_in(text) == title


def test_a_capital_it_inside_a_sentence_is_the_novel_and_these_are_asked() -> None:
    assert _calls("take It off the Weekend list") == [
        ("remove_from_list", {"list": "Weekend", "book": "It"})
    ]
    asked = _calls("put these on the Gifts list")
    assert isinstance(asked, str) and "Which books" in asked


def test_leading_fillers_and_pls_do_not_change_the_request() -> None:
    assert _calls("ok pls create list Sea Stories") == [("create_list", {"name": "Sea Stories"})]


# --- corrections stated against the record ------------------------------------------------------


def test_the_right_value_is_the_one_not_marked_as_what_the_record_shows() -> None:
    assert year_of("Kindred shows 1990 but it came out in 1979") == 1979
    assert year_of("first printed 1965, your record says 1972") == 1965
    assert year_of("it says 1972") is None
    assert language_of("please fix the language, Stoner is an English novel") == "English"
    assert authors_of("the author of Kindred is Octavia Butler, not Jane Doe") == ["Octavia Butler"]
    assert correction_of("what a lovely day") is None


def test_a_stated_correction_is_proposed_for_the_book_it_names() -> None:
    assert _calls("Middlesex says 1999 but it was published in 2002") == [
        ("propose_correction", {"book": "Middlesex", "published_year": 2002})
    ]
    assert _calls("Stoner should be listed as English") == [
        ("propose_correction", {"book": "Stoner", "language": "English"})
    ]
    planned = plan_books(
        "propose_correction",
        "the author of Kindred is Octavia Butler, not Jane Doe",
        Names(),
        str,
        _call,
    )
    assert isinstance(planned, list)
    assert planned[0].arguments == {"book": "Kindred", "authors": ["Octavia Butler"]}


def test_a_language_named_in_english_is_a_code_the_catalog_takes() -> None:
    assert language_code("Russian") == "ru"
    assert language_code("fre") == "fr"
    assert language_code("Klingon") is None


def test_a_record_that_says_something_is_a_correction_cue() -> None:
    assert "propose_correction" not in ruled_out("your page says 1990 for Stoner", Names())


# --- searches and lists ---------------------------------------------------------------------


def test_refusals_in_a_search_become_its_filters() -> None:
    found = _calls("looking for sci-fi novels, none by Frank Herbert")
    assert isinstance(found, list) and found[0][1]["exclude_authors"] == ["Frank Herbert"]
    found = _calls("recommend a fantasy novel that isn't by Brandon Sanderson")
    assert isinstance(found, list) and found[0][1]["exclude_authors"] == ["Brandon Sanderson"]
    found = _calls("find me some romance novels, nothing for teens")
    assert isinstance(found, list) and found[0][1].get("exclude_youth") is True


def test_a_list_named_without_the_word_list_is_that_list() -> None:
    assert _calls("what's on Weekend?") == [("get_list_details", {"list": "Weekend"})]
    assert _calls("show me the books in Oldies") == [("get_list_details", {"list": "Oldies"})]


def test_a_list_the_reader_lacks_is_asked_not_filled() -> None:
    asked = _calls("add Stoner to my poetry list")
    assert isinstance(asked, str) and "no list called 'poetry'" in asked


def test_a_rating_out_of_five_is_no_sum() -> None:
    assert _calls("give kindred 3/5") == [("rate_book", {"book": "kindred", "stars": 3})]


def test_should_be_called_is_a_rename_of_a_list_the_reader_has() -> None:
    lists = names_from_prompt(SYSTEM)
    assert "rename_list" not in ruled_out("Weekend should be called Saturday now", lists)
    planned = plan_books("rename_list", "Weekend should be called Saturday now", lists, str, _call)
    assert isinstance(planned, list)
    assert planned[0].arguments == {"list": "Weekend", "new_name": "Saturday"}


def test_a_book_moved_between_two_of_the_readers_lists_leaves_one_for_the_other() -> None:
    assert _calls("could you shift Stoner from the Weekend list over to Oldies") == [
        ("remove_from_list", {"list": "Weekend", "book": "Stoner"}),
        ("add_to_list", {"list": "Oldies", "book": "Stoner"}),
    ]
    moved_on = _calls("move on to the next topic")  # names no list: nothing is moved
    assert isinstance(moved_on, str) or not any(n.endswith("_list") for n, _ in moved_on)


def test_more_refusals_and_values_said_other_ways() -> None:
    found = _calls(
        "hunting for romance novels, nothing over 200 pages, none by Nora Roberts or Jo Baker"
    )
    assert isinstance(found, list)
    assert found[0][1]["exclude_authors"] == ["Nora Roberts", "Jo Baker"]
    assert "over 200" not in found[0][1]["query"]
    assert authors_of("the author on Stoner is wrong, it's John Williams") == ["John Williams"]
    lists = names_from_prompt(SYSTEM)
    planned = plan_books("rename_list", "Oldies ought to be called Classics", lists, str, _call)
    assert isinstance(planned, list)
    assert planned[0].arguments == {"list": "Oldies", "new_name": "Classics"}


def test_how_thoroughly_to_delete_is_not_the_lists_name() -> None:
    assert _calls("delete the list Weekend for good") == [("delete_list", {"list": "Weekend"})]


def test_a_verdict_names_its_book_before_the_verb() -> None:
    planned = plan_books("rate_book", "stoner was superb, four stars", Names(), str, _call)
    assert isinstance(planned, list)
    assert planned[0].arguments == {"book": "stoner", "stars": 4}


def test_comparable_to_asks_for_similar_books() -> None:
    found = _calls("anything comparable to Kindred?")
    assert isinstance(found, list) and found[0][0] == "similar_books"
    assert found[0][1]["book"] == "Kindred"
