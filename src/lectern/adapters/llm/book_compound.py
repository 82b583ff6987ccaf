"""Several book requests in one message, read part by part.

"add X to Y and rate it 4", "we need a list for the club, call it Picks, then put X on it":
`clauses` cuts the message where another request starts; each part is planned alone by the
policy's `_plan`, a later part's "it" being the book an earlier one named and "to it" the list
an earlier one made. A part that asks nothing alone is read with the next (once). `fuller`
prefers this reading to one that stops at the first request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from lectern.adapters.llm.list_pointing import on_the_list as _on_the_list
from lectern.adapters.llm.list_pointing import with_the_book
from lectern.adapters.llm.rule_replies import _summary
from lectern.adapters.llm.rule_steps import MODEL_ID, BookSteps
from lectern.adapters.understanding.compound import clauses
from lectern.adapters.understanding.list_told import list_told
from lectern.adapters.understanding.mentions import names_from_prompt, with_name
from lectern.adapters.understanding.referents import _NoReferent
from lectern.adapters.understanding.request_sentence import only_tells
from lectern.adapters.understanding.scaffold import Done as _Done
from lectern.adapters.understanding.scaffold import Step
from lectern.domain.assistant import AIResponse, Message, ToolCall

BOOK_WORDS = re.compile(
    r"\b(?:books?|novels?|reads|stories|story|fiction|poetry|poems|biograph\w*|memoirs?|"
    r"thrillers?|myster(?:y|ies)|romances?|sci-?fi|fantasy|horror|space\s+operas?|"
    r"cyberpunk|steampunk|dystopi\w*|westerns|whodunn?its?|crime\s+fiction|noir|manga|"
    r"graphic\s+novels?|short\s+stories|essays|literature)\b",
    re.I,
)
"""Words that say a request is for books ("find me some thrillers")."""
BOOK_ACTIONS = frozenset(
    {
        "add_to_list",
        "remove_from_list",
        "rate_book",
        "create_list",
        "delete_list",
        "rename_list",
        "propose_correction",
    }
)
"""The book tools that change something: what the clauses of a compound request may do."""


class CompoundReading:
    """Reads a message of several book requests part by part, over the policy's `_plan`."""

    steps: BookSteps
    _plan: Callable[..., Any]
    _verdict_on: Callable[[str], str | None]

    def _compound(
        self,
        history: Sequence[Message],
        system: str,
        available: set[str],
        *,
        nested: bool,
        given: Sequence[str] = (),
    ) -> Callable[[str, Callable[[str], str]], list[Step]]:
        """Several requests in one message ("add X to Y and rate it 4"), each part read alone.

        A later part's "it" is the book an earlier one named, and "to it" (or an entry with
        no list named) the list an earlier one made, renamed or used. Every part must plan
        calls with no question, and a look-up must be read by a pattern, not by meaning;
        otherwise the message is read whole, as before. The reply answers each part in turn.
        """

        def matcher(text: str, it: Callable[[str], str]) -> list[Step]:
            del it
            # `given`: the requests as the reader set them out, one a line
            parts = list(given) if given else [] if nested else clauses(text)
            if not parts:
                return []
            planned: list[tuple[list[ToolCall], Step]] = []
            referent: str | None = None
            listed: str | None = None
            seen = system
            index = -1
            joined = False
            while index < len(parts) - 1:
                index += 1
                part = _on_the_list(parts[index], listed)
                part = with_the_book(part) if index else part
                if index < len(parts) - 1 and only_tells(part):
                    # "I have read this book in Russian as a student. Please rate it 5": what
                    # the reader did is told, not asked; a book it names is a later "it"
                    referent = self._verdict_on(part) or referent
                    continue
                try:
                    sub = self._plan(part, history, seen, available, referent, nested=True)
                except _NoReferent:
                    return []
                stage = sub.steps[0](_Done([], [])) if len(sub.steps) >= 2 else None
                first = stage if isinstance(stage, list) else []
                if not first or (
                    # A look-up read only by meaning is not trusted inside a compound.
                    sub.by_meaning
                    and any(
                        c.name not in BOOK_ACTIONS
                        and not (c.name == "search_books" and BOOK_WORDS.search(part))
                        and not _shows_a_list_named(c, part, seen)
                        for c in first
                    )
                ):
                    last = index == len(parts) - 1
                    # "I loved Dune, show me more like it" (or "I adored Gilead, now ..."): a
                    # verdict that asks for nothing names the book a later "it" means.
                    verdict = None if last else self._verdict_on(part)
                    # "this is on my Spooky list by mistake, please take it off": the telling
                    # names the list a later part takes "it" off.
                    told = None if last else list_told(part, names_from_prompt(seen))
                    listed = told or listed
                    if verdict is not None or told is not None:
                        referent = verdict or referent
                        continue
                    if joined or last:
                        return []
                    # "we need a list for the club, call it Picks, and put X on it": a part
                    # that asks for nothing alone may be half of one request; read it with
                    # the next (once).
                    parts[index : index + 2] = [f"{parts[index]}, {parts[index + 1]}"]
                    joined = True
                    index -= 1
                    continue
                said = {(c.name, repr(sorted(c.arguments.items()))) for p, _ in planned for c in p}
                first = [
                    c for c in first if (c.name, repr(sorted(c.arguments.items()))) not in said
                ]
                if not first:
                    continue  # "Rebecca doesn't belong on X, take it off": one change said twice
                planned.append((first, sub.steps[1]))
                books = [c.arguments["book"] for c in first if c.arguments.get("book")]
                referent = str(books[-1]) if books else referent
                for call in first:
                    named = call.arguments.get("new_name") or (
                        call.arguments.get("name") if call.name == "create_list" else None
                    )
                    listed = str(named or call.arguments.get("list") or listed or "") or None
                    if named:
                        # A list this message makes (or renames to) is one a later part may use.
                        seen = with_name(seen, "list", str(named))
            if not planned:
                return []
            if all(c.name in BOOK_ACTIONS for calls, _ in planned for c in calls):
                return self.steps.single_calls([c for calls, _ in planned for c in calls])
            return in_turn(planned)

        return matcher


