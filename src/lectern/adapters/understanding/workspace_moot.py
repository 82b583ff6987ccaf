"""A blocker told to be moot: "..., so the vendor window blocker is moot now".

People close a blocker by saying it no longer holds ("is moot now", "isn't an issue any
more", "is gone") after what made it so ("bob finished the check point patching"). The
meaning reader took the telling for the whole message and the blocker stayed open. The
clause is read as the request it amounts to ("resolve the vendor window blocker"), beside
whatever the words before it ask; the blocker must still be one the rules can name.
"""

from __future__ import annotations

import re

_NOT_AN_ISSUE = r"(?:an?\s+(?:issue|problem|thing|blocker)|needed|relevant|blocking)"
_MOOT = re.compile(
    r"(?:^|[\s,;.–—-]+(?:(?:so|and|which\s+means|meaning|that\s+means)\s+)?)"
    r"(?:the\s+|that\s+)?(?P<b>(?:(?!\b(?:so|and)\b)[^,;.])+?\s+blocker)\s+"
    r"(?P<state>(?:(?:is|['’]s|has)\s+(?:now\s+|also\s+|then\s+|basically\s+|pretty\s+much\s+)?"
    r"(?:moot|gone|cleared|lifted|obsolete|irrelevant|void|no\s+more|been\s+(?:cleared|lifted)|"
    rf"(?:no\s+longer|not)\s+{_NOT_AN_ISSUE})|isn['’]?t\s+{_NOT_AN_ISSUE})"
    r"(?:\s+(?:now|then|too|as\s+well|any\s*more))*)\W*$",
    re.I,
)


def moot_blocker(text: str) -> tuple[str, str] | None:
    """The words before a moot blocker's clause and the request it amounts to, or None.

    What the words before it tell is the blocker's resolution ("resolve the vendor window
    blocker: bob finished the patching").
    """
    found = _MOOT.search(text)
    if found is None:
        return None
    blocker = re.sub(r"^(?:the|that)\s+", "", found.group("b").strip(), flags=re.I)
    head = text[: found.start()].strip(" ,;.–—-")
    # what made it moot is its resolution; said alone, that it is moot
    resolution = head or re.sub(r"^(?:is|['’]s|has)\s+", "", found.group("state"), flags=re.I)
    return head, f"resolve the {blocker}: {resolution}"
