"""The grammar of one step of the local model: one valid call of an offered tool, or an answer.

For the tools offered in a step, a JSON schema is built that is one of
`{"name": <tool>, "arguments": <that tool's input schema>}` per tool; llama-cpp-python's
converter turns it into a GBNF grammar, framed by the `<tool_call>` tags Qwen2.5 was trained
on, and llama.cpp samples only tokens the grammar allows. The other branch is a final answer:
text with no `<` that does not open with `{`, `[` or a code fence, so neither half a call,
nor a bare JSON call, nor a second call can be written. Each tool's `$defs` move to the
root (prefixed with the tool's name) so that its `$ref`s still resolve under `oneOf`.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from lectern.errors import ConfigurationError

CALL_OPEN = "<tool_call>\n"
CALL_CLOSE = "\n</tool_call>"
_REF = "#/$defs/"
_ROOT_RULE = re.compile(r"^root ::=", re.MULTILINE)
ANSWER_RULES = (
    # A final answer: no tag anywhere, and not a JSON value or a fenced block at the start.
    "tc-answer ::= [^<{`\\[ \\t\\n] [^<]*\n"
)


def _function(tool: Mapping[str, Any]) -> Mapping[str, Any]:
    """The function part of a tool in the OpenAI format (or the tool itself)."""
    inner = tool.get("function")
    return inner if isinstance(inner, Mapping) else tool


def _renamed_refs(node: Any, renames: Mapping[str, str]) -> Any:
    if isinstance(node, dict):
        out = {key: _renamed_refs(value, renames) for key, value in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str):
            for old, new in renames.items():
                if ref == old:
                    out["$ref"] = new
        return out
    if isinstance(node, list):
        return [_renamed_refs(item, renames) for item in node]
    return node


def call_schema(tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One JSON schema for one call of any of `tools` (OpenAI function format).

    Raises:
        ConfigurationError: a tool has no name, or two tools share one.
    """
    branches: list[dict[str, Any]] = []
    definitions: dict[str, Any] = {}
    seen: set[str] = set()
    for tool in tools:
        function = _function(tool)
        name = function.get("name")
        if not isinstance(name, str) or not name or name in seen:
            raise ConfigurationError(
                f"a tool offered to the local model is unnamed or twice: {name!r}"
            )
        seen.add(name)
        parameters = copy.deepcopy(dict(function.get("parameters") or {"type": "object"}))
        local = {**parameters.pop("definitions", {}), **parameters.pop("$defs", {})}
        renames = {}
        for key in local:
            renames[f"#/$defs/{key}"] = f"{_REF}{name}--{key}"
            renames[f"#/definitions/{key}"] = f"{_REF}{name}--{key}"
        parameters = _renamed_refs(parameters, renames)
        for key, value in local.items():
            definitions[f"{name}--{key}"] = _renamed_refs(value, renames)
        branches.append(
            {
                "type": "object",
                "properties": {"name": {"const": name}, "arguments": parameters},
                "required": ["name", "arguments"],
                "additionalProperties": False,
            }
        )
    schema: dict[str, Any] = {"oneOf": branches}
    if definitions:
        schema["$defs"] = definitions
    return schema


def call_grammar(tools: Sequence[Mapping[str, Any]]) -> str:
    """The GBNF text: one framed call of an offered tool, or a final answer.

    Raises:
        ConfigurationError: llama-cpp-python is not installed.
    """
    try:
        from llama_cpp.llama_grammar import json_schema_to_gbnf
    except ImportError:
        raise ConfigurationError(
            "grammar-constrained tool calls need llama-cpp-python: run `make local-llm`"
        ) from None
    converted = json_schema_to_gbnf(json.dumps(call_schema(tools)), ["name", "arguments"])
    body = _ROOT_RULE.sub("tc-json ::=", converted, count=1)
    head = f"root ::= {json.dumps(CALL_OPEN)} tc-json {json.dumps(CALL_CLOSE)} | tc-answer\n"
    return head + ANSWER_RULES + body


def compiled_grammar(tools: Sequence[Mapping[str, Any]]) -> Any:
    """`call_grammar` parsed by llama.cpp (a `LlamaGrammar`)."""
    text = call_grammar(tools)  # says what to install when llama-cpp-python is missing
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_string(text, verbose=False)
