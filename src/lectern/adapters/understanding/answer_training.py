"""Training the answer check: its signals on real retrievals, a calibrated logistic regression.

`collect` runs each labelled question through the offline reply steps up to the draft (gate,
selection at the configured floor, load, extractive sentences) and records the answer check's
signals for every drafted sentence; `fit` trains scikit-learn's logistic regression on the
`train` rows, picks the threshold with the best balanced accuracy on `dev`, and reports
both splits and `test` (read once, never tuned on). The result is an `AnswerModel`: JSON
coefficients, read at run time without scikit-learn (`question.load_model`).

scikit-learn is imported here only (the `train` extra); nothing at run time needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lectern.adapters.llm.graphs.kb_reply import draft_evidence
from lectern.adapters.understanding.answer_check import (
    FEATURES,
    AnswerModel,
    answer_features,
    vector,
)
from lectern.adapters.understanding.question import analyse
from lectern.application.answering.knowledge import KnowledgeBase
from lectern.application.answering.rules import RuleReplySteps
from lectern.domain.grounding import match_form

MODEL_VERSION_PREFIX = "answer-check-lr"


@dataclass(frozen=True, slots=True)
class LabelledQuestion:
    """A question, whether the collection answers it, its split and its gold sentences."""

    id: str
    question: str
    answerable: bool
    split: str
    gold_sentences: tuple[str, ...] = ()
    source: str = "clapnq"
    """Which set it comes from (`clapnq`, `perturbed`)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One drafted sentence's signals and its label."""

    question_id: str
    split: str
    source: str
    features: tuple[float, ...]
    label: int
    question_label: int


def _is_gold(sentence: str, gold: Sequence[str]) -> bool:
    quote = match_form(sentence.rstrip("…"))
    return bool(quote) and any(quote in match_form(g) or match_form(g) in quote for g in gold)


def collect(
    questions: Sequence[LabelledQuestion],
    kb: KnowledgeBase,
    steps: RuleReplySteps,
    max_sources: int,
    progress: Callable[[], None] | None = None,
) -> list[Row]:
    """The signals of every drafted sentence of every question that reaches a draft.

    Labels: a sentence of an answerable question is positive when it is a gold sentence
    (when none of its sentences is, the first is); every sentence of an unanswerable
    question is negative.
    """
    rows: list[Row] = []
    for item in questions:
        if progress is not None:
            progress()
        gate = steps.gate(item.question, kb, run_id="train")
        if gate.decision != "question":
            continue
        question = gate.question or item.question
        selected = kb.select(question, max_sources)[:max_sources]
        if not selected:
            continue
        loaded, _ = kb.load(selected)
        draft = steps.generate(question, loaded, kb, run_id="train")
        if draft is None:
            continue
        evidence = draft_evidence(draft, loaded)
        analysis = analyse(question)
        golds = [_is_gold(e.sentence, item.gold_sentences) for e in evidence]
        if item.answerable and not any(golds) and evidence:
            golds[0] = True
        for candidate, gold in zip(evidence, golds, strict=True):
            rows.append(
                Row(
                    question_id=item.id,
                    split=item.split,
                    source=item.source,
                    features=tuple(vector(answer_features(analysis, candidate, kb.index.idf))),
                    label=int(item.answerable and gold),
                    question_label=int(item.answerable),
                )
            )
    return rows


def _balanced(predicted: Sequence[bool], labels: Sequence[int]) -> float:
    positives = [p for p, y in zip(predicted, labels, strict=True) if y]
    negatives = [p for p, y in zip(predicted, labels, strict=True) if not y]
    recall = sum(positives) / len(positives) if positives else 0.0
    specificity = sum(1 for p in negatives if not p) / len(negatives) if negatives else 0.0
    return (recall + specificity) / 2


def question_scores(rows: Sequence[Row], model: AnswerModel) -> dict[str, tuple[float, int]]:
    """Question id -> (its best sentence's probability, whether it is answerable)."""
    best: dict[str, tuple[float, int]] = {}
    for row in rows:
        probability = model.probability(dict(zip(FEATURES, row.features, strict=True)))
        if (
            row.features[FEATURES.index("number_mismatch")]
            or row.features[FEATURES.index("year_mismatch")]
        ):
            probability = 0.0
        previous = best.get(row.question_id)
        if previous is None or probability > previous[0]:
            best[row.question_id] = (probability, row.question_label)
    return best


def fit(rows: Sequence[Row], *, version: str, c: float = 1.0) -> AnswerModel:
    """A logistic regression on the `train` rows, its threshold picked on `dev`."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import brier_score_loss, roc_auc_score

    train = [r for r in rows if r.split == "train"]
    if not train or len({r.label for r in train}) < 2:
        raise ValueError("the train split needs positive and negative sentences")
    columns = list(zip(*(r.features for r in train), strict=True))
    means = [sum(col) / len(col) for col in columns]
    scales = [
        max(1e-6, (sum((v - m) ** 2 for v in col) / len(col)) ** 0.5)
        for col, m in zip(columns, means, strict=True)
    ]

    def scaled(row: Row) -> list[float]:
        return [(v - m) / s for v, m, s in zip(row.features, means, scales, strict=True)]

    classifier = LogisticRegression(C=c, class_weight="balanced", max_iter=2000)
    classifier.fit([scaled(r) for r in train], [r.label for r in train])
    draft = AnswerModel(
        coefficients=tuple(round(float(x), 6) for x in classifier.coef_[0]),
        intercept=round(float(classifier.intercept_[0]), 6),
        threshold=0.5,
        version=version,
        means=tuple(round(m, 6) for m in means),
        scales=tuple(round(s, 6) for s in scales),
    )
    dev = question_scores([r for r in rows if r.split == "dev"], draft)
    candidates = sorted({round(p, 3) for p, _ in dev.values()})
    threshold, best = 0.5, -1.0
    for value in candidates:
        accuracy = _balanced([p >= value for p, _ in dev.values()], [y for _, y in dev.values()])
        if accuracy > best:
            threshold, best = value, accuracy
    report: dict[str, object] = {
        "rows": {s: sum(1 for r in rows if r.split == s) for s in ("train", "dev", "test")},
        "c": c,
        "threshold_picked_on": "dev (best question-level balanced accuracy)",
    }
    for split in ("train", "dev", "test"):
        subset = [r for r in rows if r.split == split]
        scores = question_scores(subset, draft)
        if not scores:
            continue
        probabilities = [p for p, _ in scores.values()]
        labels = [y for _, y in scores.values()]
        entry: dict[str, object] = {
            "questions": len(scores),
            "balanced_accuracy_questions_with_a_draft": round(
                _balanced([p >= threshold for p in probabilities], labels), 4
            ),
            "brier": round(float(brier_score_loss(labels, probabilities)), 4),
        }
        if len(set(labels)) == 2:
            entry["auc"] = round(float(roc_auc_score(labels, probabilities)), 4)
        for source in sorted({r.source for r in subset}):
            part = question_scores([r for r in subset if r.source == source], draft)
            entry[f"{source}_passed"] = sum(1 for p, _ in part.values() if p >= threshold)
            entry[f"{source}_questions"] = len(part)
        report[split] = entry
    return AnswerModel(
        coefficients=draft.coefficients,
        intercept=draft.intercept,
        threshold=threshold,
        version=version,
        means=draft.means,
        scales=draft.scales,
        report=report,
    )
