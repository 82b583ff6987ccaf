"""A value taken back and said again: the request keeps the one settled on.

"Move Dune to Summer - no wait, to Winter" and "rename Porch to Garden, I mean Patio" say the
whole request once and then only the part that changes. `retracted` (compound.py) reads a
request said again whole; here the part said again replaces the part it takes back, whatever
the names are: the same preposition's phrase ("to Winter" for "to Summer"), or the last
phrase when the new value comes bare after a word that takes back ("I mean Patio").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.compound import ACTION_VERB

_SOFT = r"no|nope|nah|hmm+|um+|uh+|erm*|oh|ah"
_STRONG = (
    r"wait|actually|sorry|oops|i\s+mean|or\s+rather|rather|make\s+(?:that|it)|scratch\s+that|"
    r"hang\s+on|hold\s+on|correction|my\s+bad|i\s+meant"
)
_TAKE_BACK = re.compile(
    rf"(?:[,;…!?–—]+|\.+|\s-+)\s*(?P<mark>(?:(?:{_SOFT}|{_STRONG})\b[\s,.…!:;–—-]*)+)",
    re.I,
)
"""Punctuation, then words that take back what was just said ("- actually no,", ", no wait,")."""
_STRONG_MARK = re.compile(rf"\b(?:{_STRONG})\b", re.I)
_PREPOSITIONS = {
    "to": "to",
    "into": "to",
    "onto": "to",
    "on": "to",
    "in": "to",
    "as": "as",
    "from": "from",
    "off": "from",
    "out of": "from",
}
_PREPOSITION = r"(?:out\s+of|into|onto|to|on|in|as|from|off)"
_FRAGMENT = re.compile(
    r"^(?:(?P<where>it['’]?s|it\s+is|it\s+was|that['’]?s)\s+(?=(?:in|on)\s)|"
    # "a list called Summer Reads. hmm, no, call it Beach Bag instead": the name said again
    r"(?P<naming>(?:call|name|title)\s+(?:it|that|the\s+list)\s+))?"
    rf"(?:(?P<prep>{_PREPOSITION})\s+)?(?P<value>[^,;.!?–—]+?)(?:\s+instead)?\s*"
    r"(?=$|[,;.!?–—]|\s-+\s)",
    re.I,
)
"""What is said again: a phrase ("to B", "from B"), where the book is ("it's in B"), or a bare
value; it ends at the next punctuation (what follows is a remark: "..., it stays on A")."""
_OPENS_CHANGE = re.compile(rf"^(?:please\s+)?(?P<verb>{ACTION_VERB})\b", re.I)
_GRADE_OR_POINTER = re.compile(
    r"^(?:a\s+)?(?:[0-9]+|one|two|three|four|five)\b|\b(?:it|this|that|them|those|these)\b", re.I
)
_AFTER_VERB = re.compile(rf"\s(?P<prep>{_PREPOSITION})\s", re.I)
_SENTENCE = re.compile(r"[.!?]")
_KEPT_THEN = re.compile(
    r"^(?:keep|leave)\s+(?:it|that|them|(?P<kept>[^,;.!?]+?))"
    r"(?:\s+(?:there|where\s+it\s+is|(?:on|in)\s+[^,]+?))?\s*"
    rf"(?:,\s*|\s+)(?:and|but)?\s*(?:just\s+|instead\s+)?(?P<new>{ACTION_VERB}\b[^.!?]*)",
    re.I,
)
"""The first change kept undone, then another ("actually keep it there and drop it from B";
"delete Summer... wait no, keep Summer, delete Beach instead": what is kept, said by name)."""
_REFUSES = re.compile(r"\b(?:no|nope|nah|scratch\s+that)\b", re.I)
"""A take-back that refuses what came before ("actually no"), not one that only pauses."""
_REDONE = re.compile(
    rf"^(?:just\s+|instead\s+)?(?P<new>{ACTION_VERB}\b(?:(?!\b(?:too|also|as\s+well)\b)[^.!?,;])*)",
    re.I,
)
"""The change said whole again after a refusal ("actually no, put it on Summer instead")."""
_DROPPED = re.compile(
    r"^(?:(?:scratch|drop|forget|skip|not|minus|without|leave\s+off|no)\s+(?P<dropped>[^,;.!?]+?)"
    r"(?:\s*[,;]?\s*(?:just|only)\s+(?P<also>[^,;.!?]+?))?|(?:just|only)\s+(?P<only>[^,;.!?]+?))"
    r"(?:\s+(?:then|instead|please|pls))?\s*(?=$|[,;.!?–—]|\s-+\s)",
    re.I,
)
"""One of several values dropped ("no, scratch TBR, just Bleak"), or one kept ("just Bleak")."""
_JOINT = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"
_JOINT_BEFORE = re.compile(rf"{_JOINT}(?:(?:to|on|onto|into|in)\s+)?$", re.I)
_JOINT_AFTER = re.compile(rf"^{_JOINT}(?:(?:to|on|onto|into|in)\s+)?", re.I)
_TWO_JOINED = re.compile(
    rf"^(?P<first>[^,;]+?)(?P<joint>{_JOINT}(?:(?:to|on|onto|into|in)\s+)?)(?P<second>[^,;]+?)$",
    re.I,
)
_IT = re.compile(r"\b(?:it|that|them)\b", re.I)
_GOES_ON = re.compile(
    r"^[\s,;.!?–—-]*(?:(?:and|then|also|plus|&)\s+)+(?:(?:please|pls|can\s+you|could\s+you|"
    rf"you\s+can|i['’]?d|i\s+would|i\s+will|i['’]?ll|just)\s+)*(?P<request>{ACTION_VERB}\b.+)$",
    re.I | re.S,
)
"""A request of its own after the value said again ("— and I'd rate it a 4"): it is kept."""
_PLACED = re.compile(
    rf"^(?!{ACTION_VERB}\b)(?P<book>(?!(?:it|this|that|them|i|we|you)\b)[^,;.!?–—]+?)\s+"
    r"(?:on\s+to|onto|on|into|in|to)"
    r"\s+(?P<list>[^,;.!?–—]+?)(?:\s+(?:please|pls|plz))?(?=\s*(?:[,;.!?–—]|\s-+\s))",
    re.I,
)
"""A book and a list with no verb ("Rebecca on to Summer please"): a book put on a list."""


def _group(preposition: str) -> str:
    return _PREPOSITIONS[" ".join(preposition.casefold().split())]


def _key(name: str) -> str:
    return " ".join(
        re.sub(r"^(?:my|the|our)\s+|\s+(?:reading\s+)?list$", "", name.strip(), flags=re.I)
        .casefold()
        .split()
    )


def _replaced(before: str, preposition: str | None, value: str) -> str | None:
    """`before` with its phrase for `preposition` (the last phrase when None) set to `value`."""
    phrases = list(_AFTER_VERB.finditer(before))
    if preposition is not None:
        phrases = [p for p in phrases if _group(p["prep"]) == _group(preposition)]
    if not phrases:
        return None
    start = phrases[-1]
    later = [p for p in _AFTER_VERB.finditer(before, start.end()) if p.start() >= start.end()]
    # "from A to B - no, from C": only "from A" is taken back; "to B" stays.
    end = next((p.start() for p in later if _group(p["prep"]) != _group(start["prep"])), None)
    said = preposition or start["prep"]
    tail = before[end:] if end is not None else ""
    return f"{before[: start.start()]} {said} {value}{tail}"


def _object_replaced(before: str, verb_end: int, value: str) -> str:
    """`before` with what follows its verb, up to its first phrase, set to `value`."""
    first = _AFTER_VERB.search(before, verb_end)
    rest = before[first.start() :] if first is not None else ""
    return f"{before[:verb_end]} {value}{rest}"


def _said_at(value: str, text: str, start: int) -> re.Match[str] | None:
    """Where `value` stands in `text` from `start` on, as whole words, case aside."""
    return re.compile(rf"(?<!\w){re.escape(value.strip())}(?!\w)", re.I).search(text, start)


def _without(before: str, start: int, dropped: str) -> str | None:
    """`before` without `dropped` and the joint that joins it to another value, or None.

    "add The Road to Bleak and to TBR" without TBR is "add The Road to Bleak"; a value joined
    to none ("add X to TBR") is not dropped here (the whole request would be).
    """
    found = _said_at(dropped, before, start)
    if found is None:
        return None
    lead = _JOINT_BEFORE.search(before[: found.start()])
    if lead is not None:
        return before[: lead.start()] + before[found.end() :]
    trail = _JOINT_AFTER.match(before[found.end() :])
    if trail is not None:
        return before[: found.start()] + before[found.end() + trail.end() :]
    return None


def _only(before: str, start: int, kept: str) -> str | None:
    """`before` with the one value joined to `kept` dropped ("to Bleak and to TBR": Bleak).

    The pair is looked for after the first phrase (the places), then before it (the books:
    "add Dune and Emma to TBR. actually, just Dune").
    """
    phrase = _AFTER_VERB.search(before, start)
    spans = [(phrase.end(), len(before)), (start, phrase.start())] if phrase else [(start, None)]
    for begin, end in spans:
        pair = _TWO_JOINED.match(before[begin:end].strip())
        if pair is None:
            continue
        if _key(pair["second"]) == _key(kept):
            return _without(before, begin, pair["first"].strip())
        if _key(pair["first"]) == _key(kept):
            return _without(before, begin, pair["second"].strip())
    return None


def settled_value(text: str, lists: Sequence[str] = ()) -> str:
    """`text` with a value taken back replaced by the one said after it, else `text`.

    "Take Dune off Summer - actually no, off Winter, it stays on Summer" -> "Take Dune off
    Winter": the remark after the new value explains the change and asks nothing. A bare value
    ("..., I mean Patio") replaces the last phrase, or the book when the reader's `lists` say
    the last phrase names one of them and the value none ("add Dune to Summer, I mean Emma");
    with no phrase yet ("add Dune, sorry, Emma to Summer") it replaces the book and the rest is
    read as said. "no" alone takes back only a phrase or a capitalised name ("no rush" is a
    remark); a grade or "it" said again is left to the readers of grades and of whole requests.
    """
    stored = {_key(name) for name in lists}
    placed = _PLACED.match(text)
    if placed is not None and _key(placed["list"]) in stored:
        # "Rebecca on to Summer please — actually no, ..., make that Autumn": read with its verb
        said = f"put {placed['book']} on {placed['list']}{text[placed.end() :]}"
        settled = _settled(said, stored)
        return settled if settled != said else text
    return _settled(text, stored)


def _settled(text: str, stored: set[str]) -> str:
    """`settled_value` with the reader's list names put as keys."""
    for taken_back in _TAKE_BACK.finditer(text):
        before = text[: taken_back.start()].strip()
        opens = _OPENS_CHANGE.match(before)
        if opens is None:
            continue
        after = text[taken_back.end() :]
        first = _AFTER_VERB.search(before, opens.end())
        book = before[opens.end() : first.start() if first else len(before)].strip()
        kept = _KEPT_THEN.match(after)
        if kept is not None and (
            kept["kept"] is None or _said_at(kept["kept"], before, opens.end()) is not None
        ):
            # "it" in the new change is the book the first one named
            new = re.sub(r"\s+instead\W*$", "", kept["new"].strip(), flags=re.I)
            return _IT.sub(book, new, count=1) if book else text
        dropped = _DROPPED.match(after)
        if dropped is not None:
            # "add X to Bleak and to TBR. no, scratch TBR, just Bleak": one value of several
            shorter = (
                _without(before, opens.end(), dropped["dropped"])
                if dropped["dropped"]
                else _only(before, opens.end(), dropped["only"])
            )
            if shorter is not None:
                return _going_on(shorter, after[dropped.end() :])
        redone = _REDONE.match(after)
        if (
            redone is not None
            and first is not None
            and _IT.search(redone["new"])
            and (_REFUSES.search(taken_back["mark"]) or re.search(r"\binstead\b", redone[0], re.I))
        ):
            # "add Jaws to TBR. actually no, put it on Summer instead": the change said whole
            # again, "it" the book the refused one named; the reason after it is no part
            new = re.sub(r"\s+instead\W*$", "", redone["new"].strip(), flags=re.I)
            return _going_on(_IT.sub(book, new, count=1), after[redone.end() :])
        # "actually, just Emma", "no wait, just to Beach": "just" is no part of the value
        after = _JUST.sub("", after, count=1)
        fragment = _FRAGMENT.match(after)
        if fragment is None or _GRADE_OR_POINTER.search(fragment["value"]):
            continue
        preposition, value = fragment["prep"], fragment["value"].strip()
        strong = _STRONG_MARK.search(taken_back["mark"]) is not None
        if preposition is None and not (strong or value[:1].isupper()):
            continue
        if preposition is None and _OPENS_CHANGE.match(value):
            continue  # a new request said whole: `retracted` reads it
        named = list(_NAMED_AS.finditer(before, opens.end())) if fragment["naming"] else []
        if named:
            # "create a list called Summer Reads. hmm, no, call it Beach Bag instead"
            settled: str | None = f"{before[: named[-1].end()]}{value}"
        elif fragment["naming"]:
            continue
        elif fragment["where"] and preposition is not None:
            # "remove X from A - wait, it's in B": where the book is, so where it comes from
            source = _replaced(before, "from", value)
            settled = source or _replaced(before, preposition, value)
        elif preposition is not None:
            settled = _replaced(before, preposition, value)
        elif not _AFTER_VERB.search(before, opens.end()):
            sentence = _SENTENCE.split(after, maxsplit=1)[0].strip()
            settled = _object_replaced(before, opens.end(), sentence)
        else:
            last = list(_AFTER_VERB.finditer(before))[-1]
            names_list = _key(before[last.end() :]) in stored
            if names_list and _key(value) not in stored:
                settled = _object_replaced(before, opens.end(), value)
            else:
                settled = _replaced(before, None, value)
        if settled is not None:
            return _going_on(settled, after[fragment.end() :])
    return text


