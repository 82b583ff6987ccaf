"""A request's leading verb typed with one letter wrong, read as the verb meant.

"creat task 'X'", "asign the drill to bob", "compelte the hunt": the first word is one edit
(a letter missing, extra, changed, or two swapped) from one of the workspace's verbs and is
no form of it ("created", "updates" are words of their own, not typos).
"""

from __future__ import annotations

import re

from rapidfuzz.distance import OSA

_VERBS = ("create", "assign", "complete", "update", "resolve", "rename", "search", "comment")
_FIRST_WORD = re.compile(r"^(?P<w>[A-Za-z]{5,})\b")


def verb_respelt(text: str) -> str:
    """The request with a mistyped leading verb spelt as meant; other requests as typed."""
    found = _FIRST_WORD.match(text)
    if found is None:
        return text
    word = found.group("w").casefold()
    if word in _VERBS or any(word.startswith(verb) for verb in _VERBS):
        return text
    meant = [verb for verb in _VERBS if OSA.distance(word, verb) == 1]
    if len(meant) != 1:
        return text
    return meant[0] + text[found.end() :]
