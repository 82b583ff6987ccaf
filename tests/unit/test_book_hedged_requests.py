"""Book requests wrapped in courtesy, hedges, address forms, reasons and non-native phrasing.

Each dev16 sentence stands beside phrasings of the same construct in other words and names:
a request hedged ("I wonder, if it's no bother, whether you might ..."), the assistant called
by its name ("Hey Lectern, ..."), a list deleted as "cancel" or "eliminate", a rename with
"in" for "to" and why after the new name, a new list said as "one", a grade told then asked
to be kept ("..., can you put that"), formal words ("place upon it", "in that order"), books
that "resemble" one, and a greeting with only a newcomer's words after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.courtesy import without_courtesy
from lectern.adapters.understanding.formal import plain_words
from lectern.adapters.understanding.hedges import unhedged
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.list_as_one import list_said_as_one
from lectern.adapters.understanding.rating_told import rating_told
from lectern.adapters.understanding.stored_renamed import stored_renamed
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

PAGE_ID = "5acefb36-210d-58a6-b1ab-a58082180a23"
CATALOG = {
    "rebecca": "Rebecca",
    "dune": "Dune",
    "wolf hall": "Wolf Hall",
    "the remains of the day": "The Remains of the Day",
    "the brothers karamazov": "The Brothers Karamazov",
    "anna karenina": "Anna Karenina",
    "dracula": "Dracula",
    "charlotte's web": "Charlotte's Web",
    "holes": "Holes",
    "station eleven": "Station Eleven",
    "middlemarch": "Middlemarch",
    "the secret history": "The Secret History",
}
LISTS = ("Misc", "Da Leggere", "Prova", "Now", "Old Stuff", "A Lire")
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _system(lists: Sequence[str] = LISTS, page: bool = False) -> str:
    lines = [NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in lists)]
    if page:
        lines.insert(0, f"The reader is on a book page 'Neuromancer' (id {PAGE_ID}).")
    return "\n".join(lines)


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(" ".join(title.casefold().split()))
    return [(found, "Someone", 10)] if found else []


def _is_title(words: str) -> bool:
    return bool(_books(words))


def _calls(
    text: str, lists: Sequence[str] = LISTS, *, page: bool = False
) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title, books=_books)
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=_system(lists, page))
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


# --- hedges --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        (
            "I wonder, if it's no bother, whether you might set up a list for me called Maybe "
            "Someday? Only if it's easy.",
            "please set up a list for me called Maybe Someday?",
        ),
        (
            "Would it be all right to maybe rename Misc to Odds and Ends? Sorry, I know it's a "
            "small thing.",
            "please rename Misc to Odds and Ends?",
        ),
        (
            "If you have a moment, maybe a few books a bit like Rebecca? I'd be so grateful.",
            "a few books a bit like Rebecca?",
        ),
        (
            "I was wondering if you could possibly add Dune to my TBR, if that's ok? No rush!",
            "please add Dune to my TBR?",
        ),
        (
            "Is it alright to remove Emma from Summer? Apologies for the bother.",
            "please remove Emma from Summer?",
        ),
        (
            "If it isn't too much trouble, might you make me a list called Long Winter? I'd be "
            "ever so grateful.",
            "please make me a list called Long Winter?",
        ),
        ("when you get a chance, pls delte the Old list", "pls delte the Old list"),
    ],
)
def test_the_hedges_around_a_request_are_no_part_of_it(said: str, plain: str) -> None:
    assert unhedged(said) == plain


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        (
            "Would you mind terribly renaming Misc to Odds and Ends?",
            "please rename Misc to Odds and Ends?",
        ),
        ("do you mind setting up a list called Beach", "please set up a list called Beach"),
        ("Could I ask you to delete the Old list?", "please delete the Old list?"),
        ("I would appreciate it if you could rate Dune 4 stars", "please rate Dune 4 stars"),
        (
            "It would be lovely if you could make a list called Beach",
            "please make a list called Beach",
        ),
        ("Perhaps you could find me books like Rebecca?", "please find me books like Rebecca?"),
    ],
)
def test_a_request_asked_as_whether_one_minds_is_the_request(said: str, plain: str) -> None:
    assert unhedged(said) == plain


@pytest.mark.parametrize(
    "said",
    [
        "If I finish it, add it to Read",  # a real condition: the change waits for it
        "Maybe later add Dune",  # a plan, read as one elsewhere
        "add Dune to my TBR",
        "Only if it's easy.",  # a hedge alone leaves nothing: kept as said
    ],
)
def test_words_that_are_not_hedges_stay(said: str) -> None:
    assert unhedged(said) == said


@pytest.mark.parametrize(
    ("said", "call"),
    [
        (
            "I wonder, if it's no bother, whether you might set up a list for me called Maybe "
            "Someday? Only if it's easy.",
            ("create_list", {"name": "Maybe Someday"}),
        ),
        (
            "I wondered whether you could perhaps start a list named Some Day Soon, if that's no "
            "bother.",
            ("create_list", {"name": "Some Day Soon"}),
        ),
        (
            "Would it be all right to maybe rename Misc to Odds and Ends? Sorry, I know it's a "
            "small thing.",
            ("rename_list", {"list": "Misc", "new_name": "Odds and Ends"}),
        ),
        (
            "Is it ok to perhaps rename Old Stuff to Archive? sorry, silly request i know",
            ("rename_list", {"list": "Old Stuff", "new_name": "Archive"}),
        ),
        (
            "When you get a chance, could you delete the Prova list? Much appreciated.",
            ("delete_list", {"list": "Prova"}),
        ),
    ],
)
def test_a_hedged_change_is_made(said: str, call: tuple[str, dict[str, Any]]) -> None:
    assert _calls(said) == [call]


@pytest.mark.parametrize(
    ("said", "book"),
    [
        (
            "If you have a moment, maybe a few books a bit like Rebecca? I'd be so grateful.",
            "Rebecca",
        ),
        (
            "If you've got a minute, perhaps some books like The Secret History? Would be lovely.",
            "The Secret History",
        ),
        ("when you have time, maybe some novels similar to Dune. No rush!", "Dune"),
    ],
)
def test_a_hedged_ask_for_similar_books_is_no_search(said: str, book: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list)
    assert [(name, args["book"]) for name, args in calls] == [("similar_books", book)]


# --- the assistant called by its name, a greeting before a short request ------------------


@pytest.mark.parametrize(
    ("said", "rest"),
    [
        ("Hey Lectern, tell me about Station Eleven", "tell me about Station Eleven"),
        ("Hey Lectern, five stars for this one", "five stars for this one"),
        ("Lectern, add Dune to Now", "add Dune to Now"),
        ("ok lectern whats dune about", "whats dune about"),
        ("add Dune to my TBR, Lectern.", "add Dune to my TBR."),
        ("Hi, tell me about Station Eleven", "tell me about Station Eleven"),
        ("Hi! First time using this", "Hi! First time using this"),
    ],
)
def test_the_assistant_called_by_name_is_an_address(said: str, rest: str) -> None:
    assert without_courtesy(said) == rest


def test_a_request_after_the_assistant_s_name_is_read() -> None:
    assert _calls("Hey Lectern, tell me about Station Eleven")[0][0] == "get_book_details"  # type: ignore[index]
    assert _calls("Hey Lectern, give this one five stars", page=True) == [
        ("rate_book", {"book": PAGE_ID, "stars": 5})
    ]
    assert _calls("Lectern: give this book 4 stars", page=True) == [
        ("rate_book", {"book": PAGE_ID, "stars": 4})
    ]
    assert _calls("Hey Lectern, add Dune to Now") == [
        ("add_to_list", {"list": "Now", "book": "Dune"})
    ]


# --- a greeting and a newcomer's words ------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "greeting"),
    [
        (
            "Good evening. I trust I find you well; it is my first visit to this establishment.",
            "Good evening.",
        ),
        ("Hello there! I'm new here, just signed up today.", "Hello there!"),
        ("Good morning. This is my first time using this app.", "Good morning."),
    ],
)
def test_a_greeting_with_only_a_newcomer_s_words_is_the_greeting(said: str, greeting: str) -> None:
    assert without_courtesy(said) == greeting


def test_a_well_wish_said_with_trust_is_courtesy() -> None:
    said = "Good morning. I trust you are well. Could you add Middlemarch to my Now list?"
    assert without_courtesy(said) == "Could you add Middlemarch to my Now list?"


# --- a list deleted as "cancel", a reason after it -----------------------------------------


@pytest.mark.parametrize(
    ("said", "listed"),
    [
        ("Please, cancel the list Prova, I made it only for try", "Prova"),
        ("cancel my Old Stuff list please, I don't use it anymore", "Old Stuff"),
        ("can you eliminate the list Misc?", "Misc"),
        ("suppress the list A Lire, because I read them all", "A Lire"),
        ("Cancel list Now, it was a test", "Now"),
    ],
)
def test_a_list_cancelled_or_eliminated_is_deleted(said: str, listed: str) -> None:
    assert _calls(said) == [("delete_list", {"list": listed})]


def test_cancel_that_deletes_nothing() -> None:
    calls = _calls("cancel that, I changed my mind about the Prova list")
    assert not (isinstance(calls, list) and any(name == "delete_list" for name, _ in calls))


# --- a stored list renamed with "in", and why after the new name ----------------------------


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        (
            "I would like to change the name of my list Da Leggere in To Read, because my "
            "husband don't understand Italian",
            "rename Da Leggere to To Read",
        ),
        (
            "please rename Prova in Already Read since nobody here speaks Italian",
            "rename Prova to Already Read",
        ),
        (
            "I want to change the name of the list A Lire into To Read, my kids don't read French",
            "rename A Lire to To Read",
        ),
        ("rename Misc to Odds and Ends because it sounds nicer", "rename Misc to Odds and Ends"),
        ("change the name of Old Stuff as Archive (so I find it)", "rename Old Stuff to Archive"),
    ],
)
def test_a_stored_list_renamed_otherwise_is_a_plain_rename(said: str, plain: str) -> None:
    assert stored_renamed(said, LISTS) == plain


def test_a_rename_of_no_stored_list_is_left_to_the_rules() -> None:
    assert stored_renamed("change the name of Winter in Summer", LISTS) is None


def test_the_rename_said_with_in_and_a_reason_renames_the_list() -> None:
    assert _calls(
        "I would like to change the name of my list Da Leggere in To Read, because my husband "
        "don't understand Italian"
    ) == [("rename_list", {"list": "Da Leggere", "new_name": "To Read"})]


# --- a new list said as "one" ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("I need one list for each kid. Start with one called Emma's Books", "Emma's Books"),
        (
            "I want separate lists for every season. Can you make one called Winter Nights?",
            "Winter Nights",
        ),
        ("My lists are a mess, so let's begin with a new one named Keepers", "Keepers"),
        ("a list per book club would help. create one titled Tuesday Group", "Tuesday Group"),
    ],
)
def test_one_called_after_lists_were_spoken_of_is_a_new_list(said: str, name: str) -> None:
    assert _calls(said) == [("create_list", {"name": name})]


def test_one_called_with_no_list_spoken_of_is_no_list() -> None:
    assert list_said_as_one("Start with one called Emma's Books") is None
    assert list_said_as_one("I loved the one called Holes") is None


# --- a grade told, then asked to be kept ----------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "stars"),
    [
        (
            "my daughter says Charlotte's Web is 3 stars (she cried too much), can you put that",
            "Charlotte's Web",
            3,
        ),
        ("my son thinks Holes is a 5/5 so please save that", "Holes", 5),
        ("I'd say Dune was four stars, could you note it down?", "Dune", 4),
        ("Rebecca is 2 stars for me. pls record that", "Rebecca", 2),
    ],
)
def test_a_grade_told_then_asked_to_be_kept_is_the_rating(said: str, book: str, stars: int) -> None:
    assert _calls(said) == [("rate_book", {"book": book, "stars": stars})]


def test_a_grade_told_with_nothing_asked_is_not_a_request_to_keep_it() -> None:
    assert rating_told("my husband says Rebecca is two stars") is None
    calls = _calls("my husband says Rebecca is two stars")
    assert not (isinstance(calls, list) and any(name == "rate_book" for name, _ in calls))


# --- formal words ---------------------------------------------------------------------------


def test_formal_words_of_a_list_change_are_the_everyday_ones() -> None:
    assert plain_words("create a list called X and to place upon it A and B, in that order.") == (
        "create a list called X and put A and B on it."
    )


@pytest.mark.parametrize(
    ("said", "books"),
    [
        (
            "I should like, if I may, to create a list called Russians and to place upon it The "
            "Brothers Karamazov and Anna Karenina, in that order.",
            ("The Brothers Karamazov", "Anna Karenina"),
        ),
        (
            "Kindly make a list named Gothic and place Rebecca and Dracula upon it.",
            ("Rebecca", "Dracula"),
        ),
    ],
)
def test_a_new_list_with_books_placed_upon_it(said: str, books: tuple[str, str]) -> None:
    calls = _calls(said)
    assert isinstance(calls, list)
    assert [name for name, _ in calls] == ["create_list", "add_to_list", "add_to_list"]
    assert tuple(args["book"] for _, args in calls[1:]) == books


# --- books that resemble one ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book"),
    [
        (
            "Having finished Wolf Hall, and not yet feeling ready for its sequel, I should "
            "welcome suggestions of books that resemble it in manner and preoccupation.",
            "Wolf Hall",
        ),
        (
            "I'd love some novels resembling The Remains of the Day in tone and setting.",
            "The Remains of the Day",
        ),
        ("Having loved Rebecca, I would appreciate books that resemble it.", "Rebecca"),
        ("books resembling Dune", "Dune"),
    ],
)
def test_books_that_resemble_one_are_similar_books(said: str, book: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list)
    assert [(name, args["book"]) for name, args in calls] == [("similar_books", book)]
