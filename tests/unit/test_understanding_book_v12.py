"""Mechanisms the twelfth pass's book requests lacked, each phrased fresh beside dev12's own.

From dev12 (pool-v12): "what else is like X" (the "else" is no book); the book a message
names before it points at it with "it"; a remark with its subject unsaid after a change
("..., couldn't get into it"); a list "for" something, and a name ended by why the list is
made ("called X to keep track"); the same change with another book ("and Y too", "same for
Y"); a stored value described ("showing as", "marked") before the right one; a list's count
asked "at the moment"; "change X list name to Y"; "rename it" with no list in view; "in
here" after a language question.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.book_patterns import LANGUAGE_Q
from lectern.adapters.understanding.book_plan import plan_books, title_in
from lectern.adapters.understanding.corrections import language_of
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.referents import book_resolver
from lectern.adapters.understanding.request_frames import unframed
from lectern.adapters.understanding.ruled_out import ruled_out
from lectern.adapters.understanding.said_before import sentence_with_it, title_said_before
from lectern.adapters.understanding.slots import list_name_of
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

CATALOG = {
    "gilead": "Gilead",
    "holes": "Holes",
    "piranesi": "Piranesi",
    "the gruffalo": "The Gruffalo",
    "lord of the flies": "Lord of the Flies",
    "the perks of being a wallflower": "The Perks of Being a Wallflower",
    "still alice": "Still Alice",
    "the secret garden": "The Secret Garden",
    "cinder": "Cinder",
    "red queen": "Red Queen",
}
LISTS = ("Summer", "Kids bedtime", "Dnf", "Mum's picks")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
PAGE = "The reader is on a book page: Piranesi (id 0b3c2a56-3c8e-4f3e-9a53-0d2b5c1f7e11)."
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _key(words: str) -> str:
    return " ".join(words.strip().casefold().split())


def _is_title(words: str) -> bool:
    return _key(words) in CATALOG


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(_key(title))
    return [(found, "Someone", 10)] if found else []


def _calls(
    text: str, system: str = SYSTEM, history: Sequence[Message] = ()
) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title, books=_books)
    reply = policy.complete_with_tools([*history, Message("user", text)], TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


# --- "what else is like X" -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("what else is like the perks of being a wallflower", "The Perks of Being a Wallflower"),
        ("what else is similar to Gilead?", "Gilead"),
        ("is there anything else like the secret garden", "The Secret Garden"),
        ("something else like Holes please", "Holes"),
    ],
)
def test_else_after_what_or_anything_is_no_book(said: str, book: str) -> None:
    assert _calls(said) == [("similar_books", {"book": book, "limit": 5})]


@pytest.mark.parametrize(
    "said", ["anything else like this?", "what else is like it", "more else similar"]
)
def test_else_like_this_means_the_book_in_view(said: str) -> None:
    calls = _calls(said, system=f"{SYSTEM}\n{PAGE}")
    assert calls == [
        ("similar_books", {"book": "0b3c2a56-3c8e-4f3e-9a53-0d2b5c1f7e11", "limit": 5})
    ]


# --- the book said before "it" ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("My son finished Holes in two days and wants more like it", "Holes"),
        ("my niece read the secret garden twice and wants more like it", "The Secret Garden"),
        ("Gilead was beautiful, anything like it?", "Gilead"),
    ],
)
def test_it_after_a_title_in_the_same_message_is_that_title(said: str, book: str) -> None:
    calls = _calls(said, system=f"{SYSTEM}\n{PAGE}")
    assert calls == [("similar_books", {"book": book, "limit": 5})]


def _planned(intent: str, text: str) -> list[tuple[str, dict[str, Any]]] | str:
    """What `plan_books` makes of `text` read as `intent` (the layer's part, decided)."""
    referent = title_said_before(text, _is_title, title_in)
    it = book_resolver([], SYSTEM, text, referent, None, title_in)
    planned = plan_books(intent, text, names_from_prompt(SYSTEM), it, _call)
    if not isinstance(planned, list):
        return str(planned)
    return [(c.name, dict(c.arguments)) for c in planned]


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("t", tool, arguments)


@pytest.mark.parametrize(
    ("said", "book", "listed"),
    [
        (
            "the gruffalo is too babyish now, take it off kids bedtime",
            "the gruffalo",
            "Kids bedtime",
        ),
        ("Lord of the Flies was a slog, remove it from Dnf", "Lord of the Flies", "Dnf"),
        ("Piranesi is finished - take it off Summer", "Piranesi", "Summer"),
    ],
)
def test_a_removal_of_it_after_a_title_removes_that_title(
    said: str, book: str, listed: str
) -> None:
    assert _planned("remove_from_list", said) == [
        ("remove_from_list", {"list": listed, "book": book})
    ]


def test_only_a_catalog_title_said_before_it_counts() -> None:
    assert title_said_before("my mum loved it", _is_title, title_in) is None
    assert title_said_before("the weather was bad so add it", _is_title, title_in) is None
    assert title_said_before("Holes is done, add it", _is_title, title_in) == "Holes"
    assert title_said_before("Holes: it's English", _is_title, title_in) is None


# --- a remark with its subject unsaid --------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book", "listed"),
    [
        ("add lord of the flies to dnf, couldn't get into it", "lord of the flies", "Dnf"),
        ("put Piranesi on Dnf, didn't finish it", "Piranesi", "Dnf"),
        ("stick The Gruffalo on Summer, wasnt sure about it", "The Gruffalo", "Summer"),
    ],
)
def test_a_remark_after_a_change_is_no_part_of_the_book(said: str, book: str, listed: str) -> None:
    assert _planned("add_to_list", said) == [("add_to_list", {"list": listed, "book": book})]


