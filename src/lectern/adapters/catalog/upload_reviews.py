"""`UploadReviewStore` on SQLAlchemy Core: the `upload_reviews` table (migration 0008)."""

from __future__ import annotations

import json
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from lectern.adapters.catalog.tables import upload_reviews
from lectern.domain.assistant import canonical_json
from lectern.domain.books import JSONValue


class SqlAlchemyUploadReviews:
    """Uploads' reviews in the catalog database."""

    def __init__(self, engine: Engine) -> None:
        """Share the catalog's engine (already migrated)."""
        self.engine = engine

    def put(self, collection: str, document_id: str, review: JSONValue, now: datetime) -> None:
        """Store or replace a document's review."""
        key = (upload_reviews.c.collection == collection) & (
            upload_reviews.c.document_id == document_id
        )
        with self.engine.begin() as connection:
            connection.execute(sa.delete(upload_reviews).where(key))
            connection.execute(
                upload_reviews.insert().values(
                    collection=collection,
                    document_id=document_id,
                    created_at=now,
                    review=canonical_json(review),
                )
            )

    def get(self, collection: str, document_id: str) -> JSONValue | None:
        """A document's review, if stored."""
        with self.engine.connect() as connection:
            text = connection.execute(
                sa.select(upload_reviews.c.review).where(
                    upload_reviews.c.collection == collection,
                    upload_reviews.c.document_id == document_id,
                )
            ).scalar()
        return None if text is None else json.loads(text)
