"""`BookCatalog` on SQLAlchemy 2 Core: SQLite (WAL) by default, PostgreSQL unchanged."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from lectern.adapters.catalog.database import create_catalog_engine, in_chunks, migrate
from lectern.adapters.catalog.tables import (
    CHILD_TABLES,
    book_authors,
    book_categories,
    book_identifiers,
    book_provenance,
    book_sources,
    books,
)
from lectern.application.ports import BookFacts, BookNames, StoredEntry
from lectern.domain.books import (
    Book,
    CatalogCounts,
    CatalogEntry,
    CategoryCount,
    Facets,
    FieldProvenance,
    JSONValue,
    SourceRef,
    page_bucket,
)
from lectern.domain.exclusions import excludes
from lectern.domain.normalize import normalize_category, parse_isbn_query
from lectern.domain.search import SearchFilters


class SqlAlchemyBookCatalog:
    """The catalog of merged books, their identifiers, provenance and source records."""

    def __init__(self, engine: Engine, *, run_migrations: bool = True) -> None:
        """Use this engine; migrate the schema to head first unless told not to."""
        self.engine = engine
        if run_migrations:
            migrate(engine)

    @classmethod
    def from_url(cls, url: str) -> SqlAlchemyBookCatalog:
        """Open (and migrate) the catalog at a SQLAlchemy URL."""
        return cls(create_catalog_engine(url))

    def close(self) -> None:
        """Release pooled connections."""
        self.engine.dispose()

    # --- reads ----------------------------------------------------------------------------

    def get(self, book_id: uuid.UUID) -> Book | None:
        """The book with this id, or None."""
        found = self.get_many([book_id])
        return found[0] if found else None

    def get_by_isbn(self, isbn: str) -> Book | None:
        """The book holding this ISBN-10 or ISBN-13; editions merged into it count."""
        parsed = parse_isbn_query(isbn)
        if parsed is None:
            return None
        kind, value = parsed
        with self.engine.connect() as connection:
            book_id = connection.execute(
                sa.select(book_identifiers.c.book_id).where(
                    book_identifiers.c.key == f"{kind}:{value}"
                )
            ).scalar_one_or_none()
        return self.get(uuid.UUID(book_id)) if book_id else None

    def get_many(self, book_ids: Sequence[uuid.UUID]) -> list[Book]:
        """Books in the order of the ids given; unknown ids are skipped."""
        keys = [str(i) for i in book_ids]
        found: dict[str, Book] = {}
        with self.engine.connect() as connection:
            for chunk in in_chunks(keys):
                found.update(self._load(connection, chunk))
        return [found[k] for k in keys if k in found]

    def _load(self, connection: Connection, keys: Sequence[str]) -> dict[str, Book]:
        authors = _ordered_names(connection, book_authors, keys)
        categories = _ordered_names(connection, book_categories, keys)
        result: dict[str, Book] = {}
        for row in connection.execute(sa.select(books).where(books.c.id.in_(keys))):
            result[row.id] = Book(
                id=uuid.UUID(row.id),
                title=row.title,
                subtitle=row.subtitle,
                authors=tuple(authors.get(row.id, ())),
                description=row.description,
                language=row.language,
                categories=tuple(categories.get(row.id, ())),
                published_year=row.published_year,
                pages=row.pages,
                isbn10=row.isbn10,
                isbn13=row.isbn13,
                source=row.source,
                source_id=row.source_id,
                metadata=json.loads(row.metadata_json),
            )
        return result

    def get_entry(self, book_id: uuid.UUID) -> CatalogEntry | None:
        """The book with its identifiers, field provenance and source records."""
        book = self.get(book_id)
        if book is None:
            return None
        key = str(book_id)
        with self.engine.connect() as connection:
            identifiers = connection.execute(
                sa.select(book_identifiers.c.key)
                .where(book_identifiers.c.book_id == key)
                .order_by(book_identifiers.c.key)
            ).scalars()
            provenance = [
                FieldProvenance(row.field, row.source, row.source_id)
                for row in connection.execute(
                    sa.select(book_provenance)
                    .where(book_provenance.c.book_id == key)
                    .order_by(book_provenance.c.position)
                )
            ]
            sources = [
                SourceRef(row.source, row.source_id, row.file, row.line)
                for row in connection.execute(
                    sa.select(book_sources)
                    .where(book_sources.c.book_id == key)
                    .order_by(book_sources.c.position)
                )
            ]
            return CatalogEntry(book, tuple(identifiers), tuple(provenance), tuple(sources))

    def iter_batches(self, size: int = 1000) -> Iterator[list[Book]]:
        """Every book, in id order, in lists of at most `size`."""
        if size <= 0:
            raise ValueError("batch size must be positive")
        after = ""
        while True:
            with self.engine.connect() as connection:
                keys = list(
                    connection.execute(
                        sa.select(books.c.id)
                        .where(books.c.id > after)
                        .order_by(books.c.id)
                        .limit(size)
                    ).scalars()
                )
            if not keys:
                return
            yield self.get_many([uuid.UUID(k) for k in keys])
            after = keys[-1]

    def ids_matching(self, filters: SearchFilters) -> set[uuid.UUID]:
        """Ids of the books that satisfy every filter set (unknown page counts pass).

        Exclusions are matched in Python with the domain's rules (`domain.exclusions`),
        over the names of the books the other filters keep.
        """
        query = sa.select(books.c.id)
        if filters.language:
            query = query.where(books.c.language == filters.language.strip().casefold())
        if filters.min_year is not None:
            query = query.where(books.c.published_year >= filters.min_year)
        if filters.max_year is not None:
            query = query.where(books.c.published_year <= filters.max_year)
        if filters.min_pages is not None:
            query = query.where(sa.or_(books.c.pages.is_(None), books.c.pages >= filters.min_pages))
        if filters.max_pages is not None:
            query = query.where(sa.or_(books.c.pages.is_(None), books.c.pages <= filters.max_pages))
        if filters.category:
            name = normalize_category(filters.category) or filters.category.strip().casefold()
            query = query.where(
                sa.exists().where(
                    book_categories.c.book_id == books.c.id, book_categories.c.name == name
                )
            )
        with self.engine.connect() as connection:
            keys = set(connection.execute(query).scalars())
        excluding = (
            filters.exclude_categories
            or filters.exclude_authors
            or filters.exclude_titles
            or filters.exclude_youth
        )
        if excluding:
            keys = {
                f.id
                for f in self.book_facts()
                if f.id in keys
                and not excludes(
                    filters,
                    categories=f.categories,
                    authors=f.authors,
                    title=f.title,
                    series=f.series,
                )
            }
        return {uuid.UUID(k) for k in keys}

    def facets(self, top_categories: int = 30) -> Facets:
        """Languages, the most common categories and a decade histogram."""
        with self.engine.connect() as connection:
            languages = [
                CategoryCount(row[0], row[1])
                for row in connection.execute(
                    sa.select(books.c.language, sa.func.count())
                    .where(books.c.language.is_not(None))
                    .group_by(books.c.language)
                    .order_by(sa.func.count().desc(), books.c.language)
                )
            ]
            categories = [
                CategoryCount(row[0], row[1])
                for row in connection.execute(
                    sa.select(book_categories.c.name, sa.func.count())
                    .group_by(book_categories.c.name)
                    .order_by(sa.func.count().desc(), book_categories.c.name)
                    .limit(top_categories)
                )
            ]
            decades: dict[int, int] = {}
            for year, count in connection.execute(
                sa.select(books.c.published_year, sa.func.count())
                .where(books.c.published_year.is_not(None))
                .group_by(books.c.published_year)
            ):
                decade = (year // 10) * 10
                decades[decade] = decades.get(decade, 0) + count
            buckets: dict[int, int] = {}
            for pages, count in connection.execute(
                sa.select(books.c.pages, sa.func.count())
                .where(books.c.pages.is_not(None))
                .group_by(books.c.pages)
            ):
                bucket = page_bucket(pages)
                buckets[bucket] = buckets.get(bucket, 0) + count
        years = sorted(decades)
        return Facets(
            languages=tuple(languages),
            top_categories=tuple(categories),
            year_histogram=tuple((d, decades[d]) for d in years),
            min_year=self._year(sa.func.min),
            max_year=self._year(sa.func.max),
            page_histogram=tuple(sorted(buckets.items())),
        )

    def _year(self, aggregate: Any) -> int | None:
        with self.engine.connect() as connection:
            value = connection.execute(sa.select(aggregate(books.c.published_year))).scalar()
        return int(value) if value is not None else None

    def counts(self) -> CatalogCounts:
        """Headline numbers."""

        def count_where(*conditions: Any) -> int:
            query = sa.select(sa.func.count()).select_from(books)
            for condition in conditions:
                query = query.where(condition)
            with self.engine.connect() as connection:
                return int(connection.execute(query).scalar_one())

        has_category = sa.exists().where(book_categories.c.book_id == books.c.id)
        with self.engine.connect() as connection:
            authors = connection.execute(
                sa.select(sa.func.count(sa.distinct(book_authors.c.name)))
            ).scalar_one()
            categories = connection.execute(
                sa.select(sa.func.count(sa.distinct(book_categories.c.name)))
            ).scalar_one()
            by_source = {
                row[0]: int(row[1])
                for row in connection.execute(
                    sa.select(
                        book_sources.c.source, sa.func.count(sa.distinct(book_sources.c.book_id))
                    )
                    .group_by(book_sources.c.source)
                    .order_by(book_sources.c.source)
                )
            }
        return CatalogCounts(
            books=count_where(),
            with_description=count_where(
                books.c.description.is_not(None), books.c.description != ""
            ),
            with_category=count_where(has_category),
            with_isbn13=count_where(books.c.isbn13.is_not(None)),
            with_language=count_where(books.c.language.is_not(None)),
            with_year=count_where(books.c.published_year.is_not(None)),
            authors=int(authors),
            categories=int(categories),
            by_source=by_source,
            with_pages=count_where(books.c.pages.is_not(None)),
        )

    def content_hashes(self) -> dict[uuid.UUID, str]:
        """The stored content hash of every book."""
        with self.engine.connect() as connection:
            return {
                uuid.UUID(row.id): row.content_hash
                for row in connection.execute(sa.select(books.c.id, books.c.content_hash))
            }

    def book_facts(self) -> list[BookFacts]:
        """Language, year, shelves, pages, authors, title, series and popularity of every book."""
        categories: dict[str, set[str]] = {}
        authors: dict[str, list[str]] = {}
        with self.engine.connect() as connection:
            for row in connection.execute(
                sa.select(book_categories.c.book_id, book_categories.c.name)
            ):
                categories.setdefault(row.book_id, set()).add(row.name)
            for row in connection.execute(
                sa.select(book_authors.c.book_id, book_authors.c.name).order_by(
                    book_authors.c.book_id, book_authors.c.position
                )
            ):
                authors.setdefault(row.book_id, []).append(row.name)
            rows = connection.execute(
                sa.select(
                    books.c.id,
                    books.c.language,
                    books.c.published_year,
                    books.c.pages,
                    books.c.title,
                    books.c.metadata_json,
                ).order_by(books.c.id)
            ).all()
        return [
            BookFacts(
                row.id,
                row.language,
                row.published_year,
                frozenset(categories.get(row.id, ())),
                row.pages,
                tuple(authors.get(row.id, ())),
                row.title,
                _series(row.metadata_json),
                _popularity(row.metadata_json),
                _series_number(row.metadata_json),
            )
            for row in rows
        ]

    def book_names(self) -> list[BookNames]:
        """Titles, authors and categories in order, and ratings counts, of every book."""
        authors: dict[str, list[str]] = {}
        categories: dict[str, list[str]] = {}
        with self.engine.connect() as connection:
            for row in connection.execute(
                sa.select(book_authors.c.book_id, book_authors.c.name).order_by(
                    book_authors.c.book_id, book_authors.c.position
                )
            ):
                authors.setdefault(row.book_id, []).append(row.name)
            for row in connection.execute(
                sa.select(book_categories.c.book_id, book_categories.c.name).order_by(
                    book_categories.c.book_id, book_categories.c.position
                )
            ):
                categories.setdefault(row.book_id, []).append(row.name)
            rows = connection.execute(
                sa.select(books.c.id, books.c.title, books.c.metadata_json).order_by(books.c.id)
            ).all()
        return [
            BookNames(
                row.id,
                row.title,
                tuple(authors.get(row.id, ())),
                tuple(categories.get(row.id, ())),
                _popularity(row.metadata_json),
            )
            for row in rows
        ]

    # --- writes ---------------------------------------------------------------------------

    def write_batch(self, entries: Sequence[StoredEntry]) -> None:
        """Insert or replace these entries and everything beside them, in one transaction."""
        if not entries:
            return
        keys = [str(stored.entry.book.id) for stored in entries]
        identifier_keys = [key for s in entries for key in s.entry.identifiers]
        now = datetime.now(UTC)
        with self.engine.begin() as connection:
            for chunk in in_chunks(keys):
                for table in CHILD_TABLES:
                    connection.execute(sa.delete(table).where(table.c.book_id.in_(chunk)))
                connection.execute(sa.delete(books).where(books.c.id.in_(chunk)))
            # An identifier that moved here from another book (a re-merge) changes owner.
            for chunk in in_chunks(identifier_keys):
                connection.execute(
                    sa.delete(book_identifiers).where(book_identifiers.c.key.in_(chunk))
                )
            connection.execute(sa.insert(books), [_book_row(s, now) for s in entries])
            self._insert_children(connection, entries)

    @staticmethod
    def _insert_children(connection: Connection, entries: Sequence[StoredEntry]) -> None:
        rows: dict[sa.Table, list[dict[str, Any]]] = {table: [] for table in CHILD_TABLES}
        for stored in entries:
            entry = stored.entry
            key = str(entry.book.id)
            rows[book_authors].extend(
                {"book_id": key, "position": i, "name": n} for i, n in enumerate(entry.book.authors)
            )
            rows[book_categories].extend(
                {"book_id": key, "position": i, "name": n}
                for i, n in enumerate(entry.book.categories)
            )
            rows[book_identifiers].extend({"book_id": key, "key": k} for k in entry.identifiers)
            rows[book_provenance].extend(
                {
                    "book_id": key,
                    "position": i,
                    "field": p.field,
                    "source": p.source,
                    "source_id": p.source_id,
                }
                for i, p in enumerate(entry.provenance)
            )
            rows[book_sources].extend(
                {
                    "book_id": key,
                    "position": i,
                    "source": s.source,
                    "source_id": s.source_id,
                    "file": s.file,
                    "line": s.line,
                }
                for i, s in enumerate(entry.sources)
            )
        for table, table_rows in rows.items():
            if table_rows:
                connection.execute(sa.insert(table), table_rows)


def _book_row(stored: StoredEntry, now: datetime) -> dict[str, Any]:
    book = stored.entry.book
    metadata: dict[str, JSONValue] = dict(book.metadata)
    return {
        "id": str(book.id),
        "title": book.title,
        "subtitle": book.subtitle,
        "description": book.description,
        "language": book.language,
        "published_year": book.published_year,
        "pages": book.pages,
        "isbn10": book.isbn10,
        "isbn13": book.isbn13,
        "source": book.source,
        "source_id": book.source_id,
        "metadata_json": json.dumps(metadata, ensure_ascii=False, sort_keys=True),
        "content_hash": stored.content_hash,
        "updated_at": now,
    }


def _series(metadata_json: str) -> str | None:
    """The series named in a book's metadata, or None."""
    try:
        series = json.loads(metadata_json).get("series")
    except (ValueError, AttributeError):
        return None
    return series if isinstance(series, str) else None


def _series_number(metadata_json: str) -> str | None:
    """The book's number in its series as the metadata gives it, or None."""
    try:
        number = json.loads(metadata_json).get("series_number")
    except (ValueError, AttributeError):
        return None
    return str(number) if isinstance(number, str | int) else None


def _popularity(metadata_json: str) -> int:
    """The ratings count in a book's metadata, or 0."""
    try:
        count = json.loads(metadata_json).get("ratings_count", 0)
    except (ValueError, AttributeError):
        return 0
    return count if isinstance(count, int) and count > 0 else 0


def _ordered_names(
    connection: Connection, table: sa.Table, keys: Sequence[str]
) -> dict[str, list[str]]:
    """Each book's names from an ordered (book_id, position, name) table."""
    names: dict[str, list[str]] = {}
    for row in connection.execute(
        sa.select(table.c.book_id, table.c.name)
        .where(table.c.book_id.in_(keys))
        .order_by(table.c.book_id, table.c.position)
    ):
        names.setdefault(row.book_id, []).append(row.name)
    return names
