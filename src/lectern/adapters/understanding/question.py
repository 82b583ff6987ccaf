"""What a question asks, and whether a sentence answers it (the answer check of the gates).

One module, shared by the knowledge-base reply gate and the guideline chat (DESIGN.md
section 8, "Answers check that they answer"):

- `analyse(question)`: the kind of answer wanted (person, time, quantity, place, reason,
  manner, yes/no, choice, definition), the subject, the key terms, numbers, years and
  negation;
- `answer_features(analysis, sentence, passage, idf)`: the signals that say whether a
  sentence answers it (the key terms present in the sentence and in its passage, the answer
  kind met, no number, year or negation that disagrees);
- `AnswerCheck`: those signals combined by a logistic regression trained in the repository
  (`lectern evaluate answering --train-gate`), read from a JSON file of coefficients (no
  scikit-learn at run time).

Pure Python and standard library only: the gate's latency budget is a few milliseconds.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

from lectern.domain.answering import content_terms, term_key
from lectern.errors import AnswerModelError

AnswerKind = Literal[
    "person", "time", "quantity", "place", "reason", "manner", "yes_no", "choice",
    "definition", "other",
]  # fmt: skip
KINDS: tuple[AnswerKind, ...] = (
    "person", "time", "quantity", "place", "reason", "manner", "yes_no", "choice",
    "definition", "other",
)  # fmt: skip

MODEL_FILE = "answer_check.json"
"""The packaged model of the answer check (beside this module)."""

_WORD = re.compile(r"[\w'-]+", re.UNICODE)
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_MONTH = re.compile(r"\b(" + "|".join(m.capitalize() for m in _MONTHS) + r")\b")
_NUMBER_WORDS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "sixty",
        "seventy",
        "eighty",
        "ninety",
        "hundred",
        "thousand",
        "million",
        "billion",
        "trillion",
        "dozen",
        "half",
        "once",
        "twice",
        "single",
        "double",
    ]
)
_ORDINALS = frozenset(
    [
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "last",
    ]
)
_NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nothing",
        "neither",
        "nor",
        "without",
        "cannot",
        "can't",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "won't",
        "shouldn't",
        "mustn't",
        "n't",
    ]
)
_REASON_CUES = re.compile(
    r"\b(because|due to|owing to|since|as a result|so that|in order to|caused by|reason|"
    r"led to|leads to|result(?:s|ed)? (?:in|from)|therefore|thus|when|if|once|over the|"
    r"exceed\w*|after)\b",
    re.I,
)
_MANNER_CUES = re.compile(
    r"(\b(use|using|used|call|declare|add|set|create|import|pass|return|define|install|run|"
    r"by|with|via|you can|you could|just|simply|first|then)\b|[`(){}=:])",
    re.I,
)
_DEFINITION_CUES = re.compile(
    r"\b(is|are|was|were|refers? to|means?|known as|called|defined as|describes?|consists? of)\b",
    re.I,
)
_PLACE_CUES = re.compile(r"\b(in|at|from|near|located|based|born|capital|city|country|state)\b")
_CAPITALISED = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
_QUANTITY_UNITS = frozenset(
    [
        "percent",
        "per",
        "cent",
        "%",
        "km",
        "miles",
        "metres",
        "meters",
        "feet",
        "ft",
        "inches",
        "kg",
        "pounds",
        "tons",
        "years",
        "months",
        "weeks",
        "days",
        "hours",
        "minutes",
        "seconds",
        "characters",
        "bits",
        "bytes",
        "dollars",
        "usd",
        "euros",
        "people",
        "times",
        "episodes",
        "seasons",
        "members",
    ]
)
_MEASURES = {
    "minimum": ("minimum", "least", "min", "shortest", "fewest", "lowest", "smallest"),
    "maximum": ("maximum", "most", "max", "longest", "largest", "highest", "greatest", "up"),
}


@dataclass(frozen=True, slots=True)
class QuestionAnalysis:
    """What a question asks: the kind of answer, its subject and the words that must match."""

    text: str
    kind: AnswerKind
    terms: tuple[str, ...]
    """Content term keys (the `domain.answering` folding), in order."""
    subject: tuple[str, ...]
    """The terms after the question's frame ("what is the minimum length of" is frame)."""
    numbers: tuple[str, ...] = ()
    years: tuple[str, ...] = ()
    negated: bool = False
    measure: str | None = None
    """`minimum` or `maximum` when the question asks for a bound."""


