"""Authors: lists split on their separators, roles split off, surnames for keys."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lectern.domain.normalize.author_data import AUTHOR_ROLES, NAME_SUFFIXES, NOT_A_NAME
from lectern.domain.normalize.text import collapse_whitespace, fold

_ROLE = re.compile(r"\s*\(([^()]*)\)\s*$")


@dataclass(frozen=True, slots=True)
class ParsedAuthors:
    """Author names in source order, with roles split off into their own mapping."""

    names: tuple[str, ...]
    roles: dict[str, str]


def _with_roles(fragments: Iterable[str]) -> ParsedAuthors:
    names: list[str] = []
    roles: dict[str, str] = {}
    for fragment in fragments:
        name = collapse_whitespace(fragment)
        role: str | None = None
        match = _ROLE.search(name)
        if match:
            words = [w.strip().casefold() for w in match.group(1).split(",")]
            if words and all(w in AUTHOR_ROLES for w in words):
                role = ", ".join(w for w in words if w != "goodreads author") or None
                name = name[: match.start()].strip()
        if not name or name.casefold() in NOT_A_NAME:
            continue
        if name not in names:
            names.append(name)
            if role:
                roles[name] = role
    return ParsedAuthors(tuple(names), roles)


def _split_outside_parentheses(text: str, separator: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        if char == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def split_authors(raw: str | None, separator: str) -> ParsedAuthors:
    """Split an author list on a plain separator; name suffixes (Jr.) stay attached."""
    if raw is None or not raw.strip():
        return ParsedAuthors((), {})
    merged: list[str] = []
    for part in _split_outside_parentheses(raw, separator):
        piece = part.strip()
        if merged and piece.casefold() in NAME_SUFFIXES:
            merged[-1] = f"{merged[-1]}, {piece}"
        elif piece:
            merged.append(piece)
    return _with_roles(merged)


def split_hyphenated_authors(raw: str | None, known_names: frozenset[str]) -> ParsedAuthors:
    """Split a '-'-separated author list where '-' also occurs inside names.

    "Jean-Paul Sartre-Carol Cosman" is two authors. We try every way of rejoining the
    fragments and pick the one that yields the most names already known from other
    sources (folded); ties go to the reading where a fragment with no space joins the
    next fragment, since a bare fragment is usually the first half of a hyphenated name.
    """
    if raw is None or not raw.strip():
        return ParsedAuthors((), {})
    fragments = [f.strip() for f in raw.split("-")]
    fragments = [f for f in fragments if f]
    if len(fragments) <= 1 or len(fragments) > 12:
        return _with_roles(fragments if len(fragments) <= 1 else [raw.replace("-", " - ")])

    def heuristic(parts: Sequence[str]) -> list[str]:
        names: list[str] = []
        pending = ""
        for index, part in enumerate(parts):
            joined = f"{pending}-{part}" if pending else part
            is_last = index == len(parts) - 1
            if " " not in part and not is_last:
                pending = joined
                continue
            names.append(joined)
            pending = ""
        return names

    best = heuristic(fragments)
    if known_names:
        best_known = sum(fold(n) in known_names for n in best)
        # Enumerate joins only for short lists: 2^(n-1) readings.
        if len(fragments) <= 8:
            for mask in range(1 << (len(fragments) - 1)):
                names = [fragments[0]]
                for i, part in enumerate(fragments[1:]):
                    if mask >> i & 1:
                        names[-1] = f"{names[-1]}-{part}"
                    else:
                        names.append(part)
                known = sum(fold(n) in known_names for n in names)
                if known > best_known:
                    best, best_known = names, known
    return _with_roles(best)


def author_surname(name: str) -> str | None:
    """The folded surname of an author ("Suzanne Collins" -> "collins")."""
    words = [w for w in fold(name).split() if w not in {"jr", "sr", "ii", "iii", "iv"}]
    return words[-1] if words else None
