"""Knowledge-base replies on ClapNQ: cases, the reply run, its figures and baselines.

Also the relevance sweep and the FastAPI support questions (transfer, nothing tuned on them).
"""

from __future__ import annotations

import hashlib
import json
import re
import string
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lectern.application.answering.knowledge import KnowledgeBases
from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.application.evaluation.metrics import percentile
from lectern.application.evaluation.packaged import packaged_text
from lectern.domain.answering import RequestContext
from lectern.domain.books import JSONValue
from lectern.domain.grounding import is_valid_snippet, match_form
from lectern.errors import DatasetError

CLAPNQ_FILES = (("clapnq_dev_answerable.jsonl", True), ("clapnq_dev_unanswerable.jsonl", False))
SUPPORT_FILE = "kb_support_questions.json"


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
