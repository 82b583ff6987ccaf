"""Known-item search on real bm25s, FAISS and the packaged MiniLM, over the tiny catalog."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from lectern.application.search import BookSearchService
from lectern.bootstrap import bootstrap
from lectern.domain.search import SearchQuery
from lectern.settings import Settings
from tests.conftest import build_tiny_mirror


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> BookSearchService:
    """The tiny catalog, ingested and indexed by the real adapters, searched as the CLI does."""
    root: Path = tmp_path_factory.mktemp("known-item")
    built = bootstrap(Settings(data_dir=root / "var", data_mirror=build_tiny_mirror(root)))
    built.ingestion().ingest()
    built.indexing().index()
    return built.search()


def _first(search: BookSearchService, text: str) -> str:
    return search.search(SearchQuery(text)).results[0].book.title


def test_every_title_typed_in_lower_case_without_its_article_finds_its_book(
    services: BookSearchService,
) -> None:
    titles = sorted({b.title for b in services.catalog.get_many(_all_ids(services))})
    assert len(titles) >= 5
    for title in titles:
        typed = title.lower().removeprefix("the ").removeprefix("a ")
        assert _first(services, typed) == title, typed


def test_the_catalogs_titles_are_read_exactly_and_by_rapidfuzz(
    services: BookSearchService,
) -> None:
    known = services.known_items
    assert known is not None  # bootstrap wires it by default
    books = services.catalog.get_many(_all_ids(services))
    by_title = {b.title: str(b.id) for b in books}
    gatsby, potter = by_title["The Great Gatsby"], by_title["Harry Potter and the Sorcerer's Stone"]
    assert known.titled("great gatsby") == (gatsby,)
    assert known.titled("GREAT GATSBY!") == (gatsby,)
    assert known.titled("gatsby") == ()

    def candidates() -> list[str]:
        return [str(b.id) for b in books]

    assert known.named_by("harry potter and the sorcerer's stoen", candidates) == (potter,)
    assert known.named_by("the great gatbsy", candidates) == (gatsby,)
    assert known.named_by("gilaed", candidates) == ()  # six letters: one slip is too much


def test_a_slip_in_a_long_title_still_finds_it(services: BookSearchService) -> None:
    assert _first(services, "harry potter and the sorcerer's stoen").startswith("Harry Potter")


def _all_ids(services: BookSearchService) -> list[uuid.UUID]:
    return [uuid.UUID(i) for i in services.filters.all_ids]
