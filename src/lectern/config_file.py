"""LECTERN_CONFIG_FILE: the `ai:` and `kb:` sections of a YAML file as a settings source.

The file ranks below the environment; each key it accepts maps to one field of `Settings`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

from lectern.errors import ConfigurationError

AI_YAML_KEYS = {
    "llm": "llm",
    "llm_base_url": "llm_base_url",
    "llm_api_key": "llm_api_key",
    "llm_model": "llm_model",
    "llm_timeout_seconds": "llm_timeout",
    "max_retries": "llm_max_retries",
    "graph_timeout_seconds": "ai_graph_timeout_seconds",
    "project_introduction": "ai_project_introduction",
    "enable_verification": "ai_enable_verification",
    "gating_prompt": "ai_gating_prompt",
    "selection_prompt": "ai_selection_prompt",
    "answer_prompt": "ai_answer_prompt",
    "verification_prompt": "ai_verification_prompt",
    "max_sources": "ai_max_sources",
    "max_answer_chars": "ai_max_answer_chars",
    "min_relevance": "ai_min_relevance",
    "min_coverage": "ai_min_coverage",
    "answer_check": "ai_answer_check",
    "answer_model": "ai_answer_model",
    "standalone_rewrite": "ai_standalone_rewrite",
    "kb_collection": "ai_kb_collection",
    "research_collection": "ai_research_collection",
    "batch_window_seconds": "ai_batch_window_seconds",
    "vram_limit": "llm_vram_limit",
}
"""Keys of the YAML file's `ai:` section -> the settings they set."""
KB_YAML_KEYS = {
    "sources_dir": "kb_sources_dir",
    "max_page_bytes": "kb_max_page_bytes",
    "fetch_timeout_seconds": "kb_fetch_timeout_seconds",
}
"""Keys of the YAML file's `kb:` section (the support bot's sources)."""


class AiYamlSource(PydanticBaseSettingsSource):
    """The `ai:` section of LECTERN_CONFIG_FILE, below the environment in priority."""

    def __init__(self, settings_cls: type[BaseSettings], path: Path | None) -> None:
        """Read `path` (nothing when None)."""
        super().__init__(settings_cls)
        self.path = path

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """Unused: `__call__` maps the whole section at once."""
        del field
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        """Settings named by the section's keys."""
        if self.path is None:
            return {}
        try:
            data = yaml.safe_load(self.path.read_text(encoding="utf-8"))
        except OSError as error:
            raise ConfigurationError(
                f"LECTERN_CONFIG_FILE: cannot read {self.path} ({error})"
            ) from None
        except yaml.YAMLError as error:
            raise ConfigurationError(
                f"LECTERN_CONFIG_FILE: {self.path} is not YAML ({error})"
            ) from None
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise ConfigurationError(
                f"LECTERN_CONFIG_FILE: {self.path} must be a mapping with an `ai:` mapping"
            )
        values: dict[str, Any] = {}
        for name, keys in (("ai", AI_YAML_KEYS), ("kb", KB_YAML_KEYS)):
            section = data.get(name)
            if not isinstance(section, dict | None):
                raise ConfigurationError(
                    f"LECTERN_CONFIG_FILE: `{name}:` in {self.path} must be a mapping"
                )
            unknown = sorted(str(k) for k in (section or {}) if k not in keys)
            if unknown:
                raise ConfigurationError(
                    f"LECTERN_CONFIG_FILE: unknown keys in `{name}:`: {', '.join(unknown)}; "
                    f"known: {', '.join(keys)}"
                )
            values.update({keys[k]: v for k, v in (section or {}).items() if v is not None})
        return values
