"""Whether a sentence answers the question: the answer check of the reply gate.

- `answer_features(analysis, evidence, idf)`: the signals that say whether a sentence
  answers it (the key terms present in the sentence and in its passage, the answer kind
  met, no number, year or negation that disagrees), over `question.analyse`'s analysis;
- `AnswerCheck`: those signals combined by a logistic regression trained in the repository
  (`lectern evaluate answering --train-gate`), read from a JSON file of coefficients (no
  scikit-learn at run time).

Pure Python and standard library only: the gate's latency budget is a few milliseconds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lectern.adapters.understanding.question import (
    MEASURE_CUES,
    AnswerKind,
    QuestionAnalysis,
    analyse,
    kind_met,
    negated_text,
)
from lectern.domain.answering import content_terms
from lectern.errors import AnswerModelError

MODEL_FILE = "answer_check.json"
"""The packaged model of the answer check (beside this module)."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """A candidate answer: a sentence, its passage (the whole source text) and its title."""

    sentence: str
    passage: str
    title: str = ""
    relevance: float = 0.0
    """The retrieval's relevance of the source (cosine, or coverage without vectors)."""


FEATURES: tuple[str, ...] = (
    "relevance",
    "sentence_coverage",
    "passage_coverage",
    "subject_in_sentence",
    "subject_in_passage",
    "missing_rare",
    "missing_share",
    "kind_met",
    "kind_met_passage",
    "number_mismatch",
    "year_mismatch",
    "negation_mismatch",
    "new_words",
    "measure_met",
    "kind_specific",
    "question_terms",
)
"""The answer check's signals, in the model file's order (each in 0..1)."""


@lru_cache(maxsize=512)
def _terms_of(text: str) -> frozenset[str]:
    """A text's term keys (cached: a source is judged once per sentence and per question)."""
    return frozenset(content_terms(text))


@lru_cache(maxsize=512)
def _kind_in_passage(kind: AnswerKind, passage: str, terms: tuple[str, ...]) -> float:
    return kind_met(kind, passage[:4000], terms)


def _one_edit(short: str, long: str) -> bool:
    """True when `long` is `short` with one letter added, or one changed or swapped."""
    if len(long) == len(short) + 1:
        return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
    if len(long) != len(short):
        return False
    differ = [i for i, (a, b) in enumerate(zip(short, long, strict=True)) if a != b]
    if len(differ) == 1:
        return True
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and short[differ[0]] == long[differ[1]]
        and short[differ[1]] == long[differ[0]]
    )


@lru_cache(maxsize=4096)
def _written_as(term: str, present: frozenset[str]) -> bool:
    """Whether the text holds the term as people write it tersely: cut short or mistyped.

    A cut word ("param", "config", "auth") is the start of a longer word of the text; an -ing
    or -ed form ("serving", "setting", "returned") meets its base; a typo
    ("reponse", "cookei") is one letter away from a word of the text of its length, with the
    same first letter. Only words of letters, five or more (four for a cut): numbers, years
    and short words stay exact, so a swapped number or name does not meet the passage.
    """
    if term in present:
        return True
    if not term.isalpha() or len(term) < 4:
        return False
    for suffix in ("ing", "ed"):
        stem = term[: -len(suffix)]
        if not term.endswith(suffix) or len(stem) < 3:
            continue
        doubled = stem[:-1] if stem[-1] == stem[-2] else stem  # "setting" -> "set"
        if stem in present or f"{stem}e" in present or doubled in present:
            return True
    for word in present:
        if word[0] != term[0] or not word.isalpha():
            continue
        if len(word) > len(term) and word.startswith(term):
            return True
        if len(term) >= 5 and abs(len(word) - len(term)) <= 1:
            short, long = (term, word) if len(term) <= len(word) else (word, term)
            if _one_edit(short, long):
                return True
    return False


