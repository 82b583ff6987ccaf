"""LangChain chat models chosen by settings; each provider's package is imported only here.

| LECTERN_LLM | package (extra) | default model | JSON from |
|---|---|---|---|
| openai | langchain-openai (core) | gpt-4o-mini | JSON schema |
| azure-openai | langchain-openai (core) | deployment gpt-4 | JSON schema |
| openai-compatible | langchain-openai (core) | local-model | JSON mode (not schemas: llama.cpp) |
| crynux | langchain-crynux (core) | Qwen/Qwen2.5-7B-Instruct | tool calling |
| anthropic | langchain-anthropic (`anthropic`) | claude-3-5-sonnet-20241022 | tool calling |
| bedrock | langchain-aws (`bedrock`) | us.anthropic.claude-opus-4-5-20251101-v1:0 | tool calling |
| gemini | langchain-google-genai (`gemini`) | gemini-2.5-flash | tool calling |

The defaults of anthropic, azure-openai, bedrock and gemini are settings (bootstrap passes
them as `model`); the table here backs callers that pass no model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

from pydantic import SecretStr

from lectern.adapters.llm.langchain_llm import StructuredMethod
from lectern.errors import ConfigurationError

DEFAULT_MODELS = {
    "openai": "gpt-4o-mini",
    "openai-compatible": "local-model",
    "crynux": "Qwen/Qwen2.5-7B-Instruct",
    "anthropic": "claude-3-5-sonnet-20241022",
    "azure-openai": "gpt-4",
    "bedrock": "us.anthropic.claude-opus-4-5-20251101-v1:0",
    "gemini": "gemini-2.5-flash",
}
DEFAULT_METHODS: dict[str, StructuredMethod] = {
    "openai": "json_schema",
    "azure-openai": "json_schema",
    "openai-compatible": "json_mode",
    # Many models served on Crynux have no JSON mode; ChatCrynux defaults to tool calling.
    "crynux": "tool_calling",
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
    max_tokens: int | None = None
    """Most tokens in one reply; None leaves the provider's own limit."""
    vram_limit: int = 24
    """crynux only: the least GPU memory (GB) a node needs to take the job."""


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
    if config.max_tokens is not None:
        common["max_tokens"] = config.max_tokens
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
    elif provider == "crynux":
        from langchain_crynux import ChatCrynux

        if not config.base_url:
            raise ConfigurationError(
                "LECTERN_LLM=crynux needs LECTERN_LLM_BASE_URL: the Crynux relay's "
                "OpenAI-compatible endpoint"
            )
        model = ChatCrynux(
            model=str(name),
            base_url=config.base_url,
            api_key=config.api_key,
            vram_limit=config.vram_limit,
            timeout=config.timeout,
            max_retries=0,
            **common,
        )
    elif provider == "azure-openai":
        from langchain_openai import AzureChatOpenAI

        if not (config.base_url and config.api_version):
            raise ConfigurationError(
                "LECTERN_LLM=azure-openai needs LECTERN_LLM_BASE_URL (or AZURE_OPENAI_ENDPOINT, "
                "the endpoint) and LECTERN_LLM_API_VERSION"
            )
        model = AzureChatOpenAI(
            azure_deployment=str(name),
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

        # The key reaches us through the settings (LECTERN_LLM_API_KEY, LECTERN_ANTHROPIC_API_KEY
        # or ANTHROPIC_API_KEY); without one every call would fail later, one by one.
        if config.api_key is None:
            raise ConfigurationError(
                "LECTERN_LLM=anthropic needs an API key: set ANTHROPIC_API_KEY (or "
                "LECTERN_LLM_API_KEY)"
            )
        endpoint: dict[str, Any] = {"api_key": config.api_key}
        if config.base_url:  # unset leaves the client's own default (ANTHROPIC_API_URL)
            endpoint["base_url"] = config.base_url
        model = ChatAnthropic(
            model_name=str(name),
            timeout=config.timeout,
            max_retries=0,
            **endpoint,
            **common,
        )
    elif provider == "bedrock":
        _require(provider)
        from langchain_aws import ChatBedrockConverse

        # Credentials come from boto3's own chain (AWS_ACCESS_KEY_ID, profiles, roles).
        bedrock_options: dict[str, Any] = {}
        if config.base_url:  # unset: the region's own bedrock-runtime endpoint
            bedrock_options["endpoint_url"] = config.base_url
        try:
            model = ChatBedrockConverse(
                model=str(name),
                region_name=config.region,
                timeout=math.ceil(config.timeout),  # whole seconds only
                # No retries of botocore's own: LangChainLLM retries (and traces) each attempt.
                max_retries=0,
                **bedrock_options,
                **common,
            )
        except ValueError as error:  # pydantic's ValidationError: no region or credentials
            first = str(error).strip().splitlines()[-2:][0].strip()
            raise ConfigurationError(
                "LECTERN_LLM=bedrock cannot reach AWS: set the region (LECTERN_LLM_REGION or "
                f"AWS_REGION) and credentials (boto3's chain: AWS_ACCESS_KEY_ID, a profile or a "
                f"role). AWS said: {first}"
            ) from None
    elif provider == "gemini":
        _require(provider)
        from langchain_google_genai import ChatGoogleGenerativeAI

        gemini_options = {k: v for k, v in common.items() if k != "max_tokens"}
        if config.max_tokens is not None:
            gemini_options["max_output_tokens"] = config.max_tokens
        if config.base_url:  # unset: Google's own endpoint
            gemini_options["base_url"] = config.base_url
        model = ChatGoogleGenerativeAI(
            model=str(name),
            google_api_key=key,
            timeout=config.timeout,
            max_retries=0,
            **gemini_options,
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
