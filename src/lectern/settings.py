"""Settings from the environment (prefix LECTERN_), checked once at start-up."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from lectern.application.identity import ApiKeyring
from lectern.config_file import AiYamlSource
from lectern.domain.guidance import DEFAULT_MIN_SIMILARITY
from lectern.domain.retrieval import DEFAULT_MMR_LAMBDA, DEFAULT_RERANK_DEPTH
from lectern.errors import ConfigurationError

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
LLMProvider = Literal[
    "extractive",
    "anthropic",
    "openai",
    "azure-openai",
    "bedrock",
    "gemini",
    "openai-compatible",
    "crynux",
    "local",
]
FallbackProvider = Literal[
    "rules",
    "anthropic",
    "openai",
    "azure-openai",
    "bedrock",
    "gemini",
    "openai-compatible",
    "crynux",
    "local",
]
AssistantProvider = Literal[FallbackProvider, "hybrid"]
"""`hybrid`: the rule policy where the understanding layer is confident, the local model
for the rest."""
StructuredMode = Literal["auto", "tool_calling", "json_schema", "json_mode", "prompt", "grammar"]


STORAGE_SCHEMES = ("memory://", "redis://", "rediss://", "redis+unix://")
LOCAL_MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
PROVIDER_SPELLINGS = {"azure": "azure-openai", "google": "gemini", "aws-bedrock": "bedrock"}
"""Provider names as other configurations spell them (after `_` -> `-`), mapped to ours."""


def _env(name: str, *aliases: str) -> AliasChoices:
    """Our variable first (it wins), then the names another specification uses for it."""
    return AliasChoices(f"LECTERN_{name.upper()}", *aliases)


class Settings(BaseSettings):
    """Everything Lectern reads from its environment, with embedded defaults."""

    model_config = SettingsConfigDict(
        env_prefix="LECTERN_",
        extra="ignore",
        frozen=True,
        validate_by_name=True,
        validate_by_alias=True,
    )

    data_dir: Path = Field(default=Path("./var"))
    """Where the catalog, downloads, indexes and reports live."""
    catalog_url: str | None = None
    """SQLAlchemy URL of the catalog; default: SQLite file `catalog.db` in data_dir."""
    data_mirror: Path | None = None
    """A local folder laid out like the upstream sources; read instead of downloading."""
    source_base_url: str | None = None
    """An HTTP mirror of the upstream files (`{url}/{source path}`); checksums still apply."""
    log_level: LogLevel = "INFO"
    """How much the logs on stderr say."""
    log_format: Literal["auto", "text", "json"] = "auto"
    """Logs (always on stderr): auto = text on a terminal, JSON lines otherwise."""
    ingest_batch_size: int = Field(default=500, ge=1, le=50_000)
    """Books written per transaction during ingest."""
    embedder: Literal["onnx", "onnx-int8", "sentence-transformers"] = "onnx"
    """onnx: the packaged MiniLM (int8 weights, float arithmetic); onnx-int8: the same model
    rewritten for int8 arithmetic on first use (about 1.8x faster, its own vectors: re-index);
    sentence-transformers: needs torch."""
    embed_threads: int | None = Field(default=None, ge=1, le=256)
    """CPU threads for the embedder; default: all cores."""
    embed_batch_size: int = Field(default=128, ge=1, le=1024)
    """Most texts per embedding batch; long texts are also capped at 2,048 tokens a batch."""
    exact_index_max: int = Field(default=100_000, ge=0)
    """Vector indexes up to this size are exact (flat); larger ones use HNSW."""
    hnsw_m: int = Field(default=32, ge=4, le=128)
    """HNSW graph degree."""
    hnsw_ef_search: int = Field(default=64, ge=8, le=4096)
    """HNSW search breadth."""
    rrf_k: int = Field(default=60, ge=0, le=10_000)
    """The RRF constant (with fusion=rrf)."""
    fusion: Literal["rrf", "convex"] = "convex"
    """Chosen by ablation (docs/evaluation.md): a convex combination of normalised scores,
    0.6 BM25 + 0.4 vectors, beat equal-weight RRF on the judged catalog queries (nDCG@10
    0.699 vs 0.663) and on SciFact (0.730 vs 0.712)."""
    lexical_weight: float = Field(default=0.6, ge=0.0, le=100.0)
    """BM25's fusion weight."""
    vector_weight: float = Field(default=0.4, ge=0.0, le=100.0)
    """The vectors' fusion weight."""
    shelf_lexical_weight: float = Field(default=0.8, ge=0.0, le=100.0)
    """BM25's fusion weight for a book request the plan read as naming catalog shelves.

    Chosen on the shelf benchmark's dev split with the judged set beside it (docs/evaluation.md):
    0.8 / 0.2 lifts dev nDCG@10 0.424 -> 0.460 for judged 0.712 -> 0.707; 0.9 falls under 0.70
    on the judged set. Other corpora (SciFact, collections) keep lexical_weight."""
    shelf_vector_weight: float = Field(default=0.2, ge=0.0, le=100.0)
    """The vectors' fusion weight for such a request."""
    lexical_tail: int = Field(default=50, ge=0, le=2_000)
    """BM25 candidates past the pool, listed after every fused one (deeper pages, Recall@100)
    without changing the first page: shelf dev Recall@100 0.702 -> 0.722 (0 switches it off)."""
    shelf_tail: int = Field(default=100, ge=0, le=1_000)
    """For a book request that names only catalog shelves, books on them listed past the first page.

    "books about time travel": after the first page (unchanged), the candidates on every named
    shelf, then up to this many of the shelves' other books (BM25 over the words, then ratings
    count), then the other candidates. Shelf dev Recall@100 0.722 -> 0.803 (test 0.689 ->
    0.786), judged 0.858 -> 0.853, nDCG@10 unchanged; it leans on the categories holding
    readers' top shelves (docs/evaluation.md). 0 switches it off."""
    known_item_first: bool = True
    """Known-item search: a book request that is a catalog title (as spelt, or one slip in about
    ten letters) shows the book(s) of that title first, the rest of the ranking unchanged.

    "Dune" was 13th under books that repeat the word; bench/known_item.py measures it
    (docs/search.md). False leaves the fused ranking as it is."""
    candidate_pool: int = Field(default=100, ge=10, le=2_000)
    """Candidates per query variation, split between BM25 and vectors by the strategy."""
    mmr_lambda: float = Field(default=DEFAULT_MMR_LAMBDA, ge=0.0, le=1.0)
    """1 keeps relevance order; lower trades relevance for diversity."""
    engine: Literal["embedded", "qdrant"] = "embedded"
    """embedded: bm25s and FAISS files under data_dir/index; qdrant: one Qdrant collection
    per corpus (sparse BM25 with IDF + dense vectors), fused by the same code."""
    qdrant_url: str | None = None
    """`:memory:` (this process only), a folder (qdrant-client local mode) or an http(s)
    server URL; default: the folder data_dir/qdrant."""
    qdrant_api_key: SecretStr | None = None
    """The Qdrant server's API key."""
    qdrant_collection_prefix: str = Field(default="lectern_", pattern=r"^[A-Za-z0-9_-]{0,64}$")
    """Put before every Qdrant collection name (several installs can share one server)."""
    qdrant_shards: int = Field(default=1, ge=1, le=1_000)
    """Shards of each new Qdrant collection (a cluster spreads them over its nodes)."""
    qdrant_replicas: int = Field(default=1, ge=1, le=100)
    """Copies of each shard (a cluster of 2+ nodes keeps serving when one fails)."""
    understanding: Literal["rules", "llm"] = "rules"
    """Who plans queries asked to be understood: the offline rules, or the configured LLM
    through the LangGraph flow (falling back to the rules when it fails)."""
    llm: LLMProvider = "extractive"
    """Who writes explanations: extractive (offline, default), a hosted or local provider."""
    llm_model: str | None = None
    """Provider model name (deployment name for azure-openai); each provider has a default."""
    llm_base_url: str | None = None
    """openai-compatible: the server (e.g. http://127.0.0.1:8080/v1); azure-openai: endpoint."""
    llm_api_key: SecretStr | None = None
    """API key; when unset, each provider's own variable (OPENAI_API_KEY, ...) is used."""
    llm_api_version: str | None = None
    """azure-openai only: the API version, e.g. 2024-10-21."""
    llm_region: str | None = None
    """bedrock only: the AWS region."""
    llm_timeout: float = Field(default=30.0, gt=0.0, le=600.0)
    """Seconds one model call may take."""
    llm_max_retries: int = Field(default=2, ge=0, le=10)
    """Retries, with exponential backoff, on timeouts, rate limits and server errors."""
    llm_temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    """Sampling temperature."""
    llm_max_tokens: int = Field(
        default=4_096,
        ge=1,
        le=200_000,
        validation_alias=_env("llm_max_tokens", "TRA_BEDROCK_MAX_TOKENS"),
    )
    """Most tokens one reply of a hosted provider may have (llm=local keeps its own 384
    unless this is set)."""
    llm_vram_limit: int = Field(default=24, ge=1, le=1_024)
    """The least GPU memory (GB) an inference run needs: crynux sends it with each job (a
    node with less does not take it); llm=local checks it before the model loads on a GPU
    (LECTERN_LOCAL_GPU_LAYERS) and reports it as not applicable on the CPU."""
    local_gpu_layers: int = Field(default=0, ge=-1, le=1_000)
    """llm=local: model layers offloaded to a GPU (-1: all); 0 runs on the CPU."""
    local_tool_grammar: bool = True
    """The local model's tool steps decode under a grammar of the offered tools' schemas
    (every call valid); off: free text parsed afterwards, kept for comparison."""
    anthropic_api_key: SecretStr | None = Field(
        default=None, validation_alias=_env("anthropic_api_key", "ANTHROPIC_API_KEY")
    )
    """anthropic: the key when LECTERN_LLM_API_KEY is unset."""
    anthropic_model: str = Field(
        default="claude-3-5-sonnet-20241022",
        validation_alias=_env("anthropic_model", "ANTHROPIC_MODEL"),
    )
    """anthropic: the model when LECTERN_LLM_MODEL (or LECTERN_ASSISTANT_MODEL) is unset."""
    azure_openai_endpoint: str | None = Field(
        default=None, validation_alias=_env("azure_openai_endpoint", "AZURE_OPENAI_ENDPOINT")
    )
    """azure-openai: the endpoint when LECTERN_LLM_BASE_URL is unset."""
    azure_openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=_env("azure_openai_api_key", "AZURE_OPENAI_API_KEY")
    )
    """azure-openai: the key when LECTERN_LLM_API_KEY is unset."""
    azure_openai_deployment: str = Field(
        default="gpt-4", validation_alias=_env("azure_openai_deployment", "AZURE_OPENAI_DEPLOYMENT")
    )
    """azure-openai: the deployment when LECTERN_LLM_MODEL is unset."""
    gemini_api_key: SecretStr | None = Field(
        default=None, validation_alias=_env("gemini_api_key", "GEMINI_API_KEY")
    )
    """gemini: the key when LECTERN_LLM_API_KEY is unset."""
    gemini_model: str = Field(
        default="gemini-2.5-flash", validation_alias=_env("gemini_model", "GEMINI_MODEL")
    )
    """gemini: the model when LECTERN_LLM_MODEL is unset."""
    bedrock_model: str = Field(
        default="us.anthropic.claude-opus-4-5-20251101-v1:0",
        validation_alias=_env("bedrock_model", "TRA_BEDROCK_LLM_MODEL_ID"),
    )
    """bedrock: the model (an inference profile id) when LECTERN_LLM_MODEL is unset."""
    llm_structured_output: StructuredMode = "auto"
    """How to get JSON: the provider's tool calling or JSON schema, JSON mode, or the prompt."""
    local_model_path: Path | None = None
    """llm=local: the GGUF file; default `<data dir>/models/` as `make local-llm` writes it."""
    explain_top: int = Field(default=5, ge=1, le=100)
    """How many of the top results `--explain` explains."""
    explain_concurrency: int = Field(default=4, ge=1, le=64)
    """Explanations generated at once."""
    trace_max_bytes: int = Field(default=20_000_000, ge=10_000)
    """Size of one LLM trace file before it rotates."""
    trace_backups: int = Field(default=5, ge=0, le=100)
    """Rotated trace files kept."""
    api_keys: SecretStr | None = Field(default=None, validation_alias=_env("api_keys", "API_KEY"))
    """Comma-separated `user:key` pairs (or bare keys); when set, every HTTP route but
    /health and the page's files needs a valid X-API-Key, and the key says who the user is."""
    rate_limit: str = "300/minute"
    """Requests per client (the user of a valid API key, else the address): "10/second"."""
    auth_failure_limit: str = "20/minute"
    """Requests with a missing or wrong API key per address, on top of `rate_limit`."""
    rate_limit_storage: str = "memory://"
    """Where limits are counted: memory:// (per process) or redis://host:port/db (shared by
    every worker and host using the same Redis)."""
    cors_origins: str = ""
    """Comma-separated origins allowed to call the API from a browser; empty: none."""
    max_body_bytes: int = Field(default=65_536, ge=1_024, le=10_000_000)
    """Larger HTTP request bodies are refused with 413."""
    assistant_enabled: bool = Field(
        default=True, validation_alias=_env("assistant_enabled", "FEATURE_AI_ENABLED")
    )
    """The chat assistant (and its actions) can be switched off."""
    assistant_provider: AssistantProvider = Field(
        default="rules", validation_alias=_env("assistant_provider", "AI_PRIMARY_PROVIDER")
    )
    """Who drives the assistant: the offline rule policy, a provider's tool calling (keys,
    base URL, region and timeout come from the LECTERN_LLM_* settings), or `hybrid`: the
    rules where the understanding layer is confident and the local model for the rest."""
    assistant_model: str | None = None
    """The provider's model for the assistant; each provider has a default."""
    assistant_max_steps: int = Field(default=10, ge=1, le=50)
    """Model calls one chat turn may make."""
    assistant_intent_model: Path | None = None
    """The understanding layer's trained intent model (JSON weights); unset: the packaged
    one, retrained by `python tools/train_intents.py`."""
    action_ttl_seconds: int = Field(default=3_600, ge=60, le=604_800)
    """How long a proposed action waits for approval before it expires."""
    action_lease_seconds: float = Field(default=60.0, gt=0, le=3_600)
    """How long an approved action may run before the recovery pass may take it over."""
    recovery_interval_seconds: float = Field(default=30.0, gt=0, le=3_600)
    """How often the server settles stranded actions and retries reviews held in the outbox."""
    assistant_min_relevance: float = Field(default=0.3, ge=0.0, le=1.0)
    """Relevance gate: retrieved books under this share of the top score are dropped."""
    assistant_mask_pii: Literal["auto", "on", "off"] = "auto"
    """Mask personal data in chat messages: auto = on for hosted providers, off for rules
    and local."""
    rate_limit_chat: str = Field(
        default="20/minute",
        validation_alias=_env("rate_limit_chat", "RATE_LIMIT_AI_REQUESTS_PER_MINUTE"),
    )
    """Chat turns per user, on top of `rate_limit`: POST /assistant/chat, approvals and
    rejections (they continue the turn) and POST /v1/chat/completions. A bare number is
    per minute (RATE_LIMIT_AI_REQUESTS_PER_MINUTE=20)."""
    search_fallback: bool = False
    """Book searches hand over to the fallback agent when robust signals fire (HTTP
    `fallback` and `lectern search --fallback` override it per request)."""
    fallback_provider: FallbackProvider = "rules"
    """Who drives the fallback agent: the offline rule policy, or a provider's tool calling
    (model from LECTERN_ASSISTANT_MODEL, else LECTERN_LLM_MODEL, else the provider's)."""
    sse_heartbeat_seconds: float = Field(default=15.0, ge=0.1, le=300.0)
    """A comment line is sent on an idle event stream this often, so proxies keep it open."""
    allowed_hosts: str = "127.0.0.1,localhost,::1,testserver"
    """Host names every route answers (DNS-rebinding protection: other Host headers get 400);
    add the names the server is reached by, e.g. "books.example.org,127.0.0.1"; "*" turns the
    check off. /mcp uses the same names unless LECTERN_MCP_ALLOWED_HOSTS is set."""
    mcp_allowed_hosts: str | None = None
    """Host headers /mcp answers (with ports, e.g. "books.example.org,127.0.0.1:*"); unset:
    the names of LECTERN_ALLOWED_HOSTS on any port; "*" turns the check off."""
    redis_url: str | None = None
    """Conversation history in Redis (redis://host:6379/0); unset: in memory."""
    session_ttl_seconds: int = Field(default=86_400, ge=60, le=2_592_000)
    """How long an idle conversation's history is kept."""
    openlibrary_url: str = "https://openlibrary.org"
    """Open Library's base URL (`lectern ingest --provider openlibrary`)."""
    google_books_url: str = "https://www.googleapis.com/books/v1"
    """The Google Books API's base URL (`lectern ingest --provider google-books`)."""
    google_books_api_key: SecretStr | None = None
    """A Google Books API key; without one the API answers at a lower quota."""
    provider_timeout: float = Field(default=10.0, gt=0.0, le=120.0)
    """Seconds one provider request may take."""
    provider_attempts: int = Field(default=3, ge=1, le=10)
    """Tries per provider request on timeouts, 429 and 5xx (exponential backoff)."""
    provider_min_interval: float = Field(default=1.0, ge=0.0, le=60.0)
    """Seconds between two requests to one provider (the APIs ask for moderate use)."""
    review_retries: int = Field(default=3, ge=0, le=10)
    """How often a failed automatic review is tried again before it is given up."""
    review_retry_seconds: int = Field(default=30, ge=0, le=3_600)
    """The wait before each retry of a failed review."""
    review_max_claims: int = Field(default=8, ge=1, le=50)
    """Statements of a document or task an automatic review checks against the project."""
    review_corrections: bool = True
    """Review each proposed catalog correction against the book's source records."""
    review_uploads: bool = True
    """Review each document uploaded to a collection: personal data found, cited summary."""

    bm25_enabled: bool = Field(default=True, validation_alias=_env("bm25_enabled", "BM25_ENABLED"))
    """False: vector-only retrieval (BM25 still answers, marked degraded, when vectors cannot)."""
    rerank: Literal["none", "llm", "late-interaction"] = Field(
        default="none", validation_alias=_env("rerank", "RERANK_ENABLED")
    )
    """What re-orders the head of a collection search after fusion: nothing; the configured
    LLM, listwise; or MaxSim over the embedder's token vectors. Measured in
    docs/guidelines.md: neither beat fusion alone by enough to pay for its latency."""
    rerank_depth: int = Field(default=DEFAULT_RERANK_DEPTH, ge=2, le=100)
    """How many fused passages the reranker re-orders."""
    guide_profiles: Path | None = None
    """A YAML file of guideline agent profiles; unset: the packaged ones (nist, rfc)."""
    guide_default_profile: str = "nist"
    """The profile /chat answers from when a request names none."""
    guide_min_similarity: float = Field(default=DEFAULT_MIN_SIMILARITY, ge=0.0, le=1.0)
    """A guideline search whose best passage is less similar than this (cosine) found
    nothing: the agent refuses instead of answering from it."""
    rate_limit_chat_guide: str = Field(
        default="30/minute", validation_alias=_env("rate_limit_chat_guide", "RATE_LIMIT_CHAT")
    )
    """Guideline chat questions (POST /chat, POST /chat/stream) per client address, whatever
    key or header the client sends."""

    collection_writers: str = ""
    """Comma-separated users (of LECTERN_API_KEYS) who may upload documents to collections;
    empty: nobody may."""
    max_upload_bytes: int = Field(default=20_000_000, ge=1_024, le=1_000_000_000)
    """Larger document uploads are refused with 413."""
    catalog_editors: str = ""
    """Comma-separated users (of LECTERN_API_KEYS) whose approved catalog corrections apply
    at once and who approve or reject everyone else's (which wait as pending until then).
    Without API keys the local user is the one editor."""
    max_upload_chars: int = Field(default=1_000_000, ge=1_000, le=100_000_000)
    """Uploads whose extracted text is longer are refused with 413 (ingest time grows with
    the text: about a minute of CPU per million characters)."""
    orphan_upload_seconds: int = Field(default=3_600, ge=60, le=604_800)
    """At start-up, uploaded files no collection holds and older than this are deleted."""
    upload_quota_bytes: int = Field(default=50_000_000, ge=1, le=10_000_000_000)
    """Bytes of uploads one user may have queued or running at once; more is refused (429)."""
    upload_max_jobs: int = Field(default=3, ge=1, le=1_000)
    """Upload jobs one user may have queued or running at once; more is refused (429)."""
    upload_workers: int = Field(default=2, ge=1, le=32)
    """How many uploads ingest at once without LECTERN_REDIS_URL (worker processes, or
    threads with LECTERN_UPLOAD_RUNNER=thread)."""
    upload_runner: Literal["process", "thread"] = "process"
    """Where uploads ingest without LECTERN_REDIS_URL: `process`, worker processes at a
    lower CPU priority (searches keep their speed during a large ingest), or `thread`,
    threads of the serving process (no second copy of the models in memory)."""
    upload_niceness: int = Field(default=19, ge=0, le=19)
    """The CPU priority (`nice`) of upload worker processes: 19 yields every core to the
    server's searches; 0 shares them equally (uploads finish sooner on a busy machine)."""
    upload_wait_seconds: float = Field(default=120.0, gt=0.0, le=3_600.0)
    """How long `?wait=true` on an upload waits for its job before answering 202."""

    config_file: Path | None = None
    """A YAML file whose `ai:` section holds the settings below (and the LLM's); the
    environment wins over it."""
    ai_graph_timeout_seconds: float = Field(default=120.0, gt=0.0, le=3_600.0)
    """A knowledge-base reply taking longer is abandoned: should_reply=false."""
    ai_project_introduction: str = ""
    """What the project is about: the model's gate and answers read it (on- and off-topic)."""
    ai_enable_verification: bool = False
    """Check each drafted reply before sending it (one more model call with a model)."""
    ai_gating_prompt: str | None = None
    """Instructions of the gate step; unset: the versioned default (kb-gate-v1)."""
    ai_selection_prompt: str | None = None
    """Instructions of the source selection step; unset: kb-select-v1."""
    ai_answer_prompt: str | None = None
    """Instructions of the answer step; unset: kb-answer-v1."""
    ai_verification_prompt: str | None = None
    """Instructions of the verification step; unset: kb-verify-v1."""
    ai_max_sources: int = Field(default=3, ge=1, le=20)
    """Sources one reply may load and cite."""
    ai_max_answer_chars: int = Field(default=600, ge=100, le=10_000)
    """Longest reply body (sentences and their labels; the Links section is extra)."""
    ai_min_relevance: float = Field(default=0.45, ge=0.0, le=1.0)
    """Offline: a source is answered from only when the cosine of the question and its best
    passage reaches this. 0.45 with the answer check (which decides the rest); 0.62 was the
    floor tuned on half of ClapNQ dev without it (docs/assistant.md)."""
    ai_answer_check: bool = True
    """Reply only when a retrieved sentence answers the question (the answer check of
    docs/assistant.md: what the question asks against the sentence, a trained model)."""
    ai_answer_model: Path | None = None
    """The answer check's model file (JSON coefficients); unset: the packaged one, retrained
    by `lectern evaluate answering --train-gate`."""
    ai_standalone_rewrite: bool = True
    """Rewrite a conversation's last turn into a standalone question before retrieval
    (rules offline, the configured model otherwise)."""
    ai_min_coverage: float = Field(default=0.6, ge=0.0, le=1.0)
    """Offline without vectors: the IDF-weighted share of the question's words its best
    passage must hold instead."""
    ai_kb_collection: str | None = None
    """The collection `lectern kb reply`, POST /kb/reply and the assistant's
    ask_knowledge_base answer from when a request names none; unset: they must name one."""
    ai_research_collection: str | None = None
    """The collection of the assistant's research tools; unset: those tools are absent."""
    kb_sources_dir: Path | None = None
    """The support bot's sources folder (`kb.sources_dir` in the YAML file): `sources.txt`
    (one `kb:<url>` or `team:<file>` a line) and `team/` (topic files); `lectern kb sync`
    reads it into the knowledge-base collection."""
    kb_max_page_bytes: int = Field(default=2_000_000, ge=1_024, le=100_000_000)
    """Larger web pages (and team files) are not read by `lectern kb sync`."""
    kb_fetch_timeout_seconds: float = Field(default=10.0, gt=0.0, le=300.0)
    """Each web source's fetch gives up after this long (its stored copy stays)."""
    ai_batch_window_seconds: float = Field(default=3.0, ge=0.0, le=600.0)
    """Chat platforms: messages of one user in one channel this close together are one turn."""
    discord_token: SecretStr | None = Field(
        default=None, validation_alias=_env("discord_token", "DISCORD_TOKEN")
    )
    """`lectern kb bot`: the Discord bot's token (the bot needs the message content intent)."""
    discord_channels: str = ""
    """`lectern kb bot`: comma-separated channel ids the bot answers in (a thread counts by
    its parent); empty: every channel it can read."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Arguments, then the environment, then the YAML file's `ai:` section."""
        given = getattr(init_settings, "init_kwargs", {}).get("config_file")
        path = given or os.environ.get("LECTERN_CONFIG_FILE") or None
        yaml_source = AiYamlSource(settings_cls, Path(path) if path else None)
        return init_settings, env_settings, dotenv_settings, yaml_source, file_secret_settings

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("catalog_url")
    @classmethod
    def _parse_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        try:
            make_url(value.strip())
        except ArgumentError as error:
            raise ValueError(f"not a SQLAlchemy database URL ({error})") from None
        return value.strip()

    @field_validator("qdrant_url")
    @classmethod
    def _qdrant_location(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if "://" in value and not value.startswith(("http://", "https://")):
            raise ValueError("expected :memory:, a folder, or an http:// or https:// URL")
        return value

    @field_validator("guide_profiles")
    @classmethod
    def _profiles_file(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_file():
            raise ValueError(f"{value} is not a file")
        return value

    @field_validator("data_mirror")
    @classmethod
    def _mirror_exists(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_dir():
            raise ValueError(f"{value} is not a directory")
        return value

    @field_validator("source_base_url", "llm_base_url", "azure_openai_endpoint")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value

    @field_validator("assistant_provider", "fallback_provider", "llm", mode="before")
    @classmethod
    def _provider_spelling(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        name = value.strip().lower().replace("_", "-")
        return PROVIDER_SPELLINGS.get(name, name)

    @field_validator("rerank", mode="before")
    @classmethod
    def _rerank_switch(cls, value: object) -> object:
        # The guideline agent's RERANK_ENABLED is a switch: on means the offline reranker.
        if isinstance(value, bool):
            return "late-interaction" if value else "none"
        if isinstance(value, str):
            switch = value.strip().lower()
            if switch in {"true", "1", "yes", "on"}:
                return "late-interaction"
            if switch in {"false", "0", "no", "off", ""}:
                return "none"
        return value

    @field_validator("rate_limit_chat", mode="before")
    @classmethod
    def _per_minute(cls, value: object) -> object:
        if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
            return f"{int(value)}/minute"
        return value

    @field_validator("rate_limit_chat_guide", mode="before")
    @classmethod
    def _guide_per_minute(cls, value: object) -> object:
        return cls._per_minute(value)

    @field_validator("rate_limit", "auth_failure_limit", "rate_limit_chat", "rate_limit_chat_guide")
    @classmethod
    def _limit(cls, value: str) -> str:
        from limits import parse_many

        try:
            parse_many(value)
        except ValueError:
            raise ValueError('expected a limit such as "300/minute" or "10/second"') from None
        return value

    @field_validator("rate_limit_storage")
    @classmethod
    def _storage(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith(STORAGE_SCHEMES):
            raise ValueError("expected memory:// or a redis:// (rediss://) URL")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not value.strip().startswith(STORAGE_SCHEMES[1:]):
            raise ValueError("expected a redis://, rediss:// or redis+unix:// URL")
        return value.strip()

    @field_validator("api_keys")
    @classmethod
    def _keys(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            ApiKeyring.parse(value.get_secret_value())
        return value

    @property
    def api_keyring(self) -> ApiKeyring:
        """The accepted API keys and their users (none: no key needed)."""
        return ApiKeyring.parse(self.api_keys.get_secret_value() if self.api_keys else None)

    @property
    def assistant_masks_pii(self) -> bool:
        """Whether chat messages are masked: hosted providers yes, rules and local no."""
        if self.assistant_mask_pii == "auto":
            return self.assistant_provider not in ("rules", "local", "hybrid")
        return self.assistant_mask_pii == "on"

    @property
    def mcp_allowed_host_list(self) -> list[str]:
        """Host patterns /mcp accepts; empty means any."""
        if self.mcp_allowed_hosts is None:
            return [f"{host}:*" for host in self.allowed_host_list if host != "testserver"]
        hosts = [h.strip() for h in self.mcp_allowed_hosts.split(",") if h.strip()]
        return [] if "*" in hosts else hosts

    @property
    def allowed_host_list(self) -> list[str]:
        """Host names the server answers (IPv6 literals in brackets); empty means any."""
        hosts = [h.strip().lower() for h in self.allowed_hosts.split(",") if h.strip()]
        if "*" in hosts:
            return []
        return [f"[{h}]" if ":" in h and not h.startswith("[") else h for h in hosts]

    @property
    def collection_writer_set(self) -> frozenset[str]:
        """Users who may upload documents to collections."""
        return frozenset(u.strip() for u in self.collection_writers.split(",") if u.strip())

    @property
    def catalog_editor_set(self) -> frozenset[str]:
        """Users named as catalog editors (the local user counts too when keys are off)."""
        return frozenset(u.strip() for u in self.catalog_editors.split(",") if u.strip())

    @property
    def discord_channel_set(self) -> frozenset[str]:
        """Discord channel ids the support bot answers in; empty means all it can read."""
        return frozenset(c.strip() for c in self.discord_channels.split(",") if c.strip())

    @property
    def cors_origin_list(self) -> list[str]:
        """CORS origins as a list."""
        return [o.strip() for o in self.cors_origins.split(",") if o.strip()]

    @property
    def trace_dir(self) -> Path:
        """Where LLM call traces are appended."""
        return self.data_dir / "traces"

    @property
    def resolved_local_model_path(self) -> Path:
        """The GGUF model of llm=local."""
        return self.local_model_path or self.data_dir / "models" / LOCAL_MODEL_FILE

    @property
    def index_dir(self) -> Path:
        """Where search indexes live: one folder per corpus."""
        return self.data_dir / "index"

    @property
    def resolved_qdrant_url(self) -> str:
        """Where Qdrant lives: the setting, else local mode in data_dir/qdrant."""
        return self.qdrant_url or str((self.data_dir / "qdrant").resolve())

    @property
    def resolved_catalog_url(self) -> str:
        """The catalog URL, defaulting to SQLite inside the data directory."""
        if self.catalog_url:
            return self.catalog_url
        return f"sqlite:///{(self.data_dir / 'catalog.db').resolve()}"


def load_settings(**overrides: object) -> Settings:
    """Read settings; a bad value raises ConfigurationError naming the variable."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        problems = []
        for item in error.errors():
            name = "_".join(str(part) for part in item["loc"]) or "settings"
            problems.append(f"{variable_names(name)}: {item['msg']}")
        raise ConfigurationError("invalid settings: " + "; ".join(problems)) from None


def variable_names(name: str) -> str:
    """The environment variables of a setting: ours, then any other name it accepts."""
    field_name = name.lower().removeprefix("lectern_")
    names = [f"LECTERN_{field_name.upper()}"]
    info = Settings.model_fields.get(field_name)
    if info is not None and isinstance(info.validation_alias, AliasChoices):
        names += [
            str(choice)
            for choice in info.validation_alias.choices
            if isinstance(choice, str) and choice.isupper() and not choice.startswith("LECTERN_")
        ]
    return " (or ".join(names) + ")" * (len(names) - 1)
