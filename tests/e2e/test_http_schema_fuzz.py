"""Schemathesis against the app's own OpenAPI schema: no 5xx, responses match their schemas.

The schema is read at import (pytest collects one test per operation from it), from an app
over an empty placeholder directory; before any case runs, the module fixture gives that
app the real services over the tiny indexed catalog.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings

pytestmark = pytest.mark.slow
UNLIMITED = "1000000/minute"

app = create_app(
    bootstrap(
        Settings(data_dir=Path(tempfile.mkdtemp(prefix="lectern-fuzz-")), rate_limit=UNLIMITED)
    ),
    load_indexes=False,
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.fixture(scope="module", autouse=True)
def _real_services(
    indexed_data_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    # A copy: POST /evaluate writes run artifacts, and other modules share the original.
    data_dir = tmp_path_factory.mktemp("fuzz") / "var"
    shutil.copytree(indexed_data_dir, data_dir)
    services = bootstrap(Settings(data_dir=data_dir, rate_limit=UNLIMITED))
    with TestClient(app):
        app.state.services = services
        app.state.search = services.search()
        app.state.not_ready = None
        yield
    services.evaluation().close()  # a run the fuzzer started finishes before the copy goes


@schema.parametrize()
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_every_operation_honours_its_schema(case: schemathesis.Case) -> None:
    # Schema-valid is not always acceptable: min_year after max_year, an unknown category
    # or an empty-after-cleaning query are refused by the domain with a 422 problem.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
