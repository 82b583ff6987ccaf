"""What a question asks: the kind of answer, the subject, terms, numbers, years, negation.

Shared by the knowledge-base reply gate (`answer_check.py` reads its analysis for the
signals) and the guideline chat (DESIGN.md section 8, "Answers check that they answer"):
`analyse(question)` gives the kind of answer wanted (person, time, quantity, place, reason,
manner, yes/no, choice, definition), the subject, the key terms, numbers, years, negation
and a bound; `kind_met` says whether a text holds the kind of thing asked for.

Pure Python and standard library only: the gate's latency budget is a few milliseconds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from lectern.domain.answering import content_terms, term_key

AnswerKind = Literal[
    "person", "time", "quantity", "place", "reason", "manner", "yes_no", "choice",
    "definition", "other",
]  # fmt: skip
KINDS: tuple[AnswerKind, ...] = (
    "person", "time", "quantity", "place", "reason", "manner", "yes_no", "choice",
    "definition", "other",
)  # fmt: skip


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
MEASURE_CUES = {
    "minimum": ("minimum", "least", "min", "shortest", "fewest", "lowest", "smallest"),
    "maximum": ("maximum", "most", "max", "cap", "longest", "largest", "highest", "greatest", "up"),
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
    elif kind == "other" and re.search(r"^(?:\S+\s+){0,2}when\b|\bwhat year\b", lowered):
        # A "when" further in is a condition of a request ("run some code once when the app
        # starts up"), not a question of time.
        kind = "time"
    words = [w.casefold() for w in _WORD.findall(lowered)]
    measure = next(
        (name for name, cues in MEASURE_CUES.items() if any(c in words for c in cues[:-1] or cues)),
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
def negated_text(text: str) -> bool:
    """Whether a text says no, not, never ... (cached: a passage is read once per question)."""
    return _negated(text.casefold())


def _negated(text: str) -> bool:
    return any(
        w.casefold() in _NEGATIONS or w.casefold().endswith("n't") for w in _WORD.findall(text)
    )
