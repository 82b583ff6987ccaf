"""A request pointing at a list the sentences before it named ("Could you change its name?").

Courteous writers tell about a list first and ask last: "I named one of my lists Grandkids,
which looks rather abrupt now ... Could you change its name to For the Grandchildren
instead?". Read whole, the telling lends the request a list to show ("one of my lists
Grandkids"); read alone, "its name" names no list. When the asking sentence points at a list
("its name", "that list", "the list") and names none of the reader's lists, and the sentences
before name exactly one, the request is that sentence with the list said in place of the
pointer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_ASKING = re.compile(
    r"\b(?:could|can|would|will)\s+you\b|\bplease\b|\bkindly\b|\bi['’]?d\s+like\s+you\s+to\b|"
    r"\b(?:grateful|obliged)\s+if\s+you\b",
    re.I,
)
_ITS_NAME = re.compile(r"\bits\s+(?:name|title)\b", re.I)
_THAT_LIST = re.compile(r"\b(?:that|this|the)\s+(?:reading\s+)?list\b", re.I)


def _names(text: str, lists: Sequence[str]) -> set[str]:
    """The reader's lists a text says by name."""
    return {n for n in lists if re.search(rf"\b{re.escape(n)}\b", text, re.I)}


def list_named_before(text: str, lists: Sequence[str]) -> str | None:
    """The asking sentence with the list the telling named, or None when not so shaped."""
    sentences = _SENTENCE_END.split(text.strip())
    if len(sentences) < 2:
        return None
    for index in range(len(sentences) - 1, 0, -1):
        asked = sentences[index]
        if not _ASKING.search(asked):
            continue
        pointer = _ITS_NAME.search(asked) or _THAT_LIST.search(asked)
        if pointer is None or _names(asked[: pointer.start()], lists):
            return None  # the list named before the pointer is the one meant (after: a new name)
        named = _names(" ".join(sentences[:index]), lists)
        if len(named) != 1:
            return None
        listed = named.pop()
        said = (
            f"the name of {listed}" if _ITS_NAME.match(pointer.group(0)) else f"the {listed} list"
        )
        return f"{asked[: pointer.start()]}{said}{asked[pointer.end() :]}"
    return None


_RENAME_IT = re.compile(
    r"(?:[.!?]|,|\s[-–—])\s+(?P<asked>(?:(?:so|and|then|now)\s+)?(?:(?:could|can|would|will)\s+you\s+|"
    r"please\s+|kindly\s+)*(?:rename|retitle|(?P<deleted>delete|scrap|bin|ditch|trash))\s+)it\b"
    r"(?!['’]\w)(?(deleted)(?!\s+(?:from|off|out)\b))",
    re.I,
)
"""A rename (or a list's deletion) asked of "it" after a telling ("..., so could you rename it
to 'Tuesday Club'?", "We've outgrown the Baby Books list. Please delete it.")."""
_AS_A_LIST = (
    r"(?:\b{name}\s+(?:reading\s+)?list\b|\blist\s+(?:called\s+|named\s+)?['\"‘“]?{name}\b)"
)
"""A list's name said with the word "list" ("the Baby Books list", "my list 'Book Club'")."""


def _said_as_a_list(text: str, lists: Sequence[str]) -> set[str]:
    """The reader's lists `text` names with the word "list" beside the name."""
    return {n for n in lists if re.search(_AS_A_LIST.format(name=re.escape(n)), text, re.I)}


_ASKED_BEFORE = re.compile(
    r"^\s*(?:show|add|put|remove|take|delete|rename|rate|give|create|make|move|list|tell|find|"
    r"open|pull|let)\b|\?",
    re.I,
)
"""A request said before the rename: the list is then that request's, read as a compound."""


def list_renamed_after(text: str, lists: Sequence[str]) -> str | None:
    """The rename asked of "it" with the one list the telling before named, or None.

    "My list 'Book Club' is now only for the Tuesday group, so could you rename it to
    'Tuesday Book Club'?": "it" is Book Club; read whole, the new name lent the request a
    second list and it was asked about.
    """
    found = _RENAME_IT.search(text)
    if found is None or _ASKED_BEFORE.search(text[: found.start()]):
        return None  # "show me the Oldies list, then rename it": "it" is the list just used
    named = _names(text[: found.start()], lists)
    if len(named) > 1:
        # "outgrown the Baby Books list, she's reading chapter books now": a name said in
        # passing is no list meant; the one said as a list is
        named = _said_as_a_list(text[: found.start()], lists)
    if len(named) != 1:
        return None
    return f"{found.group('asked')}the {named.pop()} list{text[found.end() :]}"
