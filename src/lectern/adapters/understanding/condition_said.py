"""A change asked on a condition of a task's stored state (issue 26, dev20).

"if bob hasn't started the phishing drill yet, give it to alice instead", "if there's still
nobody on the hunt task, put bob on it", "bump the patch to urgent if it's overdue", "unless
the runbook is done, leave a comment on it": the reader does not know the state and asks for
the change only where it holds. The record tells: the task is looked up first and the change
proposed only when the condition holds on what the look-up returned
(`llm/workspace_condition.py`); otherwise nothing changes and the reply says why.

`conditional(text)` splits a message into its condition and its change, either order ("if /
unless / as long as / provided <condition>, <change>", "<change> if / unless <condition>").
`checked(condition)` reads the condition as a predicate on a task's record: its status
(started, done, in review, todo, open), its assignee (nobody, someone, a named person), being
overdue, or its priority; None when it is none of these ("if he's free", "once bob
confirms"), and such a change is asked back, never made unconditionally. Polite frames ("if
you could assign it to bob", "if possible", "if that's ok") and "what if" are no conditions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from lectern.adapters.understanding.compound import ACTION_VERB
from lectern.adapters.understanding.request_parts import QUOTED, words_begin
from lectern.adapters.understanding.slots import priority_of

_LEAD = r"^\s*(?:(?:ok(?:ay)?|so|hi|hey|and|also|then|oh|but)[\s,]+)*"
_IF = (
    r"(?P<word>if|unless|as\s+long\s+as|so\s+long\s+as|provided(?:\s+that)?|providing(?:\s+that)?)"
)
_NOT_A_CONDITION = re.compile(
    r"^(?:you|u|ya|we\s+can|i\s+may|possible|poss|needed|necessary|need\s+be|required|"
    r"convenient|so\b|not\s+too\s+much|it(?:['’]s|\s+is)\s+(?:ok|okay|alright|fine|acceptable|"
    r"not\s+too)|that(?:['’]s|\s+is)?\s+(?:ok|okay|alright|fine|all\s+right)|ok|okay|any\b|"
    r"anything\b|there\s+is\s+time|time\s+permits|this\s+is\b|i\s+(?:could|can|might|may)\b)",
    re.I,
)
"""Conditions that are politeness or a hedge ("if you could", "if possible", "if that's ok")."""
_CHANGE_VERB = (
    # the lexicon's verbs of a change, and the workspace's
    rf"(?:{ACTION_VERB}|hand|assign|reassign|set|close|complete|finish|bump|raise|lower|"
    r"switch|push|leave|post|reopen|flag|tick|pass|take|comment|note|escalate|downgrade|resolve)"
)
_POLITE = r"(?:(?:please|pls|can|could|would|will|you|u|just|kindly|go\s+ahead\s+and|then)\s+)*"
_CHANGE_START = re.compile(
    rf"(?:(?P<cut>\s*,\s*(?:then\s+)?|\s+then\s+)|\s+)(?P<change>{_POLITE}{_CHANGE_VERB}\b.*)$",
    re.I,
)
_LEADING = re.compile(rf"{_LEAD}(?:only\s+)?{_IF}\s+(?P<rest>.+)$", re.I)
_TRAILING = re.compile(
    rf"^(?P<change>{_POLITE}{_CHANGE_VERB}\b.+?)\s*,?\s+(?:but\s+)?(?:only\s+)?{_IF}\s+"
    r"(?P<condition>[^,;!?]+?)\s*[.!]*$",
    re.I,
)
_OTHERWISE_NOTHING = re.compile(
    r"\s*[,;.]?\s*(?:and\s+)?(?:otherwise|else|if\s+not)\s*,?\s*(?:just\s+)?(?:don['’]?t|do\s+not)"
    r"\s+(?:touch|change|do)\s+(?:it|anything|a\s+thing)(?:\s+\w+)?\s*[.!]*$|"
    r"\s*[,;.]?\s*(?:and\s+)?(?:otherwise|else|if\s+not)\s*,?\s*(?:just\s+)?"
    r"(?:leave\s+it(?:\s+(?:alone|be|as\s+it\s+is))?|do\s+nothing|nothing)\s*[.!]*$",
    re.I,
)
"""An else that changes nothing ("otherwise don't touch it", "if not, leave it")."""
_MIXED = re.compile(
    r"\b(?:otherwise|else|if\s+not|either\s+way|regardless|in\s+any\s+case|whatever\s+happens|"
    r"anyway)\b",
    re.I,
)
"""An else with a change of its own, or a change made either way: read as before."""


@dataclass(frozen=True, slots=True)
class Conditional:
    """A change and the condition it is asked on."""

    condition: str
    change: str
    negated: bool
    """Asked "unless": the change holds where the condition does not."""


def conditional(text: str) -> Conditional | None:
    """The condition and the change of a message asking a change on a condition, or None."""
    said = " ".join(text.split()).strip()
    said = _OTHERWISE_NOTHING.sub("", said)
    found = _leading(said) or _trailing(said, words_begin(said))
    if found is None or _MIXED.search(found.change) or _MIXED.search(found.condition):
        return None
    if _NOT_A_CONDITION.match(found.condition):
        return None
    return found


def _leading(said: str) -> Conditional | None:
    opened = _LEADING.match(said)
    if opened is None:
        return None
    rest = opened["rest"]
    split = _CHANGE_START.search(rest)
    while split is not None:
        condition = rest[: split.start()].strip(" ,")
        if condition and (split["cut"] is not None or checked(condition) is not None):
            return Conditional(condition, split["change"].strip(), _unless(opened["word"]))
        split = _CHANGE_START.search(rest, split.start() + 1)
    return None


def _trailing(said: str, words_begin: int) -> Conditional | None:
    found = _TRAILING.match(said)
    if found is None:
        return None
    at = found.start("word")
    if at >= words_begin or any(a < at < b for a, b in (q.span() for q in QUOTED.finditer(said))):
        # "comment on the drill: we go ahead if the runbook is done": the comment's words
        return None
    return Conditional(found["condition"].strip(), found["change"].strip(), _unless(found["word"]))


def _unless(word: str) -> bool:
    return word.casefold() == "unless"


# --- the condition as a predicate on the record -------------------------------------------


class _Untold(Exception):
    """The record cannot tell the condition (a malformed due date): neither held nor not."""


Record = Mapping[str, Any]
Test = Callable[[Record, date, str | None], bool]
"""Whether a task's record holds a condition, on a day, with a person's member id."""


@dataclass(frozen=True, slots=True)
class Check:
    """A condition read as a test of one task's record."""

    task: str
    """The words naming the task ("the phishing drill", "it")."""
    test: Test
    """Whether the record holds the condition, on a day, with `who` as a member's id."""
    who: str | None
    """The person the condition names ("bob", "me"), to resolve to a member's id."""
    said: str
    """The condition as the reply says it ("the task is still todo")."""


