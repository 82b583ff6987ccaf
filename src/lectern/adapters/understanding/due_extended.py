"""A due date moved by an amount ("push the runbook out a week"), not to a day.

"push it out a week", "give the runbook an extra week", "extend the hunt by 3 days", "the
drill needs another week": the new date is the task's due date plus the amount, so the task
is looked up first and the change proposed from what its record says (a task with no due
date is asked about: from when?). "two more weeks from today" counts from today instead, and
needs no look-up. Only whole days, weeks and months, counted in words or digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from lectern.adapters.understanding.scaffold import NUMBER_WORDS

_COUNT = (
    r"(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}|a\s+couple(?:\s+of)?|"
    r"a\s+few)"
)
_MORE = r"(?P<more>another|an\s+extra|one\s+more|a\s+further)"
_UNIT = r"(?P<unit>day|week|month)s?"
_AMOUNT = (
    rf"(?:{_MORE}\s+|(?:by\s+)?{_COUNT}\s+(?:(?:more|extra|additional|further)\s+)?)"
    rf"{_UNIT}(?:\s+(?:more|extra|longer))?"
)
_FROM_TODAY = r"(?P<today>\s+(?:from|starting)\s+(?:today|now))?"
_DEADLINE = r"(?:(?:the\s+)?(?:deadline|due\s+date)\s+(?:on|of|for)\s+)?"
MOVED = re.compile(
    rf"^(?:(?:please|pls|can\s+you|could\s+you|let['’]?s)\s+)?"
    rf"(?:push|move|bump|shift|slide|slip|extend|kick|give)\s+{_DEADLINE}(?P<t>[^:;\"“”]+?)"
    rf"(?:['’]s\s+(?:deadline|due\s+date))?\s+(?:(?:out|back)\s+)?(?:by\s+)?"
    rf"{_AMOUNT}(?:\s+(?:to|on|onto)\s+(?:it|its\s+deadline|the\s+deadline))?{_FROM_TODAY}"
    r"(?:\s*[,.;!]?\s*(?:please|pls|thanks|thx|ty))?\W*$",
    re.I,
)
"""The verb's object is the task: "push the runbook out a week", "give it 2 more days"."""
NEEDS = re.compile(
    rf"^(?P<t>[^:;\"“”]+?)\s+(?:needs|could\s+(?:use|do\s+with)|will\s+need|is\s+going\s+to\s+need)\s+"
    rf"{_AMOUNT}{_FROM_TODAY}\W*$",
    re.I,
)
"""The task says what it needs: "the drill needs another week"."""

_EARLIER = re.compile(r"\b(?:forward|earlier|sooner|up|ahead)$", re.I)
"""A direction that may mean earlier: left to be asked."""


@dataclass(frozen=True, slots=True)
class Moved:
    """A due date moved by an amount: the task's words and how far."""

    task: str
    """The words naming the task ("the runbook", "it")."""
    days: int
    months: int
    from_today: bool
    """Counted from today ("two more weeks from today"), not from the task's due date."""

    def applied(self, start: date) -> date:
        """The day `start` moved by the amount.

        A month is the same day of the next month, or that month's last day.
        """
        if not self.months:
            return start + timedelta(days=self.days)
        month = start.month - 1 + self.months
        year, month = start.year + month // 12, month % 12 + 1
        for day in (start.day, 30, 29, 28):
            try:
                return date(year, month, day)
            except ValueError:
                continue
        raise ValueError(start)  # unreachable: every month has a 28th


def due_moved(text: str) -> Moved | None:
    """The task and the amount a message moves its due date by, or None."""
    found = MOVED.match(text.strip()) or NEEDS.match(text.strip())
    if found is None or _EARLIER.search(found["t"]):
        return None  # "move the runbook forward a week": earlier, as often as later
    said = " ".join((found["n"] or "").casefold().split())
    if said == "a few":
        return None  # how many is not said: left to be asked
    if not said or said in ("a", "an"):
        count = 1  # "another week", "an extra week", "a week"
    else:
        count = int(said) if said.isdigit() else NUMBER_WORDS[said]
    if not 0 < count <= 12:
        return None
    unit = found["unit"].casefold()
    days = count * (7 if unit == "week" else 1) if unit != "month" else 0
    months = count if unit == "month" else 0
    return Moved(found["t"].strip(), days, months, bool(found["today"]))
