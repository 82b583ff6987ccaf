"""The question for a thing pointed at but not named, in the words of where the reader is.

The book rules ask "Which book should I use?" when "it" or "the second one" points at
nothing they know. On a task, project or document page, or from a reader with projects whose
message says nothing of books, lists, ratings or the catalog ("what's the second one
about?" with no listing before it), a book was never meant: the question asks for the task.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.workspace_patterns import WORKSPACE_PAGE

_BOOKISH = re.compile(
    r"\b(?:books?|novels?|reads?|reading|read\s+list|stories|story|fiction|poe(?:ms?|try)|"
    r"memoirs?|authors?|writers?|titles?|series|catalog(?:ue)?|lists?|shelf|shelves|tbr|"
    r"rat(?:e|ed|ing|ings)|stars?|genres?|sequel|prequel|chapters?|pages?)\b",
    re.I,
)
"""Words that speak of books or the reader's lists: the book question stands."""
TASK_QUESTION = Clarification("Which task do you mean? Name it, or ask from its page.", ())


def asks_for_a_task(text: str, system: str) -> bool:
    """Whether an unnamed "it" or place in `text` is to be asked about as a task, not a book."""
    if WORKSPACE_PAGE.search(system):
        return True
    names = names_from_prompt(system)
    if not names.of("project"):
        return False
    lists = names.of("list")
    if any(re.search(rf"\b{re.escape(name)}\b", text, re.I) for name in lists):
        return False
    return not _BOOKISH.search(text)
