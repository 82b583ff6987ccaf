"""The JSON a run writes: its format version, and reading figures back out of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from lectern.domain.books import JSONValue

ARTIFACT_FORMAT = 1


def jsonable(value: object) -> JSONValue:
    """Mappings and collections as JSON objects and lists; anything unknown as its string."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def mean_of(section: Mapping[str, JSONValue], name: str) -> float | None:
    """A figure of a section: its `mean` when it has an interval, else the plain number."""
    value = section.get(name)
    if isinstance(value, dict):
        inner = value.get("mean")
        return float(inner) if isinstance(inner, int | float) else None
    return float(value) if isinstance(value, int | float) else None


def aggregate_mean(artifact: Mapping[str, JSONValue], name: str) -> float | None:
    """A figure of a run's aggregate (`mean_of` its `aggregate` section)."""
    return mean_of(cast(Mapping[str, JSONValue], artifact.get("aggregate") or {}), name)