# --- new lists' names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("can you create a list for kids bedtime", "kids bedtime"),
        ("make a list for book club", "book club"),
        ("start a new list for my beach reads", "beach reads"),
        ("start a list called Books to read", "Books to read"),
    ],
)
def test_a_list_for_something_is_named_by_it(said: str, name: str) -> None:
    assert _calls(said) == [("create_list", {"name": name})]


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("could I have a list called Mum's picks to keep track?", "Mum's picks"),
        ("a list named Gifts so I can remember what to buy", "Gifts"),
        ("make one called Loans to track what I lent", "Loans"),
        ("a list called Things to try", "Things to try"),
    ],
)
def test_why_a_list_is_made_ends_its_name(said: str, name: str) -> None:
    assert list_name_of(said) == name


# --- the same change with another book -------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        (
            "Put Cinder on Summer, and Red Queen too",
            [
                ("add_to_list", {"list": "Summer", "book": "Cinder"}),
                ("add_to_list", {"list": "Summer", "book": "Red Queen"}),
            ],
        ),
        (
            "take Holes off Dnf and Gilead as well",
            [
                ("remove_from_list", {"list": "Dnf", "book": "Holes"}),
                ("remove_from_list", {"list": "Dnf", "book": "Gilead"}),
            ],
        ),
        (
            "rate Piranesi 4 stars, also Gilead",
            [
                ("rate_book", {"book": "Piranesi", "stars": 4}),
                ("rate_book", {"book": "Gilead", "stars": 4}),
            ],
        ),
    ],
)
def test_another_book_after_a_change_gets_the_same_change(said: str, calls: Any) -> None:
    assert _calls(said) == calls


def test_also_with_a_request_of_its_own_is_no_other_book() -> None:
    assert _calls("rate Piranesi 4 stars, also add it to Summer") == [
        ("rate_book", {"book": "Piranesi", "stars": 4}),
        ("add_to_list", {"list": "Summer", "book": "Piranesi"}),
    ]


def test_words_that_are_no_title_are_no_other_book() -> None:
    calls = _calls("Put Cinder on Summer, and the kids too")
    assert isinstance(calls, str) or all(name != "add_to_list" for name, _ in calls[1:])


@pytest.mark.parametrize(
    ("before", "said", "call"),
    [
        (
            "add Holes to Summer",
            "same for Red Queen",
            ("add_to_list", {"list": "Summer", "book": "Red Queen"}),
        ),
        (
            "take Gilead off Dnf",
            "ok do the same with Piranesi",
            ("remove_from_list", {"list": "Dnf", "book": "Piranesi"}),
        ),
        ("rate Cinder 2 stars", "same for Holes", ("rate_book", {"book": "Holes", "stars": 2})),
    ],
)
def test_same_for_a_book_repeats_the_last_change_with_it(before: str, said: str, call: Any) -> None:
    policy = RulePolicy(titles=_is_title, books=_books)
    first = policy.complete_with_tools([Message("user", before)], TOOLS, system=SYSTEM)
    history = [Message("user", before), Message("assistant", "", first.tool_calls)]
    assert _calls(said, history=history) == [call]


def test_same_for_with_no_change_before_is_not_read_as_one() -> None:
    assert _calls("same for Holes") != [("add_to_list", {"list": "Summer", "book": "Holes"})]


