"""The book rules' reading-list requests: make, fill, rename, delete, show and move lists.

Each matcher reads the reader's own message against a pattern (`book_patterns.py` and the
list patterns here) and, when it matches, returns the stages of a plan in `RulePolicy`'s
form; otherwise `[]`, and the policy tries the next one. A list named that the reader does
not have, or a "list" that names nothing ("delete the list"), gets a question, not a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rapidfuzz import utils

from lectern.adapters.llm.rule_replies import (
    _books,
    _books_reply,
    _list_reply,
    _lists_reply,
    _summary,
)
from lectern.adapters.llm.rule_steps import MODEL_ID, BookSteps
from lectern.adapters.understanding.book_patterns import (
    ADD,
    ADD_VERB,
    ARROW,
    BY_WRITER_AFTER,
    COUNT_ONTO_LIST,
    CREATE,
    CREATE_LABELLED,
    CREATE_QUOTED,
    CREATE_WISH,
    DELETE,
    DELETE_VERB,
    FIND_AND_ADD,
    LIST_DETAILS,
    LIST_WITH,
    LISTS,
    NAME_SHOULD_BE,
    NOT_YOUTH,
    REASON_AFTER,
    REASON_WORDS,
    REMOVE,
    REMOVE_VERB,
    RENAME,
    SENT_ONTO,
)
from lectern.adapters.understanding.compound import titles_in
from lectern.adapters.understanding.layer import Clarification, name_it
from lectern.adapters.understanding.mentions import resolve
from lectern.adapters.understanding.move_unplaced import unplaced_move
from lectern.adapters.understanding.remarks import remark_after, without_reason_told
from lectern.adapters.understanding.scaffold import NUMBER, POLITE, Step
from lectern.adapters.understanding.scaffold import Done as _Done
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.scaffold import number as _number
from lectern.adapters.understanding.slots import list_name_of
from lectern.domain.assistant import AIResponse, ToolCall

_NUMBER = NUMBER
_UTTERLY = re.compile(
    r"\s+(?:entirely|completely|altogether|for\s+good|permanently|forever)$", re.I
)
"""How thoroughly to delete ("the list Summer entirely"): not part of the list's name."""
_NO_NAME = re.compile(r"^(?:the|a|an|my|this|that|it|one|our)?$", re.I)
"""A list "name" that names nothing ("delete the list")."""
_CONTENTS = re.compile(
    r"^(?:(?:show|tell)(?:\s+me)?\s+(?=what|which|the|in|on))?"
    r"(?:what(?:'?s| is| are)|show(?: me)?|list|which books are|open)\s+(?:the\s+)?"
    r"(?:books\s+)?(?:(?:in|on)\s+)?(?:my\s+|the\s+)?(?P<name>.+?)\W*$",
    re.I,
)
"""A list's contents asked for by the list's own name, no word "list" needed."""
_LIST_WITH_TITLES = re.compile(
    r"^(?:please\s+)?(?:make|create|start|set up|build)\s+(?:me\s+)?(?:a\s+)?(?:new\s+)?"
    r"(?:reading\s+)?list\s+(?:called\s+|named\s+|titled\s+)?(?P<name>.+?)\s+with\s+"
    r"(?P<books>.+?)(?P<on_it>\s+(?:on|in)\s+it)?\W*$",
    re.I,
)
"""A new list with the books it should hold, named rather than counted."""
_TITLES_ONTO_NEW_LIST = re.compile(
    rf"^(?:please\s+)?{ADD_VERB}\s+(?P<books>.+?)\s+(?:on|onto|to|in|into)\s+a\s+(?:new|fresh)\s+"
    r"(?:reading\s+)?list\s*(?:,\s*)?(?:called|named|titled)\s+(?P<name>.+?)\W*$",
    re.I,
)
"""The books first, then the new list they go on ("put Dracula and Frankenstein on a new list
called Spooky season")."""
_MOVE = re.compile(
    r"^(?:please\s+)?(?:move|shift|transfer|switch)\s+(?P<book>.+?)\s+(?:from|off)\s+"
    r"(?:my\s+|the\s+)?(?P<src>.+?)(?:\s+list)?\s+(?:to|onto|into|over\s+to)\s+"
    r"(?:my\s+|the\s+)?(?P<dst>.+?)(?:\s+list)?\W*$",
    re.I,
)
"""A book moved from one list to another: both named, both the reader's."""
_MOVE_TO = re.compile(
    r"^(?:please\s+)?(?:move|shift|transfer)\s+(?P<book>.+?)\s+(?:to|onto|into|over\s+to)\s+"
    r"(?:my\s+|the\s+)?(?P<dst>.+?)(?:\s+list)?(?:\s+(?:please|pls|plz|too|as\s+well))?\W*$",
    re.I,
)
"""A book moved onto one of the reader's lists, no list said it leaves: it goes on that one."""


