"""A request about one of the reader's lists, said around the list's stored name.

People manage their lists by the names they gave them, and seldom in the order the patterns
read: "Relabel my shelf 'New Acquisitions' as 'Recent Arrivals'", "the bedtime list... call
it Sleepy Stories now", "/mv tbr up-next", "that Baby list. she's 7 now. it can go",
"remove the Don Quixote of my list Lectura", "did I already put Rebecca on Gothic or not".
A stored list's name in the message is strong evidence of which list is meant; the words
around it say what is asked of it:

- a new name after change / relabel / rename / call it / make it / "->" / mv: a rename;
- the list as the subject of "can go", "can be deleted", "isn't needed any more": a deletion
  (only when no book is named: "it can go off Summer" moves a book);
- a book "of / from my list X": that book taken off X (never the list deleted);
- whether a book is on a list, asked: that list's books shown;
- an overview of the lists, or whether a list for something exists, asked: the lists.

Each is rewritten to the plain request the rules read ("rename the Bedtime list to Sleepy
Stories"); anything else is left alone (None), so an unsure reading is never turned into an
action here: the other rules ask.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz.distance import OSA

from lectern.adapters.understanding.book_patterns import DELETE_VERB, REMOVE_VERB
from lectern.adapters.understanding.slots import name_ended

_Q = r"[\"'‘’“”]?"
"""An optional quote around a list's name."""
_LIST_WORD = r"(?:(?:reading\s+)?(?:list|shelf))"
_STRIP = " \t.!?,;:\"'‘’“”()"


