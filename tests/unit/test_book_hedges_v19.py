"""Book requests asked as possibilities, on conditions, dictated, and lists named sideways (dev19).

Each dev19 sentence stands beside phrasings of the same construct in other words: a change
asked as whether it can be done ("is there a way to get X off ...?", "I wonder if I might give
it four stars"), or wished as the state after it ("I'd like the Misc list removed"); a change
asked only if it is not already so ("if X isn't already on Y, add it"); punctuation said aloud
("... full stop"); and a list's name said sideways ("the Exam Prep one too", "from the same",
"(rename pls)", "change Book Club to that" after the name was told, "cn u ... lst").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy, _renamed_to_a_pointer
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.list_by_name import list_request
from lectern.adapters.understanding.possible_asked import asked_plainly
from lectern.adapters.understanding.slots import list_name_of
from lectern.adapters.understanding.spoken import tidied
from lectern.adapters.understanding.spoken_marks import marks_written
from lectern.adapters.understanding.unless_already import unless_already
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

PAGE_ID = "5acefb36-210d-58a6-b1ab-a58082180a23"
CATALOG = {
    "the road": "The Road",
    "dune": "Dune",
    "emma": "Emma",
    "persuasion": "Persuasion",
    "the hobbit": "The Hobbit",
    "the two towers": "The Two Towers",
    "life of pi": "Life of Pi",
    "the kite runner": "The Kite Runner",
    "war and peace": "War and Peace",
    "big little lies": "Big Little Lies",
    "matilda": "Matilda",
    "the bfg": "The BFG",
}
LISTS = ("Summer", "TBR", "Book Club", "Misc", "Horror", "Exam Prep", "Kids", "Holiday Reading")
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _system(lists: Sequence[str] = LISTS, page: bool = False) -> str:
    lines = [NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in lists)]
    if page:
        lines.insert(0, f"The reader is on a book page 'Persuasion' (id {PAGE_ID}).")
    return "\n".join(lines)


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(" ".join(title.casefold().split()))
    return [(found, "Someone", 10)] if found else []


def _calls(
    text: str, lists: Sequence[str] = LISTS, *, page: bool = False
) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=lambda words: bool(_books(words)), books=_books)
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=_system(lists, page))
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


# --- a change asked as whether it is possible ----------------------------------------------


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        # dev19
        (
            "is there a way to get Big Little Lies off my Book Club list? half the group already "
            "read it",
            "please get Big Little Lies off my Book Club list? half the group already read it",
        ),
        (
            "is it possible to have a separate list for audiobooks? call it Audiobooks",
            "please have a separate list for audiobooks? call it Audiobooks",
        ),
        (
            "Would it be terribly inconvenient to remove War and Peace from my Holiday Reading?",
            "please remove War and Peace from my Holiday Reading?",
        ),
        (
            "I finished Persuasion last night. I wonder if I might give it four stars?",
            "I finished Persuasion last night. Please give it four stars?",
        ),
        # our own
        ("is there any way to take Dune off my TBR list?", "please take Dune off my TBR list?"),
        (
            "Is it at all possible to rename Misc to Odds and Ends?",
            "please rename Misc to Odds and Ends?",
        ),
        ("would it be too much trouble to delete the Misc list", "please delete the Misc list"),
        ("would it be a bother to pop Emma on Summer?", "please pop Emma on Summer?"),
        ("I was wondering whether I could rate Dune 4 stars", "please rate Dune 4 stars"),
        ("may I give The Road five stars?", "please give The Road five stars?"),
        ("is there a chance you could add Emma to TBR", "please add Emma to TBR"),
        (
            "so is it possible for you to make a list called Poetry?",
            "please make a list called Poetry?",
        ),
    ],
)
def test_a_change_asked_as_a_possibility_is_asked_plainly(said: str, plain: str) -> None:
    assert asked_plainly(said) == plain


@pytest.mark.parametrize(
    "said",
    [
        "is it possible to rate books here?",  # what the assistant does, asked
        "is there a way to see my ratings?",  # no change
        "is it possible to find books about Japan?",
        "Is there a way to delete a list?",
        "can I add books to a list?",
        "would it be possible to have more fantasy in the catalogue",
    ],
)
def test_a_question_about_what_can_be_done_is_left(said: str) -> None:
    assert asked_plainly(said) == said


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        # dev19
        (
            "I'm so sorry to bother you again, but I think I'd like the Misc list removed "
            "altogether, if that's possible.",
            "delete the Misc list, if that's possible.",
        ),
        # our own
        ("I think I'd like Emma added to my Summer list", "add Emma to my Summer list"),
        ("I'd really like the Misc list gone", "delete the Misc list"),
        ("Sorry to bother you, but I'd like Dune taken off TBR", "take Dune off TBR"),
        ("i want the horror list deleted now", "delete the horror list now"),
        ("I would love The Road put on my Summer list", "put The Road on my Summer list"),
        ("so sorry for the trouble - I'd like Misc renamed to Odds", "rename Misc to Odds"),
    ],
)
def test_a_change_wished_as_its_outcome_is_the_change(said: str, plain: str) -> None:
    assert asked_plainly(said) == plain


@pytest.mark.parametrize(
    "said",
    ["I'd like the Hobbit signed", "I'd like to know what's on my Summer list", "I want Dune"],
)
def test_a_wish_with_no_change_in_it_is_left(said: str) -> None:
    assert asked_plainly(said) == said


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "Would it be terribly inconvenient to remove War and Peace from my Holiday Reading?",
            [("remove_from_list", {"list": "Holiday Reading", "book": "War and Peace"})],
        ),
        (
            "I'm so sorry to bother you again, but I think I'd like the Misc list removed "
            "altogether, if that's possible.",
            [("delete_list", {"list": "Misc"})],
        ),
        (
            "is there any way to take Dune off my TBR list?",
            [("remove_from_list", {"list": "TBR", "book": "Dune"})],
        ),
        ("I'd really like the Misc list gone", [("delete_list", {"list": "Misc"})]),
    ],
)
def test_possibilities_and_wishes_are_made_changes(said: str, expected: object) -> None:
    assert _calls(said) == expected


# --- a change asked only if it is not already so -------------------------------------------


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        # dev19
        ("if The Road isn't already on Summer, add it", "add The Road to Summer"),
        (
            "if i dont already have a list called beach reads can u make one",
            "create a list called beach reads",
        ),
        # our own
        ("if Dune isn't on TBR yet, add it", "add Dune to TBR"),
        ("if the hobbit isnt already on my summer list pls add it", "pls add the hobbit to summer"),
        (
            "If Emma is not on Summer already, could you put it on there?",
            "could you put Emma to Summer?",
        ),
        (
            "If I haven't got a list named Poetry yet, could you create one?",
            "create a list called Poetry",
        ),
        ("if we don't have a list called Gifts already, start one", "create a list called Gifts"),
        ("add The Road to Summer if it's not there already", "add The Road to Summer"),
        ("put Emma on TBR unless it's already on there", "put Emma on TBR"),
        ("create a list called Poetry if I don't already have one", "create a list called Poetry"),
        (
            "make a list called Gifts if I don't have one already please",
            "make a list called Gifts please",
        ),
    ],
)
def test_a_change_asked_unless_already_so_is_the_change(said: str, plain: str) -> None:
    assert unless_already(said) == plain


@pytest.mark.parametrize(
    "said",
    [
        "if Dune is on Summer, remove it",  # a condition of presence: left to the other readings
        "if you have time, add Dune to Summer",  # a courtesy, read by `hedges`
        "add Dune to TBR if it is already there",  # no absence said
        "add Dune to TBR if you can",
        "if The Road isn't on Summer, what is?",
    ],
)
def test_other_conditions_are_left(said: str) -> None:
    assert unless_already(said) is None


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "if The Road isn't already on Summer, add it",
            [("add_to_list", {"list": "Summer", "book": "The Road"})],
        ),
        ("if Dune isn't on TBR yet, add it", [("add_to_list", {"list": "TBR", "book": "Dune"})]),
        (
            "add Emma to Summer if it's not there already",
            [("add_to_list", {"list": "Summer", "book": "Emma"})],
        ),
        (
            "if i dont already have a list called beach reads can u make one",
            [("create_list", {"name": "beach reads"})],
        ),
        (
            "create a list called Poetry if I don't already have one",
            [("create_list", {"name": "Poetry"})],
        ),
    ],
)
def test_changes_asked_unless_already_so_are_made(said: str, expected: object) -> None:
    assert _calls(said) == expected


# --- punctuation said aloud ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "written"),
    [
        # dev19
        ("remove the book from summer full stop", "remove the book from summer."),
        (
            "rate the hobbit five stars and the two towers four stars full stop",
            "rate the hobbit five stars and the two towers four stars.",
        ),
        (
            "please make a list called grandchildren full stop",
            "please make a list called grandchildren.",
        ),
        ("is this one very long full stop how many pages", "is this one very long. how many pages"),
        # our own
        ("add emma comma persuasion and dune to summer", "add emma, persuasion and dune to summer"),
        ("rate dune five stars period", "rate dune five stars."),
        ("whats on my summer list question mark", "whats on my summer list?"),
        ("add dune to tbr exclamation mark", "add dune to tbr!"),
        ("add it to summer full stop full stop", "add it to summer."),
        (
            "make a list called gifts new line add emma to it",
            "make a list called gifts. add emma to it",
        ),
    ],
)
def test_punctuation_said_aloud_is_written(said: str, written: str) -> None:
    assert marks_written(said) == written


@pytest.mark.parametrize(
    "said",
    [
        "books set in the victorian period",  # "period" is a word of its own
        "find me something from the regency period",
        "the plot came to a full stop halfway",  # the thing, not the mark
        "a question mark hangs over the ending",
        "add a comment: use a comma not a semicolon",
        "Full Stop is the name I want for the list",
        # typed for emphasis after a comma
        "It's Arthur Conan Doyle's book, full stop. Could you fix the author?",
        "Rebecca is by Daphne du Maurier, full stop — Sally Beauman only wrote an introduction.",
    ],
)
def test_the_words_as_words_are_left(said: str) -> None:
    assert marks_written(said) == said


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("remove the book from summer full stop", None),  # which book: asked
        (
            "rate the hobbit five stars and the two towers four stars full stop",
            [
                ("rate_book", {"book": "The Hobbit", "stars": 5}),
                ("rate_book", {"book": "The Two Towers", "stars": 4}),
            ],
        ),
        (
            "please make a list called grandchildren full stop",
            [("create_list", {"name": "grandchildren"})],
        ),
        ("remove dune from tbr full stop", [("remove_from_list", {"list": "TBR", "book": "Dune"})]),
    ],
)
def test_dictated_requests_are_read_without_their_marks(said: str, expected: object) -> None:
    done = _calls(said)
    if expected is None:
        assert isinstance(done, str)
        assert "full stop" not in done
    else:
        assert done == expected


# --- lists named sideways --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("create a list called Maybe instead", "Maybe"),
        ("make a new list called Poetry instead", "Poetry"),
        ("start a list called Beach Reads too", "Beach Reads"),
        ("make a list called Gifts as well", "Gifts"),
        ("create a list called Me Too", "Me Too"),  # a name's own capital "Too"
    ],
)
def test_a_new_lists_name_ends_before_instead(said: str, name: str) -> None:
    assert list_name_of(said) == name


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        # dev19
        (
            "delete the Horror list, and the Exam Prep one too while you're at it",
            "delete the Horror list, and the Exam Prep list too while you're at it",
        ),
        (
            "Kindly add The Kite Runner to Book Club and remove Life of Pi from the same.",
            "Kindly add The Kite Runner to Book Club and remove Life of Pi from Book Club.",
        ),
        ("TBR -> Up Next (rename pls)", "rename the TBR list to Up Next"),
        (
            "Ha, my book group has voted and we're now officially The Tuesday Readers, very "
            "grand. So can you change Book Club to that?",
            "rename the Book Club list to The Tuesday Readers",
        ),
        # our own
        (
            "add Emma to Summer and remove Dune from the same list",
            "add Emma to Summer and remove Dune from Summer",
        ),
        (
            "put Emma on Book Club, and take Life of Pi off the same",
            "put Emma on Book Club, and take Life of Pi off Book Club",
        ),
        ("Summer -> Holiday Books (rename please)", "rename the Summer list to Holiday Books"),
        ("Misc -> Odds (thanks!)", "rename the Misc list to Odds"),
        (
            "our club voted, we're now called The Page Turners. Can you rename Book Club to that?",
            "rename the Book Club list to The Page Turners",
        ),
        (
            "Big news: the group's new name is Novel Idea! please change Book Club to that",
            "rename the Book Club list to Novel Idea",
        ),
        (
            "The kids are now officially Night Owls. could you change Kids to that name",
            "rename the Kids list to Night Owls",
        ),
    ],
)
def test_lists_named_sideways_are_said_plainly(said: str, plain: str | None) -> None:
    assert list_request(said, LISTS) == plain


@pytest.mark.parametrize(
    "said",
    [
        "I love The Road and Dune. rename Misc to that",  # no name told: "that" is asked
        "we're now called The Tuesday Readers, the kids are now The Owls. change Book Club to that",
        "add Emma to the same list",  # no list named before "the same"
    ],
)
def test_a_name_or_list_not_told_is_not_guessed(said: str) -> None:
    assert list_request(said, LISTS) is None


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "delete the Horror list, and the Exam Prep one too while you're at it",
            [("delete_list", {"list": "Horror"}), ("delete_list", {"list": "Exam Prep"})],
        ),
        (
            "Kindly add The Kite Runner to Book Club and remove Life of Pi from the same.",
            [
                ("add_to_list", {"list": "Book Club", "book": "The Kite Runner"}),
                ("remove_from_list", {"list": "Book Club", "book": "Life of Pi"}),
            ],
        ),
        (
            "get rid of the TBR list and the Misc one as well please",
            [("delete_list", {"list": "TBR"}), ("delete_list", {"list": "Misc"})],
        ),
        (
            "cn u change kids lst name to Bedtime",
            [("rename_list", {"list": "Kids", "new_name": "Bedtime"})],
        ),
        ("cd u rename misc lst to Odds", [("rename_list", {"list": "Misc", "new_name": "Odds"})]),
        (
            "Can you retire Life of Pi of my list Book Club? It is too long for this moment.",
            [("remove_from_list", {"list": "Book Club", "book": "Life of Pi"})],
        ),
        (
            "could you retire Dune of my list TBR please, I read it",
            [("remove_from_list", {"list": "TBR", "book": "Dune"})],
        ),
        (
            "Can you remove Emma of my list Summer? It is too long for now.",
            [("remove_from_list", {"list": "Summer", "book": "Emma"})],
        ),
    ],
)
def test_lists_named_sideways_are_changed(said: str, expected: object) -> None:
    assert _calls(said) == expected


def test_a_rename_to_that_with_no_name_told_asks() -> None:
    calls = [ToolCall("c", "rename_list", {"list": "Misc", "new_name": "that"})]
    asked = _renamed_to_a_pointer(calls)
    assert asked is not None and "Misc" in asked.question
    kept = [ToolCall("c", "rename_list", {"list": "Misc", "new_name": "That Summer"})]
    assert _renamed_to_a_pointer(kept) is None


def test_vowels_typed_away_are_read_only_in_lower_case_before_you() -> None:
    assert (
        tidied("cn u change kids lst name to Bedtime") == "can u change kids list name to Bedtime"
    )
    assert tidied("add the cd to my list") == "add the cd to my list"
