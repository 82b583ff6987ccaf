"""Answering: the knowledge-base reply graph and the research chain."""

from __future__ import annotations

from lectern.adapters.answering_metrics import PrometheusAnsweringObserver
from lectern.adapters.knowledge_index import JsonKnowledgeIndexStore
from lectern.application.answering.extractive_research import ExtractiveResearchWriter
from lectern.application.answering.kb_sources import KnowledgeSourceSync
from lectern.application.answering.knowledge import (
    KnowledgeBases,
    LeadSentenceSummarizer,
    SelectionConfig,
)
from lectern.application.answering.ports import (
    JsonModel,
    ReplyGraph,
    ReplySteps,
    ResearchWriter,
    SourceSummarizer,
    TurnRewriter,
)
from lectern.application.answering.research import ResearchService
from lectern.application.answering.rules import RuleReplySteps
from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.bootstrap.collections import CollectionWiring


class AnsweringWiring(CollectionWiring):
    """Knowledge bases, the reply graph, the support bot's sources, research."""

    def _uses_model(self) -> bool:
        return self.settings.llm != "extractive"

    def knowledge_bases(self) -> KnowledgeBases:
        """Collections as knowledge bases, their indexes under index_dir/kb."""
        return self._once("knowledge_bases", self._build_knowledge_bases)

    def _build_knowledge_bases(self) -> KnowledgeBases:
        settings = self.settings
        summarizer: SourceSummarizer = LeadSentenceSummarizer()
        if self._uses_model():
            from lectern.adapters.llm.kb_steps import LLMSummarizer

            summarizer = LLMSummarizer(self.llm())
        return KnowledgeBases(
            self.collections(),
            JsonKnowledgeIndexStore(settings.index_dir / "kb"),
            summarizer,
            SelectionConfig(settings.ai_min_relevance, settings.ai_min_coverage),
        )

    def reply_graph(self) -> ReplyGraph:
        """The reply graph, compiled once: rules offline, the configured model otherwise."""
        return self._once("reply_graph", self._build_reply_graph)

    def _build_reply_graph(self) -> ReplyGraph:
        from lectern.adapters.llm.graphs.kb_reply import GraphConfig, KnowledgeBaseReplyGraph

        settings = self.settings
        steps: ReplySteps = RuleReplySteps(settings.ai_max_answer_chars)
        if self._uses_model():
            from lectern.adapters.llm.kb_steps import KBPrompts, LLMReplySteps

            prompts = KBPrompts.build(
                {
                    "gate": settings.ai_gating_prompt,
                    "select": settings.ai_selection_prompt,
                    "answer": settings.ai_answer_prompt,
                    "verify": settings.ai_verification_prompt,
                },
                project_introduction=settings.ai_project_introduction,
                max_sources=settings.ai_max_sources,
                max_answer_chars=settings.ai_max_answer_chars,
            )
            steps = LLMReplySteps(self.llm(), prompts)
        answer_check = None
        if settings.ai_answer_check:
            from lectern.adapters.understanding.answer_check import AnswerCheck, load_model

            answer_check = AnswerCheck(load_model(settings.ai_answer_model))
        return KnowledgeBaseReplyGraph(
            steps,
            GraphConfig(
                max_sources=settings.ai_max_sources,
                max_answer_chars=settings.ai_max_answer_chars,
                enable_verification=settings.ai_enable_verification,
                graph_timeout_seconds=settings.ai_graph_timeout_seconds,
            ),
            answer_check=answer_check,
        )

    def kb_source_sync(self) -> KnowledgeSourceSync:
        """The support bot's web and team sources into a collection (`lectern kb sync`)."""
        return self._once("kb_source_sync", self._build_kb_source_sync)

    def _build_kb_source_sync(self) -> KnowledgeSourceSync:
        from lectern.adapters.kb_web import FolderKbSourceStore, HttpxWebPageFetcher

        settings = self.settings
        fetcher = HttpxWebPageFetcher(
            max_bytes=settings.kb_max_page_bytes, timeout=settings.kb_fetch_timeout_seconds
        )
        store = FolderKbSourceStore(
            settings.data_dir / "kb-sources", max_bytes=settings.kb_max_page_bytes
        )
        return KnowledgeSourceSync(self.collections(), fetcher, store)

    def kb_replier(self) -> KnowledgeBaseReplier:
        """Knowledge-base replies (`lectern kb reply`, POST /kb/reply, ask_knowledge_base)."""
        return self._once("kb_replier", self._build_kb_replier)

    def _build_kb_replier(self) -> KnowledgeBaseReplier:
        json_model: JsonModel | None = None
        if self._uses_model():
            from lectern.adapters.llm.kb_steps import LLMJsonModel

            json_model = LLMJsonModel(self.llm())
        observer = self._once(
            "answering_observer", lambda: PrometheusAnsweringObserver(self.metrics.registry)
        )
        from lectern.adapters.llm.standalone import LlmStandaloneRewriter, RuleStandaloneRewriter

        rewriter: TurnRewriter | None = RuleStandaloneRewriter()
        if not self.settings.ai_standalone_rewrite:
            rewriter = None
        elif self._uses_model():
            rewriter = LlmStandaloneRewriter(self.llm(), RuleStandaloneRewriter())
        return KnowledgeBaseReplier(
            self.reply_graph(),
            self.knowledge_bases(),
            project_introduction=self.settings.ai_project_introduction,
            json_model=json_model,
            usage=self.tracer(),
            observer=observer,
            rewriter=rewriter,
        )

    def research(self) -> ResearchService:
        """The research chain over any collection (`lectern research`, POST /research)."""
        return self._once("research", self._build_research)

    def _build_research(self) -> ResearchService:
        writer: ResearchWriter = ExtractiveResearchWriter()
        if self._uses_model():
            from lectern.adapters.llm.research_writer import LLMResearchWriter

            writer = LLMResearchWriter(self.llm())
        observer = self._once(
            "answering_observer", lambda: PrometheusAnsweringObserver(self.metrics.registry)
        )
        return ResearchService(self.collections(), writer, observer=observer)
