"""What a correction says is right: the year, language or authors a book should have.

People say the right value beside the wrong one in many orders ("X says 2006 but it came out
in 1851", "first published in 1943, your page says 1946", "the author is Y, not Z"): the
right one is the value not marked as what the record shows ("says", "not", "instead of").
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.lexicon_data import LANGUAGE_NAMES

_YEAR = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})\b")
_YEAR_WORDS = re.compile(
    r"\b(?:year|date|published|publication|came\s+out|released|printed|written\s+in|from)\b",
    re.I,
)
_SHOWN = re.compile(
    r"\b(?:says?|shows?|lists?|listed|has|have|had|displays?|not|isn'?t|wasn'?t|instead\s+of|"
    r"rather\s+than|down|marked|filed|tagged|catalogued|cataloged|showing|shown|labell?ed)\s+"
    # "X is not from 1913", "wasn't published in 1913": the year denied is the record's
    r"(?:it\s+)?(?:(?:as|was|from|in|published|released|written|out|first)\s+){0,3}$",
    re.I,
)
"""The words before a value the record shows, the wrong one ("isn't in French")."""
_LANGUAGE_WORDS = re.compile(
    r"\b(?:language|written\s+in|listed\s+as|should\s+be|it'?s\s+(?:a|an|in)|is\s+(?:a|an|in)|"
    r"originally\s+in|translated\s+from|"
    # "X is showing as Spanish, it's English": the stored value, described, then the right one
    r"(?:showing|shown|marked|labell?ed|tagged|down)(?:\s+as)?\s+(?=(?-i:[A-Z])))",
    re.I,
)
_PARTICLE = r"(?:de|du|da|di|del|della|der|den|van|von|le|la|ten|ter)"
"""Lower-case words inside a writer's name ("Daphne du Maurier", "Vincent van Gogh")."""
_AUTHOR = re.compile(
    r"\b(?:author\b.*?\b(?:is|should\s+be|was|it'?s|it\s+is)|written\s+by|wrote\s+it\s+was|by|"
    # "author = Hermann Hesse", "author: X": the right value set down as a field's
    r"(?i:authors?)\s*[=:])\s+"
    rf"(?P<who>[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|{_PARTICLE}))*)"
    r"(?=\s*(?:,|\.|;|$|\s+not\b|\s+and\s+not\b|\s+instead\b|\s+(?:alone|only)\b))"
)


_SETTLED = re.compile(
    r"\b(?:actually|really|in\s+fact|truly|should\s+(?:\w+\s+)?(?:be|say|read|show)|"
    r"correct\s+(?:one|year|date|value)\s+is|but\s+it(?:['’]s|\s+is|\s+was)|right\s+one\s+is)"
    r"(?:\s+[\w'’]+){0,3}?\s+$",
    re.I,
)
"""Words that say the value after them is the right one ("it's actually 2003")."""


def year_of(text: str) -> int | None:
    """The year a correction says is right, when the message speaks of a date.

    A year said to be the right one ("actually", "should be") wins over any other; otherwise
    the first year not marked as what the record shows.
    """
    if not _YEAR_WORDS.search(text):
        return None
    years = list(_YEAR.finditer(text))
    settled = [y for y in years if _SETTLED.search(text[max(0, y.start() - 60) : y.start()])]
    right = settled or [y for y in years if not _SHOWN.search(text[: y.start()])]
    return int(right[0].group(0)) if right else None


def _languages(text: str) -> tuple[list[re.Match[str]], list[re.Match[str]]]:
    """The language names a message says: those not marked as the record's, and those marked."""
    said = [w for w in re.finditer(r"[A-Za-z]+", text) if w.group(0).casefold() in LANGUAGE_NAMES]
    shown = [w for w in said if _SHOWN.search(text[: w.start()])]
    return [w for w in said if w not in shown], shown


