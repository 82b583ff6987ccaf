import csv
from pathlib import Path

import pytest

from lectern.application.catalog_queries import find_book
from lectern.application.ingestion import IngestionService
from lectern.bootstrap import default_sources
from lectern.errors import BookNotFoundError, SourceError, UnknownSourceError
from tests.fakes import FakeCatalog, FakeFetcher, RecordingProgress


def _service(catalog: FakeCatalog, mirror: Path, **kw: object) -> IngestionService:
    return IngestionService(catalog, FakeFetcher(mirror), default_sources(), **kw)  # type: ignore[arg-type]


def test_tiny_mirror_ingest_reports_every_count(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    progress = RecordingProgress()
    report = _service(catalog, tiny_mirror, progress=progress).ingest()
    assert report.rows_read == {"goodbooks-10k": 6, "7k-books": 4, "goodreads-openlibrary": 5}
    assert report.rejected == {"missing_title": 1}
    assert report.rejected_rows[0].line == 6
    assert report.rejected_rows[0].file.endswith("goodbooks-10k/books.csv")
    assert report.dropped_values["isbn10_bad_check_digit"] == 1  # goodbooks 123456788
    assert report.dropped_values["isbn13_bad_check_digit"] == 1  # 7k 9780000000000
    assert report.dropped_values["isbn10_too_short"] == 1
    assert report.dropped_values["language_unmapped"] == 1
    assert report.dropped_values["subjects_unparseable"] == 1
    assert report.dropped_values["pages_zero"] == 1  # Huis clos: 0 pages
    assert report.dropped_values["pages_over_limit"] == 1  # Das Parfum: 12,000 pages
    # 14 kept records: Hunger Games x3 and Cien anos x2 collapse into 2 books.
    assert report.records == 14
    assert report.books == 11
    assert report.merged == 3
    assert (report.inserted, report.updated, report.unchanged) == (11, 0, 0)
    assert progress.stages[:3] == [
        "reading goodbooks-10k",
        "reading 7k-books",
        "reading goodreads-openlibrary",
    ]
    assert progress.advanced["writing"] == 11


def test_hunger_games_is_merged_from_all_three_sources(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    _service(catalog, tiny_mirror).ingest()
    view = find_book(catalog, "978-0-439-02348-1")
    book = view.entry.book
    assert book.title == "The Hunger Games"
    assert book.isbn10 == "0439023483"  # the lost leading zero is back
    assert book.published_year == 2008
    assert book.description is not None and book.description.startswith("In the ruins")
    assert "sister's place" in book.description  # HTML entity decoded, tags gone
    assert "young adult" in book.categories and "dystopia" in book.categories
    assert "to read" not in book.categories and "favorites" not in book.categories
    # A rare shelf is kept as a specific topic unless it only names the book.
    assert "survival" in book.categories and "hunger games" not in book.categories
    assert book.metadata["series"] == "The Hunger Games"
    assert {s.source for s in view.entry.sources} == {
        "goodbooks-10k",
        "7k-books",
        "goodreads-openlibrary",
    }
    fields = {(p.field, p.source) for p in view.entry.provenance}
    assert ("description", "7k-books") in fields
    # Both 7k-books (374) and goodreads-openlibrary (387) state pages: the richer record,
    # 7k-books with its description, gives the value, and provenance says so.
    assert book.pages == 374 and ("pages", "7k-books") in fields
    assert ("title", "goodbooks-10k") in fields
    assert find_book(catalog, "0439023483").entry.book.id == book.id


def test_author_roles_and_hyphenated_names(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    _service(catalog, tiny_mirror).ingest()
    potter = find_book(catalog, "0439554934").entry.book
    assert potter.authors == ("J.K. Rowling", "Mary GrandPré")
    assert potter.metadata["author_roles"] == {"Mary GrandPré": "illustrator"}
    sartre = find_book(catalog, "9782070368068").entry.book
    assert sartre.authors == ("Jean-Paul Sartre", "Carol Cosman")
    assert sartre.language == "fr"


def test_second_ingest_changes_nothing(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    _service(catalog, tiny_mirror).ingest()
    writes_before = len(catalog.writes)
    report = _service(catalog, tiny_mirror).ingest()
    assert (report.inserted, report.updated, report.unchanged) == (0, 0, 11)
    assert len(catalog.writes) == writes_before


def test_a_changed_source_row_updates_its_book_in_place(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    _service(catalog, tiny_mirror).ingest()
    path = tiny_mirror / "7k-books/books.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    rows[1]["description"] = "A quiet Iowa preacher writes to his son."
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    before = find_book(catalog, "9780002005883").entry.book.id
    report = _service(catalog, tiny_mirror).ingest()
    assert (report.inserted, report.updated) == (0, 1)
    after = find_book(catalog, "9780002005883").entry.book
    assert after.id == before
    assert after.description == "A quiet Iowa preacher writes to his son."


def test_an_interrupted_ingest_is_completed_by_the_next_run(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    catalog.fail_on_write = 3
    with pytest.raises(RuntimeError, match="simulated crash"):
        _service(catalog, tiny_mirror, batch_size=2).ingest()
    assert len(catalog.entries) == 4  # two whole batches, nothing of the third
    catalog.fail_on_write = None
    report = _service(catalog, tiny_mirror, batch_size=2).ingest()
    assert (report.inserted, report.unchanged) == (7, 4)
    clean = FakeCatalog()
    _service(clean, tiny_mirror).ingest()
    assert catalog.content_hashes() == clean.content_hashes()


def test_unknown_source_is_refused_before_any_work(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    with pytest.raises(UnknownSourceError, match="unknown source nope"):
        _service(catalog, tiny_mirror).ingest(only=["nope"])
    assert catalog.writes == []


def test_ingesting_a_subset_over_a_merged_catalog_is_refused(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    _service(catalog, tiny_mirror).ingest()
    with pytest.raises(SourceError, match="would drop their fields"):
        _service(catalog, tiny_mirror).ingest(only=["7k-books"])


def test_a_subset_into_an_empty_catalog_is_fine(tiny_mirror: Path) -> None:
    catalog = FakeCatalog()
    report = _service(catalog, tiny_mirror).ingest(only=["7k-books"])
    assert report.sources == ["7k-books"]
    assert report.books == 4


def test_a_missing_source_file_stops_the_run_before_writing(tiny_mirror: Path) -> None:
    (tiny_mirror / "goodreads-openlibrary/books.csv").unlink()
    catalog = FakeCatalog()
    with pytest.raises(SourceError, match="cannot read"):
        _service(catalog, tiny_mirror).ingest()
    assert catalog.writes == []


def test_a_file_in_another_format_is_a_clear_error(tiny_mirror: Path) -> None:
    (tiny_mirror / "7k-books/books.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(SourceError, match="missing column"):
        _service(FakeCatalog(), tiny_mirror).ingest()


def test_find_book_rejects_what_is_neither_isbn_nor_id() -> None:
    catalog = FakeCatalog()
    with pytest.raises(BookNotFoundError, match="neither a valid ISBN"):
        find_book(catalog, "9780439023480")
    with pytest.raises(BookNotFoundError, match="no book"):
        find_book(catalog, "9780439023481")
    with pytest.raises(BookNotFoundError):
        find_book(catalog, "x" * 10_000)
    with pytest.raises(BookNotFoundError):
        find_book(catalog, "   ")
