"""Metadata filters: the fields a collection declares, and `where` expressions over them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from lectern.domain.books import JSONValue

FilterKind = Literal["keyword", "date", "number"]


@dataclass(frozen=True, slots=True)
class FilterField:
    """A metadata field a collection lets searches filter on."""

    name: str
    kind: FilterKind = "keyword"
    source: str | None = None
    """Where the value comes from in a record (a field path), for the records' mapping."""


@dataclass(frozen=True, slots=True)
class MetadataFilter:
    """One `--where`: equality or membership (`values`), or a range (`low`..`high`)."""

    name: str
    values: tuple[str, ...] = ()
    low: str | float | None = None
    high: str | float | None = None


_WHERE = re.compile(r"^\s*(?P<name>[A-Za-z_][\w.-]*)\s*(?P<op>>=|<=|=|>|<)\s*(?P<value>.*?)\s*$")


def _bound(kind: FilterKind, name: str, raw: str) -> str | float:
    if kind == "number":
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"{name} takes numbers, not {raw!r}") from None
    if kind == "date" and not re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", raw):
        raise ValueError(f"{name} takes dates as YYYY, YYYY-MM or YYYY-MM-DD, not {raw!r}")
    return raw


def parse_where(expression: str, fields: Mapping[str, FilterField]) -> MetadataFilter:
    """`vendor=Microsoft`, `cwe=CWE-79,CWE-89`, `date_added>=2024-01`, `score=7..10`."""
    match = _WHERE.match(expression)
    if not match or not match.group("value"):
        raise ValueError(
            f"cannot read the filter {expression!r}: write name=value, name=a,b, "
            "name>=low, name<=high or name=low..high"
        )
    name, op, raw = match.group("name"), match.group("op"), match.group("value")
    declared = fields.get(name)
    if declared is None:
        known = ", ".join(sorted(fields)) or "none"
        raise ValueError(f"this collection has no filter {name!r} (it has: {known})")
    kind = declared.kind
    if op == "=" and ".." in raw and kind != "keyword":
        low, _, high = raw.partition("..")
        return MetadataFilter(
            name,
            low=_bound(kind, name, low.strip()) if low.strip() else None,
            high=_bound(kind, name, high.strip()) if high.strip() else None,
        )
    if op == "=":
        values = tuple(v.strip() for v in raw.split(",") if v.strip())
        if kind != "keyword":
            return MetadataFilter(name, low=_bound(kind, name, raw), high=_bound(kind, name, raw))
        return MetadataFilter(name, values=values)
    if kind == "keyword":
        raise ValueError(f"{name} holds words: use = with one value or a comma-separated set")
    bound = _bound(kind, name, raw)
    return (
        MetadataFilter(name, low=bound) if op in (">=", ">") else MetadataFilter(name, high=bound)
    )


def _as_list(value: JSONValue) -> list[JSONValue]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def filter_matches(where: MetadataFilter, kind: FilterKind, value: JSONValue) -> bool:
    """True when a document's metadata value passes the filter (any element of a list)."""
    for item in _as_list(value):
        if item is None or isinstance(item, dict | list):
            continue
        if where.values:
            if str(item).casefold() in {v.casefold() for v in where.values}:
                return True
            continue
        if kind == "number":
            try:
                number = float(item)
            except (TypeError, ValueError):
                continue
            low = float(where.low) if where.low is not None else None
            high = float(where.high) if where.high is not None else None
            if (low is None or number >= low) and (high is None or number <= high):
                return True
            continue
        text = str(item)
        low_text = str(where.low) if where.low is not None else None
        high_text = str(where.high) if where.high is not None else None
        # ISO dates compare as text; a bound "2024" covers all of 2024 at the upper end.
        if (low_text is None or text >= low_text) and (
            high_text is None or text[: len(high_text)] <= high_text
        ):
            return True
    return False