def language_of(text: str) -> str | None:
    """The language a correction names, as written ("it's a Russian novel" -> Russian).

    Two languages set against each other ("X isn't in French, it's English", "x is english
    not french") say a correction by themselves: the one not denied is right.
    """
    named, shown = _languages(text)
    if not _LANGUAGE_WORDS.search(text) and not shown:
        return None
    # "I own the English original. The language should be English.": one language said twice
    right = {w.group(0).casefold() for w in named}
    return named[0].group(0).capitalize() if len(right) == 1 else None


def without_wrong_language(text: str) -> str:
    """The message without the languages it denies ("..., not french"): they are no title."""
    for wrong in reversed(_languages(text)[1]):
        before = _SHOWN.search(text[: wrong.start()])
        start = before.start() if before is not None else wrong.start()
        text = text[:start].rstrip(" ,") + " " + text[wrong.end() :]
    return text


_NAME = rf"[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|{_PARTICLE}))*"
_ONLY_AUTHOR = re.compile(
    rf"\bauthors?\b.*?(?:\b(?:only|just|solely)\s+(?:be\s+|by\s+)?"
    rf"(?P<who>{_NAME}(?:\s*(?:,\s*|\s(?:and|&)\s+){_NAME})*)"
    rf"|(?P<alone>{_NAME})\s+(?:only|alone)\b"
    r"|\bshould\s+(?:only\s+)?be\s+(?P<said>[a-z][\w.'’-]*(?:\s+[a-z][\w.'’-]*){0,3}?)\s+"
    r"(?:only|alone)\b)"
)
"""The one right author among several listed ("It should only be Dante Alighieri", "(George
Eliot only)", "should be jane austen only"): the others are to go."""


_IS_THE_AUTHOR = re.compile(
    rf"(?P<who>{_NAME})\s+(?:is|was)\s+the\s+(?:only\s+|sole\s+|real\s+|actual\s+)?"
    r"(?:author|writer)\b"
)
"""The right author said as the subject ("Jo Baker is the sole writer")."""


def _without_stop(name: str) -> str:
    """A name without the sentence's full stop ("Le Guin." -> "Le Guin"; "K." keeps its own)."""
    last = name.split()[-1]
    return name[:-1] if name.endswith(".") and len(last) > 2 else name


_JOINED_NAMES = re.compile(r"\s*,\s*|\s+(?:and|&)\s+")


_PRONOUN = re.compile(r"^(?:she|he|they|it|i|we|you|this|that|these|those)$", re.I)
_SHOULD_NAME = re.compile(
    r"\b(?:authors?|writers?|credits?|author\s+field|byline)\b[^.;]*?\bshould\s+"
    r"(?:(?:only|just|simply)\s+)?(?:be|say|read|list|show|credit)\s+(?:(?:only|just|simply)\s+)?"
    rf"(?:by\s+)?(?P<who>{_NAME}(?:\s*(?:,\s*(?:and\s+)?|\s(?:and|&)\s+){_NAME})*)"
)
"""The writers a record should credit, said as what it should be or say ("the authors should
be A and B", "the author field should only say C"): every name, and only these."""


_WORDS_OF_A_NAME = r"[\w.'’-]+(?:\s+[\w.'’-]+){0,3}?"
_ALL_NOT_JUST_ONE = re.compile(
    r"(?:\b(?:authors?|writers?)\b[^.;]*?\b(?:is|are|was|were)|[=:]|\b(?:written\s+)?by)\s+"
    rf"(?:by\s+)?(?P<who>{_WORDS_OF_A_NAME}(?:\s*(?:,\s*(?:and\s+)?|\s+(?:and|&)\s+)"
    rf"{_WORDS_OF_A_NAME})+?)\s*,?\s*(?:(?:both|together|jointly|too|as\s+well)\s*,?\s*)?"
    r"(?:and\s+|but\s+)?not\s+(?:just|only|merely|solely)\b",
    re.I,
)
"""Several writers said to be the authors against a record with fewer ("the author of Good
Omens is terry pratchett and neil gaiman both, not just one"): every one of them."""


