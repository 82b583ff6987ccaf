"""7k-books: Google Books metadata with descriptions, subtitles and categories."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from lectern.adapters.sources._fields import isbn_pair, number, pages, put
from lectern.adapters.sources.csv_rows import CsvProblem, read_csv
from lectern.adapters.sources.registry import SEVEN_K_BOOKS
from lectern.application.ports import SourceFile
from lectern.domain.books import JSONValue, RejectedRow, SourceRecord
from lectern.domain.normalize import clean_text, merge_categories, parse_year, split_authors

_COLUMNS = (
    "isbn13",
    "isbn10",
    "title",
    "subtitle",
    "authors",
    "categories",
    "description",
    "published_year",
)


class SevenKBooksSource:
    """Reads `7k-books/books.csv`: authors split on ';', descriptions cleaned of HTML."""

    name = "7k-books"
    files: tuple[SourceFile, ...] = (SEVEN_K_BOOKS,)

    def read(
        self, paths: Mapping[str, Path], known_authors: frozenset[str]
    ) -> Iterator[SourceRecord | RejectedRow]:
        """Yield one record per row; the row's ISBN-13 is its source id."""
        del known_authors
        path = paths[SEVEN_K_BOOKS.path]
        for row in read_csv(path, _COLUMNS):
            if isinstance(row, CsvProblem):
                yield RejectedRow(self.name, str(path), row.line, row.reason, row.detail)
                continue
            values = row.values
            title = clean_text(values["title"])
            if not title:
                yield RejectedRow(self.name, str(path), row.line, "missing_title")
                continue
            dropped = list(row.problems)
            isbn10, isbn13 = isbn_pair(values["isbn10"], values["isbn13"], dropped)
            source_id = isbn13 or isbn10 or values["isbn13"].strip()
            if not source_id:
                yield RejectedRow(self.name, str(path), row.line, "missing_identifier")
                continue
            metadata: dict[str, JSONValue] = {}
            thumbnail = (values.get("thumbnail") or "").strip()
            if thumbnail.startswith("http"):
                metadata["cover_url"] = thumbnail
            put(metadata, "average_rating_google", number(values.get("average_rating")))
            authors = split_authors(values["authors"], ";")
            categories = [c for c in values["categories"].split(";") if c.strip()]
            yield SourceRecord(
                source=self.name,
                source_id=source_id,
                title=title,
                file=str(path),
                line=row.line,
                subtitle=clean_text(values["subtitle"]),
                authors=authors.names,
                author_roles=authors.roles,
                description=clean_text(values["description"]),
                categories=merge_categories(categories),
                published_year=parse_year(values["published_year"]),
                pages=pages(values.get("num_pages"), dropped),
                isbn10=isbn10,
                isbn13=isbn13,
                metadata=metadata,
                dropped=tuple(dropped),
            )
