"""A CSV reader that survives real-world files: every bad row is reported, none aborts."""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lectern.errors import SourceError

csv.field_size_limit(min(sys.maxsize, 2**31 - 1))

_MAX_FIELD_CHARS = 1_000_000
"""A single field longer than this is a broken quote swallowing the file, not data."""


@dataclass(frozen=True, slots=True)
class CsvRow:
    """One data row: its first physical line and its values by column name."""

    line: int
    values: dict[str, str]
    problems: tuple[str, ...] = ()
    """Repairs made while reading (NUL bytes removed, undecodable bytes replaced)."""


@dataclass(frozen=True, slots=True)
class CsvProblem:
    """A row that could not be read as data."""

    line: int
    reason: str
    detail: str = ""


@dataclass
class _NulCounter:
    lines: set[int] = field(default_factory=set)


def _without_nul(handle: Iterator[str], counter: _NulCounter) -> Iterator[str]:
    for number, text in enumerate(handle, start=1):
        if "\0" in text:
            counter.lines.add(number)
            text = text.replace("\0", "")
        yield text


def read_csv(path: Path, required: Sequence[str]) -> Iterator[CsvRow | CsvProblem]:
    """Yield rows of a CSV file with a header; raise SourceError if it cannot be read."""
    try:
        handle = path.open(encoding="utf-8-sig", errors="replace", newline="")
    except OSError as error:
        raise SourceError(f"cannot read {path}: {error.strerror or error}") from error
    with handle:
        counter = _NulCounter()
        reader = csv.reader(_without_nul(handle, counter), strict=True)
        try:
            header = next(reader)
        except StopIteration:
            raise SourceError(f"{path} is empty: expected a CSV header") from None
        except (csv.Error, UnicodeError, OSError) as error:
            raise SourceError(f"cannot read the header of {path}: {error}") from error
        columns = [name.strip() for name in header]
        missing = [name for name in required if name not in columns]
        if missing:
            raise SourceError(
                f"{path} is not the expected format: missing column(s) {', '.join(missing)}"
            )
        last_line = reader.line_num
        while True:
            start = last_line + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                last_line = reader.line_num
                yield CsvProblem(start, "unparseable_csv", str(error))
                continue
            last_line = reader.line_num
            if not row or all(not value.strip() for value in row):
                continue
            if len(row) != len(columns):
                yield CsvProblem(
                    start,
                    "wrong_field_count",
                    f"expected {len(columns)} fields, found {len(row)}",
                )
                continue
            if any(len(value) > _MAX_FIELD_CHARS for value in row):
                yield CsvProblem(start, "field_too_long", f"> {_MAX_FIELD_CHARS} characters")
                continue
            problems: list[str] = []
            if any(n in counter.lines for n in range(start, last_line + 1)):
                problems.append("nul_bytes_removed")
            if any("\ufffd" in value for value in row):
                problems.append("replacement_characters")
            yield CsvRow(start, dict(zip(columns, row, strict=True)), tuple(problems))
