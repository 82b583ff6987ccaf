"""Grounding metrics of explanations: citation precision, citation recall, hallucinations.

Deterministic where it can be: claims are the explanation's sentences; a citation is valid
when the domain validator accepts it against the book re-read from the catalog. Whether a
quote *supports* a claim is asked of the judge (`LLMClient.judge`): word overlap for the
offline model, a generative grade when a provider is configured.

A citation is attached to the claims that quote one of its words (“heist” in "It matches
your search on “heist” in its description"), literally or in another form the judge
recognises ("robots" and "I, Robot"); a claim that quotes nothing is attached to every
citation of the explanation, as generative explanations cite per explanation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.application.ports import LLMClient
from lectern.domain.books import Book
from lectern.domain.grounding import (
    LOW_CONFIDENCE_PREFIX,
    UNGROUNDED_TEXT,
    Citation,
    Explanation,
    is_valid_citation,
    match_form,
)
from lectern.domain.sentences import PROSE, sentences

_QUOTED = re.compile(r"[“\"]([^”\"]+)[”\"]")


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """One claim (sentence) and what backs it."""

    text: str
    valid_citations: int
    supported: bool


@dataclass(frozen=True, slots=True)
class GroundingCheck:
    """Citations and claims of one explanation, checked."""

    refused: bool
    """The explanation said it had no grounded evidence (makes no claim)."""
    citations: int
    valid_citations: int
    supporting_citations: int
    claims: tuple[ClaimCheck, ...]

    @property
    def claims_with_citation(self) -> int:
        """Claims that carry at least one valid citation."""
        return sum(1 for c in self.claims if c.valid_citations)

    @property
    def unsupported_claims(self) -> int:
        """Claims no valid citation supports: hallucinations."""
        return sum(1 for c in self.claims if not c.supported)


def claims_of(text: str) -> list[str]:
    """The claims of an explanation: its sentences, minus flags; a refusal has none."""
    body = text.strip()
    if body.startswith(LOW_CONFIDENCE_PREFIX.strip()):
        body = body[len(LOW_CONFIDENCE_PREFIX.strip()) :].strip()
    if not body or body == UNGROUNDED_TEXT:
        return []
    return sentences(body, PROSE)


def _attached(claim: str, citation: Citation, judge: LLMClient, query: str) -> bool:
    """True when the claim quotes nothing, or quotes a word the snippet contains.

    Literally, or in another form by the judge's reading ("robots" in "I, Robot").
    """
    quoted = [match_form(q) for q in _QUOTED.findall(claim)]
    if not quoted:
        return True
    snippet = match_form(citation.snippet)
    if any(q and q in snippet for q in quoted):
        return True
    return any(judge.judge(query, q, [citation.snippet]).score > 0 for q in quoted if q)


def check_explanation(
    explanation: Explanation, book: Book, judge: LLMClient, *, run_id: str | None = None
) -> GroundingCheck:
    """Validate every citation against `book`, attach them to claims, ask what supports what."""
    claims = claims_of(explanation.text)
    valid = [c for c in explanation.citations if is_valid_citation(c, book)]
    supporting: set[int] = set()
    checked: list[ClaimCheck] = []
    for claim in claims:
        mine = [c for c in valid if _attached(claim, c, judge, explanation.query_text)]
        for citation in mine:
            verdict = judge.judge(explanation.query_text, claim, [citation.snippet], run_id=run_id)
            if verdict.score > 0:
                supporting.add(id(citation))
        supported = False
        if mine:
            verdict = judge.judge(
                explanation.query_text, claim, [c.snippet for c in mine], run_id=run_id
            )
            supported = verdict.verdict != "unsupported"
        checked.append(ClaimCheck(claim, len(mine), supported))
    return GroundingCheck(
        refused=not claims,
        citations=len(explanation.citations),
        valid_citations=len(valid),
        supporting_citations=len(supporting),
        claims=tuple(checked),
    )


@dataclass(frozen=True, slots=True)
class GroundingScores:
    """Micro-averaged grounding metrics over many explanations."""

    explanations: int
    refusals: int
    citations: int
    claims: int
    citation_validity: float
    """Valid citations / all citations returned."""
    citation_precision: float
    """Citations that validate and support their claim / all citations returned."""
    citation_recall: float
    """Claims carrying a valid citation / all claims."""
    hallucination_rate: float
    """Claims that no valid citation supports / all claims."""


def grounding_scores(checks: Sequence[GroundingCheck]) -> GroundingScores:
    """Totals over explanations; rates are 0 when there is nothing to count."""
    citations = sum(c.citations for c in checks)
    claims = sum(len(c.claims) for c in checks)

    def share(part: int, whole: int) -> float:
        return part / whole if whole else 0.0

    return GroundingScores(
        explanations=len(checks),
        refusals=sum(1 for c in checks if c.refused),
        citations=citations,
        claims=claims,
        citation_validity=share(sum(c.valid_citations for c in checks), citations),
        citation_precision=share(sum(c.supporting_citations for c in checks), citations),
        citation_recall=share(sum(c.claims_with_citation for c in checks), claims),
        hallucination_rate=share(sum(c.unsupported_claims for c in checks), claims),
    )
