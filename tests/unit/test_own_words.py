"""A kept text (a blocker's reason, a comment, a resolution) in the words the reader typed.

The workspace rules spell shorthand out to read it ("ticket" a task, "eod" today, "w/"
with); the text a request asks to keep was recorded with those spellings ("Pending the
citrix task"). Only such spellings are put back; a rephrasing the rules made stays.
"""

from __future__ import annotations

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import WORKSPACE_TOOLS
from lectern.adapters.understanding.own_words import restored
from lectern.domain.assistant import Message, ToolSpec
from tests.unit.test_workspace_phrasings import SYSTEM

TOOLS = [ToolSpec(name, "", {}) for name in WORKSPACE_TOOLS]


def _kept(said: str) -> tuple[str, str]:
    reply = RulePolicy().complete_with_tools([Message("user", said)], TOOLS, system=SYSTEM)
    [call] = reply.tool_calls
    kept = ("description", "content", "resolution")
    [value] = [v for k, v in call.arguments.items() if k in kept]
    return call.name, str(value)


@pytest.mark.parametrize(
    ("said", "tool", "words"),
    [
        (
            "the netscaler review is blocked pending the citrix ticket, please record that",
            "create_blocker",
            "citrix ticket",
        ),
        ("comment on the drill: vendor says eod, w/ the new template", "add_comment", "eod, w/"),
        ("add a note to the runbook: see ticket SEC-12 -> owner is legal", "add_comment", "->"),
        (
            "resolve the vendor blocker: window booked via change board ticket CHG-9",
            "resolve_blocker",
            "ticket CHG-9",
        ),
        ("note on the hunt: two vulns found, pls check tmrw", "add_comment", "vulns"),
    ],
)
def test_a_kept_text_keeps_the_readers_shorthand(said: str, tool: str, words: str) -> None:
    name, value = _kept(said)
    assert name == tool
    assert words in value, value


def test_a_rephrasing_the_rules_made_on_purpose_stays() -> None:
    said = "cant start the runbook until legal replies"
    assert restored("Waiting until legal replies", said) == "Waiting until legal replies"


def test_words_the_message_never_typed_are_left_as_they_are() -> None:
    assert restored("Window booked", "close the vendor blocker, window booked") == "Window booked"
    assert restored("", "anything") == ""
