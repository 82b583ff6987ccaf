"""Model settings the specifications name: aliases, provider defaults, max tokens, crynux."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from lectern.adapters.llm.providers import ProviderConfig, make_chat_model
from lectern.bootstrap import provider_config
from lectern.errors import ConfigurationError
from lectern.settings import Settings, load_settings

SPEC_NAMES = [
    "AI_PRIMARY_PROVIDER",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_MODEL",
    "AZURE_OPENAI_ENDPOINT",
    "AZURE_OPENAI_API_KEY",
    "AZURE_OPENAI_DEPLOYMENT",
    "GEMINI_API_KEY",
    "GEMINI_MODEL",
    "FEATURE_AI_ENABLED",
    "RATE_LIMIT_AI_REQUESTS_PER_MINUTE",
]


@pytest.fixture(autouse=True)
def _no_spec_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """A developer's own ANTHROPIC_API_KEY must not decide these tests."""
    for name in SPEC_NAMES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(f"LECTERN_{name}", raising=False)


def _secret(value: SecretStr | None) -> str | None:
    return value.get_secret_value() if value is not None else None


@pytest.mark.parametrize(
    ("variable", "value", "field", "expected"),
    [
        ("AI_PRIMARY_PROVIDER", "anthropic", "assistant_provider", "anthropic"),
        ("ANTHROPIC_API_KEY", "sk-ant-1", "anthropic_api_key", "sk-ant-1"),
        (
            "ANTHROPIC_MODEL",
            "claude-3-7-sonnet-latest",
            "anthropic_model",
            "claude-3-7-sonnet-latest",
        ),
        (
            "AZURE_OPENAI_ENDPOINT",
            "https://me.openai.azure.com",
            "azure_openai_endpoint",
            "https://me.openai.azure.com",
        ),
        ("AZURE_OPENAI_API_KEY", "az-1", "azure_openai_api_key", "az-1"),
        ("AZURE_OPENAI_DEPLOYMENT", "gpt-4o-prod", "azure_openai_deployment", "gpt-4o-prod"),
        ("GEMINI_API_KEY", "gm-1", "gemini_api_key", "gm-1"),
        ("GEMINI_MODEL", "gemini-2.5-pro", "gemini_model", "gemini-2.5-pro"),
        ("FEATURE_AI_ENABLED", "false", "assistant_enabled", False),
        ("RATE_LIMIT_AI_REQUESTS_PER_MINUTE", "45", "rate_limit_chat", "45/minute"),
    ],
)
def test_each_specification_name_is_read_as_ours(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, field: str, expected: object
) -> None:
    monkeypatch.setenv(variable, value)
    got = getattr(load_settings(), field)
    assert (_secret(got) if isinstance(got, SecretStr) else got) == expected


@pytest.mark.parametrize(
    ("ours", "theirs", "field"),
    [
        ("LECTERN_ASSISTANT_PROVIDER", "AI_PRIMARY_PROVIDER", "assistant_provider"),
        ("LECTERN_ANTHROPIC_MODEL", "ANTHROPIC_MODEL", "anthropic_model"),
        ("LECTERN_RATE_LIMIT_CHAT", "RATE_LIMIT_AI_REQUESTS_PER_MINUTE", "rate_limit_chat"),
    ],
)
def test_our_name_wins_over_the_alias(
    monkeypatch: pytest.MonkeyPatch, ours: str, theirs: str, field: str
) -> None:
    values = {
        "assistant_provider": ("gemini", "anthropic"),
        "anthropic_model": ("ours-model", "their-model"),
        "rate_limit_chat": ("5/second", "45"),
    }[field]
    monkeypatch.setenv(ours, values[0])
    monkeypatch.setenv(theirs, values[1])
    assert getattr(load_settings(), field) == values[0]


