"""A request as typed on a phone or dictated, read into the words the patterns know.

People write "pls", "rn", "tbh", emoji for verbs ("❌ X from Y", "🗑️ the Y list"), an arrow
for "to" ("rename A → B"), a book's writer and year in brackets after its title ("Stoner
(Williams, 1965)"), a greeting or whole frames of politeness before the request ("Hi! I'd
like to ...", "I'd be so grateful if you could ..."), and numbers inside titles as words
("catch twenty two"). None of it is the request: each is turned into what it stands for, or
dropped.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.spoken_marks import marks_written
from lectern.domain.evidence import SMALL_NUMBERS, TENS

_VERB_EMOJI = (
    (re.compile(r"^\s*(?:❌|✖️?|⛔|🚫|➖)\s*"), "remove "),
    (re.compile(r"^\s*(?:🗑️?|🔥)\s*"), "delete "),
    (re.compile(r"^\s*(?:➕|✅)\s*"), "add "),
)
"""An emoji that opens a message where its verb would stand."""
_RENAME = re.compile(r"^\s*(?:rename|call|retitle|change)\b", re.I)
_ARROW = re.compile(r"\s*(?:→|⟶|➡️?|->|=>)\s*")
_EMOJI = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2190-\u21ff\ufe0f\u200d\u20e3]+"
)
"""Pictographs and their joiners; the star marks a rating is given with are kept apart."""
_STARS = "★☆⭐🌟"
_CHAT = re.compile(r"\s*\b(?:rn|tbh|tbf|lol|lmao|imo|imho|fyi|atm|asap|omg|ngl)\b\.?", re.I)
"""Chat abbreviations that tell how the reader feels or when, never what to do."""
_SPOKEN_FILLER = re.compile(
    r"(?:(?<=\s)|^)(?:u+h+m*|erm+|e+r+(?=\s*,)|hmm+|u+m+(?!\s+\w*[A-ZÀ-Þ]))(?:\s*,)?(?=\s|$)"
)
"""A sound a speaker makes while thinking ("bump it to urgent and uh also assign it to me",
"um so the hunt task"), in lower case: dictation keeps it, and it had split no request or
had stood between "and" and the next verb. "um" before a capitalised word is Portuguese or
German ("Relato de Um Náufrago" typed in lower case with its noun capitalised)."""
_POINTERS_TYPED = re.compile(r"\b(?:(?P<this>dis|ths|thsi|tihs|htis)|(?P<that>dat))\b(?!['’])")
"""'this' and 'that' as typed in chat ("add dis to faves", "rate ths 2 stars"): a pointer; in
lower case only (a title's capital "Dis" is left alone)."""
_POLITE_FRAME = re.compile(
    r"^(?:i\s+(?:should|would|'d|’d)|i'd|i’d)\s+be\s+(?:most|very|so|really|ever\s+so)?\s*"
    r"(?:grateful|thankful|obliged)\s+if\s+you\s+(?:would|could|might)\s+(?:kindly\s+)?|"
    r"^would\s+you\s+be\s+(?:so\s+)?kind\s+(?:as\s+)?(?:to|and)\s+|"
    r"^(?:would|do)\s+you\s+mind\s+(?=\w+ing\b)",
    re.I,
)
"""A courtesy that wraps the request ("I should be grateful if you would add ...")."""
_GREETING_BEFORE_REQUEST = re.compile(
    r"^(?:hi|hello|hey|hiya|good\s+(?:morning|afternoon|evening))(?:\s+there)?[\s,!.:;-]+"
    r"(?=(?:i['’]?d\s+like|i\s+would\s+like|please|can\s+you|could\s+you|would\s+you|"
    r"rate|give|add|put|remove|take|create|make|start|rename|delete|show|find|recommend|"
    r"suggest|search|mark|close|assign)\b)",
    re.I,
)
"""A greeting before the request ("Hi! I'd like to rate ..."); before anything else ("Hi!
First time using this") it stays, the message's point."""
_WRITER_IN_BRACKETS = re.compile(
    r"(?<=[\w'’.!?])\s*\((?:by\s+)?(?:[A-Z](?:[a-z'’-]|\.)[\w.'’-]*\s*){1,4}(?:,\s*\d{4})?\)"
    r"(?!\s*['’\"”])|"
    r"(?<=[\w'’.!?])\s*\(\d{4}\)(?!\s*['’\"”])"
)
"""A writer and year said in brackets after a title: "Kindred (Butler, 1979)", "(1979)".

Never inside quotes (a quoted title is kept as typed: "to 'VPN logins (T1133)'"), and a
writer's name is letters ("(T1133)" is an id)."""


_VOWELS_DROPPED = (
    (re.compile(r"\bcn(?=\s+(?:u|you|ya)\b)"), "can"),
    (re.compile(r"\bcd(?=\s+(?:u|you|ya)\b)"), "could"),
    (re.compile(r"\bwd(?=\s+(?:u|you|ya)\b)"), "would"),
    (re.compile(r"\bhw(?=\s+(?:many|meny|mny|much|long|old|big)\b)"), "how"),
    (re.compile(r"(?<=\bhow\s)(?:meny|mny|mnay|mant)\b"), "many"),
    (re.compile(r"\blst\b"), "list"),
    (re.compile(r"\blsts\b"), "lists"),
)
"""Words typed without their vowels ("cn u change kids lst name to Bedtime"), in lower case;
"cn", "cd" and "wd" only before "u" or "you" (a "cd" is a disc); "hw meny pages" only before
the words a question of how many goes on with."""
_AND_TYPED = re.compile(r"(?<=\w)\s+n\s+(?=\w)")
"""A lower-case "n" typed for "and" between words ("add the hobbit n the fellowship")."""


def tidied(text: str) -> str:
    """`text` with emoji verbs, arrows, chat words, typed pointers and courtesy frames read."""
    text = marks_written(text)  # "remove the book from summer full stop": dictated marks
    for emoji, verb in _VERB_EMOJI:
        text = emoji.sub(verb, text, count=1)
    # "rename A → B": the arrow is the rename's "to"; alone ("A -> B") the rename's own sign
    text = _ARROW.sub(" to " if _RENAME.match(text) else " -> ", text)
    text = _EMOJI.sub(lambda m: "" if not set(m.group(0)) & set(_STARS) else m.group(0), text)
    text = _CHAT.sub("", text)
    text = _AND_TYPED.sub(" and ", text)
    for typed, word in _VOWELS_DROPPED:
        text = typed.sub(word, text)
    text = _SPOKEN_FILLER.sub("", text)
    text = _POINTERS_TYPED.sub(lambda m: "this" if m["this"] else "that", text)
    text = _WRITER_IN_BRACKETS.sub("", text)
    text = _POLITE_FRAME.sub("", _GREETING_BEFORE_REQUEST.sub("", text.strip()))
    return " ".join(text.split())


# The number words are the evidence checker's (`domain/evidence.py`), read the same way.
_UNITS = {word: value for word, value in SMALL_NUMBERS.items() if 1 <= value <= 9}
_TEENS = {word: value for word, value in SMALL_NUMBERS.items() if 10 <= value <= 19}
_TENS = TENS
_SPELT_NUMBER = re.compile(
    rf"\b(?P<tens>{'|'.join(_TENS)})(?:[\s-]+(?P<unit>{'|'.join(_UNITS)}))?\b|"
    rf"\b(?P<teen>{'|'.join(_TEENS)})\b",
    re.I,
)


def with_digits(title: str) -> str:
    """A title with its numbers from twenty to ninety-nine (and the teens) in digits.

    "the crying of lot forty nine" -> "the crying of lot 49"; the single digits stay words,
    since titles hold them as words as often as not ("Three Men in a Boat").
    """

    def digits(found: re.Match[str]) -> str:
        if found.group("teen"):
            return str(_TEENS[found.group("teen").casefold()])
        unit = found.group("unit")
        return str(_TENS[found.group("tens").casefold()] + (_UNITS[unit.casefold()] if unit else 0))

    return _SPELT_NUMBER.sub(digits, title)


_CLASS_NOUN = re.compile(r"^(?:the\s+)?(?:book|novel)\s+(?=\S)", re.I)
_AND = re.compile(r"\s+and\s+", re.I)


_CHAT_SPELLING = {
    "nite": "night",
    "tonite": "tonight",
    "lite": "light",
    "thru": "through",
    "luv": "love",
    "nd": "and",
    "bk": "book",
}
"""Words of a title as chat spells them ("goodnite moon" for *Goodnight Moon*)."""
_CHAT_SPELT = re.compile(rf"\b(?:{'|'.join(_CHAT_SPELLING)})\b|(?<=\w)nite\b", re.I)
"""A chat spelling as a word, or "nite" ending one ("goodnite", "fortnite")."""


def _chat_spelled_out(title: str) -> str:
    """`title` with chat spellings written out ("goodnite moon" -> "goodnight moon")."""
    return _CHAT_SPELT.sub(lambda m: _CHAT_SPELLING[m.group(0).casefold()], title)


def said_forms(title: str) -> list[str]:
    """Other ways the catalog may hold a title said aloud, most likely first.

    "book Stoner" (the word for what it is leads the title), "lot forty nine" (a number
    said as words), "jonathan strange and mr norrell" (the title's ampersand said "and"),
    "goodnite moon" (a word as chat spells it).
    """
    forms = [
        _CLASS_NOUN.sub("", title),
        with_digits(title),
        _AND.sub(" & ", title),
        _chat_spelled_out(title),
    ]
    return [f for f in dict.fromkeys(forms) if f and f != title]


def with_subtitle(title: str, said: str) -> bool:
    """Whether `title` is `said` whole and then its subtitle ("Walden; or, Life in the Woods").

    A change may name a book by its title alone; the catalog holds the subtitle too.
    """
    said = re.sub(r"^the\s+", "", " ".join(said.split()), flags=re.I)
    return re.match(rf"(?:the\s+)?{re.escape(said)}\s*(?:[:;(]|,\s+or\b)", title, re.I) is not None


_UNAPOSTROPHED = re.compile(r"\b(what|who|how|where|there|that)s\b", re.I)
"""A contraction typed without its apostrophe ("whats overdue", "whos on it")."""


def apostrophes_restored(text: str) -> str:
    """The request with "whats" read as "what's"; quoted words (a title, a comment) as said."""
    pieces = re.split(r"([\"“'‘][^\"”'’]+[\"”'’])", text)
    return "".join(
        piece if index % 2 else _UNAPOSTROPHED.sub(r"\1's", piece)
        for index, piece in enumerate(pieces)
    )
