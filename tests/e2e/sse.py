"""A small reader of Server-Sent Events for the tests (the wire format, read by hand)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass
class Event:
    """One event: its name (`message` when none), its data, and when it was read."""

    name: str
    data: str
    comments: tuple[str, ...] = ()

    def json(self) -> Any:
        return json.loads(self.data)


def read_events(lines: Iterable[str]) -> Iterator[Event]:
    """Events from the lines of a stream; comment lines ride on the next event."""
    name, data, comments = "message", [], []
    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line:
            if data:
                yield Event(name, "\n".join(data), tuple(comments))
                comments = []
            name, data = "message", []
            continue
        if line.startswith(":"):
            comments.append(line[1:].strip())
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    if data:
        yield Event(name, "\n".join(data), tuple(comments))


def parse(text: str) -> list[Event]:
    """Every event of a complete stream."""
    return list(read_events(text.splitlines()))