_NEG = r"(?:is\s*n['’]?t|is\s+not|isnt|has\s*n['’]?t|has\s+not|hasnt|was\s*n['’]?t|not)"
_STILL = r"(?:(?:still|already|yet|now|even)\s+)?"
_STATES: dict[str, tuple[str, ...]] = {
    r"to\s*-?\s*do|not\s+(?:yet\s+)?started|untouched|new": ("todo",),
    r"started|in\s+progress|underway|under\s+way|ongoing|being\s+worked\s+on": (
        "in_progress",
        "in_review",
        "done",
    ),
    r"in\s+review|under\s+review|being\s+reviewed|up\s+for\s+review": ("in_review",),
    r"done|finished|complete|completed|closed|wrapped\s+up": ("done",),
    r"open|not\s+(?:yet\s+)?(?:done|finished|closed|complete)": (
        "todo",
        "in_progress",
        "in_review",
    ),
}
_STATE = "|".join(f"(?:{words})" for words in _STATES)
_PRIORITY = r"(?P<prio>low|medium|normal|high|urgent|critical)"
_YET = r"(?:\s+(?:yet|already|still|now|so\s+far|at\s+all))*"
_BE = (
    r"(?:\s*['’]s\s+|\s+(?:is|was|has\s+been)\s+|\s+(?P<neg2>is\s*n['’]?t|isnt|was\s*n['’]?t)\s+)"
    r"(?P<neg>not\s+)?"
)
"""The verb "to be", maybe denied ("is", "'s", "isn't", "is not")."""
_NOBODY_WORDS = r"nobody|no\s*one|noone"
_ON = r"(?:on|assigned\s+to|working\s+on|has|owns|taking)"
_FORMS: list[tuple[str, str]] = [
    # "the drill is still todo", "the runbook is already done", "it's not in review"
    (rf"^(?P<t>.+?){_BE}{_STILL}(?P<state>{_STATE}){_YET}$", "state"),
    (rf"^(?P<t>.+?)\s+(?P<neg>{_NEG})\s+{_STILL}(?:been\s+)?(?P<state>{_STATE}){_YET}$", "state"),
    # "nobody has started the drill yet", "no one's touched the hunt"
    (
        rf"^(?P<who>{_NOBODY_WORDS})(?:\s*['’]s|\s+has)?\s+{_STILL}"
        rf"(?:started|touched|picked\s+up)\s+(?P<t>.+?){_YET}$",
        "untouched",
    ),
    # "bob hasn't started the drill yet", "alice has finished the runbook"
    (
        rf"^(?P<who>[a-z]+)\s+(?:(?P<neg>{_NEG}|didn['’]?t|did\s+not)\s+)?{_STILL}(?:has\s+)?"
        r"(?P<verb>start|started|finish|finished|close|closed|complete|completed)\s+"
        rf"(?P<t>.+?){_YET}$",
        "started_by",
    ),
    # "there's still nobody on the hunt", "nobody is on it yet", "someone is on it"
    (
        rf"^(?:there(?:['’]s|\s+is)\s+)?{_STILL}"
        rf"(?P<who>{_NOBODY_WORDS}|somebody|someone|anyone|anybody)"
        rf"(?:\s*['’]s|\s+is)?\s+{_STILL}{_ON}\s+(?P<t>.+?){_YET}$",
        "anyone",
    ),
    # "the hunt is still unassigned", "it's not assigned to anyone", "the drill has no owner"
    (
        rf"^(?P<t>.+?){_BE}{_STILL}(?P<who>unassigned|unowned|"
        rf"assigned(?:\s+to\s+(?:anyone|anybody|someone))?){_YET}$",
        "assigned",
    ),
    (rf"^(?P<t>.+?)\s+(?:has|got)\s+{_STILL}(?P<who>no|an?)\s+(?:owner|assignee){_YET}$", "owner"),
    (
        rf"^(?P<t>.+?)\s+(?:still\s+)?(?:has\s*n['’]?t|has\s+not|doesn['’]?t\s+have)\s+"
        rf"(?:got\s+)?(?:an?\s+)?(?:owner|assignee){_YET}$",
        "no_owner",
    ),
    # "bob is still on the drill", "the drill is still with bob", "it's assigned to alice"
    (
        rf"^(?P<who>[a-z]+){_BE}{_STILL}(?:on|assigned\s+to|working\s+on)\s+(?P<t>.+?){_YET}$",
        "person",
    ),
    (rf"^(?P<t>.+?){_BE}{_STILL}(?:with|assigned\s+to|on)\s+(?P<who>[a-z]+){_YET}$", "person"),
    # "the patch is overdue", "it's past its due date", "the drill isn't late"
    (
        rf"^(?P<t>.+?){_BE}{_STILL}(?:overdue|late|past\s+(?:its\s+)?due(?:\s+date)?|behind)"
        rf"{_YET}$",
        "overdue",
    ),
    # "the hunt is still low priority", "the drill's priority is high", "it isn't urgent"
    (
        rf"^(?P<t>.+?)['’]s\s+priority\s+(?:is|'s)\s+(?P<neg>not\s+)?{_STILL}{_PRIORITY}{_YET}$",
        "priority",
    ),
    (
        rf"^(?P<t>.+?){_BE}{_STILL}(?:at\s+|set\s+to\s+)?{_PRIORITY}(?:\s+priority|\s+prio)?"
        rf"{_YET}$",
        "priority",
    ),
]
_COMPILED = [(re.compile(pattern, re.I), kind) for pattern, kind in _FORMS]
_NOBODY = re.compile(r"^(?:nobody|no\s*one|noone|unassigned|unowned|not\s+assigned.*|no)$", re.I)
_NO_PERSON = {"it", "that", "this", "he", "she", "they", "there", "what", "who", "which"}