def _as_stored(said: str, lists: Sequence[str]) -> str:
    """A list's name as the reader's list is spelt ("sci fi" -> "Sci-fi"), else as said.

    A slip in the name ("Favorits" for "Favourites") is the one stored list clearly closest
    (`_not_theirs` takes it for theirs); two alike are neither, and the name stays as said.
    """
    if not lists:
        return said
    return resolve(said, lists, cutoff=90).name or resolve(said, lists, cutoff=85).name or said


def _not_theirs(said: str, lists: Sequence[str]) -> list[Step]:
    """A question when `said` is none of the reader's lists, or fits two of them alike.

    "the winter list" for a reader with "Winter 2023" and "Winter 2024" is either; a list
    they lack is no list to change. `[]` when it names one of theirs (or none are known).
    """
    if not lists or _NO_NAME.match(said):
        return []
    found = resolve(said, lists, cutoff=85)
    if found.name is not None:
        return []
    if found.ambiguous:
        asked = Clarification(
            "Which list do you mean: " + " or ".join(found.candidates) + "?",
            found.candidates,
        )
    else:
        asked = Clarification(
            f"You have no list called {said!r}. Which of your lists do you mean?",
            tuple(lists)[:3],
        )
    return [lambda _: asked.response(MODEL_ID)]


_ONTO_THEIRS = re.compile(
    rf"^(?:please\s+)?{ADD_VERB}\s+(?P<book>.+?)\s+(?:to|onto|into|on)\s+(?:my\s+|the\s+)?"
    r"(?P<list>[^,:]+?)(?:\s+too|\s+as\s+well)?\W*$",
    re.I,
)
"""A book put on a list said by its name alone ("pop Kindred into the Gifts"): only when the
name is one of the reader's lists, word for word."""
_OFF_THEIRS = re.compile(
    rf"^(?:please\s+)?{REMOVE_VERB}\s+(?P<book>.+?)\s+(?:from|off|out\s+of)\s+(?:of\s+)?"
    r"(?:my\s+|the\s+)?(?P<list>[^,:]+?)\W*$",
    re.I,
)
"""A book taken off a list said by its name alone: only one of the reader's, word for word."""


_RENAME_THEIRS = re.compile(
    r"^(?:please\s+)?rename\s+(?:my\s+|the\s+)?(?P<old>.+?)\s+(?:to|as|into)\s+(?P<new>.+?)"
    r"(?:\s+instead)?\W*$",
    re.I,
)
"""A list renamed by its name alone: only one of the reader's, word for word."""


