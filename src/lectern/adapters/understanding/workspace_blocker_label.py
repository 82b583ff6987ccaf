"""A blocker said as a label: "blocker: <why>", "new impediment - <why>", "blocked: <why>".

The label names what the words after it are: a new blocker, on the task the words name or
else the task in view (the page's, or the one the last reply showed); with neither, which
task is asked. A label never resolves anything: words that say a blocker has ended
("blocker: sorted, the vendor replied") are asked about, as recording them as a new blocker
or resolving an open one would both be a guess. A question after the label ("blocker: what's
holding up the drill?") is no blocker to record.
"""

from __future__ import annotations

import re

_LABEL = re.compile(
    r"^(?:(?:a\s+)?new\s+)?(?:blocker|impediment|blocked)\s*(?::|\s[-–—]\s|[-–—]\s)\s*(?P<d>\S.*)$",
    re.I,
)
_ASKS = re.compile(
    r"\?\s*$|^(?:what|which|who|whose|why|how|when|where|is|are|any|anything|do|does|did|"
    r"can|could|should)\b",
    re.I,
)
ENDED = re.compile(
    r"\b(?:resolved|resolve|cleared|clear(?:ed)?\s+now|lifted|unblocked|fixed|sorted|solved|"
    r"gone|moot|no\s+longer|not\s+(?:blocked|an?\s+issue|a\s+problem)\s+any\s*more|"
    r"(?:is|are|was)\s+(?:done|over|closed)|can\s+(?:be\s+closed|go))\b",
    re.I,
)
"""Words that say a blocker has ended: never read as a new one."""


def labelled_blocker(text: str) -> str | None:
    """The words a "blocker: ..." label leads, as said (first letter capitalised), or None."""
    found = _LABEL.match(text.strip())
    if found is None:
        return None
    said = found.group("d").strip().rstrip(".!").strip()
    if not said or _ASKS.search(said):
        return None
    return said[:1].upper() + said[1:]


_NEW_BLOCKER = re.compile(
    r"\b(?:(?:log|record|add|raise|flag|file|open|register|create|note|put)\s+(?:(?:that|this|it)"
    r"(?:\s+down)?\s+as\s+)?(?:a\s+|an\s+)?(?:new\s+)?(?:blocker|impediment)|new\s+(?:blocker|"
    r"impediment))\b",
    re.I,
)
_RESOLVE_WORDS = re.compile(
    r"\b(?:resolv\w*|clos\w*|clear\w*|lift\w*|unblock\w*|remov\w*|remediat\w*|any\s*more|"
    r"solved|lev[ée]e?|r[ée]solu\w*|resuel\w*)\b",
    re.I,
)
_STILL_HOLDS = re.compile(
    r"n['’]?t\b|\b(?:not|never|still|yet|no\s+(?:word|reply|answer|news|response))\b", re.I
)


def new_blocker_said(text: str) -> bool:
    """Whether a message says a new blocker and nothing of one ending.

    "blocker: ...", "log that as a blocker": never read as resolving an open one.
    """
    if ENDED.search(text) or _RESOLVE_WORDS.search(text):
        return False
    return labelled_blocker(text) is not None or bool(_NEW_BLOCKER.search(text))


def still_holds(text: str) -> bool:
    """Whether a message says a hold-up goes on and nothing of a blocker ending.

    "the board still hasn't approved it": no open blocker is resolved by it.
    """
    if ENDED.search(text) or _RESOLVE_WORDS.search(text):
        return False
    return bool(_STILL_HOLDS.search(text))