def authors_of(text: str) -> list[str] | None:
    """The author a correction says is right ("the author is Herman Melville, not X").

    What the record should say wins over anything said of the writers before it ("co-written
    by B, so the authors should be A and B"); a pronoun is never a writer.
    """
    # "is only Patrick Süskind, John E. Woods is just the translator": the translator is none
    credited = without_shown_people(text)
    should = _SHOULD_NAME.search(credited)
    if should is not None:
        named = [_without_stop(w) for w in _JOINED_NAMES.split(should.group("who").strip())]
        named = [w for w in named if w and not _PRONOUN.match(w)]
        if named:
            return named
    every = _ALL_NOT_JUST_ONE.search(text)
    if every is not None:
        named = [_without_stop(w) for w in _JOINED_NAMES.split(every.group("who").strip())]
        if named and not any(_PRONOUN.match(w) for w in named):
            return [w if w != w.casefold() else w.title() for w in named]
    found = _AUTHOR.search(text) or _IS_THE_AUTHOR.search(text)
    if found:
        return [_without_stop(found.group("who"))]
    only = _ONLY_AUTHOR.search(credited)
    if only is None:
        return None
    who = (only.group("who") or only.group("alone") or only.group("said")).rstrip(".")
    if _PRONOUN.match(who):
        return None  # "She only wrote the introduction": who she is was said before
    # "should be just A and B": the writers who stay, each one.
    return [w if w != w.casefold() else w.title() for w in _JOINED_NAMES.split(who)]


_ROLE = (
    r"(?:translators?|editors?|illustrators?|introducers?|narrators?|co-?translators?|"
    r"compilers?)"
)
_SHOWN_NAMES = (
    # "siddhartha lists Hilda Rosner as an author", "shows X as co-author"
    re.compile(
        rf"\b(?:lists|listed|shows|has|credits|names|gives|includes)\s+(?P<who>{_NAME})\s+as\b"
    ),
    # "Philip Gabriel is the translator", "(Auerbach and Skal are editors)"
    re.compile(
        rf"(?P<who>{_NAME}(?:\s+(?:and|&)\s+{_NAME})?)\s+(?:is|was|are|were)\s+(?:just\s+|only\s+)?"
        rf"(?:the\s+|an?\s+)?(?:\w+\s+)?{_ROLE}\b"
    ),
    # "Richard J. Dunn edited an edition", "Sally Beauman only wrote an introduction"
    re.compile(
        rf"(?P<who>{_NAME})\s+(?:only\s+|just\s+|merely\s+)?(?:translated|edited|illustrated|"
        r"compiled|narrated|wrote\s+(?:an?|the)\s+(?:introduction|intro|foreword|preface|afterword|"
        r"notes))\b"
    ),
)
"""People a message says the record credits wrongly: they are no title and no right author."""


def without_shown_people(text: str) -> str:
    """The message without the people it says are credited wrongly (translators, editors).

    "Philip Gabriel is the translator, it should say Haruki Murakami": Philip Gabriel is
    neither the book nor its author.
    """
    for pattern in _SHOWN_NAMES:
        text = pattern.sub(lambda m: m.group(0).replace(m.group("who"), " "), text)
    return text


def correction_of(text: str) -> tuple[dict[str, object], tuple[int, int] | None] | None:
    """The corrected fields a message states and where the value stands, or None.

    The value's place keeps it out of the title read from the rest.
    """
    year = year_of(text)
    if year is not None:
        at = re.search(rf"\b{year}\b", text)
        return {"published_year": year}, (at.start(), at.end()) if at else None
    language = language_of(text)
    if language is not None:
        at = re.search(rf"\b{language}\b", text, re.I)
        return {"language": language}, (at.start(), at.end()) if at else None
    authors = authors_of(text)
    if authors is not None:
        start = text.casefold().find(authors[0].casefold())
        last = text.casefold().find(authors[-1].casefold(), start)
        return {"authors": authors}, (start, max(start + len(authors[0]), last + len(authors[-1])))
    return None