_JUST = re.compile(r"^(?:just|only)\s+(?=\S)", re.I)
_NAMED_AS = re.compile(r"\b(?:called|named|titled|(?:call|name)\s+it)\s+", re.I)
"""Where a request says the name it gives ("a list called X")."""


def _going_on(settled: str, rest: str) -> str:
    """`settled` with a request of its own said after the value again, if any.

    "to Summer — actually make that Autumn — and I'd rate it a 4" keeps the rating; a remark
    ("TBR is way too long already") is no part of it.
    """
    goes_on = _GOES_ON.match(rest)
    if goes_on is not None:
        settled = f"{settled}, and {goes_on['request']}"
    return " ".join(settled.split())


_KEEP_IT = r"(?:just\s+)?(?:keep|leave)\s+it(?:\s+as\s+(?:it\s+)?is)?"
_NEVER_MIND = r"never\s*mind|forget\s+it|cancel\s+that"
_KEPT = re.compile(
    r"^(?:(?:just|please)\s+)?(?:keep|leave|don['’]?t|do\s+not|never\s*mind|cancel|forget)\b",
    re.I,
)
"""What comes after a take-back that keeps things as they were ("..., no wait, keep it")."""
_KEPT_WHOLE = re.compile(rf"^(?:{_KEEP_IT}|{_NEVER_MIND}|cancel)\W*$", re.I)


