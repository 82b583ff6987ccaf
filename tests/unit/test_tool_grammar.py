"""The grammar the local model decodes tool steps under: built from the offered tools' schemas.

The schema side runs everywhere; the GBNF side needs llama-cpp-python (`make local-llm`),
which CI does not install, so those tests skip without it. No model is loaded: llama.cpp
parses a grammar without one.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from lectern.adapters.llm.tool_calling import openai_tool
from lectern.adapters.llm.tool_grammar import call_schema, integer_range
from lectern.application.assistant.registry import ToolRegistry, create_default_registry
from lectern.application.assistant.tools import ToolDeps
from lectern.domain.assistant import ToolSpec
from lectern.errors import ConfigurationError
from tests.fakes import FakeCatalog, FakeLibrary, FakePendingActions

NEEDS_LLAMA = "llama-cpp-python is not installed (`make local-llm`); CI runs without it"


def _every_tool() -> ToolRegistry:
    """The real registry with every optional group of tools registered (none is run)."""
    deps = ToolDeps(
        catalog=FakeCatalog(),
        library=FakeLibrary(),
        actions=FakePendingActions(),
        workspace=object(),  # type: ignore[arg-type]
        kb_replier=object,  # type: ignore[arg-type]
        kb_collection="fastapi",
        research=object,  # type: ignore[arg-type]
        research_collection="kev",
    )
    return create_default_registry(deps)


def _tools(specs: list[ToolSpec]) -> list[dict[str, Any]]:
    return [openai_tool(spec) for spec in specs]


NESTED = ToolSpec(
    "plan",
    "A tool whose input nests a model.",
    {
        "$defs": {
            "Step": {"type": "object", "properties": {"what": {"$ref": "#/$defs/Kind"}}},
            "Kind": {"enum": ["read", "write"]},
        },
        "type": "object",
        "properties": {"steps": {"type": "array", "items": {"$ref": "#/$defs/Step"}}},
        "required": ["steps"],
    },
)


def test_each_tool_is_one_branch_naming_it_with_its_arguments() -> None:
    specs = _every_tool().specs()
    schema = call_schema(_tools(specs))
    branches = schema["oneOf"]
    assert [b["properties"]["name"]["const"] for b in branches] == [s.name for s in specs]
    for branch, spec in zip(branches, specs, strict=True):
        assert branch["required"] == ["name", "arguments"]
        assert branch["additionalProperties"] is False
        assert branch["properties"]["arguments"]["properties"] == spec.input_schema["properties"]


def test_a_tools_definitions_move_to_the_root_and_its_refs_follow() -> None:
    schema = call_schema(_tools([NESTED]))
    arguments = schema["oneOf"][0]["properties"]["arguments"]
    assert "$defs" not in arguments
    assert arguments["properties"]["steps"]["items"] == {"$ref": "#/$defs/plan--Step"}
    assert schema["$defs"]["plan--Step"]["properties"]["what"] == {"$ref": "#/$defs/plan--Kind"}


def test_two_tools_of_one_name_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="twice"):
        call_schema(_tools([NESTED, NESTED]))


def test_the_grammar_builds_for_every_tool_of_the_registry() -> None:
    pytest.importorskip("llama_cpp", reason=NEEDS_LLAMA)
    from lectern.adapters.llm.tool_grammar import call_grammar, compiled_grammar

    tools = _tools(_every_tool().specs())
    text = call_grammar(tools)
    assert text.startswith('root ::= "<tool_call>\\n" tc-json "\\n</tool_call>" | tc-answer')
    for tool in tools:
        assert f'\\"{tool["function"]["name"]}\\"' in text
    compiled_grammar(tools)  # llama.cpp parses it (a bad rule raises)


def test_a_grammar_is_built_once_per_tool_set() -> None:
    pytest.importorskip("llama_cpp", reason=NEEDS_LLAMA)
    from lectern.adapters.llm.local_gguf import LlamaCppChatModel

    model = LlamaCppChatModel(model_path="/nonexistent.gguf")
    tools = _tools(_every_tool().specs())
    assert model._grammar(tools) is model._grammar(list(tools))
    assert len(model._grammars) == 1


def _as_regex(expression: str) -> re.Pattern[str]:
    """A GBNF expression of literals, ranges, groups and alternatives as a Python regex."""
    pattern = re.sub(r'"([^"]*)"', lambda m: re.escape(m.group(1)), expression)
    return re.compile(pattern.replace(" ", ""))


@pytest.mark.parametrize(
    ("low", "high"), [(1, 5), (1, 20), (1, 50), (1, 10_000), (-3000, 2100), (0, 0), (-7, -3)]
)
def test_a_bounded_integer_spells_exactly_the_numbers_in_range(low: int, high: int) -> None:
    matcher = _as_regex(integer_range(low, high))
    accepted = {n for n in range(low - 1200, high + 1200) if matcher.fullmatch(str(n))}
    assert accepted == set(range(low, high + 1))
    assert not matcher.fullmatch("05")  # no leading zeros: JSON would refuse them
