"""What kind of quantity a guideline question asks for, and which of its words only say so.

"how long" asks for a length or a duration, "strength" for bits, "in what unit" for a unit;
"minimum" and "cap" ask for a bound. These words name the kind of number wanted, not the
thing it is about, so the guideline policy (`adapters/llm/guideline_policy.py`) meets them
with a number of that kind (`domain/evidence.py` dimensions) rather than with the word.
Pure Python and standard library only.
"""

from __future__ import annotations

import re

ASKS_FOR: tuple[tuple[re.Pattern[str], frozenset[str | None]], ...] = (
    (
        re.compile(
            r"\bhow (often|frequently|soon)\b|\bwithin how\b"
            r"|\bhow long\b.*\b(valid|last|take|wait|session|expire|lifetime"
            r"|kept|keep|stay|stored|retain|remain|until)"
        ),
        frozenset({"time"}),
    ),
    (
        # "how long can that code stay valid" or "be kept on the device" asks for a duration
        # only (above).
        re.compile(
            r"\bhow long\b(?!.*\b(valid|last|take|wait|session|expire|lifetime"
            r"|kept|keep|stay|stored|retain|remain|until))"
            r"|\blength\b|\bmaximum size\b"
        ),
        frozenset({"char", "size", "digit", "time"}),
    ),
    (re.compile(r"\bhow short\b"), frozenset({"char", "size", "digit"})),
    (
        re.compile(r"\b(minutes?|hours?|days?|seconds?|weeks?|months?|years?)\b"),
        frozenset({"time"}),
    ),
    (re.compile(r"\b(time-?outs?|idle|inactivity|time limits?)\b"), frozenset({"time"})),
    (re.compile(r"\b(characters?|chars?)\b"), frozenset({"char"})),
    (
        re.compile(
            r"\b(bits?|bytes?|octets?|entropy|strength|random(ness)?|sizes?)\b|\bhow (big|large)\b"
        ),
        frozenset({"size"}),
    ),
    (
        re.compile(r"\b(in|what|which) units?\b|\bunits? (is|are)\b"),
        frozenset({"time", "size", "char"}),
    ),
    (re.compile(r"\bdigits?\b"), frozenset({"digit"})),
)
"""Question words and the dimensions (domain/evidence.py) of the numbers they ask for."""

WANTS_NUMBER = re.compile(
    r"\b(how (many|long|much|often|old|large|big|short|soon|frequently)|minimum|maximum|"
    r"at (least|most)|length|limit|cap|strength|number of|timeout|duration|age|size|lifetime|"
    r"expire|"
    r"version|rate|ratio|percent(age)?|count|which (code|status)|what (code|status|port|value))\b",
    re.I,
)
"""A question that wants a number, of whatever kind."""

ASKS_UNIT = re.compile(r"\b(in|what|which) units?\b|\bunits? (is|are)\b", re.I)
""""in what unit?": the unit named is the answer, with or without a number."""

MEASURE_WORDS = frozenset(["minimum", "maximum", "min", "max", "least", "most", "cap"])
"""Words that ask for a bound (the question analysis's `measure`), not for a topic."""

DIMENSION_WORDS: dict[str, frozenset[str | None]] = {
    "length": frozenset({"char", "size", "digit"}),
    "size": frozenset({"size"}),
    "bits": frozenset({"size"}),
    "bytes": frozenset({"size"}),
    "characters": frozenset({"char"}),
    "digits": frozenset({"digit"}),
    "short": frozenset({"char", "size", "digit"}),
    "big": frozenset({"size"}),
    "large": frozenset({"size"}),
    "strength": frozenset({"size"}),
    "entropy": frozenset({"size"}),
    "random": frozenset({"size"}),
    "randomness": frozenset({"size"}),
    "timeout": frozenset({"time"}),
    "unit": frozenset({"time", "size", "char"}),
}
"""Words that name the kind of quantity asked for, not the thing it is about: "the minimum
length for a look-up secret" is met by "at least 20 bits" though the sentence never says
"length"; the word alone ("the salt ... in length") says nothing of the look-up secret."""

BOUND = {
    "minimum": re.compile(r"\b(at least|minimum|no (fewer|less) than)\b", re.I),
    "maximum": re.compile(r"\b(at most|maximum|up to|no more than|permit|allow)\w*", re.I),
}
"""How a sentence states the bound asked for."""


_STATED = re.compile(
    r"\b\d+(?:\.\d+)?\s*-?\s*(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|bits?"
    r"|bytes?|octets?|characters?|chars?|digits?)\b"
)
"""A number the question states with its unit ("every 90 days", "about 30 bits each"): a
circumstance of the question, not the quantity it asks for."""


def wanted_dimensions(question: str) -> set[str | None]:
    """The kinds of quantity a question asks for ("how long" a length or a duration)."""
    folded = _STATED.sub(" ", question.casefold())
    wanted: set[str | None] = set()
    for pattern, dimensions in ASKS_FOR:
        if pattern.search(folded):
            wanted |= dimensions
    return wanted


def wants_number(question: str) -> bool:
    """Whether the question asks for a number (a count, a bound, a kind of quantity)."""
    return bool(WANTS_NUMBER.search(question)) or bool(wanted_dimensions(question))


def asks_unit(question: str) -> bool:
    """Whether the question asks in what unit something is given."""
    return bool(ASKS_UNIT.search(question))
