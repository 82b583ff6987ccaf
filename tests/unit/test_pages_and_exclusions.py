"""Page counts and exclusions in the domain: parsing, merging, matching, filters, plans."""

from __future__ import annotations

import pytest

from lectern.domain.books import SourceRecord
from lectern.domain.exclusions import (
    author_excluded,
    excludes,
    shelf_excluded,
    title_excluded,
)
from lectern.domain.merge import merge_records
from lectern.domain.normalize import is_youth_shelf, parse_pages
from lectern.domain.search import (
    Exclusion,
    QueryPlan,
    Recognition,
    SearchFilters,
    merge_filters,
    phrase_key,
    subtract_phrases,
    with_exclusions,
)
from lectern.errors import InvalidQueryError


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("352", (352, None)),
        ("352.0", (352, None)),
        (" 1 ", (1, None)),
        ("10000", (10_000, None)),
        ("", (None, None)),
        (None, (None, None)),
        ("0", (None, "pages_zero")),
        ("10001", (None, "pages_over_limit")),
        ("-3", (None, "pages_not_a_number")),
        ("12.5", (None, "pages_not_a_number")),
        ("n/a", (None, "pages_not_a_number")),
    ],
)
def test_page_counts_are_whole_and_possible(
    raw: str | None, expected: tuple[int | None, str | None]
) -> None:
    assert parse_pages(raw) == expected


def _record(source: str, source_id: str, **fields: object) -> SourceRecord:
    return SourceRecord(source=source, source_id=source_id, title="Gilead", **fields)  # type: ignore[arg-type]


def test_a_merged_book_takes_the_page_count_of_its_richest_record() -> None:
    thin = _record("goodreads-openlibrary", "1", isbn13="9780002005883", pages=288)
    rich = _record(
        "7k-books",
        "9780002005883",
        isbn13="9780002005883",
        description="A novel of a preacher in Iowa.",
        categories=("fiction",),
        pages=247,
    )
    without = _record("goodbooks-10k", "9", isbn13="9780002005883", published_year=2004)
    entry = merge_records([thin, rich, without]).entries[0]
    assert entry.book.pages == 247
    assert [(p.field, p.source) for p in entry.provenance if p.field == "pages"] == [
        ("pages", "7k-books")
    ]
    alone = merge_records([without]).entries[0]
    assert alone.book.pages is None
    assert not [p for p in alone.provenance if p.field == "pages"]


def test_youth_shelves_are_named_for_young_readers_not_about_children() -> None:
    for shelf in (
        "young adult",
        "ya fantasy",
        "children's",
        "children's books",
        "children",
        "juvenile fiction",
        "middle grade",
        "picture books",
        "teen",
        "romans, nouvelles, etc. pour la jeunesse",
        "ficción juvenil",
    ):
        assert is_youth_shelf(shelf), shelf
    for shelf in ("adult", "new adult", "childhood", "missing children", "children of the rich"):
        assert not is_youth_shelf(shelf), shelf


def test_an_excluded_shelf_rules_out_shelves_containing_it_as_a_phrase() -> None:
    assert shelf_excluded("romance", "paranormal romance")
    assert shelf_excluded("vampires", "vampire fiction")  # plural folded
    assert shelf_excluded("Cozy Mysteries", "cozy mystery")
    assert shelf_excluded("zombies", "zombie") and shelf_excluded("zombie", "zombies")
    assert not shelf_excluded("romance", "romantic comedy")
    assert not shelf_excluded("high fantasy", "fantasy")


def test_an_excluded_author_is_that_author_initials_aside() -> None:
    assert author_excluded("J.R.R. Tolkien", "J. R. R. Tolkien")
    assert author_excluded("stephen king", "Stephen King")
    assert not author_excluded("Stephen King", "Stephen Kingsley")
    assert not author_excluded("King", "Stephen King")


def test_an_excluded_title_rules_out_its_titles_and_series() -> None:
    assert title_excluded("Twilight", "Twilight: The Graphic Novel", None)
    assert title_excluded("Twilight", "New Moon", "Twilight")
    assert title_excluded("The Hunger Games", "Hunger Games Tribute Guide", None)
    assert not title_excluded("Twilight", "Dawn", "The Mediator")
    assert title_excluded("It", "It", None) and not title_excluded("It", "It Ends with Us", None)


