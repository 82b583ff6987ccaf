"""A request wrapped in hedges: courtesy conditions, tentative frames, apologies and thanks.

Courteous and unsure writers soften a request until its shape is hidden: "I wonder, if it's
no bother, whether you might set up a list called X? Only if it's easy.", "Would it be all
right to maybe rename A to B? Sorry, I know it's a small thing.", "If you have a moment, maybe
a few books a bit like X? I'd be so grateful.", "I should like, if I may, to create ...".
Read whole, the hedges hid the verb from the patterns, made a plan of "maybe" ("Maybe
Someday", a list's name, read as a change put off) and left the request to be asked back.

`unhedged` says the request plainly: a condition of courtesy ("if it's no bother", "if you
have a moment", "if I may", "when you get a chance") is no part of it wherever it stands; a
closing sentence that only apologises, thanks ahead or waives the request's urgency ("Sorry,
I know it's a small thing.", "I'd be so grateful.", "No rush.") is set aside when a request
stands before it; a tentative frame before the verb ("I wonder whether you might", "would it
be all right to", "I should like to", "might you") is "please", and a "maybe" or "perhaps"
right after it goes with it. A hedge that leaves nothing is not taken away.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.possible_asked import asked_plainly
from lectern.adapters.understanding.unless_already import unless_already

_BOTHER = r"(?:bother|trouble|problem|hassle|imposition)"
_FINE = r"(?:easy|ok(?:ay)?|all\s+right|alright|fine|possible|convenient|doable)"
_CONDITION = (
    r"(?:(?:only|just)\s+)?(?:if|when|whenever)\s+(?:"
    rf"it(?:['’]s|\s+is|\s+isn['’]t|\s+is\s+not)\s+(?:no|not\s+(?:a|too\s+much|any|much))\s+{_BOTHER}|"
    rf"it(?:['’]s|\s+is)\s+(?:not\s+too\s+(?:much|hard|difficult)|{_FINE})|"
    rf"it\s+(?:isn['’]t|is\s+not)\s+(?:too\s+much\s+)?(?:a\s+|any\s+)?{_BOTHER}|"
    rf"(?:that|this)(?:['’]s|\s+is)\s+(?:{_FINE}|no\s+{_BOTHER}|not\s+too\s+much(?:\s+{_BOTHER})?)|"
    r"you\s+(?:have|get|['’]ve\s+got|have\s+got)\s+(?:a\s+(?:spare\s+)?(?:moment|minute|min|"
    r"sec(?:ond)?|chance)|(?:the\s+|some\s+)?time)|"
    r"you\s+(?:don['’]?t|do\s+not)\s+mind|(?:i|we)\s+may|you\s+(?:please|would\s+be\s+so\s+kind)|"
    r"(?:at\s+all\s+)?possible|you\s+can|convenient)"
)
"""A condition that only softens ("if it's no bother", "if you have a moment", "if I may")."""
_CONDITION_SAID = re.compile(
    rf"(?:^|[,;]\s*|\s+(?=(?:only\s+|just\s+)?(?:if|when)\b))"
    rf"{_CONDITION}\b\s*(?:[,;]\s*)?",
    re.I,
)

_CLOSE = (
    r"(?:(?:so\s+|very\s+)?sorry|apologies|my\s+apologies|forgive\s+me)\b[^.?!]*|"
    r"(?:(?:a|just\s+a)\s+)?(?:small|silly|little|minor|tiny|daft)\s+(?:thing|request|one|ask)"
    r"(?:\s*,?\s*i\s+know)?|"
    r"i\s+know\s+(?:it['’]s|this\s+is)\s+(?:just\s+)?(?:a\s+)?(?:small|silly|little|minor|tiny|"
    r"trivial|daft)(?:\s+(?:thing|request|one|ask))?|"
    r"(?:i['’]?d|i\s+would|i\s+should|i['’]?ll|i\s+will)\s+be\s+(?:so\s+|very\s+|most\s+|really\s+|"
    r"ever\s+so\s+|truly\s+|extremely\s+)?(?:grateful|thankful|obliged|much\s+obliged|"
    r"delighted|happy)|"
    r"(?:that|it)\s+would\s+be\s+(?:so\s+|very\s+|really\s+)?(?:great|lovely|wonderful|"
    r"brilliant|amazing|perfect|kind|helpful|much\s+appreciated)|"
    r"(?:much|greatly|really)\s+appreciated|no\s+(?:rush|hurry|pressure|worries(?:\s+if\s+not)?)|"
    rf"(?:only|just)\s+{_CONDITION}|{_CONDITION}"
)
_CLOSING = re.compile(rf"(?<=[.?!])\s+(?:{_CLOSE})(?:\s*[,;.!]\s*(?:{_CLOSE}))*\s*[.!]*\s*$", re.I)
"""Sentences after the request that only apologise, thank ahead or waive its urgency."""

_SOFT = r"(?:\s+(?:maybe|perhaps|possibly|just|kindly))*"
_FRAME = re.compile(
    r"^(?:"
    r"(?:i\s+)?(?:wonder(?:ed)?|was\s+wondering|am\s+wondering|['’]m\s+wondering)\s*,?\s*"
    r"(?:if|whether)\s+(?:you|u)\s+(?:might|could|would|can|will)(?:\s+(?:possibly|perhaps|"
    r"kindly))?(?:\s+be\s+able\s+to)?|"
    r"(?:would|will|is)\s+it\s+be\s+(?:all\s+right|alright|ok(?:ay)?|fine|possible|too\s+much\s+"
    rf"{_BOTHER})\s+(?:for\s+you\s+)?to|is\s+it\s+(?:all\s+right|alright|ok(?:ay)?|fine)\s+"
    r"(?:for\s+you\s+)?to|"
    r"(?:i|we)\s+should\s+(?:like|love|be\s+glad\s+for\s+you)\s+(?:you\s+)?to|"
    r"might\s+(?:you|i\s+ask\s+you\s+to)|"
    r"(?:could|would|can|will)\s+you\s+(?:possibly\s+|perhaps\s+|maybe\s+|kindly\s+)?"
    r"(?:be\s+so\s+kind\s+as\s+to|be\s+able\s+to)|"
    r"(?:could|may|might)\s+i\s+(?:ask|trouble)\s+you\s+to|"
    r"(?:i['’]?d|i\s+would|i\s+should|i\s+will|i['’]?ll)\s+(?:be\s+(?:so\s+|very\s+|most\s+|ever\s+so\s+|"
    r"really\s+)?(?:grateful|thankful|obliged)|(?:really\s+|greatly\s+)?appreciate\s+it)\s+if\s+"
    r"you\s+(?:could|would|can|might)|"
    r"(?:it|that)\s+would\s+be\s+(?:so\s+|very\s+|really\s+)?(?:great|lovely|wonderful|kind|"
    r"helpful|brilliant)\s+if\s+you\s+(?:could|would|can)|"
    r"(?:perhaps|maybe)\s+you\s+(?:could|might|can)|i\s+hope\s+you\s+(?:can|could)"
    rf"){_SOFT}\s+(?=[a-z])",
    re.I,
)
"""A tentative frame before the request's verb ("I wonder whether you might set up ...")."""
_LEADING_MAYBE = re.compile(
    r"^(?:maybe|perhaps)\s+(?=(?:a|an|some|a\s+few|a\s+couple|any|something|books?|novels?|"
    r"titles?|recommendations?|suggestions?)\b)",
)
"""A "maybe" before what is asked for ("maybe a few books like X?"), never before a verb."""


