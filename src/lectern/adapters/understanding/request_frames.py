"""A book request said inside a frame of its own, read as the plain request.

A question about whether it can be done, a rename said as changing a name, a slip of the
keyboard between a book and its list. "Is there a way to put X on my Y list?" and "how do I
take X off Y" ask for the change itself; "change the name of A to B" and "change A's name to
B" are renames; "add X too my Y list" writes "too" for "to". Each is turned into the plain
request the rules read, whatever the book or list is called.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.book_patterns import ADD_VERB, DELETE_VERB, REMOVE_VERB

_CHANGE_VERB = (
    rf"(?:{ADD_VERB}|{REMOVE_VERB}|{DELETE_VERB}|rename|create|make|start|move|rate|give|"
    r"correct|fix)"
)
_CAN_IT_BE_DONE = re.compile(
    r"^(?:(?:hey|hi|so|um+|quick\s+question)\W+)*"
    r"(?:is\s+there\s+(?:a|any)\s+way\s+(?:(?:for\s+(?:me|you)\s+)?to|(?:i|you)\s+(?:can|could))|"
    r"is\s+it\s+possible\s+(?:for\s+(?:me|you)\s+)?to|(?:how|where)\s+(?:do|can|could|would)\s+i|"
    r"(?:can|could|may)\s+i|am\s+i\s+able\s+to|do\s+you\s+know\s+how\s+to|"
    r"would\s+it\s+be\s+possible\s+(?:for\s+(?:me|you)\s+)?to|any\s+chance\s+(?:you\s+could|"
    r"i\s+could|to)|do\s+you\s+think\s+you\s+could)\s+"
    rf"(?=(?:please\s+)?{_CHANGE_VERB}\b)",
    re.I,
)
"""A change asked as whether it can be done ("is there a way to put X on Y?")."""
_ASKED_IF_IT_MOVES = re.compile(
    r"^(?:can|could|should|may)\s+(?P<book>.+?)\s+(?P<move>(?:go|come|be\s+(?:added|put|taken|"
    r"removed|dropped))\s+(?:on|onto|in|into|to|off|out\s+of|from)\s+[^?]+?)\s*\??$",
    re.I,
)
"""A book asked whether it can join or leave a list ("could it go on Mum's picks?")."""
_WHETHER_IT_MOVES = re.compile(
    r"^(?:(?:would|could|will)\s+it\s+be|is\s+it)\s+possible\s+(?:that|for)\s+"
    r"(?P<book>.+?)\s+(?:(?:to\s+|could\s+|can\s+)?(?P<verb>go|come)e?s?)\s+"
    r"(?P<where>(?:on|onto|in|into|to|off|out\s+of|from)\s+[^?]+?)\s*\??$",
    re.I,
)
"""The same, asked as whether it may be ("would it be possible that Dune goes on my TBR?")."""
_NAME_CHANGED = re.compile(
    r"^(?:please\s+)?(?:change|update|alter|switch|edit)\s+(?:the\s+)?name\s+of\s+"
    r"(?P<old>.+?)\s+to\s+(?P<new>.+)$|"
    # "change classics list name to X": the list's name, with or without its "'s"
    r"^(?:please\s+)?(?:change|update|alter|switch|edit)\s+(?P<old2>.+?)(?:['’]s?|\s+list(?:['’]s)?)"
    r"\s+name"
    r"\s+to\s+(?P<new2>.+)$",
    re.I,
)
"""A rename said as changing a name ("change the name of A to B", "change A's name to B")."""
_RENAMED_AS = re.compile(
    r"^(?:please\s+)?rename\s+(?P<old>.+?)\s+as\s+(?P<new>[^,.;!?]+)\W*$", re.I
)
"""A rename whose new name follows "as" ("rename my Maybe list as Perhaps")."""
_SHOULD_NOT_IT = re.compile(
    r"^(?:but\s+)?(?:shouldn['’]?t|should\s+not)\s+(?P<book>.+?)\s+(?P<verb>say|be|read|show|list)\s+"
    r"(?P<value>[^?]+?)\s*\?",
    re.I,
)
"""A value asked as whether it should be ("Shouldn't X say 1943?"): the record put right."""
_TOO_FOR_TO = re.compile(r"\btoo\s+(?=(?:my|the|our|a)\s)", re.I)
_FORM_FOR_FROM = re.compile(r"\bform\s+(?=(?:my|the|our)\s)", re.I)
_ME_FOR_MY = re.compile(
    r"\b(?P<prep>to|on|onto|into|from|off)\s+me\s+(?=(?:\S+\s+){1,3}?list\b)", re.I
)
_ON_A_LIST = re.compile(rf"^(?:please\s+)?(?:{ADD_VERB}|{REMOVE_VERB})\b|\blist\b", re.I)


def unframed(text: str) -> str:
    """The plain request a framed one asks for; `text` as it is when there is no frame."""
    text = _CAN_IT_BE_DONE.sub("", text.strip(), count=1)
    if text.endswith("?") and re.match(rf"^(?:please\s+)?{_CHANGE_VERB}\b", text, re.I):
        text = text[:-1]  # what was a question is now the request
    moves = _ASKED_IF_IT_MOVES.match(text)
    if moves is not None:
        text = f"{moves['book']} can {moves['move']}"
    whether = _WHETHER_IT_MOVES.match(text)
    if whether is not None:
        text = f"{whether['book']} can {whether['verb'].casefold()} {whether['where']}"
    # "Shouldn't The Little Prince say 1943? Could you correct the year?"
    text = _SHOULD_NOT_IT.sub(r"\g<book> should \g<verb> \g<value>.", text, count=1)
    said_as = _RENAMED_AS.match(text)
    if said_as is not None:
        text = f"rename {said_as['old']} to {said_as['new']}"
    renamed = _NAME_CHANGED.match(text)
    if renamed is not None:
        old = renamed.group("old") or renamed.group("old2")
        new = renamed.group("new") or renamed.group("new2")
        text = f"rename {old} to {new}"
    if _ON_A_LIST.search(text):
        # "add X too my Y list", "take X off form the Y list": keyboard slips of "to", "from"
        text = _FORM_FOR_FROM.sub("from ", _TOO_FOR_TO.sub("to ", text))
        text = _ME_FOR_MY.sub(lambda m: f"{m['prep']} my ", text)  # "to me Summer list"
    return text
