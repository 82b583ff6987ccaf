"""Slots: the values a request carries besides what it asks for.

Comment text (after "that", a colon, "saying", or in quotes), people, dates relative to the
clock (dateparser), statuses ("finished", "close out" -> done), priorities, counts, list
names ("called X" ends before "with", "and", "that"), star ratings.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from lectern.adapters.understanding.scaffold import NUMBER, clean, number

_STATUS_WORDS: tuple[tuple[str, str], ...] = (
    (r"\b(?:in\s+review|under\s+review|ready\s+for\s+review|to\s+review)\b", "in_review"),
    (
        r"\b(?:in\s+progress|underway|started|start(?:ing)?\s+(?:working|on)|working\s+on)\b",
        "in_progress",
    ),
    (r"\b(?:to\s*-?\s*do|back\s+to\s+todo|not\s+started|reopen(?:ed)?)\b", "todo"),
    (
        r"\b(?:done|finished|complete[d]?|close[d]?\s*(?:out)?|wrap(?:ped)?\s+up|tick(?:ed)?\s+off|"
        r"sorted|over)\b",
        "done",
    ),
)
_PRIORITY = re.compile(r"\b(urgent|critical|high|medium|normal|low)\b(?:\s+priority)?", re.I)
_PRIORITY_WORDS = {"critical": "urgent", "normal": "medium"}
_STARS = re.compile(
    r"\b(?P<n>[1-5]|one|two|three|four|five)\s*(?:/\s*5|out of (?:5|five)|stars?)", re.I
)
_STARS_BARE = re.compile(r"(?:rating|rate|score)\b.*?\b(?P<n>[1-5])\b\W*$", re.I)
_COMMENT = re.compile(
    r"(?:\b(?:saying|that says|that)\b|:|\s[-–—]\s)\s*(?P<text>.+)$|"
    r"[\"“'‘](?P<quoted>[^\"”'’]{2,})[\"”'’]",
    re.I,
)
_LIST_NAME = re.compile(
    r"\b(?:called|named|titled|name it|call it)\s+(?P<name>.+?)(?=\s+(?:with|and|that|which|"
    r"containing|for\s+(?:me|my))\b|[,.!?]|$)",
    re.I,
)
_COUNT = re.compile(rf"\b{NUMBER}\b", re.I)
_DATE = re.compile(
    r"\b(?:by|before|due|on|until)\s+(?P<when>(?:next\s+)?(?:monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|week|month)|tomorrow|today|end of (?:the )?(?:week|month)|"
    r"\d{4}-\d{2}-\d{2}|in \d+ days?)\b",
    re.I,
)


def status_of(text: str) -> str | None:
    """The task status a message names, in the store's words."""
    for pattern, status in _STATUS_WORDS:
        if re.search(pattern, text, re.I):
            return status
    return None


def priority_of(text: str) -> str | None:
    """The priority a message names (low, medium, high, urgent)."""
    found = _PRIORITY.search(text)
    if not found:
        return None
    word = found.group(1).casefold()
    return _PRIORITY_WORDS.get(word, word)


def stars_of(text: str) -> int | None:
    """A star rating (1-5) the message gives."""
    found = _STARS.search(text) or _STARS_BARE.search(text)
    return number(found.group("n"), 0) or None if found else None


def comment_of(text: str) -> str | None:
    """The text to post: quoted, or after a colon, a dash, "that" or "saying"."""
    found = _COMMENT.search(text)
    if not found:
        return None
    body = clean(found.group("quoted") or found.group("text"))
    return body or None


def list_name_of(text: str) -> str | None:
    """A list's name after "called"/"named", ending before "with", "and" or "that"."""
    found = _LIST_NAME.search(text)
    return clean(found.group("name")) or None if found else None


def count_of(text: str, default: int) -> int:
    """A count in digits or words ("two", "a few"), else `default`."""
    found = _COUNT.search(text)
    return number(found.group("n"), default) if found else default


def due_date_of(text: str, now: datetime) -> str | None:
    """A due date ("by Friday", "next week") as YYYY-MM-DD, relative to `now`."""
    found = _DATE.search(text)
    if not found:
        return None
    import dateparser  # type: ignore[import-untyped]

    when = found.group("when")
    parsed = dateparser.parse(
        when,
        settings={"RELATIVE_BASE": now.replace(tzinfo=None), "PREFER_DATES_FROM": "future"},
    )
    if parsed is None:
        return None
    day: date = parsed.date()
    return day.isoformat()