def _weighted_share(
    terms: Sequence[str], present: frozenset[str], idf: Callable[[str], float]
) -> float:
    weights = [(t, max(idf(t), 0.0)) for t in terms]
    total = sum(w for _, w in weights)
    if total <= 0:
        return 0.0
    return sum(w for t, w in weights if _written_as(t, present)) / total


def answer_features(
    analysis: QuestionAnalysis, evidence: Evidence, idf: Callable[[str], float]
) -> dict[str, float]:
    """The signals that a sentence (in its passage) answers the question, each 0..1."""
    sentence_terms = _terms_of(evidence.sentence)
    passage_terms = _terms_of(evidence.passage) | _terms_of(evidence.title)
    terms = list(analysis.terms)
    subject = list(analysis.subject)
    passage_terms = frozenset(passage_terms)
    missing = [t for t in terms if not _written_as(t, passage_terms)]
    top_idf = max((idf(t) for t in terms), default=0.0) or 1.0
    rare_missing = max((idf(t) for t in missing), default=0.0) / top_idf
    passage_negated = negated_text(evidence.passage)
    numbers_missing = [n for n in analysis.numbers if n not in evidence.passage]
    years_missing = [y for y in analysis.years if y not in evidence.passage]
    question_set = set(terms)
    new = [t for t in sentence_terms if t not in question_set]
    measure_met = 1.0
    if analysis.measure is not None:
        cues = MEASURE_CUES[analysis.measure][:-1]
        measure_met = float(any(c in evidence.sentence.casefold() for c in cues))
    kind = kind_met(analysis.kind, evidence.sentence, terms)
    return {
        "relevance": max(0.0, min(1.0, evidence.relevance)),
        "sentence_coverage": _weighted_share(terms, sentence_terms, idf),
        "passage_coverage": _weighted_share(terms, passage_terms, idf),
        "subject_in_sentence": _weighted_share(subject, sentence_terms, idf),
        "subject_in_passage": _weighted_share(subject, passage_terms, idf),
        "missing_rare": rare_missing,
        "missing_share": len(missing) / len(terms) if terms else 1.0,
        "kind_met": kind,
        "kind_met_passage": _kind_in_passage(analysis.kind, evidence.passage, tuple(terms)),
        "number_mismatch": float(bool(numbers_missing)),
        "year_mismatch": float(bool(years_missing)),
        "negation_mismatch": float(analysis.negated and not passage_negated),
        "new_words": min(1.0, len(new) / 8),
        "measure_met": measure_met,
        "kind_specific": float(analysis.kind not in ("other", "choice", "yes_no")),
        "question_terms": min(1.0, len(terms) / 10),
    }


def vector(features: Mapping[str, float]) -> list[float]:
    """The features in the model file's order."""
    return [float(features[name]) for name in FEATURES]


