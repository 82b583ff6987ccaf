"""The guideline agent's one tool, `search_guidelines`: passages labelled to cite, and the gate.

Hybrid search over the profile's guidance collection; a passage is kept when the collection
has something on the question at all (an absolute cosine floor) and it scores near the top
(`passage_relevance_gate`). The tool keeps what it retrieved for the answer's citations.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pydantic import Field

from lectern.application.assistant.tools import QueryOutput, QueryTool, ToolContext, ToolInput
from lectern.application.collections import (
    CollectionSearchResponse,
    DocumentHit,
    DocumentView,
    PassageHit,
)
from lectern.domain.aliases import GAP, named_in
from lectern.domain.books import JSONValue
from lectern.domain.documents import UPLOAD_SOURCE, Document
from lectern.domain.guidance import DEFAULT_MIN_SIMILARITY, DEFAULT_TOP_K, GuideProfile, guide_label
from lectern.domain.metadata_filters import FilterField
from lectern.domain.relevance import near_the_top
from lectern.domain.snippets import Snippet
from lectern.errors import InvalidQueryError, NotFoundError, ToolError

GUIDE_TOOL = "search_guidelines"
SEARCH_DEPTH = 2
"""Documents asked of the search per document kept: room for those that give way (a superseded
RFC, a document the question does not name when it names another). The search's MMR order is
greedy, so the first documents are the same as a shallower search's."""
_NAMED_RFC = re.compile(r"\brfc\s?-?(\d{1,5})\b", re.I)
_CONTENTS_LINE = re.compile(r"(?:\.\s?){4,}\s*\d+\s*$", re.M)
"""A table of contents' line: "2.3. URI Query Parameter ........ 6"."""
_REFERENCE_START = re.compile(r"^[ \t]*\[[^\]\n]{1,40}\][ \t]+\S", re.M)
"""A reference entry's first line: "[RFC3339]  Klyne, G. and C. Newman, ..."."""


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


@runtime_checkable
class SectionReader(Protocol):
    """A document's passages, to read the rest of a retrieved section (`CollectionService`)."""

    def document(self, name: str, doc_id: str) -> DocumentView:
        """A document with its passages and their labels."""
        ...


SECTIONS_READ = 3
"""The sections of the first kept passages whose other passages join them."""
SECTION_PASSAGES = 4
"""At most this many of a section's other passages join, the nearest to the one found first."""


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
            # people call it a password; its own term joins the search words. Names the
            # documents give in other words ("recovery keys" for look-up secrets) come from
            # the profile's vocabulary, which wins a name both give.
            aliases = {
                **self.search.aliases(self.profile.collection),
                **dict(self.profile.vocabulary),
            }
            used = {
                " ".join(name.replace(GAP, " ").split()): term
                for name, term in named_in(args.query, aliases).items()
            }
            query = " ".join([args.query, *dict.fromkeys(used.values())])
            response = self.search.search(
                self.profile.collection, query, k=self.top_k * SEARCH_DEPTH, per_document=2
            )
        except InvalidQueryError as error:
            raise ToolError(str(error)) from None
        except NotFoundError as error:
            raise ToolError(f"the guidance collection is not available: {error}") from None
        found = self._passages(response, args.query)
        kept, dropped = passage_relevance_gate(found, self.min_similarity, self.min_share)
        rest = self._rest_of_sections(kept)
        evidence: dict[str, str] = {}
        shown: list[JSONValue] = []
        for item in [*kept, *rest]:
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
                    **({"read_with": True} if item in rest else {}),
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

    def _rest_of_sections(self, kept: Sequence[RetrievedPassage]) -> list[RetrievedPassage]:
        """The other passages of the sections the first kept passages open, after them.

        A section is cut into passages, and the one that states the rule may not name what
        the section is about: "In all cases, the authentication SHALL be considered invalid if
        not completed within 10 minutes" is §5.1.3.2 "Out-of-Band Verifiers"' third passage,
        whose words a question about an out-of-band code's lifetime barely shares. The search
        finds the section by its first passage; its neighbours are read with it (the nearest
        first, ranked below everything the search found, at the score of the passage that
        opened the section). Without a `SectionReader` nothing joins.
        """
        if not isinstance(self.search, SectionReader):
            return []
        have = {p.hit.passage.id for p in kept}
        seen_text = {" ".join(p.text.split()) for p in kept}
        opened: set[tuple[str, str]] = set()
        out: list[RetrievedPassage] = []
        for item in kept:
            passage = item.hit.passage
            key = (passage.document_id, passage.section or "")
            if not passage.section or key in opened:
                continue
            if len(opened) == SECTIONS_READ:
                break
            opened.add(key)
            try:
                view = self.search.document(self.profile.collection, passage.document_id)
            except NotFoundError:
                continue
            siblings = [
                (other, label)
                for other, label in view.passages
                if other.section == passage.section
                and label == item.source_label
                and other.id not in have
                and not states_nothing(other.text)
                and " ".join(other.text.split()) not in seen_text
            ]
            siblings.sort(key=lambda pair: abs(pair[0].start - passage.start))
            for other, _ in siblings[:SECTION_PASSAGES]:
                have.add(other.id)
                seen_text.add(" ".join(other.text.split()))
                hit = PassageHit(other, item.source_label, item.hit.score, Snippet(0, 0, "", ()))
                label = guide_label(
                    self.profile,
                    uri=item.document.uri,
                    cite_as=item.document.cite_as or item.document.uri,
                    page=other.page,
                    section=other.section,
                    configured=item.document.source != UPLOAD_SOURCE,
                )
                out.append(RetrievedPassage(label, item.source_label, item.document, hit))
        return out

    def _passages(self, response: CollectionSearchResponse, query: str) -> list[RetrievedPassage]:
        """The response's passages in rank order, one of each text, at most top_k.

        Of the first top_k documents that remain once those that give way are left out
        (`documents_in_force`); passages that state nothing (`states_nothing`) are skipped.
        """
        seen: set[str] = set()
        out: list[RetrievedPassage] = []
        documents = 0
        for document_hit in documents_in_force(response.results, query):
            if documents == self.top_k:
                break
            document = document_hit.document
            kept = [hit for hit in document_hit.passages if not states_nothing(hit.passage.text)]
            documents += bool(kept)
            for hit in kept:
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