_MIND = re.compile(
    r"^(?:would|do)\s+you\s+(?:mind|object\s+to)\s+(?:(?:terribly|awfully|much)\s+)?"
    r"(?:(?:maybe|perhaps|just)\s+)?(?P<verb>adding|putting|removing|taking|deleting|renaming|"
    r"creating|making|starting|setting\s+up|giving|rating|finding|suggesting|recommending|"
    r"correcting|fixing|changing|moving|showing|telling)\b",
    re.I,
)
"""A request asked as whether one minds doing it ("would you mind renaming A to B?")."""
_GERUND = {
    "putting": "put",
    "setting up": "set up",
    "making": "make",
    "creating": "create",
    "giving": "give",
    "rating": "rate",
    "taking": "take",
    "removing": "remove",
    "deleting": "delete",
    "renaming": "rename",
    "starting": "start",
    "moving": "move",
    "changing": "change",
    "correcting": "correct",
    "fixing": "fix",
}


def unhedged(text: str) -> str:
    """The request said plainly, without the hedges around it; `text` when there are none."""
    said = asked_plainly(text.strip())  # "is there a way to get X off ...?": asked plainly
    said = unless_already(said) or said  # "if X isn't already on Y, add it": the change
    plain = _CONDITION_SAID.sub(lambda m: " " if m.start() > 0 else "", said)
    plain = " ".join(plain.split())
    closing = _CLOSING.search(plain)
    if closing is not None and closing.start() > 0:
        plain = plain[: closing.start()]
    framed = _FRAME.match(plain)
    if framed is not None:
        plain = "please " + plain[framed.end() :]
    minded = _MIND.match(plain)
    if minded is not None:
        verb = " ".join(minded["verb"].casefold().split())
        verb = _GERUND.get(verb, verb.removesuffix("ing"))
        plain = f"please {verb}{plain[minded.end() :]}"
    if plain != said:
        plain = _LEADING_MAYBE.sub("", plain)
    plain = re.sub(r"([?!.])[.]+$", r"\1", re.sub(r"\s+([,.;?!])", r"\1", plain)).strip(" ,;")
    return plain if len(plain.split()) >= 2 else text
