"""The guideline agent's one tool, `search_guidelines`: passages labelled to cite, and the gate.

Hybrid search over the profile's guidance collection; a passage is kept when the collection
has something on the question at all (an absolute cosine floor) and it scores near the top
(`passage_relevance_gate`). The tool keeps what it retrieved for the answer's citations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import Field

from lectern.application.assistant.tools import QueryOutput, QueryTool, ToolContext, ToolInput
from lectern.application.collections import CollectionSearchResponse, PassageHit
from lectern.domain.aliases import named_in
from lectern.domain.books import JSONValue
from lectern.domain.documents import UPLOAD_SOURCE, Document
from lectern.domain.guidance import DEFAULT_MIN_SIMILARITY, DEFAULT_TOP_K, GuideProfile, guide_label
from lectern.domain.metadata_filters import FilterField
from lectern.domain.relevance import near_the_top
from lectern.errors import InvalidQueryError, NotFoundError, ToolError

GUIDE_TOOL = "search_guidelines"


class GuidelineSearch(Protocol):
    """What the agent needs of the collections (`CollectionService`)."""

    def search(
        self, name: str, text: str, *, k: int = 10, per_document: int = 3
    ) -> CollectionSearchResponse:
        """Documents for a query, each with its best passages."""
        ...

    def filters(self, name: str) -> tuple[FilterField, ...]:
        """The collection's filters; CollectionNotFoundError when there is no such collection."""
        ...

    def aliases(self, name: str) -> dict[str, str]:
        """Everyday name -> the collection's term, as its documents say ("password")."""
        ...


@dataclass(frozen=True, slots=True)
class RetrievedPassage:
    """A passage the agent retrieved, with the label it is cited by and where it lives."""

    label: str
    """The profile's label: `[NIST SP 800-63B §5.1.1.2]`, `[RFC 7231 p.12]`."""
    source_label: str
    """The collection's own label (`GET /labels/resolve` opens it)."""
    document: Document
    hit: PassageHit

    @property
    def text(self) -> str:
        """The passage's words."""
        return self.hit.passage.text


class SearchGuidelinesInput(ToolInput):
    """Input of search_guidelines."""

    query: str = Field(
        min_length=1,
        max_length=500,
        description="A standalone search query: the question's subject and conditions, "
        "no pronouns.",
    )


class SearchGuidelines(QueryTool):
    """Hybrid search over one guidance collection; passages come with the labels to cite."""

    name = GUIDE_TOOL
    description = (
        "Search the guidance documents. Returns passages, each with the label to cite it by "
        "and its text. Call it before answering any question."
    )
    Input = SearchGuidelinesInput

    def __init__(
        self,
        search: GuidelineSearch,
        profile: GuideProfile,
        *,
        top_k: int = DEFAULT_TOP_K,
        min_similarity: float = DEFAULT_MIN_SIMILARITY,
        min_share: float = 0.3,
    ) -> None:
        """One tool per turn: it keeps what it retrieved for the answer's citations."""
        self.search = search
        self.profile = profile
        self.top_k = top_k
        self.min_similarity = min_similarity
        self.min_share = min_share
        self.retrieved: dict[str, list[RetrievedPassage]] = {}

    def run(self, args: SearchGuidelinesInput, context: ToolContext) -> QueryOutput:
        """Search, keep the relevant passages, label them."""
        del context
        try:
            # "min password length": the guidance says "memorized secret", and says that
            # people call it a password; its own term joins the search words.
            used = named_in(args.query, self.search.aliases(self.profile.collection))
            query = " ".join([args.query, *dict.fromkeys(used.values())])
            response = self.search.search(
                self.profile.collection, query, k=self.top_k, per_document=2
            )
        except InvalidQueryError as error:
            raise ToolError(str(error)) from None
        except NotFoundError as error:
            raise ToolError(f"the guidance collection is not available: {error}") from None
        found = self._passages(response)
        kept, dropped = passage_relevance_gate(found, self.min_similarity, self.min_share)
        evidence: dict[str, str] = {}
        shown: list[JSONValue] = []
        for item in kept:
            self.retrieved.setdefault(item.label, []).append(item)
            header = " ".join(
                part for part in (item.label, item.document.title, item.hit.passage.section) if part
            )
            before = evidence.get(item.label)
            evidence[item.label] = f"{before}\n{item.text}" if before else f"{header}\n{item.text}"
            shown.append(
                {
                    "label": item.label,
                    "document": item.document.title,
                    "section": item.hit.passage.section,
                    "page": item.hit.passage.page,
                    "text": item.text,
                }
            )
        data: dict[str, JSONValue] = {"passages": shown}
        if used:
            data["terms"] = dict(used)
        if dropped:
            data["dropped_as_irrelevant"] = dropped
        # Only a search that found nothing relevant at all is worth a flag: dropping the
        # weaker passages of a good search is routine.
        flagged = dropped if not kept else 0
        return QueryOutput(data, evidence, retrieval=True, dropped=flagged)

    def _passages(self, response: CollectionSearchResponse) -> list[RetrievedPassage]:
        """The response's passages in rank order, one of each text, at most top_k."""
        seen: set[str] = set()
        out: list[RetrievedPassage] = []
        for document_hit in response.results:
            document = document_hit.document
            for hit in document_hit.passages:
                key = " ".join(hit.passage.text.split())
                if key in seen:
                    continue  # the same words in two files (NIST's combined volumes)
                seen.add(key)
                label = guide_label(
                    self.profile,
                    uri=document.uri,
                    cite_as=document.cite_as or document.uri,
                    page=hit.passage.page,
                    section=hit.passage.section,
                    configured=document.source != UPLOAD_SOURCE,
                )
                out.append(RetrievedPassage(label, hit.label, document, hit))
        out.sort(key=lambda p: -p.hit.score)
        return out[: self.top_k]


def passage_relevance_gate(
    found: Sequence[RetrievedPassage], min_similarity: float, min_share: float
) -> tuple[list[RetrievedPassage], int]:
    """The passages worth answering from, and how many were dropped.

    Absolute first: when the best cosine of question and passage is under `min_similarity`
    the collection has nothing on the question (without vectors this step is skipped).
    Then relative: passages under `min_share` of the best fused score go.
    """
    similarities = [p.hit.similarity for p in found if p.hit.similarity is not None]
    if similarities and max(similarities) < min_similarity:
        return [], len(found)
    return near_the_top(found, lambda p: p.hit.score, min_share)
