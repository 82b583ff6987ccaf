"""Explanations cached in the catalog database, keyed by book, query, prompt and model."""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from lectern.adapters.catalog.tables import explanations
from lectern.domain.grounding import Citation, Explanation, match_form


def query_key(query: str) -> str:
    """Queries that differ only in case or spacing share an entry."""
    return hashlib.sha256(match_form(query).encode("utf-8")).hexdigest()


class SqlAlchemyExplanationCache:
    """The `explanations` table (created by migration 0002 with the catalog)."""

    def __init__(self, engine: Engine) -> None:
        """Share the catalog's engine; the catalog has already migrated the schema."""
        self.engine = engine

    def get(
        self, book_id: uuid.UUID, query: str, prompt_version: str, model: str
    ) -> Explanation | None:
        """The stored explanation, or None (also for a row that no longer parses)."""
        statement = sa.select(explanations.c.payload_json, explanations.c.query_text).where(
            explanations.c.book_id == str(book_id),
            explanations.c.query_key == query_key(query),
            explanations.c.prompt_version == prompt_version,
            explanations.c.model == model,
        )
        with self.engine.connect() as connection:
            row = connection.execute(statement).first()
        if row is None:
            return None
        try:
            return _decode(book_id, row.query_text, model, json.loads(row.payload_json))
        except (ValueError, KeyError, TypeError):
            return None

    def put(self, explanation: Explanation, prompt_version: str) -> None:
        """Insert or replace the entry for this explanation's key."""
        key = {
            "book_id": str(explanation.book_id),
            "query_key": query_key(explanation.query_text),
            "prompt_version": prompt_version,
            "model": explanation.model,
        }
        values = {
            **key,
            "query_text": explanation.query_text,
            "payload_json": json.dumps(_encode(explanation), ensure_ascii=False),
            "created_at": explanation.created_at,
        }
        with self.engine.begin() as connection:
            connection.execute(
                explanations.delete().where(*(explanations.c[k] == v for k, v in key.items()))
            )
            connection.execute(explanations.insert().values(**values))


def _encode(explanation: Explanation) -> dict[str, object]:
    return {
        "text": explanation.text,
        "confidence": explanation.confidence,
        "grounded": explanation.grounded,
        "created_at": explanation.created_at.isoformat(),
        "citations": [
            {"chunk_id": c.chunk_id, "snippet": c.snippet, "relevance": c.relevance_score}
            for c in explanation.citations
        ],
    }


def _decode(book_id: uuid.UUID, query: str, model: str, data: dict[str, object]) -> Explanation:
    citations = data["citations"]
    if not isinstance(citations, list):
        raise TypeError("citations must be a list")
    return Explanation(
        book_id=book_id,
        query_text=query,
        text=str(data["text"]),
        citations=tuple(
            Citation(book_id, str(c["chunk_id"]), str(c["snippet"]), float(c["relevance"]))
            for c in citations
        ),
        model=model,
        created_at=datetime.fromisoformat(str(data["created_at"])),
        confidence=float(str(data["confidence"])),
        grounded=bool(data["grounded"]),
    )
