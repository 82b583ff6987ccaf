"""A tracker's words (agile jargon) for the workspace's things.

Teams that run sprints call a task a ticket, a story, a card or a work item, a project an
epic or a board, and the tasks of a project its backlog: "add a ticket to the phishing
backlog: 'Draft training slides'" is a new task in *Phishing awareness*, "show me the backlog
for phishing awareness" its tasks, "move the drill card to the done column" its status. The
patterns read the workspace's own words, so these are spelt out first
(`workspace_shorthand.spelt_out`). A backlog with no project beside it ("put it back in the
backlog") is left as said: it may be a state, and a change read from it would be a guess.
"""

from __future__ import annotations

import re

_DETERMINER = r"(?:a|an|the|this|that|new|my|our|user|each|every|any|which|what|all(?:\s+the)?)"

_NAMED_BACKLOG = (
    r"(?!(?:whole|entire|full|current|product|sprint|team)\b)"
    r"(?P<project>[a-z][\w-]*(?:\s+(?!backlog\b)[\w-]+){0,3}?)\s+backlog\b"
)
"""A backlog with the words of a project before it ("phishing backlog")."""

AGILE_WORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), words)
    for pattern, words in (
        # "a ticket to the phishing backlog", "what's in our vpn backlog": the project, where
        # something goes or is; "pull up the phishing backlog": the project's tasks
        (
            r"\b(?P<at>to|on|onto|in|into|under|from|off)\s+(?:the|our|my)\s+"
            rf"{_NAMED_BACKLOG}",
            r"\g<at> the \g<project> project",
        ),
        (rf"\b(?:the|our|my)\s+{_NAMED_BACKLOG}", r"the tasks of the \g<project> project"),
        # "the backlog for phishing awareness", "backlog of the vpn project": its tasks
        (r"\bbacklog\s+(?=(?:for|of|in|on)\s)", "tasks "),
        # "a new story", "user stories", "the story for the drill": tasks, not a tale
        (rf"\b(?P<d>{_DETERMINER})\s+(?:user\s+)?stories\b", r"\g<d> tasks"),
        (
            rf"\b(?P<d>{_DETERMINER})\s+(?:user\s+)?story\b(?!\s+(?:with|behind|about|so\s+far)\b)",
            r"\g<d> task",
        ),
        (r"\buser\s+stor(?:y|ies)\b", "task"),
        # "the drill card", "a work item", "PBIs": a tracker's entries are tasks
        (r"\bwork\s+items\b|\bPBIs\b", "tasks"),
        (r"\bwork\s+item\b|\bPBI\b", "task"),
        (r"(?<!credit )(?<!smart )(?<!sim )(?<!access )(?<!key )\bcards\b", "tasks"),
        (r"(?<!credit )(?<!smart )(?<!sim )(?<!access )(?<!key )\bcard\b", "task"),
        # "the vpn epic": the project a story belongs to
        (r"\bepics\b", "projects"),
        (r"\bepic\b", "project"),
        # "to the done column", "into the in-review lane": the state the column stands for
        (
            r"\b(?:the\s+)?(?P<state>done|in[\s-]progress|in[\s-]review|review|to[\s-]?do)\s+"
            r"(?:column|lane|swim\s*lane)\b",
            r"\g<state>",
        ),
        (r"\bWIP\b", "in progress"),
    )
)
"""Each tracker's word with the workspace's, in the order they are read."""
