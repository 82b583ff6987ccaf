"""Shorthand in workspace requests read as the words it stands for.

Typed or dictated in a hurry, a request says "proj", "prio", "ticket", "w/", "re:", "eod",
"tmrw", "n" for "and" or an arrow ("drill -> in progress"); the patterns and slots read whole
words, so the shorthand is spelt out first. Quoted words (a title, a comment) are kept as said.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.workspace_agile import AGILE_WORDS

_SPELT_OUT: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), words)
    for pattern, words in (
        (r"\bpls\b|\bplz\b", "please"),
        (r"\bthx\b|\bty\b(?=\W*$)", "thanks"),
        (r"\bprojs\b", "projects"),
        (r"\bproj\b\.?", "project"),
        (r"\bprio\b|\bprty\b", "priority"),
        (r"\btickets\b", "tasks"),
        (r"\bticket\b", "task"),
        # "show me all the boards": a board is what a tracker calls a project
        # ... but not a body of people ("the change board approved it")
        (
            r"(?<!change )(?<!review )(?<!advisory )(?<!approval )(?<!control )\bboards\b",
            "projects",
        ),
        (
            r"(?<!change )(?<!review )(?<!advisory )(?<!approval )(?<!control )"
            r"\bboard\b(?!\s+(?:meeting|members?|review|approv\w*))",
            "project",
        ),
        # "remark on the drill: ...", "add a remark to the runbook": a comment by another word
        (r"\bremark(?=\s+(?:on|to|for|under|that|saying)\b|\s*:)", "comment"),
        (r"\bvulns\b", "vulnerabilities"),
        (r"\bvuln\b", "vulnerability"),
        (r"(?<!\w)w/o(?!\w)", "without"),
        (r"(?<!\w)w/(?=\s)", "with"),
        (r"(?<!\w)re:\s*", "about "),
        (r"\b(?:eod|cob|end\s+of\s+(?:the\s+)?(?:day|business))\b", "today"),
        (r"\b(?:tmrw|tmr|tmw|tomoz|tomo)\b", "tomorrow"),
        (r"\beow\b", "end of the week"),  # "done by EOW": Friday, as said in full
        (r"^\s*fyi\b[\s,:-]*", ""),
        # "drill -> in progress": a status said with an arrow
        (r"\s*(?:→|->|=>|⟶)\s*", " to "),
        # "..., + comment 'x'": a plus joins a second request
        (r"(?:(?<=\s)|(?<=,)|^)\+\s*(?=[a-z])", "and "),
        # "mark it done n comment ...": "n" typed for "and" before a second request
        (
            r"(?<=\s)n(?=\s+(?:add|comment|note|mark|set|make|assign|give|hand|close|move|put|"
            r"leave|tell|change|then|also|open|create|complete|finish|rename|push|bump)\b)",
            "and",
        ),
        # "x hunt vpn logins": todo.txt's mark of a task done, leading the line
        (r"^(?-i:x)\s+(?=[a-z])", "complete "),
        # "please: add ...": please leading a request is no part of it
        (r"^please\s*[:,]?\s*(?=\S)", ""),
    )
)
_QUOTED = re.compile(r"([\"“‘][^\"“”‘’]+[\"”’]|(?<!\w)'[^']+'(?!\w))")


_FREE_TEXT = re.compile(
    r"^(?P<head>[^:]*?\b(?:comments?|notes?|remarks?|blockers?|impediments?|descriptions?|"
    r"describe|resolutions?|reasons?|titles?|titled|called|named|messages?|say|says|new\s+task|"
    r"(?:add|create|make|open)\s+(?:a\s+|an\s+)?(?:new\s+)?task)\b[^:]*?)"
    r"(?P<open>(?<!\bre)(?<!\d):(?!\d)|\s(?:saying|that\s+says|to\s+say|reading)\b)",
    re.I,
)
"""Where the reader's own words begin ("note on the review: board wants it by fri"): after a
head that speaks of a text (a comment, a blocker, a description, a title), a colon or
"saying". What follows is kept as typed: shorthand is spelt out in the request, never in what
is to be written ("board" stays "board" in a comment)."""


def _outside_quotes(text: str, patterns: tuple[tuple[re.Pattern[str], str], ...]) -> str:
    free = _FREE_TEXT.match(text)
    body = text[free.end() :] if free is not None else ""
    # quotes in what follows say where the words to write are ("new task in vpn: 'X' high
    # prio"): the words around them are the request's own, spelt out as before
    if free is not None and body.strip() and not _QUOTED.search(body):
        # the request is spelt out; the words to be written are left as the reader typed them
        head = _outside_quotes(text[: free.start("open")], patterns)
        return f"{head}{text[free.start('open') :]}"
    pieces = _QUOTED.split(text)
    for index in range(0, len(pieces), 2):
        piece = pieces[index]
        for pattern, words in patterns:
            if index and pattern.pattern.startswith("^"):
                continue  # a lead is only the message's own
            piece = pattern.sub(words, piece)
        pieces[index] = piece
    return " ".join("".join(pieces).split()) if text.strip() else text


def spelt_out(text: str) -> str:
    """The request with its shorthand spelt out, quoted words left as said."""
    return _outside_quotes(text, (*_SPELT_OUT, *AGILE_WORDS))


def tracker_words_read(text: str) -> str:
    """The request with a tracker's words (ticket, backlog, epic) as the workspace's.

    Read before the intent is, so "pull up the phishing backlog" is read as the project's
    tasks, not its details.
    """
    return _outside_quotes(text, AGILE_WORDS)