_BOOK_MOVES = re.compile(
    r"^(?P<book>.+?)\s+(?:(?:can|could|should|must|needs?\s+to|has\s+to|is\s+to|will)\s+"
    # "Kindred goes on the second list": said as settled (not "put X and Y goes on ...")
    r"(?!comes|goes)|(?P<bare>(?=comes|goes)))"
    r"(?:(?P<off>come|go|be\s+(?:taken|removed|dropped))(?:e?s)?\s+(?:off|out\s+of|from)|"
    r"(?P<on>go|be\s+(?:added|put))(?:es)?\s+(?:on|onto|in|into|to))\s+(?:my\s+|the\s+)?"
    r"(?P<list>.+?)(?:\s+(?:reading\s+)?list)?(?:\s+(?:now|please|too))?\W*$",
    re.I,
)
"""A book said to leave or join a list ("Kindred can come off Gifts now", "Dune goes on
Summer"): one of theirs."""
_ASKED_VERB = re.compile(rf"^(?:please\s+)?(?:{ADD_VERB}|{REMOVE_VERB}|move)\b", re.I)
_ASKED_WHICH = re.compile(
    r"^(?:so\s+|and\s+|then\s+)?(?:what|which|whatever|who)"
    r"(?:\s+(?:else|other|others|more|books?|ones?|titles?|novels?|reads?|of\s+(?:them|these|my\s+books)))*$",
    re.I,
)
_QUESTION_LEADS = re.compile(r"^(?:what|which|who)\b", re.I)
"""A subject that asks rather than names ("what goes on Summer?", "which book goes on TBR"):
the list is asked about, no book moves."""
_CLAUSE_BEFORE = re.compile(
    r"^.*[,;.!?]\s+(?:(?:so|and|but|then|now)\s+)*(?=(?:it|this|that)(?:\s+(?:one|book))?$)",
    re.I,
)
"""What was told before a clause whose subject is "it" ("I loved it, so it can ...")."""
_TOLD_BEFORE = re.compile(r"^.*\b(?:i|we)(?:['’](?:ve|m|d|re))?\b[^.!?]*[.!?]+\s+(?=\S)", re.I)
"""A sentence the reader told of themselves before the book ("I've got three going. Kindred
goes on ...")."""


def _theirs_exactly(said: str, lists: Sequence[str]) -> str | None:
    """The reader's list `said` spells, word for word (case and punctuation aside)."""
    key = utils.default_process(said)
    return next((name for name in lists if utils.default_process(name) == key), None)


_SEVERAL_DELETED = re.compile(
    rf"^(?:please\s+)?{DELETE_VERB}\s+(?:both\s+)?(?:my\s+|the\s+)?(?:both\s+)?(?P<run>.+?)"
    r"(?:\s+(?:reading\s+)?lists)?\W*$",
    re.I,
)
_CLEARED_UNNAMED = re.compile(
    r"^(?:please\s+)?(?:clear|empty|clean|wipe)\s+(?:out\s+|up\s+)?(?:my|the|a|this|that)\s+"
    r"(?:reading\s+)?list(?:\s+out)?\W*$",
    re.I,
)
"""A list to be emptied with none named ("clear out my list")."""
_FROM_A_LIST = re.compile(r"\b(?:from|off|out\s+of)\b", re.I)
_REASON_AFTER = re.compile(rf"\s*[,;.!-]+\s*{REASON_WORDS}\b.*$", re.I)
"""Why, said after the request, after any punctuation ("... - I'm starting over"): no part of
a list's name."""


