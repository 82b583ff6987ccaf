"""A thing named by id, by its exact name, or by words of its name (projects, tasks, ...)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from lectern.domain.workspace import matches
from lectern.errors import InvalidQueryError, WorkspaceNotFoundError

_T = TypeVar("_T")


def pick(
    things: Sequence[_T],
    reference: str,
    id_of: Callable[[_T], str],
    name_of: Callable[[_T], str],
    what: str,
) -> _T:
    """By id, else the one exact name, else the one name holding every word of the reference."""
    if not reference:
        raise InvalidQueryError(f"name a {what}")
    for thing in things:
        if id_of(thing) == reference:
            return thing
    folded = " ".join(reference.casefold().split())
    exact = [t for t in things if " ".join(name_of(t).casefold().split()) == folded]
    if len(exact) == 1:
        return exact[0]
    candidates = exact or [t for t in things if matches(name_of(t), reference)]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise WorkspaceNotFoundError(f"no {what} {reference!r}")
    names = "; ".join(f"{name_of(t)!r} ({id_of(t)})" for t in candidates[:5])
    raise InvalidQueryError(f"{len(candidates)} {what}s match {reference!r}: {names}; give the id")
