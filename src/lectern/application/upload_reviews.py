"""The automatic review of a document uploaded to a collection: personal data and a summary.

It reuses the workspace reviews' parts: the summary is the document's leading sentences
(extractive, offline), each quoted with the document's label and checked literal against
the document's text before it is kept; sentences holding personal data are never quoted;
personal data is reported by kind and count, never by value. The review is stored and
returned with the upload's result; a failing review leaves the upload as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

import structlog

from lectern.application.assistant.ports import PiiDetector
from lectern.application.collections import CollectionService
from lectern.application.workspace.reviews import (
    REVIEW_TEXT_CHARS,
    pii_line,
    quote,
    summary_sentences,
)
from lectern.domain.books import JSONValue
from lectern.domain.workspace import CommentCitation

log = structlog.get_logger(__name__)

REVIEW_KIND = "upload_review"


class UploadReviewStore(Protocol):
    """Where uploads' reviews are kept, one per (collection, document)."""

    def put(self, collection: str, document_id: str, review: JSONValue, now: datetime) -> None:
        """Store (or replace) a document's review."""
        ...

    def get(self, collection: str, document_id: str) -> JSONValue | None:
        """A document's review, if one was stored."""
        ...


class UploadReviewer:
    """Reviews one uploaded document and stores the review."""

    def __init__(
        self,
        collections: CollectionService,
        store: UploadReviewStore,
        pii: PiiDetector | None,
        *,
        clock: Callable[[], datetime],
    ) -> None:
        """Read documents from `collections`, keep reviews in `store`."""
        self.collections = collections
        self.store = store
        self.pii = pii
        self.clock = clock

    def review(self, collection: str, document_id: str) -> JSONValue:
        """Review the document and store the review; a failure is stored as `failed`."""
        review: JSONValue
        try:
            review = self._review(collection, document_id)
        except Exception as error:  # noqa: BLE001 - the upload stands whatever the review does
            log.warning(
                "upload review failed",
                collection=collection,
                document=document_id,
                error=str(error),
            )
            review = {
                "kind": REVIEW_KIND,
                "status": "failed",
                "error": f"{type(error).__name__}: {error}",
            }
        try:
            self.store.put(collection, document_id, review, self.clock())
        except Exception as error:  # noqa: BLE001 - returned with the upload all the same
            log.warning("upload review not stored", document=document_id, error=str(error))
        return review

    def stored(self, collection: str, document_id: str) -> JSONValue | None:
        """The stored review of a document (after checking the document exists)."""
        self.collections.document(collection, document_id)
        return self.store.get(collection, document_id)

    def _review(self, collection: str, document_id: str) -> JSONValue:
        document = self.collections.document(collection, document_id).document
        text = document.text[:REVIEW_TEXT_CHARS]
        label = f"[{document.cite_as or document.uri}]"
        source = f"document:{collection}/{document.id}"
        citations: list[CommentCitation] = []
        summary = [
            quote(source, label, sentence, text, citations)
            for sentence in summary_sentences(text, self.pii)
        ]
        found = Counter(f.kind for f in self.pii.find(text)) if self.pii is not None else Counter()
        lines = [f'Automatic review of "{document.title}" (uploaded).']
        if summary:
            lines.append("Summary:")
            lines.extend(f"- {part}" for part in summary)
        else:
            lines.append("Summary: no sentence to quote.")
        lines.append(pii_line(self.pii, text))
        return {
            "kind": REVIEW_KIND,
            "status": "done",
            "document_id": document.id,
            "pii": dict(sorted(found.items())),
            "pii_checked": self.pii is not None,
            "text": "\n".join(lines),
            "citations": [
                {"source": c.source, "label": c.label, "snippet": c.snippet} for c in citations
            ],
        }
