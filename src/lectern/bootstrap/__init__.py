"""The one place that wires adapters into services.

`bootstrap()` builds `Services` (in `services.py`), one class over a wiring class per
capability, each in its own module and each building its parts on first use:

- `base.py`: `Overrides`, the clock, and `Wiring` (settings, metrics, parts built once)
- `indexes.py`: embedder, search indexes on either engine, retrievers (no `Services` needed)
- `catalog.py`: the catalog database, sources, providers, ingestion, the catalog's indexes
- `models.py`: the LLM, chat models and provider settings, the trace, the reranker
- `search.py`: book search, explanations, query understanding, the fallback, evaluation
- `collections.py`: collections and their indexes
- `answering.py`: knowledge bases, the reply graph, the support bot's sources, research
- `workspace.py`: research workspaces, collection access, automatic reviews
- `uploads.py`: upload jobs, their queues, reviews, recovery and clean-up
- `assistant.py`: the assistant's stores, model, tools, approvals, catalog corrections
- `guideline.py`: the guideline chat agent
- `operations.py`: readiness probes, the code's commit, run ids
- `commands.py`: migrate, the answer check's training, the Discord bot (over `Services`)

A capability's wiring class inherits the ones it builds on, so each module imports only
those below it, and `Services` inherits the top ones.
"""

from lectern.bootstrap.base import Clock, Overrides, system_clock
from lectern.bootstrap.catalog import PROVIDERS, default_sources, make_fetcher, make_providers
from lectern.bootstrap.commands import (
    MigrationReport,
    discord_support_bot,
    migrate_install,
    packaged_answer_model,
    train_answer_gate,
)
from lectern.bootstrap.indexes import (
    SearchIndexes,
    beir_evaluation,
    book_search_config,
    load_retriever,
    make_embedder,
    qdrant_client,
    qdrant_indexes,
    search_config,
    search_indexes,
)
from lectern.bootstrap.models import (
    TOOL_CONTEXT,
    assemble_local_model,
    local_chat_model,
    make_llm,
    provider_config,
)
from lectern.bootstrap.operations import git_commit, new_run_id, qdrant_readiness_url
from lectern.bootstrap.services import Services, bootstrap

__all__ = [
    "PROVIDERS",
    "TOOL_CONTEXT",
    "Clock",
    "MigrationReport",
    "Overrides",
    "SearchIndexes",
    "Services",
    "assemble_local_model",
    "beir_evaluation",
    "bootstrap",
    "default_sources",
    "discord_support_bot",
    "git_commit",
    "load_retriever",
    "local_chat_model",
    "make_embedder",
    "make_fetcher",
    "make_llm",
    "make_providers",
    "migrate_install",
    "new_run_id",
    "packaged_answer_model",
    "provider_config",
    "qdrant_client",
    "qdrant_indexes",
    "qdrant_readiness_url",
    "book_search_config",
    "search_config",
    "search_indexes",
    "system_clock",
    "train_answer_gate",
]
