import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from lectern.application.identity import ApiKeyring
from lectern.errors import ConfigurationError
from lectern.settings import Settings, load_settings


def test_defaults_are_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LECTERN_DATA_DIR")
    settings = load_settings()
    assert settings.data_dir == Path("var")
    assert settings.resolved_catalog_url.startswith("sqlite:///")
    assert settings.resolved_catalog_url.endswith("/var/catalog.db")
    assert settings.data_mirror is None
    assert settings.log_level == "INFO"


def test_catalog_url_follows_the_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LECTERN_DATA_DIR", str(tmp_path / "elsewhere"))
    assert load_settings().resolved_catalog_url == f"sqlite:///{tmp_path}/elsewhere/catalog.db"


def test_log_level_is_case_insensitive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LECTERN_LOG_LEVEL", "debug")
    assert load_settings().log_level == "DEBUG"


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("LECTERN_LOG_LEVEL", "loud", "LECTERN_LOG_LEVEL"),
        ("LECTERN_INGEST_BATCH_SIZE", "0", "LECTERN_INGEST_BATCH_SIZE"),
        ("LECTERN_INGEST_BATCH_SIZE", "many", "LECTERN_INGEST_BATCH_SIZE"),
        ("LECTERN_CATALOG_URL", "not a url", "LECTERN_CATALOG_URL"),
        ("LECTERN_DATA_MIRROR", "/definitely/not/here", "is not a directory"),
        ("LECTERN_SOURCE_BASE_URL", "ftp://x", "http"),
        ("LECTERN_ENGINE", "elasticsearch", "LECTERN_ENGINE"),
        ("LECTERN_QDRANT_URL", "grpc://qdrant:6334", "http"),
        ("LECTERN_QDRANT_SHARDS", "0", "LECTERN_QDRANT_SHARDS"),
        ("LECTERN_QDRANT_REPLICAS", "many", "LECTERN_QDRANT_REPLICAS"),
        ("LECTERN_QDRANT_COLLECTION_PREFIX", "no spaces/", "LECTERN_QDRANT_COLLECTION_PREFIX"),
    ],
)
def test_invalid_values_name_the_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, message: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError, match=message) as caught:
        load_settings()
    assert variable in str(caught.value)


def test_qdrant_lives_in_the_data_dir_unless_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LECTERN_DATA_DIR", str(tmp_path))
    assert load_settings().resolved_qdrant_url == str(tmp_path / "qdrant")
    monkeypatch.setenv("LECTERN_QDRANT_URL", " https://qdrant.internal:6333 ")
    assert load_settings().resolved_qdrant_url == "https://qdrant.internal:6333"
    monkeypatch.setenv("LECTERN_QDRANT_URL", ":memory:")
    assert load_settings(engine="qdrant").resolved_qdrant_url == ":memory:"


def test_overrides_are_validated_too() -> None:
    with pytest.raises(ConfigurationError, match="LECTERN_INGEST_BATCH_SIZE"):
        load_settings(ingest_batch_size=-5)


README = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
ROW = re.compile(r"^\| `LECTERN_([A-Z0-9_]+)` \| ([^|]+?) \|")
HEADER = "| variable | default | meaning |"


def _settings_rows(text: str) -> list[tuple[str, str]]:
    """(NAME, default cell) of every row of every `variable | default | meaning` table."""
    rows, in_table = [], False
    for line in text.splitlines():
        if line.strip() == HEADER:
            in_table = True
        elif not line.startswith("|"):
            in_table = False
        elif in_table and (match := ROW.match(line)):
            rows.append((match.group(1), match.group(2)))
    return rows


def _shown(default: object) -> str:
    """How the README writes a literal default."""
    if isinstance(default, Path):
        return f"`./{default}`" if not default.is_absolute() else f"`{default}`"
    if default == "":
        return "empty"
    return f"`{default}`"


def test_readme_settings_tables_match_settings() -> None:
    rows = _settings_rows(README.read_text(encoding="utf-8"))
    documented: dict[str, list[str]] = {}
    for name, default in rows:
        documented.setdefault(name.lower(), []).append(default.strip())
    missing = sorted(set(Settings.model_fields) - set(documented))
    assert missing == [], f"settings without a README row: {missing}"
    unknown = sorted(set(documented) - set(Settings.model_fields))
    assert unknown == [], f"README rows for settings that do not exist: {unknown}"
    wrong = {}
    for name, shown in documented.items():
        default = Settings.model_fields[name].default
        for cell in shown:
            if default is None:
                # Unset, or a computed default described with a placeholder.
                ok = cell == "unset" or "<" in cell or not cell.startswith("`")
            else:
                ok = cell == _shown(default)
            if not ok:
                wrong[name] = (cell, default)
    assert wrong == {}, f"README defaults that are not the real ones: {wrong}"


def _settings_page_module() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tools" / "settings_doc.py"
    spec = importlib.util.spec_from_file_location("settings_doc", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_settings_is_the_page_generated_from_settings() -> None:
    tool = _settings_page_module()
    page = tool.PAGE.read_text(encoding="utf-8")
    assert page == tool.render(), "docs/settings.md is stale: python tools/settings_doc.py --write"
    for name, field in Settings.model_fields.items():
        # Every field has its row, a description and its variable.
        row = next(
            line for line in page.splitlines() if line.startswith(f"| `LECTERN_{name.upper()}` |")
        )
        assert row.rstrip(" |").split(" | ")[-1].strip(), f"{name} has no description"
        assert (field.default is None) == ("| unset |" in row), name


def test_api_keys_map_to_users() -> None:
    keyring = ApiKeyring.parse("alice:KEY1, bob:KEY2,bare")
    assert keyring.required and keyring.users == {"alice", "bob", "key3"}
    assert keyring.authenticate("KEY1") == "alice"
    assert keyring.authenticate("KEY2") == "bob"
    assert keyring.authenticate("bare") == "key3"
    assert keyring.authenticate("KEY") is None
    assert keyring.authenticate("") is None and keyring.authenticate(None) is None
    assert not ApiKeyring.parse(None).required


@pytest.mark.parametrize("spec", ["alice:", ":KEY", "a:K,b:K"])
def test_bad_api_key_lists_are_refused_at_start_up(
    monkeypatch: pytest.MonkeyPatch, spec: str
) -> None:
    monkeypatch.setenv("LECTERN_API_KEYS", spec)
    with pytest.raises(ConfigurationError, match="LECTERN_API_KEYS"):
        load_settings()


@pytest.mark.parametrize("value", ["memcached://x", "redis:/nohost", "mem"])
def test_limit_storage_must_be_memory_or_redis(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("LECTERN_RATE_LIMIT_STORAGE", value)
    with pytest.raises(ConfigurationError, match="LECTERN_RATE_LIMIT_STORAGE"):
        load_settings()
