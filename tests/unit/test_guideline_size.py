"""A guideline question that asks how big something is asks for a size in bits or bytes.

"cookie size limit browsers must support?" (dev), "how big can a cookie be before browsers
may drop it?" (dev8): RFC 6265's "At least 4096 bytes per cookie" states a size of the thing
asked, so it answers though it names neither browsers nor limits. A size said to hold over a
way of carrying it ("a DNS reply over UDP") is not answered by a sentence that names another
way (DNS over HTTPS's "maximum size of the DNS message to 65535 bytes"). Passages are the
real RFC pages (read from the shared data, never copied); no embedder.
"""

from __future__ import annotations

import json

import pytest

from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.adapters.understanding.quantity import wanted_dimensions
from lectern.domain.assistant import Message
from tests.collection_wiring import SHARED

REFUSED = "I cannot answer that from these documents."


def _rfc_page(name: str, number: int) -> str:
    return (SHARED / f"guidance/rfc/{name}").read_text(encoding="utf-8").split("\f")[number - 1]


def _ask(question: str, *pages: tuple[int, int]) -> str:
    shown = [
        {"label": f"[RFC {rfc} p.{number}]", "text": _rfc_page(f"rfc{rfc}.txt", number)}
        for rfc, number in pages
    ]
    results = [Message(role="tool", content=json.dumps({"passages": shown}))]
    return GuidelineRulePolicy().answer(question, results, REFUSED)


@pytest.mark.parametrize(
    "question",
    [
        "cookie size limit browsers must support?",
        "how big can a cookie be before browsers may drop it? what do browsers have to support "
        "at least",
        "how large a cookie does a user agent have to accept, at minimum?",
        "what cookie size must user agents cope with?",
    ],
)
def test_how_big_asks_for_a_size(question: str) -> None:
    answer = _ask(question, (6265, 27), (6265, 13), (6265, 32))
    assert "4096 bytes per cookie" in answer and "[RFC 6265 p.27]" in answer


def test_big_and_size_ask_for_bits_or_bytes_not_a_duration() -> None:
    assert wanted_dimensions("how big can a cookie be?") == {"size"}
    assert wanted_dimensions("cookie size limit?") == {"size"}
    assert "time" not in wanted_dimensions("how large a window must a receiver offer?")


@pytest.mark.parametrize(
    "question",
    [
        "how big can a DNS reply over UDP be",
        "how large may a DNS message sent via UDP get?",
    ],
)
def test_a_size_over_one_way_is_not_another_ways(question: str) -> None:
    answer = _ask(question, (8484, 11))
    assert answer == REFUSED or "512 bytes" in answer


def test_a_size_named_without_a_way_is_still_answered() -> None:
    assert "65535 bytes" in _ask("DoH media type: how big can the DNS message be?", (8484, 11))