_FRAME_TABLE: tuple[tuple[str, AnswerKind], ...] = (
        (r"^(who|whom|whose|who's)\b", "person"),
        (r"^(what|which) (person|actor|actress|singer|player|man|woman|author|writer)\b", "person"),
        (r"^(when|what year|what date|what time|what century|what decade|since when)\b", "time"),
        (r"^(how (many|much|long|old|big|large|tall|far|high|often|fast|deep|wide))\b", "quantity"),
        (r"^what (is|was|are) the (number|amount|population|size|length|age|percentage)\b",
         "quantity"),
        (r"^(what|which)('s| is| are| was)? (the )?(minimum|maximum|min|max)\b", "quantity"),
        (r"^(where|what (country|city|state|place|continent|region))\b", "place"),
        (r"^(why|what (causes|caused|is the reason|was the reason))\b", "reason"),
        (r"^(how (do|does|did|can|could|should|would|to|is|are)|what is the (best |recommended )?"
         r"way|is there a way|ways? to)\b", "manner"),
        (r"^(is|are|was|were|do|does|did|can|could|should|will|would|has|have|had|may|must)\b",
         "yes_no"),
        (r"^(which|what kind|what type|what sort)\b", "choice"),
        (r"^(what (is|are|was|were)( an?| the)?|define|meaning of|what does .+ mean)\b",
         "definition"),
        (r"^(what|name|list)\b", "choice"),
)  # fmt: skip
_FRAMES = tuple((re.compile(pattern, re.I), kind) for pattern, kind in _FRAME_TABLE)
_OPENER = re.compile(
    r"^(?:(?:hi|hello|hey|ok|okay|so|also|please|quick question|question|thanks)[\s,!.:;-]*)+",
    re.I,
)
_FRAME_WORDS = frozenset(
    [
        "minimum",
        "maximum",
        "min",
        "max",
        "number",
        "amount",
        "kind",
        "type",
        "sort",
        "way",
        "best",
        "recommended",
        "name",
        "list",
        "define",
        "meaning",
        "long",
        "many",
        "much",
        "often",
    ]
)


def analyse(question: str) -> QuestionAnalysis:
    """What the question asks (deterministic, no model)."""
    text = " ".join(question.split())
    body = _OPENER.sub("", text).strip() or text
    lowered = body.casefold()
    kind: AnswerKind = "other"
    for pattern, candidate in _FRAMES:
        if pattern.search(lowered):
            kind = candidate
            break
    if kind == "other" and re.search(r"\b(how many|how much|number of|minimum|maximum)\b", lowered):
        kind = "quantity"
    elif kind == "other" and re.search(r"\b(when|what year)\b", lowered):
        kind = "time"
    words = [w.casefold() for w in _WORD.findall(lowered)]
    measure = next(
        (name for name, cues in _MEASURES.items() if any(c in words for c in cues[:-1] or cues)),
        None,
    )
    if measure == "maximum" and "up" in words and "to" not in words:
        measure = None
    terms = tuple(content_terms(body))
    subject = tuple(t for t in terms if t not in _FRAME_WORDS)
    years = tuple(dict.fromkeys(_YEAR.findall(body)))
    numbers = tuple(n for n in dict.fromkeys(_NUMBER.findall(body)) if n not in years)
    negated = any(w in _NEGATIONS or w.endswith("n't") for w in words)
    return QuestionAnalysis(
        text=text,
        kind=kind,
        terms=terms,
        subject=subject or terms,
        numbers=numbers,
        years=years,
        negated=negated,
        measure=measure,
    )


def _has_number(text: str) -> bool:
    if _NUMBER.search(text):
        return True
    return any(w.casefold() in _NUMBER_WORDS for w in _WORD.findall(text))


