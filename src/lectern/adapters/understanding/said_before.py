"""The book a message names before it points at it ("Holes ... wants more like it").

"The gruffalo is too babyish now, take it off kids bedtime", "my mum told me about Still
Alice - could it go on Mum's picks?": the "it" of a message means the catalog title the same
message said before it, ahead of the page's book or the talk's. Only a title the catalog
knows counts: a run of lower-case words is too often no title at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lectern.adapters.understanding.compound import title_within

_POINTER = re.compile(
    r"\bit\b(?!['’]\w)(?!\s+(?:is|was|has|had|will|would)\b)"
    r"|\blike\s+(?:that|this)(?:\s+one)?(?=\s*(?:(?:please|pls|plz)\s*)?(?:[?!.,]|$))",
    re.I,
)
""""It" as the object pointed at, not the subject of a remark ("it's English"); "like that"
after a book ("she loved Matilda. more like that?")."""
_WORD_EDGE = re.compile(r"[^\w'’]+$")
_PRONOUN_RUN = re.compile(
    r"^the\s+(?:one|ones|two|three|four|five|six|seven|same|other|last|first|next|best|rest)$"
)
"""Lower-case words that point rather than name ("yeah that's the one, put it on Next", "the
one with the three witches"): a catalog title of those words is never what was meant."""


def title_said_before(
    text: str,
    is_title: Callable[[str], bool],
    title_in: Callable[[str], str | None],
) -> str | None:
    """The catalog title `text` names before its first "it", or None.

    A capitalised title is read as `title_in` reads one (the first such run the catalog
    holds, past places and greetings); in words written all in lower case,
    the longest run of two words or more that the catalog holds ("lord of the flies").
    """
    pointer = _POINTER.search(text)
    if pointer is None or pointer.start() == 0:
        return None
    before = _WORD_EDGE.sub("", text[: pointer.start()])
    rest = before
    while (named := title_in(rest)) is not None:
        if is_title(named):
            return named
        # "... a podcast about Afghanistan and I would like to read Gilead. Could you put it
        # ...": a place or a greeting said first, then the title.
        at = rest.find(named)
        if at < 0:
            break
        rest = rest[at + len(named) :]
    lowered = before.casefold()
    found = title_within(lowered, is_title) if len(lowered.split()) >= 2 else None
    if found is None:
        # "my book club is reading pachinko - can it go on my tbr", "gave up on dune halfway,
        # pull it from my tbr": one lower-case word the reader says they are reading
        read = _READ_ONE.search(lowered)
        found = read.group("word") if read and is_title(read.group("word")) else None
    return None if found is None or _PRONOUN_RUN.match(found.casefold()) else found


_READ_ONE = re.compile(
    # the verb the reader's: after its subject or at the start, never a noun's word ("our
    # reading circle" had made *Circle* the book)
    r"(?:^|\b(?:i|we|she|he|they|is|am|are|was|were|been|just|currently|also|finally|"
    r"already)\s+|['’](?:m|re|s|ve)\s+)"
    r"(?:reading|read|reread|re-read|finished|finishing|started|starting|loved|hated|"
    r"enjoyed|gave\s+up\s+on|giving\s+up\s+on|dnf['’]?d|abandoned|listening\s+to)\s+"
    r"(?!(?:it|this|that|the|a|an|my|your|his|her|their|our|some|one|more|about|up|on|"
    r"through|again|now|too|lately|recently|last|next|every|all|book|books|novel)\b)"
    r"(?P<word>[a-z][\w'’-]+)\b"
)
"""One word after the reader's reading verb: the book, when the catalog holds it."""


_SENTENCE_BREAK = re.compile(r"(?:[.!?;]+|\s[-–—]+)\s+")
"""Where a sentence ends and the next begins ("... Still Alice - could it go on ...")."""


def sentence_with_it(text: str) -> str | None:
    """The sentence holding a message's first "it", when a sentence before it says something.

    "My mum just told me about Still Alice - could it go on Mum's picks?": the request is the
    last sentence; the one before tells which book "it" is.
    """
    pointer = _POINTER.search(text)
    if pointer is None:
        return None
    breaks = [b for b in _SENTENCE_BREAK.finditer(text) if b.end() <= pointer.start()]
    if not breaks:
        return None
    rest = text[breaks[-1].end() :].strip()
    return rest if _SENTENCE_BREAK.search(rest) is None and rest else None
