"""A member named by their display name ("the Builder", "Bob Builder") as their user id.

The rules and the layer read a member by user id ("put bob on the hunt"); people name a
colleague as the team list shows them: whole ("give it to Bob Builder"), or by the family
name with an article or a title ("put the Builder on the hunt", "ask Ms Analyst to take
it"). Such a mention becomes the member's user id before the rules run, only where a
person is asked for (after "to", "for", "put", "ask", "give", ...) and only before a kept
text starts (a colon, a quote, "that", "saying", "called"): "comment: Bob Builder confirmed
...", "note on the hunt that I met with Bob Builder" are the reader's words.
Only a capitalised family name counts, and only one member's: "the builder" in lower case
is a word, and a name two members share is left as said (who is meant is asked later).
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names

_CUE = r"(?:to|for|put|ask|get|let|have|assign|reassign|give|hand)"
_TITLE = r"(?:the|mr\.?|mrs\.?|ms\.?|miss|dr\.?)"
_KEPT = re.compile(r"[:\"“”'‘]|\b(?:that|saying|asking|called|named|titled)\b", re.I)
"""Where a kept text may start: a colon, a quote, "that", "saying", "called"."""


def members_named(text: str, names: Names) -> str:
    """`text` with a member asked for by display name written as their user id."""
    kept = _KEPT.search(text)
    head, tail = (text[: kept.start()], text[kept.start() :]) if kept else (text, "")
    members = names.of("member")
    for user in members:
        display = names.display.get(user, "").strip()
        if not display or display.casefold() == user.casefold():
            continue
        said = [re.escape(display)]
        family = display.split()[-1]
        shared = any(
            u != user and family.casefold() in names.display.get(u, "").casefold().split()
            for u in members
        )
        if len(display.split()) > 1 and family[:1].isupper() and not shared:
            said.append(rf"(?i:{_TITLE})\s+{re.escape(family)}")
        for name in said:
            head = re.sub(
                rf"(?i:\b(?P<cue>{_CUE})\s+)(?:{name})(?![\w-])", rf"\g<cue> {user}", head
            )
    return head + tail