@dataclass(frozen=True, slots=True)
class AnswerModel:
    """A logistic regression over `FEATURES` (coefficients from `--train-gate`)."""

    coefficients: tuple[float, ...]
    intercept: float
    threshold: float
    version: str
    means: tuple[float, ...] = ()
    scales: tuple[float, ...] = ()
    report: Mapping[str, object] = field(default_factory=dict)
    pages_threshold: float | None = None
    """The threshold for a knowledge base of pages (documentation read whole, no records
    mapping), fitted on the KB reply's dev questions by `tools/fit_pages_threshold.py`; None:
    `threshold` (fitted on ClapNQ's passages) for every knowledge base."""

    def probability(self, features: Mapping[str, float]) -> float:
        """P(the sentence answers the question)."""
        values = vector(features)
        if self.means:
            values = [(v - m) / s for v, m, s in zip(values, self.means, self.scales, strict=True)]
        z = self.intercept + sum(c * v for c, v in zip(self.coefficients, values, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_json(self) -> dict[str, object]:
        """The file's content."""
        return {
            "version": self.version,
            "features": list(FEATURES),
            "coefficients": list(self.coefficients),
            "intercept": self.intercept,
            "means": list(self.means),
            "scales": list(self.scales),
            "threshold": self.threshold,
            **({} if self.pages_threshold is None else {"pages_threshold": self.pages_threshold}),
            "report": dict(self.report),
        }


def load_model(path: Path | None = None) -> AnswerModel:
    """The model at `path`, or the packaged one; AnswerModelError when it cannot be read."""
    try:
        if path is None:
            text = resources.files(__package__ or "").joinpath(MODEL_FILE).read_text("utf-8")
        else:
            text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        if list(data["features"]) != list(FEATURES):
            raise AnswerModelError(
                f"the answer model {path or MODEL_FILE} was trained on other features: "
                "retrain it with `lectern evaluate answering --train-gate`"
            )
        return AnswerModel(
            coefficients=tuple(float(c) for c in data["coefficients"]),
            intercept=float(data["intercept"]),
            threshold=float(data["threshold"]),
            version=str(data["version"]),
            means=tuple(float(m) for m in data.get("means") or ()),
            scales=tuple(float(s) for s in data.get("scales") or ()),
            report=dict(data.get("report") or {}),
            pages_threshold=(
                None if data.get("pages_threshold") is None else float(data["pages_threshold"])
            ),
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise AnswerModelError(
            f"cannot read the answer model {path or MODEL_FILE}: {error}"
        ) from None


@dataclass(frozen=True, slots=True)
class AnswerJudgement:
    """The answer check's decision on one question and its candidate sentences."""

    answers: bool
    probability: float
    best: int
    """Index of the candidate that answers best (-1 when there was none)."""
    reason: str
    probabilities: tuple[float, ...] = ()


class AnswerCheck:
    """Whether any candidate sentence answers the question: hard rules, then the model.

    Hard rules (a number or year in the question that the passage lacks; on documentation
    pages a year only) say no whatever the model says; the model decides the rest at its
    calibrated threshold.
    """

    def __init__(self, model: AnswerModel, *, threshold: float | None = None) -> None:
        """`threshold` overrides the model file's (both of them)."""
        self.model = model
        self.threshold = model.threshold if threshold is None else threshold
        self.pages_threshold = (
            model.pages_threshold
            if threshold is None and model.pages_threshold is not None
            else self.threshold
        )

    @property
    def version(self) -> str:
        """The model's version (traces, decision paths)."""
        return self.model.version

    def judge(
        self,
        question: str | QuestionAnalysis,
        candidates: Sequence[Evidence],
        idf: Callable[[str], float],
        *,
        pages: bool = False,
    ) -> AnswerJudgement:
        """The best candidate's probability and whether it reaches the threshold.

        `pages`: the knowledge base is documentation pages (`pages_threshold` applies): how-to
        questions over docs are answered by sentences that score lower than ClapNQ's
        factoid answers do in their passages.
        """
        analysis = analyse(question) if isinstance(question, str) else question
        if not candidates:
            return AnswerJudgement(False, 0.0, -1, "no candidate sentence")
        probabilities: list[float] = []
        for evidence in candidates:
            features = answer_features(analysis, evidence, idf)
            # On documentation pages a bare number is the asker's own data (a port, a size, a
            # count of lines, the status they see), not the fact asked: the docs write their
            # own examples ("localhost:8080" for the asker's "localhost:3000"). There the
            # mismatch is weighed by the model, not a hard no; a year stays one.
            numbers_hard = features["number_mismatch"] and not pages
            hard = numbers_hard or features["year_mismatch"]
            probabilities.append(0.0 if hard else self.model.probability(features))
        best = max(range(len(candidates)), key=lambda i: probabilities[i])
        probability = probabilities[best]
        threshold = self.pages_threshold if pages else self.threshold
        answers = probability >= threshold
        reason = (
            f"a sentence answers it (p={probability:.2f})"
            if answers
            else f"no sentence answers it (best p={probability:.2f} < {threshold:.2f})"
        )
        return AnswerJudgement(answers, round(probability, 4), best, reason, tuple(probabilities))