def _state_of(words: str) -> tuple[str, ...]:
    for pattern, states in _STATES.items():
        if re.fullmatch(pattern, words, re.I):
            return states
    return ()


def _overdue(record: Record, today: date) -> bool:
    due = record.get("due_date")
    if not isinstance(due, str) or record.get("status") == "done":
        return False
    try:
        return date.fromisoformat(due[:10]) < today
    except ValueError:
        raise _Untold(f"its due date ({due}) is not one I can read") from None


def _denied(test: Test) -> Test:
    return lambda record, day, who: not test(record, day, who)


def checked(condition: str) -> Check | None:
    """The condition as a test of a task's record, or None when it is not one."""
    words = condition.strip(" ,.!?").removeprefix("the case that ")
    for pattern, kind in _COMPILED:
        found = pattern.match(words)
        if found is None:
            continue
        fields = found.groupdict()
        negated = bool(fields.get("neg")) != bool(fields.get("neg2"))
        test = _test(kind, fields)
        if test is None:
            continue
        final = _denied(test) if negated else test
        who = fields.get("who")
        named = who if kind in ("started_by", "person") else None
        return Check(fields["t"].strip(), final, named, words)
    return None


def _test(kind: str, fields: dict[str, Any]) -> Test | None:
    who = (fields.get("who") or "").casefold()
    if kind == "state":
        states = _state_of(fields["state"])
        return lambda r, _d, _w: r.get("status") in states
    if kind == "started_by":
        verb = fields["verb"].casefold()
        states = ("in_progress", "in_review", "done") if verb.startswith("start") else ("done",)
        return lambda r, _d, w: r.get("assignee_id") == w and r.get("status") in states
    if kind in ("anyone", "assigned", "owner"):
        nobody = bool(_NOBODY.match(who))
        return lambda r, _d, _w: (r.get("assignee_id") is None) == nobody
    if kind == "untouched":
        return lambda r, _d, _w: r.get("status") == "todo"
    if kind == "no_owner":
        return lambda r, _d, _w: r.get("assignee_id") is None
    if kind == "person":
        if who in _NO_PERSON:
            return None
        return lambda r, _d, w: r.get("assignee_id") == w
    if kind == "overdue":
        return lambda r, d, _w: _overdue(r, d)
    if kind == "priority":
        wanted = priority_of(fields["prio"])  # "normal" is medium, "critical" urgent
        return lambda r, _d, _w: r.get("priority") == wanted
    return None
