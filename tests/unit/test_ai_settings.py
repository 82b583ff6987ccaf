"""The `ai:` section of LECTERN_CONFIG_FILE, layered under the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.config_file import AI_YAML_KEYS, KB_YAML_KEYS
from lectern.errors import ConfigurationError
from lectern.settings import Settings, load_settings

CONFIG = """
ai:
  llm_base_url: http://127.0.0.1:8080/v1
  llm_model: qwen
  llm_timeout_seconds: 12
  max_retries: 1
  graph_timeout_seconds: 30
  project_introduction: Lectern answers questions about its own documentation.
  enable_verification: true
  gating_prompt: Only questions about Lectern count.
  max_sources: 2
  max_answer_chars: 400
other_tool:
  ignored: true
"""


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "lectern.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    monkeypatch.setenv("LECTERN_CONFIG_FILE", str(path))
    return path


def test_the_ai_section_sets_the_settings_it_names(config: Path) -> None:
    settings = load_settings()
    assert settings.config_file == config
    assert settings.llm_base_url == "http://127.0.0.1:8080/v1"
    assert settings.llm_model == "qwen"
    assert (settings.llm_timeout, settings.llm_max_retries) == (12.0, 1)
    assert settings.ai_graph_timeout_seconds == 30.0
    assert settings.ai_project_introduction.startswith("Lectern answers")
    assert settings.ai_enable_verification is True
    assert settings.ai_gating_prompt == "Only questions about Lectern count."
    assert (settings.ai_max_sources, settings.ai_max_answer_chars) == (2, 400)
    assert settings.ai_answer_prompt is None  # not in the file: the default


def test_the_environment_wins_over_the_file(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    del config
    monkeypatch.setenv("LECTERN_AI_MAX_SOURCES", "5")
    monkeypatch.setenv("LECTERN_LLM_TIMEOUT", "3")
    settings = load_settings()
    assert (settings.ai_max_sources, settings.llm_timeout) == (5, 3.0)
    assert load_settings(ai_max_sources=7).ai_max_sources == 7  # and arguments win over both


def test_a_file_can_be_named_by_argument(tmp_path: Path) -> None:
    path = tmp_path / "other.yaml"
    path.write_text("ai:\n  max_sources: 9\n", encoding="utf-8")
    assert load_settings(config_file=path).ai_max_sources == 9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ai:\n  max_source: 3\n", "unknown keys in `ai:`: max_source"),
        ("ai: [1, 2]\n", "must be a mapping"),
        ("ai:\n  max_sources: [\n", "is not YAML"),
        ("ai:\n  max_sources: 0\n", "LECTERN_AI_MAX_SOURCES"),
        ("kb:\n  source_dir: x\n", "unknown keys in `kb:`: source_dir"),
        ("kb: docs\n", "`kb:` in .* must be a mapping"),
        ("kb:\n  max_page_bytes: 10\n", "LECTERN_KB_MAX_PAGE_BYTES"),
    ],
)
def test_bad_files_stop_start_up_with_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("LECTERN_CONFIG_FILE", str(path))
    with pytest.raises(ConfigurationError, match=message):
        load_settings()


def test_a_missing_file_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LECTERN_CONFIG_FILE", str(tmp_path / "absent.yaml"))
    with pytest.raises(ConfigurationError, match="cannot read"):
        load_settings()


def test_every_yaml_key_names_a_setting() -> None:
    assert set(AI_YAML_KEYS.values()) <= set(Settings.model_fields)
    assert set(KB_YAML_KEYS.values()) <= set(Settings.model_fields)


def test_the_kb_section_names_the_sources_folder(tmp_path: Path) -> None:
    path = tmp_path / "bot.yaml"
    path.write_text(
        "ai:\n  kb_collection: support\nkb:\n  sources_dir: /srv/bot/sources\n"
        "  max_page_bytes: 50000\n",
        encoding="utf-8",
    )
    settings = load_settings(config_file=path)
    assert settings.kb_sources_dir == Path("/srv/bot/sources")
    assert settings.kb_max_page_bytes == 50_000 and settings.ai_kb_collection == "support"
    assert settings.ai_enable_verification is False  # the specified default
    assert load_settings(config_file=tmp_path / "bot.yaml").kb_fetch_timeout_seconds == 10.0
