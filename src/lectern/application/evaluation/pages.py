"""Page retrieval on a PDF collection: is the evidence page found, and how high?

Each question (FinanceBench's JSON lines: `question`, `question_type`, and `evidence`
holding `doc_name` and a 0-based `evidence_page_num`) is searched three ways over the same
passages: the collection's own search (what every workflow uses: document recognition,
measure vocabulary, hybrid fusion, MMR), BM25 alone and dense vectors alone. The ranked
passages become a list of distinct (document, page) pairs; a question scores hit@1 and
hit@5 when one of its evidence pages is first or among the first five, and 1/rank for MRR
(0 beyond the first `DEPTH` pages). Figures are given per question type (the part of
`question_type` before "-": metrics, domain, novel) and overall.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lectern.application.collections import CollectionService
from lectern.domain.books import JSONValue
from lectern.domain.documents import ExtractedDocument
from lectern.errors import CollectionInputError

DEPTH = 20
"""Distinct pages ranked per question (MRR counts 0 below this)."""
METHODS = ("search", "bm25", "dense")


@dataclass(frozen=True, slots=True)
class PageQuestion:
    """One question and the pages that answer it."""

    id: str
    text: str
    kind: str
    wanted: frozenset[tuple[str, int]]
    """(document uri, 1-based page)."""


def load_page_questions(path: Path) -> list[PageQuestion]:
    """FinanceBench-style JSON lines; a line without evidence is a clear error."""
    questions: list[PageQuestion] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            wanted = frozenset(
                (f"{e['doc_name']}.pdf", int(e["evidence_page_num"]) + 1) for e in row["evidence"]
            )
            text = str(row["question"])
        except (ValueError, KeyError, TypeError) as error:
            raise CollectionInputError(
                f"{path}:{number}: not a question with evidence pages ({error})"
            ) from None
        kind = str(row.get("question_type") or "other").split("-", 1)[0]
        questions.append(PageQuestion(str(row.get("financebench_id", number)), text, kind, wanted))
    if not questions:
        raise CollectionInputError(f"{path}: no questions")
    return questions


def _distinct_pages(rows: Sequence[tuple[str, int | None]]) -> list[tuple[str, int | None]]:
    pages: list[tuple[str, int | None]] = []
    for row in rows:
        if row not in pages:
            pages.append(row)
        if len(pages) >= DEPTH:
            break
    return pages


def _score(pages: Sequence[tuple[str, int | None]], wanted: frozenset[tuple[str, int]]) -> int:
    """1-based rank of the first evidence page, 0 when absent."""
    for rank, page in enumerate(pages, start=1):
        if page in wanted:
            return rank
    return 0


class PageEvaluation:
    """Ranks evidence pages by the collection's search, BM25 alone and vectors alone."""

    def __init__(self, service: CollectionService) -> None:
        """`service` holds the collection to measure."""
        self.service = service

    def _rankers(self, name: str) -> dict[str, Callable[[str], list[tuple[str, int | None]]]]:
        service = self.service
        loaded = service._load(name)  # noqa: SLF001 - measuring the loaded indexes themselves
        retriever = loaded.retriever
        located: dict[str, tuple[str, int | None]] = {}
        for item in service.store.indexed_passages(name):
            located[item.passage.id] = (item.passage.document_id, item.passage.page)
        uris = {
            doc_id: document.uri
            for doc_id, document in service.store.documents(
                name, sorted({d for d, _ in located.values()})
            ).items()
        }

        def pages_of(ids: Sequence[str]) -> list[tuple[str, int | None]]:
            rows = [(uris[located[i][0]], located[i][1]) for i in ids if i in located]
            return _distinct_pages(rows)

        def search(text: str) -> list[tuple[str, int | None]]:
            response = service.search(name, text, k=10, per_document=10)
            hits = sorted(
                (
                    (p.score, h.document.uri, p.passage.page)
                    for h in response.results
                    for p in h.passages
                ),
                key=lambda row: -row[0],
            )
            return _distinct_pages([(uri, page) for _, uri, page in hits])

        return {
            "search": search,
            "bm25": lambda text: pages_of([h.id for h in retriever.lexical_only(text, 200)]),
            "dense": lambda text: pages_of([h.id for h in retriever.vector_only(text, 200)]),
        }

    def run(self, name: str, questions: Sequence[PageQuestion]) -> dict[str, JSONValue]:
        """Per-question ranks and the per-type hit@1, hit@5 and MRR of each method."""
        rankers = self._rankers(name)
        rows: list[dict[str, JSONValue]] = []
        for question in questions:
            row: dict[str, JSONValue] = {"id": question.id, "kind": question.kind}
            for method, rank in rankers.items():
                pages = rank(question.text)
                row[method] = _score(pages, question.wanted)
                if method == "search":
                    top: list[JSONValue] = [f"{u} p.{p}" for u, p in pages[:3]]
                    row["top"] = top
            wanted: list[JSONValue] = [f"{u} p.{p}" for u, p in sorted(question.wanted)]
            row["wanted"] = wanted
            rows.append(row)
        listed: list[JSONValue] = list(rows)
        return {"collection": name, "questions": listed, "summary": summarize(rows)}

    def ingest_speed(self, name: str) -> dict[str, JSONValue]:
        """Read and split the collection's sources again (no index): pages per second."""
        service = self.service
        _, documents = service.show(name)
        sources = sorted({d.source for d in documents if d.source})
        pages = passages = 0
        started = time.perf_counter()
        for source in sources:
            path = Path(source)
            if not path.exists():
                continue
            batch = service.source.read(path, name)
            for item in batch.items:
                if isinstance(item, ExtractedDocument):
                    pages += len(item.pages)
                    passages += len(service._passages(name, item))  # noqa: SLF001
        seconds = time.perf_counter() - started
        return {
            "pages": pages,
            "passages": passages,
            "seconds": round(seconds, 2),
            "pages_per_second": round(pages / seconds, 1) if seconds > 0 else 0.0,
        }


def summarize(rows: Sequence[Mapping[str, JSONValue]]) -> dict[str, JSONValue]:
    """{kind: {method: {hit1, hit5, mrr, n}}}, with "all" for every question."""
    kinds = sorted({str(r["kind"]) for r in rows}) + ["all"]
    summary: dict[str, JSONValue] = {}
    for kind in kinds:
        chosen = [r for r in rows if kind == "all" or r["kind"] == kind]
        figures: dict[str, JSONValue] = {}
        for method in METHODS:
            ranks = [int(str(r[method])) for r in chosen if method in r]
            if not ranks:
                continue
            n = len(ranks)
            figures[method] = {
                "n": n,
                "hit1": round(sum(1 for x in ranks if x == 1) / n, 4),
                "hit5": round(sum(1 for x in ranks if 1 <= x <= 5) / n, 4),
                "hits5": sum(1 for x in ranks if 1 <= x <= 5),
                "mrr": round(sum(1 / x for x in ranks if x) / n, 4),
            }
        summary[kind] = figures
    return summary
