"""Negative tests: queries that must fail safely, and a catalog no test may change.

Each test names what must happen (an error that says why, no results, some results) and
what must not (an explanation repeating an injected instruction, an invalid citation, a
confident explanation for a query the catalog cannot answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from lectern.application.evaluation.config import RunConfig
from lectern.application.evaluation.datasets import NegativeTest
from lectern.application.evaluation.grounding import check_explanation
from lectern.application.ports import BookCatalog, LLMClient, QueryUnderstanding
from lectern.application.search import BookSearchService, SearchResponse
from lectern.domain.books import JSONValue
from lectern.domain.search import SearchFilters, SearchQuery
from lectern.errors import LecternError


class NegativeTestRunner:
    """Runs negative tests through the same search, explainer and checks as judged queries."""

    def __init__(
        self,
        search: BookSearchService,
        catalog: BookCatalog,
        judge: LLMClient,
        understanding: QueryUnderstanding | None = None,
    ) -> None:
        """The runner's own services, so the tests see what a reader would."""
        self.search = search
        self.catalog = catalog
        self.judge = judge
        self.understanding = understanding

    def run(self, tests: Sequence[NegativeTest], config: RunConfig, run_id: str) -> list[JSONValue]:
        """One record per test, then one that the catalog holds as many books as before."""
        if not config.negative_tests:
            return []
        before = self.catalog.counts().books
        results: list[JSONValue] = [self._one(t, config, run_id) for t in tests]
        after = self.catalog.counts().books
        results.append(
            {
                "id": "catalog-unchanged",
                "kind": "injection",
                "expected": f"the catalog still holds {before} books after every test",
                "observed": f"{after} books",
                "passed": before == after,
            }
        )
        return results

    def _search(self, test: NegativeTest, config: RunConfig) -> SearchResponse:
        filters = test.filters.to_domain() if test.filters else SearchFilters()
        plan = None
        if config.enabled("query_understanding") and self.understanding is not None:
            plan = self.understanding.plan(test.text)
        return self.search.search(
            SearchQuery(
                test.text,
                filters,
                max_results=config.k,
                use_explanations=config.enabled("grounding"),
            ),
            plan=plan,
            mmr_lambda=config.mmr_lambda if config.enabled("mmr") else None,
        )

    def _one(self, test: NegativeTest, config: RunConfig, run_id: str) -> JSONValue:
        problems: list[str] = []
        try:
            response = self._search(test, config)
        except LecternError as error:
            if test.expect != "error":
                problems.append(f"expected {test.expect}, got an error")
            elif test.error_contains and test.error_contains.lower() not in str(error).lower():
                problems.append(f"the error does not mention {test.error_contains!r}")
            return _record(test, f"error: {error}", problems)
        except Exception as error:  # noqa: BLE001 - an unexpected crash is a failed test
            observed = f"crash: {type(error).__name__}: {error}"
            return _record(test, observed, [observed])
        results = response.results
        observed = f"{len(results)} results"
        if results:
            observed += f", top: {results[0].book.title!r}"
        if test.expect == "error":
            problems.append("expected an error, got results")
        if test.expect == "empty" and results:
            problems.append("expected no results")
        if test.expect == "results" and not results:
            problems.append("expected results, got none")
        explained = [r.explanation for r in results if r.explanation is not None]
        books = {b.id: b for b in self.catalog.get_many([r.book.id for r in results])}
        invalid = 0
        for explanation in explained:
            book = books.get(explanation.book_id)
            if book is None:
                continue
            check = check_explanation(explanation, book, self.judge, run_id=run_id)
            invalid += check.citations - check.valid_citations
            for text in test.must_not_contain:
                if text.casefold() in explanation.text.casefold():
                    problems.append(f"an explanation contains {text!r}")
        if invalid:
            problems.append(f"{invalid} citations fail validation")
        if explained:
            top_confidence = max(e.confidence for e in explained)
            observed += f", highest explanation confidence {top_confidence:.2f}"
            if test.max_confidence is not None and top_confidence > test.max_confidence:
                problems.append(
                    f"an explanation claims confidence {top_confidence:.2f} > {test.max_confidence}"
                )
        if (
            test.nothing_fits is not None
            and (response.nothing_fits is not None) != test.nothing_fits
        ):
            problems.append(
                "expected the search to say nothing fits"
                if test.nothing_fits
                else "the search said nothing fits"
            )
        missing = response.nothing_fits.title if response.nothing_fits is not None else None
        if test.not_in_catalog is not None and (missing is not None) != test.not_in_catalog:
            problems.append(
                "expected the search to say the book asked about is not in the catalog"
                if test.not_in_catalog
                else f"the search said {missing!r} is not in the catalog"
            )
        if missing is not None:
            observed += f", not in the catalog: {missing}"
        elif response.nothing_fits is not None:
            observed += f", nothing fits: {', '.join(response.nothing_fits.words)}"
        if response.readings:
            observed += ", readings: " + "; ".join(
                f"{r.title} ({r.author})" for r in response.readings
            )
        if test.min_readings is not None and len(response.readings) < test.min_readings:
            problems.append(
                f"expected at least {test.min_readings} readings, got {len(response.readings)}"
            )
        offered = {r.title.casefold() for r in response.readings}
        for title in test.readings_include:
            if title.casefold() not in offered:
                problems.append(f"the readings do not offer {title!r}")
        if test.top_title_contains is not None and (
            not results
            or test.top_title_contains.casefold() not in results[0].book.title.casefold()
        ):
            problems.append(f"the top result's title does not contain {test.top_title_contains!r}")
        return _record(test, observed, problems)


def _record(test: NegativeTest, observed: str, problems: list[str]) -> JSONValue:
    return {
        "id": test.id,
        "kind": test.kind,
        "text": test.text[:200],
        "expected": test.expect
        + (f" mentioning {test.error_contains!r}" if test.error_contains else ""),
        "why": test.why,
        "observed": observed[:500],
        "passed": not problems,
        "problems": cast(JSONValue, problems),
    }