# --- a stored value described, then the right one --------------------------------------------


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("Piranesi is showing as Spanish, it's English", "Piranesi"),
        ("I noticed Gilead by Marilynne Robinson is marked French. It's English.", "Gilead"),
        ("Holes is labelled as German - it's English", "Holes"),
    ],
)
def test_a_language_shown_then_the_right_one_is_a_correction(said: str, book: str) -> None:
    assert _calls(said) == [("propose_correction", {"book": book, "language": "English"})]


def test_language_of_skips_the_value_shown() -> None:
    assert language_of("it's showing as Spanish, it's English") == "English"
    assert language_of("it's marked French, should be Italian") == "Italian"


def test_a_correction_then_a_wished_grade_is_two_requests() -> None:
    assert _calls("Holes is showing as Spanish, it's English. Also I'd give it 4 stars") == [
        ("propose_correction", {"book": "Holes", "language": "English"}),
        ("rate_book", {"book": "Holes", "stars": 4}),
    ]


# --- one list's contents, renames ------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "How many books are on my summer list at the moment?",
        "how many are on the Summer list right now",
        "how many books are there in my summer list currently",
    ],
)
def test_a_count_of_one_list_asked_now_is_its_details(said: str) -> None:
    assert _calls(said)[0] == ("get_list_details", {"list": "Summer"})  # type: ignore[index]


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("change classics list name to Old but gold", "rename classics to Old but gold"),
        ("update the Summer list name to Beach", "rename the Summer to Beach"),
        ("change my dnf list's name to Abandoned", "rename my dnf to Abandoned"),
    ],
)
def test_a_lists_name_changed_without_an_apostrophe_is_a_rename(said: str, read: str) -> None:
    assert unframed(said) == read


def test_change_the_list_name_is_renamed() -> None:
    assert _calls("change summer list name to Beach reads") == [
        ("rename_list", {"list": "Summer", "new_name": "Beach reads"})
    ]


@pytest.mark.parametrize(
    "said", ["rename it to Holiday 2027", "rename that one to Beach", "please rename it as Later"]
)
def test_renaming_it_with_no_list_in_view_asks_which(said: str) -> None:
    assert "rename_list" not in ruled_out(said, names_from_prompt(SYSTEM))
    one = "\n".join([NAMES_HEADER, "- list: Summer"])
    for system in (SYSTEM, one):
        planned = plan_books("rename_list", said, names_from_prompt(system), lambda w: w, _call)
        assert isinstance(planned, Clarification)


# --- a question word about a field -----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("what language is the little prince in here", "the little prince"),
        ("what language is Gilead in on here?", "Gilead"),
        ("which language is Holes written in here", "Holes"),
    ],
)
def test_here_after_a_language_question_is_no_part_of_the_title(said: str, book: str) -> None:
    found = LANGUAGE_Q.match(said)
    assert found is not None and found.group("title") == book


# --- a sentence naming the book, then the request with "it" ----------------------------------


@pytest.mark.parametrize(
    ("said", "rest"),
    [
        (
            "My mum just told me about Still Alice - could it go on Mum's picks?",
            "could it go on Mum's picks?",
        ),
        ("A friend raved about Holes. Can you add it to Summer?", "Can you add it to Summer?"),
        ("Gilead was too slow; take it off Dnf", "take it off Dnf"),
    ],
)
def test_the_sentence_with_it_is_the_request(said: str, rest: str) -> None:
    assert sentence_with_it(said) == rest


def test_no_sentence_before_it_is_no_request_apart() -> None:
    assert sentence_with_it("add it to Summer") is None
    assert sentence_with_it("Holes - it and Gilead") == "it and Gilead"


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("could it go on Mum's picks?", "it can go on Mum's picks"),
        ("can Holes come off Dnf?", "Holes can come off Dnf"),
        ("should Gilead be added to Summer", "Gilead can be added to Summer"),
    ],
)
def test_a_book_asked_whether_it_can_move_is_said_as_a_statement(said: str, read: str) -> None:
    assert unframed(said) == read


@pytest.mark.parametrize(
    ("said", "call"),
    [
        (
            "My mum just told me about Still Alice - could it go on Mum's picks?",
            ("add_to_list", {"list": "Mum's picks", "book": "Still Alice"}),
        ),
        (
            "A friend raved about Holes. Can you add it to Summer?",
            ("add_to_list", {"list": "Summer", "book": "Holes"}),
        ),
        (
            "Gilead was too slow; take it off Dnf",
            ("remove_from_list", {"list": "Dnf", "book": "Gilead"}),
        ),
    ],
)
def test_the_request_after_a_sentence_naming_its_book_is_made(said: str, call: Any) -> None:
    assert _calls(said) == [call]
