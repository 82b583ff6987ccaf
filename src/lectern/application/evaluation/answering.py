"""Evaluation of the answering workflows: knowledge-base replies on ClapNQ, research citations.

Replies (ClapNQ dev: 300 answerable and 300 unanswerable questions over one collection of
their passages):
- `should_reply` precision (replied questions that were answerable), recall (answerable
  questions replied to) and balanced accuracy (mean of recall and of the unanswerable
  questions left unanswered);
- on replied answerable questions: the share whose reply cites a gold `selected_sentences`
  sentence (a cited quote that is a piece of a gold sentence, or holds one, after the
  citation rule's folding) and the SQuAD token F1 of the reply against the gold answer;
- citation validity: every returned quote re-read against its document in the store;
- latency p50/p95 of `replier.ask`;
- the baseline: a BM25 top-score threshold, tuned on the same data (and on one half, then
  applied to the other).
The questions are split into two halves (stratified, by a hash of the id): thresholds are
tuned on `tune` and every figure is reported on `held_out` and on all.

Research (hand-written KEV/ATT&CK questions with gold record ids): cited-source precision
and recall per question, and whether the gold records were retrieved at all.

Transfer: hand-written support questions over the FastAPI documentation (answerable, and
technical or off-topic questions the documentation does not answer), run with the floor
tuned on ClapNQ; nothing is tuned on them.
"""

from __future__ import annotations

import hashlib
import json
import re
import string
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import cast

from lectern.application.answering.knowledge import KnowledgeBases
from lectern.application.answering.research import ResearchService
from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.application.evaluation.conversations import (
    TurnRecord,
    thread_figures,
    thread_records_json,
)
from lectern.application.evaluation.metrics import percentile
from lectern.application.evaluation.packaged import packaged_text
from lectern.application.evaluation.perturbed import PerturbedCase
from lectern.domain.answering import RequestContext
from lectern.domain.books import JSONValue
from lectern.domain.grounding import is_valid_snippet, match_form
from lectern.domain.research import QueryRequest
from lectern.errors import DatasetError

CLAPNQ_FILES = (("clapnq_dev_answerable.jsonl", True), ("clapnq_dev_unanswerable.jsonl", False))
RESEARCH_FILE = "research_questions.json"
RESEARCH_DEV_FILE = "research_questions_dev.json"
RESEARCH_DEV2_FILE = "research_questions_dev2.json"
RESEARCH_SETS = {"measured": RESEARCH_FILE, "dev": RESEARCH_DEV_FILE, "dev2": RESEARCH_DEV2_FILE}
"""The measured set (never tuned on) and the two dev sets the citation rules are tuned on."""
SUPPORT_FILE = "kb_support_questions.json"
TARGETS = {
    "balanced_accuracy": 0.75,
    "gold_sentence_hit": 0.70,
    "citations_valid": 1.0,
    "latency_p95_ms": 200.0,
}
"""The issue's acceptance figures for the offline defaults (latency: at most)."""


# --- ClapNQ --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClapnqCase:
    """One ClapNQ question, whether its passage answers it, and the gold answer."""

    id: str
    question: str
    answerable: bool
    answer: str
    gold_sentences: tuple[str, ...]


def load_clapnq(folder: Path) -> list[ClapnqCase]:
    """The answerable and unanswerable dev questions; DatasetError when a file is missing."""
    cases: list[ClapnqCase] = []
    for name, answerable in CLAPNQ_FILES:
        path = folder / name
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise DatasetError(f"cannot read {path}: {error}") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                output = row["output"][0] if row.get("output") else {}
                cases.append(
                    ClapnqCase(
                        id=str(row["id"]),
                        question=str(row["input"]),
                        answerable=answerable,
                        answer=str(output.get("answer") or ""),
                        gold_sentences=tuple(output.get("selected_sentences") or ()),
                    )
                )
            except (ValueError, KeyError, TypeError, IndexError) as error:
                raise DatasetError(f"{path}:{number}: not a ClapNQ row ({error})") from None
    return cases


