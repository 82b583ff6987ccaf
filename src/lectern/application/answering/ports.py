"""Ports of the answering workflows: reply steps, the graph, index storage, writers, metrics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from lectern.domain.answering import (
    AIResult,
    ConversationMessage,
    DraftAnswer,
    GateDecision,
    KnowledgeIndex,
    KnowledgeSource,
    LoadedSource,
    SelectedSource,
    Verdict,
)
from lectern.domain.kb_sources import WebFetch, WebPage
from lectern.domain.research import ContextBlock, ResearchDraft, ResearchTemplate

SchemaT = TypeVar("SchemaT")


class SourceCandidate(Protocol):
    """A source a knowledge base's search found, with the passage that earned it."""

    @property
    def selected(self) -> SelectedSource:
        """The source and its relevance."""
        ...

    @property
    def passage(self) -> str:
        """The source's best passage for the question."""
        ...

    @property
    def lexical(self) -> float | None:
        """The best BM25 score among the source's passages (None: BM25 did not find it)."""
        ...


class KnowledgeBaseView(Protocol):
    """What the reply steps and the graph use of one knowledge base.

    `application.answering.knowledge.KnowledgeBase` is the implementation; the steps depend
    on this protocol, so the ports do not import the service that uses them.
    """

    @property
    def name(self) -> str:
        """The collection's name."""
        ...

    @property
    def index(self) -> KnowledgeIndex:
        """The collection's `source_id: summary` index and its term statistics."""
        ...

    @property
    def pages(self) -> bool:
        """Its documents are pages read whole, not records through a mapping."""
        ...

    def source(self, source_id: str) -> KnowledgeSource | None:
        """The source with this id, or None."""
        ...

    def candidates(self, question: str, limit: int) -> tuple[Sequence[SourceCandidate], bool]:
        """Sources for a question in search order with their relevance; True when degraded."""
        ...

    def select(self, question: str, limit: int) -> tuple[SelectedSource, ...]:
        """At most `limit` sources above the relevance floor, in search order."""
        ...

    def load(self, selected: Sequence[SelectedSource]) -> tuple[list[LoadedSource], list[str]]:
        """The texts of the selected sources, and a reason for each that could not load."""
        ...


class ReplySteps(Protocol):
    """The decisions of the reply graph: by rules offline, or by a model.

    Each step may raise; the graph turns any failure into `should_reply=false`.
    """

    name: str

    def gate(self, turn: str, kb: KnowledgeBaseView, *, run_id: str) -> GateDecision:
        """Is the turn a question this knowledge base should answer?"""
        ...

    def select(
        self, question: str, kb: KnowledgeBaseView, limit: int, *, run_id: str
    ) -> tuple[SelectedSource, ...]:
        """At most `limit` sources to answer from, best first (none: do not answer)."""
        ...

    def generate(
        self,
        question: str,
        sources: Sequence[LoadedSource],
        kb: KnowledgeBaseView,
        *,
        run_id: str,
        feedback: str | None = None,
    ) -> DraftAnswer | None:
        """A cited answer from the loaded text only (None: the sources do not answer it).

        `feedback` is why the previous draft was rejected (the one self-reflection retry).
        """
        ...

    def verify(
        self, question: str, draft: DraftAnswer, sources: Sequence[LoadedSource], *, run_id: str
    ) -> Verdict:
        """A second look at the draft (only when verification is on)."""
        ...


class ReplyGraph(Protocol):
    """The compiled reply graph: one run per turn, never raising."""

    def run(self, turn: str, kb: KnowledgeBaseView, *, run_id: str) -> AIResult:
        """Gate, select, load, generate, verify and decide; failures give should_reply=false."""
        ...


class TurnRewriter(Protocol):
    """The last turn of a conversation rewritten to stand alone (before retrieval)."""

    name: str

    def rewrite(
        self, earlier: Sequence[ConversationMessage], turn: str, author: str | None = None
    ) -> str:
        """The standalone question; `author`'s earlier messages carry the thread."""
        ...