def test_specification_defaults_and_spellings(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings()
    assert settings.rate_limit_chat == "20/minute"
    assert settings.llm_max_tokens == 4096
    assert settings.llm_vram_limit == 24
    assert settings.assistant_enabled is True
    for spelling, provider in [
        ("azure", "azure-openai"),
        ("AZURE_OPENAI", "azure-openai"),
        ("google", "gemini"),
    ]:
        monkeypatch.setenv("AI_PRIMARY_PROVIDER", spelling)
        assert load_settings().assistant_provider == provider


def test_a_bad_alias_value_names_both_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FEATURE_AI_ENABLED", "perhaps")
    with pytest.raises(
        ConfigurationError, match=r"LECTERN_ASSISTANT_ENABLED \(or FEATURE_AI_ENABLED\)"
    ):
        load_settings()
    monkeypatch.delenv("FEATURE_AI_ENABLED")
    monkeypatch.setenv("RATE_LIMIT_AI_REQUESTS_PER_MINUTE", "lots")
    with pytest.raises(ConfigurationError, match="RATE_LIMIT_AI_REQUESTS_PER_MINUTE"):
        load_settings()


@pytest.mark.parametrize(
    ("provider", "model"),
    [
        ("anthropic", "claude-3-5-sonnet-20241022"),
        ("azure-openai", "gpt-4"),
        ("gemini", "gemini-2.5-flash"),
        ("bedrock", "us.anthropic.claude-opus-4-5-20251101-v1:0"),
        ("openai", None),  # the adapter's own default (gpt-4o-mini) applies
    ],
)
def test_each_provider_has_the_specified_default_model(provider: str, model: str | None) -> None:
    config = provider_config(load_settings(), provider, None)
    assert config.model == model
    assert config.max_tokens == 4096


def test_an_explicit_model_wins_and_provider_settings_fill_gaps() -> None:
    settings = Settings(
        anthropic_model="claude-x", anthropic_api_key=SecretStr("sk-ant"), llm_max_tokens=512
    )
    assert provider_config(settings, "anthropic", "chosen").model == "chosen"
    config = provider_config(settings, "anthropic", None)
    assert config.model == "claude-x" and _secret(config.api_key) == "sk-ant"
    assert config.max_tokens == 512
    assert _secret(provider_config(settings, "openai", None).api_key) is None  # not theirs
    generic = Settings(llm_api_key=SecretStr("generic"), anthropic_api_key=SecretStr("sk-ant"))
    assert _secret(provider_config(generic, "anthropic", None).api_key) == "generic"
    azure = Settings(
        azure_openai_endpoint="https://me.openai.azure.com", llm_api_version="2024-10-21"
    )
    config = provider_config(azure, "azure-openai", None)
    assert config.base_url == "https://me.openai.azure.com" and config.model == "gpt-4"


def test_max_tokens_reach_the_provider_models() -> None:
    config = ProviderConfig(
        "openai-compatible", base_url="http://127.0.0.1:9/v1", max_tokens=321, timeout=1.0
    )
    assert make_chat_model(config).model.max_tokens == 321
    azure = make_chat_model(
        ProviderConfig(
            "azure-openai",
            base_url="https://me.openai.azure.com",
            api_key=SecretStr("k"),
            api_version="2024-10-21",
            max_tokens=654,
        )
    )
    assert azure.model.max_tokens == 654 and azure.model.deployment_name == "gpt-4"
    assert azure.model_id == "azure-openai:gpt-4"


def test_crynux_is_a_provider_with_vram_limit() -> None:
    choice = make_chat_model(
        ProviderConfig(
            "crynux",
            base_url="http://127.0.0.1:9/v1",
            api_key=SecretStr("k"),
            vram_limit=40,
            max_tokens=100,
        )
    )
    assert type(choice.model).__name__ == "ChatCrynux"
    assert choice.model.vram_limit == 40 and choice.model.extra_body == {"vram_limit": 40}
    assert choice.model_id == "crynux:Qwen/Qwen2.5-7B-Instruct" and choice.method == "tool_calling"
    with pytest.raises(ConfigurationError, match="LECTERN_LLM_BASE_URL"):
        make_chat_model(ProviderConfig("crynux", api_key=SecretStr("k")))
    assert load_settings(llm="crynux", llm_vram_limit=48).llm_vram_limit == 48
