"""LangChain chat models chosen by settings; each provider's package is imported only here.

| LECTERN_LLM | package (extra) | default model | JSON from |
|---|---|---|---|
| openai | langchain-openai (core) | gpt-4o-mini | JSON schema |
| azure-openai | langchain-openai (core) | the deployment in LECTERN_LLM_MODEL | JSON schema |
| openai-compatible | langchain-openai (core) | local-model | JSON mode (not schemas: llama.cpp) |
| anthropic | langchain-anthropic (`anthropic`) | claude-3-5-haiku-latest | tool calling |
| bedrock | langchain-aws (`bedrock`) | anthropic.claude-3-5-haiku-20241022-v1:0 | tool calling |
| gemini | langchain-google-genai (`gemini`) | gemini-2.0-flash | tool calling |
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from pydantic import SecretStr

from lectern.adapters.llm.langchain_llm import StructuredMethod
from lectern.errors import ConfigurationError

DEFAULT_MODELS = {
    "openai": "gpt-4o-mini",
    "openai-compatible": "local-model",
    "anthropic": "claude-3-5-haiku-latest",
    "bedrock": "anthropic.claude-3-5-haiku-20241022-v1:0",
    "gemini": "gemini-2.0-flash",
}
DEFAULT_METHODS: dict[str, StructuredMethod] = {
    "openai": "json_schema",
    "azure-openai": "json_schema",
    "openai-compatible": "json_mode",
    "anthropic": "tool_calling",
    "bedrock": "tool_calling",
    "gemini": "tool_calling",
}
EXTRAS = {
    "anthropic": ("langchain_anthropic", "anthropic"),
    "bedrock": ("langchain_aws", "bedrock"),
    "gemini": ("langchain_google_genai", "gemini"),
}


@dataclass(frozen=True, slots=True)
class ProviderConfig:
    """What a provider needs, as bootstrap reads it from the LECTERN_LLM_* settings."""

    provider: str
    model: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = None
    api_version: str | None = None
    region: str | None = None
    timeout: float = 30.0
    temperature: float = 0.0
    structured_output: str = "auto"


@dataclass(frozen=True, slots=True)
class ChatModelChoice:
    """A built chat model, the id traces and caches use, and how to get JSON from it."""

    model: Any
    model_id: str
    method: StructuredMethod


def _require(provider: str) -> None:
    module, extra = EXTRAS[provider]
    try:
        __import__(module)
    except ImportError:
        raise ConfigurationError(
            f"LECTERN_LLM={provider} needs the {module.replace('_', '-')} package: "
            f"pip install -e '.[{extra}]'"
        ) from None


def make_chat_model(config: ProviderConfig) -> ChatModelChoice:
    """The chat model LECTERN_LLM names, with its timeout set.

    The provider's own retries are off: LangChainLLM retries with backoff itself, so that
    attempts are counted (and traced) once.
    """
    provider = config.provider
    name = config.model or DEFAULT_MODELS.get(provider)
    key = config.api_key.get_secret_value() if config.api_key else None
    common: dict[str, Any] = {"temperature": config.temperature}
    if provider in {"openai", "openai-compatible"}:
        from langchain_openai import ChatOpenAI

        if provider == "openai-compatible" and not config.base_url:
            raise ConfigurationError(
                "LECTERN_LLM=openai-compatible needs LECTERN_LLM_BASE_URL, e.g. "
                "http://127.0.0.1:8080/v1 (llama.cpp, vLLM, Ollama)"
            )
        model: Any = ChatOpenAI(
            model=str(name),
            base_url=config.base_url,
            api_key=config.api_key
            or (SecretStr("not-needed") if provider == "openai-compatible" else None),
            timeout=config.timeout,
            max_retries=0,
            **common,
        )
    elif provider == "azure-openai":
        from langchain_openai import AzureChatOpenAI

        if not (config.model and config.base_url and config.api_version):
            raise ConfigurationError(
                "LECTERN_LLM=azure-openai needs LECTERN_LLM_MODEL (the deployment), "
                "LECTERN_LLM_BASE_URL (the endpoint) and LECTERN_LLM_API_VERSION"
            )
        model = AzureChatOpenAI(
            azure_deployment=config.model,
            azure_endpoint=config.base_url,
            api_version=config.api_version,
            api_key=config.api_key,
            timeout=config.timeout,
            max_retries=0,
            **common,
        )
    elif provider == "anthropic":
        _require(provider)
        from langchain_anthropic import ChatAnthropic

        model = ChatAnthropic(
            model_name=str(name),
            api_key=key,
            timeout=config.timeout,
            max_retries=0,
            **common,
        )
    elif provider == "bedrock":
        _require(provider)
        from langchain_aws import ChatBedrockConverse

        model = ChatBedrockConverse(model=str(name), region_name=config.region, **common)
    elif provider == "gemini":
        _require(provider)
        from langchain_google_genai import ChatGoogleGenerativeAI

        model = ChatGoogleGenerativeAI(
            model=str(name), google_api_key=key, timeout=config.timeout, **common
        )
    else:
        raise ConfigurationError(f"LECTERN_LLM={provider} is not a LangChain provider")
    method = cast(
        StructuredMethod,
        DEFAULT_METHODS[provider]
        if config.structured_output == "auto"
        else config.structured_output,
    )
    return ChatModelChoice(model, f"{provider}:{name}", method)
