"""A search asked for "it", where "it" is something written about a subject said before.

"not sure where it was but someone wrote something about a lab gateway? could you search for
it", "there was a note on token rotation somewhere, can you dig it up", "I remember a comment
mentioning the backup tunnel. look it up", 'someone asked "do we have anything on phishing
simulation?" can u search' (a bare "search" points back too): what was written is
described first (something, a note, a comment, a doc ... about a subject), and the request
after it only points back. The
search is for the subject: the request is read as "search for <subject>". Never when the
request names something of its own ("find the drill task") or the description is of no
writing ("someone asked about the drill, close it").
"""

from __future__ import annotations

import re

_WRITTEN_ABOUT = re.compile(
    r"\b(?:something|anything|stuff|some\s+(?:notes?|comments?|text|details)|"
    r"an?\s+(?:note|comment|doc(?:ument)?|page|message|thing|write-?up|post|entry|mention|"
    r"paragraph|line|remark))"
    r"(?:\s+(?:written|posted|noted|left|somewhere))*"
    r"\s+(?:about|on|regarding|concerning|mentioning|that\s+mention(?:ed|s)?|re)\s+"
    r"(?P<subject>[^?.!,;]+?)"
    r"(?:\s+(?:somewhere|someplace|in\s+here|on\s+here|in\s+the\s+workspace|a\s+while\s+(?:ago|back)|"
    r"(?:last|this)\s+(?:week|month)))?\s*(?:[?.!,;]|\s+(?:and|but|so)\b|$)",
    re.I,
)
_POINTS_BACK = re.compile(
    r"(?:^|[?.!,;]\W*|\b(?:and|but|so)\s+)(?:(?:can|could|would|will)\s+(?:you|u)\s+|please\s+|pls\s+)?"
    r"(?:please\s+)?(?:search(?:\s+(?:for\s+)?(?:it|that|this))?|find\s+(?:it|that|this)(?:\s+for\s+me)?|"
    r"look\s+(?:it|that)\s+up|look\s+for\s+(?:it|that)|dig\s+(?:it|that)\s+(?:up|out)|"
    r"track\s+(?:it|that)\s+down|hunt\s+(?:it|that)\s+down|pull\s+(?:it|that)\s+up)"
    r"(?:\s+(?:for\s+me|please|again))*\W*$",
    re.I,
)
_FILLER_SUBJECT = re.compile(r"^(?:the|a|an|some|our|my)\s+", re.I)


def search_pointed(text: str) -> str | None:
    """`text` as "search for <subject>" when its request searches for what it described."""
    asked = _POINTS_BACK.search(text)
    if asked is None:
        return None
    # the last description before the request is what "it" points at
    descriptions = list(_WRITTEN_ABOUT.finditer(text[: asked.start() + 1]))
    if not descriptions:
        return None
    described = descriptions[-1]
    subject = _FILLER_SUBJECT.sub("", described.group("subject").strip()).strip()
    if not subject or subject.casefold() in ("it", "that", "this", "them"):
        return None
    return f"search for {subject}"
