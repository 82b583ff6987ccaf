"""The frame of a request ("books about") is not searched for; titles keep their words."""

from __future__ import annotations

import pytest

from lectern.domain.search import QueryPlan, Recognition, SearchQuery, without_request_framing
from tests.unit.test_search_exclusions import _service


@pytest.mark.parametrize(
    ("text", "searched"),
    [
        ("books about time travel", "time travel"),
        ("find me some good books about dragons", "dragons"),
        ("a novel set in Paris", "Paris"),
        ("novels with strong heroines", "strong heroines"),
        ("The Book Thief", "The Book Thief"),  # not a frame: a title
        ("books about", "books about"),  # nothing after the frame: kept
        ("vampire romance", "vampire romance"),
    ],
)
def test_the_frame_is_cut_only_before_more_words(text: str, searched: str) -> None:
    assert without_request_framing(text) == searched


def test_search_looks_for_the_subject_not_the_word_books() -> None:
    service, lexical, _ = _service()
    service.search(SearchQuery("books about vampire romance"))
    assert lexical.queries_seen[0] == "vampire romance"


def test_a_recognised_title_keeps_its_words() -> None:
    service, lexical, _ = _service()
    text = "books about vampire romance"
    plan = QueryPlan(text, recognised=(Recognition("title", text, 0, len(text)),))
    service.search(SearchQuery(text), plan=plan)
    assert lexical.queries_seen[0] == text
