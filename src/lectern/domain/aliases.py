"""The everyday names a document gives its own terms, so a question finds the document's words.

"A memorized secret (commonly referred to as a password or PIN)": a question about passwords
is a question about memorized secrets.

Guidance is written in its own vocabulary: NIST says "memorized secret" where a reader says
"password". The documents say so themselves, in sentences of a few fixed shapes; reading those
sentences gives each collection its glossary without a hand-written synonym list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_SAID_AS = re.compile(
    r"(?:commonly|also|often|sometimes)\s+(?:referred\s+to\s+as|known\s+as|called)\s+"
    r"(?P<names>[^.;:)(—–\n]{1,80})",
    re.I,
)
_TERM_BEFORE = re.compile(r"(?P<term>(?:[A-Za-z][\w-]*\s+){0,3}[A-Za-z][\w-]*)\s*[(—–,]\s*$")
"""The term just before the phrase, read backwards from it (searched only where the phrase
is: a pattern for both, tried at every word of a long document, was slow)."""
_LEADING_WORDS = """a an the this that these those its their our your most many some each every
any of or and to in for"""
_LEADING = frozenset(_LEADING_WORDS.split())
_PIECE = re.compile(r",?\s+or\b,?\s*|,\s*|/")
_WORD = re.compile(r"[a-z0-9][a-z0-9-]*")
MAX_WORDS = 3
"""A term or a name of more words is a phrase, not a name (and a parsing slip)."""


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _term(text: str) -> tuple[str, ...]:
    words = _words(text)[-MAX_WORDS - 1 :]
    while words and words[-1] in {"or", "and"}:
        words = words[:-1]
    words = words[-MAX_WORDS:]
    while words and words[0] in _LEADING:
        words = words[1:]
    return tuple(words)


def aliases_in(text: str) -> dict[str, str]:
    """Everyday name -> the document's term, from the sentences that give both.

    "A memorized secret authenticator (commonly referred to as a password or, if numeric, a
    PIN)" gives password and pin -> "memorized secret authenticator". Quotes, markup and
    articles are dropped; a name that is the term itself, or longer than three words, is not
    kept.
    """
    found: dict[str, str] = {}
    plain = re.sub(r"<[^>]{1,20}>|[\"“”'‘’*_]", "", text)
    for match in _SAID_AS.finditer(plain):
        before = _TERM_BEFORE.search(plain[max(0, match.start() - 80) : match.start()])
        term = _term(before.group("term")) if before else ()
        if not term:
            continue
        for piece in _PIECE.split(match.group("names")):
            name = _term(piece)
            if not name or len(_words(piece)) > MAX_WORDS + 1 or set(name) <= set(term):
                continue
            if name[0] in {"if", "when", "for", "in"}:
                continue
            key, value = " ".join(name), " ".join(term)
            if key not in found or len(value) < len(found[key]):
                found[key] = value
    return found


def merged(tables: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """One table of many documents' aliases: the shortest term wins a name given twice."""
    out: dict[str, str] = {}
    for table in tables:
        for name, term in table.items():
            if name not in out or len(term) < len(out[name]):
                out[name] = term
    return out


GAP = "…"
"""In an everyday name, up to `GAP_WORDS` words of any kind: "text … code" is named in "we text
people a one time code" (a verb and its object, whatever is said between them)."""
GAP_WORDS = 4


def named_in(question: str, aliases: Mapping[str, str]) -> dict[str, str]:
    """The aliases whose everyday name the question uses (as whole words, any case).

    A name's last word may take a plural ending (-s, -es); a `GAP` in a name stands for up
    to `GAP_WORDS` words. A question that already names the term gets nothing for it.
    """
    words = " " + " ".join(_words(question)) + " "
    used: dict[str, str] = {}
    for name, term in aliases.items():
        if f" {term} " in words:
            continue
        if _names(words, name):
            used[name] = term
    return used


def _names(words: str, name: str) -> bool:
    """Whether the folded, space-joined `words` use `name` (`named_in`)."""
    if GAP not in name:
        return any(f" {form} " in words for form in (name, f"{name}s", f"{name}es"))
    pieces = [re.escape(piece.strip()) for piece in name.split(GAP)]
    gap = rf"(?:\S+ ){{0,{GAP_WORDS}}}"
    *before, last = pieces
    pattern = " " + "".join(f"{piece} {gap}" for piece in before) + rf"{last}(?:s|es)? "
    return re.search(pattern, words) is not None
