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


LIBRARIES_IN_APPLICATION = {
    "pydantic": "the tool argument and evaluation-set schemas the models and the HTTP layer "
    "both read; plain data classes with validation, no I/O",
    "structlog": "the structured log lines of the services (a logger, no handler set here)",
    "cachetools": "the search service's in-memory LRU and TTL caches of query plans",
}
"""Third-party packages `application/` may import, each with the reason; anything else
(a framework, a database or engine client, a model runtime, a file format) lives in an
adapter behind a port."""

NEVER_IN_APPLICATION = {
    "fastapi",
    "starlette",
    "sqlalchemy",
    "alembic",
    "faiss",
    "numpy",
    "langchain",
    "langchain_core",
    "langchain_openai",
    "langgraph",
    "httpx",
    "typer",
    "rich",
    "bm25s",
    "onnxruntime",
    "redis",
    "rq",
    "qdrant_client",
    "mcp",
    "llama_cpp",
    "pypdfium2",
    "yaml",
}
"""Named so the allowlist above cannot grow to take one of them in without this test
changing too."""


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
        )

    assert _offenders("application", bad) == {}


def test_application_imports_only_the_standard_library_and_named_libraries() -> None:
    def outside(name: str) -> bool:
        top = name.split(".")[0]
        return (
            top not in sys.stdlib_module_names
            and top != "lectern"
            and top not in LIBRARIES_IN_APPLICATION
        )

    assert _offenders("application", outside) == {}
    assert not set(LIBRARIES_IN_APPLICATION) & NEVER_IN_APPLICATION


def test_adapters_do_not_read_settings() -> None:
    # Bootstrap reads Settings and hands each adapter plain values.
    def bad(name: str) -> bool:
        return name in {"lectern.settings", "lectern.bootstrap"} or name.startswith(
            ("lectern.bootstrap.", "lectern.entrypoints")
        )

    assert _offenders("adapters", bad) == {}


def test_entrypoints_reach_adapters_only_through_bootstrap() -> None:
    assert _offenders("entrypoints", lambda name: name.startswith("lectern.adapters")) == {}


ENGINES_NOT_AT_START = {"faiss", "numpy", "scipy", "bm25s", "onnxruntime", "langchain_core"}
"""What `lectern --help` must not load: bootstrap imports an engine or a model runtime where
the part that needs it is built, so a command (or a worker process) pays only for what it
touches."""


def test_the_command_line_starts_without_an_index_engine_or_model_runtime() -> None:
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "lectern", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = {
        line.rsplit("|", 1)[-1].strip().split(".")[0]
        for line in run.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "lectern" in loaded
    assert loaded & ENGINES_NOT_AT_START == set()


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


def _module_graph() -> dict[str, set[str]]:
    """Each module of `lectern` -> the modules of `lectern` it imports, wherever the import
    is (top level, inside a function, or under `TYPE_CHECKING`: a type-only cycle is a
    cycle of ideas too)."""
    modules: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - (node.level - 1)]
                    module = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    module = node.module or ""
                targets = [module, *(f"{module}.{alias.name}" for alias in node.names)]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_cycle_finder_finds_a_cycle_through_three_modules() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_modules() -> None:
    assert _cycles(_module_graph()) == []


def test_no_import_cycle_between_entry_point_packages() -> None:
    # entrypoints.http mounts the MCP server; both map books and collection searches with
    # the models in entrypoints.schemas, so neither imports the other's package for them.
    packages: dict[str, set[str]] = {}
    for module, imported in _module_graph().items():
        if not module.startswith("lectern.entrypoints."):
            continue
        source = module.split(".")[2]
        packages.setdefault(source, set()).update(
            other.split(".")[2]
            for other in imported
            if other.startswith("lectern.entrypoints.") and other.split(".")[2] != source
        )
    for imported in list(packages.values()):
        for other in imported:
            packages.setdefault(other, set())
    assert _cycles(packages) == []
