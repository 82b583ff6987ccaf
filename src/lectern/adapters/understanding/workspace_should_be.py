"""Changes said as what should be so, clause by clause, read as the changes themselves.

"The vendor window blocker should be marked resolved (we got Saturday), and the Check Point
patch task should be marked done", "make sure bob owns the hunt, and it should be high
priority": no clause starts with a change's verb, so no split found the second request and
the whole was read as one change (the first), the second dropped unsaid or taken for the
first's words. Each clause joined by "and" that says what should be so is rewritten as the
change ("resolve the vendor window blocker (...)", "mark the patch task done", "assign the
hunt to bob", "make it high priority"), and so is a due date given ("give the runbook a
due date on 20 November"); a clause said otherwise stays as typed. Only a
change said outright: "marked"/"set"/"moved" before a state, a priority or a due date, and
an owner; "the drill should be done by now" is no request.
"""

from __future__ import annotations

import re

_SHOULD_BE = re.compile(
    r"^(?P<t>(?:the|my|our|this|that|it)\b.*?)\s+(?:should|must|needs?\s+to|has\s+to|ought\s+to)"
    r"\s+(?:now\s+)?be\s+(?:(?P<how>marked|set|moved|put|made)\s+(?:(?:to|as|in(?:to)?)\s+)?)?"
    r"(?P<v>.+?)[\s.!]*$",
    re.I | re.S,
)
_STATE = re.compile(
    r"^(?P<s>in\s+progress|in\s+review|to\s*-?do|done|finished|completed?|closed)\b(?P<rest>.*)$",
    re.I | re.S,
)
_RESOLVED = re.compile(r"^(?:resolved|cleared|lifted)\b(?P<rest>.*)$", re.I | re.S)
_FIELD = re.compile(
    r"^(?:(?:a\s+)?(?:low|medium|high|urgent|critical)(?:\s+priority)?|due\s+\S.*)\W*$", re.I
)
_OWNS = re.compile(
    r"^(?:please\s+)?(?:make\s+sure|ensure)\s+(?!(?:it|this|that|the|a|an|we|they|everyone|"
    r"somebody|someone)\b)(?P<p>[\w.-]+)\s+(?:owns|takes|is\s+on|is\s+(?:the\s+)?owner\s+of|"
    r"(?:is|gets)\s+assigned(?:\s+to)?)\s+(?P<t>.+?)[\s.!]*$",
    re.I | re.S,
)
_GIVEN_A_DAY = re.compile(
    r"^(?:please\s+)?(?:give|put|add|stick)\s+(?P<t>.+?)\s+an?\s+(?:due\s+date|deadline)\s+"
    r"(?:(?:of|on|for|as|by)\s+)?(?P<when>\S.*?)[\s.!]*$",
    re.I | re.S,
)
"""A due date given ("give the runbook a due date on 20 November"): the task due that day."""
_JOINT = re.compile(
    r"\s*,?\s+and\s+(?=(?:the|my|our|this|that|it|make\s+sure|ensure|give|put|add|stick)\b)",
    re.I,
)
_HIDDEN = re.compile(r"\([^)]*\)|[\"“][^\"”]*[\"”]|(?<!\w)['‘][^'’]+['’](?!\w)")
"""Words aside or quoted: no joint between clauses is inside them."""


def _as_asked(clause: str) -> str | None:
    """One clause said as what should be so, as the change; None when it is not one."""
    given = _GIVEN_A_DAY.match(clause)
    if given is not None:
        return f"set {given.group('t')} due {given.group('when')}"
    owns = _OWNS.match(clause)
    if owns is not None:
        return f"assign {owns.group('t')} to {owns.group('p')}"
    should = _SHOULD_BE.match(clause)
    if should is None:
        return None
    task, value, how = should.group("t"), should.group("v"), should.group("how")
    resolved = _RESOLVED.match(value)
    if how and resolved is not None:
        return f"resolve {task}{resolved.group('rest')}"
    state = _STATE.match(value)
    if how and state is not None:
        return f"mark {task} {state.group('s')}{state.group('rest')}"
    if _FIELD.match(value):
        return f"make {task} {value}"
    return None


def said_as_changes(text: str) -> str | None:
    """The message with each clause said as what should be so rewritten as its change.

    None when no clause is so said; the other clauses stay as typed (a request's own words
    read as before, words that are none keep the split from standing).
    """
    hidden = _HIDDEN.sub(lambda m: "\0" * len(m.group()), text)
    cuts = [(m.start(), m.end()) for m in _JOINT.finditer(hidden)]
    starts = [0, *(end for _, end in cuts)]
    ends = [*(start for start, _ in cuts), len(text)]
    clauses = [text[a:b].strip(" ,") for a, b in zip(starts, ends, strict=True)]
    rewritten = [_as_asked(clause) for clause in clauses]
    if not any(rewritten):
        return None
    return " and ".join(new or old for new, old in zip(rewritten, clauses, strict=True))
