"""Language models: the configured LLM, chat models, the trace, the reranker."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.llm.tracing import JsonlTraceWriter
from lectern.adapters.metrics import MeteredTracer
from lectern.application.answering.usage import UsageMeter
from lectern.application.ports import Embedder, LLMClient, LLMTracer, ProgressReporter, Reranker
from lectern.bootstrap.base import Clock, log, system_clock
from lectern.bootstrap.catalog import CatalogWiring
from lectern.settings import Settings

if TYPE_CHECKING:
    from lectern.adapters.llm.langchain_llm import StructuredMethod
    from lectern.adapters.llm.providers import ProviderConfig
    from lectern.adapters.vector.faiss_index import ArrayEmbedder


def assemble_local_model(settings: Settings, progress: ProgressReporter | None = None) -> Path:
    """Join the packaged GGUF parts at the configured local model path; sha256 checked."""
    from lectern.adapters.llm.local_gguf import SIZE, assemble

    if progress is None:
        return assemble(settings.resolved_local_model_path)
    progress.start("assembling the local model", SIZE)
    return assemble(settings.resolved_local_model_path, progress=progress.advance)


TOOL_CONTEXT = 12_288
"""Tokens of context for the local model when it calls tools (signatures, history, results)."""


def local_chat_model(settings: Settings, *, context: int = 4096) -> tuple[Any, str]:
    """The in-process GGUF model as a LangChain chat model, and its id (loaded on first use).

    `context` is the window in tokens; the assistant's tool signatures alone take about
    6,000, so its callers ask for more (Qwen2.5 was trained on 32,768).
    """
    from lectern.adapters.llm.local_gguf import MODEL_ID, LlamaCppChatModel

    options: dict[str, Any] = {"n_ctx": context}
    if "llm_max_tokens" in settings.model_fields_set:
        options["max_tokens"] = settings.llm_max_tokens
    model = LlamaCppChatModel(
        model_path=str(settings.resolved_local_model_path),
        temperature=settings.llm_temperature,
        n_threads=settings.embed_threads,
        n_gpu_layers=settings.local_gpu_layers,
        vram_limit_gb=settings.llm_vram_limit,
        constrained=settings.local_tool_grammar,
        **options,
    )
    return model, MODEL_ID


def make_llm(
    settings: Settings,
    tracer: LLMTracer | None = None,
    embedder: Embedder | None = None,
    clock: Clock = system_clock,
) -> LLMClient:
    """LECTERN_LLM's client: extractive, a LangChain provider, or the in-process GGUF."""
    extractive = ExtractiveLLM(tracer=tracer, embedder=embedder, clock=clock)
    if settings.llm == "extractive":
        return extractive
    from lectern.adapters.llm.langchain_llm import LangChainLLM

    timeout, retries = settings.llm_timeout, settings.llm_max_retries
    if settings.llm == "local":
        from lectern.adapters.llm.local_gguf import LOCAL_TIMEOUT

        # One generation at a time on the CPU: a timed-out attempt keeps running, so a
        # retry would only queue behind it. No retries, and a timeout sized for 2 cores.
        retries = 0
        if "llm_timeout" not in settings.model_fields_set:
            timeout = LOCAL_TIMEOUT
        model, model_id = local_chat_model(settings)
        method: StructuredMethod = (
            "grammar"
            if settings.llm_structured_output == "auto"
            else settings.llm_structured_output
        )
    else:
        from lectern.adapters.llm.providers import make_chat_model

        choice = make_chat_model(provider_config(settings, settings.llm, settings.llm_model))
        model, model_id, method = choice.model, choice.model_id, choice.method
    return LangChainLLM(
        model,
        model_id,
        fallback=extractive,
        method=method,
        tracer=tracer,
        timeout=timeout,
        max_retries=retries,
        temperature=settings.llm_temperature,
        clock=clock,
    )


