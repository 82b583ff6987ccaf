"""A blocker told as cleared, with what cleared it: the resolution to record.

People give a blocker's resolution as news rather than as a request: "blocker's cleared,
hotfix went in last night", "The blocking point with the vendor is solved, they gave us the
window of Sunday.", or a request run on into what happened with no comma ("resolve the
waiting for the vendor maintenance window blocker we got the window for thursday night").
The blocker is still open in the tracker, so saying it is cleared, together with what did
it, asks for the record to say so; the not-asked rules (`not_asked.py`), made for "I
already did X" reports, had refused the first two and the resolver asked for the
resolution it had been given. Only a blocker said in the present state ("is solved",
"'s cleared", "has been sorted") with a reason after it is read so: "the blocker was
cleared yesterday" and "bob resolved the blocker" stay reports, and a bare "the blocker's
gone" is left to the other readings. A go-ahead after what happened ("window got scheduled
for sat 02:00, yep do it") is no part of the resolution.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.workspace_kept_frames import BLOCKER_NOUN

_BLOCKER = rf"(?:{BLOCKER_NOUN}|block)"
_STATE = (
    r"(?:cleared|solved|resolved|sorted(?:\s+out)?|gone|lifted|fixed|removed|unblocked|"
    r"taken\s+care\s+of|out\s+of\s+the\s+way)"
)
CLEARED = re.compile(
    rf"\b{_BLOCKER}(?:\s+(?:with|on|about|for|re|from)\s+[\w\s'-]+?)?"
    rf"(?:['’]s|\s+is|\s+has\s+been|\s+['’]s\s+been|\s+got|\s+is\s+now)\s+(?:now\s+|finally\s+)?"
    rf"{_STATE}\b",
    re.I,
)
"""A blocker said to be cleared now (not "was cleared"): a state the record should show."""

_TOLD = re.compile(
    r"^(?:(?:so|ok|okay|good\s+news|great\s+news|fyi|update|heads\s+up|hey|hi)\W+)*"
    r"(?:the\s+|our\s+|that\s+|this\s+)?"
    # "no blocker is cleared", "if the blocker is cleared": a denial or a condition is no name
    r"(?!(?:no|not|if|once|when|unless|whether|until|after|maybe|perhaps)\b)"
    r"(?P<pre>(?:(?!(?:no|not|if|once|when|unless|whether)\b)[\w'-]+\s+){0,4}?)"
    rf"{_BLOCKER}(?:\s+(?P<prep>with|on|about|for|re|from)\s+(?P<post>[^,;:.—–]+?))?"
    r"(?:['’]s|\s+is|\s+has\s+been|\s+['’]s\s+been|\s+got|\s+is\s+now)\s+(?:now\s+|finally\s+)?"
    rf"{_STATE}"
    r"\s*(?:[,;:—–-]\s*|\.\s+|\s+(?:because|since|now\s+that)\s+)"
    r"(?P<r>[^?]+?)[\s.!]*$",
    re.I,
)

_HEDGED = re.compile(
    r"^(?:as\s+far\s+as|i\s+think|i\s+guess|probably|maybe|apparently|supposedly|hopefully|"
    r"not\s+sure|i['’]?m\s+not\s+sure|but\s+wait|wait\b|pending|once|if|until)\b|"
    r"\b(?:but\s+wait|wait\s+for|until\s+\w+\s+confirms?|not\s+(?:yet\s+)?confirmed)\b",
    re.I,
)
"""What follows the state hedges it: the blocker is not told as settled."""
_RUN_ON = re.compile(
    r"^(?P<ask>(?:please\s+|pls\s+)?(?:resolve|close|clear|lift)\s+(?:the\s+)?\S.*?\s+blocker)"
    r"\s+(?P<r>(?:we|they|he|she|i|the\s+vendor|vendor)\s+(?:['’]ve\s+|have\s+|has\s+|finally\s+"
    r"|just\s+)?(?:got|gave|received|scheduled|booked|confirmed|approved|signed|shipped|"
    r"deployed|patched|fixed|sorted|agreed|sent|found)\b\s+\S+.*)$",
    re.I,
)
"""'resolve the X blocker we got the window for thursday night': what happened, run on."""

_GO_AHEAD = re.compile(
    r"\s*[,;.!—–-]\s*(?:(?:yes|yep|yeah|yup|ok|okay|sure)\W*\s*)?(?:(?:please\s+)?"
    r"(?:do\s+it|go\s+ahead|go\s+for\s+it|do\s+that)|please\s+do|thanks?|thank\s+you|ty|"
    r"yes|yep|yeah|yup)(?:\s+(?:please|pls|thanks|now))?[\s.!]*$",
    re.I,
)


def cleared_told(text: str) -> str | None:
    """'resolve the X blocker: R' for a blocker told cleared with what did it, or None."""
    told = _TOLD.match(text.strip())
    if told is not None:
        reason = told.group("r").strip()
        if len(reason.split()) < 2 or _HEDGED.match(reason):
            return None  # "... is cleared as far as I know, but wait for bob": not settled
        pre = told.group("pre").strip()
        post = f" {told.group('prep')} {told.group('post').strip()}" if told.group("post") else ""
        name = f"{pre} " if pre else ""
        return f"resolve the {name}blocker{post}: {reason}"
    run_on = _RUN_ON.match(text.strip())
    if run_on is not None:
        return f"{run_on.group('ask')}: {run_on.group('r')}"
    return None


def without_go_ahead(text: str) -> str:
    """`text` without a go-ahead after what it tells ("..., yep do it")."""
    kept = _GO_AHEAD.sub("", text)
    return kept if kept.strip() else text
