"""The grammar the local model decodes tool steps under: built from the offered tools' schemas.

The schema side runs everywhere; the GBNF side needs llama-cpp-python (`make local-llm`),
which CI does not install, so those tests skip without it. No model is loaded: llama.cpp
parses a grammar without one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from lectern.adapters.llm.tool_calling import openai_tool
from lectern.adapters.llm.tool_grammar import ANSWER, call_schema, integer_range, with_answer
from lectern.application.assistant.registry import ToolRegistry, create_default_registry
from lectern.application.assistant.tools import ToolDeps
from lectern.domain.assistant import ToolSpec
from lectern.errors import ConfigurationError, LLMError
from lectern.settings import LOCAL_MODEL_FILE
from tests.fakes import FakeCatalog, FakeLibrary, FakePendingActions

NEEDS_LLAMA = "llama-cpp-python is not installed (`make local-llm`); CI runs without it"
MODEL = Path(__file__).resolve().parents[2] / "var" / "models" / LOCAL_MODEL_FILE
"""Where `make local-llm` puts the model (the tests' own data directories are empty)."""


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


def test_the_answer_is_offered_last_and_no_tool_may_take_its_name() -> None:
    tools = _tools(_every_tool().specs())
    offered = with_answer(tools)
    assert offered[:-1] == tools
    assert offered[-1]["function"]["name"] == ANSWER
    taken = ToolSpec(ANSWER, "A tool that shadows the reply.", {"type": "object"})
    with pytest.raises(ConfigurationError, match="final reply"):
        with_answer(_tools([taken]))


def test_two_tools_of_one_name_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="twice"):
        call_schema(_tools([NESTED, NESTED]))


def _vocabulary_only() -> Any:
    """llama.cpp over the packaged model's vocabulary alone (no weights: about a second)."""
    llama_cpp = pytest.importorskip("llama_cpp", reason=NEEDS_LLAMA)
    path = MODEL
    if not path.is_file():
        pytest.skip(f"no model at {path} (`make local-llm`): llama.cpp parses over its vocabulary")
    return llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)


def test_the_grammar_builds_for_every_tool_of_the_registry() -> None:
    pytest.importorskip("llama_cpp", reason=NEEDS_LLAMA)
    from lectern.adapters.llm.tool_grammar import call_grammar

    tools = with_answer(_tools(_every_tool().specs()))
    text = call_grammar(tools)
    assert text.startswith('root ::= "<tool_call>\\n" tc-json "\\n</tool_call>"\n')
    for tool in tools:
        assert f'\\"{tool["function"]["name"]}\\"' in text
    assert "@@int:" not in text  # every bounded integer became its own rule


def test_llama_cpp_parses_the_grammar_of_every_tool() -> None:
    from lectern.adapters.llm.tool_grammar import compiled_grammar

    llama = _vocabulary_only()
    compiled_grammar(with_answer(_tools(_every_tool().specs())), llama)
    for spec in _every_tool().specs():
        compiled_grammar(_tools([spec]), llama)


def test_a_grammar_llama_cpp_refuses_is_an_error_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lectern.adapters.llm import tool_grammar

    llama = _vocabulary_only()
    long_text = ToolSpec(
        "note",
        "A tool taking a long text.",
        {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    )
    monkeypatch.setattr(tool_grammar, "STRING_CAP", 4000)  # llama.cpp refuses this long
    with pytest.raises(LLMError, match="refuses the grammar of the tools note"):
        tool_grammar.compiled_grammar(_tools([long_text]), llama)


def test_a_grammar_is_built_once_per_tool_set() -> None:
    from lectern.adapters.llm.local_gguf import LlamaCppChatModel

    llama = _vocabulary_only()
    model = LlamaCppChatModel(model_path="/nonexistent.gguf")
    tools = _tools(_every_tool().specs())
    assert model._grammar(tools, llama) is model._grammar(list(tools), llama)
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
