"""Research citations: the hand-written KEV/ATT&CK questions, their records and figures."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lectern.application.answering.research import ResearchService
from lectern.application.evaluation.answering.replies import reflection_figures
from lectern.application.evaluation.metrics import percentile
from lectern.application.evaluation.packaged import packaged_text
from lectern.domain.books import JSONValue
from lectern.domain.research import QueryRequest
from lectern.errors import DatasetError

RESEARCH_FILE = "research_questions.json"
RESEARCH_DEV_FILE = "research_questions_dev.json"
RESEARCH_DEV2_FILE = "research_questions_dev2.json"
RESEARCH_DEV3_FILE = "research_questions_dev3.json"
RESEARCH_SETS = {
    "measured": RESEARCH_FILE,
    "dev": RESEARCH_DEV_FILE,
    "dev2": RESEARCH_DEV2_FILE,
    "dev3": RESEARCH_DEV3_FILE,
}
"""The measured set (never tuned on) and the three dev sets the citation rules are tuned on."""


@dataclass(frozen=True, slots=True)
class ResearchCase:
    """A research question and the records that answer it."""

    id: str
    question: str
    gold: tuple[str, ...]


def load_research_questions(
    path: Path | None = None, *, name: str = "measured"
) -> tuple[str, list[ResearchCase]]:
    """(version, questions): the packaged set `name` (measured, dev, dev2, dev3), or `path`.

    A `name` that is none of those is read as the path of a set file of the same schema.
    """
    try:
        if path is None and name not in RESEARCH_SETS:
            path = Path(name)
        text = packaged_text(RESEARCH_SETS.get(name, name), path)
        data = json.loads(text)
        cases = [
            ResearchCase(str(q["id"]), str(q["question"]), tuple(str(g) for g in q["gold"]))
            for q in data["questions"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise DatasetError(f"cannot read the research questions: {error}") from None
    return str(data.get("version", "")), cases


@dataclass
class ResearchRecord:
    """One research question's cited and retrieved sources against its gold records."""

    id: str
    gold: list[str]
    cited: list[str]
    precision: float
    recall: float
    retrieved_recall: float
    flags: list[str]
    latency_ms: float


def research_records(
    service: ResearchService, collection: str, cases: Sequence[ResearchCase], top_k: int = 8
) -> list[ResearchRecord]:
    """Each question through the research chain (after one warm-up query)."""
    service.query(QueryRequest("warm-up", collection, top_k=top_k))
    records = []
    for case in cases:
        started = time.perf_counter()
        response = service.query(QueryRequest(case.question, collection, top_k=top_k))
        latency = (time.perf_counter() - started) * 1000
        gold = {g.casefold() for g in case.gold}
        cited = list(dict.fromkeys(c.source_id for c in response.citations))
        hits = sum(1 for c in cited if c.casefold() in gold)
        retrieved = response.metadata.get("sources_retrieved")
        retrieved_ids = (
            {str(s).casefold() for s in retrieved} if isinstance(retrieved, list) else set()
        )
        records.append(
            ResearchRecord(
                id=case.id,
                gold=list(case.gold),
                cited=cited,
                precision=round(hits / len(cited), 4) if cited else 0.0,
                recall=round(hits / len(gold), 4),
                retrieved_recall=round(len(gold & retrieved_ids) / len(gold), 4),
                flags=list(response.flags),
                latency_ms=round(latency, 2),
            )
        )
    return records


def research_figures(records: Sequence[ResearchRecord]) -> dict[str, JSONValue]:
    """Mean cited-source precision and recall (a question citing nothing has precision 0)."""
    count = len(records) or 1
    latencies = [r.latency_ms for r in records]
    return {
        "questions": len(records),
        "cited_precision": round(sum(r.precision for r in records) / count, 4),
        "cited_recall": round(sum(r.recall for r in records) / count, 4),
        "retrieved_recall": round(sum(r.retrieved_recall for r in records) / count, 4),
        "uncited": sum(1 for r in records if "uncited" in r.flags),
        "reflection": reflection_figures(
            [
                next(
                    (f.removeprefix("reflection_") for f in r.flags if f.startswith("reflection_")),
                    "",
                )
                for r in records
            ]
        ),
        "latency_p50_ms": round(percentile(latencies, 0.5), 2),
        "latency_p95_ms": round(percentile(latencies, 0.95), 2),
    }


def research_misses(records: Sequence[ResearchRecord]) -> list[str]:
    """One line per question not fully right: its id, gold records and cited records.

    For the dev sets only: the measured set's questions are run once and never read.
    """
    return [
        f"{r.id}: gold {' '.join(r.gold)}; cited {' '.join(r.cited) or '-'} "
        f"(precision {r.precision}, recall {r.recall})"
        for r in records
        if r.precision < 1 or r.recall < 1
    ]
