"""A rating moved up or down, and a grade said again with a remark after it.

Found on dev19: "actually bump eragon down to 2, the sequel kind of ruined it for me" (Eragon
rated 4) became a search for books like "bump eragon sequel kind ruined" (a wrong action),
and "actually no, make that 4. the middle dragged" after a rating of 5 was asked back. A
rating is changed the way a number is: "bump X down to 2", "knock X up to 4", "lower X to 2
stars", "change my rating of X to 3". Said as the request "rate X N stars", the rules read
it; a remark after a stop ("the sequel kind of ruined it") asks nothing and is left.

Only a grade 1-5 after "to" counts, and only when the words say it is a rating: "stars" or
"rating" said, or a verb that moves a value ("bump ... down", "lower", "downgrade"). "move X
to 2", "put X up to 5" say neither and are left. A remark with a number or a request verb in
it may say another grade or ask for more, so the message is then left as written.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.compound import ACTION_VERB, LOOKUP_VERB

_N = r"(?:[1-5]|one|two|three|four|five)"
_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5"}
_LEAD = (
    r"^(?:(?:actually|ok(?:ay)?|so|hmm+|hm|wait|no|nah|oh|and|also|please|pls|plz|"
    r"(?:can|could|would)\s+(?:you|u)|i\s+(?:want|need)\s+to|let['’]?s)\W+)*"
)
_MOVED = re.compile(
    rf"{_LEAD}(?:please\s+)?(?P<verb>bump|knock|drop|bring|take|lower|raise|downgrade|upgrade|"
    r"change|set|update)\s+(?P<book>.+?)\s+(?P<dir>(?:back\s+)?(?:down|up)\s+)?to\s+(?:a\s+)?"
    rf"(?P<n>{_N})(?P<stars>\s*stars?)?(?!\s*(?:/|out\s+of|\.\d|and\s+a\s+half))\b"
    r"(?P<rest>.*)$",
    re.I | re.S,
)
"""A rating moved to a new grade ("bump eragon down to 2", "lower Dune to 2 stars")."""
_MOVES = {"bump", "knock", "drop", "bring", "take", "lower", "raise", "downgrade", "upgrade"}
"""Verbs that move a value up or down; "change" and "set" say nothing of which value."""
_RATING_OF = re.compile(
    r"^(?:(?:my|the|your)\s+)?(?:rating|stars?|score|grade)\s+(?:of|for|on)\s+(?P<book>.+)$"
    r"|^(?P<book2>.+?)(?:['’]s?\s+|\s+)(?:rating|stars?|score|grade)$",
    re.I,
)
"""The rating named with its book ("my rating of Dune", "Dune's rating")."""
_REGRADE = re.compile(
    r"^(?P<head>.*?\b(?:make|change)\s+(?:it|that)\s+(?:to\s+)?(?:a\s+)?"
    rf"{_N}(?:\s*stars?)?)\s*(?:[.!;,]+|\s[—–-]+)\s*(?P<remark>.+)$",
    re.I | re.S,
)
"""A grade said again, then a remark ("actually no, make that 4. the middle dragged")."""
_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|half)\b", re.I)


def _remark(rest: str) -> bool:
    """Whether `rest` is nothing, or a remark after a stop that asks for nothing more."""
    if not rest.strip(" .!"):
        return True
    found = re.match(r"^\s*(?:[.,;:!]+|\s*[—–]|\s-+)\s*(?P<said>.+)$", rest, re.S)
    if found is None:
        return False
    said = found["said"]
    return not (
        _NUMBER.search(said)
        or re.search(rf"\b(?:{ACTION_VERB}|{LOOKUP_VERB})\b", said, re.I)
        or "?" in said
    )


def rating_moved(text: str) -> str | None:
    """The message as "rate X N stars" when it moves a rating to a new grade, else None."""
    found = _MOVED.match(text.strip())
    if found is None or not _remark(found["rest"]):
        return None
    book = found["book"].strip()
    named = _RATING_OF.match(book)
    if named is not None:
        book = (named["book"] or named["book2"]).strip()
    said_rating = bool(found["stars"]) or named is not None
    moves = found["verb"].casefold() in _MOVES and (
        found["dir"] or found["verb"].casefold() in {"lower", "raise", "downgrade", "upgrade"}
    )
    if not (said_rating or moves) or not book:
        return None
    stars = _WORDS.get(found["n"].casefold(), found["n"])
    return f"rate {book} {stars} stars"


def regrade_remark_dropped(text: str) -> str:
    """`text` without a remark after a grade said again ("make that 4. the middle dragged")."""
    found = _REGRADE.match(text.strip())
    if found is None or not _remark(". " + found["remark"]):
        return text
    return found["head"]
