import uuid

import pytest

from lectern.application.book_filters import BookFilterIndex
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import BookFacts, StoredEntry
from lectern.application.search import BookSearchService
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import (
    QueryPlan,
    Recognition,
    SearchFilters,
    SearchQuery,
    clean_query_text,
)
from lectern.errors import InvalidQueryError
from tests.fakes import FakeCatalog, FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

VOCAB = ["thief", "magic", "city", "dragon", "mystery", "village", "cozy", "space", "dark"]


def _book(
    n: int,
    title: str,
    description: str,
    language: str = "en",
    year: int = 2010,
    categories: tuple[str, ...] = ("fantasy",),
) -> Book:
    return Book(
        id=uuid.UUID(int=n),
        title=title,
        authors=(f"Author {n}",),
        description=description,
        language=language,
        published_year=year,
        categories=categories,
    )


BOOKS = [
    _book(1, "Lies", "a thief in a magic city dark", year=2006),
    _book(2, "Lies Special Edition", "a thief in a magic city dark", year=2007),
    _book(3, "Red Seas", "thief magic city at sea", year=2007),
    _book(4, "Cozy Village", "cozy mystery village", categories=("mystery",), year=1999),
    _book(5, "Misterio", "mystery village", language="es", categories=("mystery",), year=2001),
    _book(6, "Dragon Space", "dragon space magic", year=2015, categories=("science fiction",)),
]


def _service(
    *, vectors: bool = True, embedder_fails: bool = False
) -> tuple[BookSearchService, FakeLexicalIndex, FakeVectorIndex]:
    catalog = FakeCatalog()
    for book in BOOKS:
        entry = CatalogEntry(book, (), (), ())
        catalog.entries[book.id] = StoredEntry(entry, "h")
    texts = {str(b.id): f"{b.title} {b.description}" for b in BOOKS}
    groups = {str(uuid.UUID(int=2)): str(uuid.UUID(int=1))}  # an edition of book 1
    lexical = FakeLexicalIndex(texts, groups)
    embedder = FakeEmbedder(VOCAB, fail=embedder_fails)
    vector = FakeVectorIndex(FakeEmbedder(VOCAB), texts)
    retriever = HybridRetriever(lexical, vector if vectors else None, embedder if vectors else None)
    facts = [
        BookFacts(str(b.id), b.language, b.published_year, frozenset(b.categories)) for b in BOOKS
    ]
    return BookSearchService(catalog, retriever, BookFilterIndex(facts)), lexical, vector


def test_hybrid_search_ranks_and_reports_both_scores() -> None:
    service, _, _ = _service()
    response = service.search(SearchQuery("thief magic city", max_results=3), mmr_lambda=None)
    assert not response.degraded
    titles = [r.book.title for r in response.results]
    assert titles[0] == "Lies"
    top = response.results[0]
    assert top.source == "hybrid" and top.rank == 1
    assert top.lexical_rank == 1 and top.vector_rank is not None
    assert top.lexical_score is not None and top.vector_score is not None
    assert {"retrieval_ms", "lexical_ms", "vector_ms", "embed_ms"} <= set(response.timings_ms)


def test_editions_of_one_work_do_not_crowd_the_list() -> None:
    service, _, _ = _service()
    titles = [
        r.book.title
        for r in service.search(SearchQuery("thief magic city"), mmr_lambda=None).results
    ]
    assert "Lies" in titles and "Lies Special Edition" not in titles


def test_filters_are_applied_before_fusion_on_both_sides() -> None:
    service, lexical, vector = _service()
    response = service.search(SearchQuery("mystery village", filters=SearchFilters(language="es")))
    assert [r.book.title for r in response.results] == ["Misterio"]
    expected = {str(uuid.UUID(int=5))}
    assert lexical.allowed_seen[-1] == expected and vector.allowed_seen[-1] == expected


def test_year_and_category_filters() -> None:
    service, _, _ = _service()
    filters = SearchFilters(category="Fantasy", min_year=2007, max_year=2010)
    titles = {
        r.book.title for r in service.search(SearchQuery("thief magic", filters=filters)).results
    }
    assert titles == {"Red Seas", "Lies Special Edition"}  # the 2006 original is filtered out


def test_mmr_promotes_a_different_book() -> None:
    service, _, _ = _service()
    plain = service.search(SearchQuery("thief magic city dragon", max_results=3), mmr_lambda=None)
    diverse = service.search(SearchQuery("thief magic city dragon", max_results=3), mmr_lambda=0.3)
    assert [r.book.title for r in plain.results][:2] == ["Lies", "Red Seas"]
    assert [r.book.title for r in diverse.results][:2] == ["Lies", "Dragon Space"]


def test_without_vectors_search_is_degraded_bm25() -> None:
    service, _, _ = _service(vectors=False)
    response = service.search(SearchQuery("thief magic city"))
    assert response.degraded and response.degraded_reason
    assert response.results[0].source == "lexical"
    assert all(r.vector_score is None for r in response.results)


def test_an_embedder_failure_degrades_instead_of_failing() -> None:
    service, _, _ = _service(embedder_fails=True)
    response = service.search(SearchQuery("thief magic city"))
    assert response.degraded
    assert "embedder crashed" in (response.degraded_reason or "")
    assert response.results[0].book.title == "Lies"