def halves(cases: Sequence[ClapnqCase]) -> dict[str, str]:
    """Case id -> `tune` or `held_out`: half of each class, ordered by a hash of the id."""
    split: dict[str, str] = {}
    for answerable in (True, False):
        group = sorted(
            (c for c in cases if c.answerable == answerable),
            key=lambda c: hashlib.sha256(c.id.encode()).hexdigest(),
        )
        for position, case in enumerate(group):
            split[case.id] = "tune" if position < len(group) // 2 else "held_out"
    return split


_ARTICLES = re.compile(r"\b(a|an|the)\b")


def _normal_tokens(text: str) -> list[str]:
    text = text.casefold()
    text = "".join(ch for ch in text if ch not in string.punctuation)
    return _ARTICLES.sub(" ", text).split()


def token_f1(prediction: str, gold: str) -> float:
    """SQuAD's token F1 (lower case, no punctuation or articles)."""
    predicted, expected = _normal_tokens(prediction), _normal_tokens(gold)
    if not predicted or not expected:
        return float(predicted == expected)
    common = sum((Counter(predicted) & Counter(expected)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


def cites_gold(snippets: Sequence[str], gold_sentences: Sequence[str]) -> bool:
    """True when a cited quote is a piece of a gold sentence or holds one (folded)."""
    golds = [match_form(g) for g in gold_sentences if g.strip()]
    for snippet in snippets:
        quote = match_form(snippet.rstrip("…"))
        if quote and any(quote in gold or gold in quote for gold in golds):
            return True
    return False


_LABEL = re.compile(r"\s*\[[^\]]+\]")


def reply_body(text: str) -> str:
    """A reply without its labels and its Links section (what token F1 compares)."""
    return _LABEL.sub("", text.split("\n\nLinks:")[0]).strip()


@dataclass
class ReplyRecord:
    """One question's outcome."""

    id: str
    split: str
    answerable: bool
    replied: bool
    gate: str
    top_relevance: float | None
    top_lexical: float | None
    latency_ms: float
    citations: int
    valid_citations: int
    gold_hit: bool | None = None
    f1: float | None = None
    decision_path: list[str] = field(default_factory=list)
    reflection: str = ""
    """"" (the first draft stood), `rescued` or `failed` (the retry with feedback)."""


class ReplyEvaluation:
    """Runs the replier over ClapNQ cases and records what each question got."""

    def __init__(self, replier: KnowledgeBaseReplier, bases: KnowledgeBases, collection: str):
        """The replier answers from `collection` (ClapNQ's passages)."""
        self.replier = replier
        self.bases = bases
        self.collection = collection

    def run(
        self,
        cases: Sequence[ClapnqCase],
        progress: Callable[[int], None] | None = None,
        splits: Mapping[str, str] | None = None,
    ) -> list[ReplyRecord]:
        """Every case through the replier, with its retrieval signals and checks.

        `splits` names each case's split (default: the `tune`/`held_out` halves).
        """
        split = dict(splits) if splits is not None else halves(cases)
        kb = self.bases.get(self.collection)
        context = RequestContext(self.collection, "evaluation", "clapnq")
        self.replier.ask("warm-up question about anything?", context)
        records = []
        for number, case in enumerate(cases, start=1):
            started = time.perf_counter()
            result = self.replier.ask(case.question, context)
            latency = (time.perf_counter() - started) * 1000
            found, _ = kb.candidates(case.question, 1)
            top = found[0] if found else None
            lexical = [c.lexical for c in found if c.lexical is not None]
            valid = 0
            for citation in result.citations:
                source = kb.source(citation.source_id)
                documents = (
                    self.bases.collections.store.documents(
                        self.collection, [source.document_id], with_text=True
                    )
                    if source is not None
                    else {}
                )
                document = documents.get(source.document_id) if source is not None else None
                if document is not None and is_valid_snippet(citation.snippet, document.text):
                    valid += 1
            record = ReplyRecord(
                id=case.id,
                split=split[case.id],
                answerable=case.answerable,
                replied=result.should_reply,
                gate=result.gate,
                top_relevance=top.selected.relevance if top is not None else None,
                top_lexical=max(lexical) if lexical else None,
                latency_ms=round(latency, 3),
                citations=len(result.citations),
                valid_citations=valid,
                decision_path=list(result.decision_path),
                reflection=result.reflection,
            )
            if result.should_reply and case.answerable:
                record.gold_hit = cites_gold(
                    [c.snippet for c in result.citations], case.gold_sentences
                )
                record.f1 = round(token_f1(reply_body(result.reply_text), case.answer), 4)
            records.append(record)
            if progress is not None:
                progress(number)
        return records


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def decision_figures(predicted: Sequence[bool], answerable: Sequence[bool]) -> dict[str, JSONValue]:
    """Precision, recall, specificity and balanced accuracy of reply decisions."""
    pairs = list(zip(predicted, answerable, strict=True))
    true_positive = sum(1 for p, a in pairs if p and a)
    replied = sum(1 for p, _ in pairs if p)
    positives = sum(1 for _, a in pairs if a)
    negatives = len(pairs) - positives
    true_negative = sum(1 for p, a in pairs if not p and not a)
    recall = true_positive / positives if positives else 0.0
    specificity = true_negative / negatives if negatives else 0.0
    return {
        "questions": len(pairs),
        "replied": replied,
        "precision": _share(true_positive, replied),
        "recall": round(recall, 4),
        "specificity": round(specificity, 4),
        "balanced_accuracy": round((recall + specificity) / 2, 4),
    }


def reply_figures(records: Sequence[ReplyRecord]) -> dict[str, JSONValue]:
    """Every reply figure of a set of records."""
    figures = decision_figures([r.replied for r in records], [r.answerable for r in records])
    answered = [r for r in records if r.replied and r.answerable]
    citations = sum(r.citations for r in records)
    valid = sum(r.valid_citations for r in records)
    latencies = [r.latency_ms for r in records]
    figures.update(
        {
            "answered_answerable": len(answered),
            "gold_sentence_hit": _share(sum(1 for r in answered if r.gold_hit), len(answered)),
            "token_f1": round(sum(r.f1 or 0.0 for r in answered) / len(answered), 4)
            if answered
            else None,
            "citations": citations,
            "citations_valid": _share(valid, citations),
            "latency_p50_ms": round(percentile(latencies, 0.5), 2),
            "latency_p95_ms": round(percentile(latencies, 0.95), 2),
            "gates": dict(Counter(r.gate or "error" for r in records)),
            "reflection": reflection_figures([r.reflection for r in records]),
        }
    )
    return figures


def reflection_figures(outcomes: Sequence[str]) -> dict[str, JSONValue]:
    """How many drafts were retried with feedback, and how many of those the retry rescued."""
    retried = sum(1 for o in outcomes if o)
    rescued = sum(1 for o in outcomes if o == "rescued")
    return {"retried": retried, "rescued": rescued, "rescue_rate": _share(rescued, retried)}


def best_threshold(
    scores: Sequence[float | None], answerable: Sequence[bool]
) -> tuple[float, float]:
    """The threshold (reply when score >= it) with the best balanced accuracy, and that accuracy.

    Ties: the middle one of the tied thresholds. A missing score never replies.
    """
    values = sorted({s for s in scores if s is not None})
    if not values:
        return 0.0, 0.5
    results = []
    for threshold in values:
        predicted = [s is not None and s >= threshold for s in scores]
        figures = decision_figures(predicted, answerable)
        results.append((float(figures["balanced_accuracy"]), threshold))  # type: ignore[arg-type]
    best = max(r[0] for r in results)
    tied = [t for accuracy, t in results if accuracy == best]
    return tied[len(tied) // 2], best


def bm25_baseline(records: Sequence[ReplyRecord]) -> dict[str, JSONValue]:
    """Reply when the top BM25 score reaches a threshold: tuned on all, and tune -> held out."""
    scores = [r.top_lexical for r in records]
    labels = [r.answerable for r in records]
    threshold_all, accuracy_all = best_threshold(scores, labels)
    tune = [r for r in records if r.split == "tune"]
    held = [r for r in records if r.split == "held_out"]
    threshold_tune, accuracy_tune = best_threshold(
        [r.top_lexical for r in tune], [r.answerable for r in tune]
    )
    held_predicted = [r.top_lexical is not None and r.top_lexical >= threshold_tune for r in held]
    return {
        "tuned_on_all": {"threshold": round(threshold_all, 4), "balanced_accuracy": accuracy_all},
        "tuned_on_tune_half": {
            "threshold": round(threshold_tune, 4),
            "balanced_accuracy_tune": accuracy_tune,
            "held_out": decision_figures(held_predicted, [r.answerable for r in held]),
        },
    }


def relevance_sweep(records: Sequence[ReplyRecord]) -> dict[str, JSONValue]:
    """From a run with no relevance floor: the floor the tune half picks, and its effect.

    A question is replied to at floor t when it was replied to with no floor and its top
    source's relevance reaches t (selection keeps sources in search order, so the top
    source decides whether any is kept).
    """
    tune = [r for r in records if r.split == "tune"]
    scores = [r.top_relevance if r.replied else None for r in tune]
    threshold, accuracy = best_threshold(scores, [r.answerable for r in tune])

    def at(subset: Sequence[ReplyRecord]) -> dict[str, JSONValue]:
        predicted = [
            r.replied and r.top_relevance is not None and r.top_relevance >= threshold
            for r in subset
        ]
        return decision_figures(predicted, [r.answerable for r in subset])

    held = [r for r in records if r.split == "held_out"]
    return {
        "min_relevance": round(threshold, 4),
        "balanced_accuracy_tune": accuracy,
        "held_out": at(held),
        "all": at(records),
    }


def load_support_questions(path: Path | None = None) -> tuple[str, list[ClapnqCase]]:
    """The FastAPI support questions (a transfer check of the gate), as cases."""
    try:
        text = packaged_text(SUPPORT_FILE, path)
        data = json.loads(text)
        cases = [
            ClapnqCase(str(q["id"]), str(q["question"]), bool(q["answerable"]), "", ())
            for q in data["questions"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise DatasetError(f"cannot read the support questions: {error}") from None
    return str(data.get("version", "")), cases


def transfer_figures(records: Sequence[ReplyRecord]) -> dict[str, JSONValue]:
    """The configured gate on another knowledge base; for information, its best floor."""
    scores = [r.top_relevance if r.gate == "question" else None for r in records]
    floor, accuracy = best_threshold(scores, [r.answerable for r in records])
    figures = reply_figures(records)
    return {
        **{k: v for k, v in figures.items() if k not in ("gold_sentence_hit", "token_f1")},
        "best_floor_on_this_set": round(floor, 4),
        "balanced_accuracy_at_best_floor": accuracy,
    }


# --- perturbed twins -----------------------------------------------------------------------


def perturbed_cases(
    cases: Sequence[ClapnqCase], twins: Sequence[PerturbedCase]
) -> tuple[list[ClapnqCase], dict[str, str]]:
    """Each twin (unanswerable) beside its original (answerable), and their passage splits."""
    by_id = {c.id: c for c in cases}
    chosen: list[ClapnqCase] = []
    splits: dict[str, str] = {}
    for twin in twins:
        original = by_id.get(twin.original_id)
        if original is None:
            continue
        chosen.append(original)
        chosen.append(ClapnqCase(twin.id, twin.question, False, "", ()))
        splits[original.id] = splits[twin.id] = twin.split
    return chosen, splits


def threshold_baseline(
    records: Sequence[ReplyRecord], tune_split: str, splits: Sequence[str]
) -> dict[str, JSONValue]:
    """The BM25 top-score threshold tuned on `tune_split`, applied to each split."""
    tune = [r for r in records if r.split == tune_split]
    threshold, _ = best_threshold([r.top_lexical for r in tune], [r.answerable for r in tune])
    report: dict[str, JSONValue] = {"tuned_on": tune_split, "threshold": round(threshold, 4)}
    for split in splits:
        subset = [r for r in records if r.split == split]
        predicted = [r.top_lexical is not None and r.top_lexical >= threshold for r in subset]
        figures = decision_figures(predicted, [r.answerable for r in subset])
        report[split] = figures["balanced_accuracy"]
    return report


def perturbed_figures(records: Sequence[ReplyRecord]) -> dict[str, JSONValue]:
    """Reply figures of the twins and their originals per passage split, and the baseline."""
    splits = ("train", "dev", "test")
    figures: dict[str, JSONValue] = {
        split: reply_figures([r for r in records if r.split == split])
        for split in splits
        if any(r.split == split for r in records)
    }
    figures["bm25_baseline"] = threshold_baseline(records, "train", splits)
    return figures


# --- research ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResearchCase:
    """A research question and the records that answer it."""

    id: str
    question: str
    gold: tuple[str, ...]


def load_research_questions(
    path: Path | None = None, *, name: str = "measured"
) -> tuple[str, list[ResearchCase]]:
    """(version, questions): the packaged set `name` (measured, dev, dev2), or the file at `path`.

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


def targets_met(figures: Mapping[str, JSONValue]) -> dict[str, JSONValue]:
    """Each acceptance target, the value reached and whether it is met."""
    report: dict[str, JSONValue] = {}
    for name, target in TARGETS.items():
        value = figures.get(name)
        met = isinstance(value, int | float) and (
            value <= target if name == "latency_p95_ms" else value >= target
        )
        report[name] = {"target": target, "value": value, "met": bool(met)}
    return report


def records_json(records: Sequence[ReplyRecord | ResearchRecord]) -> list[JSONValue]:
    """Records as JSON for the artifact."""
    return [cast(JSONValue, asdict(r)) for r in records]


def answering_artifact(
    records: Sequence[ReplyRecord],
    research: Sequence[ResearchRecord],
    *,
    run_id: str,
    started_at: str,
    git_commit: str,
    config: Mapping[str, JSONValue],
    research_version: str = "",
    sweep: Sequence[ReplyRecord] | None = None,
    support: Sequence[ReplyRecord] | None = None,
    perturbed: Sequence[ReplyRecord] | None = None,
    threads: Sequence[TurnRecord] | None = None,
) -> dict[str, JSONValue]:
    """One run's artifact: reply figures, baseline, sweep, research figures, targets, records.

    Reply figures per half and in all; the BM25 baseline from the same run; the relevance
    sweep when a run without a floor (`sweep`) is given.
    """
    figures: dict[str, dict[str, JSONValue]] = {
        "all": reply_figures(records),
        "tune": reply_figures([r for r in records if r.split == "tune"]),
        "held_out": reply_figures([r for r in records if r.split == "held_out"]),
    }
    artifact: dict[str, JSONValue] = {
        "run_id": run_id,
        "kind": "answering",
        "started_at": started_at,
        "git_commit": git_commit,
        "config": dict(config),
        "replies": cast(JSONValue, figures),
        "bm25_baseline": bm25_baseline(records),
        "targets": {split: targets_met(figures[split]) for split in ("all", "held_out")},
        "research": {"questions_version": research_version, **research_figures(research)},
        "records": records_json(records),
        "research_records": records_json(research),
    }
    if sweep is not None:
        artifact["relevance_sweep"] = relevance_sweep(sweep)
    if support is not None:
        artifact["transfer"] = transfer_figures(support)
        artifact["transfer_records"] = records_json(support)
    if perturbed is not None:
        artifact["perturbed"] = perturbed_figures(perturbed)
        artifact["perturbed_records"] = records_json(perturbed)
    if threads is not None:
        by_set = {
            "clapnq": [r for r in threads if r.case.startswith("clapnq")],
            "fastapi": [r for r in threads if not r.case.startswith("clapnq")],
        }
        artifact["conversations"] = {
            name: thread_figures(subset) for name, subset in by_set.items() if subset
        }
        artifact["conversation_records"] = thread_records_json(threads)
    return artifact
