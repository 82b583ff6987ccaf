"""The reader's last list change undone: "actually no take it off again", "put it back".

Found on dev18: after "add Peter Pan to Bedtime", "actually no take it off again, too scary
with the pirates" names neither the book nor the list; both are the last change's. A removal
of "it" that names no list, just after a book was put on one, takes it off that list; a
book put back ("actually put it back") after a removal goes on the list it left. The
reason said after it ("too scary with the pirates") asks nothing. Only when the reader's last
message made exactly that one change: with none, or another kind, the other rules read it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lectern.adapters.understanding.book_patterns import ADD_VERB, REMOVE_VERB
from lectern.adapters.understanding.compound import ACTION_VERB
from lectern.domain.assistant import Message, ToolCall

_LEAD = (
    r"^(?:(?:actually|no|nope|nah|wait|hmm+|um+|oh|ah|sorry|ok(?:ay)?|on\s+second\s+thoughts?|"
    r"second\s+thoughts?|scratch\s+that|changed\s+my\s+mind|i['’]ve\s+changed\s+my\s+mind|"
    r"you\s+know\s+what|undo\s+(?:that|it)|then|so|and|please|pls|can\s+you|could\s+you|just)\b[\s,.!:;–—-]*)*"
)
_IT = r"(?:it|that|this(?:\s+one)?|that\s+one|them)"
_AGAIN = r"(?:\s+(?:again|back|too|please|pls|now|then|after\s+all))*"
_REMARK = r"(?:\s*(?:[,;.!–—]|\s-+)\s*(?P<remark>[^?]*?))?\W*$"
_TAKEN_OFF = re.compile(
    rf"{_LEAD}(?:(?:remove|delete)\s+{_IT}|(?:{REMOVE_VERB})\s+{_IT}(?:\s+back)?\s+(?:off|out))"
    rf"{_AGAIN}{_REMARK}",
    re.I,
)
"""A removal of the book just placed, no list named ("take it off again, too scary")."""
_PUT_BACK = re.compile(
    rf"{_LEAD}(?:{ADD_VERB})\s+{_IT}\s+back(?:\s+(?:on|in))?{_AGAIN}{_REMARK}",
    re.I,
)
"""A book put back where it was taken from ("actually put it back on")."""
_ASKS = re.compile(rf"\b(?:{ACTION_VERB})\b", re.I)

Planner = Callable[[str, Sequence[Message]], list[ToolCall]]
Caller = Callable[..., ToolCall]


def undone_last(
    text: str, history: Sequence[Message], lists: Sequence[str], plan: Planner, call: Caller
) -> list[ToolCall]:
    """The reader's last add (or removal) made the other way, or [] when `text` is not that."""
    said = text.strip()
    taken = _TAKEN_OFF.match(said)
    back = None if taken else _PUT_BACK.match(said)
    found = taken or back
    if found is None:
        return []
    remark = found["remark"] or ""
    if _ASKS.search(remark) or any(
        re.search(rf"(?<!\w){re.escape(name)}(?!\w)", remark, re.I) for name in lists
    ):
        return []  # "take it off again and add it to Summer": a request of its own
    last = max((i for i, m in enumerate(history) if m.role == "user"), default=-1)
    if last < 0:
        return []
    before = plan(history[last].content, history[:last])
    was = "add_to_list" if taken else "remove_from_list"
    if len(before) != 1 or before[0].name != was:
        return []
    arguments = before[0].arguments
    if "book" not in arguments or "list" not in arguments:
        return []
    undo = "remove_from_list" if taken else "add_to_list"
    return [call(undo, list=arguments["list"], book=arguments["book"])]