def kind_met(kind: AnswerKind, sentence: str, question_terms: Sequence[str] = ()) -> float:
    """1.0 when the sentence holds the kind of thing the question asks for, else 0.0."""
    if kind == "time":
        return float(bool(_YEAR.search(sentence) or _MONTH.search(sentence)))
    if kind == "quantity":
        return float(_has_number(sentence))
    if kind == "person" or kind == "place":
        known = set(question_terms)
        for match in _CAPITALISED.finditer(sentence):
            if any(term_key(w) not in known for w in match.group(0).split()):
                if kind == "place" and not _PLACE_CUES.search(sentence):
                    continue
                return 1.0
        return 0.0
    if kind == "reason":
        return float(bool(_REASON_CUES.search(sentence)))
    if kind == "manner":
        return float(bool(_MANNER_CUES.search(sentence)))
    if kind == "definition":
        return float(bool(_DEFINITION_CUES.search(sentence)))
    return 1.0


@lru_cache(maxsize=512)
def _negated_text(text: str) -> bool:
    return _negated(text.casefold())


def _negated(text: str) -> bool:
    return any(
        w.casefold() in _NEGATIONS or w.casefold().endswith("n't") for w in _WORD.findall(text)
    )


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


def _weighted_share(
    terms: Sequence[str], present: frozenset[str], idf: Callable[[str], float]
) -> float:
    weights = [(t, max(idf(t), 0.0)) for t in terms]
    total = sum(w for _, w in weights)
    if total <= 0:
        return 0.0
    return sum(w for t, w in weights if t in present) / total


def answer_features(
    analysis: QuestionAnalysis, evidence: Evidence, idf: Callable[[str], float]
) -> dict[str, float]:
    """The signals that a sentence (in its passage) answers the question, each 0..1."""
    sentence_terms = _terms_of(evidence.sentence)
    passage_terms = _terms_of(evidence.passage) | _terms_of(evidence.title)
    terms = list(analysis.terms)
    subject = list(analysis.subject)
    missing = [t for t in terms if t not in passage_terms]
    top_idf = max((idf(t) for t in terms), default=0.0) or 1.0
    rare_missing = max((idf(t) for t in missing), default=0.0) / top_idf
    passage_negated = _negated_text(evidence.passage)
    numbers_missing = [n for n in analysis.numbers if n not in evidence.passage]
    years_missing = [y for y in analysis.years if y not in evidence.passage]
    question_set = set(terms)
    new = [t for t in sentence_terms if t not in question_set]
    measure_met = 1.0
    if analysis.measure is not None:
        cues = _MEASURES[analysis.measure][:-1]
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

    Hard rules (a number or year in the question that the passage lacks, a negated question
    over a passage with no negation) say no whatever the model says; the model decides the
    rest at its calibrated threshold.
    """

    def __init__(self, model: AnswerModel, *, threshold: float | None = None) -> None:
        """`threshold` overrides the model file's."""
        self.model = model
        self.threshold = model.threshold if threshold is None else threshold

    @property
    def version(self) -> str:
        """The model's version (traces, decision paths)."""
        return self.model.version

    def judge(
        self,
        question: str | QuestionAnalysis,
        candidates: Sequence[Evidence],
        idf: Callable[[str], float],
    ) -> AnswerJudgement:
        """The best candidate's probability and whether it reaches the threshold."""
        analysis = analyse(question) if isinstance(question, str) else question
        if not candidates:
            return AnswerJudgement(False, 0.0, -1, "no candidate sentence")
        probabilities: list[float] = []
        for evidence in candidates:
            features = answer_features(analysis, evidence, idf)
            hard = features["number_mismatch"] or features["year_mismatch"]
            probabilities.append(0.0 if hard else self.model.probability(features))
        best = max(range(len(candidates)), key=lambda i: probabilities[i])
        probability = probabilities[best]
        answers = probability >= self.threshold
        reason = (
            f"a sentence answers it (p={probability:.2f})"
            if answers
            else f"no sentence answers it (best p={probability:.2f} < {self.threshold:.2f})"
        )
        return AnswerJudgement(answers, round(probability, 4), best, reason, tuple(probabilities))
