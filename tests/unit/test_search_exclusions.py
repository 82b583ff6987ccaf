"""Exclusions and page limits in search: hard filters before fusion, never searched for."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from lectern.application.book_filters import BookFilterIndex
from lectern.application.explanations import ExplanationService
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.grounding import Citation, Explanation
from lectern.domain.search import (
    Exclusion,
    QueryPlan,
    Recognition,
    SearchFilters,
    SearchQuery,
    SearchResult,
    with_exclusions,
)
from tests.fakes import FakeCatalog, FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

VOCAB = ["vampire", "romance", "horror", "king", "dark", "night", "school", "young", "adult"]


def _book(
    n: int,
    title: str,
    text: str,
    *,
    authors: tuple[str, ...] = ("Ann Author",),
    categories: tuple[str, ...] = ("horror",),
    pages: int | None = None,
    series: str | None = None,
) -> Book:
    return Book(
        id=uuid.UUID(int=n),
        title=title,
        authors=authors,
        description=text,
        language="en",
        categories=categories,
        pages=pages,
        metadata={"series": series} if series else {},
    )


BOOKS = [
    _book(1, "Night Vampire", "vampire horror dark night", pages=320),
    _book(2, "Vampire Romance", "vampire romance night", categories=("paranormal romance",)),
    _book(3, "King of Night", "horror night dark", authors=("Stephen King",), pages=900),
    _book(4, "Vampire School", "vampire school young adult", categories=("young adult",)),
    _book(5, "Twilight", "vampire romance young", categories=("vampires",), series="Twilight"),
    _book(6, "New Moon", "vampire night", categories=("vampires",), series="Twilight"),
    _book(7, "Dark Vampire Night", "vampire dark night horror", pages=None),
    _book(8, "Long Night", "vampire night horror dark", pages=1200),
]


class QuotingExplainer:
    """An LLMClient's explain that quotes every shelf and author, whatever was asked."""

    model_id = "quoting"

    def __init__(self) -> None:
        self.queries: list[str] = []

    def explain(self, query: str, book: Book, *, run_id: str | None = None) -> Explanation:
        del run_id
        self.queries.append(query)
        citations = tuple(
            Citation(book.id, field, value, 0.9)
            for field, values in (("categories", book.categories), ("authors", book.authors))
            for value in values
        )
        return Explanation(
            book.id, query, "It matches.", citations, self.model_id, datetime.now(UTC), 0.9, True
        )


def _service(
    explainer: QuotingExplainer | None = None,
) -> tuple[BookSearchService, FakeLexicalIndex, FakeEmbedder]:
    catalog = FakeCatalog()
    for book in BOOKS:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {
        str(b.id): " ".join([b.title, *b.categories, *b.authors, b.description or ""]).lower()
        for b in BOOKS
    }
    lexical = FakeLexicalIndex(texts)
    embedder = FakeEmbedder(VOCAB)
    retriever = HybridRetriever(lexical, FakeVectorIndex(FakeEmbedder(VOCAB), texts), embedder)
    explanations = (
        ExplanationService(explainer, "v1")  # type: ignore[arg-type]
        if explainer is not None
        else None
    )
    service = BookSearchService(
        catalog, retriever, BookFilterIndex(catalog.book_facts()), explainer=explanations
    )
    return service, lexical, embedder


def _titles(
    service: BookSearchService, query: SearchQuery, plan: QueryPlan | None = None
) -> list[str]:
    return [r.book.title for r in service.search(query, plan=plan, mmr_lambda=None).results]


def test_exclusions_are_hard_filters_before_fusion() -> None:
    service, lexical, _ = _service()
    filters = SearchFilters(
        exclude_categories=("romance",),
        exclude_authors=("Stephen King",),
        exclude_titles=("Twilight",),
        exclude_youth=True,
    )
    titles = _titles(service, SearchQuery("vampire night", filters=filters))
    assert set(titles) == {"Night Vampire", "Dark Vampire Night", "Long Night"}
    allowed = lexical.allowed_seen[-1]
    assert allowed == {str(uuid.UUID(int=n)) for n in (1, 7, 8)}