def provider_config(settings: Settings, provider: str, model: str | None) -> ProviderConfig:
    """A provider's configuration: LECTERN_LLM_*, the provider's own settings filling gaps.

    The provider's own settings are the ones the assistant specification names too
    (ANTHROPIC_API_KEY, AZURE_OPENAI_ENDPOINT, GEMINI_MODEL, ...). `model` is the explicit
    choice (LECTERN_ASSISTANT_MODEL or LECTERN_LLM_MODEL); without one, anthropic,
    azure-openai, gemini and bedrock take their model setting's default.
    """
    from lectern.adapters.llm.providers import ProviderConfig

    own_models = {
        "anthropic": settings.anthropic_model,
        "azure-openai": settings.azure_openai_deployment,
        "gemini": settings.gemini_model,
        "bedrock": settings.bedrock_model,
    }
    own_keys = {
        "anthropic": settings.anthropic_api_key,
        "azure-openai": settings.azure_openai_api_key,
        "gemini": settings.gemini_api_key,
    }
    base_url = settings.llm_base_url
    if base_url is None and provider == "azure-openai":
        base_url = settings.azure_openai_endpoint
    return ProviderConfig(
        provider=provider,
        model=model or own_models.get(provider),
        base_url=base_url,
        api_key=settings.llm_api_key or own_keys.get(provider),
        api_version=settings.llm_api_version,
        region=settings.llm_region,
        timeout=settings.llm_timeout,
        temperature=settings.llm_temperature,
        structured_output=settings.llm_structured_output,
        max_tokens=settings.llm_max_tokens,
        vram_limit=settings.llm_vram_limit,
    )


class _TokenVectors:
    """The catalog embedder's token vectors, loaded on the first rerank (not at start-up)."""

    def __init__(self, load: Callable[[], ArrayEmbedder]) -> None:
        self._load = load

    def token_vectors(self, texts: Sequence[str]) -> Any:
        """The ONNX embedder's unit token vectors of each text."""
        embedder: Any = self._load()
        return embedder.token_vectors(texts)


class ModelWiring(CatalogWiring):
    """The LLM and its trace, and the reranker after fusion."""

    def tracer(self) -> UsageMeter:
        """The LLM trace file (or the override), counted, with token usage per watched run."""
        return self._once(
            "tracer", lambda: UsageMeter(self.overrides.tracer or self._trace_writer())
        )

    def _trace_writer(self) -> LLMTracer:
        writer = JsonlTraceWriter(
            self.settings.trace_dir,
            max_bytes=self.settings.trace_max_bytes,
            backups=self.settings.trace_backups,
        )
        return MeteredTracer(writer, self.metrics)

    def llm(self) -> LLMClient:
        """The configured language model, built once; the extractive one backs every other."""
        if self.overrides.llm is not None:
            return self.overrides.llm
        return self._once(
            "llm", lambda: make_llm(self.settings, self.tracer(), self.embedder(), self.clock)
        )

    def reranker(self) -> Reranker | None:
        """LECTERN_RERANK's reranker; None for `none` or when it cannot run here (logged)."""
        if self.overrides.reranker is not None:
            return self.overrides.reranker
        return self._once("reranker", self._build_reranker)

    def _build_reranker(self) -> Reranker | None:
        choice = self.settings.rerank
        if choice == "none":
            return None
        if choice == "llm":
            if self.settings.llm == "extractive":
                log.warning(
                    "LECTERN_RERANK=llm needs a generative LECTERN_LLM: not reranking",
                    llm=self.settings.llm,
                )
                return None
            from lectern.adapters.rerank.llm_listwise import LlmListwiseReranker

            return LlmListwiseReranker(self.llm())
        from lectern.adapters.rerank.late_interaction import MaxSimReranker

        if self.settings.embedder == "sentence-transformers":
            log.warning(
                "LECTERN_RERANK=late-interaction needs the onnx embedder's token vectors: "
                "not reranking",
                embedder=self.settings.embedder,
            )
            return None
        return MaxSimReranker(_TokenVectors(self.catalog_indexes().embedder))
