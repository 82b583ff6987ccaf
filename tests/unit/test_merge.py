import random

from lectern.domain.books import SourceRecord, book_id_for
from lectern.domain.merge import merge_records


def _gb(**kw: object) -> SourceRecord:
    base: dict[str, object] = {
        "source": "goodbooks-10k",
        "source_id": "2767052",
        "title": "The Hunger Games",
        "authors": ("Suzanne Collins",),
        "language": "en",
        "categories": ("young adult", "dystopia"),
        "published_year": 2008,
        "isbn10": "0439023483",
        "isbn13": "9780439023481",
        "goodreads_id": "2767052",
        "metadata": {"series": "The Hunger Games"},
    }
    base.update(kw)
    return SourceRecord(**base)  # type: ignore[arg-type]


def _seven_k(**kw: object) -> SourceRecord:
    base: dict[str, object] = {
        "source": "7k-books",
        "source_id": "9780439023481",
        "title": "The Hunger Games",
        "subtitle": "Book One",
        "authors": ("Suzanne Collins",),
        "categories": ("juvenile fiction",),
        "description": "Katniss volunteers.",
        "published_year": 2010,
        "isbn10": "0439023483",
        "isbn13": "9780439023481",
    }
    base.update(kw)
    return SourceRecord(**base)  # type: ignore[arg-type]


def _gr(**kw: object) -> SourceRecord:
    base: dict[str, object] = {
        "source": "goodreads-openlibrary",
        "source_id": "2767052",
        "title": "The Hunger Games",
        "authors": ("Suzanne Collins", "Carolyn McCormick"),
        "language": "en",
        "categories": ("dystopias", "dystopia"),
        "published_year": 2009,
        "goodreads_id": "2767052",
        "isbn13": "9780439023498",
    }
    base.update(kw)
    return SourceRecord(**base)  # type: ignore[arg-type]


def test_one_book_in_all_three_sources_merges_with_provenance() -> None:
    result = merge_records([_gr(), _seven_k(), _gb()])
    assert len(result.entries) == 1
    assert result.merged_records == 2
    entry = result.entries[0]
    book = entry.book
    assert book.id == book_id_for("9780439023481", "goodbooks-10k", "2767052")
    assert (book.source, book.source_id) == ("goodbooks-10k", "2767052")
    assert book.published_year == 2008  # goodbooks' original year beats edition years
    assert book.description == "Katniss volunteers."
    assert book.subtitle == "Book One"
    assert book.authors == ("Suzanne Collins", "Carolyn McCormick")  # the fuller list
    assert book.categories == ("young adult", "dystopia", "juvenile fiction", "dystopias")
    by_field = {(p.field, p.source) for p in entry.provenance}
    assert ("description", "7k-books") in by_field
    assert ("authors", "goodreads-openlibrary") in by_field
    assert ("published_year", "goodbooks-10k") in by_field
    assert {"categories"} == {p.field for p in entry.provenance if p.source == "7k-books"} - {
        "description",
        "subtitle",
    }
    assert "isbn13:9780439023498" in entry.identifiers  # the other edition still finds it
    assert "goodreads:2767052" in entry.identifiers
    assert [s.source for s in entry.sources] == [
        "goodbooks-10k",
        "7k-books",
        "goodreads-openlibrary",
    ]


def test_the_longest_description_wins() -> None:
    short = _seven_k(description="Short.")
    long = _seven_k(source_id="x", description="A much longer description of the book.")
    result = merge_records([short, long])
    assert result.entries[0].book.description == "A much longer description of the book."


def test_merge_by_title_and_surname_when_no_identifier_is_shared() -> None:
    a = _gr(
        source_id="1",
        goodreads_id="1",
        isbn13=None,
        title="The Hobbit",
        authors=("J.R.R. Tolkien",),
    )
    b = _gr(
        source_id="2",
        goodreads_id="2",
        isbn13=None,
        title="Hobbit (Middle-earth, #0)",
        authors=("John Ronald Reuel Tolkien",),
    )
    result = merge_records([a, b])
    assert len(result.entries) == 1
    assert result.links["work"] == 1


def test_two_goodbooks_rows_are_never_merged_even_with_one_isbn() -> None:
    first = _gb()
    second = _gb(source_id="999", goodreads_id="999", title="Another Book")
    result = merge_records([first, second])
    assert len(result.entries) == 2
    ids = {e.book.id for e in result.entries}
    assert len(ids) == 2
    owners = [e for e in result.entries if "isbn13:9780439023481" in e.identifiers]
    assert len(owners) == 1


def test_ids_and_grouping_do_not_depend_on_input_order() -> None:
    records = [
        _gb(),
        _seven_k(),
        _gr(),
        _gr(source_id="5", goodreads_id="5", isbn13=None, title="Other", authors=("Someone Else",)),
    ]
    expected = merge_records(records)
    for seed in range(5):
        shuffled = records[:]
        random.Random(seed).shuffle(shuffled)
        assert merge_records(shuffled) == expected


def test_book_without_isbn_takes_its_id_from_the_source_key() -> None:
    record = _gr(isbn13=None, goodreads_id="77", source_id="77", title="No Isbn")
    entry = merge_records([record]).entries[0]
    assert entry.book.id == book_id_for(None, "goodreads-openlibrary", "77")
    assert entry.book.isbn13 is None
