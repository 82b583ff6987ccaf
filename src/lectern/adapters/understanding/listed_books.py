"""A book misheard on a list it is on: the list's own book ("remove carry from horror").

Spoken requests spell a title by its sound ("carry" for *Carrie*, "anna karen nina"); when
the reader takes a book off a list, the books on that list (the names block's "listed"
lines) are the likeliest ones meant. A book the catalog does not hold as said is read as the
one book on the named list that sounds the same (`sound_key`: letters only, doubled letters
once, every run of vowels alike, "ph" as "f", "c"/"ck"/"q" as "k"); two alike, or none,
leave it as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lectern.domain.assistant import ToolCall
from lectern.domain.normalize.text import fold

_LISTED = re.compile(r"^- listed: (?P<title>.+) \(on (?P<list>[^()]*)\)$")


def listed_books(system: str) -> dict[str, list[str]]:
    """The titles on each of the reader's lists, as the names block shows them."""
    listed: dict[str, list[str]] = {}
    for line in system.splitlines():
        found = _LISTED.match(line.strip())
        if found:
            listed.setdefault(found["list"].casefold(), []).append(found["title"])
    return listed


def sound_key(words: str) -> str:
    """How words sound, roughly: what a misheard spelling keeps of a title."""
    text = fold(words.split(":")[0])
    text = text.replace("ph", "f").replace("ck", "k").replace("q", "k").replace("c", "k")
    letters = re.sub(r"[^a-z0-9]", "", text)
    # Vowels heard, not spelt: "carry"/"carrie", "frankenstien", "peice" alike.
    letters = re.sub(r"[aeiouy]+", "a", letters)
    return re.sub(r"(.)\1+", r"\1", letters)


def _sounds_like(said: str, titles: Sequence[str]) -> str | None:
    key = sound_key(said)
    alike = {t for t in titles if key and sound_key(t) == key}
    alike |= {
        t
        for t in titles
        if key and sound_key(re.sub(r"^(?:the|a|an)\s+", "", t, flags=re.I)) == key
    }
    return alike.pop() if len(alike) == 1 else None


def on_the_list(
    calls: Sequence[ToolCall], system: str, holds: Callable[[str], bool]
) -> list[ToolCall]:
    """The calls, a removed book the catalog does not hold read as the list's book like it."""
    listed = listed_books(system)
    settled: list[ToolCall] = []
    for call in calls:
        book, named = call.arguments.get("book"), call.arguments.get("list")
        if (
            call.name == "remove_from_list"
            and isinstance(book, str)
            and isinstance(named, str)
            and not holds(book)
        ):
            meant = _sounds_like(book, listed.get(named.casefold(), ()))
            if meant is not None:
                call = ToolCall(call.id, call.name, {**call.arguments, "book": meant})
        settled.append(call)
    return settled