class ListRules:
    """The reading-list requests by rules: each matcher returns a plan's stages, or `[]`."""

    def __init__(self, steps: BookSteps, search_call: Callable[[str, int], ToolCall]) -> None:
        """`steps` makes the calls; `search_call` the search that fills a list by count."""
        self.steps = steps
        self.search_call = search_call

    def _list_with_titles(self, text: str) -> list[Step]:
        """A new list and the books named for it ("a list X with Emma and Persuasion on it")."""
        match = _LIST_WITH_TITLES.match(text) or _TITLES_ONTO_NEW_LIST.match(text)
        if not match:
            return []
        name = _clean(list_name_of(text) or match.group("name"))
        run = match.group("books")
        titles = self.steps.titles
        if titles is not None:
            books = titles_in(run, titles)
            if not all(titles(b) for b in books):
                return []
        elif match.re is _LIST_WITH_TITLES and match.group("on_it"):
            books = [run]
        else:
            return []
        if not name or _NO_NAME.match(name):
            return []
        calls = [self.steps.call("create_list", name=name)]
        calls += [self.steps.call("add_to_list", list=name, book=book) for book in books]
        return self.steps.single_calls(calls)

    def list_with_books(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """A compound request: a new list, filled in the same turn ("with two ...", "and add X")."""
        match = LIST_WITH.match(text)
        if not match:
            return self._list_with_titles(text)
        name = _clean(list_name_of(text) or match.group("name"))
        if not name:
            return []
        added = match.group("book")
        counted = re.match(rf"^{_NUMBER}\s+(?P<rest>.+)$", added or "", re.I)
        if added and not counted:
            book = it(added)
            # "and add Middlemarch and Wuthering Heights to it": one entry per catalog title.
            calls = [
                self.steps.call("create_list", name=name),
                *self.steps.each_book([self.steps.call("add_to_list", list=name, book=book)]),
            ]
            return [lambda _: calls, lambda done: AIResponse(_summary(done), model=MODEL_ID)]
        # "with two dystopian novels", or "and put two cozy mysteries on it": a count and a
        # search, not a book named "two cozy mysteries".
        query = counted.group("rest") if counted else match.group("query")
        count = counted.group("n") if counted else match.group("n")
        adults = bool(NOT_YOUTH.search(query))
        query = NOT_YOUTH.sub("", query).strip(" ,")
        search = self.search_call(query, _number(count, 3))
        if adults and not search.arguments.get("exclude_youth"):
            search = ToolCall(search.id, search.name, {**search.arguments, "exclude_youth": True})

        def propose(done: _Done) -> AIResponse | list[ToolCall]:
            books = _books(done.results[-1] if done.results else None)
            if not books:
                return AIResponse(_books_reply(done, search), model=MODEL_ID)
            return [self.steps.call("create_list", name=name)] + [
                self.steps.call("add_to_list", list=name, book=b["book_id"]) for b in books
            ]

        return [lambda _: [search], propose]

    def find_and_add(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """Books found by a search and put on a list ("find three thrillers for my Summer list")."""
        del it
        match = FIND_AND_ADD.match(text) or COUNT_ONTO_LIST.match(text)
        if not match:
            return []
        name = _clean(match.group("name1") or match.group("name2"))
        search = self.search_call(match.group("query"), _number(match.group("n"), 3))
        new = bool(match.group("new")) or bool(match.group("name1"))

        def propose(done: _Done) -> AIResponse | list[ToolCall]:
            books = _books(done.results[-1] if done.results else None)
            if not books:
                return AIResponse(_books_reply(done, search), model=MODEL_ID)
            calls = [self.steps.call("create_list", name=name)] if new else []
            calls += [self.steps.call("add_to_list", list=name, book=b["book_id"]) for b in books]
            return calls

        return [lambda _: [search], propose]

    def overview(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """The reader's lists, asked for as such ("what lists do I have?")."""
        del it
        if not LISTS.search(text):
            return []
        call = self.steps.call("get_reading_lists")
        return [lambda _: [call], lambda done: AIResponse(_lists_reply(done), model=MODEL_ID)]

    def details(self, text: str, it: Callable[[str], str], lists: Sequence[str] = ()) -> list[Step]:
        """One list's books, asked for with the word "list"."""
        del it
        match = LIST_DETAILS.match(text)
        if not match:
            return []
        said = _clean(match.group("name"))
        if _NO_NAME.match(said) and len(lists) != 1:
            # "what's on the list?" with no list in view and several of theirs: which one.
            return [lambda _: name_it("list", "show", lists).response(MODEL_ID)]
        name = lists[0] if _NO_NAME.match(said) else _as_stored(said, lists)
        call = self.steps.call("get_list_details", list=name)
        return [lambda _: [call], lambda done: AIResponse(_list_reply(done), model=MODEL_ID)]

    def move(self, text: str, it: Callable[[str], str], lists: Sequence[str]) -> list[Step]:
        """A book moved between two of the reader's lists: off one, onto the other."""
        match = _MOVE.match(text)
        onto = _MOVE_TO.match(text) if not match else None
        if onto is not None and not re.search(r"\b(?:from|off)\b", onto.group("book"), re.I):
            # "rate emma 3 and move it to tbr": onto TBR (read by meaning, the move was taken
            # for a removal from TBR: the wrong way round)
            target = resolve(_clean(onto.group("dst")), lists, cutoff=85).name if lists else None
            if target is not None:
                book = it(onto.group("book"))
                return self.steps.single_calls(
                    [self.steps.call("add_to_list", list=target, book=book)]
                )
        if not match:
            unplaced = unplaced_move(text, list(lists))
            return [lambda _: unplaced.response(MODEL_ID)] if unplaced else []
        ends = [resolve(_clean(match.group(g)), lists, cutoff=85).name for g in ("src", "dst")]
        if not lists or None in ends:
            return []
        book = it(match.group("book"))
        return self.steps.single_calls(
            [
                self.steps.call("remove_from_list", list=ends[0], book=book),
                self.steps.call("add_to_list", list=ends[1], book=book),
            ]
        )

    def named_contents(
        self, text: str, it: Callable[[str], str], lists: Sequence[str]
    ) -> list[Step]:
        """One of the reader's lists asked for by name ("what's in Summer?")."""
        del it
        match = _CONTENTS.match(text)
        if not match:
            return []
        named = _clean(match.group("name")).casefold()
        chosen = next((name for name in lists if name.casefold() == named), None)
        if chosen is None:
            return []
        call = self.steps.call("get_list_details", list=chosen)
        return [lambda _: [call], lambda done: AIResponse(_list_reply(done), model=MODEL_ID)]

    def create(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """A new, empty list."""
        del it
        match = (
            CREATE.match(text)
            or CREATE_QUOTED.match(text)
            or CREATE_WISH.match(text)
            or CREATE_LABELLED.match(text)
        )
        if not match:
            return []
        # "called Travel and leave it empty": the name ends where the request goes on.
        name = list_name_of(text) or _clean(match.group("name"))
        return self.steps.single(self.steps.call("create_list", name=name))

    def rename(self, text: str, it: Callable[[str], str], lists: Sequence[str] = ()) -> list[Step]:
        """A list renamed; which list is asked when the message names none."""
        del it
        match = RENAME.match(text)
        if not match:
            return self._misnamed(text, lists) or self._renamed_theirs(text, lists)
        old = _clean(match.group("old1") or match.group("old2"))
        if not _NO_NAME.match(old):
            old = _as_stored(old, lists)
        if _NO_NAME.match(old):
            # "rename my list to X" names no list: which one is asked.
            return [lambda _: name_it("list", "rename").response(MODEL_ID)]
        # a new name taken back ("..., no wait, keep it") is read by the policy
        # (`rule_policy._renames_taken_back`), whichever matcher made the rename
        return self.steps.single(
            self.steps.call("rename_list", list=old, new_name=_clean(match.group("new")))
        )

    def _renamed_theirs(self, text: str, lists: Sequence[str]) -> list[Step]:
        """A list of theirs renamed without the word "list" ("rename 'Gifts' as 'Xmas'")."""
        match = _RENAME_THEIRS.match(text)
        old = _theirs_exactly(_clean(match["old"]), lists) if match else None
        new = _clean(match["new"]) if match else ""
        if old is None or not new or _NO_NAME.match(new):
            return []
        return self.steps.single(self.steps.call("rename_list", list=old, new_name=new))

    def _misnamed(self, text: str, lists: Sequence[str]) -> list[Step]:
        """A list of the reader's said to have the wrong name ("the list 'Horor' should be ...")."""
        match = NAME_SHOULD_BE.search(text)
        if not match:
            return []
        old = resolve(_clean(match.group("old1") or match.group("old2")), lists, cutoff=95).name
        new = _clean(match.group("new"))
        if old is None or not new or _NO_NAME.match(new):
            return []
        return self.steps.single(self.steps.call("rename_list", list=old, new_name=new))

    def delete(self, text: str, it: Callable[[str], str], lists: Sequence[str] = ()) -> list[Step]:
        """A list deleted; which list is asked when the message names none."""
        del it
        if _CLEARED_UNNAMED.match(text) and len(lists) != 1:
            # "clear out my list": which one, and emptying is no deletion; never guessed.
            asked = Clarification(
                "Which list should I clear out? I can take books off it, or delete the list.",
                tuple(lists)[:3],
            )
            return [lambda _: asked.response(MODEL_ID)]
        # "cancel my Old list please, I made it only for try": why and please are no name
        match = DELETE.match(POLITE.sub("", _REASON_AFTER.sub("", text)))
        if not match:
            return self._several_deleted(text, lists)
        name = _UTTERLY.sub("", _clean(match.group("name1") or match.group("name2")))
        if _NO_NAME.match(name):
            # "delete the list" names none: deleting cannot be undone, so ask which.
            return [lambda _: name_it("list", "delete").response(MODEL_ID)]
        return _not_theirs(name, lists) or self.steps.single(
            self.steps.call("delete_list", list=_as_stored(name, lists))
        )

    def _several_deleted(self, text: str, lists: Sequence[str]) -> list[Step]:
        """Several of the reader's lists deleted in one breath ("bin 'Old' and 'Kids'").

        Every name must be one of the reader's lists, so "delete War and Peace" (no list of
        theirs) is never read as two deletions.
        """
        match = _SEVERAL_DELETED.match(_REASON_AFTER.sub("", text))
        if not match or not lists or _FROM_A_LIST.search(match["run"]):
            # "remove X from A ... from B" takes a book off a list: never a list deleted.
            return []
        said = [
            _clean(name) for name in re.split(r"\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+", match["run"])
        ]
        if len(said) == 1:
            # "zap Porch" alone: only a list of theirs spelt word for word, never a guess.
            named = [_theirs_exactly(said[0], lists)]
        else:
            named = [resolve(name, lists, cutoff=90).name for name in said]
        if None in named or len(set(named)) < len(named):
            return []
        return self.steps.single_calls(
            [self.steps.call("delete_list", list=name) for name in named if name]
        )

    def add(self, text: str, it: Callable[[str], str], lists: Sequence[str] = ()) -> list[Step]:
        """A book put on a list, with its note; a list the reader lacks is asked about."""
        match = ADD.match(text)
        if not match:
            return self._pointed(text, it, lists) or self._onto_theirs(text, it, lists)
        named = _clean(match.group("list1") or match.group("list2"))
        found = resolve(named, lists, cutoff=85)
        if lists and found.name is None and len(found.candidates) > 1:
            # "my fantasy list" for "fantasy-ya" and "fantasy-adult": which of them?
            either = Clarification(
                "Which list do you mean: " + " or ".join(map(repr, found.candidates)) + "?",
                found.candidates,
            )
            return [lambda _: either.response(MODEL_ID)]
        if lists and found.name is None:
            # "my horror list" when the reader has none: make it, or which of theirs?
            asked = Clarification(
                f"You have no list called {named!r}. Should I create it, or add it to one of "
                "your lists?",
                (f"create a list called {named}", *list(lists)[:2]),
            )
            return [lambda _: asked.response(MODEL_ID)]
        arguments: dict[str, Any] = {
            "list": _as_stored(named, lists),
            "book": it(match.group("book")),
        }
        if match.group("note"):
            arguments["note"] = _clean(match.group("note"))
        return self.steps.single(self.steps.call("add_to_list", **arguments))

    def _onto_theirs(self, text: str, it: Callable[[str], str], lists: Sequence[str]) -> list[Step]:
        """A book put on one of the reader's lists named without the word "list"."""
        match = _ONTO_THEIRS.match(text)
        target = _theirs_exactly(match["list"], lists) if match else None
        if target is None and (told := remark_after(text)):
            # "pop Dune into Summer, saw it at the shop": the remark is no part of the name
            return self._onto_theirs(told[0], it, lists)
        if match is None or target is None or _theirs_exactly(match["book"], lists):
            return []
        book = it(BY_WRITER_AFTER.sub("", _clean(match["book"])))
        return self.steps.single(self.steps.call("add_to_list", list=target, book=book))

    def _pointed(self, text: str, it: Callable[[str], str], lists: Sequence[str]) -> list[Step]:
        """A book pointed at one of the reader's lists ("X -> Kids list"): put on it.

        Only where the left side is no list of theirs, so "Summer -> Beach" (two names of
        lists) is never read as an entry.
        """
        match = ARROW.match(text)
        sent = None if match else SENT_ONTO.match(text)
        if sent and self.steps.titles is not None and self.steps.titles(_clean(sent["book"])):
            match = sent  # "The Color of Magic, onto Fantasy": a title sent with no verb
        if not match or not lists:
            return []
        target = resolve(_clean(match.group("list")), lists, cutoff=85).name
        book = _clean(match.group("book"))
        if target is None or not book or resolve(book, lists, cutoff=85).name is not None:
            return []
        return self.steps.single(self.steps.call("add_to_list", list=target, book=it(book)))

    def remove(self, text: str, it: Callable[[str], str], lists: Sequence[str] = ()) -> list[Step]:
        """A book taken off a list."""
        match = REMOVE.match(text)
        if not match:
            return self._off_theirs(text, it, lists) or self._book_moves(text, it, lists)
        named = _clean(match.group("list1") or match.group("list2"))
        return _not_theirs(named, lists) or self.steps.single(
            self.steps.call(
                "remove_from_list",
                list=_as_stored(named, lists),
                # "remove the last one. she hated it": why, told after, is no part of it
                book=it(without_reason_told(REASON_AFTER.sub("", match.group("book"))).strip()),
            )
        )

    def _off_theirs(self, text: str, it: Callable[[str], str], lists: Sequence[str]) -> list[Step]:
        """A book taken off one of the reader's lists named without the word "list"."""
        match = _OFF_THEIRS.match(text)
        target = _theirs_exactly(match["list"], lists) if match else None
        if target is None and (told := remark_after(text)):
            # "take the hobbit off my tbr, already read it ages ago"
            return self._off_theirs(told[0], it, lists)
        if match is None or target is None or _theirs_exactly(match["book"], lists):
            return []
        book = it(BY_WRITER_AFTER.sub("", REASON_AFTER.sub("", match["book"]).strip()))
        return self.steps.single(self.steps.call("remove_from_list", list=target, book=book))

    def _book_moves(self, text: str, it: Callable[[str], str], lists: Sequence[str]) -> list[Step]:
        """A book as the subject of leaving or joining one of the reader's lists."""
        match = _BOOK_MOVES.match(text)
        target = resolve(_clean(match["list"]), lists, cutoff=90).name if match else None
        if match is None or target is None:
            return []
        if _ASKED_WHICH.match(_clean(match["book"])) or (
            text.rstrip().endswith("?") and _QUESTION_LEADS.match(match["book"])
        ):
            return []  # "what goes on Summer?", "What Alice Forgot goes on Summer?": asked
        if match["bare"] is not None and _ASKED_VERB.match(text):
            return []  # "put X and Never Let Me Go on Y": the request's own verb leads
        tool = "remove_from_list" if match["off"] else "add_to_list"
        # "I finished The Martian and loved it, so it can come off ...": the clause's subject.
        subject = _CLAUSE_BEFORE.sub("", match["book"]) or match["book"]
        subject = _TOLD_BEFORE.sub("", subject) or subject
        book = it(BY_WRITER_AFTER.sub("", _clean(subject)))
        return self.steps.single(self.steps.call(tool, list=target, book=book))
