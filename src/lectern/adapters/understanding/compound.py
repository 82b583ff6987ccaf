"""One message, several requests or several books: where it splits.

"add Emma to the classics list and give it four stars" is two requests, each read on its own
(`clauses`); "put Emma and Persuasion on the classics list" names two books, but "War and
Peace" is one, so a run of titles is split only where each part is a catalog title
(`titles_in`). "rate Emma 4 and Persuasion 5" says its verb once for both (`clauses`
repeats it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lectern.adapters.understanding.book_patterns import ADD_VERB, DELETE_VERB, REMOVE_VERB

ACTION_VERB = (
    rf"(?:rate|give|make|create|start|rename|call|move|mark|fix|correct|change|{ADD_VERB}|"
    rf"{REMOVE_VERB}|{DELETE_VERB})"
)
"""The verbs of a change (the lexicon's verbs for lists among them)."""
LOOKUP_VERB = r"(?:show|find|search|look|tell|recommend|suggest|list|what|which|who|pull\s+up)"
"""Verbs that start a look-up: a later part may ask for one ("..., then show me my lists")."""
_BREAK = re.compile(
    r"(?:\s*[,;]\s*(?:(?:and|then|&|also|now|next)\s+)*|\s+-\s+|\s+(?:(?:and|then|&)\s+)+)"
    r"(?:also\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+|pls\s+)?"
    rf"(?=(?:{ACTION_VERB}|{LOOKUP_VERB})\b)",
    re.I,
)
"""A joint before another request: a comma, semicolon, "and", "then", "also" or "now", and
the next words start with a verb of a change or a look-up."""
_STARS = r"(?:[1-5]|one|two|three|four|five)(?:\s*(?:/\s*5|stars?|out of (?:5|five)))?"
_GAPPED = re.compile(
    rf"^(?P<verb>rate|give)\s+(?P<first>.+?\s{_STARS})\s*(?:,\s*|\s+)(?:and|&)\s+"
    rf"(?P<second>(?!(?:it|this|that)\b).+?\s{_STARS})\W*$",
    re.I,
)
"""A rating whose verb is said once for two books ("rate Emma 4 and Persuasion 5")."""


def clauses(text: str) -> list[str]:
    """The requests a message joins with ",", ";", "and", "then", "also", or [] when it is one.

    A joint counts only where the words after it start with a request verb, so "War and
    Peace" and "find books and add them ..." (no verb of their own) are not split here.
    """
    gapped = _GAPPED.match(text.strip())
    if gapped:
        verb = gapped.group("verb")
        return [f"{verb} {gapped.group('first')}", f"{verb} {gapped.group('second')}"]
    parts = [p.strip(" ,;-") for p in _BREAK.split(text)]
    parts = [p for p in parts if p]
    return parts if len(parts) > 1 else []


_JOINT = re.compile(r"(\s*,\s*(?:and\s+)?|\s+and\s+|\s+&\s+)", re.I)


def titles_in(run: str, is_title: Callable[[str], bool]) -> list[str]:
    """The catalog titles a run of names joined by "and" or commas holds.

    The whole run when it is one title or cannot be split into titles ("War and Peace" stays
    whole); otherwise the fewest parts that are each a title ("War and Peace and Crime and
    Punishment" -> both novels).
    """
    run = run.strip()
    pieces = _JOINT.split(run)
    words, joints = pieces[0::2], pieces[1::2]
    if len(words) < 2 or is_title(run):
        return [run]
    best: list[list[str] | None] = [[]] + [None] * len(words)
    for end in range(1, len(words) + 1):
        for start in range(end):
            before = best[start]
            if before is None:
                continue
            part = words[start] + "".join(joints[i] + words[i + 1] for i in range(start, end - 1))
            if is_title(part) and (best[end] is None or len(before) + 1 < len(best[end] or [])):
                best[end] = [*before, part.strip()]
    found = best[len(words)]
    return found if found is not None and len(found) > 1 else [run]


_AFTER_TITLE = re.compile(
    r"^(?:for|because|since|as|so|but|though|although|please|pls|which|who|that|from|off|to|"
    r"onto|into|on|in|now|again|too)\b",
    re.I,
)
"""Words that end a title and start what is said about it ("Sophie's World for my nephew")."""


def title_within(run: str, is_title: Callable[[str], bool]) -> str | None:
    """The catalog title a book reference holds with more words around it, or None.

    A title followed by punctuation or a word that starts a new phrase ("Gilead? Quiet,
    reflective", "Sophie's World for my nephew"); in a reference written all in lower case,
    where no capital marks the title, also the longest run of two words or more that is one
    ("finished caliban's war need that vibe").
    """
    words = run.split()
    if len(words) < 2:
        return None
    lower = run == run.casefold()
    for size in range(len(words) - 1, 0, -1):
        for start in range(len(words) - size + 1):
            part = " ".join(words[start : start + size])
            ends = part[-1] in "?!.,;:" or (
                start + size < len(words) and _AFTER_TITLE.match(words[start + size])
            )
            if not ((start == 0 and ends) or (lower and size >= 2)):
                continue
            if is_title(part.strip(" ?!.,;:")):
                return part.strip(" ?!.,;:")
    return None
