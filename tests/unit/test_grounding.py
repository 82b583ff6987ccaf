"""The citation gate: literal snippets only, fail closed, confidence rules as specified."""

import json
import uuid
from datetime import UTC, datetime

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from lectern.domain.books import Book
from lectern.domain.grounding import (
    UNGROUNDED_TEXT,
    Citation,
    Explanation,
    explanation_json,
    is_valid_snippet,
    validate_grounded_explanation,
)

BOOK = Book(
    id=uuid.UUID(int=1),
    title="The Lies of Locke Lamora",
    authors=("Scott Lynch",),
    categories=("fantasy", "heist", "thieves"),
    description="An orphan's life is harsh -- and often short -- in the mysterious\n"
    "island city of Camorra. But young Locke Lamora dodges death and slavery.",
)


def _explanation(*citations: Citation, confidence: float = 0.9) -> Explanation:
    return Explanation(
        book_id=BOOK.id,
        query_text="fantasy heist",
        text="A heist in a city of thieves.",
        citations=citations,
        model="test",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        confidence=confidence,
        grounded=True,
    )


def _cite(field: str, snippet: str, relevance: float = 0.8, book: uuid.UUID = BOOK.id) -> Citation:
    return Citation(book, field, snippet, relevance)


def test_literal_snippets_validate_after_case_and_whitespace_folding() -> None:
    assert is_valid_snippet("ISLAND   CITY of Camorra", BOOK.description or "")
    assert is_valid_snippet("mysterious island", BOOK.description or "")  # crosses a newline
    assert not is_valid_snippet("island town of Camorra", BOOK.description or "")
    assert not is_valid_snippet("", BOOK.description or "")
    assert not is_valid_snippet("   \n ", BOOK.description or "")
    assert not is_valid_snippet("a" * 201, "a" * 500)
    assert is_valid_snippet("a" * 200, "a" * 500)


def test_invalid_citations_are_dropped_and_valid_ones_kept() -> None:
    result = validate_grounded_explanation(
        _explanation(
            _cite("description", "island city of Camorra"),
            _cite("description", "a city of dragons"),  # hallucinated
            _cite("blurb", "island city"),  # no such field
            _cite("categories", "heist"),
            _cite("title", "Locke Lamora", book=uuid.UUID(int=2)),  # another book
            _cite("authors", "Scott Lynch", relevance=1.7),  # relevance out of range
        ),
        BOOK,
    )
    assert result.grounded
    assert [c.snippet for c in result.citations] == ["island city of Camorra", "heist"]
    assert result.text == "A heist in a city of thieves." and result.confidence == 0.9


def test_no_valid_citation_means_no_explanation() -> None:
    for citations in [(), (_cite("description", "not in the book"),)]:
        result = validate_grounded_explanation(_explanation(*citations), BOOK)
        assert result.text == UNGROUNDED_TEXT
        assert result.citations == () and not result.grounded and result.confidence == 0.0


def test_low_relevance_caps_confidence_and_flags_the_text() -> None:
    result = validate_grounded_explanation(
        _explanation(_cite("categories", "fantasy", 0.2), _cite("categories", "heist", 0.3)),
        BOOK,
    )
    assert result.confidence == 0.3
    assert result.text == "[LOW CONFIDENCE] A heist in a city of thieves."
    # Already low confidence with relevant citations: flagged, not capped further.
    low = validate_grounded_explanation(_explanation(_cite("title", "Locke"), confidence=0.1), BOOK)
    assert low.confidence == 0.1 and low.text.startswith("[LOW CONFIDENCE] ")
    # The flag is never doubled when an explanation is validated twice.
    assert validate_grounded_explanation(result, BOOK).text == result.text


def test_exactly_at_the_threshold() -> None:
    kept = validate_grounded_explanation(_explanation(_cite("title", "Locke", 0.3)), BOOK)
    assert kept.confidence == 0.9 and not kept.text.startswith("[LOW")
    flagged = validate_grounded_explanation(
        _explanation(_cite("title", "Locke", 0.9), confidence=0.3), BOOK
    )
    assert flagged.text.startswith("[LOW CONFIDENCE] ")


FIELD_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), min_size=5
)


@given(FIELD_TEXT, st.data())
def test_a_snippet_cut_from_a_field_always_validates(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, min(len(text), start + 200)))
    snippet = text[start:end]
    assume(snippet.strip())
    assert is_valid_snippet(snippet, text)
    book = Book(id=BOOK.id, title="T", description=text)
    result = validate_grounded_explanation(_explanation(_cite("description", snippet)), book)
    assert result.grounded and len(result.citations) == 1


WORDS = st.lists(st.from_regex(r"[a-m]{3,8}", fullmatch=True), min_size=4, max_size=30)
OTHER_WORD = st.from_regex(r"[n-z]{3,8}", fullmatch=True)
"""Letters the field never uses: a changed word can never occur in the field by chance."""


@given(WORDS, st.data())
def test_a_snippet_with_one_changed_word_never_validates(
    words: list[str], data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(words) - 1))
    end = data.draw(st.integers(start + 1, len(words)))
    changed = list(words[start:end])
    changed[data.draw(st.integers(0, len(changed) - 1))] = data.draw(OTHER_WORD)
    text = " ".join(words)
    assert is_valid_snippet(" ".join(words[start:end]), text)
    assert not is_valid_snippet(" ".join(changed), text)
    assert not is_valid_snippet(" ".join(changed).upper(), text.title())


@pytest.mark.parametrize("snippet", ["<script>", "Locke\x00Lamora", "Lamora' OR 1=1"])
def test_hostile_snippets_do_not_validate(snippet: str) -> None:
    assert not is_valid_snippet(snippet, BOOK.field_text("title"))


def test_explanation_json_names_each_citation_by_field_snippet_and_relevance() -> None:
    explanation = _explanation(_cite("categories", "heist", 0.6), confidence=0.7)
    assert explanation_json(explanation) == {
        "text": "A heist in a city of thieves.",
        "model": "test",
        "confidence": 0.7,
        "grounded": True,
        "citations": [{"field": "categories", "snippet": "heist", "relevance": 0.6}],
    }
    json.dumps(explanation_json(explanation))  # plain JSON: no ids, dates or tuples
