"""What the reader says they are doing now to a task: "I'm taking the hunt and starting on it".

"I'm taking the login hunt and starting on it now" tells two changes in the present
progressive: the reader takes the task (it is assigned to them) and starts it (it moves to
in progress). Read as it was, the task's name ran on to "starting on it now". Each such
part is said as its change: "assign the login hunt to me and start it". Only when what is
taken names a stored task: "I'm taking a look at the hunt", "I'm taking the day off" and
"I'm starting to think the drill is pointless" are no changes and stay as they were.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, find_in

_TAKING = re.compile(
    r"^(?:ok(?:ay)?\s*,?\s+|so\s+)?i['’]?m\s+(?:now\s+)?(?:taking(?:\s+over)?|grabbing|claiming|"
    r"picking\s+up)\s+(?P<task>(?!a\s|an\s|some\s|the\s+day\b|time\b|notes?\b|over\b)"
    r"(?:(?!\s+and\s)[^,;.!?])+?)"
    r"(?:\s*,?\s+and\s+(?:i['’]?m\s+)?(?P<start>starting|beginning|kicking\s+off)"
    r"(?:\s+(?:work(?:ing)?\s+)?on)?\s+(?:it|that(?:\s+one)?)"
    r"(?:\s+(?:now|today|right\s+away|straight\s+away|this\s+morning|this\s+afternoon))?)?\W*$",
    re.I,
)


def doing_now(text: str, names: Names) -> str:
    """`text` with "I'm taking X (and starting on it)" said as its changes."""
    said = _TAKING.match(text.strip())
    if said is None or find_in(said.group("task"), names.of("task")).name is None:
        return text
    changes = f"assign {said.group('task')} to me"
    return f"{changes} and start it" if said.group("start") else changes
