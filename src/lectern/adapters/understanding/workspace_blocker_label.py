"""A blocker said as a label: "blocker: <why>", "new impediment - <why>", "blocked: <why>".

The label names what the words after it are: a new blocker, on the task the words name or
else the task in view (the page's, or the one the last reply showed); with neither, which
task is asked. A label never resolves anything: words that say a blocker has ended
("blocker: sorted, the vendor replied") are asked about, as recording them as a new blocker
or resolving an open one would both be a guess; so are words that say none holds ("blocker:
none", "impediment: none at the moment", "blocked: not anymore, the vendor replied"): "None"
is no blocker's description. A question after the label ("blocker: what's
holding up the drill?") is no blocker to record.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.scaffold import clean

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
    r"\b(?:resolv\w*|clos\w*|clear\w*|lift\w*|unblock\w*|remov\w*|remediat\w*|fixed|sorted|"
    r"solved|gone|moot|no\s+longer|any\s*more|(?:is|are|was)\s+(?:done|over)|can\s+go|"
    r"lev[ée]e?|r[ée]solu\w*|resuel\w*)\b",
    re.I,
)
"""Words that say a blocker has ended (or asks for it to end): never read as a new one."""
_NONE = re.compile(
    r"^(?:none|no|nothing|nope|nah|not\s+any\s*more|not\s+now|all\s+(?:good|clear)|n/?a)\b"
    r"(?:\s+(?:at\s+(?:the\s+)?moment|right\s+now|for\s+now|currently|so\s+far|yet|today|"
    r"any\s*more|that\s+i\s+know\s+of))?(?=\s*(?:$|[,.;!:()–—-]))",
    re.I,
)
"""A label's words that say nothing blocks ("none", "nope, all good", "not anymore, ...")."""


def says_no_blocker(text: str) -> bool:
    """Whether a "blocker: ..." label says there is none ("blocker: none", "blocked: nope").

    "blocker: no access to the console" names one; "blocker: no" and "impediment: none at
    the moment" say none holds: a look-up or a question, never a new blocker.
    """
    found = _LABEL.match(text.strip())
    return found is not None and _NONE.match(found.group("d").strip()) is not None


NO_BLOCKER = Clarification(
    "Then there is no new blocker to record. Should I resolve an open blocker? Say which, and "
    "what resolved it.",
    (),
)
"""The answer to a label that says none holds: nothing is recorded, nothing resolved."""


def ended(text: str) -> bool:
    """Whether a message says a blocker ended (or asks it to), or that none holds."""
    return bool(ENDED.search(text)) or says_no_blocker(text)


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
_STILL_HOLDS = re.compile(
    r"n['’]?t\b|\b(?:not|never|still|yet|no\s+(?:word|reply|answer|news|response))\b", re.I
)


def new_blocker_said(text: str) -> bool:
    """Whether a message says a new blocker and nothing of one ending.

    "blocker: ...", "log that as a blocker": never read as resolving an open one.
    """
    if ended(text):
        return False
    return labelled_blocker(text) is not None or bool(_NEW_BLOCKER.search(text))


def still_holds(text: str) -> bool:
    """Whether a message says a hold-up goes on and nothing of a blocker ending.

    "the board still hasn't approved it": no open blocker is resolved by it.
    """
    if ended(text):
        return False
    return bool(_STILL_HOLDS.search(text))


KEEP_AS_BLOCKER = re.compile(
    r"\s*[,;.–—-]?\s*(?:so\s+)?(?:please\s+)?(?:(?:can|could|would)\s+(?:you|u)\s+)?(?:please\s+)?"
    r"(?:log|record|note|flag|add|put|raise|file|register|mark)\s+(?:that|this|it)(?:\s+down)?"
    r"(?:\s+as\s+(?:a\s+|an\s+)?(?:blocker|impediment))?(?:\s+please)?\W*$",
    re.I,
)
"""The request that closes a told blocker ("..., log that as a blocker"): no part of it."""


_TOLD_SUBJECT = re.compile(
    r"^(?:we|they|i|he|she|it|its|it['’]s|there['’]?s|the\s+\w+|vendor|legal|"
    r"[a-z]+\s+(?:confirmed|approved|gave|granted|sent|signed|said|agreed|replied))\b",
    re.I,
)


def told_after_name(text: str, blocker: str) -> str:
    """What is told after a blocker's name with no mark between ("... window we got a slot").

    The words after the last of the name's own words said, when they start a clause of
    their own (a subject: "we", "they", "the vendor"); else nothing.
    """
    own = set(re.findall(r"[a-z]{4,}", blocker.casefold()))
    words = list(re.finditer(r"\S+", text))
    said = [i for i, w in enumerate(words) if re.sub(r"\W", "", w.group().casefold()) in own]
    if not said or said[-1] + 3 >= len(words):
        return ""
    rest = clean(text[words[said[-1] + 1].start() :])
    return rest[:1].upper() + rest[1:] if _TOLD_SUBJECT.match(rest) else ""
