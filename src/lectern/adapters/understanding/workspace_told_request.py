"""A request told as a consequence or a requirement, read as the change it asks for.

Two ways people ask for a change without its verb:

- a report, then what it allows: "fyi vendor confirmed the hotfix is live, so the check
  point patch task can close". The report is why; the request is the clause after "so" (its
  object can close, be closed, be marked done, be resolved). The meaning reader took the
  report's words ("vendor", "window") for the whole and resolved the vendor's blocker instead
  of completing the task (a wrong action). A blocker that "can be closed" is resolved with
  the report as its resolution ("we've got a window thursday night"), never the request's
  own words. Only when the words before "so" tell (no verb of a change, no question): in
  "resolve the vendor blocker so the patch can close" the clause after is the reason.
- a blocker told, then asked to be kept: "drill blocked. HR sign-off pending. log it.", "the
  runbook is stopped because we are waiting for legal. Register a blocker, please." The
  request alone ("log it") had no words; what was told is the blocker's task and reason.
- a request in the passive: "a blocker should be recorded on the NetScaler task: <why>",
  "all mentions of the maintenance window should be searched for". Only for what adds or
  reads (a blocker, a comment, a search), where the passive asks as plainly as the active.
- a deadline said as what must be true: "the phishing drill has to be finished by the end of
  the month, make sure that's on it". "Has to be done by <day>" is the task's due date; the
  word "finished" had been read as completing the task (a wrong action).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.mentions import find_in
from lectern.adapters.understanding.workspace_clipped import unclipped

_ASKS = re.compile(
    r"^(?:(?:fyi|btw|ok|okay|so|update|heads\s+up)\W+)*(?:please|pls|can|could|would|will|"
    r"let['’]?s|make|set|mark|move|push|assign|reassign|unassign|give|hand|put|add|create|"
    r"close|complete|finish|resolve|rename|comment|note|log|raise|flag|reopen|start|take|"
    r"drop|remove|delete|update|change)\b",
    re.I,
)
"""Words before "so" that ask for a change themselves: the clause after is their reason."""

_SO_CAN_CLOSE = re.compile(
    r"^(?P<report>.{8,}?)[\s,;.–—-]+(?:so|which\s+means|meaning|that\s+means)\s+"
    r"(?:that\s+means\s+)?(?P<x>(?:(?!\b(?:so|and|but)\b)[^,;.?!])+?)\s+(?:can|could|may|should)"
    r"\s+(?:now\s+|finally\s+|probably\s+|safely\s+)?(?:be\s+)?(?P<how>closed?|completed?|"
    r"resolved?|finish(?:ed)?|lifted|cleared|ticked\s+off|marked\s+(?:as\s+)?"
    r"(?:done|complete|completed|closed|resolved)|wrapped\s+up)"
    r"(?:\s+(?:now|out|off|too|as\s+well))*\W*$",
    re.I | re.S,
)
"""'<report>, so <task or blocker> can close' ("... so that blocker can be closed")."""

_LEAD = re.compile(r"^(?:(?:fyi|btw|ok|okay|update|heads\s+up)\b[\s:,.!-]*)+", re.I)

_DUE_BY = re.compile(
    r"^(?P<t>(?:(?!\b(?:has|have|needs?|must|should|is|are)\b)[^,;:?!])+?)\s+"
    r"(?:has\s+to|have\s+to|needs?\s+to|must|should|is\s+to|['’]s\s+got\s+to|has\s+got\s+to)\s+"
    r"be\s+(?:finished|done|completed?|closed|wrapped\s+up|ready|delivered|sorted|in\s+place)"
    r"\s+(?:by|before|no\s+later\s+than)\s+(?P<when>[^,;.?!]+?)"
    r"(?:\s*[,;.–—-]+\s*(?:please\s+|pls\s+)?(?:make\s+sure|ensure|put|set|add|note|record|log)"
    r"\s+(?:that['’]?s?|it|this)\b[^?]*?)?[\s.!]*$",
    re.I,
)
"""'<task> has to be finished by <day>[, make sure that's on it]': the task's due date."""


_BLOCKED_THEN_LOG = re.compile(
    r"^(?P<t>(?:(?!\b(?:is|are|was|has|got)\b)[^,;:.?!])+?)\s+(?:(?:is|are|was|has\s+been|got)\s+)?"
    r"(?:now\s+|still\s+)?(?:blocked|stuck|stopped|on\s+hold|held\s+up|halted|paused)"
    r"(?:\s*[.:;,–—-]+\s*|\s+(?:because(?:\s+of)?|by|since|as)\s+|\s+(?=(?:on|pending|due\s+to|"
    r"until|waiting)\s))"
    r"(?P<why>[^?]{6,}?)[\s.;,!–—-]+(?:(?:so\s+|pls\s+|please\s+|can\s+you\s+|could\s+you\s+)+)?"
    r"(?:log|record|register|add|raise|flag|track|note|open|create|put\s+(?:in|down))\s+"
    r"(?:it|that|this|one|a\s+blocker|the\s+blocker|a\s+blocker\s+for\s+it)"
    r"(?:\s*,?\s*(?:please|pls|thanks|thank\s+you))?\W*$",
    re.I | re.S,
)
"""'<task> blocked. <why>. log it.': a blocker on the task, for the reason told."""

_PASSIVE = re.compile(
    r"^(?P<o>(?:a|an|one|the)\s+(?:new\s+)?(?:blocker|comment|note)|(?:all\s+)?(?:mentions|"
    r"references)\s+of\s+.+?|.+?)\s+(?:should|must|needs?\s+to|has\s+to|have\s+to|ought\s+to|"
    r"is\s+to|are\s+to)\s+be\s+(?P<v>recorded|logged|registered|added|raised|created|put|"
    r"left|searched(?:\s+for)?|looked\s+up)(?P<rest>(?:\s+|:)\S.*?)?[\s.!]*$",
    re.I | re.S,
)
"""'a blocker should be recorded on <task>: <why>', '<words> should be searched for'."""

_ADDS = re.compile(r"^(?:a|an|one|the)\s+(?:new\s+)?(?P<k>blocker|comment|note)$", re.I)


def _passive_to_active(said: str) -> str | None:
    """The active request a passive one says, for what adds or searches; else None."""
    found = _PASSIVE.match(said)
    if found is None:
        return None
    thing, verb = found.group("o").strip(), found.group("v").casefold()
    rest = (found.group("rest") or "").strip()
    adds = _ADDS.match(thing)
    if adds is not None and not verb.startswith(("searched", "looked")):
        kind = "comment" if adds.group("k").casefold() == "note" else adds.group("k")
        return f"add a {kind} {rest}".rstrip()
    if verb.startswith(("searched", "looked")) and not rest.strip(" .!"):
        return f"search for {thing}"
    return None


_PEOPLE = re.compile(
    r"(?:we|we['’]re|we\s+are|i|i['’]m|i\s+am|they|they['’]re|you|he|she|everyone|"
    r"someone|somebody|the\s+team|our\s+team)",
    re.I,
)
"""Who is stuck, not which task ("we're stuck on one of my tasks can you note that" asks
which task; it had become a blocker on a task called "we're")."""


def told_request(text: str, tasks: Sequence[str] = ()) -> str:
    """The change a consequence or a requirement asks for, as an imperative; else as said.

    `tasks`: the stored tasks, for the one a report names when the change points at it.
    """
    said = text.strip()
    blocked = _BLOCKED_THEN_LOG.match(said)
    if (
        blocked is not None
        and not _ASKS.match(blocked.group("t"))
        and not _PEOPLE.fullmatch(blocked.group("t").strip())
    ):
        why = blocked.group("why").strip(" .;,")
        # "blocked on legal review, log it": what blocks it is "legal review", the "on" is
        # the verb's ("pending", "until", "waiting" carry meaning of their own and stay)
        why = re.sub(r"^on\s+(?=\w)", "", why, flags=re.I)
        return f"add a blocker on {blocked.group('t')}: {why[:1].upper()}{why[1:]}"
    active = _passive_to_active(said)
    if active is not None:
        return active
    due = _DUE_BY.match(said)
    if due is not None and not _ASKS.match(due.group("t")):
        return f"set {due.group('t')} due by {due.group('when')}"
    found = _SO_CAN_CLOSE.match(said)
    if found is None:
        return unclipped(text)
    report = _LEAD.sub("", found.group("report")).strip(" ,;.–—-")
    if not report or _ASKS.match(report) or "?" in report:
        return text  # "resolve the vendor blocker so the patch can close": the reason
    target = re.sub(r"^(?:the|that|this)\s+", "", found.group("x").strip(), flags=re.I)
    if re.search(r"\bblockers?\b", target, re.I):
        return f"resolve the {target}: {report}"
    if re.fullmatch(r"it|one|(?:this|that)(?:\s+one)?", target, re.I):
        # "bob finished the token review, so that one can be ticked off": the one task the
        # report names ("that" was read off above); else "it", the task in view
        named = find_in(report, tasks).name if tasks else None
        return f"close {named}" if named is not None else "close it"
    return f"close the {target}"
