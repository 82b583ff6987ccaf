"""The chat assistant: stores, its model, tools, approvals and catalog corrections."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import TYPE_CHECKING

from lectern.adapters.actions.sqlalchemy_actions import SqlAlchemyPendingActions
from lectern.adapters.assistant_metrics import PrometheusAssistantObserver
from lectern.adapters.catalog.library import SqlAlchemyLibrary
from lectern.adapters.privacy.patterns import PatternPiiDetector
from lectern.adapters.sessions.memory import InMemorySessions
from lectern.application.access import CatalogEditors
from lectern.application.assistant.approvals import ActionReviewer, Approvals
from lectern.application.assistant.correction_review import CorrectionReviewer
from lectern.application.assistant.names import visible_names
from lectern.application.assistant.ports import (
    ChatModel,
    LibraryStore,
    PendingActionStore,
    SessionStore,
)
from lectern.application.assistant.registry import ToolRegistry, create_default_registry
from lectern.application.assistant.service import AssistantConfig, AssistantService
from lectern.application.assistant.tools import ToolDeps
from lectern.application.catalog_corrections import CatalogCorrections
from lectern.application.providers import StoredRecordLookup
from lectern.bootstrap.answering import AnsweringWiring
from lectern.bootstrap.base import log
from lectern.bootstrap.indexes import make_embedder
from lectern.bootstrap.models import TOOL_CONTEXT, local_chat_model, provider_config
from lectern.bootstrap.search import SearchWiring
from lectern.bootstrap.workspace import WorkspaceWiring

if TYPE_CHECKING:
    from collections.abc import Sequence

    from lectern.adapters.understanding.layer import Understanding


class AssistantWiring(SearchWiring, AnsweringWiring, WorkspaceWiring):
    """The assistant's loop, stores, model, tools and approvals."""

    def library(self) -> LibraryStore:
        """Reading lists, ratings and corrections."""
        if self.overrides.library is not None:
            return self.overrides.library
        return self._once("library", lambda: SqlAlchemyLibrary(self._assistant_engine()))

    def pending_actions(self) -> PendingActionStore:
        """Proposed actions waiting for approval."""
        if self.overrides.pending_actions is not None:
            return self.overrides.pending_actions
        return self._once(
            "pending_actions", lambda: SqlAlchemyPendingActions(self._assistant_engine())
        )

    def sessions(self) -> SessionStore:
        """Conversation history: Redis when LECTERN_REDIS_URL is set, else memory."""
        if self.overrides.sessions is not None:
            return self.overrides.sessions
        return self._once("sessions", self._build_sessions)

    def _build_sessions(self) -> SessionStore:
        ttl = float(self.settings.session_ttl_seconds)
        if self.settings.redis_url is None:
            return InMemorySessions(ttl)
        from lectern.adapters.sessions.redis_sessions import RedisSessions

        return RedisSessions(self.settings.redis_url, ttl)

    def chat_model(self) -> ChatModel:
        """LECTERN_ASSISTANT_PROVIDER's model: the rule policy, or a provider's tool calling."""
        if self.overrides.chat_model is not None:
            return self.overrides.chat_model
        return self._once("chat_model", self._build_chat_model)

    def _build_chat_model(self) -> ChatModel:
        settings = self.settings
        provider = settings.assistant_provider
        if provider in ("rules", "hybrid"):
            from lectern.adapters.llm.rule_policy import RulePolicy
            from lectern.application.book_lookup import (
                books_spelt_like,
                books_titled,
                names_a_title,
                names_an_author,
                spelt_title,
            )
            from lectern.application.series_books import CatalogSeries
            from lectern.application.writers_books import CatalogWriters

            rules = RulePolicy(
                self.understanding(),
                self.understanding_layer(),
                self.clock,
                titles=lambda title: names_a_title(title, self.vocabulary()),
                books=lambda title: books_titled(title, self.vocabulary(), self.catalog),
                authors=lambda name: names_an_author(name, self.vocabulary()),
                spelt=lambda title: spelt_title(title, self.title_matcher(), self.catalog),
                near=lambda title, cutoff: books_spelt_like(
                    title, cutoff, self.title_matcher(), self.catalog
                ),
                writers=CatalogWriters(self.catalog),
                series=CatalogSeries(self.catalog),
            )
            if provider == "rules":
                return rules
            from lectern.adapters.llm.hybrid_policy import HybridPolicy

            return HybridPolicy(rules, self.local_tool_model())
        if provider == "local":
            return self.local_tool_model()
        from lectern.adapters.llm.providers import make_chat_model
        from lectern.adapters.llm.tool_calling import LangChainToolModel

        choice = make_chat_model(
            provider_config(settings, provider, settings.assistant_model or settings.llm_model)
        )
        return LangChainToolModel(choice.model, choice.model_id)

    def local_tool_model(self) -> ChatModel:
        """The in-process model calling tools (`local`, and `hybrid`'s unsure messages)."""
        if self.overrides.local_tool_model is not None:
            return self.overrides.local_tool_model
        return self._once("local_tool_model", self._build_local_tool_model)

    def _build_local_tool_model(self) -> ChatModel:
        from lectern.adapters.llm.tool_calling import LangChainToolModel

        model, model_id = local_chat_model(self.settings, context=TOOL_CONTEXT)
        return LangChainToolModel(model, model_id)

    def understanding_layer(self) -> Understanding:
        """The understanding layer: intents by meaning over the packaged MiniLM (issue 26)."""
        return self._once("understanding_layer", self._build_understanding_layer)

    def _build_understanding_layer(self) -> Understanding:
        from lectern.adapters.understanding.intent_examples import EXAMPLES
        from lectern.adapters.understanding.intents import packaged_classifier
        from lectern.adapters.understanding.layer import Understanding

        embedder = self.overrides.embedder or make_embedder(self.settings)
        cache = self.settings.data_dir / "understanding"
        configured = self.settings.assistant_intent_model
        return Understanding(packaged_classifier(embedder, EXAMPLES, cache, configured))

    def tool_registry(self) -> ToolRegistry:
        """Every assistant tool over this installation's catalog, search and library."""
        return self._once("tool_registry", self._build_registry)

    def _build_registry(self) -> ToolRegistry:
        return create_default_registry(self.tool_deps())

    def tool_deps(self) -> ToolDeps:
        """What the assistant's tools work with (one instance: search loads once)."""
        return self._once("tool_deps", self._build_tool_deps)

    def _build_tool_deps(self) -> ToolDeps:
        return ToolDeps(
            catalog=self.catalog,
            library=self.library(),
            actions=self.pending_actions(),
            workspace=self.workspace(),
            load_search=self.search,
            understanding=self.understanding(),
            vocabulary=self.vocabulary(),
            min_relevance=self.settings.assistant_min_relevance,
            new_id=lambda: str(uuid.uuid4()),
            kb_replier=self.kb_replier,
            kb_collection=self.settings.ai_kb_collection,
            research=self.research,
            research_collection=self.settings.ai_research_collection,
            access=self.collection_access(),
            catalog_editors=self.catalog_editors(),
        )

    def assistant(self) -> AssistantService:
        """The chat assistant: the loop, its tools, approvals, sessions and guardrails."""
        return self._once("assistant", self._build_assistant)

    def approvals(self) -> Approvals:
        """Pending actions and their decisions (shared by the assistant and recovery)."""
        return self._once("approvals", self._build_approvals)

    def _build_approvals(self) -> Approvals:
        settings = self.settings
        return Approvals(
            self.pending_actions(),
            self.tool_registry(),
            ttl=timedelta(seconds=settings.action_ttl_seconds),
            clock=self.clock,
            new_id=lambda: str(uuid.uuid4()),
            observer=self._assistant_observer(),
            reviewers=self.action_reviewers(),
            lease=timedelta(seconds=settings.action_lease_seconds),
        )

    def _assistant_observer(self) -> PrometheusAssistantObserver:
        return self._once(
            "assistant_observer", lambda: PrometheusAssistantObserver(self.metrics.registry)
        )

    def recover(self) -> None:
        """Settle stranded approvals (start-up and the server's timer); never raises."""
        try:
            # One cheap query first: the tools (and what they load) only when needed.
            if self.pending_actions().stranded(self.clock()):
                self.approvals().recover()
        except Exception as error:  # noqa: BLE001 - recovery retries on the next tick
            log.warning("action recovery failed", error=f"{type(error).__name__}: {error}")

    def _build_assistant(self) -> AssistantService:
        settings = self.settings
        registry = self.tool_registry()
        observer = self._assistant_observer()
        return AssistantService(
            self.chat_model(),
            registry,
            self.approvals(),
            self.sessions(),
            config=AssistantConfig(
                enabled=settings.assistant_enabled,
                max_agent_steps=settings.assistant_max_steps,
                temperature=settings.llm_temperature,
                max_tokens=settings.llm_max_tokens,
                mask_pii=settings.assistant_masks_pii,
            ),
            clock=self.clock,
            tracer=self.tracer(),
            pii=self.overrides.pii or PatternPiiDetector(),
            observer=observer,
            page_check=self.workspace().checked_page,
            names=visible_names(self.workspace(), self.library(), self._titles_of),
        )

    def _titles_of(self, book_ids: Sequence[str]) -> dict[str, str]:
        """The catalog titles of these book ids (unknown ids left out)."""
        wanted = []
        for book_id in book_ids:
            try:
                wanted.append(uuid.UUID(book_id))
            except ValueError:
                continue  # not a catalog id: nothing to show
        return {str(book.id): book.title for book in self.catalog.get_many(wanted)}

    def action_reviewers(self) -> dict[str, ActionReviewer]:
        """Automatic reviews of previews, by tool (LECTERN_REVIEW_CORRECTIONS)."""
        if not self.settings.review_corrections:
            return {}
        reviewer = CorrectionReviewer(self.catalog, StoredRecordLookup(self.provider_records()))
        return {reviewer.tool_name: reviewer}

    def catalog_editors(self) -> CatalogEditors:
        """Who may change the shared catalog (LECTERN_CATALOG_EDITORS)."""
        return CatalogEditors(
            self.settings.catalog_editor_set, keys_required=self.settings.api_keyring.required
        )

    def catalog_corrections(self) -> CatalogCorrections:
        """Pending catalog corrections and an editor's decision on each."""
        return CatalogCorrections(self.catalog, self.library(), self.catalog_editors())
