"""Financial tables in a page's text: the statement's title, its year columns, labelled rows.

PDFium writes a statement's row as one line, its label then its figures ("Purchases of
property, plant and equipment (PP&E) (1,577) (1,373) (1,420)"); the year columns stand in a
header line above the first row. A page is a table page when at least `MIN_ROWS` of its
lines are such rows (two figures or more) and they make at least `MIN_SHARE` of its lines.
Its layout (the statement's title, found among the page's first lines, and the header's
years) becomes the page's section, `"<title> > columns: 2018 | 2017 | 2016"`; a table page
without a header of its own continues the table of the page before it (a statement
running over two pages), so its rows keep their title and columns.

The search index (never the citation: citations quote the page) reads each row as labelled
cells, `"Purchases of property, plant and equipment (PP&E) | 2018: (1,577) | 2017: ..."`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MIN_ROWS = 6
MIN_SHARE = 0.3
COLUMNS = "columns: "
"""How the last part of a table passage's section starts."""
TABLE_LINES = 10
HEADER_LINES = 6
"""Lines above a table's first row searched for a header line of year columns."""
STACKED_LINES = 10
"""Lines above the first row searched for years written one to a line (two lines a column)."""
"""Lines of a table page per passage: a few rows, each with the title and columns."""

_CELL = re.compile(r"^(?:\(?-?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?\)?%?|[—–-]|\$)$")
_YEAR = re.compile(r"(?<![\d,.$])((?:19|20)\d{2})(?![\d,])")
_STATEMENT = re.compile(
    r"^(?:(?:consolidated|combined|condensed|interim|unaudited)\s+)*"
    r"(?:statements?\s+of\s+[a-z ,’'()-]+|balance\s+shee\s?ts?|statements?\s+of\s+financial\s+"
    r"position)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class TableLayout:
    """A table page's statement title (when the page states one) and its year columns."""

    title: str | None
    columns: tuple[str, ...]

    def section(self) -> tuple[str, ...]:
        """The section path this layout gives the page's passages."""
        columns = f"{COLUMNS}{' | '.join(self.columns)}"
        return (self.title, columns) if self.title else (columns,)


def split_row(line: str) -> tuple[str, list[str]] | None:
    """(label, figures) for a line that ends in figures after a label; None otherwise."""
    tokens = line.split()
    cells: list[str] = []
    while tokens and _CELL.match(tokens[-1]):
        token = tokens.pop()
        if token != "$":
            cells.append(token)
    label = " ".join(tokens)
    if not cells or not re.search(r"[A-Za-z]{2}", label):
        return None
    cells.reverse()
    return label, cells


def _header_years(line: str) -> list[str]:
    years = _YEAR.findall(line)
    rest = _YEAR.sub("", line)
    # A header holds years and few other words ("(Millions) 2018 2017 2016").
    if len(years) >= 2 and len(re.findall(r"[A-Za-z]+", rest)) <= 12:
        return years
    return []


def _stacked_years(header: list[str], cells: int) -> list[str]:
    """Years written one to a line above the first row ("November 27,", "2015", ...).

    Some statements print each column's date as two lines, so no line holds two years;
    the years of the header's short lines are the columns when there are as many of them
    as the first row has figures, and they differ.
    """
    years: list[str] = []
    for line in header:
        found = _YEAR.findall(line)
        rest = _YEAR.sub("", line)
        # "2015", "November 27, 2015", "Fiscal 2015": one year, a date's words at most.
        if (
            len(found) == 1
            and len(re.findall(r"[A-Za-z]+", rest)) <= 3
            and not re.search(r"\d{3}", rest)
        ):
            years.append(found[0])
    if len(years) >= 2 and len(years) == cells and len(set(years)) == len(years):
        return years
    return []


def table_layout(text: str, previous: TableLayout | None = None) -> TableLayout | None:
    """The layout of a table page, or None when the page is not one.

    `previous` is the layout of the page before when that page was a table: a page with
    rows but no header of its own continues it.
    """
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    rows = [i for i, line in enumerate(lines) if (row := split_row(line)) and len(row[1]) >= 2]
    if len(rows) < MIN_ROWS or len(rows) < MIN_SHARE * len(lines):
        return None
    first = rows[0]
    header = lines[max(0, first - HEADER_LINES) : first + 1]
    columns: list[str] = []
    for line in header:
        years = _header_years(line)
        if years:
            columns = years
    if not columns:
        stacked = lines[max(0, first - STACKED_LINES) : first]
        columns = _stacked_years(stacked, len(split_row(lines[first])[1]))  # type: ignore[index]
    title = next(
        (" ".join(line.split()) for line in lines[:10] if _STATEMENT.match(line)),
        None,
    )
    if not columns:
        if previous is None:
            return None
        return TableLayout(title or previous.title, previous.columns)
    if title is None and previous is not None and previous.columns == tuple(columns):
        title = previous.title
    return TableLayout(title, tuple(columns))


def columns_of(section: str | None) -> tuple[str, ...] | None:
    """The year columns a table passage's section carries, or None for other passages."""
    if not section:
        return None
    last = section.rsplit(" > ", 1)[-1]
    if not last.startswith(COLUMNS):
        return None
    return tuple(c.strip() for c in last[len(COLUMNS) :].split("|") if c.strip())


def labelled_rows(text: str, columns: tuple[str, ...]) -> str:
    """The passage's rows as "label | column: figure | ...": the index's reading of a table."""
    out: list[str] = []
    for line in text.splitlines():
        row = split_row(line.strip())
        if row is None or len(row[1]) != len(columns):
            if line.strip():
                out.append(line.strip())
            continue
        label, cells = row
        out.append(" | ".join([label, *(f"{c}: {v}" for c, v in zip(columns, cells, strict=True))]))
    return "\n".join(out)
