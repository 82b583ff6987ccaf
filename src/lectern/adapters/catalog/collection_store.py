"""`CollectionStore` on SQLAlchemy 2 Core: the collections, documents and passages tables."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from lectern.adapters.catalog.database import in_chunks
from lectern.adapters.catalog.tables import collections, documents, passages
from lectern.application.ports import (
    CollectionRecord,
    CollectionSummary,
    IndexedPassage,
    StoredDocument,
)
from lectern.domain.documents import Document, DocumentPassage, Section
from lectern.domain.metadata_filters import FilterField

_LIGHT_COLUMNS = [c for c in documents.c if c.name != "text"]


def _filters_json(fields: Sequence[FilterField]) -> str:
    return json.dumps([{"name": f.name, "kind": f.kind, "source": f.source} for f in fields])


def _filters(text: str) -> tuple[FilterField, ...]:
    return tuple(FilterField(d["name"], d["kind"], d.get("source")) for d in json.loads(text))


def _section_json(section: Section) -> dict[str, Any]:
    return {
        "title": section.title,
        "level": section.level,
        "start": section.start,
        "end": section.end,
        "anchor": section.anchor,
        "path": list(section.path),
        "aliases": list(section.aliases),
    }


def _section(data: Mapping[str, Any]) -> Section:
    return Section(
        title=data["title"],
        level=data["level"],
        start=data["start"],
        end=data["end"],
        anchor=data.get("anchor"),
        path=tuple(data.get("path") or ()),
        aliases=tuple(data.get("aliases") or ()),
    )


def _record(row: Any) -> CollectionRecord:
    return CollectionRecord(
        name=row.name,
        filters=_filters(row.filters_json),
        generation=row.generation,
        created_at=row.created_at,
        updated_at=row.updated_at,
        mapping_text=row.mapping_text,
    )


def _document(row: Any, with_text: bool) -> Document:
    return Document(
        id=row.id,
        collection=row.collection,
        title=row.title,
        uri=row.uri,
        metadata=json.loads(row.metadata_json),
        kind=row.kind,
        cite_as=row.cite_as,
        content_hash=row.content_hash,
        source=row.source,
        text=row.text if with_text else "",
        pages=tuple((int(a), int(b)) for a, b in json.loads(row.pages_json)),
        sections=tuple(_section(s) for s in json.loads(row.sections_json)),
        notes=tuple(json.loads(row.notes_json)),
    )


def _passage(row: Any) -> DocumentPassage:
    return DocumentPassage(
        id=row.id,
        document_id=row.document_id,
        text=row.text,
        page=row.page,
        section=row.section,
        anchor=row.anchor,
        start=row.start_offset,
        end=row.end_offset,
    )


class SqlAlchemyCollectionStore:
    """Collections in the catalog database (tables made by migration 0003)."""

    def __init__(self, engine: Engine) -> None:
        """Share the catalog's engine; the catalog has already migrated the schema."""
        self.engine = engine

    def get(self, name: str) -> CollectionRecord | None:
        """The collection's row, or None."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(collections).where(collections.c.name == name)
            ).first()
        return _record(row) if row is not None else None

    def summaries(self) -> list[CollectionSummary]:
        """Every collection with document and passage counts and its sources."""
        with self.engine.connect() as connection:
            rows = connection.execute(sa.select(collections).order_by(collections.c.name)).all()
            doc_counts: dict[str, int] = dict(
                connection.execute(
                    sa.select(documents.c.collection, sa.func.count()).group_by(
                        documents.c.collection
                    )
                ).all()
            )
            passage_counts: dict[str, int] = dict(
                connection.execute(
                    sa.select(passages.c.collection, sa.func.count()).group_by(
                        passages.c.collection
                    )
                ).all()
            )
            sources: dict[str, list[str]] = {}
            for collection, source in connection.execute(
                sa.select(documents.c.collection, documents.c.source)
                .distinct()
                .order_by(documents.c.collection, documents.c.source)
            ):
                sources.setdefault(collection, []).append(source)
        return [
            CollectionSummary(
                record=_record(row),
                documents=int(doc_counts.get(row.name, 0)),
                passages=int(passage_counts.get(row.name, 0)),
                sources=tuple(sources.get(row.name, [])),
            )
            for row in rows
        ]

    def stored_hashes(self, name: str, source: str) -> dict[str, tuple[str, str]]:
        """Uri -> (id, content hash) of the documents added from this source."""
        statement = sa.select(documents.c.uri, documents.c.id, documents.c.content_hash).where(
            documents.c.collection == name, documents.c.source == source
        )
        with self.engine.connect() as connection:
            return {uri: (doc_id, digest) for uri, doc_id, digest in connection.execute(statement)}

    def indexed_passages(self, name: str) -> list[IndexedPassage]:
        """Every passage with its document's title, by document id then position."""
        statement = (
            sa.select(passages, documents.c.title.label("document_title"))
            .join(documents, documents.c.id == passages.c.document_id)
            .where(passages.c.collection == name)
            .order_by(passages.c.document_id, passages.c.position)
        )
        with self.engine.connect() as connection:
            return [
                IndexedPassage(_passage(row), row.document_title)
                for row in connection.execute(statement)
            ]

    def commit(
        self,
        record: CollectionRecord,
        upserts: Sequence[StoredDocument],
        removed: Sequence[str],
    ) -> None:
        """One transaction: the row, the replaced documents and passages, the removals."""
        now = datetime.now(UTC)
        replaced = [u.document.id for u in upserts] + list(removed)
        with self.engine.begin() as connection:
            exists = connection.execute(
                sa.select(collections.c.name).where(collections.c.name == record.name)
            ).first()
            values = {
                "filters_json": _filters_json(record.filters),
                "generation": record.generation,
                "mapping_text": record.mapping_text,
                "updated_at": record.updated_at,
            }
            if exists:
                connection.execute(
                    collections.update().where(collections.c.name == record.name).values(**values)
                )
            else:
                connection.execute(
                    collections.insert().values(
                        name=record.name, created_at=record.created_at, **values
                    )
                )
            for chunk in in_chunks(replaced):
                connection.execute(passages.delete().where(passages.c.document_id.in_(chunk)))
                connection.execute(documents.delete().where(documents.c.id.in_(chunk)))
            if upserts:
                connection.execute(
                    documents.insert(),
                    [
                        {
                            "id": u.document.id,
                            "collection": record.name,
                            "source": u.document.source,
                            "uri": u.document.uri,
                            "title": u.document.title,
                            "kind": u.document.kind,
                            "cite_as": u.document.cite_as,
                            "metadata_json": json.dumps(
                                dict(u.document.metadata), ensure_ascii=False
                            ),
                            "content_hash": u.document.content_hash,
                            "text": u.document.text,
                            "pages_json": json.dumps([list(p) for p in u.document.pages]),
                            "sections_json": json.dumps(
                                [_section_json(s) for s in u.document.sections], ensure_ascii=False
                            ),
                            "notes_json": json.dumps(list(u.document.notes), ensure_ascii=False),
                            "updated_at": now,
                        }
                        for u in upserts
                    ],
                )
                rows = [
                    {
                        "id": p.id,
                        "document_id": u.document.id,
                        "collection": record.name,
                        "position": position,
                        "text": p.text,
                        "page": p.page,
                        "section": p.section,
                        "anchor": p.anchor,
                        "start_offset": p.start,
                        "end_offset": p.end,
                    }
                    for u in upserts
                    for position, p in enumerate(u.passages)
                ]
                if rows:
                    connection.execute(passages.insert(), rows)

    def remove(self, name: str) -> None:
        """Delete the collection, its documents and passages."""
        with self.engine.begin() as connection:
            connection.execute(passages.delete().where(passages.c.collection == name))
            connection.execute(documents.delete().where(documents.c.collection == name))
            connection.execute(collections.delete().where(collections.c.name == name))

    def documents(
        self, name: str, ids: Sequence[str], *, with_text: bool = False
    ) -> dict[str, Document]:
        """Documents of the collection by id."""
        columns = list(documents.c) if with_text else _LIGHT_COLUMNS
        found: dict[str, Document] = {}
        with self.engine.connect() as connection:
            for chunk in in_chunks(list(ids)):
                statement = sa.select(*columns).where(
                    documents.c.collection == name, documents.c.id.in_(chunk)
                )
                for row in connection.execute(statement):
                    found[row.id] = _document(row, with_text)
        return found

    def list_documents(self, name: str, limit: int = 100, offset: int = 0) -> list[Document]:
        """Documents in uri order, without text."""
        statement = (
            sa.select(*_LIGHT_COLUMNS)
            .where(documents.c.collection == name)
            .order_by(documents.c.uri)
            .limit(limit)
            .offset(offset)
        )
        with self.engine.connect() as connection:
            return [_document(row, False) for row in connection.execute(statement)]

    def passages(self, ids: Sequence[str]) -> dict[str, DocumentPassage]:
        """Passages by id."""
        found: dict[str, DocumentPassage] = {}
        with self.engine.connect() as connection:
            for chunk in in_chunks(list(ids)):
                for row in connection.execute(sa.select(passages).where(passages.c.id.in_(chunk))):
                    found[row.id] = _passage(row)
        return found

    def passages_of(self, document_id: str) -> list[DocumentPassage]:
        """A document's passages in text order."""
        statement = (
            sa.select(passages)
            .where(passages.c.document_id == document_id)
            .order_by(passages.c.position)
        )
        with self.engine.connect() as connection:
            return [_passage(row) for row in connection.execute(statement)]

    def cited_as(self, key: str) -> list[Document]:
        """Documents with this label key, with text."""
        statement = (
            sa.select(documents)
            .where(documents.c.cite_as == key)
            .order_by(documents.c.collection, documents.c.uri)
        )
        with self.engine.connect() as connection:
            return [_document(row, True) for row in connection.execute(statement)]

    def filter_values(self, name: str) -> list[tuple[str, Mapping[str, object]]]:
        """(id, metadata) of every document of the collection."""
        statement = sa.select(documents.c.id, documents.c.metadata_json).where(
            documents.c.collection == name
        )
        with self.engine.connect() as connection:
            return [(i, json.loads(m)) for i, m in connection.execute(statement)]
