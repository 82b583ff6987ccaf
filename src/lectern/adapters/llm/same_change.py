"""The same change again with another book: "and Red Queen too", "same for Holes".

After a rating, "actually make that 4" is that rating again with the new grade.

"Put Cinder on TBR, and Red Queen too" adds both; after "add Hatchet to Kids", "same for
Bridge to Terabithia" adds that one to Kids. The change is read once (from this message, or
from the reader's last one) and made again with the other book in place of its book. Only a
catalog title counts as the other book, so "..., also add it to Summer" (a request of its
own) and "same for the kids" are never read this way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lectern.adapters.llm.book_compound import BOOK_ACTIONS
from lectern.adapters.understanding.compound import only_regrade, rated
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.rating_moved import regrade_remark_dropped
from lectern.adapters.understanding.scaffold import Done
from lectern.adapters.understanding.slots import regraded
from lectern.domain.assistant import Message, ToolCall

_ANOTHER_BOOK = re.compile(
    r"^(?P<request>.+?)(?:\s*[,;]\s*|\s+)(?:and|&|plus)\s+(?:also\s+)?(?P<other>[^,;]+?)\s+"
    r"(?:too|as\s+well|also)\W*$"
    r"|^(?P<request2>.+?)\s*[,;.]\s*(?:and\s+)?(?:also|plus)\s+(?P<other2>[^,;.]+?)\W*$",
    re.I,
)
"""A change, then another book it holds for ("..., and Red Queen too", "..., also Emma")."""
_SAME_FOR = re.compile(
    r"^(?:(?:and|ok(?:ay)?|now|then)\W+)*(?:(?:do\s+|and\s+)?(?:the\s+)?same\s+(?:thing\s+)?"
    # "same again for The Peach Keeper"
    r"(?:again\s+)?(?:for|with)|ditto\s+(?:for|with)|likewise\s+(?:for|with))\s+(?P<other>.+?)\W*$",
    re.I,
)
"""The last change again for another book ("same for Holes", "do the same with Emma")."""
_AND_THEN = re.compile(r"^(?:(?:and|&|plus|then|also)\s+)?(?P<rest>.+)$", re.I)
"""A message that goes on from the last one ("and Mort 5"; its "and" may be read off)."""

Planner = Callable[[str, Sequence[Message]], list[ToolCall]]
"""The change calls a message (read with the talk before it) asks for, or []."""
Caller = Callable[..., ToolCall]


def _again(calls: list[ToolCall], other: str, call: Caller) -> list[ToolCall]:
    """`calls`, then each made again with `other` as its book; [] unless each is a change."""
    if not calls or any(c.name not in BOOK_ACTIONS or "book" not in c.arguments for c in calls):
        return []
    return [*calls, *(call(c.name, **{**c.arguments, "book": other}) for c in calls)]


def _last_calls(history: Sequence[Message], plan: Planner) -> list[ToolCall]:
    """The calls the reader's last message asked for, read again with the talk before it."""
    last = max((i for i, m in enumerate(history) if m.role == "user"), default=-1)
    return plan(history[last].content, history[:last]) if last >= 0 else []


def with_another_book(
    text: str,
    history: Sequence[Message],
    is_title: Callable[[str], bool],
    plan: Planner,
    call: Caller,
) -> list[ToolCall]:
    """The change `text` asks for, then the same for the other book it adds, or []."""
    found = _ANOTHER_BOOK.match(text.strip())
    if found is None:
        return []
    request = found.group("request") or found.group("request2")
    other = (found.group("other") or found.group("other2")).strip()
    if not is_title(other):
        return []
    return _again(plan(request, history), other, call)


def same_for(
    text: str,
    history: Sequence[Message],
    is_title: Callable[[str], bool],
    plan: Planner,
    call: Caller,
) -> list[ToolCall]:
    """The reader's last change made again for the book `text` names, or []."""
    found = _SAME_FOR.match(text.strip())
    if found is None or not is_title(found.group("other")):
        return []
    before = _last_calls(history, plan)
    return _again(before, found.group("other").strip(), call)[len(before) :]


def rated_next(
    text: str,
    history: Sequence[Message],
    is_title: Callable[[str], bool],
    plan: Planner,
    call: Caller,
) -> list[ToolCall]:
    """After a rating, "and Mort 5" rates another book with its own stars, or [].

    The verb is the last message's: only when that one rated a book, and only for a
    catalog title. "actually make that 4" rates the last book again (`regraded_last`).
    """
    again = regraded_last(text, history, plan, call)
    if again:
        return again
    found = _AND_THEN.match(text.strip())
    book_stars = rated(found.group("rest")) if found else None
    if book_stars is None or not is_title(book_stars[0]):
        return []
    before = _last_calls(history, plan)
    if not before or any(c.name != "rate_book" for c in before):
        return []
    return [call("rate_book", book=book_stars[0], stars=book_stars[1])]


def regraded_last(
    text: str, history: Sequence[Message], plan: Planner, call: Caller
) -> list[ToolCall]:
    """After a rating, "actually make that 4" rates the same book again with the new grade.

    Only when the reader's last message rated, and this one says nothing but the grade (and a
    remark after it).
    """
    text = regrade_remark_dropped(text)  # "make that 4. the middle dragged": a remark after
    stars = regraded(text) if only_regrade(text) else None
    before = _last_calls(history, plan) if stars is not None else []
    if not before or any(c.name != "rate_book" for c in before):
        return []
    return [call("rate_book", **{**c.arguments, "stars": stars}) for c in before]


def nothing_to_repeat(
    text: str,
    history: Sequence[Message],
    is_title: Callable[[str], bool],
    plan: Planner,
) -> Clarification | None:
    """The question for "same for Emma" with no change before it to make again, or None.

    Without this the message was read by its nearest intent alone ("Which book, and how
    many stars?" when no rating had been talked of).
    """
    found = _SAME_FOR.match(text.strip())
    if found is None or not is_title(found.group("other")):
        return None
    if any(c.name in BOOK_ACTIONS and "book" in c.arguments for c in _last_calls(history, plan)):
        return None
    other = found.group("other").strip()
    return Clarification(
        f"What should I do with {other}? I don't see an earlier change to make again.",
        (f"Add {other} to a list", f"Rate {other}", f"Tell me about {other}"),
    )


def first_stage(steps: Sequence[Callable[[Done], object]]) -> list[ToolCall]:
    """The calls a plan's first stage makes, or [] when it answers or asks instead."""
    if len(steps) < 2:
        return []
    stage = steps[0](Done([], []))
    return stage if isinstance(stage, list) else []
