"""The dependency rule: the domain imports nothing but the standard library and itself."""

import ast
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import lectern

PACKAGE = Path(lectern.__file__).parent
FORBIDDEN_IN_DOMAIN = {
    "fastapi",
    "sqlalchemy",
    "alembic",
    "langchain",
    "langchain_core",
    "langgraph",
    "faiss",
    "numpy",
    "pydantic",
    "pydantic_settings",
    "httpx",
    "typer",
    "rich",
    "structlog",
    "bm25s",
    "onnxruntime",
    "redis",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_domain_stays_pure() -> None:
    offenders = {}
    for path in (PACKAGE / "domain").rglob("*.py"):
        bad = {n for n in _imports(path) if n.split(".")[0] in FORBIDDEN_IN_DOMAIN}
        bad |= {
            n
            for n in _imports(path)
            if n.startswith(("lectern.adapters", "lectern.application", "lectern.entrypoints"))
        }
        if bad:
            offenders[path.name] = sorted(bad)
    assert offenders == {}


FORBIDDEN_IN_APPLICATION = {
    "fastapi",
    "starlette",
    "sqlalchemy",
    "alembic",
    "faiss",
    "numpy",
    "langchain",
    "langchain_core",
    "langchain_openai",
    "httpx",
    "typer",
    "rich",
    "bm25s",
    "onnxruntime",
    "redis",
}


def _offenders(folder: str, bad: Callable[[str], bool]) -> dict[str, list[str]]:
    found = {}
    for path in (PACKAGE / folder).rglob("*.py"):
        names = sorted(n for n in _imports(path) if bad(n))
        if names:
            found[str(path.relative_to(PACKAGE))] = names
    return found


def test_application_imports_no_adapter_entrypoint_or_framework() -> None:
    def bad(name: str) -> bool:
        return name.startswith(
            ("lectern.adapters", "lectern.entrypoints", "lectern.bootstrap", "lectern.settings")
        ) or (name.split(".")[0] in FORBIDDEN_IN_APPLICATION)

    assert _offenders("application", bad) == {}


def test_adapters_do_not_read_settings() -> None:
    # Bootstrap reads Settings and hands each adapter plain values.
    def bad(name: str) -> bool:
        return name in {"lectern.settings", "lectern.bootstrap"} or name.startswith(
            "lectern.entrypoints"
        )

    assert _offenders("adapters", bad) == {}


def test_entrypoints_reach_adapters_only_through_bootstrap() -> None:
    assert _offenders("entrypoints", lambda name: name.startswith("lectern.adapters")) == {}


def test_exceptions_live_in_errors() -> None:
    defined = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                if any(b.endswith(("Error", "Exception")) for b in bases):
                    defined[f"{path.relative_to(PACKAGE)}:{node.name}"] = sorted(bases)
    assert defined == {}


DATA_LIBRARIES_IN_DOMAIN = {"langcodes"}
"""Third-party packages the domain may import: pure data and functions over it, no I/O,
no framework, no dependencies of their own (checked below). `langcodes` carries the IANA
language subtag registry and CLDR's aliases, which `domain/normalize/languages.py` reads."""


def test_domain_imports_only_the_standard_library_and_named_data_libraries() -> None:
    offenders = {}
    for path in (PACKAGE / "domain").rglob("*.py"):
        outside = {
            n
            for n in _imports(path)
            if n.split(".")[0] not in sys.stdlib_module_names
            and n.split(".")[0] not in DATA_LIBRARIES_IN_DOMAIN
            and n.split(".")[:2] not in (["lectern", "domain"], ["lectern", "errors"])
        }
        if outside:
            offenders[str(path.relative_to(PACKAGE))] = sorted(outside)
    assert offenders == {}


def test_the_domain_data_libraries_bring_in_nothing_but_the_standard_library() -> None:
    probe = (
        "import sys; before = set(sys.modules); "
        + "; ".join(f"import {name}" for name in sorted(DATA_LIBRARIES_IN_DOMAIN))
        + "; print(' '.join(sorted({m.split('.')[0] for m in set(sys.modules) - before})))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    foreign = {m for m in loaded if m not in sys.stdlib_module_names}
    assert foreign == DATA_LIBRARIES_IN_DOMAIN
