"""The tool registry: one line per tool in `create_default_registry`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lectern.application.assistant.action_tools import (
    AddToList,
    CreateList,
    DeleteList,
    ProposeCorrection,
    RateBook,
    RemoveFromList,
    RenameList,
)
from lectern.application.assistant.answering_tools import (
    AskKnowledgeBase,
    GetAdvisory,
    GetRecommendations,
    Research,
    SearchThreats,
)
from lectern.application.assistant.query_tools import (
    CatalogFacets,
    GetBookDetails,
    GetListDetails,
    GetReadingLists,
    SearchBooks,
    SimilarBooks,
)
from lectern.application.assistant.tools import ActionTool, QueryTool, ToolDeps
from lectern.application.assistant.workspace_actions import WORKSPACE_ACTION_TOOLS
from lectern.application.assistant.workspace_tools import WORKSPACE_QUERY_TOOLS
from lectern.domain.assistant import ToolSpec
from lectern.errors import ConfigurationError

Tool = QueryTool | ActionTool


class ToolRegistry:
    """Tools by name; the model sees their specs, the loop runs them."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        """Register these tools."""
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        """Add a tool; a second tool with the same name is a mistake."""
        if tool.name in self._tools:
            raise ConfigurationError(f"two assistant tools are named {tool.name!r}")
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        """The tool with this name, or None."""
        return self._tools.get(name)

    def action(self, name: str) -> ActionTool | None:
        """The action tool with this name, or None."""
        tool = self._tools.get(name)
        return tool if isinstance(tool, ActionTool) else None

    @property
    def names(self) -> list[str]:
        """Every tool's name, in registration order."""
        return list(self._tools)

    def specs(self, only: Sequence[str] | None = None) -> list[ToolSpec]:
        """What the model is told about the tools (all, or the named ones)."""
        return [t.spec() for name, t in self._tools.items() if only is None or name in only]


def create_default_registry(deps: ToolDeps) -> ToolRegistry:
    """Every tool the assistant has, over these dependencies.

    The knowledge-base and research tools are there only when their collection is configured.
    """
    registry = ToolRegistry()
    registry.register(SearchBooks(deps))
    registry.register(GetBookDetails(deps))
    registry.register(SimilarBooks(deps))
    registry.register(CatalogFacets(deps))
    registry.register(GetReadingLists(deps))
    registry.register(GetListDetails(deps))
    registry.register(CreateList(deps))
    registry.register(RenameList(deps))
    registry.register(DeleteList(deps))
    registry.register(AddToList(deps))
    registry.register(RemoveFromList(deps))
    registry.register(RateBook(deps))
    registry.register(ProposeCorrection(deps))
    if deps.kb_replier is not None and deps.kb_collection:
        registry.register(AskKnowledgeBase(deps))
    if deps.research is not None and deps.research_collection:
        registry.register(Research(deps))
        registry.register(SearchThreats(deps))
        registry.register(GetAdvisory(deps))
        registry.register(GetRecommendations(deps))
    if deps.workspace is not None:
        for query_tool in WORKSPACE_QUERY_TOOLS:
            registry.register(query_tool(deps))
        for action_tool in WORKSPACE_ACTION_TOOLS:
            registry.register(action_tool(deps))
    return registry
