"""The sentence that carries a request, when the message tells its circumstances first.

People explain before they ask: "Bob is swamped this week and I have room. Assign the
drill to me instead.", "I tried the export but it times out. Please add a blocker ...".
Read whole, the telling sentences lend their words to the request (a task's title made of
"I tried the export", a person taken from "Bob is swamped"). When every sentence before a
later one only tells (none asks, none starts with a request's verb) and that later sentence
asks for something, the request is read from that sentence on; the sentences before are
kept for what the request leaves unsaid (`circumstances`). Quoted words never end a
sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.book_request import asked_alone as asked_alone
from lectern.adapters.understanding.correction_said import correction_said
from lectern.adapters.understanding.courtesy import without_courtesy
from lectern.adapters.understanding.echoed import echo_dropped
from lectern.adapters.understanding.formal import plain_words
from lectern.adapters.understanding.hedges import unhedged
from lectern.adapters.understanding.list_as_one import list_said_as_one
from lectern.adapters.understanding.list_by_name import list_request
from lectern.adapters.understanding.list_named_before import list_named_before, list_renamed_after
from lectern.adapters.understanding.rating_moved import rating_moved
from lectern.adapters.understanding.rating_said import out_of_ten, rating_said
from lectern.adapters.understanding.rating_told import rating_told
from lectern.adapters.understanding.said_again import said_again
from lectern.adapters.understanding.scaffold import Request as Request
from lectern.adapters.understanding.scaffold import quotes_hidden
from lectern.adapters.understanding.star_symbols import star_symbols
from lectern.adapters.understanding.stored_renamed import stored_renamed

_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=;)\s+(?!.*\b(?:he|she|him|her|his|they|them|their)\b)")
"""A sentence's end; a semicolon ends one too ("token review came back clean; close ..."),
unless what follows speaks of a person the telling names ("I'm covering for bob; show me
the tasks he has")."""

_LEAD = (
    r"(?:(?:please|pls|just|so|ok(?:ay)?|now|anyway|then|but|and|instead|"
    r"(?:can|could|would|will)\s+(?:you|u)|(?:can|could)\s+(?:we|i)|"
    r"i\s+(?:need|want)\s+you\s+to)[\s,]+)*"
)
_VERB = (
    # "can we get the review moved to monday": a change had done
    r"(?:get\s+(?!(?:it|this|that)\b)(?:the|my|our|a|an)\b|"
    r"assign|reassign|give|hand|add|create|make|set|mark|close|complete|finish|put|move|"
    r"change|update|open|show|list|rename|retitle|comment|note|log|flag|block|unblock|"
    r"resolve|clear|lift|remove|delete|tell|start|reopen|push|bump|raise|lower|drop|record|file|"
    r"attach|write|schedule|plan|let\s+me\s+see|pull\s+up|take)\b"
)
_ASKS = re.compile(rf"^{_LEAD}{_VERB}", re.I)
"""A sentence that asks for something: a request's verb after the words that soften it."""

_KEEPS_WHAT_WAS_SAID = re.compile(
    rf"^{_LEAD}(?:add|raise|flag|file|log|record|note|put\s+in|open)\s+(?:a|an|that|this|it)"
    r"(?:\s+down)?(?:\s+(?:as\s+(?:a|an)\s+)?(?:blocker|impediment|comment|note))?"
    r"(?:\s+(?:please|thanks))?\W*$",
    re.I,
)
"""A request with no words of its own ("add a blocker", "log that"): what was told is them."""

_POINTS_BACK = re.compile(
    rf"^{_LEAD}(?:add|put|post|leave|log|record|note|write|save|keep|comment|flag|raise|file)"
    r"\s+(?:that|this)\b"
    r"(?!\s+(?:task|one|blocker|project|document)\b)(?:\s+down)?(?:\s+as\s+(?:a|an)\s+"
    r"(?:comment|note|blocker)|\s+(?:on|to|under|against|in)\b|\W*$|\s+and\b)|"
    r"\b(?:with|as)\s+(?:that|this|what\s+i\s+(?:just\s+)?said)\W*$",
    re.I,
)
"""A request whose words are "that", what was just told ("add that as a comment on X",
"close the blocker with that"): read with what was told, as one."""


def points_back(request: str) -> bool:
    """Whether a request's words are what was said before it ("comment that on the drill")."""
    return bool(_KEEPS_WHAT_WAS_SAID.match(request) or _POINTS_BACK.search(request))


_SOFTENED = re.compile(r"^(?:(?:just|so|ok(?:ay)?|now|anyway|then|but|and|instead)[\s,]+)+", re.I)
"""Words that only join the request to what was told ("Just close it.", "So, add ...")."""


def _sentences(text: str) -> list[str]:
    """The message's sentences; a full stop inside quotes ends none."""
    hidden = quotes_hidden(text)
    cuts = [m.end() for m in _END.finditer(hidden)]
    starts = [0, *cuts]
    ends = [*cuts, len(text)]
    return [text[a:b].strip() for a, b in zip(starts, ends, strict=True) if text[a:b].strip()]


def request_after_circumstances(text: str) -> Request | None:
    """The request told after its circumstances, or None when the message is not so shaped.

    None when the first sentence already asks (or is a question), when no later sentence
    asks, or when the message is one sentence.
    """
    sentences = _sentences(text)
    if len(sentences) < 2:
        return None
    for index, sentence in enumerate(sentences):
        if _ASKS.match(sentence):
            if index == 0 or _KEEPS_WHAT_WAS_SAID.match(sentence) or _POINTS_BACK.search(sentence):
                return None
            told = sentences[:index]
            if any(s.rstrip().endswith("?") and not _COMPLAINT.match(s) for s in told):
                return None  # an earlier question is a request of its own (not "why ...?")
            asked = _SOFTENED.sub("", " ".join(sentences[index:]))
            return Request(" ".join(told), asked[:1].upper() + asked[1:])
    return None


_COMPLAINT = re.compile(r"^\W*(?:why|how\s+come)\b", re.I)
"""A question that complains ("why is the drill not marked complete??"): before a request, its
circumstance, not a request of its own."""
_TELLS = re.compile(
    r"^(?:i|we|my\s+\w+|our\s+\w+)\s+(?:(?:have|had|'ve|’ve|just|already|finally|once|"
    r"also)\s+)*(?!(?:want|wanted|need|needed|would|wish|wonder|hope|think|like|love|"
    r"wanna|could|can|will|shall|should|must|might|may|do|did|don['’]t)\b)"
    r"(?:read|finished|started|bought|borrowed|got|was|were|saw|heard|met|studied|kept|named|"
    r"made|had|lent|gave\s+up|picked\s+up|\w+ed)\b",
    re.I,
)
_ASKS_ANYWHERE = re.compile(
    r"\?|\b(?:please|pls|could\s+you|can\s+you|would\s+you|will\s+you|i['’]?d\s+like|"
    r"let['’]?s)\b",
    re.I,
)

_ASKED_AFTER = re.compile(
    r"[,:;.!–—-]\s*(?:(?:and|then|so|now)\s+)*(?:rate|give|add|put|remove|take|delete|rename|"
    r"create|make|mark|move|drop)\b|\bstars?\b|\b[1-5]\s*/\s*5\b",
    re.I,
)
"""A request said after the telling in the same part ("I finished The Help: give it 4 stars")."""


def only_tells(sentence: str) -> bool:
    """Whether a sentence only tells what the reader did, asking nothing.

    "I have read this book in Russian when I was a student": circumstances, never a request
    of its own.
    """
    return (
        bool(_TELLS.match(sentence.strip()))
        and not _ASKS_ANYWHERE.search(sentence)
        and not _ASKED_AFTER.search(sentence)
    )


_TAKEN_BACK = re.compile(
    r"^[^?]+\?+\s*(?:(?:eh|oh|ah|um+|hmm+|well|ok(?:ay)?|actually|no|nah)[\s,.!-]+)*"
    r"(?:whatever|never\s*mind|nvm|forget\s+(?:it|that)|(?:it\s+)?doesn['’]?t\s+matter|"
    r"scratch\s+that|no\s+matter)\b[\s,.!:;-]*(?=\S)",
    re.I,
)


def question_taken_back(text: str) -> str:
    """The message after a question its writer took back ("is this any good? eh whatever, ...").

    "is this any good? eh whatever, I read it years ago and it was fine. just rate it 3" asks
    only for the rating: the question before "whatever" (or "never mind", "forget it") is
    withdrawn, so it is no request of its own.
    """
    found = _TAKEN_BACK.match(text)
    return text[found.end() :] if found else text


def without_asides(text: str, lists: Sequence[str] = ()) -> str:
    """The message without what is said around its request: courtesy, hedges, questions taken back.

    A request pointing at a list the telling before it named is read alone, the list said.
    """
    text = plain_words(unhedged(without_courtesy(question_taken_back(echo_dropped(text)))))
    text = list_said_as_one(text) or rating_told(text) or text
    # "five stars for X", "X gets a 4 from me", "should be 1850 - no sorry, 1851"
    # "⭐⭐⭐⭐ X", "bump X down to 2": a grade in symbols, a rating moved
    text = rating_moved(text) or star_symbols(text) or text
    # "X doesn't have a language. It's English", "X is listed as A. It is B. fix it"
    text = correction_said(text) or text
    halved = out_of_ten(said_again(text))  # "Gone Girl 8/10": 4 stars, read on as such
    text = rating_said(halved) or halved
    return (
        list_named_before(text, lists)
        or list_renamed_after(text, lists)
        or stored_renamed(text, lists)
        or list_request(text, lists)
        or text
    )
