"""goodreads-openlibrary: the Kaggle Goodreads listing joined with Open Library subjects."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

from lectern.adapters.sources._fields import isbn_pair, language, number, pages, put
from lectern.adapters.sources.csv_rows import CsvProblem, read_csv
from lectern.adapters.sources.registry import GOODREADS_OPENLIBRARY_BOOKS
from lectern.application.ports import SourceFile
from lectern.domain.books import JSONValue, RejectedRow, SourceRecord
from lectern.domain.normalize import (
    clean_text,
    is_topical_subject,
    merge_categories,
    parse_year,
    split_hyphenated_authors,
    split_series,
)

_COLUMNS = ("bookID", "title", "authors", "isbn", "isbn13", "language_code", "subjects")
_MAX_SUBJECTS = 20
"""Open Library lists up to hundreds of subjects; the first ones are the most topical."""


def parse_subjects(raw: str) -> list[str] | None:
    """The subjects column is a Python list literal; None when it is not one."""
    text = raw.strip()
    if not text or text == "None":
        return []
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if not isinstance(value, list):
        return None
    return [item for item in value if isinstance(item, str)]


class GoodreadsOpenLibrarySource:
    """Reads `goodreads-openlibrary/books.csv`: authors joined by '-', subjects as a list."""

    name = "goodreads-openlibrary"
    files: tuple[SourceFile, ...] = (GOODREADS_OPENLIBRARY_BOOKS,)

    def read(
        self, paths: Mapping[str, Path], known_authors: frozenset[str]
    ) -> Iterator[SourceRecord | RejectedRow]:
        """Yield one record per row; known author names guide the '-' split."""
        path = paths[GOODREADS_OPENLIBRARY_BOOKS.path]
        for row in read_csv(path, _COLUMNS):
            if isinstance(row, CsvProblem):
                yield RejectedRow(self.name, str(path), row.line, row.reason, row.detail)
                continue
            values = row.values
            book_id = values["bookID"].strip()
            raw_title = clean_text(values["title"])
            if not raw_title:
                yield RejectedRow(self.name, str(path), row.line, "missing_title")
                continue
            if not book_id.isdigit():
                yield RejectedRow(self.name, str(path), row.line, "bad_goodreads_id", book_id[:40])
                continue
            dropped = list(row.problems)
            metadata: dict[str, JSONValue] = {}
            title, series, series_number = split_series(raw_title)
            put(metadata, "series", series)
            put(metadata, "series_number", series_number)
            isbn10, isbn13 = isbn_pair(values["isbn"], values["isbn13"], dropped)
            subjects = parse_subjects(values["subjects"])
            if subjects is None:
                dropped.append("subjects_unparseable")
                subjects = []
            topical = [s for s in subjects if is_topical_subject(s)][:_MAX_SUBJECTS]
            authors = split_hyphenated_authors(values["authors"], known_authors)
            put(metadata, "goodreads_id", book_id)
            put(metadata, "publisher", clean_text(values.get("publisher")))
            put(metadata, "average_rating", number(values.get("average_rating")))
            put(metadata, "ratings_count", number(values.get("ratings_count")))
            cover = (values.get("cover_url") or "").strip()
            if cover.startswith("http"):
                metadata["cover_url"] = cover
            yield SourceRecord(
                source=self.name,
                source_id=book_id,
                title=title,
                file=str(path),
                line=row.line,
                authors=authors.names,
                author_roles=authors.roles,
                language=language(values["language_code"], dropped, metadata),
                categories=merge_categories(topical),
                published_year=parse_year(values.get("publish_date")),
                pages=pages(values.get("# num_pages", values.get("num_pages")), dropped),
                isbn10=isbn10,
                isbn13=isbn13,
                goodreads_id=book_id,
                metadata=metadata,
                dropped=tuple(dropped),
            )
