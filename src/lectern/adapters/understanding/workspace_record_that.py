"""A change asked as a fact to record: "record that <a task is in a state / is blocked>".

"Would you kindly record that the NetScaler review has moved back to in progress", "please
note that the runbook is now in review", "log that the VPN project is blocked pending the
board's approval": the statement after "record that" is the change itself, said as what
is now true. A state said reads as setting it; "blocked <why>" (or "waiting on <what>") as
a blocker with that why. Any other statement (a comment's words, a report) is left to the
other rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.workspace_told_request import told_request

_RECORD = r"^(?:please\s+)?(?:record|note|log|register|mark\s+down)\s+(?:down\s+)?that\s+"
_STATE_SAID = re.compile(
    rf"{_RECORD}(?P<t>.+?)\s+(?:has\s+(?:been\s+)?(?:moved|gone|put|set)|is\s+(?:now\s+)?"
    r"(?:back\s+)?|was\s+(?:moved|put|set))\s*(?:back\s+)?(?:to|in|into)?\s*"
    r"(?P<s>in\s+progress|in\s+review|review|to\s*-?\s*do)(?:\s+again)?\W*$",
    re.I,
)
_BLOCKED_SAID = re.compile(
    rf"{_RECORD}(?P<t>.+?)\s+(?:is|are|has\s+been|was|got)\s+(?:now\s+|still\s+)?"
    r"(?:(?:blocked|held\s+up|stuck)\s+(?P<why>(?:pending|by|on|until|waiting\s+(?:for|on)|"
    r"because\s+of|due\s+to)\b.{6,}?)|"
    # "record that the hunt is waiting on the firewall logs": a task waiting is held up
    r"(?P<waits>waiting\s+(?:for|on)\s+.{4,}?))\W*$",
    re.I,
)


def record_that(text: str, tasks: Sequence[str] = ()) -> str:
    """The change a "record that <statement>" asks for, as an imperative; others as typed.

    A change told as a consequence or a requirement is read too (`workspace_told_request`).
    """
    state = _STATE_SAID.match(text.strip())
    if state is not None:
        return f"set {state.group('t')} to {state.group('s')}"
    blocked = _BLOCKED_SAID.match(text.strip())
    if blocked is not None:
        why = re.sub(r"^by\s+", "", blocked.group("why") or blocked.group("waits"), flags=re.I)
        return f"add a blocker on {blocked.group('t')}: {why[:1].upper()}{why[1:]}"
    return told_request(text, tasks)
