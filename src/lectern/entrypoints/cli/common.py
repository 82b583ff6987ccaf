"""What every `lectern` command shares: consoles, error handling, progress bars."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from lectern.bootstrap import Services, bootstrap
from lectern.domain.retrieval import Strategy
from lectern.errors import LecternError
from lectern.observability import configure_logging
from lectern.settings import load_settings

out = Console()
err = Console(stderr=True)


def follow_terminal_width() -> None:
    """Give both consoles the width `COLUMNS` asks for now.

    Rich reads `COLUMNS` once, when a console is built (at import); a command run in a
    process that imported the CLI earlier (a test runner, an embedding program) still gets
    the width its own environment names.
    """
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        out.width = err.width = int(columns)


T = TypeVar("T")

StrategyOption = Annotated[
    Strategy,
    typer.Option(help="Candidate pools: lexical_heavy 80/20, vector_heavy 20/80, balanced."),
]


def _fail(message: str, code: int = 1) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def _guarded(action: Callable[[], T]) -> T:
    """Run a command body; a Lectern error becomes a one-line message and exit 1."""
    follow_terminal_width()  # also for a command group run on its own (its tests do)
    try:
        return action()
    except LecternError as error:
        raise _fail(str(error)) from None


def _services(ports: dict[str, Any] | None = None, **overrides: Any) -> Services:
    """Settings from the environment with these overrides; `ports` go to bootstrap."""
    settings = load_settings(**{k: v for k, v in overrides.items() if v is not None})
    configure_logging(settings.log_level, settings.log_format)
    return bootstrap(settings, **(ports or {}))


class RichProgress:
    """Draws each stage of long work as a rich progress bar."""

    def __init__(self, progress: Progress) -> None:
        """Wrap a started rich Progress."""
        self._progress = progress
        self._task: TaskID | None = None

    def start(self, task: str, total: int | None) -> None:
        """Finish the previous bar and start one for this stage."""
        if self._task is not None:
            current = self._progress.tasks[-1]
            self._progress.update(
                self._task, total=current.completed or 1, completed=current.completed or 1
            )
        self._task = self._progress.add_task(task, total=total)

    def advance(self, amount: int = 1) -> None:
        """Move the current bar on."""
        if self._task is not None:
            self._progress.advance(self._task, amount)


@contextmanager
def _progress_bar() -> Iterator[RichProgress]:
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description:<32}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=False) as progress:
        reporter = RichProgress(progress)
        yield reporter
        reporter.start("done", 1)
        reporter.advance()
