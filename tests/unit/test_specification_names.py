"""Every name the specifications use is accepted: the support bot's seed YAML `ai:` keys and
the research chain's and guideline agent's environment variables (ours win when both are set).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from lectern.adapters.llm.local_gguf import vram_check
from lectern.errors import ConfigurationError
from lectern.settings import load_settings

SEED_AI_YAML = {
    "llm": ("openai-compatible", "llm", "openai-compatible"),
    "llm_base_url": ("http://127.0.0.1:8080/v1", "llm_base_url", "http://127.0.0.1:8080/v1"),
    "llm_api_key": ("sk-seed", "llm_api_key", "sk-seed"),
    "llm_model": ("qwen", "llm_model", "qwen"),
    "llm_timeout_seconds": (12, "llm_timeout", 12.0),
    "max_retries": (1, "llm_max_retries", 1),
    "graph_timeout_seconds": (30, "ai_graph_timeout_seconds", 30.0),
    "project_introduction": ("A docs bot.", "ai_project_introduction", "A docs bot."),
    "enable_verification": (True, "ai_enable_verification", True),
    "gating_prompt": ("Gate.", "ai_gating_prompt", "Gate."),
    "selection_prompt": ("Select.", "ai_selection_prompt", "Select."),
    "answer_prompt": ("Answer.", "ai_answer_prompt", "Answer."),
    "verification_prompt": ("Verify.", "ai_verification_prompt", "Verify."),
    "max_sources": (2, "ai_max_sources", 2),
    "max_answer_chars": (400, "ai_max_answer_chars", 400),
    "min_relevance": (0.5, "ai_min_relevance", 0.5),
    "batch_window_seconds": (5, "ai_batch_window_seconds", 5.0),
    "vram_limit": (16, "llm_vram_limit", 16),
}
"""The support bot's seed `ai:` keys: value in the file, our setting, value read."""

SEED_ENV = {
    "TRA_BEDROCK_LLM_MODEL_ID": ("anthropic.claude-v2", "bedrock_model", "anthropic.claude-v2"),
    "TRA_BEDROCK_MAX_TOKENS": ("1500", "llm_max_tokens", 1500),
    "BM25_ENABLED": ("false", "bm25_enabled", False),
    "RERANK_ENABLED": ("true", "rerank", "late-interaction"),
    "RATE_LIMIT_CHAT": ("12", "rate_limit_chat_guide", "12/minute"),
    "API_KEY": ("guide-key", "api_keys", "guide-key"),
    "AI_PRIMARY_PROVIDER": ("anthropic", "assistant_provider", "anthropic"),
    "FEATURE_AI_ENABLED": ("false", "assistant_enabled", False),
    "RATE_LIMIT_AI_REQUESTS_PER_MINUTE": ("45", "rate_limit_chat", "45/minute"),
}
"""The research chain's, the guideline agent's and the assistant's environment names."""

OURS = {
    "bedrock_model": "ours.model",
    "llm_max_tokens": "900",
    "bm25_enabled": "true",
    "rerank": "llm",
    "rate_limit_chat_guide": "7/second",
    "api_keys": "alice:ours",
    "assistant_provider": "gemini",
    "assistant_enabled": "true",
    "rate_limit_chat": "5/second",
}
"""A value of our own variable differing from the alias's, per setting."""


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, (_, field, _) in SEED_ENV.items():
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(f"LECTERN_{field.upper()}", raising=False)
    monkeypatch.delenv("LECTERN_CONFIG_FILE", raising=False)


def _plain(value: object) -> object:
    return value.get_secret_value() if isinstance(value, SecretStr) else value


@pytest.mark.parametrize(
    ("kind", "name"),
    [("yaml", key) for key in SEED_AI_YAML] + [("env", name) for name in SEED_ENV],
)
def test_every_seed_name_is_accepted(
    kind: str, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if kind == "yaml":
        import yaml

        path = tmp_path / "seed.yaml"
        path.write_text(yaml.safe_dump({"ai": {k: v[0] for k, v in SEED_AI_YAML.items()}}))
        monkeypatch.setenv("LECTERN_CONFIG_FILE", str(path))
        _, field, expected = SEED_AI_YAML[name]
        assert _plain(getattr(load_settings(), field)) == expected
        return
    value, field, expected = SEED_ENV[name]
    monkeypatch.setenv(name, value)
    assert _plain(getattr(load_settings(), field)) == expected
    monkeypatch.setenv(f"LECTERN_{field.upper()}", OURS[field])
    ours = _plain(getattr(load_settings(), field))
    assert ours != expected, f"LECTERN_{field.upper()} must win over {name}"


def test_vram_limit_is_checked_before_a_gpu_load_and_not_applicable_on_the_cpu() -> None:
    assert "not applicable" in vram_check(0, 24, lambda: None)
    assert "met" in vram_check(-1, 8, lambda: 12.0)
    with pytest.raises(ConfigurationError, match="under LECTERN_LLM_VRAM_LIMIT"):
        vram_check(-1, 24, lambda: 12.0)
    with pytest.raises(ConfigurationError, match="none was found"):
        vram_check(10, 24, lambda: None)


def test_a_gpu_too_small_stops_the_local_model_before_it_loads(tmp_path: Path) -> None:
    from lectern.adapters.llm.local_gguf import LlamaCppChatModel

    model_file = tmp_path / "model.gguf"
    model_file.write_bytes(b"not a model: the check must refuse before llama.cpp reads it")
    model = LlamaCppChatModel(
        model_path=str(model_file), n_gpu_layers=-1, vram_limit_gb=24, gpu_probe=lambda: 8.0
    )
    with pytest.raises(ConfigurationError, match=r"8\.0 GB"):
        model.invoke("hello")
