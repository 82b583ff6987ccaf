from pathlib import Path

import pytest

from lectern.errors import ConfigurationError
from lectern.settings import load_settings


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
    ],
)
def test_invalid_values_name_the_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, message: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError, match=message) as caught:
        load_settings()
    assert variable in str(caught.value)


def test_overrides_are_validated_too() -> None:
    with pytest.raises(ConfigurationError, match="LECTERN_INGEST_BATCH_SIZE"):
        load_settings(ingest_batch_size=-5)
