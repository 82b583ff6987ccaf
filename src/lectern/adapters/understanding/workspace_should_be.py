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
_PUSHED = re.compile(
    r"^(?:pushed|moved|bumped|postponed|delayed|rescheduled|shifted|slipped)(?:\s+(?:back|out))?"
    r"\s+(?:to|until|till)\s+(?P<when>\S.*?)[\s.!]*$",
    re.I | re.S,
)
"""'the runbook needs to be pushed to the end of the month': its due date moved."""
_DAYISH = re.compile(
    r"^(?:the\s+)?(?:end\s+of|start\s+of|beginning\s+of|mid|next|this|tomorrow|today|monday|"
    r"tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|"
    r"sun|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|"
    r"june|july|august|september|october|november|december|\d)",
    re.I,
)
"""A day said after "pushed to" (a state or a place is no due date)."""
_GIVEN = re.compile(
    r"^(?:given|handed(?:\s+over)?|assigned|reassigned|passed(?:\s+over)?)\s+to\s+"
    r"(?P<p>[\w.-]+(?:\s+[A-Z][\w.-]*)?)[\s.!]*$",
    re.S,
)
"""'the hunt should be given to Alice': an owner, the person's name alone."""
_NOTED = re.compile(
    r"^(?:noted|recorded|mentioned|logged|written\s+down|commented)\s+(?:on|in|against|under)\s+"
    r"(?P<t>.+?)\s+that\s+(?P<c>\S.*?)[\s]*$",
    re.I | re.S,
)
"""'it should be noted on the drill that HR wants it after the 16th': a comment on it."""
_HEADING = re.compile(
    r"^(?:ok(?:ay)?\W+)?(?:a\s+few|a\s+couple(?:\s+of)?|couple(?:\s+of)?|some|few|two|three|"
    r"several)\s+(?:quick\s+)?(?:things|items|updates|changes|bits|points)\W*$",
    re.I,
)
"""'A few things.': a sentence that only says requests follow."""
_SENTENCE = re.compile(r"(?<=[.!;])\s+(?:(?:and|also|then|plus)\s+)?(?=\S)", re.I)

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
    noted = _NOTED.match(value)
    if noted is not None and re.fullmatch(r"it|this|that", task, re.I):
        return f"note on {noted.group('t')} that {noted.group('c')}"
    moved = f"{how} to {value}" if how and how.casefold() == "moved" else value
    pushed = _PUSHED.match(moved) if not how or moved != value else None
    if pushed is not None and _DAYISH.search(pushed.group("when")):
        return f"push {task} to {pushed.group('when')}"
    given = _GIVEN.match(value) if not how else None
    if given is not None:
        return f"give {task} to {given.group('p')}"
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
    by_sentence = _sentences_as_changes(text)
    if by_sentence is not None:
        return by_sentence
    hidden = _HIDDEN.sub(lambda m: "\0" * len(m.group()), text)
    cuts = [(m.start(), m.end()) for m in _JOINT.finditer(hidden)]
    starts = [0, *(end for _, end in cuts)]
    ends = [*(start for start, _ in cuts), len(text)]
    clauses = [text[a:b].strip(" ,") for a, b in zip(starts, ends, strict=True)]
    rewritten = [_as_asked(clause) for clause in clauses]
    if not any(rewritten):
        return None
    return " and ".join(new or old for new, old in zip(rewritten, clauses, strict=True))


def _sentences_as_changes(text: str) -> str | None:
    """Two or more sentences, each what should be so, as their changes joined; else None.

    "A few things. The runbook needs to be pushed to the end of the month. The hunt should be
    given to Alice. And it should be noted on the drill that HR wants it after the 16th.": a
    heading sentence is dropped; any other sentence not so said leaves the message as it was.
    """
    sentences = [s.strip() for s in _SENTENCE.split(text.strip()) if s.strip()]
    if sentences and _HEADING.match(sentences[0]):
        sentences = sentences[1:]
    if len(sentences) < 2:
        return None
    rewritten = [_as_asked(s.rstrip(".!; ")) for s in sentences]
    if not all(rewritten):
        return None
    return " and ".join(r for r in rewritten if r)
