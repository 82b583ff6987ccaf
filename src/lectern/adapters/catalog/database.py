"""The catalog database: its engine (SQLite WAL pragmas), its migrations, and IN-clause chunks.

Every SQLAlchemy store in this package works on the engine `create_catalog_engine` makes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

from lectern.errors import ConfigurationError

_MIGRATIONS = Path(__file__).parent / "migrations"
IN_CHUNK = 500
"""Ids per IN (...) clause: well under SQLite's bound-parameter limit."""


def in_chunks(items: Sequence[str], size: int = IN_CHUNK) -> Iterator[Sequence[str]]:
    """The items in slices of at most `size`, in order."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def create_catalog_engine(url: str) -> Engine:
    """An engine for the catalog URL; SQLite files get WAL mode and foreign keys."""
    try:
        engine = sa.create_engine(url)
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError) as error:
        raise ConfigurationError(f"LECTERN_CATALOG_URL is not usable ({url!r}): {error}") from error
    if engine.dialect.name == "sqlite":
        database = engine.url.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision."""
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
