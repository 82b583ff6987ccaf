"""What operations need: readiness probes, the code's commit, run ids."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import uuid6

from lectern.bootstrap.catalog import CatalogWiring
from lectern.settings import Settings

if TYPE_CHECKING:
    from lectern.adapters.probes import DependencyProbe


def qdrant_readiness_url(settings: Settings) -> str | None:
    """Qdrant's ``/readyz`` when LECTERN_ENGINE=qdrant points at an http(s) server, else None.

    Local mode and Qdrant Edge run in process: there is no server to probe.
    """
    if settings.engine != "qdrant":
        return None
    url = settings.resolved_qdrant_url
    if not url.startswith(("http://", "https://")):
        return None
    return f"{url.rstrip('/')}/readyz"


def new_run_id() -> str:
    """A UUIDv7: ids sort by creation time, so run listings sort without reading files."""
    return str(uuid6.uuid7())


def git_commit() -> str:
    """The commit the code runs from (with "+dirty" when changed), or "unknown"."""
    root = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5
        )
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


class OperationsWiring(CatalogWiring):
    """The servers this configuration depends on, for readiness."""

    def dependency_probes(self) -> list[DependencyProbe]:
        """The servers this configuration needs, each with a cheap check, for readiness.

        The database always (unless a test replaced the catalog); Redis when sessions and
        reviews (LECTERN_REDIS_URL) or rate limits (LECTERN_RATE_LIMIT_STORAGE) use it; Qdrant
        when LECTERN_ENGINE=qdrant. Every one is required: without it requests fail.
        """
        from sqlalchemy.engine import Engine

        from lectern.adapters.probes import (
            DependencyProbe,
            http_ready_probe,
            redis_probe,
            sql_probe,
        )

        settings = self.settings
        probes: list[DependencyProbe] = []
        engine = getattr(self.catalog, "engine", None)
        if isinstance(engine, Engine):
            probes.append(DependencyProbe("database", True, sql_probe(engine)))
        if settings.redis_url is not None:
            probes.append(DependencyProbe("redis", True, redis_probe(settings.redis_url)))
        storage = settings.rate_limit_storage
        if storage.startswith("redis") and storage != settings.redis_url:
            probes.append(DependencyProbe("rate_limit_storage", True, redis_probe(storage)))
        qdrant = qdrant_readiness_url(settings)
        if qdrant is not None:
            probes.append(DependencyProbe("qdrant", True, http_ready_probe(qdrant)))
        return probes
