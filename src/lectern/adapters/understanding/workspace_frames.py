"""A workspace change asked as whether it can be done, read as the change itself.

"Would it be possible to add a description to the runbook: X", "any chance you could close
the drill?", "I would like to add a task ...", "can the hunt be due on the 30th": the frame
asks for the change; what follows it is the request the rules read.
How-to questions ("how do I assign tasks?") are no frame: they ask what can be done.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.workspace_should_be import said_as_changes

_PAST_TO_BASE = {
    "took": "take",
    "gave": "give",
    "put": "put",
    "set": "set",
    "made": "make",
    "moved": "move",
    "pushed": "push",
    "bumped": "bump",
    "assigned": "assign",
    "reassigned": "reassign",
    "unassigned": "unassign",
    "closed": "close",
    "marked": "mark",
    "added": "add",
    "changed": "change",
    "handed": "hand",
    "resolved": "resolve",
    "renamed": "rename",
    "completed": "complete",
    "created": "create",
    "raised": "raise",
    "logged": "log",
    "recorded": "record",
}
"""A change wished in the past tense after "if you" ("would it be ok if you took me off X")."""
_PAST = "|".join(_PAST_TO_BASE)

_FRAME = re.compile(
    rf"^(?:(?:hey|hi|so|um+|quick\s+question)\W+)*"
    r"(?:(?:would|will)\s+it\s+be\s+possible|is\s+it\s+possible)\s+(?:for\s+(?:me|you)\s+)?to\s+|"
    r"^(?:is\s+there\s+(?:a|any)\s+way\s+(?:for\s+(?:me|you)\s+)?to|any\s+chance\s+(?:you\s+"
    r"could|to)|do\s+you\s+think\s+you\s+could|would\s+you\s+mind|"
    # "I would like to add a task ...", "we'd like to close the drill": a wish for the change
    r"(?:i|we)\s*(?:would|['’]d)\s+(?:like|love|want)\s+to|(?:i|we)\s+want\s+to|"
    # "would it be ok to add a task", "is it alright if you closed the drill", "would you be
    # so kind as to record ...", "am I allowed to see ...": leave asked, or a courtesy
    r"(?:would|will)\s+it\s+be\s+(?:ok(?:ay)?|alright|all\s+right|fine)\s+(?:if\s+(?:you|we|i)|"
    r"for\s+(?:you|me)\s+to|to)|is\s+it\s+(?:ok(?:ay)?|alright|all\s+right|fine)\s+(?:if\s+"
    r"(?:you|we|i)|for\s+(?:you|me)\s+to|to)|would\s+you\s+(?:be\s+so\s+kind\s+as\s+to|kindly)|"
    r"(?:am\s+i|are\s+we)\s+allowed\s+to|kindly)\s+"
    r"(?=(?:please\s+)?(?:add|set|change|update|give|assign|close|mark|create|move|put|resolve|"
    r"rename|complete|log|comment|describe|edit|write|make|hand|take|push|bump|record|raise|"
    rf"note|{_PAST})\b|(?<=allowed\sto\s)(?:see|view)\b)",
    re.I,
)


_BE = re.compile(
    r"^(?:(?:hey|hi|so)\W+)*(?:can|could|would|should)\s+(?P<t>(?:the|my|our|this|that|it)\b"
    r"(?:(?!\bbe\b).)*?)\s+(?:please\s+)?(?:now\s+)?be\s+(?:(?:set|moved|put|marked)\s+"
    r"(?:to\s+|as\s+|in(?:to)?\s+)?)?(?P<v>.+?)(?:[\s,]+(?:please|pls|thanks|thank\s+you))?"
    r"[\s?.!]*$",
    re.I,
)
"""A change asked as whether the task can be it ("can the hunt be due on 2026-11-30 please")."""
_HAD_DONE = re.compile(
    r"^(?:(?:can|could|would|will)\s+(?:we|you|u|i)\s+)?(?:please\s+)?(?:get|have)\s+"
    r"(?P<body>.+?)[\s?.!]*$",
    re.I,
)
"""A change asked as having it done ("can we get the hunt moved to friday and bob put on
it?"): each clause's object, then its verb's past participle, then the rest."""
_DONE_CLAUSE = re.compile(rf"^(?P<o>\S.*?)\s+(?P<pp>{_PAST})\b(?P<rest>.*)$", re.I)
_PLACE = re.compile(r"\s+(?:on|onto|to|in|into|as|at|for|back)\b", re.I)
_LOOK = re.compile(
    r"^(?:can|could)\s+(?:we|i)\s+(?:please\s+)?(?=(?:list|show|see|view|pull\s+up)\b)", re.I
)
"""A look-up asked as whether we may ("can we list the phishing tasks?")."""
_FIELD = re.compile(r"(?:due|by|(?:a\s+)?(?:low|medium|high|urgent|critical)\b)", re.I)
_STATE = re.compile(r"(?:in\s+progress|in\s+review|to\s*-?do|done|finished|completed?)\W*$", re.I)


def _had_done(text: str) -> str | None:
    """The changes asked as had done, as their verbs ("move the hunt to friday and ..")."""
    had = _HAD_DONE.match(text)
    if had is None:
        return None
    clauses = re.split(r"\s*,?\s+and\s+", had.group("body"))
    done = [_DONE_CLAUSE.match(clause) for clause in clauses]
    if not all(done) or len(clauses) > 3:
        return None
    if any(
        d and d.group("pp").casefold() in ("put", "set") and not _PLACE.match(d.group("rest"))
        for d in done
    ):
        return None  # "have bob put a note on it": bob puts, nothing is put on bob
    return " and ".join(
        f"{_PAST_TO_BASE[d.group('pp').casefold()]} {d.group('o')}{d.group('rest')}"
        for d in done
        if d is not None
    )


def unframed_change(text: str) -> str:
    """The change a framed request asks for, without a question mark; others as typed."""
    should = said_as_changes(text)
    if should is not None:
        return should  # "the patch task should be marked done": "mark the patch task done"
    had = _had_done(text)
    if had is not None:
        return had
    look = _LOOK.match(text)
    if look is not None:
        plain = text[look.end() :]
        verb, _, rest = plain.partition(" ")
        plain = f"show me {rest}" if verb.casefold() in ("see", "view") else plain
        return plain[:-1] if plain.endswith("?") else plain
    be = _BE.match(text)
    if be is not None and _FIELD.match(be.group("v")):
        return f"make {be.group('t')} {be.group('v')}"  # "make the hunt due on 2026-11-30"
    if be is not None and _STATE.fullmatch(be.group("v")):
        return f"set {be.group('t')} to {be.group('v')}"
    plain = _FRAME.sub("", text, count=1)
    if plain == text:
        return text
    verb, _, rest = plain.partition(" ")
    if verb.casefold() in ("see", "view"):
        plain = f"show me {rest}"  # "am I allowed to see which tasks ...": a look asked
    elif verb.casefold() in _PAST_TO_BASE:
        plain = f"{_PAST_TO_BASE[verb.casefold()]} {rest}"  # "... if you took me off X"
    return plain[:-1] if plain.endswith("?") else plain