_SHOW = re.compile(
    r"^(?:please\s+)?(?:(?:can|could|would)\s+you\s+)?(?:show|open|view|see|display|pull\s+up|"
    r"bring\s+up|what(?:['’]s|\s+is)\s+(?:on|in))\b",
    re.I,
)
"""A part that asks to be shown something: "Sci-fi list, ..." alone asks nothing."""


def _shows_a_list_named(call: ToolCall, part: str, system: str) -> bool:
    """Whether a part asks to see one of the reader's lists, named word for word.

    "show me the Japan list" read by meaning is trusted inside a compound: the stored name
    said in the part confirms the reading.
    """
    listed = call.arguments.get("list")
    return (
        call.name == "get_list_details"
        and _SHOW.match(part) is not None
        and isinstance(listed, str)
        and listed in names_from_prompt(system).of("list")
        and re.search(rf"\b{re.escape(listed)}\b", part, re.I) is not None
    )


def fuller(steps: list[Step], parts: list[Step]) -> list[Step]:
    """`parts` (the message read part by part) when it asks for more changes than `steps`.

    Only against a plan whose first stage is all changes ("make X and put Rebecca on it"): a
    plan that searches first ("... and put two dystopian novels on it") makes its changes
    from the results, so its first stage does not count them.
    """
    if not parts:
        return steps
    first = steps[0](_Done([], []))
    if not isinstance(first, list) or not all(c.name in BOOK_ACTIONS for c in first):
        return steps
    later = parts[0](_Done([], []))
    more = isinstance(later, list) and sum(c.name in BOOK_ACTIONS for c in later) > len(first)
    return parts if more else steps


def in_turn(planned: list[tuple[list[ToolCall], Step]]) -> list[Step]:
    """Every part's calls in one stage, then each part's own reply over its own results."""
    calls = [c for part_calls, _ in planned for c in part_calls]

    def reply(done: _Done) -> AIResponse:
        texts: list[str] = []
        at = 0
        for part_calls, told in planned:
            size = len(part_calls)
            own = _Done(done.calls[at : at + size], done.results[at : at + size])
            at += size
            outcome = told(own)
            text = outcome.text if isinstance(outcome, AIResponse) else _summary(own)
            if text and text not in texts:
                texts.append(text)
        return AIResponse("\n\n".join(texts), model=MODEL_ID)

    return [lambda _: calls, reply]
