"""The book sets run on a consistent copy of the catalog, the write-ahead log included."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from lectern.entrypoints.cli.evaluate_understanding import _snapshot


def _rows(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        try:
            return int(db.execute("select count(*) from t").fetchone()[0])
        except sqlite3.OperationalError:
            return -1  # the table itself is still only in the log


def test_a_snapshot_holds_what_the_log_holds_and_a_file_copy_does_not(tmp_path: Path) -> None:
    live = tmp_path / "catalog.db"
    writer = sqlite3.connect(live)
    writer.execute("pragma journal_mode=wal")
    writer.execute("pragma wal_autocheckpoint=0")  # keep every write in the log
    writer.execute("create table t (x integer)")
    writer.executemany("insert into t values (?)", [(i,) for i in range(50)])
    writer.commit()
    try:
        copied = tmp_path / "copied.db"
        shutil.copy(live, copied)
        snapshot = tmp_path / "snapshot.db"
        _snapshot(live, snapshot)
        assert _rows(snapshot) == 50
        assert _rows(copied) != 50  # what the evaluation read before
    finally:
        writer.close()