def test_excludes_applies_every_kind() -> None:
    filters = SearchFilters(
        exclude_categories=("romance",),
        exclude_authors=("Stephen King",),
        exclude_titles=("Twilight",),
        exclude_youth=True,
    )

    def ruled_out(**names: object) -> bool:
        book = {"categories": (), "authors": (), "title": "A Book", "series": None, **names}
        return excludes(filters, **book)  # type: ignore[arg-type]

    assert ruled_out(categories=("paranormal romance",))
    assert ruled_out(categories=("ya fantasy",))
    assert ruled_out(authors=("Stephen King",))
    assert ruled_out(title="Eclipse", series="Twilight")
    assert not ruled_out(categories=("horror",), authors=("Peter Straub",))


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"min_pages": 500, "max_pages": 300}, "more than max_pages"),
        ({"min_pages": 0}, "between 1 and 10000"),
        ({"max_pages": 10_001}, "between 1 and 10000"),
        ({"category": "Romance", "exclude_categories": ("romance",)}, "asked for and excluded"),
        ({"category": "young adult", "exclude_youth": True}, "young readers"),
    ],
)
def test_contradicting_filters_are_refused(filters: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidQueryError, match=message):
        SearchFilters(**filters)  # type: ignore[arg-type]


def test_unknown_page_counts_are_neither_in_nor_out() -> None:
    limit = SearchFilters(max_pages=300)
    assert limit.has_page_limit and not limit.is_empty
    assert limit.fits_pages(120) is True and limit.fits_pages(301) is False
    assert limit.fits_pages(None) is None


def test_explicit_filters_win_and_exclusions_add_up() -> None:
    explicit = SearchFilters(category="young adult", max_pages=200, exclude_authors=("A",))
    planned = SearchFilters(
        min_pages=300,
        exclude_authors=("B",),
        exclude_categories=("young adult", "romance"),
        exclude_youth=True,
    )
    merged = merge_filters(explicit, planned)
    assert (merged.min_pages, merged.max_pages) == (None, 200)  # the plan's range contradicted
    assert merged.exclude_authors == ("A", "B")
    assert merged.exclude_categories == ("romance",)  # never the shelf asked for
    assert not merged.exclude_youth  # the explicit shelf is one for young readers


def test_subtract_phrases_cuts_whole_words_only() -> None:
    phrases = {phrase_key("young adult"), phrase_key("Stephen King")}
    assert subtract_phrases("young adult dystopia", phrases) == "dystopia"
    assert subtract_phrases("horror by Stephen King's rivals", phrases) == "horror by rivals"
    assert subtract_phrases("horror, Stephen Kings", phrases) == "horror,"
    assert subtract_phrases("younger adults", phrases) == "younger adults"


def _plan() -> QueryPlan:
    exclusions = (
        Exclusion("audience", "young readers", ("young adult",)),
        Exclusion("author", "Stephen King", ("Stephen King",)),
        Exclusion("category", "romance", ("romance",)),
    )
    text = "horror for adults, not Stephen King, no romance, under 300 pages"
    return QueryPlan(
        text,
        filters=with_exclusions(SearchFilters(max_pages=300), exclusions),
        exclusions=exclusions,
        recognised=(
            Recognition("audience", "young readers", 7, 17),
            Recognition("exclude", "Stephen King", 19, 35),
            Recognition("exclude", "romance", 37, 47),
            Recognition("pages", "at most 300 pages", 49, 64),
        ),
    )


def test_exclusions_become_filters() -> None:
    filters = _plan().filters
    assert filters.exclude_youth and filters.exclude_authors == ("Stephen King",)
    assert filters.exclude_categories == ("romance",)  # the audience is `exclude_youth`


def test_the_reader_removes_one_exclusion_or_a_kind_of_them() -> None:
    plan = _plan()
    one = plan.without(exclusions=["stephen  KING"])
    assert [e.label for e in one.exclusions] == ["young readers", "romance"]
    assert one.filters.exclude_authors == () and one.filters.exclude_youth
    assert [r.value for r in one.recognised if r.kind == "exclude"] == ["romance"]
    assert "not: Stephen King" in one.notes[-1]
    audience = plan.without("audience")
    assert not audience.filters.exclude_youth and len(audience.exclusions) == 2
    pages = plan.without("pages", "exclusions")
    assert pages.filters.max_pages is None and pages.filters.exclude_categories == ()
    assert [e.scope for e in pages.exclusions] == ["audience"]
    assert [r.kind for r in pages.recognised] == ["audience"]
