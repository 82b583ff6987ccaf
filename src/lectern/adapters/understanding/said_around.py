"""A book request with what is said around it set apart: tags, remarks, polite shapes, shelves.

Readers wrap a plain request in more words: a hashtag or an emoji ("Adding THIS one to my
Spooky Season list 👻 #halloweenreads"), a remark after it ("when was this written?? need it
for my essay intro", "... to 'Thursday Reading Circle'? We have moved our meetings, you
see."), a polite modal or a gerund where the verb stands ("Might you add it to ...",
"Might it be possible to change ...", "Adding THIS one to ..."), a bookshop's words ("shelve
as to-read", "new shelf: dnf"), a list's number said in words ("my list called christmas
twenty twenty five"). Read whole, "Adding" or "Might" was taken for a title, the remark ran
into the book or the new name, and "this book? It has ..." matched a catalog title that
starts with "This Book". Each is said here as the plain request the rules read; a trailing
sentence is set apart only when it asks and changes nothing (no verb of a request, no list,
no value put right), so a correction's value or a second request is never lost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.compound import ACTION_VERB, LOOKUP_VERB
from lectern.adapters.understanding.scaffold import quotes_hidden
from lectern.adapters.understanding.spoken_years import with_spoken_years

_HASHTAG = re.compile(r"(?<![\w&])#[A-Za-z]\w*")
"""A hashtag ("#halloweenreads"): never a word of a title or a name ("#1" is a place)."""
_PICTOGRAPH = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]+")
"""Pictographs and their joiners (some are kept: `_KEPT`)."""
_KEPT = "★☆⭐🌟➡"
"""Stars a rating is given with, and the arrow a rename is said with: read by `spoken`."""
_ASKS = (
    rf"(?:(?:please|pls|(?:can|could|would|will)\s+(?:you|u))\s+)?(?:{ACTION_VERB}|{LOOKUP_VERB})\b"
)

_POLITE_MODAL = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:might|may)\s+(?:it\s+be\s+possible\s+(?:for\s+(?:you|me)\s+)?to|you"
    r"(?:\s+(?:please|kindly))?)\s+(?=\w)",
    re.I,
)
"""A request asked with "might" ("Might you add it ...", "Might it be possible to change ...")."""
_GERUNDS = {
    "adding": "add",
    "putting": "put",
    "popping": "pop",
    "sticking": "stick",
    "removing": "remove",
    "taking": "take",
    "moving": "move",
    "deleting": "delete",
    "renaming": "rename",
    "creating": "create",
    "making": "make",
    "starting": "start",
    "changing": "change",
    "rating": "rate",
    "giving": "give",
    "shelving": "shelve",
}
_GERUND_LED = re.compile(
    rf"(?:^|(?<=[.!?]\s))(?P<verb>{'|'.join(_GERUNDS)})\s+(?=\S.*?\b(?:to|on|onto|into|off|from|"
    r"as|name)\b)",
    re.I,
)
"""A request led by the verb's "-ing" ("Adding THIS one to my Spooky Season list")."""
_MIND_GERUND = re.compile(
    rf"(?:^|(?<=[.!?]\s))(?:would|do)\s+(?:you|u)\s+mind\s+(?P<verb>{'|'.join(_GERUNDS)})\b", re.I
)
"""A request asked as minding ("Would you mind adding X to Y"): the verb."""

_SHELVED_AS = re.compile(
    r"^(?P<verb>shelve|file)\s+(?:(?P<book>.+?)\s+)?(?:as|under)\s+(?P<list>\S.*)$", re.I
)
"""A book shelved "as" a list ("shelve as to-read", "shelve Dune as read"): put on it."""
_SHELF = re.compile(r"\bshel(?P<n>f|ves)\b(?![\s-]+life)", re.I)
"""A reader's shelf: a list, as book sites call them ("new shelf: dnf")."""

