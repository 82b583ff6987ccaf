"""A bare "look up X" from a reader with projects, when X is no book of the catalog.

"look up simulation": for a reader of the book assistant alone it would be a book's record;
with projects to speak of and no catalog title (nor a misspelling of one) in the words, it
is a search of the reader's workspace, not a record that does not exist.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lectern.adapters.llm.workspace_questions import MODEL_ID, CallMaker, Stage
from lectern.adapters.llm.workspace_replies import _search_reply
from lectern.domain.assistant import AIResponse

_LOOK_UP = re.compile(
    r"^(?:please\s+)?look\s+up\s+(?P<q>(?!(?:some|any|a\s+few|good|the\s+book|books?|novels?|"
    r"titles?|authors?)\b)[^?!.]{2,60}?)(?:\s+(?:please|for\s+me))?\W*$",
    re.I,
)
_BOOKISH = re.compile(r"\b(?:books?|novels?|authors?|by\s+[A-Z]\w+|reading|read)\b", re.I)


def workspace_look_up(
    text: str,
    holds: Callable[[str], bool],
    spelt: Callable[[str], str | None] | None,
    call: CallMaker,
) -> list[Stage]:
    """The workspace search a look-up of no catalog book is, or [] (a book's, or not one).

    `holds(words)`: the catalog has a book so titled; `spelt(words)`: the title they misspell.
    """
    found = _LOOK_UP.match(text.strip())
    if found is None or _BOOKISH.search(text):
        return []
    query = re.sub(r"^(?:the|our|my)\s+", "", found.group("q").strip(), flags=re.I)
    if holds(query) or (spelt is not None and spelt(query) is not None):
        return []
    searched = call("search_content", query=query)
    return [lambda _: [searched], lambda done: AIResponse(_search_reply(done), model=MODEL_ID)]
