from __future__ import annotations

from pathlib import Path

import pytest

from lectern.bootstrap import bootstrap
from lectern.settings import Settings
from tests.conftest import build_tiny_mirror


def build_indexed_data_dir(root: Path) -> Path:
    """The tiny catalog under `root`, ingested and indexed by the real adapters."""
    mirror = build_tiny_mirror(root / "mirror")
    services = bootstrap(Settings(data_dir=root / "var", data_mirror=mirror))
    services.ingestion().ingest()
    services.indexing().index()
    return root / "var"


@pytest.fixture(scope="session")
def indexed_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding the tiny catalog, ingested and indexed by the real adapters."""
    return build_indexed_data_dir(tmp_path_factory.mktemp("served"))
