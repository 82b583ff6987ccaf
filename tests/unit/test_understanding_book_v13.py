"""Mechanisms the thirteenth pass's book requests lacked, each phrased fresh beside dev13's own.

From dev13 (pool-v13): a book told to be on a list already ("this is on my Spooky list by
mistake, please take it off") asks to put nothing there, and names the list a later "take it
off" means; a correction naming only its field and value ("language should be english", "the
year here is wrong") is of the book in view; two languages set against each other ("X isn't
in French, it's English") say a correction, the one denied being no part of the title.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import pytest

from lectern.adapters.llm.list_pointing import with_the_book
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.book_patterns import NAME_SHOULD_BE
from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.corrections import language_of
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.intents import (
    IntentReading,
    IntentScore,
    NearestExampleClassifier,
)
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.list_told import list_told, tells_a_list_holds
from lectern.adapters.understanding.mentions import names_from_prompt, resolve
from lectern.adapters.understanding.referents import book_resolver, list_in_view
from lectern.adapters.understanding.ruled_out import ruled_out
from lectern.adapters.understanding.scaffold import ASKING
from lectern.adapters.understanding.slots import list_name_of
from lectern.adapters.understanding.spoken import tidied
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

CATALOG = {"holes": "Holes", "gilead": "Gilead", "coraline": "Coraline", "misery": "Misery"}
LISTS = ("Summer", "Dnf", "Spooky")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
PAGE_BOOK = "0b3c2a56-3c8e-4f3e-9a53-0d2b5c1f7e11"
PAGE = f"The reader is on a book page: Coraline (id {PAGE_BOOK})."
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]
NAMES = names_from_prompt(SYSTEM)


def _in_view(reference: str) -> str:
    return (
        PAGE_BOOK
        if reference.casefold() in ("it", "here", "on this page", "this page")
        else reference
    )


def _nowhere(reference: str) -> str:
    return reference


def _call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall("c", name, arguments)


class _ListMinded:
    """Reads as MiniLM did: a telling about a list is nearest adding; "take off", removing;
    "stars", rating."""

    def classify(
        self, text: str, allowed: Iterable[str], boosts: Mapping[str, float] | None = None
    ) -> IntentReading:
        del allowed, boosts
        removes = re.search(r"\b(?:take|remove)\b", text, re.I) is not None
        rates = re.search(r"\bstars?\b", text, re.I) is not None
        order = ["remove_from_list", "add_to_list"] if removes else ["add_to_list"]
        order = ["rate_book", *order] if rates and not removes else order
        order += [i for i in ("delete_list", "get_list_details") if i not in order]
        scores = (0.3, 0.15, 0.14, 0.13)
        ranked = tuple(IntentScore(i, s) for i, s in zip(order, scores, strict=False))
        return IntentReading(ranked, confidence=0.97, margin=0.15)


def _calls(
    text: str, system: str = f"{SYSTEM}\n{PAGE}", history: Sequence[Message] = ()
) -> list[tuple[str, dict[str, Any]]]:
    def books(title: str) -> Sequence[tuple[str, str, int]]:
        found = CATALOG.get(title.strip().casefold())
        return [(found, "Someone", 10)] if found else []

    layer = Understanding(cast(NearestExampleClassifier, _ListMinded()))
    policy = RulePolicy(
        layer=layer, titles=lambda words: words.strip().casefold() in CATALOG, books=books
    )
    reply = policy.complete_with_tools([*history, Message("user", text)], TOOLS, system=system)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


# --- a book told to be on a list already -----------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "this is on my Spooky list by mistake, please take it off",
        "it's in the Summer list by accident, can you remove it",
        "Holes is on my Dnf list but it shouldn't be - take it out",
        "this book's still on my Summer list, remove it",
    ],
)
def test_a_book_told_on_a_list_is_neither_added_nor_the_list_deleted(said: str) -> None:
    assert {"add_to_list", "delete_list"} <= ruled_out(said, NAMES)


@pytest.mark.parametrize(
    "said",
    [
        "Holes is on my Summer list, add Gilead too",
        "Holes is on the Summer list, please delete the whole Summer list",
        "can you put Holes on my Summer list",
    ],
)
def test_a_request_beside_what_a_list_holds_is_still_read(said: str) -> None:
    gone = ruled_out(said, NAMES)
    assert "add_to_list" not in gone or "delete_list" not in gone


def test_telling_names_the_list_and_a_question_does_not() -> None:
    assert list_told("this is on my Summer list by mistake", NAMES) == "Summer"
    assert list_told("Holes is in the Dnf list", NAMES) == "Dnf"
    assert list_told("is Holes on my Summer list?", NAMES) is None
    assert not tells_a_list_holds("add Holes to my Summer list")


@pytest.mark.parametrize(
    "said",
    [
        "this is on my Spooky list by mistake, please take it off",
        "it's in the Spooky list by accident, can you remove it",
        "this one is on my Spooky list, take it out",
    ],
)
def test_take_it_off_after_the_telling_removes_the_book_in_view(said: str) -> None:
    assert _calls(said) == [("remove_from_list", {"list": "Spooky", "book": PAGE_BOOK})]


def test_the_telling_alone_adds_nothing() -> None:
    made = [name for name, _ in _calls("this is on my Spooky list by mistake")]
    assert "add_to_list" not in made


# --- a correction with its book unsaid, or two languages set against each other --------------


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("Dolores Claiborne isn't in French, it's English", "English"),
        ("trainspotting is english not french pls correct", "English"),
        ("Emma isn't in Spanish, it's English", "English"),
        ("persuasion is german not english", "German"),
    ],
)
def test_two_languages_set_against_each_other_say_the_right_one(said: str, language: str) -> None:
    assert language_of(said) == language


def test_a_language_wished_for_in_a_search_is_no_correction() -> None:
    assert language_of("I want French novels") is None


@pytest.mark.parametrize(
    ("said", "fields"),
    [
        ("language should be english", {"language": "English"}),
        ("the language should be French", {"language": "French"}),
        ("the year here is wrong, it was published in 1943", {"published_year": 1943}),
        ("the date on this page is wrong, should be 1943", {"published_year": 1943}),
    ],
)
def test_a_correction_without_its_book_means_the_book_in_view(
    said: str, fields: dict[str, Any]
) -> None:
    planned = plan_books("propose_correction", said, NAMES, _in_view, _call)
    assert planned == [ToolCall("c", "propose_correction", {"book": PAGE_BOOK, **fields})]


def test_a_correction_without_its_book_and_none_in_view_is_asked() -> None:
    planned = plan_books("propose_correction", "language should be english", NAMES, _nowhere, _call)
    assert planned is None


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("trainspotting is english not french pls correct", "trainspotting"),
        ("Dolores Claiborne isn't in French, it's English", "Dolores Claiborne"),
    ],
)
def test_the_denied_language_is_no_part_of_the_title(said: str, book: str) -> None:
    planned = plan_books("propose_correction", said, NAMES, _nowhere, _call)
    assert planned == [ToolCall("c", "propose_correction", {"book": book, "language": "English"})]


@pytest.mark.parametrize("said", ["here", "on here", "this page", "on this page"])
def test_here_and_this_page_point_at_the_book_in_view(said: str) -> None:
    assert book_resolver([], f"{SYSTEM}\n{PAGE}")(said) == PAGE_BOOK


# --- how a request is opened: a greeting, "could you possibly" --------------------------------


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        (
            "Hi! I'd like to rate Brave New World four stars and Animal Farm five stars.",
            "I'd like to rate Brave New World four stars and Animal Farm five stars.",
        ),
        ("Hello, please add Holes to Summer", "please add Holes to Summer"),
        ("hey there, could you rate Gilead 4", "could you rate Gilead 4"),
        ("Good morning! show me my lists", "show me my lists"),
    ],
)
def test_a_greeting_before_a_request_is_no_part_of_it(said: str, asked: str) -> None:
    assert tidied(said) == asked


@pytest.mark.parametrize(
    "said", ["Hi! First time using this", "Good evening, I am new here", "hello there!"]
)
def test_a_greeting_before_no_request_stays(said: str) -> None:
    assert tidied(said) == said


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("Could you possibly put it on my list called Someday?", "put it on"),
        ("could you kindly create a list named Poesia", "create a list"),
        ("would you perhaps add Holes to Summer", "add Holes"),
    ],
)
def test_could_you_possibly_is_how_the_request_is_asked(said: str, asked: str) -> None:
    assert ASKING.sub("", said).startswith(asked)


def test_could_you_possibly_after_what_was_told_reads_the_title_told() -> None:
    said = (
        "Hello, I have just finished a podcast about Afghanistan and I would like to read "
        "Gilead. Could you possibly put it on my list called Summer?"
    )
    assert _calls(said, system=SYSTEM) == [("add_to_list", {"list": "Summer", "book": "Gilead"})]


# --- a new list's name: "the name is X", and who it is for ------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("I would like create a new list, the name is Poesia", "Poesia"),
        ("create a list, its name should be Plays.", "Plays"),
        ("new reading list please, the name will be Road trip", "Road trip"),
        (
            "Could you possibly create a reading list named Neighbours Club for us?",
            "Neighbours Club",
        ),
        ("start a list called Gifts for her birthday", "Gifts"),
    ],
)
def test_a_list_name_said_as_its_name_or_before_whom_it_is_for(said: str, name: str) -> None:
    assert list_name_of(said) == name


def test_a_capitalised_word_after_for_is_part_of_the_name() -> None:
    assert list_name_of("make a list called Books for Them") == "Books for Them"


# --- "Rebecca itself" --------------------------------------------------------------------------


@pytest.mark.parametrize("said", ["Holes itself", "Gilead itself", "the book itself"])
def test_itself_after_a_book_is_no_part_of_it(said: str) -> None:
    resolved = book_resolver([], f"{SYSTEM}\n{PAGE}")(said)
    assert resolved == {"Holes itself": "Holes", "Gilead itself": "Gilead"}.get(said, PAGE_BOOK)


# --- the list the last reply made, and "and Mort 5" after a rating -----------------------------


def _reply(text: str) -> list[Message]:
    return [Message("user", "earlier"), Message("assistant", text)]


@pytest.mark.parametrize(
    ("reply", "listed"),
    [
        ("Done: Create the reading list 'Cosy'.", "Cosy"),
        (
            'I have prepared this change ...\n1. Create the reading list "Mum\'s picks" [a]',
            "Mum's picks",
        ),
        ("Done: Rename the list 'Kids' to 'Family'.", "Family"),
        ("1. Create the reading list 'A' [a]\n2. Create the reading list 'B' [b]", None),
        ("Done: Add 'Holes' to the list 'Summer'.", None),
    ],
)
def test_the_list_the_last_reply_made_is_the_list_in_view(reply: str, listed: str | None) -> None:
    assert list_in_view(_reply(reply)) == listed


def test_add_to_it_after_a_list_was_made_adds_to_that_list() -> None:
    history = [
        Message("user", "create a list called Cosy"),
        Message("assistant", "Done: Create the reading list 'Cosy'."),
    ]
    system = f"{SYSTEM}\n- list: Cosy"
    assert _calls("add Gilead to it", system=system, history=history) == [
        ("add_to_list", {"list": "Cosy", "book": "Gilead"})
    ]


@pytest.mark.parametrize(
    ("said", "rating"),
    [
        ("and Coraline 5", {"book": "Coraline", "stars": 5}),
        ("& Gilead 4/5", {"book": "Gilead", "stars": 4}),
        ("and Misery 2 stars", {"book": "Misery", "stars": 2}),
    ],
)
def test_a_book_and_stars_after_a_rating_rate_that_book(said: str, rating: dict[str, Any]) -> None:
    history = [
        Message("user", "rate Holes 4 stars"),
        Message("assistant", "Done: Rate 'Holes' 4 stars."),
    ]
    assert _calls(said, history=history) == [("rate_book", rating)]


def test_a_book_and_a_number_after_another_change_is_not_a_rating() -> None:
    history = [
        Message("user", "add Holes to Summer"),
        Message("assistant", "Done: Add 'Holes' to the list 'Summer'."),
    ]
    assert all(name != "rate_book" for name, _ in _calls("and Gilead 5", history=history))


# --- wrong arguments: a list named by filler words, a book unsaid in a later part -------------


@pytest.mark.parametrize("name", ["Reading", "Reading now", "The List", "My books"])
def test_a_list_named_by_filler_words_is_found_by_its_whole_name(name: str) -> None:
    assert resolve(name, [name, "Summer"]).name == name


def test_a_removal_from_a_list_named_reading_is_of_that_list() -> None:
    system = f"{SYSTEM}\n- list: Reading\n{PAGE}"
    assert _calls("give Holes four stars and remove it from my Reading list please", system) == [
        ("rate_book", {"book": "Holes", "stars": 4}),
        ("remove_from_list", {"list": "Reading", "book": "Holes"}),
    ]


@pytest.mark.parametrize(
    ("part", "read"),
    [
        ("remove from Reading now", "remove it from Reading now"),
        ("please take off Summer", "please take it off Summer"),
        ("add to Dnf", "add it to Dnf"),
        ("remove Holes from Summer", "remove Holes from Summer"),
    ],
)
def test_a_later_part_with_its_book_unsaid_means_the_book_before(part: str, read: str) -> None:
    assert with_the_book(part) == read


def test_stars_then_a_removal_with_the_book_unsaid_are_both_of_the_book_in_view() -> None:
    assert _calls("I finished it, 5 stars and please remove from Spooky now") == [
        ("rate_book", {"book": PAGE_BOOK, "stars": 5}),
        ("remove_from_list", {"list": "Spooky", "book": PAGE_BOOK}),
    ]


# --- a list spoken of as what goes; a book not wanted on a list -------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "please the list Summer must be deleted",
        "the Dnf list should be removed",
        "Summer list has to be binned",
    ],
)
def test_a_list_said_to_be_deleted_is_deleted(said: str) -> None:
    planned = plan_books("remove_from_list", said, NAMES, _nowhere, _call)
    assert isinstance(planned, list)
    assert [c.name for c in planned] == ["delete_list"]


def test_a_book_said_to_be_removed_from_a_list_is_removed() -> None:
    planned = plan_books(
        "remove_from_list", "Holes must be removed from the Summer list", NAMES, _nowhere, _call
    )
    assert planned == [_call("remove_from_list", list="Summer", book="Holes")]


@pytest.mark.parametrize(
    "said", ["the Dnf list should be removed", "list Summer should be deleted"]
)
def test_should_be_deleted_is_no_new_name(said: str) -> None:
    assert NAME_SHOULD_BE.search(said) is None


def test_should_be_a_name_still_renames() -> None:
    assert NAME_SHOULD_BE.search("the list Horor should be Horror") is not None


@pytest.mark.parametrize(
    "said",
    [
        "I don't want Eat, Pray, Love on Travel anymore",
        "i dont want Holes on my Summer list anymore",
        "Holes doesn't belong on Summer",
        "I no longer want Gilead in Dnf",
    ],
)
def test_a_book_not_wanted_on_a_list_is_never_added(said: str) -> None:
    assert "add_to_list" in ruled_out(said, NAMES)


def test_wanting_a_book_on_a_list_may_still_add_it() -> None:
    assert "add_to_list" not in ruled_out("I want Holes on my Summer list", NAMES)


@pytest.mark.parametrize(
    ("said", "limit"),
    [
        ("similar books to Holes, 10 of them", 10),
        ("books like Gilead - give me 3 of them", 3),
        ("more like Holes, thanks", None),
    ],
)
def test_how_many_read_alikes_said_after_the_request(said: str, limit: int | None) -> None:
    planned = plan_books("similar_books", said, NAMES, _nowhere, _call)
    assert isinstance(planned, list)
    assert planned[0].arguments.get("limit") == limit


# --- "..., so it can come off my X list": the clause's "it" is the title told before ----------


@pytest.mark.parametrize(
    "said",
    [
        "Hi! I finished Holes last night and loved it, so it can come off my Summer list.",
        "I finished Holes, so it can come off Summer now",
        "Holes was great; it can come off the Summer list",
    ],
)
def test_it_as_the_subject_of_leaving_a_list_is_the_title_told(said: str) -> None:
    assert _calls(said, system=SYSTEM) == [
        ("remove_from_list", {"list": "Summer", "book": "Holes"})
    ]


def test_a_book_as_the_subject_of_leaving_a_list_stays_that_book() -> None:
    assert _calls("Gilead can come off Summer now", system=SYSTEM) == [
        ("remove_from_list", {"list": "Summer", "book": "Gilead"})
    ]


# --- "what's on the list?" with no list in view ------------------------------------------------


@pytest.mark.parametrize("said", ["what's on the list?", "what is in the list", "show me the list"])
def test_the_list_with_several_and_none_in_view_is_asked(said: str) -> None:
    assert _calls(said, system=SYSTEM) == []


def test_the_list_of_a_reader_with_one_list_is_that_list() -> None:
    one = "\n".join([NAMES_HEADER, "- reader: ana", "- list: Summer"])
    assert _calls("what's on the list?", system=one) == [("get_list_details", {"list": "Summer"})]
