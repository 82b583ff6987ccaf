"""A request in the register of a control log: "please record ...", with an audit's nouns.

Auditors and compliance staff ask for a change as an entry to record, and call stored things
by their trade's names: an exception or impediment is a blocker, a remediation item (or a
control, a finding) is a task, the control owner is the assignee, remediated is resolved.
Each construct is read as the imperative the other rules read; anything else is left as typed.

- "record the following: <request>": the request.
- "record on <task> that <statement>": the statement as a comment on the task (the words
  after "that" are kept as said: "passed with no exceptions" names no blocker).
- "record that <task> has been completed[, and mark it closed]": the task completed.
- "record that the exception '<B>' is remediated: <why>", "record that exception as
  remediated: <why>": the blocker resolved, the why its resolution (a new blocker had been
  recorded instead: a wrong action).
- "record an impediment on <task>: <why>": a blocker on the task (it had gone on the task's
  project).
- "assign <task> to <person> as control owner": the assignment; the role is no part of it.
- "which actions are you able to perform on my behalf": what the assistant can do.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names

_LEAD = (
    # "for audit purposes, please record ...": what the entry is for comes first
    r"^(?:for\s+(?:the\s+)?(?:audit|compliance|record|evidence)(?:\s+(?:purposes|file|trail|"
    r"record))?\s*,?\s*)?(?:(?:please|kindly|could\s+you|can\s+you|would\s+you|will\s+you)\s+)*"
)
# "reccord", "recrod": the register's verb as typed in a hurry
_VERB = r"(?:rec+o?r+d|recrod|note|log|register|document|minute|enter)"
_RECORD = rf"{_LEAD}{_VERB}\s+(?:down\s+)?"
_MARK = rf"{_LEAD}(?:{_VERB}|mark|flag|show|set|update)\s+(?:down\s+)?"
_QUOTED = r"[\"“'‘][^\"”'’]+[\"”'’]"

_TASK_NOUN = (
    r"(?:remediation|corrective[\s-]action|audit|action|open)\s+(?:item|action|task|point)|"
    r"control|finding|item|ticket|task|work\s+item"
)
"""What an audit calls a task (before its quoted title, or after "this")."""
_BLOCKER_NOUN = r"(?:e(?:xc|x|cx)e?p?tion|impedi?ment|impedement|obstacle|blocker|issue|dependency)"
"""What an audit calls a blocker ("exeption" as typed)."""
_RESOLVED = (
    r"(?:rem[ei]diated|resolved|cleared|lifted|closed(?:\s+out)?|mitigated|addressed|removed|"
    r"withdrawn|settled)"
)
_DONE = r"(?:completed|complete|done|finished|closed(?:\s+out)?|rem[ei]diated|implemented)"

_FOLLOWING = re.compile(
    rf"{_RECORD}(?:the\s+following|as\s+follows)\s*(?:[:;,–—-]+\s*|"
    # "record the following impediment on X: ..." is an impediment, read below
    rf"\s+(?!(?:new\s+)?{_BLOCKER_NOUN}\b))(?P<rest>\S.*)$",
    re.I | re.S,
)
_ITEM = rf"(?:{_QUOTED}|(?:this|that|the)\s+(?:{_TASK_NOUN})(?:\s+{_QUOTED})?)"
_ON_THAT = re.compile(
    rf"{_RECORD}(?:on|against|in|under)\s+(?P<t>{_ITEM}|it|(?:(?!\bthat\b)[^:;,])+?)\s+"
    r"that\s+(?P<said>\S.*?)\W*$",
    re.I | re.S,
)
_WHAT_ON = re.compile(
    # "record the control test results on 'X': passed, no exceptions": what, where, the words
    rf"{_RECORD}(?P<what>(?:the|our|my)\s+(?:(?!\b(?:on|against|for|under)\b)[^:;\"“‘'])+?)\s+"
    rf"(?:on|against|for|under)\s+(?P<t>{_ITEM})\s*[:–—-]\s*(?P<said>\S.*)$",
    re.I | re.S,
)
_BLOCKER_REF = (
    rf"(?:(?:the|this|that)\s+(?:open\s+)?{_BLOCKER_NOUN}\s*(?:{_QUOTED}|(?:on|about|for)\s+"
    rf"(?:(?!\b(?:is|as|was|has)\b)[^:;,])+?)?|(?:(?:the|this|that)\s+(?:[\w-]+\s+){{0,2}})?"
    rf"{_QUOTED})"
)
"""A blocker by an audit's noun, or a quoted name (a blocker only when one is stored so)."""
_RESOLVED_SAID = re.compile(
    rf"{_MARK}(?:that\s+(?=(?:the|this|that)\s|[\"“'‘]))?(?P<b>{_BLOCKER_REF})\s+"
    rf"(?:as\s+(?:now\s+|having\s+been\s+|being\s+)?|(?:is|was)\s+(?:now\s+)?|has\s+(?:now\s+)?"
    rf"been\s+)(?:fully\s+)?{_RESOLVED}"
    r"(?:\s*[:;,–—-]+\s*|\s+(?:because|since|as|now\s+that|given\s+that)\s+)?(?P<why>.*?)\W*$",
    re.I | re.S,
)
_CLOSE_NOUN = re.compile(
    rf"{_LEAD}(?P<v>close(?:\s+out)?|clear|lift|resolve|remove|withdraw|rem[ei]diate)\s+"
    # the rules' own "blocker" stays theirs
    rf"(?P<d>the|this|that)\s+(?:open\s+)?(?!blocker\b){_BLOCKER_NOUN}\b",
    re.I,
)
"""'close the exception 'X', ...': the blocker closed, said by an audit's noun."""
_DONE_SAID = re.compile(
    rf"{_RECORD}that\s+(?P<t>.+?)\s+(?:has\s+(?:now\s+)?been|is(?:\s+now)?|was)\s+"
    rf"(?:fully\s+|successfully\s+)?{_DONE}"
    r"(?:\s*(?:,|and|,\s*and)\s*(?:please\s+)?(?:mark|set|close|flag|move)\s+(?:it|this|that)"
    r"(?:\s+(?:as\s+|to\s+)?(?:closed|done|complete|completed|resolved))?)?"
    # ", with evidence in CHG-2201": what shows it, no part of the change
    r"(?:\s*[,;–—-]\s*(?:with|see|per|as\s+per|evidence|ref(?:erence)?)\b[^?]*)?\W*$",
    re.I | re.S,
)
_IMPEDIMENT = re.compile(
    rf"{_LEAD}(?:{_VERB}|raise|open|add|file)\s+(?:an?|one|the\s+following|a\s+new|an\s+open)\s+"
    rf"(?!blocker\b|issue\b|dependency\b){_BLOCKER_NOUN}\s+(?P<p>on|against|for|to|in)\s+"
    rf"(?P<t>{_ITEM}|(?:(?![:–—]).)+?)\s*(?P<rest>(?:[:–—]|\s-\s|,?\s*(?:as|because|since|"
    r"pending|until|due\s+to)\b).*)$",
    re.I | re.S,
)
_AS_OWNER = re.compile(
    r"(?P<to>\bto\s+\S+)\s+as\s+(?:the\s+|its\s+)?(?:control|process|risk|remediation|task|"
    r"action|item)?\s*owner\b",
    re.I,
)
_ACTIONS_ASKED = re.compile(
    rf"{_LEAD}(?:(?:state|tell\s+me|list|confirm|describe|explain|set\s+out|clarify)\s+)?"
    r"(?:which|what)\s+(?:actions|operations|changes|functions|things)\s+"
    # asked ("are you able to") or told ("(tell me) which changes you are able to")
    r"(?:(?:(?:are|were)\s+you|you\s+are|you\s+were)\s+(?:able|allowed|permitted|authori[sz]ed|"
    r"entitled)\s+to\s+|(?:can|could|do|may|will)\s+you\s+|you\s+(?:can|could|may|will)\s+)"
    r"(?:perform|carry\s+out|take|do|make|execute|undertake|complete)\b(?:(?!\?).)*\??\s*$",
    re.I | re.S,
)
"""'which actions are you able to perform on the workspace on my behalf[, for the audit]?'"""
_OWNER_IS = re.compile(
    rf"{_RECORD}(?:that\s+)?the\s+(?:control\s+|process\s+|risk\s+)?owner\s+(?:of|for)\s+"
    r"(?P<t>.+?)\s+(?:is|will\s+be|has\s+become)\s+(?:now\s+)?(?P<p>\w[\w.-]*?)\W*$",
    re.I | re.S,
)
"""'record that the control owner for X is now Bob': an assignment."""
_FIELD_AS = re.compile(
    rf"{_RECORD}the\s+(?P<f>due\s+date|deadline|target\s+date|priority)\s+(?:of|for|on)\s+"
    r"(?P<t>.+?)\s+as\s+(?P<v>[^?]+?)\W*$",
    re.I | re.S,
)
"""'record the due date of X as 30 November': the field set to the value."""
_IN_VIEW = re.compile(rf"^(?:this|that)\s+(?:{_TASK_NOUN})$|^it$", re.I)
_NOUN_BEFORE_QUOTE = re.compile(
    rf"^(?:the\s+)?(?:{_TASK_NOUN}|{_BLOCKER_NOUN})\s+(?P<q>{_QUOTED})$", re.I
)


