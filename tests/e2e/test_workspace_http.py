"""The workspace over HTTP on the real app: people edit, isolation answers 404, viewers 403."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.bootstrap import Services, bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.collection_wiring import collection_service
from tests.workspace_world import ADVISORIES

KEYS = "alice:alice-key,bob:bob-key,vera:vera-key,mallory:mallory-key"
ALICE = {"X-API-Key": "alice-key"}
BOB = {"X-API-Key": "bob-key"}
VERA = {"X-API-Key": "vera-key"}
MALLORY = {"X-API-Key": "mallory-key"}


@dataclass
class Served:
    client: TestClient
    services: Services
    ids: dict[str, str]


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json() if response.content else None


@pytest.fixture
def served(tmp_path: Path) -> Served:
    data_dir = tmp_path / "var"
    collections = collection_service(data_dir)
    folder = tmp_path / "advisories"
    folder.mkdir()
    for name, text in ADVISORIES.items():
        (folder / name).write_text(text, encoding="utf-8")
    collections.add("advisories", folder)
    services = bootstrap(
        Settings(data_dir=data_dir, api_keys=KEYS, review_retry_seconds=0),
        collections=collections,
    )
    client = TestClient(create_app(services, load_indexes=False))
    org = _ok(client.post("/organizations", json={"name": "Acme"}, headers=ALICE), 201)
    for user, role in (("bob", "member"), ("vera", "viewer")):
        _ok(
            client.post(
                f"/organizations/{org['id']}/members",
                json={"user": user, "role": role},
                headers=ALICE,
            ),
            201,
        )
    rival = _ok(client.post("/organizations", json={"name": "Umbrella"}, headers=MALLORY), 201)
    _ok(
        client.post(
            f"/organizations/{rival['id']}/projects", json={"name": "Own"}, headers=MALLORY
        ),
        201,
    )
    project = _ok(
        client.post(
            f"/organizations/{org['id']}/projects",
            json={"name": "VPN gateway hardening"},
            headers=BOB,
        ),
        201,
    )
    task = _ok(
        client.post(
            f"/projects/{project['id']}/tasks",
            json={"title": "Patch the gateways", "assignee": "bob", "due_date": "2020-01-01"},
            headers=BOB,
        ),
        201,
    )
    blocker = _ok(
        client.post(
            f"/projects/{project['id']}/blockers",
            json={"description": "Waiting for the vendor", "task_id": task["id"]},
            headers=BOB,
        ),
        201,
    )
    comment = _ok(
        client.post(f"/tasks/{task['id']}/comments", json={"text": "Staged."}, headers=BOB), 201
    )
    advisory = next(d for d in collections.show("advisories")[1] if d.uri == "cve-2024-24919.md")
    document = _ok(
        client.post(
            f"/projects/{project['id']}/documents",
            json={"collection": "advisories", "document_id": advisory.id},
            headers=ALICE,
        ),
        201,
    )
    return Served(
        client,
        services,
        {
            "org": org["id"],
            "project": project["id"],
            "task": task["id"],
            "blocker": blocker["id"],
            "comment": comment["id"],
            "document": document["id"],
            "advisory": advisory.id,
            "other_advisory": next(
                d.id for d in collections.show("advisories")[1] if d.uri == "t1133.md"
            ),
        },
    )


def test_people_edit_the_workspace_directly(served: Served) -> None:
    client, ids = served.client, served.ids
    project = _ok(client.get(f"/projects/{ids['project']}", headers=BOB))
    assert project["role"] == "member"
    assert [t["title"] for t in project["tasks"]] == ["Patch the gateways"]
    assert [b["description"] for b in project["blockers"]] == ["Waiting for the vendor"]
    assert [d["title"] for d in project["documents"]][0].startswith("CVE-2024-24919")
    moved = _ok(client.patch(f"/tasks/{ids['task']}", json={"status": "in_progress"}, headers=BOB))
    assert moved["status"] == "in_progress" and moved["assignee"] == "bob"
    unassigned = _ok(client.patch(f"/tasks/{ids['task']}", json={"assignee": None}, headers=BOB))
    assert unassigned["assignee"] is None and unassigned["status"] == "in_progress"
    detail = _ok(client.get(f"/tasks/{ids['task']}", headers=VERA))
    assert detail["project_name"] == "VPN gateway hardening" and detail["role"] == "viewer"
    assert [c["text"] for c in detail["comments"]] == ["Staged."]
    resolved = _ok(
        client.post(
            f"/blockers/{ids['blocker']}/resolve", json={"resolution": "Booked"}, headers=BOB
        )
    )
    assert resolved["status"] == "resolved"
    assert (
        client.post(
            f"/blockers/{ids['blocker']}/resolve", json={"resolution": "again"}, headers=BOB
        ).status_code
        == 409
    )
    attention = _ok(client.get("/attention", headers=ALICE))
    assert attention["overdue"][0]["title"] == "Patch the gateways"
    hits = _ok(client.get("/workspace/search", params={"q": "hotfix gateway"}, headers=ALICE))
    assert any(h["kind"] == "document" and h["label"] for h in hits)
    text = _ok(client.get(f"/project-documents/{ids['document']}", headers=VERA))["text"]
    assert "hotfix" in text


FOREIGN: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/organizations/{org}", None),
    ("GET", "/organizations/{org}/members", None),
    ("POST", "/organizations/{org}/members", {"user": "eve"}),
    ("PATCH", "/organizations/{org}/members/bob", {"role": "owner"}),
    ("DELETE", "/organizations/{org}/members/bob", None),
    ("PUT", "/organizations/{org}/reviews", {"document_created": True}),
    ("GET", "/organizations/{org}/projects", None),
    ("POST", "/organizations/{org}/projects", {"name": "Takeover"}),
    ("GET", "/projects/{project}", None),
    ("PATCH", "/projects/{project}", {"status": "archived"}),
    ("GET", "/projects/{project}/tasks", None),
    ("POST", "/projects/{project}/tasks", {"title": "Sneak"}),
    ("GET", "/projects/{project}/blockers", None),
    ("POST", "/projects/{project}/blockers", {"description": "Sabotage"}),
    ("GET", "/projects/{project}/documents", None),
    (
        "POST",
        "/projects/{project}/documents",
        {"collection": "advisories", "document_id": "{other_advisory}"},
    ),
    ("GET", "/tasks/{task}", None),
    ("PATCH", "/tasks/{task}", {"status": "done"}),
    ("GET", "/tasks/{task}/comments", None),
    ("POST", "/tasks/{task}/comments", {"text": "hacked"}),
    ("GET", "/blockers/{blocker}", None),
    ("POST", "/blockers/{blocker}/resolve", {"resolution": "gone"}),
    ("GET", "/project-documents/{document}", None),
    ("DELETE", "/project-documents/{document}", None),
    ("GET", "/project-documents/{document}/comments", None),
    ("POST", "/project-documents/{document}/comments", {"text": "hacked"}),
    ("GET", "/workspace/search?q=gateway&project_id={project}", None),
]


def _fill(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


@pytest.mark.parametrize(("method", "path", "body"), FOREIGN)
def test_another_organization_gets_404_for_everything(
    served: Served, method: str, path: str, body: dict[str, Any] | None
) -> None:
    client, ids = served.client, served.ids
    before = client.get(f"/projects/{ids['project']}", headers=ALICE).json()
    response = client.request(method, _fill(path, ids), json=_fill(body, ids), headers=MALLORY)
    assert response.status_code == 404, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert client.get(f"/projects/{ids['project']}", headers=ALICE).json() == before


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [row for row in FOREIGN if row[0] != "GET"],
)
def test_viewers_get_403_for_every_change(
    served: Served, method: str, path: str, body: dict[str, Any] | None
) -> None:
    client, ids = served.client, served.ids
    before = client.get(f"/projects/{ids['project']}", headers=ALICE).json()
    response = client.request(method, _fill(path, ids), json=_fill(body, ids), headers=VERA)
    assert response.status_code == 403, response.text
    assert client.get(f"/projects/{ids['project']}", headers=ALICE).json() == before


def test_lists_hold_only_the_callers_organization(served: Served) -> None:
    client = served.client
    assert [o["name"] for o in _ok(client.get("/organizations", headers=MALLORY))] == ["Umbrella"]
    assert [p["name"] for p in _ok(client.get("/projects", headers=MALLORY))] == ["Own"]
    assert _ok(client.get("/attention", headers=MALLORY))["overdue"] == []
    assert client.get("/projects").status_code == 401


def test_an_upload_with_reviews_on_gets_a_cited_review_and_off_gets_none(served: Served) -> None:
    client, ids = served.client, served.ids
    page = (
        b"# Briefing\n\nCheck Point Quantum Security Gateways contain an information "
        b"disclosure vulnerability.\n"
    )
    quiet = _ok(
        client.post(
            f"/projects/{ids['project']}/uploads",
            params={"filename": "quiet.md", "wait": "true"},
            content=page,
            headers=BOB,
        ),
        201,
    )
    settings = {"document_created": True, "document_updated": False, "task_in_review": False}
    _ok(client.put(f"/organizations/{ids['org']}/reviews", json=settings, headers=ALICE))
    loud = _ok(
        client.post(
            f"/projects/{ids['project']}/uploads",
            params={"filename": "loud.md", "wait": "true"},
            content=page,
            headers=BOB,
        ),
        201,
    )
    served.services.review_queue().drain()  # type: ignore[attr-defined]
    assert _ok(client.get(f"/project-documents/{quiet['id']}/comments", headers=BOB)) == []
    (review,) = _ok(client.get(f"/project-documents/{loud['id']}/comments", headers=BOB))
    assert review["author"] == "lectern-review"
    assert review["citations"]
    for citation in review["citations"]:
        assert f'"{citation["snippet"]}" {citation["label"]}' in review["text"]


def test_the_workspace_page_is_served_without_a_key(served: Served) -> None:
    response = served.client.get("/workspace")
    assert response.status_code == 200
    assert 'type="module"' in response.text and "workspace.js" in response.text
    script = served.client.get("/static/workspace.js")
    assert script.status_code == 200
    assert "innerHTML" not in script.text


def test_a_project_upload_is_a_job_its_uploader_follows(served: Served) -> None:
    client, ids = served.client, served.ids
    page = b"# Rollout note\n\nThe harbour gateway gets its hotfix on the night shift.\n"
    accepted = client.post(
        f"/projects/{ids['project']}/uploads",
        params={"filename": "rollout.md"},
        content=page,
        headers=BOB,
    )
    assert accepted.status_code == 202, accepted.text
    url = accepted.headers["location"]
    assert accepted.json()["job"]["kind"] == "project" and url.startswith("/jobs/")
    assert client.get(url, headers=MALLORY).status_code == 404  # another organization
    assert client.get(url, headers=ALICE).status_code == 404  # the same one: still not hers
    deadline = time.monotonic() + 60
    while (job := _ok(client.get(url, headers=BOB)))["status"] in ("queued", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert job["status"] == "succeeded", job
    assert job["result"]["title"] == "Rollout note" and job["result"]["origin"] == "upload"
    documents = _ok(client.get(f"/projects/{ids['project']}/documents", headers=BOB))
    assert job["result"]["id"] in [d["id"] for d in documents]
    hits = _ok(client.get("/workspace/search", params={"q": "harbour night shift"}, headers=BOB))
    assert any("Rollout note" in str(hit) for hit in hits)
    viewer = client.post(
        f"/projects/{ids['project']}/uploads",
        params={"filename": "nope.md"},
        content=page,
        headers=VERA,
    )
    assert viewer.status_code == 403  # refused before anything is stored or queued


def test_text_limits_hold_for_the_text_as_sent(served: Served) -> None:
    client = served.client
    too_long = "\xa0" + "x" * 120  # 121 characters; 120 once stripped
    refused = client.post("/organizations", json={"name": too_long}, headers=ALICE)
    assert refused.status_code == 422
    blank = client.post("/organizations", json={"name": "   "}, headers=ALICE)
    assert blank.status_code == 422
    made = client.post("/organizations", json={"name": "  Padded  "}, headers=ALICE)
    assert made.status_code == 201 and made.json()["name"] == "Padded"
