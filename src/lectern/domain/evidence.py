"""Numbers must be in the evidence: every number in an answer appears in what was retrieved.

A guideline answer may state a threshold ("at least 8 characters"), a duration ("30
days"), an age, a version ("TLS 1.2") or a name with a number in it ("AAL3"). Each must
appear in a passage retrieved in the same turn, or the sentence stating it goes. Forms are
normalised before comparing: "eight" = "8", "1,000" = "1000", "8-char" = "8 characters",
"64-bit" = "64 bits", and durations and sizes compare by quantity ("1 hour" = "60
minutes", "4 bytes" = "32 bits"). Citation labels (`[RFC 7231 p.12]`) are not claims:
they are checked elsewhere and left out here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from lectern.domain.sentences import LABELLED_LINES, sentence_breaks

Dimension = Literal["time", "size", "char", "digit", "percent"]

_UNIT_TABLE: tuple[tuple[tuple[str, ...], Dimension, float], ...] = (
    (("second", "seconds", "sec", "secs", "s"), "time", 1.0),
    (("minute", "minutes", "min", "mins"), "time", 60.0),
    (("hour", "hours", "hr", "hrs", "h"), "time", 3_600.0),
    (("day", "days"), "time", 86_400.0),
    (("week", "weeks"), "time", 604_800.0),
    (("month", "months"), "time", 2_592_000.0),
    (("year", "years", "yr", "yrs"), "time", 31_536_000.0),
    (("millisecond", "milliseconds", "ms"), "time", 0.001),
    (("bit", "bits"), "size", 1.0),
    (("byte", "bytes", "octet", "octets"), "size", 8.0),
    (("kilobyte", "kilobytes", "kb"), "size", 8_000.0),
    (("character", "characters", "char", "chars"), "char", 1.0),
    (("digit", "digits"), "digit", 1.0),
    (("percent", "per-cent", "%"), "percent", 1.0),
)
_UNITS: dict[str, tuple[Dimension, float]] = {
    name: (dimension, factor) for names, dimension, factor in _UNIT_TABLE for name in names
}

SMALL_NUMBERS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
_ONE_AS_NUMBER = frozenset({"least", "most", "exactly", "than", "only", "just", "to"})
"""'one' counts as a number only after these words ("at least one") or before a unit."""

_LABEL = re.compile(r"\[[^\[\]\n]{1,120}?(?:\sp\.\s?\d+|\s§\s?[\w.\-]+|#[^\]\s]+)\]")
"""A citation label: `[RFC 7231 p.12]`, `[NIST SP 800-63B §5.1.1.2]`, `[kb:a.md#id]`."""
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[.,/\-][A-Za-z0-9]+)*%?")
_INT = re.compile(r"\d+")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")
_DECIMAL = re.compile(r"\d+\.\d+")
_DOTTED = re.compile(r"\d+(?:\.\d+){2,}")
_RANGE = re.compile(r"(\d+)-(\d+)")
_WITH_UNIT = re.compile(r"(\d+(?:\.\d+)?)-?([A-Za-z%]+)")
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
UNIT_LOOKAHEAD = 3
"""A unit this many words after a number still belongs to it ("8 or more characters")."""


@dataclass(frozen=True, slots=True)
class NumberMention:
    """A number (or a name with a number in it) as written, and its normalised form."""

    text: str
    value: str
    """Canonical: `8`, `1000`, `1.1`, `5.1.1.2`; identifiers case-folded (`aal3`)."""
    dimension: Dimension | None = None
    quantity: float | None = None
    """The value in the dimension's base unit (seconds, bits), for comparing across units."""
    identifier: bool = False
    """True for names with digits in them (`AAL3`, `SHA-256`, `HTTP/1.1`)."""


def unit_dimension(word: str) -> Dimension | None:
    """The dimension a unit word measures ("seconds" -> time, "octets" -> size), else None."""
    unit = _UNITS.get(word.casefold())
    return unit[0] if unit else None


def strip_labels(text: str) -> str:
    """The text without its citation labels."""
    return _LABEL.sub(" ", text)


def _word_value(words: Sequence[str], start: int) -> tuple[int, int] | None:
    """A number spelled in words from `start` ("twenty-four", "two hundred"): value, length."""
    total, current, used = 0, 0, 0
    position = start
    while position < len(words):
        parts = words[position].casefold().split("-")
        if all(p in SMALL_NUMBERS or p in TENS for p in parts) and len(parts) <= 2:
            current += sum(SMALL_NUMBERS.get(p, 0) + TENS.get(p, 0) for p in parts)
        elif parts[0] in _SCALES and len(parts) == 1 and used:
            scale = _SCALES[parts[0]]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        elif parts[0] == "and" and used and position + 1 < len(words):
            following = words[position + 1].casefold().split("-")[0]
            if following not in SMALL_NUMBERS and following not in TENS:
                break
        else:
            break
        used += 1
        position += 1
    if not used:
        return None
    return total + current, position - start


def _unit_after(words: Sequence[str], index: int) -> tuple[Dimension, float] | None:
    """The unit among the next few words, stopping at another number or a clause break."""
    for offset in range(1, UNIT_LOOKAHEAD + 1):
        if index + offset >= len(words):
            return None
        word = words[index + offset].casefold().rstrip(".,;:")
        if word in _UNITS:
            return _UNITS[word]
        if any(c.isdigit() for c in word) or word in SMALL_NUMBERS or word in TENS:
            return None
    return None