def test_a_page_limit_keeps_unknown_lengths_after_the_known_fits() -> None:
    service, _, _ = _service()
    titles = _titles(
        service, SearchQuery("vampire dark night", filters=SearchFilters(max_pages=400))
    )
    assert "Long Night" not in titles and "King of Night" not in titles  # known to be longer
    known = [t for t in titles if t == "Night Vampire"]
    assert known and titles[0] == "Night Vampire"  # the one known to fit comes first
    assert "Dark Vampire Night" in titles  # unknown length: kept, after


def test_excluded_words_are_never_searched_by_words_or_meaning() -> None:
    service, lexical, embedder = _service()
    text = "vampire horror but no romance, not Stephen King"
    exclusions = (
        Exclusion("category", "romance", ("romance",)),
        Exclusion("author", "Stephen King", ("Stephen King",)),
    )
    plan = QueryPlan(
        text,
        filters=with_exclusions(SearchFilters(), exclusions),
        exclusions=exclusions,
        variations=("vampire horror romance", "Stephen King vampires"),  # a model's slip
        recognised=(
            Recognition("exclude", "romance", 15, 29),
            Recognition("exclude", "Stephen King", 31, 47),
        ),
    )
    titles = _titles(service, SearchQuery(text), plan)
    assert "Vampire Romance" not in titles and "King of Night" not in titles
    searched = [*lexical.queries_seen, *[t for call in embedder.calls for t in call]]
    assert searched and not any("romance" in q.lower() or "king" in q.lower() for q in searched)


def test_youth_shelves_leave_the_plan_s_variations_but_not_the_reader_s_words() -> None:
    service, lexical, _ = _service()
    audience = (Exclusion("audience", "young readers", ("young adult",)),)
    plan = QueryPlan(
        "vampire school stories about young people for adults",
        filters=with_exclusions(SearchFilters(), audience),
        exclusions=audience,
        variations=("young adult vampires",),
        recognised=(Recognition("audience", "young readers", 42, 52),),
    )
    _titles(service, SearchQuery(plan.original_query), plan)
    # the two variations searched (then words no shown book has are looked up one by one)
    assert lexical.queries_seen[:2] == ["vampire school stories about young people", "vampires"]


def test_explanations_never_cite_what_the_reader_excluded() -> None:
    explainer = QuotingExplainer()
    service = ExplanationService(explainer, "v1")  # type: ignore[arg-type]
    book = _book(
        9,
        "Shelved Twice",
        "x",
        authors=("Stephen King", "Peter Straub"),
        categories=("young adult fiction", "horror"),
    )
    result = SearchResult(book=book, final_score=1.0, rank=1, source="hybrid")
    (explained,), _ = service.explain_results(
        "horror", [result], 1, excluded_shelves=("young adult",), excluded_authors=("Stephen King",)
    )
    assert explained.explanation is not None
    cited = [(c.chunk_id, c.snippet) for c in explained.explanation.citations]
    assert cited == [("categories", "horror"), ("authors", "Peter Straub")]
    only_excluded = _book(10, "Only", "x", authors=("Stephen King",), categories=("young adult",))
    (refused,), _ = service.explain_results(
        "horror",
        [SearchResult(book=only_excluded, final_score=1.0, rank=1, source="hybrid")],
        1,
        excluded_shelves=("young adult",),
        excluded_authors=("Stephen King",),
    )
    assert refused.explanation is not None and not refused.explanation.grounded


def test_searches_explain_with_the_words_that_were_searched() -> None:
    explainer = QuotingExplainer()
    service, _, _ = _service(explainer)
    text = "vampire night, not Stephen King"
    exclusions = (Exclusion("author", "Stephen King", ("Stephen King",)),)
    plan = QueryPlan(
        text,
        filters=with_exclusions(SearchFilters(), exclusions),
        exclusions=exclusions,
        recognised=(Recognition("exclude", "Stephen King", text.index("not"), len(text)),),
    )
    service.search(SearchQuery(text, use_explanations=True), plan=plan, mmr_lambda=None)
    assert explainer.queries and set(explainer.queries) == {"vampire night,"}


def test_a_planned_search_explains_with_its_variations_too() -> None:
    # "Liebesroman" is searched as "romance" too: a romance found that way must have a word
    # to quote (explained with the reader's word alone, it was refused).
    explainer = QuotingExplainer()
    service, _, _ = _service(explainer)
    plan = QueryPlan("Liebesroman", variations=("romance",))
    service.search(SearchQuery("Liebesroman", use_explanations=True), plan=plan, mmr_lambda=None)
    assert set(explainer.queries) == {"Liebesroman romance"}
