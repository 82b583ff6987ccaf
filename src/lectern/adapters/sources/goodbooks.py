"""goodbooks-10k: 10,000 popular Goodreads books, their reader shelves and DBpedia genres."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from lectern.adapters.sources._fields import isbn_pair, language, number, put
from lectern.adapters.sources.csv_rows import CsvProblem, read_csv
from lectern.adapters.sources.registry import (
    GOODBOOKS_BOOK_TAGS,
    GOODBOOKS_BOOKS,
    GOODBOOKS_ENRICHED,
    GOODBOOKS_TAGS,
)
from lectern.application.ports import SourceFile
from lectern.domain.books import JSONValue, RejectedRow, SourceRecord
from lectern.domain.normalize import (
    clean_text,
    is_topical_shelf,
    merge_categories,
    names_the_book,
    parse_year,
    split_authors,
    split_series,
)

MIN_BOOKS_PER_SHELF = 10
"""A shelf on fewer books is rare: kept only when it does not name the book itself.

Rare shelves are often a book's or series' name (`hunger-games`), but also the most specific
topics a reader wrote (`heist` on Six of Crows, `thieves` on The Lies of Locke Lamora).
"""
MAX_SHELVES_PER_BOOK = 20
"""Readers' most used shelves come first; past 20 distinct topics they turn into labels."""

_BOOK_COLUMNS = (
    "book_id",
    "goodreads_book_id",
    "work_id",
    "isbn",
    "isbn13",
    "authors",
    "original_publication_year",
    "original_title",
    "title",
    "language_code",
)


class Shelf(NamedTuple):
    """A topical shelf of one book; `rare` when fewer than MIN_BOOKS_PER_SHELF books carry it."""

    name: str
    rare: bool


def _topics(shelves: Sequence[Shelf], words_of_book: Sequence[str]) -> tuple[str, ...]:
    """The book's most used shelves as categories, without rare shelves that name the book.

    The cap counts normalised names, so `ya`, `teen` and `young-adult` take one place.
    """
    kept = [s.name for s in shelves if not (s.rare and names_the_book(s.name, words_of_book))]
    return merge_categories(kept)[:MAX_SHELVES_PER_BOOK]


