"""Grounding metrics and the offline judge, on explanations whose faults are known."""

import uuid
from datetime import UTC, datetime

import pytest

from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.application.evaluation.grounding import (
    check_explanation,
    claims_of,
    grounding_scores,
)
from lectern.domain.books import Book
from lectern.domain.evaluation import RubricScore
from lectern.domain.grounding import UNGROUNDED_TEXT, Citation, Explanation
from lectern.errors import LLMError

BOOK = Book(
    id=uuid.UUID(int=3),
    title="Six of Crows",
    authors=("Leigh Bardugo",),
    categories=("fantasy", "heist"),
    description="Kaz Brekker is offered a chance at a deadly heist in Ketterdam.",
)
JUDGE = ExtractiveLLM()


def _explanation(text: str, *citations: tuple[str, str]) -> Explanation:
    return Explanation(
        book_id=BOOK.id,
        query_text="fantasy heist",
        text=text,
        citations=tuple(Citation(BOOK.id, f, s, 0.8) for f, s in citations),
        model="test",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        confidence=0.8,
        grounded=True,
    )


def test_claims_are_sentences_without_flags_and_refusals_have_none() -> None:
    assert claims_of("[LOW CONFIDENCE] It is a heist. It has magic!") == [
        "It is a heist.",
        "It has magic!",
    ]
    assert claims_of(UNGROUNDED_TEXT) == []
    assert claims_of("  ") == []


def test_extractive_explanation_is_fully_grounded() -> None:
    explanation = ExtractiveLLM().explain("fantasy heist", BOOK)
    check = check_explanation(explanation, BOOK, JUDGE)
    assert check.citations == check.valid_citations == check.supporting_citations > 0
    assert check.claims and check.unsupported_claims == 0
    assert check.claims_with_citation == len(check.claims)


def test_invalid_citation_lowers_precision_and_unsupported_claim_is_a_hallucination() -> None:
    explanation = _explanation(
        "It matches your search on “heist” in its categories. Kaz rides a purple zeppelin.",
        ("categories", "heist"),
        ("description", "a purple zeppelin over Ketterdam"),  # not in the record
    )
    check = check_explanation(explanation, BOOK, JUDGE)
    assert (check.citations, check.valid_citations, check.supporting_citations) == (2, 1, 1)
    first, second = check.claims
    assert first.supported and first.valid_citations == 1
    # The second claim is attached to the valid "heist" quote too (it quotes nothing), but
    # that quote does not support "Kaz rides a purple zeppelin".
    assert not second.supported
    scores = grounding_scores([check])
    assert scores.citation_precision == pytest.approx(0.5)
    assert scores.citation_validity == pytest.approx(0.5)
    assert scores.hallucination_rate == pytest.approx(0.5)
    assert scores.citation_recall == pytest.approx(1.0)


def test_citation_that_validates_but_supports_nothing_is_not_precise() -> None:
    explanation = _explanation(
        "It matches your search on “heist” in its categories.", ("title", "Six of Crows")
    )
    check = check_explanation(explanation, BOOK, JUDGE)
    # The title quote is valid but quotes none of the claim's words: not attached, no support.
    assert check.valid_citations == 1 and check.supporting_citations == 0
    assert check.claims[0].valid_citations == 0 and not check.claims[0].supported
    scores = grounding_scores([check])
    assert scores.citation_precision == 0.0 and scores.citation_recall == 0.0


def test_refusal_counts_as_refusal_not_as_claims() -> None:
    refusal = _explanation(UNGROUNDED_TEXT)
    scores = grounding_scores([check_explanation(refusal, BOOK, JUDGE)])
    assert scores.refusals == 1 and scores.claims == 0 and scores.hallucination_rate == 0.0


def test_heuristic_judge_grades_three_dimensions_and_says_it_is_heuristic() -> None:
    good = JUDGE.grade_explanation(
        "fantasy heist",
        "It matches your search on “fantasy”, “heist” in its categories.",
        ["fantasy", "heist"],
    )
    assert good.heuristic and "heuristic" in good.model
    assert good.scores() == {"groundedness": 5, "clarity": 5, "relevance": 5}
    bad = JUDGE.grade_explanation(
        "fantasy heist space opera",
        "[LOW CONFIDENCE] Purple zeppelins.",
        ["heist"],
    )
    assert bad.groundedness.score == 1 and bad.relevance.score == 2
    assert bad.clarity.score <= 2 and "low confidence" in bad.clarity.reason
    assert all(len(getattr(bad, d).reason) <= 200 for d in ("groundedness", "clarity", "relevance"))


def test_heuristic_relevance_looks_for_no_request_or_function_words() -> None:
    # A request's frame and another language's function words are in no book's evidence,
    # however good the book: they are not looked for.
    quoted = ["science fiction", "ciencia ficción"]
    spanish = JUDGE.grade_explanation("novelas de ciencia ficción", "It matches.", quoted)
    assert spanish.relevance.reason == "the quotes contain 2 of 3 query content words"
    like = JUDGE.grade_explanation("books similar to Dune thriller", "It matches.", ["thriller"])
    assert like.relevance.reason == "the quotes contain 1 of 2 query content words"


def test_rubric_scores_refuse_out_of_range_values() -> None:
    with pytest.raises(LLMError, match="1..5"):
        RubricScore(6, "too good")
    with pytest.raises(LLMError, match="200"):
        RubricScore(3, "x" * 201)


def test_a_quoted_word_in_another_form_still_attaches_its_citation() -> None:
    robot = Book(id=uuid.UUID(int=4), title="I, Robot", categories=("science fiction",))
    explanation = Explanation(
        book_id=robot.id,
        query_text="robots",
        text="It matches your search on “robots” in its title.",
        citations=(Citation(robot.id, "title", "I, Robot", 0.8),),
        model="test",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        confidence=0.8,
        grounded=True,
    )
    check = check_explanation(explanation, robot, JUDGE)
    assert check.supporting_citations == 1 and check.claims[0].supported