def settled_name(said: str) -> str | None:
    """A new name said, then taken back: the one settled on, or None when it is kept as is.

    "spooky, no wait, keep it" -> None; "spooky, no wait, Halloween" -> "Halloween".
    """
    if _KEPT_WHOLE.match(said):
        return None  # "actually never mind" read down to its last words: "never mind"
    taken = list(_TAKE_BACK.finditer(said))
    if not taken or taken[0].start() == 0:
        return said
    after = said[taken[-1].end() :].strip(" ,.!")
    if not after or _KEPT.match(after):
        return None
    return " ".join(re.sub(r"^(?:make\s+it|call\s+it|to|as)\s+", "", after, flags=re.I).split())


_WHOLLY_TAKEN_BACK = re.compile(
    rf"(?:[,;.!?–—-]|\s)\s*(?:(?:(?:{_SOFT}|{_STRONG}|on\s+second\s+thoughts?)\b\W*)+"
    rf"(?:{_KEEP_IT}|{_NEVER_MIND})|{_NEVER_MIND})\W*$",
    re.I,
)


def wholly_taken_back(text: str) -> bool:
    """Whether the message ends by taking back all it asked: nothing is to change.

    "rename horror to spooky, no wait, keep it", "add dune to summer... actually never mind".
    """
    return _WHOLLY_TAKEN_BACK.search(text.strip()) is not None
