"""Mechanisms the ninth pass's book requests lacked, each phrased fresh (no sentence of it).

Found by trying it (session 15): a list made with its books may be only the first of the
message's requests (the reading that leaves no request behind wins); a part that asks nothing
alone is read with the next; a new list wished for, then named; who translated or edited a
book and its page count are details questions; the words before a correction's value.
From dev9 (pool-v9): titles several books share; the reader's own lists checked by name;
corrections said as what the record holds; "it", "both of them", "there" and a title's short
form; misspelt titles for look-ups only; grades "of five", read-alikes asked through a reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.book_plan import plan_books, title_in
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.referents import book_resolver
from lectern.adapters.understanding.slots import stars_of
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

CATALOG = {"stoner", "kindred", "middlesex", "war and peace", "the remains of the day"}
LISTS = ("Gifts", "Oldies")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _is_title(words: str) -> bool:
    return words.strip().casefold() in CATALOG


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    return [(title.strip().title(), "Someone", 10)] if _is_title(title) else []


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("t", tool, dict(arguments))


def _calls(
    text: str, system: str = SYSTEM, history: Sequence[Message] = ()
) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title, books=_books)
    messages = [*history, Message("user", text)]
    reply = policy.complete_with_tools(messages, TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def test_a_request_after_a_list_made_with_its_book_is_kept() -> None:
    assert _calls("throw Kindred on a fresh list named Winter nights and then rate it five") == [
        ("create_list", {"name": "Winter nights"}),
        ("add_to_list", {"list": "Winter nights", "book": "Kindred"}),
        ("rate_book", {"book": "Kindred", "stars": 5}),
    ]


def test_a_list_made_with_its_books_alone_is_still_one_reading() -> None:
    assert _calls("start a new list Porch with Stoner and Middlesex") == [
        ("create_list", {"name": "Porch"}),
        ("add_to_list", {"list": "Porch", "book": "Stoner"}),
        ("add_to_list", {"list": "Porch", "book": "Middlesex"}),
    ]


def test_a_part_that_asks_nothing_alone_is_read_with_the_next() -> None:
    said = "we'd like a list for the holidays, name it Fireside, then add Stoner and Kindred to it"
    assert _calls(said) == [
        ("create_list", {"name": "Fireside"}),
        ("add_to_list", {"list": "Fireside", "book": "Stoner"}),
        ("add_to_list", {"list": "Fireside", "book": "Kindred"}),
    ]


@pytest.mark.parametrize(
    "said",
    ["who illustrated Kindred?", "who's the editor of Kindred", "translator of Kindred"],
)
def test_everyone_a_book_credits_is_asked_after_in_its_record(said: str) -> None:
    assert _calls(said) == [("get_book_details", {"book": "Kindred"})]


# --- books that share a title ---------------------------------------------------------------

SHARED = {
    "the orchard": [("The Orchard", "Ann Pike", 1000), ("The Orchard", "Bo Kerr", 50)],
    "kindred": [("Kindred", "Octavia E. Butler", 1000), ("Kindred", "Cy Dunn", 5)],
}


def _shared(title: str) -> Sequence[tuple[str, str, int]]:
    return SHARED.get(title.strip().casefold(), [])


def test_a_title_a_lesser_read_book_shares_is_asked_about() -> None:
    policy = RulePolicy(titles=lambda w: w.strip().casefold() in SHARED, books=_shared)
    said = [Message("user", "put The Orchard on my Gifts list")]
    reply = policy.complete_with_tools(said, TOOLS, system=SYSTEM)
    assert not reply.tool_calls
    assert "Which 'The Orchard'" in reply.text
    said = [Message("user", "put Kindred on my Gifts list")]  # a rival with 0.5% of readers
    reply = policy.complete_with_tools(said, TOOLS, system=SYSTEM)
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("add_to_list", {"list": "Gifts", "book": "Kindred"})
    ]


# --- the reader's lists, named as they are or not at all -------------------------------------


def test_a_list_the_reader_lacks_is_asked_about_before_taking_a_book_off() -> None:
    assert isinstance(_calls("pull Kindred off my Westerns list"), str)


def test_a_list_name_two_of_theirs_fit_alike_is_asked_about() -> None:
    system = "\n".join([NAMES_HEADER, "- list: Winter 2023", "- list: Winter 2024"])
    asked = _calls("scrap the winter list", system)
    assert isinstance(asked, str)
    assert "Winter 2023" in asked and "Winter 2024" in asked


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "pop Middlesex into the Oldies.",
            [("add_to_list", {"list": "Oldies", "book": "Middlesex"})],
        ),
        ("yank Stoner out of Gifts", [("remove_from_list", {"list": "Gifts", "book": "Stoner"})]),
        ("axe oldies", [("delete_list", {"list": "Oldies"})]),
    ],
)
def test_a_list_of_theirs_said_without_the_word_list(
    said: str, expected: list[tuple[str, dict[str, Any]]]
) -> None:
    assert _calls(said) == expected


def test_a_list_just_made_is_where_there_points() -> None:
    assert _calls("make a list called Porch and put Stoner on there") == [
        ("create_list", {"name": "Porch"}),
        ("add_to_list", {"list": "Porch", "book": "Stoner"}),
    ]


# --- corrections said as what the record holds --------------------------------------------------


@pytest.mark.parametrize(
    ("said", "fields"),
    [
        (
            "Middlesex credits Tom Reed as a co-author; he did the translation. "
            "The sole author is Jeffrey Eugenides.",
            {"authors": ["Jeffrey Eugenides"]},
        ),
        (
            "Stoner has Ann Lee as an author - she edited it. John Williams is the author.",
            {"authors": ["John Williams"]},
        ),
        (
            "Kindred is down as Spanish in the catalogue; it is an English novel.",
            {"language": "English"},
        ),
    ],
)
def test_what_the_record_holds_set_against_the_right_value(
    said: str, fields: dict[str, Any]
) -> None:
    planned = _calls(said)
    assert isinstance(planned, list)
    assert [name for name, _ in planned] == ["propose_correction"]
    assert {k: v for k, v in planned[0][1].items() if k != "book"} == fields


# --- what "it" and "both of them" point at ------------------------------------------------------


def test_it_is_the_book_the_readers_last_message_named_when_no_reply_cited_one() -> None:
    history = [Message("user", "just wrapped up Kindred last night"), Message("assistant", "Done.")]
    assert _calls("give it five stars", history=history) == [
        ("rate_book", {"book": "Kindred", "stars": 5})
    ]


def test_both_of_them_after_a_list_was_shown_is_each_of_its_books() -> None:
    history = [
        Message("user", "show me Oldies"),
        Message("assistant", "Your list 'Oldies':\n1. Stoner\n2. Kindred"),
    ]
    assert _calls("give both of them 2 stars", history=history) == [
        ("rate_book", {"book": "Stoner", "stars": 2}),
        ("rate_book", {"book": "Kindred", "stars": 2}),
    ]
    assert isinstance(_calls("give all three of them 2 stars", history=history), str)


# --- titles shortened, misspelt or run on --------------------------------------------------------


def test_a_later_shortening_of_a_title_just_named_is_that_book() -> None:
    assert _calls("put The Remains of the Day on my Gifts list and rate the Remains 3 stars") == [
        ("add_to_list", {"list": "Gifts", "book": "The Remains Of The Day"}),
        ("rate_book", {"book": "The Remains Of The Day", "stars": 3}),
    ]


def test_a_misspelt_title_is_read_for_a_look_up_and_never_for_a_change() -> None:
    def spelt(title: str) -> str | None:
        # Like the catalog's matcher, it reads a held title's first words as a longer one.
        return "Middlesex" if "middles" in title.casefold() else "Stoner Revisited"

    policy = RulePolicy(titles=_is_title, books=_books, spelt=spelt)

    def calls(text: str) -> list[tuple[str, dict[str, Any]]]:
        reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=SYSTEM)
        return [(c.name, dict(c.arguments)) for c in reply.tool_calls]

    assert calls("who is the author of middlesx") == [("get_book_details", {"book": "Middlesex"})]
    assert calls("who wrote Stoner") == [("get_book_details", {"book": "Stoner"})]
    # A change is never made on a spelling read: the reader is asked, the title offered.
    assert calls("put middlesx on my Gifts list") == []
    question = policy.complete_with_tools(
        [Message("user", "put middlesx on my Gifts list")], TOOLS, system=SYSTEM
    )
    assert question.suggestions == ("Middlesex",)


def test_the_reader_saying_im_does_not_run_on_a_title() -> None:
    assert title_in("just read Middlesex and I'm in pieces") == "Middlesex"


# --- ratings, read-alikes, lists ------------------------------------------------------------------


def test_a_grade_of_five_without_out_is_the_stars() -> None:
    assert stars_of("Kindred gets a three of five from me") == 3
    assert stars_of("one of five friends liked it") is None


@pytest.mark.parametrize(
    "said",
    ["the page count of Stoner please", "what is the length of Stoner", "page count for Stoner?"],
)
def test_a_page_count_asked_as_a_noun_is_the_books_length(said: str) -> None:
    assert _calls(said) == [("get_book_details", {"book": "Stoner"})]


@pytest.mark.parametrize(
    "said",
    [
        "anything you'd recommend for a teen who devoured Kindred?",
        "if i enjoyed kindred, what else should i pick up",
    ],
)
def test_what_someone_liked_asks_for_read_alikes(said: str) -> None:
    planned = _calls(said)
    assert isinstance(planned, list)
    assert [(name, args["book"]) for name, args in planned] == [("similar_books", "Kindred")]


def test_a_count_of_things_is_the_read_alikes_limit() -> None:
    planned = plan_books(
        "similar_books", "loved Kindred, send six things like that", Names(), str, _call
    )
    assert isinstance(planned, list)
    assert planned[0].arguments["limit"] == 6


def test_a_book_said_to_leave_or_join_a_list_of_theirs() -> None:
    assert _calls("Stoner should come out of Gifts") == [
        ("remove_from_list", {"list": "Gifts", "book": "Stoner"})
    ]
    assert _calls("Kindred can go on the Oldies list too") == [
        ("add_to_list", {"list": "Oldies", "book": "Kindred"})
    ]


def test_a_list_of_theirs_renamed_as_another_name() -> None:
    assert _calls("rename 'Oldies' as 'Golden'") == [
        ("rename_list", {"list": "Oldies", "new_name": "Golden"})
    ]


def test_a_record_brought_up_by_title_and_writer_is_a_look_up_of_the_title() -> None:
    assert _calls("can you bring up the details for Kindred by Octavia Butler") == [
        ("get_book_details", {"book": "Kindred"})
    ]


def test_a_writer_named_beside_a_change_that_points_is_no_title() -> None:
    said = "oh right, Hardy. give it 3 stars then"
    cited = "Tess was written by Thomas Hardy [book:11111111-2222-3333-4444-555555555555#authors]."
    history = [Message("user", "who wrote Tess"), Message("assistant", cited)]
    it = book_resolver(history, SYSTEM, said, None, lambda name: name.casefold() == "hardy")
    planned = plan_books("rate_book", said, Names(), it, _call)
    assert isinstance(planned, list)
    assert [(c.name, c.arguments) for c in planned] == [
        ("rate_book", {"book": "11111111-2222-3333-4444-555555555555", "stars": 3})
    ]


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        (
            "the author of Kindred is wrong, it should be Octavia Butler",
            "authors",
            ["Octavia Butler"],
        ),
        (
            "the author of Kindred is wrong - the real author is Octavia Butler",
            "authors",
            ["Octavia Butler"],
        ),
        (
            "the category of Kindred is wrong, it's science fiction",
            "categories",
            ["science fiction"],
        ),
    ],
)
def test_the_words_before_a_corrections_value_are_not_the_value(
    said: str, field: str, value: list[str]
) -> None:
    calls = _calls(said)
    assert isinstance(calls, list) and calls[0][0] == "propose_correction", calls
    assert calls[0][1]["book"] == "Kindred" and calls[0][1][field] == value


def test_a_list_filled_from_a_search_keeps_its_search_first() -> None:
    # The changes of a search-first plan come from its results: they do not count against
    # the message read part by part.
    assert _calls("make a list called Porch and add three gothic novels to it") == [
        ("search_books", {"query": "gothic novels", "limit": 3})
    ]
