"""`lectern migrate`: an embedded install (SQLite) copied to a real PostgreSQL, then indexed."""

from __future__ import annotations

import sqlite3
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from lectern.adapters.actions.sqlalchemy_actions import SqlAlchemyPendingActions
from lectern.adapters.catalog.copy import table_counts
from lectern.bootstrap import bootstrap, migrate_install
from lectern.domain.assistant import ActionPreview, PendingAction, args_digest
from lectern.entrypoints.cli.main import app
from lectern.entrypoints.http.probe import free_port
from lectern.errors import MigrationError
from lectern.settings import Settings
from tests.assistant_world import START
from tests.conftest import build_tiny_mirror
from tests.workspace_world import seeded

pytestmark = pytest.mark.slow


def _embedded_install(root: Path) -> Settings:
    """Books from the tiny mirror, a collection, a workspace and a pending action in SQLite."""
    url = f"sqlite:///{root / 'catalog.db'}"
    (root / "world").mkdir(parents=True)
    world = seeded(root / "world", url)  # the advisories collection, projects, tasks, comments
    settings = Settings(
        data_dir=root / "var", catalog_url=url, data_mirror=build_tiny_mirror(root / "mirror")
    )
    services = bootstrap(settings)
    services.ingestion().ingest()
    preview = ActionPreview(
        tool_name="rate_book",
        description="Rate 'Dune' 4 stars",
        entity_type="rating",
        entity_id="b1",
        tool_input={"book_id": "b1", "stars": 4, "review": None},
        old_state=None,
        new_state={"stars": 4, "review": None},
        diff=(),
    )
    SqlAlchemyPendingActions(world.store.engine).add(  # type: ignore[attr-defined]
        PendingAction(
            id=str(uuid.uuid4()),
            user="alice",
            conversation="c1",
            preview=preview,
            args_digest=args_digest("rate_book", preview.tool_input),
            status="pending",
            created_at=START,
            expires_at=START + timedelta(minutes=60),
        )
    )
    return settings


class CountingProgress:
    def __init__(self) -> None:
        self.stages: dict[str, int] = {}
        self._current = ""

    def start(self, task: str, total: int | None) -> None:  # noqa: ARG002
        self._current = task
        self.stages[task] = 0

    def advance(self, amount: int = 1) -> None:
        self.stages[self._current] += amount


@pytest.mark.postgres
def test_sqlite_install_moves_to_postgresql_with_every_row(
    tmp_path: Path, postgres_url: str
) -> None:
    settings = _embedded_install(tmp_path)
    source = sa.create_engine(settings.resolved_catalog_url)
    before = table_counts(source)
    source.dispose()
    for table in ("books", "collections", "documents", "passages", "pending_actions"):
        assert before[table] > 0, table
    assert before["organizations"] and before["tasks"] and before["comments"]

    progress = CountingProgress()
    report = migrate_install(settings, postgres_url, batch_size=7, progress=progress)

    target = sa.create_engine(postgres_url)
    after = table_counts(target)
    assert after == before == report.tables
    assert progress.stages["copy passages"] == before["passages"]  # in batches of 7
    # The rows are the same rows, not only as many.
    with target.connect() as connection:
        titles = sorted(connection.execute(sa.text("select title from books")).scalars())
        version = connection.execute(sa.text("select version_num from alembic_version")).scalar()
    target.dispose()
    with sqlite3.connect(tmp_path / "catalog.db") as connection:
        assert titles == sorted(r[0] for r in connection.execute("select title from books"))
        assert (
            version == connection.execute("select version_num from alembic_version").fetchone()[0]
        )

    # Indexed for the target: the served install searches books and the collection.
    assert report.books_indexed == before["books"]
    assert report.collections_indexed == {"advisories": before["passages"]}
    served = bootstrap(settings.model_copy(update={"catalog_url": postgres_url}))
    hits = served.collections().search("advisories", "Check Point gateway hotfix", k=3)
    assert hits.results and "cve-2024-24919" in hits.results[0].document.uri
    actions = served.pending_actions().list("alice", status="pending")
    assert len(actions) == 1 and actions[0].preview.tool_name == "rate_book"
    served.catalog.close()  # type: ignore[attr-defined]

    # A second run refuses the now non-empty target, naming what is in it.
    with pytest.raises(MigrationError, match=r"not empty: .*books \(\d+\)"):
        migrate_install(settings, postgres_url, skip_indexes=True)


def test_bad_targets_are_refused_with_a_clear_message(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "var", catalog_url=f"sqlite:///{tmp_path / 'c.db'}")
    bootstrap(settings).catalog.counts()  # an (empty) install exists
    with pytest.raises(MigrationError, match="not a database URL"):
        migrate_install(settings, "not a url at all")
    with pytest.raises(MigrationError, match="is the source catalog itself"):
        migrate_install(settings, f"sqlite:///{tmp_path}/../{tmp_path.name}/c.db")
    closed = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/lectern"
    with pytest.raises(MigrationError, match="cannot reach the target database"):
        migrate_install(settings, closed)
    with pytest.raises(MigrationError, match="cannot reach the target database"):
        migrate_install(settings, "mysql+nosuchdriver://u@h/db")
    missing = Settings(data_dir=tmp_path / "x", catalog_url=f"sqlite:///{tmp_path / 'none.db'}")
    with pytest.raises(MigrationError, match="no catalog to copy"):
        migrate_install(missing, f"sqlite:///{tmp_path / 'elsewhere.db'}")


def test_the_command_reports_errors_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = f"sqlite:///{tmp_path / 'var' / 'catalog.db'}"
    monkeypatch.setenv("LECTERN_CATALOG_URL", source)
    result = CliRunner().invoke(app, ["migrate", source])
    assert result.exit_code == 1
    assert "error:" in result.output and "source catalog itself" in result.output
    assert "Traceback" not in result.output