def _task(said: str) -> str:
    """The task a register's words name, as the rules read it ("the control 'X'" -> 'X')."""
    said = said.strip()
    if _IN_VIEW.match(said):
        return "this task"
    noun = _NOUN_BEFORE_QUOTE.match(said)
    return noun.group("q") if noun is not None else said


def _blocker(said: str) -> str:
    """The blocker a register's words name ("that exception" -> "that blocker")."""
    said = said.strip()
    quoted = re.search(_QUOTED, said)
    if quoted is not None:
        return f"the blocker {quoted.group()}"
    return re.sub(rf"\b{_BLOCKER_NOUN}\b", "blocker", said, count=1, flags=re.I)


def _stored(quoted: str, names: Names, kind: str) -> bool:
    bare = quoted.strip("\"“”'‘’ ").casefold()
    return any(name.casefold() == bare for name in names.of(kind))


def _names_blocker(said: str, names: Names) -> bool:
    """Whether words name a blocker: by an audit's noun, or quoting a stored one."""
    quoted = re.search(_QUOTED, said)
    return bool(re.search(rf"\b{_BLOCKER_NOUN}\b", said, re.I)) or (
        quoted is not None and _stored(quoted.group(), names, "blocker")
    )


def stored_blocker_quoted(text: str, names: Names) -> str | None:
    """The stored blocker a message quotes by its name, if any: spoken of, never a new one."""
    for quoted in re.finditer(_QUOTED, text):
        if _stored(quoted.group(), names, "blocker"):
            return quoted.group()[1:-1]
    return None