class GoodbooksSource:
    """Reads goodbooks-10k `books.csv`, joined with shelves and DBpedia genres."""

    name = "goodbooks-10k"
    files: tuple[SourceFile, ...] = (
        GOODBOOKS_BOOKS,
        GOODBOOKS_BOOK_TAGS,
        GOODBOOKS_TAGS,
        GOODBOOKS_ENRICHED,
    )

    def read(
        self, paths: Mapping[str, Path], known_authors: frozenset[str]
    ) -> Iterator[SourceRecord | RejectedRow]:
        """Yield one record per book row; shelves and genres join on goodreads id."""
        del known_authors
        shelves, shelf_problems = self._shelves(paths)
        yield from shelf_problems
        genres, extra, genre_problems = self._enrichment(paths)
        yield from genre_problems
        books_path = paths[GOODBOOKS_BOOKS.path]
        for row in read_csv(books_path, _BOOK_COLUMNS):
            if isinstance(row, CsvProblem):
                yield RejectedRow(self.name, str(books_path), row.line, row.reason, row.detail)
                continue
            values = row.values
            goodreads_id = values["goodreads_book_id"].strip()
            raw_title = clean_text(values["title"]) or clean_text(values["original_title"])
            if not raw_title:
                yield RejectedRow(self.name, str(books_path), row.line, "missing_title")
                continue
            if not goodreads_id.isdigit():
                yield RejectedRow(
                    self.name, str(books_path), row.line, "bad_goodreads_id", goodreads_id[:40]
                )
                continue
            dropped = list(row.problems)
            metadata: dict[str, JSONValue] = {}
            title, series, series_number = split_series(raw_title)
            put(metadata, "series", series or extra.get(goodreads_id))
            put(metadata, "series_number", series_number)
            original_title = clean_text(values["original_title"])
            if original_title and original_title != title:
                put(metadata, "original_title", original_title)
            # The isbn13 column is a float that lost its last digit: recompute from isbn10.
            isbn10, isbn13 = isbn_pair(values["isbn"], None, dropped)
            if isbn13 is None and values["isbn13"].strip():
                dropped.append("isbn13_float_lost_digits")
            authors = split_authors(values["authors"], ",")
            put(metadata, "goodreads_id", goodreads_id)
            put(metadata, "work_id", values["work_id"].strip())
            put(metadata, "average_rating", number(values.get("average_rating")))
            put(metadata, "ratings_count", number(values.get("ratings_count")))
            image = (values.get("image_url") or "").strip()
            if image.startswith("http") and "nophoto" not in image:
                metadata["cover_url"] = image
            yield SourceRecord(
                source=self.name,
                source_id=goodreads_id,
                title=title,
                file=str(books_path),
                line=row.line,
                authors=authors.names,
                author_roles=authors.roles,
                language=language(values["language_code"], dropped, metadata),
                categories=merge_categories(
                    _topics(shelves.get(goodreads_id, ()), [title, series or "", *authors.names]),
                    genres.get(goodreads_id, ()),
                ),
                published_year=parse_year(values["original_publication_year"]),
                isbn10=isbn10,
                isbn13=isbn13,
                goodreads_id=goodreads_id,
                metadata=metadata,
                dropped=tuple(dropped),
            )

    def _shelves(
        self, paths: Mapping[str, Path]
    ) -> tuple[dict[str, list[Shelf]], list[RejectedRow]]:
        """Topical shelves per goodreads id, most used first."""
        problems: list[RejectedRow] = []
        names: dict[str, str] = {}
        tags_path = paths[GOODBOOKS_TAGS.path]
        for row in read_csv(tags_path, ("tag_id", "tag_name")):
            if isinstance(row, CsvProblem):
                problems.append(RejectedRow(self.name, str(tags_path), row.line, row.reason))
            elif is_topical_shelf(row.values["tag_name"]):
                names[row.values["tag_id"].strip()] = row.values["tag_name"].strip()
        counted: dict[str, list[tuple[int, str]]] = {}
        links_path = paths[GOODBOOKS_BOOK_TAGS.path]
        for row in read_csv(links_path, ("tag_id", "goodreads_book_id", "count")):
            if isinstance(row, CsvProblem):
                problems.append(RejectedRow(self.name, str(links_path), row.line, row.reason))
                continue
            name = names.get(row.values["tag_id"].strip())
            count = number(row.values["count"])
            if name and isinstance(count, int):
                counted.setdefault(row.values["goodreads_book_id"].strip(), []).append(
                    (count, name)
                )
        books_per_shelf: dict[str, int] = {}
        for items in counted.values():
            for _, name in items:
                books_per_shelf[name] = books_per_shelf.get(name, 0) + 1
        shelves = {
            book: [
                Shelf(name, books_per_shelf[name] < MIN_BOOKS_PER_SHELF)
                for _, name in sorted(items, key=lambda x: (-x[0], x[1]))
            ]
            for book, items in counted.items()
        }
        return shelves, problems

    def _enrichment(
        self, paths: Mapping[str, Path]
    ) -> tuple[dict[str, list[str]], dict[str, str], list[RejectedRow]]:
        """DBpedia genres and series names per goodreads id."""
        genres: dict[str, list[str]] = {}
        series: dict[str, str] = {}
        problems: list[RejectedRow] = []
        path = paths[GOODBOOKS_ENRICHED.path]
        for row in read_csv(path, ("goodreads_book_id", "genres", "book_series")):
            if isinstance(row, CsvProblem):
                problems.append(RejectedRow(self.name, str(path), row.line, row.reason))
                continue
            key = row.values["goodreads_book_id"].strip()
            found = [g.strip() for g in row.values["genres"].split(",") if g.strip()]
            if found:
                genres[key] = found
            name = clean_text(row.values["book_series"])
            if name:
                series[key] = name
        return genres, series, problems
