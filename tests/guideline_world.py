"""Guidance passages in memory and a wired guideline agent, shared by the guideline tests.

The passages are real excerpts of NIST SP 800-63B and RFC 6585 / RFC 6265; the search is a
word-overlap fake (`FakeGuidelineSearch`) whose `similarity` is the share of the query's
words a passage holds, so off-scope questions find nothing similar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from lectern.adapters.guidance.profiles import load_profiles
from lectern.adapters.llm.followups import RuleFollowUpRewriter
from lectern.adapters.sessions.memory import InMemorySessions
from lectern.application.assistant.guideline import GuideConfig, GuidelineAgent
from lectern.application.assistant.ports import ChatModel
from lectern.application.collections import CollectionSearchResponse, DocumentHit, PassageHit
from lectern.domain.aliases import aliases_in, merged
from lectern.domain.books import JSONValue
from lectern.domain.documents import Document, DocumentPassage, label_of
from lectern.domain.metadata_filters import FilterField
from lectern.domain.snippets import best_snippet
from lectern.errors import CollectionNotFoundError
from tests.fakes import RecordingTracer

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)

SEC5111 = (
    "Memorized secrets SHALL be at least 8 characters in length if chosen by the subscriber. "
    "Memorized secrets chosen randomly by the CSP or verifier SHALL be at least 6 characters "
    "in length and MAY be entirely numeric."
)
SEC5112 = (
    "Verifiers SHOULD permit subscriber-chosen memorized secrets at least 64 characters in "
    "length. The salt SHALL be at least 32 bits in length and be chosen arbitrarily so as to "
    "minimize salt value collisions among stored hashes."
)
SEC522 = (
    "Unless otherwise specified in the description of a given authenticator, the verifier "
    "SHALL limit consecutive failed authentication attempts on a single account to no more "
    "than 100."
)
SEC423 = (
    "At AAL2, authentication of the subscriber SHALL be repeated at least once per 12 hours "
    "during an extended usage session, regardless of user activity. Reauthentication of the "
    "subscriber SHALL be repeated following any period of inactivity lasting 30 minutes or "
    "longer."
)
SEC433 = (
    "At AAL3, authentication of the subscriber SHALL be repeated at least once per 12 hours "
    "during an extended usage session, regardless of user activity. Reauthentication of the "
    "subscriber SHALL be repeated following any period of inactivity lasting 15 minutes or "
    "longer."
)
RFC6585_P3 = (
    "The 429 status code indicates that the user has sent too many requests in a given amount "
    'of time ("rate limiting").'
)

NIST = [
    (
        "sp800-63b/sec5_authenticators.md",
        "5 Authenticator and Verifier Requirements",
        [
            ("5 Authenticators > 5.1.1.1 Memorized Secret Authenticators", "memsecret", SEC5111),
            ("5 Authenticators > 5.1.1.2 Memorized Secret Verifiers", "memsecretver", SEC5112),
            ("5 Authenticators > 5.2.2 Rate Limiting (Throttling)", "throttle", SEC522),
        ],
    ),
    (
        "sp800-63b/sec4_aal.md",
        "4 Authenticator Assurance Levels",
        [
            ("4 AAL > 4.2.3 Reauthentication", "aal2reauth", SEC423),
            ("4 AAL > 4.3.3 Reauthentication", "aal3reauth", SEC433),
        ],
    ),
]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.casefold()) if len(w) > 2}


@dataclass
class FakeGuidelineSearch:
    """Collections in memory: (document, passage) pairs ranked by shared words."""

    collections: dict[str, list[tuple[Document, DocumentPassage]]] = field(default_factory=dict)
    queries: list[tuple[str, str, int]] = field(default_factory=list)

    def add(
        self,
        name: str,
        uri: str,
        title: str,
        cite_as: str,
        passages: list[tuple[str | None, str | None, str, int | None]],
        metadata: dict[str, JSONValue] | None = None,
    ) -> None:
        text = "\n\n".join(p[2] for p in passages)
        document = Document(
            id=f"doc-{uri}",
            collection=name,
            title=title,
            uri=uri,
            metadata=metadata or {},
            cite_as=cite_as,
            text=text,
        )
        start = 0
        for number, (section, anchor, words, page) in enumerate(passages):
            passage = DocumentPassage(
                f"p-{uri}-{number}",
                document.id,
                words,
                page,
                section,
                anchor,
                start,
                start + len(words),
            )
            start += len(words) + 2
            self.collections.setdefault(name, []).append((document, passage))

    def search(
        self, name: str, text: str, *, k: int = 10, per_document: int = 3
    ) -> CollectionSearchResponse:
        self.queries.append((name, text, k))
        query = _words(text)
        scored = []
        for document, passage in self.collections.get(name, []):
            shared = len(query & _words(f"{passage.section} {passage.text}"))
            if shared:
                scored.append((shared / max(1, len(query)), document, passage))
        scored.sort(key=lambda item: -item[0])
        results: dict[str, list[PassageHit]] = {}
        documents: dict[str, Document] = {}
        for score, document, passage in scored:
            bucket = results.setdefault(document.id, [])
            documents[document.id] = document
            if len(bucket) < per_document:
                bucket.append(
                    PassageHit(
                        passage,
                        label_of(document.cite_as, passage.page, passage.anchor),
                        score,
                        best_snippet(passage.text, text),
                        similarity=score,
                    )
                )
        hits = tuple(
            DocumentHit(documents[d], rank, passages[0].score, tuple(passages))
            for rank, (d, passages) in enumerate(list(results.items())[:k], start=1)
        )
        return CollectionSearchResponse(name, text, hits, (), False, None, {})

    def filters(self, name: str) -> tuple[FilterField, ...]:
        if name not in self.collections:
            raise CollectionNotFoundError(f"no collection named {name!r}")
        return ()

    def aliases(self, name: str) -> dict[str, str]:
        """The documents' own glossary, read as the collection service reads it."""
        documents = {d.id: d for d, _ in self.collections.get(name, [])}
        return merged(aliases_in(d.text) for d in documents.values())


def guidance_search() -> FakeGuidelineSearch:
    search = FakeGuidelineSearch()
    for uri, title, passages in NIST:
        search.add(
            "nist",
            uri,
            title,
            f"nist:{uri}",
            [(section, anchor, words, None) for section, anchor, words in passages],
        )
    search.add(
        "rfc",
        "rfc6585.txt",
        "Additional HTTP Status Codes",
        "RFC 6585",
        [(None, None, RFC6585_P3, 3)],
    )
    return search


@dataclass
class GuideWorld:
    agent: GuidelineAgent
    search: FakeGuidelineSearch
    sessions: InMemorySessions
    tracer: RecordingTracer


def make_guide(model: ChatModel, *, min_similarity: float = 0.3) -> GuideWorld:
    search = guidance_search()
    sessions = InMemorySessions(3600.0)
    tracer = RecordingTracer()
    agent = GuidelineAgent(
        model,
        search,
        load_profiles(),
        sessions,
        RuleFollowUpRewriter(),
        config=GuideConfig(min_similarity=min_similarity),
        clock=lambda: NOW,
        tracer=tracer,
    )
    return GuideWorld(agent, search, sessions, tracer)
