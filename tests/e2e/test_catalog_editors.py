"""Catalog corrections need a catalog editor (issue 25, finding 5).

Bob (no role) proposed a wrong author for a book, approved his own action, and every user
saw it. Now his approved action records the correction as pending; he cannot approve it
himself; Erin (LECTERN_CATALOG_EDITORS) applies or rejects it, and her own corrections
apply when she approves them.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.application.access import CatalogEditors
from lectern.application.assistant.tools import ActionTool, ToolContext
from lectern.application.identity import LOCAL_USER
from lectern.bootstrap import Services, bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.assistant_world import book_id, make_catalog
from tests.fakes import FakeCatalog

DUNE = uuid.UUID(book_id("Dune"))
BOB = {"X-API-Key": "bob-key"}
ERIN = {"X-API-Key": "erin-key"}


def _authors(catalog: FakeCatalog) -> tuple[str, ...]:
    return catalog.entries[DUNE].entry.book.authors


def _propose(services: Services, user: str, authors: list[str]) -> str:
    """A correction action of `user`, as the assistant's preview makes it."""
    tool = services.tool_registry().get("propose_correction")
    assert isinstance(tool, ActionTool)
    context = ToolContext(user, "c1", services.clock())
    preview = tool.preview(tool.parse({"book": str(DUNE), "authors": authors}), context)
    return services.assistant().approvals.propose(preview, user, "c1").id


@pytest.fixture
def served(tmp_path: Path) -> tuple[TestClient, Services, FakeCatalog]:
    catalog = make_catalog()
    settings = Settings(
        data_dir=tmp_path / "var",
        api_keys="bob:bob-key,erin:erin-key",
        catalog_editors="erin",
        review_corrections=False,
    )
    services = bootstrap(settings, catalog=catalog)
    return TestClient(create_app(services, load_indexes=False)), services, catalog


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def test_a_non_editors_correction_waits_for_an_editor(
    served: tuple[TestClient, Services, FakeCatalog],
) -> None:
    client, services, catalog = served
    before = _authors(catalog)
    action = _propose(services, "bob", ["A. Wrong"])
    _ok(client.post(f"/assistant/actions/{action}/approve", headers=BOB))
    assert _authors(catalog) == before, "a non-editor's approval changed the catalog"
    assert client.get("/catalog/corrections", headers=BOB).status_code == 403
    (pending,) = _ok(client.get("/catalog/corrections", headers=ERIN))
    assert pending["proposed_by"] == "bob" and pending["status"] == "pending"
    assert pending["changes"] == [{"field": "authors", "old": list(before), "new": ["A. Wrong"]}]
    own = client.post(f"/catalog/corrections/{pending['id']}/approve", headers=BOB)
    assert own.status_code == 403, own.text
    assert _authors(catalog) == before
    applied = _ok(client.post(f"/catalog/corrections/{pending['id']}/approve", headers=ERIN))
    assert applied["status"] == "applied" and _authors(catalog) == ("A. Wrong",)
    again = client.post(f"/catalog/corrections/{pending['id']}/approve", headers=ERIN)
    assert again.status_code == 409
    assert _ok(client.get("/catalog/corrections", headers=ERIN)) == []
    assert client.post("/catalog/corrections/nope/reject", headers=ERIN).status_code == 404


def test_an_editor_rejects_and_a_stale_correction_is_refused(
    served: tuple[TestClient, Services, FakeCatalog],
) -> None:
    client, services, catalog = served
    before = _authors(catalog)
    for authors in (["A. Wrong"], ["B. Wrong"]):
        _ok(
            client.post(
                f"/assistant/actions/{_propose(services, 'bob', authors)}/approve", headers=BOB
            )
        )
    first, second = _ok(client.get("/catalog/corrections", headers=ERIN))
    rejected = _ok(client.post(f"/catalog/corrections/{first['id']}/reject", headers=ERIN))
    assert rejected["status"] == "rejected" and _authors(catalog) == before
    # Erin's own correction applies when she approves it; Bob's, proposed against the old
    # authors, is then stale and refused rather than written over hers.
    _ok(
        client.post(
            f"/assistant/actions/{_propose(services, 'erin', ['F. Herbert'])}/approve",
            headers=ERIN,
        )
    )
    assert _authors(catalog) == ("F. Herbert",)
    stale = client.post(f"/catalog/corrections/{second['id']}/approve", headers=ERIN)
    assert stale.status_code == 409 and _authors(catalog) == ("F. Herbert",)


def test_the_local_user_of_a_keyless_install_is_the_editor() -> None:
    keyless = CatalogEditors(frozenset(), keys_required=False)
    assert keyless.is_editor(LOCAL_USER) and not keyless.is_editor("bob")
    keyed = CatalogEditors(frozenset({"erin"}), keys_required=True)
    assert keyed.is_editor("erin") and not keyed.is_editor(LOCAL_USER)