def test_query_variations_are_fused_too() -> None:
    service, lexical, _ = _service()
    plan = QueryPlan("dragons", variations=("dragon space",), strategy="lexical_heavy")
    response = service.search(SearchQuery("dragons"), plan=plan, mmr_lambda=None)
    assert response.results[0].book.title == "Dragon Space"
    assert response.strategy == "lexical_heavy"


def test_plan_filters_merge_with_explicit_ones_and_explicit_wins() -> None:
    service, _, _ = _service()
    plan = QueryPlan("mystery", filters=SearchFilters(language="es", min_year=1990))
    planned = service.search(SearchQuery("mystery village"), plan=plan, mmr_lambda=None)
    assert [r.book.title for r in planned.results] == ["Misterio"]
    assert planned.plan is plan
    explicit = service.search(
        SearchQuery("mystery village", filters=SearchFilters(language="en")),
        plan=plan,
        mmr_lambda=None,
    )
    assert explicit.results[0].book.title == "Cozy Village"
    assert all(
        r.book.language == "en" and (r.book.published_year or 0) >= 1990 for r in explicit.results
    )
    # Planned years that contradict explicit ones are dropped, not an error.
    contradicting = QueryPlan("m", filters=SearchFilters(max_year=1950))
    response = service.search(
        SearchQuery("mystery village", filters=SearchFilters(min_year=1995)),
        plan=contradicting,
        mmr_lambda=None,
    )
    assert all((r.book.published_year or 0) >= 1995 for r in response.results)
    assert {"Cozy Village", "Misterio"} <= {r.book.title for r in response.results}


def test_words_that_became_filters_are_not_searched_for() -> None:
    service, lexical, _ = _service()
    text = "Spanish mystery  village after 1990"
    plan = QueryPlan(
        text,
        filters=SearchFilters(language="es", min_year=1991),
        recognised=(
            Recognition("language", "es", 0, 7),
            Recognition("years", "1991-", text.index("after"), len(text)),
        ),
    )
    response = service.search(SearchQuery(text), plan=plan, mmr_lambda=None)
    assert lexical.queries_seen[-1] == "mystery village"
    assert [r.book.title for r in response.results] == ["Misterio"]


def test_books_like_x_bring_its_neighbours_and_leave_out_x_and_its_namesakes() -> None:
    service, _, _ = _service()
    plan = QueryPlan(
        "books like Lies",
        like_book_id=str(uuid.UUID(int=1)),
        like_title="Lies",
        variations=("thief city",),
        strategy="vector_heavy",
    )
    response = service.search(SearchQuery("books like Lies"), plan=plan, mmr_lambda=None)
    titles = [r.book.title for r in response.results]
    assert titles[0] == "Red Seas"
    # X, its other edition and any title containing X's title are not recommendations.
    assert not any("Lies" in t for t in titles)


def test_similar_excludes_the_book_and_its_editions() -> None:
    service, _, _ = _service()
    response = service.similar(uuid.UUID(int=1), k=3)
    titles = [r.book.title for r in response.results]
    assert "Lies" not in titles and "Lies Special Edition" not in titles
    assert titles[0] == "Red Seas"


def test_similar_without_vectors_falls_back_to_bm25_on_the_books_words() -> None:
    service, lexical, _ = _service(vectors=False)
    response = service.similar(uuid.UUID(int=1), k=3)
    assert response.degraded and response.degraded_reason
    titles = [r.book.title for r in response.results]
    # Red Seas shares "thief magic city"; the book itself and its other edition never show.
    assert titles[0] == "Red Seas"
    assert "Lies" not in titles and "Lies Special Edition" not in titles
    assert all(r.source == "lexical" and r.vector_score is None for r in response.results)
    with pytest.raises(InvalidQueryError, match="no book"):
        service.similar(uuid.UUID(int=99))


@pytest.mark.parametrize("text", ["", "   ", "\x00\x07\n\t"])
def test_empty_queries_are_refused(text: str) -> None:
    service, _, _ = _service()
    with pytest.raises(InvalidQueryError, match="empty"):
        service.search(SearchQuery(text))


def test_long_queries_are_cut_and_control_characters_removed() -> None:
    assert clean_query_text("thief\x00magic\x1b[31m city") == "thief magic [31m city"
    assert len(clean_query_text("word " * 5_000)) <= 1_000
    service, _, _ = _service()
    response = service.search(SearchQuery("thief " * 2_000))
    assert response.results


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_results": 0}, "between 1 and 100"),
        ({"max_results": 10_000}, "between 1 and 100"),
        ({"filters": SearchFilters(category="no such shelf")}, "unknown category"),
        ({"filters": SearchFilters(language="klingon")}, "unknown language"),
    ],
)
def test_bad_search_arguments_are_clear_errors(kwargs: dict[str, object], message: str) -> None:
    service, _, _ = _service()
    with pytest.raises(InvalidQueryError, match=message):
        service.search(SearchQuery("thief", **kwargs))  # type: ignore[arg-type]


def test_inverted_year_range_and_bad_lambda_are_refused() -> None:
    with pytest.raises(InvalidQueryError, match="after max_year"):
        SearchFilters(min_year=2010, max_year=2000)
    service, _, _ = _service()
    with pytest.raises(InvalidQueryError, match="lambda"):
        service.search(SearchQuery("thief"), mmr_lambda=1.5)
    with pytest.raises(InvalidQueryError, match="between 1 and 100"):
        service.similar(uuid.UUID(int=1), k=0)
