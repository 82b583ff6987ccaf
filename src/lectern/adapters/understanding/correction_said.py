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

Found on dev21: the right value said of the field by name ("Its category should be
Fiction", "the author is George Orwell and only George Orwell"), a remark between or after
that asks nothing ("..., which is just odd.", "It's English - we have the copy right here"),
an aside after the title ("Sputnik Sweetheart - you know, the Murakami - is filed under
..."), and what a field holds told of the book the reader was looking at ("I was looking at
1984, ..., and the author field has Erich Fromm on it, ... - the author is George Orwell").
A remark counts only when it asks nothing: no question, no change, no field, no number. The
right value must be said of the same field (the author field told, then "the year is 1949",
is left as written); with none said, which value is asked (a field said missing, or judged
"odd" or "nonsense", is read as "X's language is wrong", whose value the rules ask). The
book is the one the sentence is about, never one named inside a field ("the author of Emma
has ..." is about Emma, so no other book's record is touched).
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.lexicon_data import LANGUAGE_NAMES

_FIELD_WORD = r"(?:language|category|genre|year|publication\s+year|author|title|pages?)"
_FIELD = rf"(?P<field>{_FIELD_WORD})"
_VALUE_SAID = (
    r"(?:(?:but\s+|and\s+)?(?:"
    # "Its category should be Fiction", "the author is George Orwell": the field said again
    rf"(?:its|the(?:\s+book['’]s)?|the\s+(?:right|correct))\s+(?P<said_field>{_FIELD_WORD})"
    r"\s+(?:should\s+(?:be|say|read)|is|['’]s|ought\s+to\s+be)|"
    r"it['’]?s|it\s+is|its|it\s+should\s+be|should\s+be|it\s+was|"
    r"the\s+(?:right|correct)\s+one\s+is)"
    r"\s+(?:(?:actually|really|obviously|clearly|in|just)\s+)*)"
)
_VALUE = r"(?P<value>[^.,;!?]{2,40}?)"
_ALONE = r"(?:\s+(?:and\s+only\s+[^.,;!?]{2,40}?|alone|only))?"
"""The value said to stand alone ("George Orwell and only George Orwell")."""
_FIX = (
    rf"{_ALONE}(?:(?:\s*[.,;!?]+\s*|\s+[—–-]+\s+)"
    r"(?:(?P<fix>(?:(?:please|pls|so|and|could|can|would|will|you|u|kindly)\W+)*"
    r"(?:fix|correct|change|update|put|set|sort|amend|add)\b[^?]*\??)|(?P<remark>[^?]*?)))?\W*$"
)
"""Nothing after the value, a request to fix it ("could you put that right?"), or a remark
(`_asks_nothing` decides whether it is only one)."""
_REMARK_BETWEEN = r"(?:\s*[.,;!—–-]+\s*(?:which|that|this)\s+(?:is|['’]s|seems|looks)\b[^.;!?]*)?"
"""A remark between what the record shows and what is right (", which is just odd.")."""
_ASKS_MORE = re.compile(
    rf"\d|\b(?:{_FIELD_WORD}|add|put|remove|delete|rename|rate|stars?|move|create|make|also|"
    r"list|then|but|and\s+(?:the|its|it)|what|which|how|why|when|who|is\s+it)\b",
    re.I,
)
"""A remark that says or asks more than why: left as written."""
_ASIDE_AFTER_BOOK = re.compile(
    r"^(?P<book>[^.,;!?—–-]+?)\s+[—–-]+\s+(?:you\s+know|i\s+mean|the\s+one)\b[^—–-]{0,40}?"
    r"\s+[—–-]+\s+(?=(?:is|['’]s|has|doesn|does|lacks)\b)",
    re.I,
)
"""An aside between dashes after the title ("X - you know, the Murakami - is filed ...")."""
_FIELD_HOLDS = re.compile(
    r"^(?:(?:so\s+|ok\s+|hi\W+)?(?:i\s+was|i['’]?m|i\s+am|we\s+were|we['’]re)\s+(?:just\s+)?"
    r"(?:looking\s+at|reading|re-?reading|checking|browsing)\s+)?"
    r"(?P<book>[^.,;!?]+?)(?:\s*,\s*(?:which|that|who)\b[^.,;!?]*)?\s*[,;]?\s*(?:and|but|so)?\s*"
    rf"(?:the|its)\s+{_FIELD}(?:\s+field)?\s+(?:has|says|shows|lists|reads|is\s+(?:set\s+to|"
    r"showing|listed\s+as|wrong|incorrect|missing|empty|blank))\b[^?]*?"
    rf"(?:\s*[.,;!]+\s*|\s+[—–-]+\s+){_VALUE_SAID}{_VALUE}{_FIX}",
    re.I | re.S,
)
"""What a field of the book looked at holds, then what is right ("... and the author field
has Erich Fromm on it, which is nonsense - the author is George Orwell")."""
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
    rf"{_REMARK_BETWEEN}\s*[.,;!—–-]+\s*{_VALUE_SAID}{_VALUE}{_FIX}",
    re.I | re.S,
)
"""What the record shows, then what is right ("X is listed as Romance. It is Horror.")."""
_A_NAME = re.compile(
    r"(?-i:[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|de|du|da|di|del|der|van|von|le|la))+)"
)
"""A writer's name, capitalised ("Cormac McCarthy"): an author's value, where "It's a shame"
is a verdict."""
_ONE_NAME = re.compile(r"(?-i:[A-Z][\w.'’-]+)")
"""A writer known by one name ("Homer", "Austen"), capitalised mid-sentence."""
_NOT_A_NAME = re.compile(
    r"^(?:a|an|the|so|very|really|quite|too|just|dead|alive|great|brilliant|amazing|awful|"
    r"terrible|wrong|right|fine|good|bad|not|no|my|his|her|their|one|still)\b",
    re.I,
)
"""Words a name does not start with: what the author is judged ("the author is brilliant")."""
_NOT_A_BOOK = re.compile(r"^(?:it|this|that|he|she|they|i|we|you)$", re.I)


_JUDGED = (
    r"(?:(?:just\s+|plain\s+|simply\s+|clearly\s+|obviously\s+)?(?:wrong|incorrect|odd|weird|strange|"
    r"silly|nonsense|rubbish|absurd|bizarre|a\s+mistake|an\s+error|not\s+right|mistaken))"
)
"""What a field's value is judged ("which is just odd", "which is nonsense")."""
_UNVALUED = re.compile(
    # "X doesn't have a language on it.": a field said missing, its value not said
    r"^(?P<book>[^.,;!?]+?)\s+(?:(?:doesn['’]?t|does\s+not)\s+have\s+(?:a|an|any)|has\s+no|"
    r"(?:is\s+)?(?:missing|lacks|lacking)(?:\s+(?:a|an|its|the))?)\s+"
    rf"{_FIELD}(?:\s+(?:on|in|listed|set|given|shown)(?:\s+(?:it|for\s+it|there))?)?\W*$|"
    # "X is filed under Businesswomen, which is just odd."
    r"^(?P<book2>[^.,;!?]+?)\s+(?:is|['’]s)\s+(?:listed|filed|shelved|categori[sz]ed|tagged|"
    r"marked|classed|classified|labell?ed|down)\s+(?:as|under|in)\s+(?P<wrong>[^.,;!?]{2,40}?)"
    rf"\s*[.,;!—–-]+\s*(?:which|that|this)\s+(?:is|['’]s|seems|looks)\s+{_JUDGED}\W*$|"
    # "I was looking at X, and the author field has Y on it, which is nonsense"
    r"^(?:(?:so\s+|ok\s+)?(?:i\s+was|i['’]?m|i\s+am|we\s+were|we['’]re)\s+(?:just\s+)?"
    r"(?:looking\s+at|reading|re-?reading|checking|browsing)\s+)?"
    r"(?P<book3>[^.,;!?]+?)(?:\s*,\s*(?:which|that|who)\b[^.,;!?]*)?\s*[,;]?\s*(?:and|but|so)?\s*"
    rf"(?:the|its)\s+(?P<field3>{_FIELD_WORD})(?:\s+field)?\s+(?:has|says|shows|lists|reads|is\s+"
    r"(?:set\s+to|showing|listed\s+as))\b[^?.;!]*?[,;]\s*(?:which|that|this)\s+(?:is|['’]s|"
    rf"seems|looks)\s+{_JUDGED}\W*$",
    re.I,
)
"""A field said wrong or missing with no right value: that value is asked, never guessed."""


def _value_asked(said: str) -> str | None:
    """The field said wrong with no value, as the request the rules ask the value of."""
    found = _UNVALUED.match(said)
    if found is None:
        return None
    book = (found["book"] or found["book2"] or found["book3"]).strip()
    field = found["field"] or found["field3"]
    if field is None:
        wrong = found["wrong"].strip(" '\"‘’“”")
        field = "language" if wrong.casefold() in LANGUAGE_NAMES else "category"
        field = "year" if re.fullmatch(r"\d{4}", wrong) else field
    if _NOT_A_BOOK.match(book):
        return None
    key = _field_key(field)
    if key == "category":
        return f"fix the category of {book}"
    if key not in ("language", "year", "author"):
        return None
    return f"{book}'s {key} is wrong"


def _field_key(field: str) -> str:
    """One word for a field however it is said ("genre" is the category, "pages" the page)."""
    key = field.casefold().split()[-1]
    return {"genre": "category", "pages": "page"}.get(key, key)


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
    if field == "title":
        return f"the title of {book} should be {value}"
    if field.startswith("page"):
        return f"{book} should have {value} pages" if value.isdigit() else None
    if len(value.split()) > 4:
        return None
    return f"{book} should be under {value}"


def _a_name(value: str, plain: bool, shouted: bool) -> bool:
    """Whether `value` looks like a writer's name, not a verdict ("brilliant", "a genius").

    Capitalised ("Cormac McCarthy"), or, said plainly as the author or in capitals, words no
    judgement starts ("george orwell").
    """
    if _A_NAME.fullmatch(value) is not None:
        return True
    if _NOT_A_NAME.match(value) is not None:
        return False
    return plain and (_ONE_NAME.fullmatch(value) is not None or shouted or len(value.split()) > 1)


def _asks_nothing(found: re.Match[str]) -> bool:
    """Whether what follows the value is nothing, a request to fix it, or a bare remark."""
    remark = found["remark"]
    return not remark or _ASKS_MORE.search(remark) is None


def correction_said(text: str) -> str | None:
    """The message as a correction the rules read ("the language of X should be English")."""
    said = text.strip()
    if _shouted(said):
        said = said.casefold()
    said = _ASIDE_AFTER_BOOK.sub(r"\g<book> ", said, count=1)
    missing, shown = _MISSING.match(said) or _FIELD_HOLDS.match(said), None
    if missing is None and (asked := _value_asked(said)) is not None:
        return asked
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
    found = missing or shown
    assert found is not None
    again = found["said_field"]
    if again and _field_key(again) != _field_key(field):
        if missing is not None:
            return None  # "the author field has X - the year is 1949": two fields, asked
        field = again  # "filed under X. Its language should be English"
    book, value = book.strip(), value.strip().strip("'\"‘’“”")
    if _NOT_A_BOOK.match(book) or not value or not _asks_nothing(found):
        return None
    plain = found["fix"] or "should" in found.group(0).casefold() or again
    named = _field_key(field) == "author" and _a_name(value, bool(plain), _shouted(text))
    if _field_key(field) == "author" and not named:
        return None  # "The author is brilliant": a verdict on the writer, not a name
    if field not in ("language", "year") and not plain and not named:
        return None  # "X is listed as horror. It is great.": a verdict, not a category
    return _said_as(book, field, value)