def _spans(text: str, lists: Sequence[str]) -> list[tuple[str, int, int]]:
    """Where the reader's lists are named in `text`: (name, start, end), longest names first.

    "the list 'Jacob little books'" names that list, not also the list Jacob inside it.
    """
    taken: list[tuple[str, int, int]] = []
    for name in sorted(lists, key=len, reverse=True):
        if not name.strip():
            continue
        for found in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-]|['’]s\b)", text, re.I):
            if any(found.start() < end and start < found.end() for _, start, end in taken):
                continue
            taken.append((name, found.start(), found.end()))
    return sorted(taken, key=lambda span: span[1])


def _stored(said: str, lists: Sequence[str]) -> str | None:
    """The reader's list `said` spells, case and quotes aside."""
    key = said.strip(_STRIP).casefold()
    return next((name for name in lists if name.casefold() == key), None)


# --- the new name ------------------------------------------------------------------------------

_NAME_ENDS = re.compile(
    r"[?!;]|[.,]\s|\s[-–—]\s|\s+(?:because|since|cause|cos|coz|as\s+(?:i|we|he|she|they|it)|"
    r"so\s+that|please|pls|plz|thanks|thank\s+you|ta|cheers|thx)\b|"
    # "TBR -> Up Next (rename pls)": a bracket that says the request again or thanks
    r"\s*\((?=[^()]*\b(?:re-?name|please|pls|plz|thanks|thx|ta|cheers)\b[^()]*\))",
    re.I,
)
"""Where a new name ends: its sentence, a reason, a courtesy, an aside in brackets."""
_NAME_TAIL = re.compile(
    r"(?:\s+(?:now|instead|then|too|for\s+me|for\s+now|from\s+now\s+on))+$", re.I
)
_NAME_LEAD = re.compile(
    r"^(?:(?:re-?name|re-?label|re-?title|change|switch|call|name)\s+"
    r"(?:it\s+(?:(?:to|as|into)\s+)?|(?:to|as|into)\s+))?"
    r"(?:(?:just|simply|plain|something\s+like)\s+)?",
    re.I,
)
"""Words before the new name that say the rename again ("Summer -> rename to Summer 2027")."""
_NO_NAME = re.compile(r"^(?:it|that|this|one|the|a|an|my|something|anything|else)?$", re.I)
_NOT_A_NAME = re.compile(
    r"\b(?:stars?|out\s+of|private|public|read|unread|finished)\b|\d\s*/|"
    r"^(?:have|has|include|includes|contain|contains|hold|be|only|show|say|add|remove|put)\b",
    re.I,
)
"""What "change it to ..." sets that is no list's name ("change it to 4 stars")."""


def _new_name(rest: str, lists: Sequence[str]) -> str | None:
    """The new name at the start of `rest`, up to its sentence, a reason or a courtesy."""
    found = _NAME_ENDS.search(rest)
    name = name_ended(rest[: found.start()] if found else rest)  # "... bc thats more accurate"
    name = _NAME_LEAD.sub("", _NAME_TAIL.sub("", name.strip(_STRIP))).strip(_STRIP)
    if (
        _NO_NAME.match(name)
        or len(name.split()) > 6
        or _NOT_A_NAME.search(name)
        or _stored(name, lists) is not None
    ):
        return None  # no name, a setting, or a list they have already: not a plain rename
    return name


# --- a rename ----------------------------------------------------------------------------------

_RENAME_VERB = (
    r"(?:(?:change|switch|alter|update|edit|fix)\s+the\s+(?:name|title|label)\s+of|"
    r"re-?name|re-?label|re-?title|change|switch)"
)
"""Verbs that give a list a new name; "update X to ..." only of its name ("update X to include
Dune" changes what it holds)."""
_ASK = (
    r"^(?:(?:hi|hey|hello|ok(?:ay)?|so|right)[\s,!]+)?(?:please\s+)?"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?|i['’]?d\s+like\s+(?:you\s+)?to\s+"
    r"|(?:i|we)\s+(?:want|need)\s+(?:you\s+)?to\s+)?(?:please\s+)?"
)
_RENAME_TO = r"\s+(?:to|as|into|->|→|=>)\s+"
_POINTED = re.compile(
    r"(?:^|[.!?,;:]+\s*|\s[-–—]+\s*|\.{2,}\s*|\b(?:so|and|then|now|but)\s+)"
    rf"{_ASK[1:]}(?:(?P<verb>call|name|title|label|make)|{_RENAME_VERB})\s+"
    r"(?:it|that|this(?:\s+one)?|that\s+one)\b(?!['’]\w)\s*"
    r"(?(verb)(?:to\s+|as\s+)?|(?:to|as|into)\s+)(?P<rest>.+)$",
    re.I,
)
"""A rename pointed at the list said before it ("..., could you change it to X?")."""
_BOOK_WORK = re.compile(
    r"\b(?:add|added|put|rate|rated|stars?|remove|take|finished|read|reading|loved|review|"
    r"book|novel|has|have|had|holds?|got|with|(?:on|in)\s+it)\b",
    re.I,
)
"""Words that speak of a book before "it": then "it" may be the book, never guessed."""
_ASKED_FIRST = re.compile(
    r"^\W*(?:(?:please|pls|can\s+you|could\s+you)\s+)?(?:show|add|put|remove|take|delete|"
    r"rate|give|create|make|move|list|tell|find|open|pull|let|bin|drop|what|which)\b",
    re.I,
)
"""A request said before the rename: "it" is then that request's list, read as a compound."""
_NEW_LIST = re.compile(
    r"\b(?:new|another|second|fresh|separate)\s+(?:reading\s+)?(?:list|shelf|one)\b|"
    r"\b(?:create|make|start|set\s+(?:me\s+|us\s+)?up)\s+(?:me\s+|us\s+)?(?:a|an)\b",
    re.I,
)


def _as_list(text: str, start: int, end: int) -> bool:
    """Whether the name at `start:end` is said as a list ("the X list", "list I called X", 'X')."""
    before, after = text[:start], text[end:]
    return bool(
        re.search(rf"\b{_LIST_WORD}\s+(?:(?:i|we)\s+(?:called|named|made)\s+)?{_Q}$", before, re.I)
        or re.match(rf"^{_Q}\s+{_LIST_WORD}\b", after, re.I)
        or (re.search(r"[\"'‘“]$", before) and re.match(r"^[\"'’”]", after))
        or not before.strip(_STRIP + " .")
    )


def _renamed(text: str, lists: Sequence[str], spans: list[tuple[str, int, int]]) -> str | None:
    """The rename asked of a stored list, as "rename the X list to Y", or None."""
    # "/mv tbr up-next", "Summer -> Beach 2027"
    for name, start, end in spans:
        before, after = text[:start], text[end:]
        if re.fullmatch(r"\s*/?mv\s+", before, re.I) and re.match(r"^\s+\S+\s*$", after):
            new = _new_name(after, lists)
            return f"rename the {name} list to {new}" if new else None
        arrow = re.match(rf"^{_Q}(?:\s+{_LIST_WORD})?\s*(?:->|→|=>|-->)\s*(?P<rest>.+)$", after)
        if arrow and re.fullmatch(rf"\s*(?:(?:my|the)\s+)?{_Q}", before, re.I):
            new = _new_name(arrow["rest"], lists)
            return f"rename the {name} list to {new}" if new else None
    # "Relabel my shelf 'New Acquisitions' as 'Recent Arrivals'", "change Holiday Reads to Hols"
    for name, start, end in spans:
        verb = re.search(
            rf"{_ASK}{_RENAME_VERB}\s+(?:my\s+|the\s+|our\s+)?(?:{_LIST_WORD}\s+)?{_Q}$",
            text[:start],
            re.I,
        )
        to = re.match(rf"^{_Q}(?:\s+{_LIST_WORD})?{_RENAME_TO}(?P<rest>.+)$", text[end:], re.I)
        if verb and to:
            new = _new_name(to["rest"], lists)
            return f"rename the {name} list to {new}" if new else None
    # "the bedtime list... call it Sleepy Stories now", "The list I called X — change it to Y?"
    pointed = _POINTED.search(text)
    if pointed is None or _ASKED_FIRST.match(text):
        return None  # "show me the Oldies list, then rename it": read as a compound
    told = [span for span in spans if span[2] <= pointed.start()]
    if len({span[0] for span in told}) != 1 or not _as_list(text, told[0][1], told[0][2]):
        return None
    if _BOOK_WORK.search(text[told[-1][2] : pointed.start()]):
        return None  # "Summer has Dune in it, change it to 4 stars": "it" may be the book
    if _NEW_LIST.search(text[: pointed.start()]):
        return None  # "a new list like my Gothic list, call it X": the new one is named
    new = _new_name(pointed["rest"], lists)
    return f"rename the {told[0][0]} list to {new}" if new else None


# --- a deletion --------------------------------------------------------------------------------

_GOES = (
    r"(?:(?:can|could|should|may|must|will|might\s+as\s+well)\s+(?:now\s+)?"
    r"(?:go|be\s+(?:deleted|removed|binned|scrapped|trashed|dropped|ditched|axed|retired|"
    r"got(?:ten)?\s+rid\s+of|cleared\s+away|gone))|"
    r"(?:is|['’]s)\s+(?:no\s+longer\s+(?:needed|wanted|of\s+use)|not\s+needed\s+any\s*more|"
    r"surplus\s+to\s+requirements)|"
    r"is\s*n['’]?t\s+(?:needed|wanted)(?:\s+any\s*more)?)"
)
_GOES_AFTER = re.compile(rf"^\s*{_GOES}\b(?!\s+(?:off|from|out|on|onto|in|into|to|back)\b)", re.I)
_IT_GOES = re.compile(
    r"(?:^|[.!?,;:]+\s*|\s[-–—]+\s*|\b(?:so|and|but|then|now)\s+)"
    rf"(?:it|that(?:\s+one)?|this(?:\s+one)?)\s+{_GOES}\b"
    r"(?!\s+(?:off|from|out|on|onto|in|into|to|back)\b)",
    re.I,
)
_DELETED_HEAD = re.compile(
    rf"{_ASK}{DELETE_VERB}\s+(?:my\s+|the\s+|that\s+|this\s+|our\s+)?(?:{_LIST_WORD}\s+)?{_Q}$",
    re.I,
)
_ONLY_REMARK = re.compile(
    r"^\s*(?:$|[,;.!:–—-]\s*(?!.*\b(?:add|put|make|create|rename|remove|delete|move|show|"
    r"rate|take|start|tell|list|give|find|open|new|then|also|what|which|how)\b)[^?]*$)",
    re.I,
)
"""Nothing after the list, or only a remark that asks for nothing more."""
_AFTER_PREPOSITION = re.compile(
    r"\b(?:on|in|to|from|off|onto|into|of|out\s+of)\s+(?:my|the|our)?\s*$", re.I
)


def _deleted(text: str, lists: Sequence[str], spans: list[tuple[str, int, int]]) -> str | None:
    """The deletion of a stored list said to go ("the list X can go"), or None."""
    del lists
    said = [
        span
        for span in spans
        if _as_list(text, span[1], span[2]) and not _AFTER_PREPOSITION.search(text[: span[1]])
    ]
    for name, start, end in said:
        if any(other != name for other, at, _ in spans if at > end):
            return None  # "delete the Horror list, and the Exam Prep one too": two deletions
        after = re.sub(rf"^{_Q}(?:\s+{_LIST_WORD})?", "", text[end:], flags=re.I)
        if _GOES_AFTER.match(after):
            return f"delete the {name} list"  # "the list 'X' can go, I suppose"
        if _DELETED_HEAD.search(text[:start]) and _ONLY_REMARK.match(after):
            # "delete my ENG 101 list, class is over lol": why, told after, is no part of it
            return f"delete the {name} list"
    pointed = _IT_GOES.search(text)
    if pointed is None or len({span[0] for span in spans}) != 1 or not said:
        return None
    if said[0][2] > pointed.start() or _BOOK_WORK.search(text[said[0][2] : pointed.start()]):
        return None  # "Dune is on my Baby list. it can go": the book may be what goes
    return f"delete the {said[0][0]} list"


# --- a book taken off a list, said with "of" ---------------------------------------------------

_BOOK_OF_LIST = re.compile(
    rf"^(?:(?:please|(?:can|could|would|will)\s+(?:you|u))[\s,]+)*(?:{REMOVE_VERB}|retire)\s+"
    rf"(?P<book>(?!(?:my|the|a|this|that|our)\s+{_LIST_WORD}\b)"
    rf".+?)\s+(?:of|from|off|out\s+of)\s+(?:my|the|our)\s+{_LIST_WORD}\s+{_Q}(?P<list>.+?){_Q}"
    r"(?:\s+(?:please|pls|thanks|thank\s+you))?(?P<rest>\s*[,;.:!?-]\s*.*)?$",
    re.I,
)
"""A book taken off a list named after the word list ("remove the Don Quixote of my list X";
"retire", a French speaker's *retirer*, "Can you retire Les Misérables of my list X?")."""


def _taken_off(text: str, lists: Sequence[str]) -> str | None:
    """The book said "of/from my list X", as "remove B from the X list", or None."""
    found = _BOOK_OF_LIST.match(text.strip())
    if found is None:
        return None
    said = found["list"].strip(_STRIP)
    listed = _stored(said, lists)
    book = found["book"].strip(_STRIP)
    rest = re.sub(r"^\s*\?+", ".", found["rest"] or "")  # "...? It is too long for now."
    if not book or (lists and listed is None) or not _ONLY_REMARK.match(rest):
        return None  # "..., and add X to Y": a second request, read by the other rules
    return f"remove {book} from the {listed or said} list"


# --- questions about the lists ----------------------------------------------------------------

_OVERVIEW = re.compile(
    r"\b(?:overview|summary|rundown|run-down|breakdown|round-?up|list)\s+of\s+(?:all\s+)?"
    r"(?:of\s+)?my\s+(?:(?:reading|book)\s+)?(?:lists|shelves)\b",
    re.I,
)
_EXISTS = re.compile(
    r"^(?:(?:do|did)\s+(?:i|we)\s+(?:already\s+|ever\s+)?(?:have|make|create|set\s+up|start)|"
    r"have\s+(?:i|we)\s+(?:already\s+|ever\s+)?(?:got|made|created|set\s+up|started)|"
    r"is\s+there)\s+(?:a|any|an)\s+(?:reading\s+)?list\s+(?:for|called|named|about|of)\b",
    re.I,
)
"""Whether a list exists, asked ("do I have a list for the book club yet?")."""
_ON_IT_ASKED = re.compile(
    r"^(?:(?:did|have|had)\s+(?:i|we)\s+(?:already\s+|ever\s+)?(?:put|add|added|stick|stuck|"
    r"save|saved|pop|popped)|is|are)\s+(?P<book>.+?)\s+(?:already\s+)?(?:on|in|to|onto|into)\s+"
    r"(?:my\s+|the\s+)?(?P<list>.+?)(?:\s+(?:reading\s+)?list)?"
    r"(?:\s+(?:already|yet|or\s+not|or\s+what|or\s+did\s+i\s+forget))*\s*\?*$",
    re.I,
)
"""Whether a book is on a list, asked ("did I already put Rebecca on Gothic or not")."""


def _asked_about(text: str, lists: Sequence[str]) -> str | None:
    """The lists, or one list's books, for a question about them, or None."""
    plain = text.strip()
    if re.search(r"\?\s*\S|\bif\s+not\b", plain):
        return None  # "is there a list for X? if not make one": a request follows the question
    if _OVERVIEW.search(plain) or _EXISTS.match(plain):
        return "what lists do I have"
    found = _ON_IT_ASKED.match(plain)
    listed = _stored(found["list"], lists) if found else None
    if found is None or listed is None or _stored(found["book"], lists):
        return None
    return f"what's on the {listed} list"


# --- a misspelt verb ---------------------------------------------------------------------------

_VERBS = ("delete", "remove", "rename", "create")
_REAL_WORDS = frozenset({"remote", "crate", "relate", "reuse", "rebate", "debate"})
"""Words a letter away from a list verb that are words of their own ("deleted", longer, is
no slip either: "deleted my list by accident" tells, it asks nothing)."""


def _verb_spelt(text: str) -> str:
    """`text` with its first word, a list verb misspelt ("delet my list"), spelt right."""
    found = re.match(r"^(?P<word>[a-z]{4,8})\b(?=\s+(?:my|the|a|this|that|our)\b)", text, re.I)
    if found is None:
        return text
    word = found["word"].casefold()
    near = [v for v in _VERBS if OSA.distance(word, v) == 1 and len(v) - 1 <= len(word) <= len(v)]
    if len(near) != 1 or word in _VERBS or word in _REAL_WORDS:
        return text
    return near[0] + text[found.end() :]


def _one_as_list(text: str, spans: list[tuple[str, int, int]]) -> str:
    """`text` with "the X one", X a stored list, said "the X list" ("and the Exam Prep one too").

    Only where the message speaks of lists, and not "the X one off ..." (a book so told).
    """
    if not re.search(r"\blists?\b", text, re.I):
        return text  # "take the horror one off my TBR": a book told by a word, no list said
    for _, start, end in reversed(spans):
        one = re.match(r"\s+one\b(?!\s+(?:off|from|out\s+of)\b)", text[end:])
        if one is not None and re.search(r"\bthe\s+$", text[:start], re.I):
            text = f"{text[:end]} list{text[end + one.end() :]}"
    return text


_THE_SAME = re.compile(
    r"\b(?P<to>to|on|onto|in|into|from|off|of|out\s+of)\s+the\s+same(?:\s+(?:list|one|shelf))?"
    r"(?=\s*(?:[,.;!?]|$|\s+(?:please|pls|thanks|too|as\s+well|and|then)\b))",
    re.I,
)
"""A list said again as "the same" ("add X to Book Club and remove Y from the same")."""


def _same_as_before(text: str, spans: list[tuple[str, int, int]]) -> str:
    """`text` with "the same" list said by the name of the one list named before it."""
    found = _THE_SAME.search(text)
    before = {name for name, _, end in spans if found is not None and end <= found.start()}
    if found is None or len(before) != 1:
        return text
    return f"{text[: found.start()]}{found['to']} {before.pop()}{text[found.end() :]}"


_TO_THAT = re.compile(
    rf"(?:^|[.!?;]\s+|,\s*|\b(?:so|and|then|now)\s+){_ASK[1:]}(?:{_RENAME_VERB}|call)\s+"
    rf"(?:my\s+|the\s+|our\s+)?(?:{_LIST_WORD}\s+)?{_Q}(?P<list>.+?){_Q}(?:\s+{_LIST_WORD})?"
    r"\s+(?:to|as)\s+(?:that|this|it|the\s+new\s+(?:one|name))(?:\s+name)?\s*[?.!]*\s*$",
    re.I,
)
"""A rename to "that": the name the telling before it said ("... we're now The Tuesday
Readers. So can you change Book Club to that?")."""
_NAMED_NOW = re.compile(
    r"\b(?:(?:are|['’]re|is|['’]s)\s+now\s+(?:officially\s+|called\s+|named\s+|known\s+as\s+)?|"
    r"(?:are|['’]re|is|['’]s)\s+(?:now\s+)?(?:officially\s+)?(?:called|named|known\s+as)\s+|"
    r"(?:new\s+)?name\s+is\s+(?:now\s+)?|(?:call|calling|named|renamed)\s+(?:ourselves|us|it)\s+)"
    r"(?-i:(?P<name>[A-Z][\w'’&-]*(?:\s+(?:(?:of|the|and|for|in|on|a|&)\s+)*[A-Z0-9][\w'’&-]*)*))"
)
"""A new name told: "we're now officially The Tuesday Readers", "our name is Page Turners"."""


def _renamed_to_that(text: str, lists: Sequence[str]) -> str | None:
    """A rename "to that" after a telling that says one new name, as the plain rename."""
    found = _TO_THAT.search(text)
    listed = _stored(found["list"], lists) if found else None
    if found is None or listed is None:
        return None
    told = {m["name"] for m in _NAMED_NOW.finditer(text[: found.start()])}
    if len(told) != 1:
        return None  # none told, or two: which is "that" is asked
    name = told.pop()
    return None if _stored(name, lists) else f"rename the {listed} list to {name}"


def list_request(text: str, lists: Sequence[str]) -> str | None:
    """The plain request a message about the reader's lists asks, or None when not so said."""
    spelt = _verb_spelt(text.strip())
    spelt = _one_as_list(spelt, _spans(spelt, lists))
    spelt = _same_as_before(spelt, _spans(spelt, lists))
    spans = _spans(spelt, lists)
    that = _renamed_to_that(spelt, lists) if spans else None
    if that:
        return that
    if spans:
        said = _renamed(spelt, lists, spans) or _deleted(spelt, lists, spans)
        if said:
            return said
    said = _taken_off(spelt, lists) or _asked_about(spelt, lists)
    if said:
        return said
    if spelt != text.strip():
        return spelt
    return None
