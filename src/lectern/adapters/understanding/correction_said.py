"""A catalog correction said in people's words, read as the form the correction rules read.

Found on dev19: "Life of Pi doesn't have a language on it. It's English, could you put that
right?" proposed nothing, and "DRACULA IS LISTED AS ROMANCE. IT IS HORROR. FIX THE CATEGORY"
was asked back. The rules read a correction said as what a field should be ("the language of
X should be English", "X should be under Horror, not Romance"); people say instead what is
missing or what the record shows, then what is right in a sentence of its own:

- a field said to be missing, then its value: "X doesn't have a language (on it). It's
  English", "X has no category, it should be Horror";
- the value the record shows, then the right one: "X is listed as Romance. It is Horror."

Only a plain value counts: a language the lexicon knows for a language, a year for a year,
a few words for a category, and that only with a request to fix it or "should be" ("X is
listed as horror. It is great." is a verdict). What follows must be nothing or a request to
fix it; a question, or more said after it, leaves the message as written. A message written all in
capitals is read in lower case (shouting is no spelling of a title or a category).
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.lexicon_data import LANGUAGE_NAMES

_FIELD = r"(?P<field>language|category|genre|year|publication\s+year|author)"
_VALUE_SAID = (
    r"(?:(?:but\s+|and\s+)?(?:it['’]?s|it\s+is|its|it\s+should\s+be|should\s+be|it\s+was|"
    r"the\s+(?:right|correct)\s+one\s+is)\s+(?:(?:actually|really|obviously|clearly|in)\s+)*)"
)
_VALUE = r"(?P<value>[^.,;!?]{2,40}?)"
_FIX = (
    r"(?:\s*[.,;!?]+\s*(?P<fix>(?:(?:please|pls|so|and|could|can|would|will|you|u|kindly)\W+)*"
    r"(?:fix|correct|change|update|put|set|sort|amend|add)\b[^?]*\??)?)?\W*$"
)
"""Nothing after the value, or a request to fix it ("could you put that right?")."""
_MISSING = re.compile(
    r"^(?P<book>[^.,;!?]+?)\s+(?:(?:doesn['’]?t|does\s+not)\s+have\s+(?:a|an|any)|has\s+no|"
    r"(?:is\s+)?(?:missing|lacks|lacking)(?:\s+(?:a|an|its|the))?)\s+"
    rf"{_FIELD}(?:\s+(?:on|in|listed|set|given|shown)(?:\s+(?:it|for\s+it|there))?)?"
    rf"\s*[.,;:!—–-]+\s*{_VALUE_SAID}{_VALUE}{_FIX}",
    re.I | re.S,
)
"""A field said to be missing, then its value ("X doesn't have a language. It's English")."""
_SHOWN_THEN_RIGHT = re.compile(
    r"^(?P<book>[^.,;!?]+?)\s+(?:is|['’]s)\s+(?:listed|filed|shelved|categori[sz]ed|tagged|"
    r"marked|classed|classified|labell?ed|down)\s+(?:as|under|in)\s+(?P<wrong>[^.,;!?]{2,40}?)"
    rf"\s*[.,;!—–-]+\s*{_VALUE_SAID}{_VALUE}{_FIX}",
    re.I | re.S,
)
"""What the record shows, then what is right ("X is listed as Romance. It is Horror.")."""
_NOT_A_BOOK = re.compile(r"^(?:it|this|that|he|she|they|i|we|you)$", re.I)


def _shouted(text: str) -> bool:
    """Whether `text` is written all in capitals (a few letters at least)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 8 and all(c.isupper() for c in letters)


def _said_as(book: str, field: str, value: str) -> str | None:
    """The correction in the rules' form, or None when the value is not plainly one."""
    field = field.casefold()
    if field == "language" or value.casefold() in LANGUAGE_NAMES:
        return (
            f"the language of {book} should be {value}"
            if value.casefold() in LANGUAGE_NAMES
            else None
        )
    if "year" in field:
        return f"the year of {book} should be {value}" if re.fullmatch(r"\d{4}", value) else None
    if field == "author":
        return f"the author of {book} should be {value}"
    if len(value.split()) > 4:
        return None
    return f"{book} should be under {value}"


def correction_said(text: str) -> str | None:
    """The message as a correction the rules read ("the language of X should be English")."""
    said = text.strip()
    if _shouted(said):
        said = said.casefold()
    missing, shown = _MISSING.match(said), None
    if missing is not None:
        book, field, value = missing["book"], missing["field"], missing["value"]
    else:
        shown = _SHOWN_THEN_RIGHT.match(said)
        if shown is None:
            return None
        book, value = shown["book"], shown["value"]
        # "listed as Romance. It is Horror.": the field is what the two values are
        wrong = shown["wrong"].strip()
        field = "language" if wrong.casefold() in LANGUAGE_NAMES else "category"
        if re.fullmatch(r"\d{4}", wrong):
            field = "year"
    book, value = book.strip(), value.strip()
    if _NOT_A_BOOK.match(book) or not value:
        return None
    found = missing or shown
    plain = found is not None and (found["fix"] or "should" in found.group(0).casefold())
    if field not in ("language", "year") and not plain:
        return None  # "X is listed as horror. It is great.": a verdict, not a category
    return _said_as(book, field, value)
