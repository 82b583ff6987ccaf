"""Readiness probes of the servers Lectern depends on: a SQL database, Redis, Qdrant.

Each probe does the cheapest round trip that proves the server answers (``select 1``,
``PING``, ``GET /readyz``) with a short timeout, raises when it does not, and returns a short
detail worth showing (the database dialect, the server version).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import httpx
import redis
import sqlalchemy as sa
from sqlalchemy.engine import Engine

PROBE_TIMEOUT = 2.0
"""Seconds one probe may take: readiness must answer before a load balancer gives up."""


@dataclass(frozen=True, slots=True)
class DependencyProbe:
    """One server to check: its name, whether the service is down without it, the check."""

    name: str
    required: bool
    check: Callable[[], str | None]
    """Raises when the server does not answer; returns a detail (version, dialect) or None."""


def sql_probe(engine: Engine) -> Callable[[], str | None]:
    """``select 1`` on the catalog's engine (the pool's connect timeout applies)."""

    def check() -> str | None:
        with engine.connect() as connection:
            connection.execute(sa.text("select 1"))
        return engine.dialect.name

    return check


def redis_probe(url: str) -> Callable[[], str | None]:
    """``PING`` on a fresh connection, so a dead server is seen even with a warm pool."""

    def check() -> str | None:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=PROBE_TIMEOUT, socket_timeout=PROBE_TIMEOUT
        )
        try:
            client.ping()
            version = client.info("server").get("redis_version")
        finally:
            client.close()
        return f"redis {version}" if version else None

    return check


def http_ready_probe(url: str) -> Callable[[], str | None]:
    """``GET url`` answering 2xx (Qdrant's ``/readyz``)."""

    def check() -> str | None:
        response = httpx.get(url, timeout=PROBE_TIMEOUT)
        response.raise_for_status()
        return None

    return check
