from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from lectern.bootstrap import bootstrap
from lectern.settings import Settings
from tests.conftest import build_tiny_mirror, built_once


def build_indexed_data_dir(root: Path) -> Path:
    """The tiny catalog under `root`, ingested and indexed by the real adapters."""
    mirror = build_tiny_mirror(root / "mirror")
    services = bootstrap(Settings(data_dir=root / "var", data_mirror=mirror))
    services.ingestion().ingest()
    services.indexing().index()
    if os.environ.get("LECTERN_ENGINE") == "qdrant":
        from lectern.adapters.engines.qdrant_store import disconnect

        disconnect(under=str(root))  # local mode holds its folder until let go; others copy it
    return root / "var"


@pytest.fixture(scope="session")
def indexed_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding the tiny catalog, ingested and indexed by the real adapters.

    Built once per run (whichever xdist worker asks first; the others wait), then copied:
    each worker serves and writes into its own copy, as one process did before.
    """
    built = built_once(tmp_path_factory, "indexed-tiny", build_indexed_data_dir)
    copy = tmp_path_factory.mktemp("served") / "var"
    shutil.copytree(built / "var", copy)
    return copy


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give each Schemathesis test its own node id.

    Schemathesis names each operation's test (`test_every_operation_honours_its_schema[GET
    /health]`) but leaves them all the function's node id. xdist's `--dist loadfile` keys
    its work by node id, so the 66 operations would run as one test, silently.
    """
    for item in items:
        label = getattr(item, "operation_label", None)
        if label is not None and "[" not in item.nodeid:
            # pytest 9 keeps the id structured (`_pytest.nodeid.NodeId`); params print as [..].
            item._id = dataclasses.replace(item._id, params=label)
