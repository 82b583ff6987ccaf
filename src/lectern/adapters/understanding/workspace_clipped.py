"""Clipped requests: a field as a label, fragments for a new task's details, a kind then "list".

People in a hurry drop the verb and the joining words: "assign: me." on a task's page,
"new task, vpn project: 'Rotate the VPN certificates'. bob. high.", "projects. list.",
"set this on in progress", "mark the current one done". Read as said, the label was no
request ("Who should I assign it to?"), the fragments were part of the project's name, and
"list" alone was the reader's reading lists. Each is rewritten as the full request it
clips; names are still resolved (and asked about) by the rules that read it.
"""

from __future__ import annotations

import re

_ASSIGN_LABEL = re.compile(
    r"^(?:assign(?:ed)?(?:\s+to)?|assignee|owner|give\s+(?:it\s+)?to|hand\s+(?:it\s+)?to)\s*"
    r"[:=]\s*(?P<who>me|myself|[a-z][\w.-]*)\W*$",
    re.I,
)
"""'assign: me', 'owner: bob': the page's task to that person."""

_FIELD_LABEL = re.compile(
    r"^(?:(?P<p>priority)|(?P<s>status|state))\s*[:=]\s*(?P<v>[a-z][a-z -]*?)\W*$", re.I
)
"""'priority: high', 'status: in progress': the page's task set so."""

_NEW_TASK_PLACE = re.compile(
    r"^(?P<lead>(?:new|add\s+(?:a\s+)?)\s*task)\s*[,;]\s*(?P<p>[^:,;'\"‘“]+?\s+project)\s*:\s*"
    r"(?P<rest>\S.*)$",
    re.I | re.S,
)
"""'new task, vpn project: "X"': the project the new task goes in, said as a heading."""

_AFTER_TITLE = re.compile(r"(?P<title>[\"“‘'][^\"”’']+[\"”’'])(?P<tail>(?:\s*[.;]\s*[\w-]+)+)\W*$")
"""'... "X". bob. high.': one-word fragments after a new task's quoted title."""

_PRIORITY = re.compile(r"^(?:low|medium|high|urgent|critical)$", re.I)

_KIND_THEN_LIST = re.compile(
    r"^(?P<k>projects|tasks|blockers|documents|docs|members|people|the\s+team)\s*[.:,!-]+\s*"
    r"(?:list|show|list\s+(?:them|all)|show\s+(?:them|all))(?:\s*,?\s*(?:please|pls))?\W*$",
    re.I,
)
"""'projects. list.': the kind first, then the verb alone."""

_STATE_ON = re.compile(
    r"\b(?P<v>set|put|move)\s+(?P<o>it|this|that|this\s+one|this\s+task)\s+on\s+"
    r"(?=(?:in[\s-]+progress|in[\s-]+review|to[\s-]?do|done)\b)",
    re.I,
)
"""'set this on in progress': a state said after "on" where "to" was meant."""

_CURRENT = re.compile(
    r"\bthe\s+(?:current|present)\s+(?:one|task)\b|\bthe\s+(?:one|task)\s+i['’]?m\s+"
    r"(?:on|looking\s+at|viewing)\b",
    re.I,
)
"""'the current one': the task in view."""


def unclipped(text: str) -> str:
    """The full request a clipped one stands for; else as said."""
    said = text.strip()
    label = _ASSIGN_LABEL.match(said)
    if label is not None:
        return f"assign it to {label.group('who')}"
    field = _FIELD_LABEL.match(said)
    if field is not None:
        value = field.group("v").strip()
        return f"set it to {value} priority" if field.group("p") else f"set it to {value}"
    kind = _KIND_THEN_LIST.match(said)
    if kind is not None:
        return f"list {kind.group('k')}"
    placed = _NEW_TASK_PLACE.match(said)
    if placed is not None:
        said = f"{placed.group('lead')} in the {placed.group('p')}: {placed.group('rest')}"
        text = said
    fragments = _AFTER_TITLE.search(said)
    if fragments is not None and re.match(r"^(?:new|add|create)\b", said, re.I):
        words = [w for w in re.split(r"\s*[.;]\s*", fragments.group("tail")) if w]
        words = [w for w in words if not re.match(r"^(?:thanks|thx|ty|please|pls)$", w, re.I)]
        details = [f"{w} priority" if _PRIORITY.match(w) else f"for {w}" for w in words]
        text = f"{said[: fragments.start('tail')]}, {', '.join(details)}"
    text = _STATE_ON.sub(lambda m: f"{m.group('v')} {m.group('o')} to ", text)
    return _CURRENT.sub("this one", text)
