"""A book's places in its series, read from the catalog's series text and number.

Goodreads-style records name a book's series as "The Hunger Games" with the number apart
("2"), or as several series with their own numbers: "Discworld, #1; Rincewind" with the
number 1 for the last one named (*The Color of Magic* is Discworld #1 and Rincewind #1),
"Death, #1; Discworld" with 4 (*Mort* is Discworld #4). A title may carry its own
"(Series, #3)". Only whole numbers count: "1-3" is a box set, "2.5" a novella between two.
"""

from __future__ import annotations

import re

from lectern.domain.normalize.works import split_series

_NUMBERED = re.compile(r"^(?P<name>.*?)[\s,]*#\s*(?P<place>[\d.\-–]+)\s*$")


def _whole(place: str | None) -> int | None:
    if place is None or not place.strip().isdigit():
        return None
    value = int(place.strip())
    return value if value > 0 else None


def series_places(title: str, series: str | None, number: str | None) -> list[tuple[str, int]]:
    """(series name, place) of every series the book is numbered in."""
    places: list[tuple[str, int]] = []
    if series:
        parts = [p.strip() for p in series.split(";") if p.strip()]
        unnumbered = [p for p in parts if not _NUMBERED.match(p)]
        for part in parts:
            found = _NUMBERED.match(part)
            if found is not None:
                place = _whole(found["place"])
                name = found["name"].strip(" ,")
            else:
                # The record's number is the one series named without its own ("Discworld").
                place = _whole(number) if len(unnumbered) == 1 else None
                name = part.strip(" ,")
            if name and place is not None:
                places.append((name, place))
    if not places:
        _, named, said = split_series(title)
        whole = _whole(said)
        if named and whole is not None:
            places.append((named, whole))
    return places
