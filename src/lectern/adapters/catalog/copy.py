"""Copy every catalog table from one database to another (`lectern migrate`).

The target's schema comes from the Alembic migrations (never from `metadata.create_all`), so
it is exactly what the catalog expects and later migrations apply to it. Rows are read in
primary-key order in batches and written in one transaction: a copy killed part-way leaves
the target as empty as it was, and running it again starts over cleanly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from lectern.adapters.catalog.database import create_catalog_engine, migrate
from lectern.adapters.catalog.tables import metadata
from lectern.application.ports import ProgressReporter
from lectern.errors import MigrationError


@dataclass(frozen=True, slots=True)
class CopyReport:
    """Rows copied per table, in the order they were written."""

    tables: Mapping[str, int]

    @property
    def rows(self) -> int:
        """Every row copied."""
        return sum(self.tables.values())


def _describe(url: sa.URL) -> str:
    """The URL without its password, for messages."""
    return url.render_as_string(hide_password=True)


def _same_database(source: sa.URL, target: sa.URL) -> bool:
    if source.get_backend_name() != target.get_backend_name():
        return False
    if source.get_backend_name() == "sqlite":

        def where(url: sa.URL) -> str:
            return str(Path(url.database or "").resolve()) if url.database else ":memory:"

        return where(source) == where(target)
    return (source.host or "localhost", source.port, source.database) == (
        target.host or "localhost",
        target.port,
        target.database,
    )


def open_databases(source_url: str, target_url: str) -> tuple[Engine, Engine]:
    """Both engines, after refusing a target that is the source or cannot be reached."""
    try:
        source, target = sa.make_url(source_url), sa.make_url(target_url)
    except sa.exc.ArgumentError as error:
        raise MigrationError(
            f"not a database URL: {error}; expected e.g. postgresql+psycopg://user@host/db"
        ) from error
    if _same_database(source, target):
        raise MigrationError(
            f"the target {_describe(target)} is the source catalog itself: give another database"
        )
    if (
        source.get_backend_name() == "sqlite"
        and source.database
        and not Path(source.database).is_file()
    ):
        raise MigrationError(f"no catalog to copy at {source.database}")
    engines: list[Engine] = []
    for role, url in (("source", source_url), ("target", target_url)):
        try:
            engine = create_catalog_engine(url)
            with engine.connect() as connection:
                connection.execute(sa.text("select 1"))
        except Exception as error:  # driver errors differ per database: all say "unreachable"
            for opened in engines:
                opened.dispose()
            reason = getattr(error, "orig", None) or error
            raise MigrationError(
                f"cannot reach the {role} database {_describe(sa.make_url(url))}: "
                f"{str(reason).strip().splitlines()[0] if str(reason).strip() else reason!r}"
            ) from error
        engines.append(engine)
    return engines[0], engines[1]


def _counts(connection: Connection) -> dict[str, int]:
    existing = set(sa.inspect(connection).get_table_names())
    return {
        table.name: int(
            connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
        )
        for table in metadata.sorted_tables
        if table.name in existing
    }


def table_counts(engine: Engine) -> dict[str, int]:
    """Rows per catalog table (tables not created yet are left out)."""
    with engine.connect() as connection:
        return _counts(connection)


def copy_catalog(
    source: Engine,
    target: Engine,
    *,
    batch_size: int = 2_000,
    progress: ProgressReporter | None = None,
) -> CopyReport:
    """Migrate both schemas to head, refuse a non-empty target, copy every table."""
    migrate(source)  # an older install is brought up to date first: same columns both sides
    migrate(target)
    filled = {name: count for name, count in table_counts(target).items() if count}
    if filled:
        listed = ", ".join(f"{name} ({count})" for name, count in sorted(filled.items()))
        raise MigrationError(
            f"the target database is not empty: {listed}; migrate copies into an empty "
            "database only (create a new one, or drop these rows first)"
        )
    copied: dict[str, int] = {}
    with source.connect() as reader, target.begin() as writer:
        totals = _counts(reader)
        for table in metadata.sorted_tables:  # parents before children (foreign keys)
            total = totals.get(table.name, 0)
            if progress is not None:
                progress.start(f"copy {table.name}", total)
            order = list(table.primary_key.columns) or list(table.columns)
            result = reader.execution_options(stream_results=True).execute(
                sa.select(table).order_by(*order)
            )
            count = 0
            for batch in result.mappings().partitions(batch_size):
                writer.execute(table.insert(), [dict(row) for row in batch])
                count += len(batch)
                if progress is not None:
                    progress.advance(len(batch))
            copied[table.name] = count
        if writer.dialect.name == "postgresql":
            _advance_sequences(writer)
    return CopyReport(copied)


def _advance_sequences(connection: Connection) -> None:
    """Serial columns continue after the copied ids (explicit ids do not move a sequence)."""
    for table in metadata.sorted_tables:
        for column in table.primary_key.columns:
            sequence = connection.execute(
                sa.text("select pg_get_serial_sequence(:t, :c)"),
                {"t": table.name, "c": column.name},
            ).scalar_one_or_none()
            if sequence:
                connection.execute(
                    sa.text(
                        f"select setval(:s, coalesce((select max({column.name}) "  # noqa: S608
                        f"from {table.name}), 0) + 1, false)"
                    ),
                    {"s": sequence},
                )