def registered(text: str, names: Names) -> str:
    """The change a request in a control log's register asks for; others as typed."""
    said = text.strip()
    following = _FOLLOWING.match(said)
    if following is not None:
        said = following.group("rest").strip()
    said = _AS_OWNER.sub(lambda m: m.group("to"), said)
    if _ACTIONS_ASKED.match(said):
        return "what can you do?"
    resolved = _RESOLVED_SAID.match(said)
    if resolved is not None:
        ref = resolved.group("b")
        # a quoted name without an audit's noun is a blocker only when it is one ("record
        # that 'X' is closed" of a task is its completion)
        if _names_blocker(ref, names):
            why = resolved.group("why").strip()
            return f"resolve {_blocker(ref)}" + (f": {why}" if why else "")
    done = _DONE_SAID.match(said)
    if done is not None and _names_blocker(done.group("t"), names):
        return f"resolve {_blocker(done.group('t'))}"  # a blocker "completed" is lifted
    if done is not None:
        return f"complete {_task(done.group('t'))}"
    owner = _OWNER_IS.match(said)
    if owner is not None:
        return f"assign {_task(owner['t'])} to {owner['p']}"
    field = _FIELD_AS.match(said)
    if field is not None:
        name = "due date" if field["f"].casefold() != "priority" else "priority"
        return f"set the {name} of {_task(field['t'])} to {field['v']}"
    impediment = _IMPEDIMENT.match(said)
    if impediment is not None:
        where = f"{impediment.group('p')} {_task(impediment.group('t'))}"
        # "..., because <why>" is the blocker's why; "pending <what>" is said as it stands
        why = re.sub(
            r"^[\s,:–—-]*(?:because|since|as)?\s*", "", impediment.group("rest"), flags=re.I
        )
        return f"add a blocker {where}: {why}"
    on_that = _ON_THAT.match(said)
    if on_that is not None:
        return f"add a comment on {_task(on_that.group('t'))}: {on_that.group('said')}"
    what_on = _WHAT_ON.match(said)
    if what_on is not None and not re.search(rf"\b{_BLOCKER_NOUN}\b", what_on["what"], re.I):
        said = f"{what_on['what'][:1].upper()}{what_on['what'][1:]}: {what_on['said']}"
        return f"add a comment on {_task(what_on.group('t'))}: {said}"
    closing = _CLOSE_NOUN.match(said)
    if closing is not None:
        return f"{closing['v']} {closing['d']} blocker{said[closing.end() :]}"
    return said if following is not None or said != text.strip() else text
