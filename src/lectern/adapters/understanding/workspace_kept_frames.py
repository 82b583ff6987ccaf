"""A text to keep on a task, said in a frame the rules did not read: a comment or a blocker.

Found on dev19 (wrong actions). "add this to the check point task: <a pasted log line>,
exploitation attempt from ..." created a task titled by the log line: "add this to <task>:
<text>" puts the text on that task, a comment, whatever the text holds (log lines, code,
backticks). "There is a blocking on the phishing drill: the HR direction has not validated
the date." was recorded as a comment, and "impediment on the NetScaler review — case #88213
still open" was asked: a blocking, a blocking point, an impediment or a blocker on a task,
then why, records a blocker. "another blocker: legal hasn't signed off on the drill emails"
names no task before its reason; the task the reason names (one, by its rarer words) is the
one blocked.

Each frame is said again in the words the rules read ("comment on <task>: <text>", "add a
blocker to <task>: <why>"), only when the task resolves to one stored task; otherwise the
message is left as it is (and asked about).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.mentions import covered, find_in, resolve
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB

_INTERJECTION = (
    r"^(?:(?:oh|ugh|argh|great|wonderful|fantastic|lovely|well|so|ok(?:ay)?|fyi|heads[\s-]+up|"
    r"also|and|btw|hey|hi|sigh|yay)\b[\s,.…!:;–—-]*)*"
)
"""Words before the frame that ask nothing ("oh wonderful, another blocker: ...")."""
_TEXT_START = r"\s*(?::|[–—]|\s-+|\.\.\.|…)\s*"
"""Where the kept text starts: a colon, a dash, an ellipsis."""

_ADD_THIS = re.compile(
    _INTERJECTION + r"(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?"
    r"(?:add|put|paste|drop|stick|attach|post|log|note|append)\s+"
    r"(?:this|that|these|the\s+following|the\s+below|this\s+(?:note|info|bit|line|log|output)|"
    r"these\s+(?:notes|lines|logs))\s+"
    r"(?:to|on|onto|in|into|under)\s+(?P<task>[^:–—\n]+?)" + _TEXT_START + r"(?P<text>\S.*)$",
    re.I | re.S,
)
"""'add this to the check point task: <text>': the text, on the task named before it."""

BLOCKER_NOUN = (
    r"(?:blocking\s+(?:point|issue|item)|blocking|blocker|blockage|impediment|roadblock|"
    r"show[\s-]?stopper)"
)
"""The words people use for a blocker (also read by `workspace_cleared_told`)."""
_BLOCKER_ON = re.compile(
    _INTERJECTION
    + r"(?:(?:there\s+is|there['’]s|theres|we\s+have|we['’]ve\s+got|we\s+got|got|new)\s+)?"
    r"(?:(?:a|an|another|one\s+more|new|a\s+new)\s+)?"
    + BLOCKER_NOUN
    + r"(?:\s+(?:on|for|with|against|in)\s+(?P<task>[^:–—\n,;.!?]+?))?"
    + _TEXT_START
    + r"(?P<why>[^?]*[^?\s])[\s.!]*$",
    re.I | re.S,
)
"""'a blocking on the phishing drill: <why>', 'impediment on X — <why>', 'another blocker:
<why>'."""


_TELLS = re.compile(
    r"\b(?:is|are|was|were|has|have|had|got|gone|resolved|solved|cleared|lifted|fixed|removed|"
    r"sorted|over|done|closed|no\s+longer)\b",
    re.I,
)
"""Words that make the part before the reason a sentence about the blocker ("impediment on
the patch is gone -- resolve it"): no new blocker is asked."""
_GONE = re.compile(
    r"\b(?:resolved|solved|cleared|lifted|gone|unblocked|no\s+longer|sorted\s+out)\b", re.I
)
"""A reason that tells a blocker ended ("blocker: vendor window cleared"): left to be asked."""
_ASKS = re.compile(rf"^(?:please\s+|pls\s+)?{CHANGE_VERB}\b", re.I)
"""A "reason" that is a request of its own ("... -- resolve it")."""


def kept_on_task(text: str, tasks: Sequence[str], projects: Sequence[str] = ()) -> str | None:
    """The message said as a comment or a blocker on one task, else None.

    Words that name a project as well as a task ("blocker for phishing awareness: ...", a
    blocker on the project) are left to the rules that know projects.
    """
    said = text.strip()
    added = _ADD_THIS.match(said)
    if added is not None:
        task = _task_named(added.group("task"), tasks, projects)
        return f"comment on {task}: {added.group('text').strip()}" if task else None
    blocker = _BLOCKER_ON.match(said)
    if blocker is None:
        return None
    where = blocker.group("task")
    why = blocker.group("why").strip()
    if (where and _TELLS.search(where)) or _ASKS.match(why) or _GONE.search(why):
        return None
    if where:
        task = _task_named(where, tasks, projects)
    elif find_in(why, projects).name is None:
        # no task before the reason: the one task the reason itself names
        task = find_in(why, tasks).name
    else:
        task = None
    return f"add a blocker to {task}: {why}" if task else None


def _task_named(where: str, tasks: Sequence[str], projects: Sequence[str]) -> str | None:
    """The task `where` names, unless a project holds as many of its words."""
    task = find_in(where, tasks).name
    if task is None:
        return None
    project = resolve(where, projects).name if projects else None
    if project is not None and covered(where, project) >= covered(where, task):
        return None
    return task
