"""The dependency rule: the domain imports nothing but the standard library and itself."""

import ast
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


def test_application_does_not_import_adapters_or_entrypoints() -> None:
    offenders = {}
    for path in (PACKAGE / "application").rglob("*.py"):
        bad = {
            n for n in _imports(path) if n.startswith(("lectern.adapters", "lectern.entrypoints"))
        }
        bad |= {n for n in _imports(path) if n.split(".")[0] in {"sqlalchemy", "httpx", "typer"}}
        if bad:
            offenders[path.name] = sorted(bad)
    assert offenders == {}
