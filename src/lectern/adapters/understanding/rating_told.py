"""A grade told as a fact, then asked to be kept: "X is 3 stars, can you put that".

"my daughter says Charlotte's Web is 3 stars (she cried too much), can you put that" tells
the grade, the reader's or one they pass on, and asks for it to be set down in words that
name no change of their own ("put that", "save that", "note it down"). Read clause by clause,
the request was "put that" (thanks, by meaning) and the rating was lost. The told grade is
the rating asked for, whatever the book; a remark in brackets is no part of it. A grade told
with nothing asked after it is left alone (`not_asked` reads it as told).
"""

from __future__ import annotations

import re

_STARS = r"(?P<stars>[1-5]|one|two|three|four|five)"
_TOLD = re.compile(
    r"^(?:(?:my|our)\s+\w+(?:\s+\w+)?\s+(?:says?|said|thinks?|reckons?|rates?|rated|gives?|gave)"
    r"(?:\s+that)?\s+|i(?:\s+(?:think|say|reckon|would\s+say)|['’]d\s+say)(?:\s+that)?\s+|"
    r"for\s+(?:me|her|him|us|them)\s*,?\s+)?"
    r"(?P<book>[^,;]+?)\s+(?:is|was|gets?|deserves?|=|is\s+worth|was\s+worth)\s+(?:a\s+|an\s+)?"
    rf"{_STARS}(?:\s*/\s*5|\s*(?:-\s*)?stars?|\s+out\s+of\s+(?:5|five))"
    r"(?:\s+(?:for|from)\s+(?:me|her|him|us|them))?"
    r"\s*[,;.!-]*\s*(?:so\s+|and\s+)?(?:(?:please|pls|plz)\s+)?(?:(?:can|could|would|will)\s+"
    r"(?:you|u)\s+)?(?:(?:please|pls|plz)\s+)?(?:put|save|record|note|log|enter|set|keep|write|mark|store|do)\s+"
    r"(?:that|it|this)(?:\s+(?:down|in|on|for\s+(?:me|her|him|us|them)|please))*\W*$",
    re.I,
)
_ASIDE = re.compile(r"\s*\([^()]*\)")
"""A remark in brackets ("(she cried too much)")."""


def rating_told(text: str) -> str | None:
    """The rating ("rate X N stars") a message tells and asks to keep, else None."""
    found = _TOLD.match(_ASIDE.sub("", text).strip())
    if found is None:
        return None
    return f"rate {found['book'].strip()} {found['stars']} stars"
