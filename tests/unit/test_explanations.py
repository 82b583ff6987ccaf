"""The explanation service: bounded concurrency, cache, and a second validation of its own."""

import uuid
from dataclasses import replace
from pathlib import Path

import pytest

from lectern.adapters.llm.tracing import JsonlTraceWriter
from lectern.application.explanations import ExplanationService
from lectern.domain.books import Book
from lectern.domain.grounding import UNGROUNDED_TEXT
from lectern.domain.search import SearchResult
from lectern.domain.tracing import LLMCallTrace
from tests.fakes import FakeExplanationCache, ScriptedLLM

BOOKS = [
    Book(id=uuid.UUID(int=n), title=title, categories=("fantasy", "heist"), description=text)
    for n, title, text in [
        (1, "Lies", "A con in Camorr."),
        (2, "Crows", "A heist in Ketterdam."),
        (3, "Mistborn", "A revolution in Luthadel."),
    ]
]
RESULTS = [
    SearchResult(book=b, final_score=1.0 / (n + 1), rank=n + 1, source="hybrid")
    for n, b in enumerate(BOOKS)
]


def test_top_results_are_explained_and_checked_again() -> None:
    llm = ScriptedLLM(
        {
            "Lies": [("description", "con in Camorr"), ("description", "a con in Venice")],
            "Crows": [("categories", "heist")],
        }
    )
    service = ExplanationService(llm, "explain-v1", concurrency=2)
    explained, report = service.explain_results("fantasy con", RESULTS, top=2)
    assert [r.explanation is not None for r in explained] == [True, True, False]
    lies = explained[0].explanation
    assert lies is not None
    # The scripted model invented "a con in Venice": the service drops it even though the
    # adapter did not validate.
    assert [c.snippet for c in lies.citations] == ["con in Camorr"]
    assert report.explained == 2 and report.from_cache == 0 and report.failed == 0


def test_cached_explanations_are_reused_until_the_book_changes() -> None:
    cache = FakeExplanationCache()
    llm = ScriptedLLM({"Lies": [("description", "con in Camorr")]})
    service = ExplanationService(llm, "explain-v1", cache=cache)
    service.explain_results("fantasy con", RESULTS, top=1)
    _, report = service.explain_results("Fantasy  CON".lower(), RESULTS, top=1)
    assert report.from_cache == 1 and len(llm.calls) == 1
    # Re-ingested with another description: the cached quote no longer validates.
    changed = [replace(RESULTS[0], book=replace(BOOKS[0], description="A heist at sea."))]
    explained, report = service.explain_results("fantasy con", changed, top=1)
    assert report.from_cache == 0 and len(llm.calls) == 2
    assert explained[0].explanation is not None and not explained[0].explanation.grounded


def test_a_failing_model_never_fails_the_search_and_is_not_cached() -> None:
    cache = FakeExplanationCache()
    llm = ScriptedLLM({"Lies": [("description", "con in Camorr")]}, fail={"Crows"})
    service = ExplanationService(llm, "explain-v1", cache=cache)
    explained, report = service.explain_results("fantasy", RESULTS, top=3)
    crows = explained[1].explanation
    assert crows is not None and crows.text == UNGROUNDED_TEXT and not crows.grounded
    assert report.failed == 1
    assert {key[0] for key in cache.entries} == {BOOKS[0].id, BOOKS[2].id}


def test_concurrency_must_be_positive() -> None:
    with pytest.raises(ValueError, match="concurrency"):
        ExplanationService(ScriptedLLM({}), "v", concurrency=0)


def _trace(n: int) -> LLMCallTrace:
    from datetime import UTC, datetime

    return LLMCallTrace(
        trace_id=f"t{n}",
        time=datetime(2026, 1, 1, tzinfo=UTC),
        operation="explain",
        prompt_version="explain-v1",
        model="m",
        temperature=0.0,
        prompt_variables={"query": "q" * 300},
        raw_response="{}",
        parsed_output={"text": "x"},
        parse_error=None,
        latency_ms=1.0,
        input_tokens=10,
        output_tokens=5,
        run_id="r",
    )


def test_traces_are_appended_rotated_and_read_back(tmp_path: Path) -> None:
    writer = JsonlTraceWriter(tmp_path / "traces", max_bytes=10_000, backups=2)
    for n in range(60):
        writer.record(_trace(n))
    files = sorted(p.name for p in (tmp_path / "traces").iterdir())
    assert files == ["llm-calls.jsonl", "llm-calls.jsonl.1", "llm-calls.jsonl.2"]
    last = writer.last(5)
    assert [t.trace_id for t in last] == [f"t{n}" for n in range(55, 60)]
    assert last[-1] == _trace(59)
    # A torn line (a crash mid-write) is skipped, not fatal.
    with (tmp_path / "traces" / "llm-calls.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"trace_id": "torn"\n')
    assert [t.trace_id for t in writer.last(2)] == ["t59"]
    writer.close()
