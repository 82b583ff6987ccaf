"""Schemathesis against the app's own OpenAPI schema: no 5xx, responses match their schemas.

The schema is read at import (pytest collects one test per operation from it), from an app
over a data directory that is still empty: building an app reads no data. The module's
fixture fills that directory before the app starts: its own copy of the session's tiny
indexed catalog (POST /evaluate writes run artifacts into it) and a small guidance
collection. So collecting the module (every xdist worker does) costs no ingest.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.config import SchemathesisConfig

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.collection_wiring import SHARED

pytestmark = pytest.mark.slow
UNLIMITED = "1000000/minute"

ROOT = Path(tempfile.mkdtemp(prefix="lectern-fuzz-"))
services = bootstrap(
    Settings(
        data_dir=ROOT / "var",
        rate_limit=UNLIMITED,
        rate_limit_chat=UNLIMITED,
        rate_limit_chat_guide=UNLIMITED,
    )
)
app = create_app(services)
# Schema-violating bodies may also be refused for their size (LECTERN_MAX_BODY_BYTES): 413.
REJECTED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
config = SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": [*REJECTED, "5xx"]}}}
)
# What `from_asgi("/openapi.json", app)` loads, without starting the app to serve it.
schema = schemathesis.openapi.from_dict(json.loads(json.dumps(app.openapi())), config=config)
schema.app = app
schema.location = "/openapi.json"


@pytest.fixture(scope="module", autouse=True)
def _served(indexed_data_dir: Path) -> Iterator[None]:
    shutil.copytree(indexed_data_dir, ROOT / "var")
    # The guideline chat answers from a real (small) guidance collection, not only 404s.
    nist = ROOT / "nist" / "sp800-63b"
    nist.mkdir(parents=True)
    shutil.copy(SHARED / "guidance/nist-sp800-63-3/sp800-63b/sec5_authenticators.md", nist)
    services.collections().add("nist", nist.parent)
    with TestClient(app):
        yield
    services.evaluation().close()  # a run the fuzzer started finishes before the copy goes
    shutil.rmtree(ROOT, ignore_errors=True)


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