def _document_id(document: Document) -> str:
    """The id the collection's index gives a document ("RFC7230"), folded; else ""."""
    value = document.metadata.get("doc_id")
    return value.casefold().replace(" ", "") if isinstance(value, str) else ""


def _ids(value: JSONValue) -> set[str]:
    if not isinstance(value, list):
        return set()
    return {v.casefold().replace(" ", "") for v in value if isinstance(v, str)}


def documents_in_force(hits: Sequence[DocumentHit], query: str) -> list[DocumentHit]:
    """The retrieved documents a question is answered from, in the search's order.

    - **A question that names a document by number is about it** ("in an rfc 3339
      timestamp ..."): when the search returned that document, the others go, so pages that
      only cite it in their references ("[RFC3339] Klyne, G. ...") do not answer for it.
    - **A superseded document gives way to its successor**: a document whose `obsoleted_by`
      (the RFC index's metadata) names another retrieved document goes ("405 Method Not
      Allowed" is answered from RFC 7231, not from RFC 2616 it obsoletes), unless the
      question names it.
    """
    named = {f"rfc{int(n)}" for n in _NAMED_RFC.findall(query)}
    present = {_document_id(h.document) for h in hits} - {""}
    if named & present:
        return [h for h in hits if _document_id(h.document) in named]
    kept = [
        h
        for h in hits
        if _document_id(h.document) in named
        or not (_ids(h.document.metadata.get("obsoleted_by")) & present)
    ]
    if len(kept) < len(hits):
        # The search's order diversified against what went: a successor ranked late for
        # being like the document it replaces. Among those in force, the best passage leads.
        kept.sort(key=lambda h: -max((p.score for p in h.passages), default=0.0))
    return kept


def states_nothing(text: str) -> bool:
    """Whether a passage is a table of contents or a reference list: it names, it states nothing.

    A heading alone, three or more dotted contents lines, or two or more reference entries
    that hold most of the passage (a page of "[RFC3339] Klyne, G. ..." entries under
    "Informative References").
    """
    if len(text.split()) < HEADING_WORDS or len(_CONTENTS_LINE.findall(text)) >= 3:
        return True
    starts = [m.start() for m in _REFERENCE_START.finditer(text)]
    return len(starts) >= 2 and len(text) - starts[0] >= REFERENCE_SHARE * len(text)


HEADING_WORDS = 4
"""A passage of fewer words is a heading alone ("Table of Contents")."""
REFERENCE_SHARE = 0.7
"""A passage whose reference entries hold this share of its text is a reference list."""


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