class KnowledgeIndexStore(Protocol):
    """Where each collection's `source_id: summary` index is kept between runs."""

    def load(self, collection: str) -> KnowledgeIndex | None:
        """The stored index of a collection, or None."""
        ...

    def save(self, index: KnowledgeIndex) -> None:
        """Store (replace) a collection's index."""
        ...

    def summaries(self, collection: str, summarizer: str) -> Mapping[str, str]:
        """Summaries this summarizer wrote before, by content hash (the summary cache)."""
        ...


class SourceSummarizer(Protocol):
    """Writes the one-line summary of a source at index time."""

    name: str

    def summarize(self, title: str, headings: Sequence[str], text: str) -> str:
        """One line about what the source covers."""
        ...


class JsonModel(Protocol):
    """One JSON-only model call with a caller's own system prompt (`invoke_llm`)."""

    model_id: str

    def invoke(
        self, system_prompt: str, user_content: str, response_model: type[SchemaT]
    ) -> SchemaT:
        """The reply parsed into `response_model`; LLMError when there is none."""
        ...

    def invoke_text(self, system_prompt: str, user_content: str) -> str:
        """The reply's one string (`{"text": ...}`, the `LLMTextResult` schema)."""
        ...


class ResearchWriter(Protocol):
    """Writes a research answer, summary or comparison from context blocks."""

    model_id: str

    def write(
        self,
        template: ResearchTemplate,
        question: str,
        blocks: Sequence[ContextBlock],
        *,
        run_id: str,
        feedback: str | None = None,
    ) -> ResearchDraft:
        """A draft; a model failure is a draft with `error` set, never an exception.

        `feedback` is why the previous draft lost its citations (the one retry).
        """
        ...

    def prompt_version(self, template: ResearchTemplate) -> str:
        """The version of the template this writer uses."""
        ...


class AnsweringObserver(Protocol):
    """Counts replies by outcome and gate decisions (Prometheus in the app)."""

    def request(self, outcome: str) -> None:
        """One reply request ended: success (replied), skip (silent) or error."""
        ...

    def gate(self, decision: str) -> None:
        """The gate decided this for one request."""
        ...

    def reflection(self, outcome: str) -> None:
        """A rejected draft was retried with feedback: `rescued` or `failed`."""
        ...


class ResearchObserver(Protocol):
    """Counts the research chain's retries with feedback (Prometheus in the app)."""

    def research_reflection(self, outcome: str) -> None:
        """A draft that lost citations was retried: `rescued` or `failed`."""
        ...


class NullObserver:
    """Counts nothing."""

    def request(self, outcome: str) -> None:
        """Ignore."""
        del outcome

    def gate(self, decision: str) -> None:
        """Ignore."""
        del decision

    def reflection(self, outcome: str) -> None:
        """Ignore."""
        del outcome


class WebPageFetcher(Protocol):
    """Fetches one page's main text, conditionally when a copy is stored."""

    def fetch(self, url: str, stored: WebPage | None) -> WebFetch:
        """Never raises: a failure is a `failed` fetch with its reason."""
        ...


class KbSourceStore(Protocol):
    """Where fetched pages and staged team files are kept between syncs."""

    def read_source_list(self, sources_dir: Path) -> str | None:
        """`sources.txt`, or None."""
        ...

    def pages(self, collection: str) -> dict[str, WebPage]:
        """The stored pages by URL."""
        ...

    def save_pages(self, collection: str, pages: Mapping[str, WebPage]) -> Path:
        """Store the pages; the folder to add with the `kb-web` mapping."""
        ...

    def stage_team(
        self, collection: str, sources_dir: Path, names: Sequence[str]
    ) -> tuple[Path, list[str], list[str]]:
        """Stage team files; (folder to add, names staged, refusals)."""
        ...
