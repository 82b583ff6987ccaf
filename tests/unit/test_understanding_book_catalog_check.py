"""A change's book must be a catalog book: a description is asked about, never proposed.

"Put the one my sister liked on my list" or "rate my latest 4 stars" names no title; sending
the words as one would fail at the tool, so the reader is asked which book they mean, with
the title they may have misspelt offered as a reply. A title the catalog holds, a title's
start the tool reads ("Ready Player"), the page's book and look-ups are untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.spoken import tidied
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

CATALOG = {"kindred": "Kindred", "the secret history": "The Secret History"}
STARTS = {"ready player": "Ready Player One", "the secret histery": "The Secret History"}
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", "- list: Gifts", "- list: Autumn"])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _key(words: str) -> str:
    return " ".join(words.strip().casefold().split())


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(_key(title))
    return [(found, "Someone", 10)] if found else []


def _policy() -> RulePolicy:
    return RulePolicy(
        titles=lambda words: _key(words) in CATALOG,
        books=_books,
        spelt=lambda title: STARTS.get(_key(title)),
    )


def _reply(text: str, system: str = SYSTEM) -> Any:
    return _policy().complete_with_tools([Message("user", text)], TOOLS, system=system)


def test_a_description_for_a_book_is_asked_about() -> None:
    for said in (
        "put the one my sister liked on my Gifts list",
        "rate my latest read 4 stars",
        "add whatever you think is best to Autumn",
    ):
        reply = _reply(said)
        assert not reply.tool_calls, said
        assert "Which book do you mean?" in reply.text, said


def test_a_misspelt_title_is_offered_as_the_reply() -> None:
    reply = _reply("add the secret histery to my Gifts list")
    assert not reply.tool_calls
    assert "Did you mean 'The Secret History'?" in reply.text
    assert reply.suggestions == ("The Secret History",)


def test_catalog_titles_and_a_titles_start_are_proposed() -> None:
    reply = _reply("add Kindred to my Gifts list")
    assert [(c.name, c.arguments["book"]) for c in reply.tool_calls] == [("add_to_list", "Kindred")]
    reply = _reply("give Ready Player 2 stars")
    assert [c.name for c in reply.tool_calls] == ["rate_book"]


def test_the_pages_book_is_proposed() -> None:
    page = "The reader is on a book page 'Kindred' (id 00000000-0000-0000-0000-000000000007).\n"
    reply = _reply("add this to my Autumn list", page + SYSTEM)
    assert [c.name for c in reply.tool_calls] == ["add_to_list"]


def test_a_look_up_of_an_unknown_title_still_looks() -> None:
    reply = _reply("tell me about the book my sister liked")
    assert all(c.name != "add_to_list" for c in reply.tool_calls)
    assert "Which book do you mean?" not in (reply.text or "")


def test_this_typed_in_chat_points_at_the_pages_book() -> None:
    page = "The reader is on a book page 'Kindred' (id 00000000-0000-0000-0000-000000000007).\n"
    reply = _reply("pls put dis on Autumn", page + SYSTEM)
    assert [(c.name, c.arguments["list"]) for c in reply.tool_calls] == [("add_to_list", "Autumn")]
    assert tidied("Dis Side of Paradise") == "Dis Side of Paradise"


def _after_question(answer: str) -> list[tuple[str, dict[str, Any]]]:
    first = Message("user", "add the secret histery to my Gifts list")
    question = _reply(first.content)
    history = [first, Message("assistant", question.text), Message("user", answer)]
    reply = _policy().complete_with_tools(history, TOOLS, system=SYSTEM)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def test_the_answer_to_which_book_completes_the_request_asked_about() -> None:
    added = [("add_to_list", {"list": "Gifts", "book": "The Secret History"})]
    assert _after_question("The Secret History") == added  # the suggested reply
    assert _after_question("yes") == added
    assert _after_question("Kindred") == [("add_to_list", {"list": "Gifts", "book": "Kindred"})]


def test_a_request_of_its_own_after_the_question_is_that_request() -> None:
    assert _after_question("show my lists") == [("get_reading_lists", {})]