def _mention(
    text: str, value: int | str, unit: tuple[Dimension, float] | None = None
) -> NumberMention:
    """Integers canonical as digits; decimals and versions as written (`1.10` is not `1.1`)."""
    canonical = str(value)
    if unit is None:
        return NumberMention(text, canonical)
    dimension, factor = unit
    return NumberMention(text, canonical, dimension, float(value) * factor)


def numbers_in(text: str) -> list[NumberMention]:
    """Every number, quantity, version and numbered name in the text (labels left out)."""
    words = _TOKEN.findall(strip_labels(text))
    found: list[NumberMention] = []
    index = 0
    while index < len(words):
        word = words[index]
        folded = word.casefold()
        percent = folded.endswith("%")
        core = folded.rstrip("%")
        unit: tuple[Dimension, float] | None = _UNITS["%"] if percent else None
        if not any(c.isdigit() for c in core):
            spelled = _word_value(words, index)
            previous = words[index - 1].casefold() if index else ""
            if spelled is not None:
                value, length = spelled
                last = index + length - 1
                after = _unit_after(words, last)
                is_one = length == 1 and core == "one"
                if not is_one or previous in _ONE_AS_NUMBER or after is not None:
                    found.append(_mention(" ".join(words[index : last + 1]), value, after))
                index += length
                continue
            index += 1
            continue
        after = unit or _unit_after(words, index)
        if _GROUPED.fullmatch(core):
            found.append(_mention(word, int(core.replace(",", "")), after))
        elif _INT.fullmatch(core) or _DECIMAL.fullmatch(core):
            found.append(_mention(word, core if "." in core else int(core), after))
        elif _DOTTED.fullmatch(core):
            found.append(_mention(word, core))
        elif match := _RANGE.fullmatch(core):
            found.append(_mention(word, int(match.group(1)), after))
            found.append(_mention(word, int(match.group(2)), after))
        elif (match := _WITH_UNIT.fullmatch(core)) and match.group(2) in _UNITS:
            amount = match.group(1)
            found.append(
                _mention(word, amount if "." in amount else int(amount), _UNITS[match.group(2)])
            )
        elif match := _ORDINAL.fullmatch(core):
            found.append(_mention(word, int(match.group(1))))
        else:
            found.append(NumberMention(word, core, identifier=True))
        index += 1
    return found


@dataclass(frozen=True, slots=True)
class Evidence:
    """What this turn retrieved, indexed for number checks."""

    values: frozenset[str]
    unitless: frozenset[str]
    """Values that appear at least once without a unit."""
    quantities: frozenset[tuple[Dimension, float]]
    words: frozenset[str]
    """Every token, case-folded (identifiers are looked up here)."""

    @classmethod
    def of(cls, texts: Iterable[str]) -> Evidence:
        """Index the retrieved texts."""
        values: set[str] = set()
        unitless: set[str] = set()
        quantities: set[tuple[Dimension, float]] = set()
        words: set[str] = set()
        for text in texts:
            words.update(w.casefold().rstrip("%") for w in _TOKEN.findall(text))
            for mention in numbers_in(text):
                values.add(mention.value)
                if mention.dimension is None:
                    unitless.add(mention.value)
                elif mention.quantity is not None:
                    quantities.add((mention.dimension, round(mention.quantity, 6)))
        return cls(frozenset(values), frozenset(unitless), frozenset(quantities), frozenset(words))

    def supports(self, mention: NumberMention) -> bool:
        """True when the evidence states this number (in any written form)."""
        if mention.identifier:
            return mention.value in self.words or mention.value in self.values
        if mention.dimension is None or mention.quantity is None:
            return mention.value in self.values
        if (mention.dimension, round(mention.quantity, 6)) in self.quantities:
            return True
        return mention.value in self.unitless


@dataclass(frozen=True, slots=True)
class NumberCheck:
    """An answer after the check: what is left, and what was taken out and why."""

    text: str
    removed: tuple[str, ...]
    """Sentences taken out."""
    unsupported: tuple[NumberMention, ...]


def split_sentences(text: str) -> list[tuple[str, str]]:
    """(sentence, the whitespace after it) pairs; labels stay with their sentence."""
    pieces: list[tuple[str, str]] = []
    last = 0
    for start, end in sentence_breaks(text, LABELLED_LINES):
        pieces.append((text[last:start], text[start:end]))
        last = end
    pieces.append((text[last:], ""))
    return [(sentence, gap) for sentence, gap in pieces if sentence.strip() or "\n" in gap]


def sentences(text: str) -> list[str]:
    """The sentences (and lines) of a text, in order."""
    return [sentence for sentence, _ in split_sentences(text) if sentence.strip()]


def check_numbers(answer: str, evidence: Evidence) -> NumberCheck:
    """Remove every sentence that states a number the evidence does not."""
    out: list[str] = []
    removed: list[str] = []
    unsupported: list[NumberMention] = []
    for sentence, gap in split_sentences(answer):
        missing = [m for m in numbers_in(sentence) if not evidence.supports(m)]
        if missing:
            removed.append(sentence.strip())
            unsupported.extend(missing)
            out.append("\n" if "\n" in gap else "")
        else:
            out.append(sentence + gap)
    if not removed:
        return NumberCheck(answer, (), ())
    text = re.sub(r"[ \t]+\n", "\n", "".join(out))
    text = re.sub(
        r"\n{3,}" if "\n\n" in answer else r"\n{2,}", "\n\n" if "\n\n" in answer else "\n", text
    )
    text = text.strip()
    return NumberCheck(text, tuple(removed), tuple(unsupported))
