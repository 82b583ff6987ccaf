"""Merge the records of several sources into one entry per book, keeping provenance.

Records are the same book when they share an ISBN-13, a Goodreads id, or (last resort)
a normalised title + first-author surname. Each field takes the richer value: the
longest description, the fullest author list, the union of categories, the page count of
the richest record (the one that fills most fields); where "richer" has no meaning (title,
year, language) the source priority decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from lectern.domain.books import (
    Book,
    CatalogEntry,
    FieldProvenance,
    JSONValue,
    SourceRecord,
    SourceRef,
    book_id_for,
)
from lectern.domain.normalize import isbn10_to_isbn13, isbn13_to_isbn10, work_key

DEFAULT_SOURCE_PRIORITY: tuple[str, ...] = ("goodbooks-10k", "7k-books", "goodreads-openlibrary")
"""Which source wins a tie: goodbooks has original years and curated titles."""


class _UnionFind:
    """Disjoint sets over record indexes; small enough not to need a library.

    A set may hold at most one record of each one-row-per-work source: a union that
    would put two of them together is refused, since it can only be a false match.
    """

    def __init__(self, exclusive: Sequence[str | None]) -> None:
        self.parent = list(range(len(exclusive)))
        self.exclusive: list[set[str]] = [{e} if e else set() for e in exclusive]

    def find(self, item: int) -> int:
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a: int, b: int) -> bool:
        root_a, root_b = self.find(a), self.find(b)
        if root_a == root_b or self.exclusive[root_a] & self.exclusive[root_b]:
            return False
        # The smaller index stays root so that grouping is deterministic.
        low, high = sorted((root_a, root_b))
        self.parent[high] = low
        self.exclusive[low] |= self.exclusive[high]
        return True


@dataclass(frozen=True, slots=True)
class MergeResult:
    """Merged catalog entries and how many records were folded into another."""

    entries: tuple[CatalogEntry, ...]
    records: int
    merged_records: int
    """Records that joined a book another record had already started."""
    links: Mapping[str, int]
    """How many record pairs each key kind joined (isbn13, goodreads, work)."""


def _record_keys(record: SourceRecord) -> list[tuple[str, str]]:
    keys: list[tuple[str, str]] = []
    isbn13s = {i for i in (record.isbn13, *record.extra_isbn13s) if i}
    if record.isbn10:
        isbn13s.add(isbn10_to_isbn13(record.isbn10))
    keys.extend(("isbn13", value) for value in sorted(isbn13s))
    if record.goodreads_id:
        keys.append(("goodreads", record.goodreads_id))
    key = work_key(record.title, record.authors[0] if record.authors else None)
    if key:
        keys.append(("work", key))
    return keys


ONE_ROW_PER_WORK: frozenset[str] = frozenset({"goodbooks-10k"})
"""Sources whose rows are distinct works by construction (goodbooks has a work_id each)."""


def merge_records(
    records: Sequence[SourceRecord],
    priority: Sequence[str] = DEFAULT_SOURCE_PRIORITY,
    one_row_per_work: frozenset[str] = ONE_ROW_PER_WORK,
) -> MergeResult:
    """Group records that describe one book and build a catalog entry for each group."""
    rank = {name: index for index, name in enumerate(priority)}
    ordered = sorted(records, key=lambda r: (rank.get(r.source, len(rank)), r.source, r.source_id))
    sets = _UnionFind([r.source if r.source in one_row_per_work else None for r in ordered])
    first_holder: dict[tuple[str, str], int] = {}
    links: dict[str, int] = {"isbn13": 0, "goodreads": 0, "work": 0}
    for index, record in enumerate(ordered):
        for key in _record_keys(record):
            holder = first_holder.setdefault(key, index)
            if holder != index and sets.union(holder, index):
                links[key[0]] += 1
    groups: dict[int, list[SourceRecord]] = {}
    for index, record in enumerate(ordered):
        groups.setdefault(sets.find(index), []).append(record)
    entries = _unique(_merge_group(group) for _, group in sorted(groups.items()))
    return MergeResult(entries, len(ordered), len(ordered) - len(entries), links)


def _unique(entries: Iterable[CatalogEntry]) -> tuple[CatalogEntry, ...]:
    """Give each id and lookup key to one entry only (the first, by source priority).

    Groups that the one-row-per-work guard kept apart may still share an ISBN: the later
    one then takes its id from its source key and gives up the shared identifiers.
    """
    seen_ids: set[object] = set()
    claimed: set[str] = set()
    result: list[CatalogEntry] = []
    for entry in entries:
        book = entry.book
        if book.id in seen_ids:
            book = replace(book, id=book_id_for(None, book.source, book.source_id))
        identifiers = tuple(key for key in entry.identifiers if key not in claimed)
        claimed.update(identifiers)
        seen_ids.add(book.id)
        result.append(replace(entry, book=book, identifiers=identifiers))
    return tuple(result)


def _first(group: Sequence[SourceRecord], attr: str) -> SourceRecord | None:
    for record in group:
        if getattr(record, attr):
            return record
    return None


def _merge_group(group: Sequence[SourceRecord]) -> CatalogEntry:
    """Build one entry from records already sorted by source priority."""
    primary = group[0]
    provenance: list[FieldProvenance] = []

    def note(field: str, record: SourceRecord | None) -> None:
        if record is not None:
            provenance.append(FieldProvenance(field, record.source, record.source_id))

    title_from = _first(group, "title") or primary
    note("title", title_from)
    subtitle_from = _first(group, "subtitle")
    note("subtitle", subtitle_from)
    description_from = max(
        (r for r in group if r.description),
        key=lambda r: len(r.description or ""),
        default=None,
    )
    note("description", description_from)
    language_from = _first(group, "language")
    note("language", language_from)
    year_from = _first(group, "published_year")
    note("published_year", year_from)
    pages_from = _richest(r for r in group if r.pages is not None)
    note("pages", pages_from)

    categories: dict[str, None] = {}
    for record in group:
        fresh = [c for c in record.categories if c not in categories]
        if fresh:
            note("categories", record)
            categories.update(dict.fromkeys(fresh))

    isbn13_from = _first(group, "isbn13")
    isbn13 = isbn13_from.isbn13 if isbn13_from else None
    if isbn13 is None:
        isbn10_record = _first(group, "isbn10")
        if isbn10_record and isbn10_record.isbn10:
            isbn13_from, isbn13 = isbn10_record, isbn10_to_isbn13(isbn10_record.isbn10)
    note("isbn13", isbn13_from)
    authors_from = _fullest_authors(group, primary, isbn13)
    note("authors", authors_from)
    isbn10 = isbn13_to_isbn10(isbn13) if isbn13 else None
    if isbn10 is None and isbn13 is None:
        isbn10_record = _first(group, "isbn10")
        isbn10 = isbn10_record.isbn10 if isbn10_record else None
    if isbn10:
        note("isbn10", isbn13_from)

    metadata: dict[str, JSONValue] = {}
    for record in reversed(group):
        metadata.update(record.metadata)
    roles: dict[str, JSONValue] = {}
    for record in reversed(group):
        roles.update(record.author_roles)
    if roles:
        metadata["author_roles"] = roles
    goodreads_ids = sorted({r.goodreads_id for r in group if r.goodreads_id}, key=int_or_text)
    if goodreads_ids:
        metadata["goodreads_ids"] = list(goodreads_ids)

    book = Book(
        id=book_id_for(isbn13, primary.source, primary.source_id),
        title=title_from.title,
        subtitle=subtitle_from.subtitle if subtitle_from else None,
        authors=authors_from.authors if authors_from else (),
        description=description_from.description if description_from else None,
        language=language_from.language if language_from else None,
        categories=tuple(categories),
        published_year=year_from.published_year if year_from else None,
        pages=pages_from.pages if pages_from else None,
        isbn10=isbn10,
        isbn13=isbn13,
        source=primary.source,
        source_id=primary.source_id,
        metadata=metadata,
    )
    return CatalogEntry(
        book=book,
        identifiers=_identifiers(group),
        provenance=tuple(provenance),
        sources=tuple(SourceRef(r.source, r.source_id, r.file, r.line) for r in group),
    )


def richness(record: SourceRecord) -> tuple[int, int]:
    """How much a record says: fields it fills, then the length of its description."""
    filled = sum(
        1
        for value in (
            record.title,
            record.subtitle,
            record.authors,
            record.description,
            record.language,
            record.categories,
            record.published_year,
            record.pages,
            record.isbn13 or record.isbn10,
        )
        if value
    )
    return filled, len(record.description or "")


def _richest(records: Iterable[SourceRecord]) -> SourceRecord | None:
    """The richest record; among equals, the first (records come in source priority)."""
    best: SourceRecord | None = None
    for record in records:
        if best is None or richness(record) > richness(best):
            best = record
    return best


def _fullest_authors(
    group: Sequence[SourceRecord], primary: SourceRecord, isbn13: str | None
) -> SourceRecord | None:
    """The fullest author list of the primary's edition: other editions add translators."""

    def same_edition(record: SourceRecord) -> bool:
        if record is primary:
            return True
        if isbn13 and record.isbn13 == isbn13:
            return True
        return bool(primary.goodreads_id) and record.goodreads_id == primary.goodreads_id

    with_authors = [r for r in group if r.authors]
    candidates = [r for r in with_authors if same_edition(r)] or with_authors
    return max(candidates, key=lambda r: len(r.authors), default=None)


def int_or_text(value: str) -> tuple[int, str]:
    """Sort key that orders numeric strings numerically and others after them."""
    return (int(value), "") if value.isdigit() else (1 << 62, value)


def _identifiers(group: Iterable[SourceRecord]) -> tuple[str, ...]:
    keys: dict[str, None] = {}
    for record in group:
        isbn13s = [i for i in (record.isbn13, *record.extra_isbn13s) if i]
        if record.isbn10:
            keys[f"isbn10:{record.isbn10}"] = None
            isbn13s.append(isbn10_to_isbn13(record.isbn10))
        for value in isbn13s:
            keys[f"isbn13:{value}"] = None
            isbn10 = isbn13_to_isbn10(value)
            if isbn10:
                keys[f"isbn10:{isbn10}"] = None
        if record.goodreads_id:
            keys[f"goodreads:{record.goodreads_id}"] = None
        keys[f"{record.source}:{record.source_id}"] = None
    return tuple(sorted(keys))
