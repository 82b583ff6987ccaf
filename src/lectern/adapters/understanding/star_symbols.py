"""A rating given as star symbols, said in words ("⭐⭐⭐⭐ X" -> "4 stars for X").

Found on dev19: "⭐⭐⭐⭐ The Remains of the Day", "Bird Box ★★☆☆☆ — the ending was silly" and
"⭐⭐⭐" alone on a book's page were asked back or left undone. A row of filled stars is how
people write a grade on every review site, so it is read as that many stars; the empty ones
(☆) only pad the row to five. The row is read only when it is plain: filled stars then empty
ones, one to five filled, a padded row five long, and one row in the message. A row longer
than five, a filled star after an empty one, a half ("★★★½") or two rows is left as written,
so the rules ask.

Where the row stands decides what it grades: alone, the book in view ("rate it N stars");
before a title, that title (the grade-first order `rating_said` reads); after a title, that
title, with a remark after a stop kept as a remark. A row inside a request of another kind
("show me ⭐⭐⭐⭐⭐ books") or after words that are no title ("I'd say ⭐⭐⭐") is left alone.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.compound import ACTION_VERB, LOOKUP_VERB

_FILLED = "⭐★🌟"
_EMPTY = "☆✩"
_ROW = re.compile(rf"(?:[{_FILLED}{_EMPTY}]\ufe0f?(?:[ \u200d]?(?=[{_FILLED}{_EMPTY}]))?)+")
"""A row of star symbols (an emoji's variation selector and single spaces between kept in)."""
_HALF = re.compile(r"^\s*(?:½|1/2|\.5|and\s+a\s+half|\+)", re.I)
"""A half after the row ("★★★½"): no whole grade, asked."""
_GRADES = r"(?:rate|give|gave|i(?:['’]d|\s+would)?\s+give)\b"
"""The verbs that already ask for the grade ("rate X ⭐⭐⭐⭐" only needs the number said)."""
_NOT_A_TITLE = re.compile(
    rf"^(?:(?:i|we|it|this|that|he|she|they|my|our|me|us|you|u|any|some|only|all|more|"
    rf"what|which|who|how|why|is|are|do|does|did|can|could|would|will|should|books?|"
    rf"{LOOKUP_VERB}|{ACTION_VERB})\b|.*\?)",
    re.I,
)
"""Words that open a request, a question or a sentence of the reader's: no title before a row."""
_SEPARATOR = r"\s*[:\-–—|]?\s*"
_VERDICT = re.compile(r"\s(?:deserves?|earns?|merits?|gets?|got|is|was|scores?|rated)$", re.I)
"""A verb before the row: whose grade it is depends on it."""
_AFTER = re.compile(r"^\s*(?:$|[.,;:!—–|(]|\s-+\s)")
"""What may follow a row after a title: nothing, or a stop before a remark."""


def _grade(row: str) -> int | None:
    """The stars a row gives, or None when the row is no plain grade."""
    symbols = re.sub(r"[\s\ufe0f\u200d]", "", row)
    found = re.fullmatch(rf"(?P<filled>[{_FILLED}]+)(?P<empty>[{_EMPTY}]*)", symbols)
    if found is None:
        return None  # "☆★★", "★☆★": which grade is unclear
    filled, empty = len(found["filled"]), len(found["empty"])
    if filled > 5 or (empty and filled + empty != 5):
        return None  # "⭐⭐⭐⭐⭐⭐⭐" or "★★☆": not a row out of five
    return filled


def star_symbols(text: str) -> str | None:
    """The message with its row of stars said as a grade in words, or None when it has none.

    None as well when the row is unclear or stands where it grades nothing named.
    """
    rows = list(_ROW.finditer(text))
    if len(rows) != 1:
        return None
    row = rows[0]
    stars = _grade(row.group(0))
    before, after = text[: row.start()].strip(), text[row.end() :]
    if stars is None or _HALF.match(after):
        return None
    grade = f"{stars} star" + ("s" if stars > 1 else "")
    before = re.sub(rf"(?:{_SEPARATOR}|\s*=\s*)$", "", before)  # "Dune: ★★★★", "beloved = ★★★★★"
    if _VERDICT.search(before):
        # "X deserves ⭐⭐⭐⭐⭐" is the reader's verdict (`rating_said` reads it); "X gets ⭐⭐⭐"
        # may tell someone else's grade and is left as written
        own = re.search(r"\b(?:deserves?|earns?|merits?)$", before, re.I)
        return f"{before} {grade}{after.rstrip()}" if own else None
    if re.match(rf"^(?:please\s+)?{_GRADES}", before, re.I):
        return f"{before} {grade}{after}"  # "rate Dune ⭐⭐⭐⭐": the verb is said
    if not before:
        rest = re.sub(rf"^{_SEPARATOR}", "", after).strip()
        if not re.sub(r"[\W_]", "", rest):
            return f"rate it {grade}"  # "⭐⭐⭐" on a book's page: the book in view
        rest = re.sub(r"^(?:for|to|on)\s+", "", rest, flags=re.I)  # "⭐⭐⭐⭐ for Emma"
        if _NOT_A_TITLE.match(rest):
            return None
        return f"{grade} for {rest}"  # "⭐⭐⭐⭐ The Remains of the Day"
    if _NOT_A_TITLE.match(before) or not _AFTER.match(after):
        return None
    return f"rate {before} {grade}{after.rstrip()}"  # "Bird Box ★★☆☆☆ — the ending was silly"
