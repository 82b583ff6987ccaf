"""Tools the assistant can call: query tools run at once, action tools only propose.

A tool is one class: a name, a description, a Pydantic input model (its JSON schema is
what the model sees) and what it does. Register it in `registry.create_default_registry`.
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from lectern.application.access import CatalogEditors, CollectionAccess
from lectern.application.answering.research import ResearchService
from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.application.assistant.ports import LibraryStore, PendingActionStore
from lectern.application.ports import BookCatalog, QueryUnderstanding
from lectern.application.search import BookSearchService
from lectern.application.understanding import Vocabulary
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.assistant import ActionPreview, JSONObject, PageContext, ToolSpec, field_diff
from lectern.domain.books import JSONValue
from lectern.errors import LecternError, ToolError


class ToolInput(BaseModel):
    """Base of every tool's input: unknown fields are refused, text is stripped."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


@dataclass(frozen=True, slots=True)
class ToolContext:
    """Who calls a tool, from which conversation and page, and when."""

    user: str
    conversation: str
    now: datetime
    page: PageContext = field(default_factory=PageContext)
    idempotency_key: str | None = None
    """While executing an approved action: its id. A tool that creates a row without an id
    from its preview names the row with it, so a re-run after a crash cannot write twice."""


@dataclass
class ToolDeps:
    """What the tools work with; bootstrap builds it, tests pass fakes."""

    catalog: BookCatalog
    library: LibraryStore
    actions: PendingActionStore
    search: BookSearchService | None = None
    load_search: Callable[[], BookSearchService] | None = None
    """Loads the search service on first use (its indexes take seconds to load)."""
    understanding: QueryUnderstanding | None = None
    vocabulary: Vocabulary | None = None
    workspace: WorkspaceService | None = None
    """The research workspace (its tools are registered only when it is there)."""
    min_relevance: float = 0.3
    """Relevance gate: results under this share of the top result's score are dropped."""
    new_id: Callable[[], str] = field(default_factory=lambda: lambda: str(uuid.uuid4()))
    kb_replier: Callable[[], KnowledgeBaseReplier] | None = None
    """Loads the knowledge-base replier (ask_knowledge_base is registered when set)."""
    kb_collection: str | None = None
    research: Callable[[], ResearchService] | None = None
    """Loads the research chain (the research tools are registered when set)."""
    research_collection: str | None = None
    access: CollectionAccess | None = None
    """Who may read which collection; the tools reading a configured collection ask it."""
    catalog_editors: CatalogEditors = field(default_factory=CatalogEditors)
    """Whose corrections apply at once (LECTERN_CATALOG_EDITORS; keyless: the local user)."""

    def searcher(self) -> BookSearchService:
        """The search service, loaded on first use; ToolError when it cannot be."""
        if self.search is None and self.load_search is not None:
            try:
                self.search = self.load_search()
            except LecternError as error:
                raise ToolError(f"search is not available: {error}") from None
        if self.search is None:
            raise ToolError("search is not available: the indexes are not built")
        return self.search


@dataclass(frozen=True, slots=True)
class QueryOutput:
    """A query tool's result: the data the model sees, and the evidence it may cite."""

    data: JSONValue
    evidence: Mapping[str, str] = field(default_factory=dict)
    """Source key (`book:<id>#field`) -> the exact text returned for it."""
    retrieval: bool = False
    """True for tools that retrieve catalog evidence (search, details, similar)."""
    dropped: int = 0
    """Results the relevance gate removed before the model saw them."""


class _Tool(ABC):
    name: ClassVar[str]
    description: ClassVar[str]
    Input: ClassVar[type[ToolInput]]

    def __init__(self, deps: ToolDeps) -> None:
        """Tools share the registry's dependencies."""
        self.deps = deps

    def spec(self) -> ToolSpec:
        """Name, description and input schema, as the model sees them."""
        return ToolSpec(self.name, self.description, self.Input.model_json_schema())

    def parse(self, arguments: Mapping[str, Any]) -> ToolInput:
        """The arguments checked against the input model; ToolError names what is wrong."""
        try:
            return self.Input.model_validate(dict(arguments))
        except ValidationError as error:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}"
                for e in error.errors()
            )
            raise ToolError(f"invalid input for {self.name}: {problems}") from None


class QueryTool(_Tool):
    """A read-only tool: it runs as soon as the model asks."""

    @abstractmethod
    def run(self, args: Any, context: ToolContext) -> QueryOutput:
        """Run with checked arguments."""


class ActionTool(_Tool):
    """A tool that changes data: it previews, and runs only after its owner approves."""

    entity_type: ClassVar[str]

    @abstractmethod
    def preview(self, args: Any, context: ToolContext) -> ActionPreview:
        """What would change, with ids resolved; nothing is written."""

    @abstractmethod
    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """The entity's state now, in the form of the preview's `old_state`.

        Raises ActionNotReadyError when the entity depends on an action not yet run.
        """

    @abstractmethod
    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Do it, with exactly the previewed input; returns what the model is told."""

    @abstractmethod
    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """Arguments that preview the same request again (for a fresh preview)."""

    def proposal(
        self,
        description: str,
        entity_id: str,
        tool_input: dict[str, JSONValue],
        old: JSONValue,
        new: JSONValue,
    ) -> ActionPreview:
        """The preview of this tool taking `entity_id` from `old` to `new`, with the diff."""
        return ActionPreview(
            tool_name=self.name,
            description=description,
            entity_type=self.entity_type,
            entity_id=entity_id,
            tool_input=tool_input,
            old_state=old,
            new_state=new,
            diff=field_diff(old, new),
        )
