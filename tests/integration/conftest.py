from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.conftest import IN_CI, catalog_url_for

POSTGRES_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def _postgres_or_skip() -> sa.Engine:
    engine = sa.create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(sa.text("select 1"))
    except sa.exc.OperationalError as error:
        engine.dispose()
        message = f"PostgreSQL is not reachable at 127.0.0.1:5432 ({error.orig})"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return engine


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty database on the local PostgreSQL server, dropped afterwards."""
    admin = _postgres_or_skip()
    name = f"lectern_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(sa.text(f'create database "{name}"'))
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(
                sa.text(
                    "select pg_terminate_backend(pid) from pg_stat_activity where datname = :n"
                ),
                {"n": name},
            )
            connection.execute(sa.text(f'drop database if exists "{name}"'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def catalog_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return catalog_url_for(tmp_path / "catalog.db")
    return str(request.getfixturevalue("postgres_url"))
