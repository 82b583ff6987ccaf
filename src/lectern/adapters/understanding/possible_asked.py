"""A change asked as whether it is possible, or wished for as a state.

Courteous and unsure readers ask for a change by asking whether it can be done: "is there a
way to get Big Little Lies off my Book Club list?", "is it possible to have a separate list
for audiobooks?", "Would it be terribly inconvenient to remove War and Peace from my Holiday
Reading?", "I wonder if I might give it four stars"; or by wishing the end state: "I think
I'd like the Misc list removed altogether", after an apology for asking ("I'm so sorry to
bother you again, but ..."). Read whole, these were questions to answer (catalog facets), or
a request with no verb the patterns know (a removal of a book "I think removed altogether").

`asked_plainly` says such a request as the plain request ("please get Big Little Lies off
...", "remove the Misc list altogether"). Only a frame before a verb of change is read so:
"is it possible to find books about Japan?" and "is there a way to see my ratings?" are left
as they are, and so is a wish with no change in it ("I'd like the Hobbit signed").
"""

from __future__ import annotations

import re

_CHANGE = (
    r"(?:add|put|pop|stick|give|rate|remove|take|drop|delete|rename|change|create|make|start|"
    r"set\s+up|move|retire|clear|scrap|bin|ditch|switch|call|mark|"
    r"get(?=\s+(?:rid\b|[^?.!]{1,60}?\b(?:off|on|onto|out\s+of|into|removed|added|deleted|"
    r"renamed)\b))|"
    r"have(?=\s+(?:a|an|another|my|the)\s+(?:[\w'’-]+\s+){0,3}(?:list|shelf)\b))"
)
"""The verbs of a change to the reader's lists or ratings; "get" and "have" only of one ("get
X off my list", "have a separate list"): "have more fantasy in the catalogue" is no change."""

_WAY = r"(?:way|chance|means|possibility)"
_BOTHER = r"(?:trouble|bother|problem|nuisance|pain|hassle|imposition)"
_LEAD = (
    r"(?:(?:so|and|but|well|um+|hmm+|ok(?:ay)?|oh|also|hi|hiya|hey|heya|hello|morning|evening)"
    r"[\s,]+)*"
)
_POSSIBLE = re.compile(
    rf"(?:^|(?<=[.!?;])\s+){_LEAD}(?:"
    # "is there a way to", "is there any chance you could"
    rf"is\s+there\s+(?:a|any|some)\s+{_WAY}\s+(?:for\s+(?:you|me|us)\s+)?(?:to|(?:i|we|you|u)\s+"
    r"(?:can|could|might))|"
    # "is it possible to", "would it be at all possible for you to"
    r"(?:is|would|will)\s+it\s+(?:be\s+)?(?:at\s+all\s+|even\s+)?possible\s+(?:for\s+(?:you|me|us)"
    r"\s+)?to|"
    # "would it be terribly inconvenient to", "would it be too much trouble to"
    r"(?:would|will|is)\s+it\s+(?:be\s+)?(?:(?:terribly|awfully|very|too|at\s+all|much\s+of)\s+)?"
    rf"(?:inconvenient|(?:a|an)\s+(?:big\s+)?{_BOTHER}|(?:too\s+)?much\s+(?:of\s+a\s+)?{_BOTHER})"
    r"\s+(?:for\s+you\s+)?to|"
    # "I wonder if I might", "I was wondering whether we could"
    r"(?:i\s+)?(?:wonder(?:ed)?|was\s+wondering|am\s+wondering|['’]m\s+wondering)\s*,?\s*"
    r"(?:if|whether)\s+(?:i|we)\s+(?:might|could|may|can)(?:\s+(?:possibly|perhaps))?|"
    # "may I", "might I", "could I possibly" (a bare "can I" may ask what the assistant does)
    r"(?:may|might)\s+(?:i|we)(?:\s+(?:possibly|perhaps|please))?|"
    r"could\s+(?:i|we)\s+(?:possibly|perhaps)"
    r")\s+(?:(?:maybe|perhaps|just|possibly|please)\s+)?(?=" + _CHANGE + r"\b)",
    re.I,
)
"""A frame that asks whether a change can be made, before the change's verb."""

_SORRY_FIRST = re.compile(
    r"^(?:(?:i['’]?m|i\s+am)\s+)?(?:so\s+|very\s+|really\s+|terribly\s+|awfully\s+)?sorry\s+"
    r"(?:to\s+(?:bother|trouble|pester|disturb|bug)\s+you(?:\s+(?:again|once\s+more))?|"
    r"for\s+(?:the\s+)?(?:bother|trouble|all\s+the\s+(?:questions|messages)))\s*[,.!-]*\s*"
    r"(?:but\s+)?",
    re.I,
)
"""An apology for asking that leads the request ("I'm so sorry to bother you again, but")."""

_DONE = {
    "removed": "remove",
    "deleted": "delete",
    "taken off": "take",
    "taken out": "take",
    "gone": "delete",
    "added": "add",
    "put": "put",
    "renamed": "rename",
    "moved": "move",
    "rated": "rate",
    "created": "create",
    "made": "make",
    "set up": "set up",
}
_WISHED = re.compile(
    r"^(?:i\s+think\s+|i\s+guess\s+|actually\s+|now\s+)*(?:i['’]?d|i\s+would|i\s+should|i)\s+"
    r"(?:(?:quite|really|rather|so|very\s+much)\s+)?(?:like|love|prefer|want)\s+"
    r"(?P<thing>(?:(?!\b(?:to|and|then|please)\b)[^,;.!?])+?)\s+"
    r"(?P<done>removed|deleted|taken\s+(?:off|out)|gone|added|put|renamed|moved|rated|created|made|"
    r"set\s+up)\b",
    re.I,
)
"""A change wished as the state after it ("I'd like the Misc list removed altogether")."""


_IN_GENERAL = re.compile(
    rf"^{_CHANGE}\s+(?:(?:a|an|my|the|some|any|your|other|new)\s+)*(?:books?|lists?|reading\s+lists?|"
    r"ratings?|reviews?|stars|stuff|things|titles?|one|something)\b(?:\s+(?:here|on\s+here|in\s+here|"
    r"with\s+you|in\s+(?:this|the)\s+app|at\s+all|myself|too|as\s+well))*\s*[?.!]*\s*$",
    re.I,
)
"""A change asked of nothing in particular ("is it possible to rate books here?"): a question
about what the assistant does, never a request."""


def _plain(found: re.Match[str]) -> str:
    rest = re.split(r"(?<=[.!?])\s", found.string[found.end() :], maxsplit=1)[0]
    if _IN_GENERAL.match(rest):
        return found.group(0)
    return " Please " if found.start() > 0 else "please "


def asked_plainly(text: str) -> str:
    """The request said plainly when it is asked as a possibility or a wish; else `text`."""
    said = _SORRY_FIRST.sub("", text.strip(), count=1)
    said = _POSSIBLE.sub(_plain, said)
    wished = _WISHED.match(said)
    if wished is not None and len(wished["thing"].split()) <= 8:
        done = " ".join(wished["done"].casefold().split())
        verb = _DONE[done]
        particle = done.split()[1] if verb == "take" else ""
        rest = said[wished.end() :]
        if verb == "remove" and re.search(r"\blist$", wished["thing"], re.I):
            # "the Misc list removed altogether": the whole list goes
            verb, rest = "delete", re.sub(r"^\s+(?:altogether|entirely|completely)\b", "", rest)
        said = f"{verb} {wished['thing']}{' ' + particle if particle else ''}{rest}"
    said = " ".join(said.split())
    return said if said != " ".join(text.split()) else text