_INTERJECTION = re.compile(
    r"^(?:(?:oh|ah|how|what\s+a|that\s+sounds|sounds|very|really|so)\s+)*(?:lovely|splendid|"
    r"wonderful|brilliant|marvellous|excellent|fantastic|amazing|great|perfect|nice|cool|fab|"
    r"gorgeous|delightful|charming|super|wow|ooh+)(?:\s+(?:thanks|thank\s+you|indeed))?\s*[.!]+\s+"
    rf"(?={_ASKS})",
    re.I,
)
"""A sentence of delight before the request ("Splendid. put it on ..."): never its book."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_REQUEST_FIRST = re.compile(
    rf"^\W*(?:{_ASKS}|(?:what|when|how|who|which|where|why)\b|(?:can|could|would|will)\s+(?:you|u)\b)",
    re.I,
)
"""A sentence that asks: a request's verb, a question word, a request's modal."""
_REMARK_OPENS = re.compile(
    r"^(?:i|i['’]m|i['’]ve|i['’]d|we|we['’]ve|we['’]re|she|he|they|it|it['’]s|its|this|that|"
    r"that['’]s|need|needed|needs|for|because|bc|cos|since|as|my|our|you\s+see|(?:just\s+)?curious|"
    r"(?:just\s+)?asking|(?:just\s+)?wondering|thanks|thank\s+you)\b",
    re.I,
)
"""How a remark after a request opens ("need it for my essay", "We have moved our meetings")."""
_NOT_A_REMARK = re.compile(
    rf"\b(?:{ACTION_VERB}|not|no|n['’]t|instead|actually|wait|keep|also|too|then|wrong|says?|"
    r"should|incorrect|mistake|error|typo|but|list|lists|stars?|called|named|"
    # "I mean Dune Messiah", "sorry, Kindred", "or rather ...": the sentence corrects the request
    r"mean|meant|sorry|rather|oops|correction|scratch\s+that|make\s+(?:it|that))\b|[\"“”'‘’]|"
    r"\b[1-5](?:\s*/\s*5)?\b(?!\s*\d)|\b(?:to|on|onto|into|off|from)\s+(?:my|the|our)\b",
    re.I,
)
"""What makes a later sentence part of the request: a verb, a value, a list, a correction (a
sentence that corrects the request is never a remark on it)."""


def _gerund(found: re.Match[str]) -> str:
    return _GERUNDS[found["verb"].casefold()] + " "


def _marks_dropped(text: str) -> str:
    """`text` without hashtags and pictographs; one before a request's verb ends a sentence."""
    text = _HASHTAG.sub("", text)

    def dropped(found: re.Match[str]) -> str:
        if set(found.group(0)) & set(_KEPT):
            return found.group(0)
        before, after = text[: found.start()].rstrip(), text[found.end() :].lstrip()
        if not before:
            return found.group(0)  # "❌ X from Y": an emoji where the verb stands (`spoken`)
        if before and before[-1].isalnum() and re.match(_ASKS, after, re.I):
            return ". "  # "Rebranding time ✨ change my ...": the remark ends there
        return " "

    return re.sub(r"\s+\.(?=\s)", ".", " ".join(_PICTOGRAPH.sub(dropped, text).split()))


def _remarks_after_dropped(text: str, lists: Sequence[str]) -> str:
    """`text` without the sentences after its request that only remark on it."""
    hidden = quotes_hidden(text)
    cuts = [m.start() for m in _SENTENCE_END.finditer(hidden)]
    if not cuts or not _REQUEST_FIRST.match(text):
        return text
    head = text[: cuts[0]].rstrip()
    rest = [s.strip() for s in _SENTENCE_END.split(text[cuts[0] :].strip())]
    said = " ".join(rest)
    named = any(re.search(rf"\b{re.escape(n)}\b", said, re.I) for n in lists)
    if named or not all(_REMARK_OPENS.match(s) and not _NOT_A_REMARK.search(s) for s in rest):
        return text
    return head


def _spoken_list_names(text: str, lists: Sequence[str]) -> str:
    """`text` with a list's year said in words written as the list's name has it."""
    written = with_spoken_years(text)
    if written == text:
        return text
    dated = [n for n in lists if re.search(r"\d", n)]
    newly = [
        n
        for n in dated
        if re.search(rf"\b{re.escape(n)}\b", written, re.I)
        and not re.search(rf"\b{re.escape(n)}\b", text, re.I)
    ]
    return written if newly else text


def said_bare(text: str, lists: Sequence[str] = ()) -> str:
    """The book request in `text`, said as the rules read it; `text` when nothing is around it."""
    text = _marks_dropped(text)
    text = _POLITE_MODAL.sub("", text)
    text = _MIND_GERUND.sub(lambda m: "could you " + _GERUNDS[m["verb"].casefold()], text)
    text = _GERUND_LED.sub(_gerund, text)
    text = _INTERJECTION.sub("", text)
    text = _remarks_after_dropped(text, lists)
    shelved = _SHELVED_AS.match(text)
    if shelved is not None:
        text = f"{shelved['verb']} {shelved['book'] or 'it'} on {shelved['list']}"
    if not any(re.search(r"\bshel(?:f|ves)\b", n, re.I) for n in lists):
        text = _SHELF.sub(lambda m: "list" if m["n"].casefold() == "f" else "lists", text)
    return _spoken_list_names(text, lists)
