"""`lectern evaluate shelves`: the stored split, one split at a time, from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.test_cli import _one_line_error, lectern


def test_a_dev_run_ranks_the_stored_dev_shelves_only(
    indexed_data_dir: Path, shared_books: Path
) -> None:
    tags = shared_books / "goodbooks-10k-tags"
    run = lectern(
        "evaluate",
        "shelves",
        "--split",
        "dev",
        "--tags",
        str(tags),
        "--json",
        env={"LECTERN_DATA_DIR": str(indexed_data_dir)},
    )
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)
    assert {r["method"] for r in rows} == {"bm25", "dense", "default"}
    assert {r["split"] for r in rows} == {"dev"}
    assert all(r["queries"] == 60 for r in rows)


def test_a_bad_split_or_a_missing_folder_is_one_line(
    indexed_data_dir: Path, tmp_path: Path
) -> None:
    env = {"LECTERN_DATA_DIR": str(indexed_data_dir)}
    _one_line_error(lectern("evaluate", "shelves", "--split", "train", env=env), "--split")
    _one_line_error(
        lectern("evaluate", "shelves", "--tags", str(tmp_path), env=env), "goodbooks-10k-tags"
    )
