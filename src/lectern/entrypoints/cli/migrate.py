"""`lectern migrate`: move an embedded install's database to a server (PostgreSQL)."""

from __future__ import annotations

from typing import Annotated

import typer

from lectern.bootstrap import migrate_install
from lectern.entrypoints.cli.common import _guarded, _progress_bar, out
from lectern.settings import load_settings

migrate_app = typer.Typer()


@migrate_app.command()
def migrate(
    target: Annotated[
        str,
        typer.Argument(
            help="The empty target database, e.g. postgresql+psycopg://lectern@db:5432/lectern."
        ),
    ],
    batch_size: Annotated[
        int, typer.Option(min=1, max=100_000, help="Rows read and written per batch.")
    ] = 2_000,
    skip_indexes: Annotated[
        bool,
        typer.Option(
            "--skip-indexes", help="Copy the rows only; build the indexes later (`lectern index`)."
        ),
    ] = False,
) -> None:
    """Copy the catalog, collections, documents, actions and workspace to another database.

    The source is this install's LECTERN_CATALOG_URL (SQLite in the data directory by
    default). The target gets its schema from the migrations and must be empty; the copy is
    one transaction, so a failed or killed run leaves it empty and can simply be run again.
    Then the indexes are built for the target with this environment's engine settings.
    """

    def run() -> None:
        settings = load_settings()
        with _progress_bar() as progress:
            report = migrate_install(
                settings,
                target,
                batch_size=batch_size,
                progress=progress,
                skip_indexes=skip_indexes,
            )
        for table, count in report.tables.items():
            if count:
                out.print(f"{table:<24} {count:>9,}")
        out.print(f"copied {sum(report.tables.values()):,} rows")
        if not skip_indexes:
            collections = ", ".join(f"{n} ({c:,})" for n, c in report.collections_indexed.items())
            out.print(
                f"indexed {report.books_indexed:,} book passages"
                + (f"; collections: {collections}" if collections else "")
            )
        out.print(f"set LECTERN_CATALOG_URL={target} to serve from it")

    _guarded(run)
