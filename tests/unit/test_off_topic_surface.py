"""A request neither surface can do is answered with the surface's own scope.

On a workspace, the book assistant's "I can only help with books ..." told a reader who asked
in Korean or about their sleep that the workspace was a catalog; there the reply names what
the workspace assistant does, and that it reads English. The book assistant's reply is as
before.
"""

from __future__ import annotations

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS, WORKSPACE_TOOLS
from lectern.application.assistant.guardrails import (
    OFF_TOPIC_TEXT,
    WORKSPACE_OFF_TOPIC_TEXT,
    TurnFacts,
    guard,
)
from lectern.domain.assistant import Message, ToolSpec
from tests.unit.test_workspace_phrasings import SYSTEM as WORKSPACE_SYSTEM

BOOK_SYSTEM = "Names you can use:\n- reader: ana\n- list: TBR"


def _reply(said: str, system: str, tools: list[str]) -> str:
    policy = RulePolicy()
    specs = [ToolSpec(name, "", {}) for name in tools]
    return policy.complete_with_tools([Message("user", said)], specs, system=system).text


@pytest.mark.parametrize(
    "said",
    [
        "what's the weather like in Leeds",
        "can you book me a flight to Lisbon",
        "tell me a joke about penguins",
    ],
)
def test_off_topic_on_a_workspace_names_the_workspace(said: str) -> None:
    reply = _reply(said, WORKSPACE_SYSTEM, list(WORKSPACE_TOOLS))
    assert reply == WORKSPACE_OFF_TOPIC_TEXT, reply
    assert "books in the catalog" not in reply


def test_off_topic_for_books_is_the_catalogs_reply() -> None:
    assert _reply("what's the weather like in Leeds", BOOK_SYSTEM, list(BOOK_TOOLS)) == (
        OFF_TOPIC_TEXT
    )


def test_both_replies_are_fixed_and_flagged_off_topic() -> None:
    for text in (OFF_TOPIC_TEXT, WORKSPACE_OFF_TOPIC_TEXT):
        guarded = guard(text, TurnFacts(evidence={}, tool_calls=0, retrieval_calls=0))
        assert guarded.text == text and "off_topic" in guarded.flags
