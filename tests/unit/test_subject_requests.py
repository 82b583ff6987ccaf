"""Requests that name a subject and nothing else ("tell me about E") find the page named E."""

from __future__ import annotations

import pytest

from lectern.application.answering.knowledge import KnowledgeBases
from lectern.domain.answering import requested_subject, title_share
from tests.answering_world import kb_collection, knowledge_bases


@pytest.mark.parametrize(
    ("turn", "subject"),
    [
        ("tell me about the horse latitudes", "the horse latitudes"),
        ("Who is Chad DiMera?", "Chad DiMera"),
        ("can you tell me more about query parameters?", "query parameters"),
        ("who has played chad dimera on days of our lives", None),
        ("what is the function of insulin and where is it produced", None),
        ("tell me about it", None),
    ],
)
def test_a_request_naming_only_a_subject(turn: str, subject: str | None) -> None:
    assert requested_subject(turn) == subject


def test_the_title_share_needs_every_word_of_the_subject() -> None:
    assert title_share("the bronx", "The Bronx") == 1.0
    assert title_share("london", "London Bridge (Lake Havasu City)") == 0.2
    assert title_share("role in canada", "Prime Minister of Canada") == 0.0


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBases:
    """A floor no cosine of the hashed vectors reaches."""
    root = tmp_path_factory.mktemp("kb-subject")
    return knowledge_bases(kb_collection(root / "var", root), root / "kb-index", 0.99)


def test_the_page_a_request_names_passes_the_floor_other_pages_do_not(
    strict: KnowledgeBases,
) -> None:
    kb = strict.get("kb")
    named = kb.select("tell me about query parameters", 3)
    assert [s.source.source_id for s in named] == ["kb:tutorial/query-params.md"]
    assert named[0].relevance == 1.0
    assert kb.select("How do I declare query parameters?", 3) == ()
