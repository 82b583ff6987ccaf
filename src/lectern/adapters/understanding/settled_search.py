"""A search taken back part-way: the query is what the writer settles on after the retraction.

"looking for something cosy... fantasy maybe? no wait, not fantasy, I've had enough dragons
this year. something cosy set in a small town" thinks aloud: a word that takes back ("no
wait", "actually", "scratch that", "on second thought") ends the guess, a "not X" right after it
says what is ruled out, a sentence about the writer ("I've had enough dragons") asks nothing,
and what follows is the request. The retraction words are never a shelf to leave out. When
nothing is said after the retraction but what it rules out, the message is left as it was.
"""

from __future__ import annotations

import re

_TAKE_BACK = re.compile(
    r"(?:[,;…!?–—]+|\.+|\s-+)\s*(?:(?:no|nope|nah|oh|hmm+|um+|uh+)[\s,.…!:;–—-]+)*"
    r"(?:wait|actually|scratch\s+that|hang\s+on|hold\s+on|on\s+second\s+thoughts?|or\s+rather|"
    r"make\s+that|never\s*mind)\b[\s,.…!:;–—-]*",
    re.I,
)
"""Punctuation, then words that take back the guess before them ("? no wait,", "- actually")."""
RETRACTION_WORDS = ("wait", "actually", "scratch", "hang", "hold")
"""Words after "no" that take something back, never a shelf left out ("no wait, ...")."""
_RULED_OUT = re.compile(r"^(?:not|no|nothing|without)\b", re.I)
_ABOUT_ME = re.compile(
    r"^(?:i(?:'ve|’ve|\s+have|'m|’m|\s+am)(?!\s+(?:looking|after|hunting|searching|in\s+the\s+mood))|i\s+(?:already|just|read|did))\b",
    re.I,
)
"""A clause the writer says of themselves ("I've had enough dragons this year")."""
_SENTENCE = re.compile(r"(?<=[.!?…])\s+")
_CLAUSE = re.compile(r"\s*[,;]\s*")


def settled_search(text: str) -> str:
    """The search the writer settles on after taking a guess back, else `text` unchanged."""
    marks = list(_TAKE_BACK.finditer(text))
    if not marks:
        return text
    after = text[marks[-1].end() :]
    wanted: list[str] = []
    ruled_out: list[str] = []
    for sentence in _SENTENCE.split(after.strip()):
        for clause in _CLAUSE.split(sentence.strip().rstrip(".!?…").strip()):
            if not clause or _ABOUT_ME.match(clause):
                continue
            (ruled_out if _RULED_OUT.match(clause) and not wanted else wanted).append(clause)
    if not wanted:
        return text
    return ", ".join([*wanted, *ruled_out])
